"""The queue's service: the people waiting in it, joining and leaving, avoid lists, time away,
the end of a wait.

A person joins a server's queue with their wishes (:meth:`QueueService.join`; they are read and
checked in :mod:`bot.queue.wishes`); the service then forms the tables it can
(:meth:`QueueService.match`), and again whenever someone may be seated who could not be: back
from their time away, or a game of the server ended under a cap on running games.  Forming,
confirming and starting a table are the work of a part the service holds,
:class:`bot.queue.tables.Tables` (:attr:`QueueService.tables`, with the gate): the service hands
it the matchings, the Confirm presses, the ``queue_confirm`` jobs and the start-up's sweep, and a
person leaving a table being confirmed (the queue, or the table's lobby) gives that table back
through it.  Such a table's lobby does not start from its channel before everyone at it confirmed
(:meth:`QueueService.start_refused`, asked by the lobby's start).  A person's wait ends
at their maximum wait (a ``queue_expire`` job), and they are told.

Imports: the tables, the matcher, the wishes, sessions, storage, the time's jobs; never discord.
"""

from __future__ import annotations

import asyncio
import logging

import engines
from bot import notices
from bot.league.names import shown
from bot.queue.match import ANY, MAX_AVOID, PACES, RATED
from bot.queue.tables import HOUR, MAX_ROUNDS, Gate, Opened, Posts, Tables, left_said, tell
from bot.queue.wishes import (
    DEFAULT_WAIT_HOURS,
    MAX_COMPUTERS,
    MAX_WAIT_HOURS,
    parse_counts,
    parse_options,
)
from bot.sessions import Refusal, Session, SessionService
from bot.storage import Job, PersonRow, SessionRow, Store
from bot.storage.queue import QueueEntry
from bot.time.jobs import QUEUE_BACK, QUEUE_CONFIRM, QUEUE_EXPIRE
from engines.core import Said, echo, said, said_n

log = logging.getLogger(__name__)


def expired_said(game: str, server: str, hours: int) -> Said:
    return said_n(
        hours,
        "Your wait in the {game} queue of {server} ended: no game of yours started within the {n} hour you"
        " chose. Join again with /queue join.",
        "Your wait in the {game} queue of {server} ended: no game of yours started within the {n} hours you"
        " chose. Join again with /queue join.",
        game=game,
        server=server,
    )


def away_said(person: PersonRow) -> Said:
    return said(
        "you are away until {date}, and a table formed now would wait for you; {/me back} ends your time away",
        date=notices.away_date(person),
    )


class QueueService:
    """Keeps the people waiting in every server's queue, from joining to the end of their wait,
    and has its :class:`Tables` form their tables (see the module's docstring)."""

    def __init__(self, store: Store, sessions: SessionService, posts: Posts, gate: Gate | None = None):
        self.store = store
        self.sessions = sessions
        self.posts = posts
        self.tables = Tables(store, sessions, posts, gate)  # forms, confirms and starts the tables; the gate
        self._later: set[asyncio.Task[list[Opened]]] = set()
        sessions.core.on_end.append(self.game_ended)  # a game that ends frees a seat under the cap
        sessions.core.on_freed.append(self.game_ended)  # so does a resignation, or leaving a lobby
        sessions.core.start_checks.append(self.start_refused)  # a table starts when all confirmed

    # ------------------------------------------------------------------ people

    async def join(
        self,
        *,
        guild_id: int,
        user_id: int,
        name: str,
        game: str,
        players: str | None = None,
        pace: str = ANY,
        computers: int = 0,
        rated: str = ANY,
        max_wait_hours: int = DEFAULT_WAIT_HOURS,
        at_once: bool = False,
        options: str | None = None,
    ) -> QueueEntry:
        """Wait in the server's queue (replacing the person's earlier wishes; ``options``: the
        game's options, ``mode=master``, see :func:`parse_options`); refused with what is allowed.
        Does not form tables: call :meth:`match` after."""
        if await self.store.queue.channel(guild_id) is None:
            raise Refusal(
                "this server has no queue channel yet; someone with Manage Server sets one with /queue channel"
            )
        if game not in engines.GAMES:
            raise Refusal(
                "there is no game {game}; choose {games}", game=echo(game), games=", ".join(engines.GAMES)
            )
        info = engines.get(game)
        counts = parse_counts(players, info)
        chosen, counts = parse_options(options, info, counts, bool(players and players.strip()))
        if pace not in PACES:
            raise Refusal("the pace is one of {paces}", paces=", ".join(PACES))
        if rated not in RATED:
            raise Refusal("rated is one of {choices}", choices=", ".join(RATED))
        if not 0 <= computers <= MAX_COMPUTERS:
            raise Refusal("computers is 0 to {most}", most=MAX_COMPUTERS)
        if not 1 <= max_wait_hours <= MAX_WAIT_HOURS:
            raise Refusal("max_wait is 1 to {most} hours", most=MAX_WAIT_HOURS)
        expires_at = self.store.clock.time() + max_wait_hours * HOUR
        entry = await self.store.queue.join(
            guild_id=guild_id,
            user_id=user_id,
            name=name,
            game=game,
            counts=counts,
            pace=pace,
            computers=computers,
            rated=rated,
            at_once=at_once,
            expires_at=expires_at,
            options=chosen,
        )
        if entry is None:
            raise Refusal(
                "a table the queue formed for you is waiting for confirmations; confirm it or /queue leave first"
            )
        await self.store.jobs.schedule(QUEUE_EXPIRE, f"{guild_id}:{user_id}", expires_at)
        return entry

    async def held_back(self, guild_id: int, user_id: int, game: str) -> Said | None:
        """Why the gate keeps ``user_id`` from being seated at a table of ``game`` now (None:
        nothing does), to tell them as they join: they keep their place, and are seated once
        it no longer holds."""
        person = await self.store.people.person(user_id)
        if person.away_at(self.store.clock.time()):
            return away_said(person)
        gate = self.tables.gate
        return None if gate is None else await gate(guild_id, user_id, game)

    async def leave(self, guild_id: int, user_id: int) -> QueueEntry:
        """Leave the queue.  Leaving a table being confirmed declines it: the table is not played
        and the others wait again at their places (a table given back meanwhile, as someone else
        at it left too, is looked at again: the queue may have seated them since)."""
        first: QueueEntry | None = None
        for _ in range(MAX_ROUNDS):
            entry = await self.store.queue.entry(guild_id, user_id)
            if entry is None:
                break
            first = first or entry
            if entry.table_id is None:
                await self.store.queue.leave(guild_id, user_id)
                break
            if await self.tables.give_back(entry.table_id, [user_id], told=False, why=left_said(entry)):
                break
        if first is None:
            raise Refusal("you are not in this server's queue; join it with /queue join")
        await self.store.jobs.cancel(QUEUE_EXPIRE, f"{guild_id}:{user_id}")
        return first

    async def server_gone(self, guild_id: int) -> None:
        """The bot was removed from server ``guild_id``: nobody there can confirm a table and no
        table can open, so the server's tables being confirmed are not played and everyone waiting
        leaves its queue, with their jobs (the end of a wait, a time away's end, a Confirm message
        to settle), told nothing: the bot can post nothing there, and most of them share no other
        server with it.  The server's queue channel is kept, for a bot invited again."""
        for table in await self.store.queue.tables():
            if table.guild_id == guild_id:
                seated = await self.store.queue.seated(table.id)
                await self.store.queue.return_table(table.id, [e.user_id for e in seated])
                await self.store.jobs.cancel(QUEUE_CONFIRM, str(table.id))
        for entry in await self.store.queue.entries(guild_id):
            await self.store.queue.leave(guild_id, entry.user_id)
        for kind in (QUEUE_EXPIRE, QUEUE_BACK):
            for job in await self.store.jobs.pending(kind):
                if job.key.partition(":")[0] == str(guild_id):
                    await self.store.jobs.cancel(kind, job.key)

    async def avoid(self, user_id: int, other_id: int) -> None:
        if other_id == user_id:
            raise Refusal("you cannot avoid yourself")
        answer = await self.store.queue.avoid(user_id, other_id, MAX_AVOID)
        if answer == "already":
            raise Refusal("you already avoid them")
        if answer == "full":
            raise Refusal(
                "you avoid {most} people already, the most allowed; /queue unavoid someone first",
                most=MAX_AVOID,
            )

    async def unavoid(self, user_id: int, other_id: int) -> None:
        if not await self.store.queue.unavoid(user_id, other_id):
            raise Refusal("you do not avoid them")

    # ------------------------------------------------------------------ forming tables

    async def match(self, guild_id: int) -> list[Opened]:
        """Form every table the server's queue can form now, and open them (:meth:`Tables.match`)."""
        return await self.tables.match(guild_id)

    async def confirm(self, table_id: int, user_id: int) -> Said:
        """A press of a table's Confirm button (:meth:`Tables.confirm`)."""
        return await self.tables.confirm(table_id, user_id)

    async def start_refused(self, session: Session) -> Said | None:
        """Why a lobby may not start from its channel (its Start button, /game start): it is the
        lobby of a table waiting for confirmations, which starts when the last confirms, so that
        nobody is seated in a game they did not confirm (None: it may start)."""
        table = await self.tables.table_of(session.id)
        if table is None:
            return None
        seated = await self.store.queue.seated(table.id)
        waiting = ", ".join(shown(e.name) for e in seated if not e.confirmed)
        if not waiting:
            return None  # everyone confirmed: the table's own start is under way
        return said(
            "this table starts when everyone at it has confirmed (the queue's {button Confirm} "
            "button); waiting for: {people}",
            people=waiting,
        )

    async def came_back(self, user_id: int) -> None:
        """``user_id`` ended their time away: the queues they wait in form again, to seat them."""
        for guild_id in await self.store.queue.guilds_of(user_id):
            await self.match(guild_id)

    def game_ended(self, row: SessionRow) -> None:
        """A game or lobby of the server ended, or a seat in one was given up: the lobby of a table
        waiting for confirmations that ended (:meth:`Tables.lobby_ended`), or that one of the
        table's people left (:meth:`left_lobby`), gives the table back, and someone the cap on
        running games held back may be seated now, so the queue forms again (a task of its own, as
        after a change of the gates: the ending holds its game's lock, and may be the queue's own
        lobby closing)."""
        if row.guild_id is None or (self.tables.gate is None and row.status != "lobby"):  # (no cap)
            return
        task = asyncio.get_running_loop().create_task(self.match_later(row.guild_id, row.id))
        self._later.add(task)
        task.add_done_callback(self._later.discard)

    async def settled(self) -> None:
        """Wait for the matchings that games' ends started (a clean stop; tests)."""
        while self._later:
            await asyncio.gather(*self._later)

    async def match_later(self, guild_id: int, session_id: int | None = None) -> list[Opened]:
        try:
            if session_id is not None and (
                await self.tables.lobby_ended(session_id) or await self.left_lobby(session_id)
            ):
                return []  # (given back: the queue formed again)
            return await self.match(guild_id) if self.tables.gate is not None else []
        except Exception:
            log.exception("the queue of server %s could not form tables after a game ended", guild_id)
            return []

    async def left_lobby(self, session_id: int) -> bool:
        """Whether game ``session_id`` is the lobby of a table waiting for confirmations that one
        of its people left (its Leave button, /game leave): the table is given back at once, not
        when the time to confirm runs out, so that nobody waits for a table that cannot be played
        and nobody else takes the free seat (:meth:`Tables.left_lobby`)."""
        table = await self.tables.table_of(session_id)
        return table is not None and await self.tables.left_lobby(
            table, await self.store.queue.seated(table.id)
        )

    # ------------------------------------------------------------------ jobs

    async def unconfirmed(self, job: Job) -> None:
        """A ``queue_confirm`` job: a table's time to confirm is up (:meth:`Tables.unconfirmed`)."""
        await self.tables.unconfirmed(job)

    async def sweep(self) -> int:
        """At start-up: the Confirm messages a stop left are settled soon (:meth:`Tables.sweep`)."""
        return await self.tables.sweep()

    async def back(self, job: Job) -> None:
        """A ``queue_back`` job: the time away of someone waiting (key ``guild:user``) ended."""
        await self.match(int(job.key.partition(":")[0]))

    async def expired(self, job: Job) -> None:
        """A ``queue_expire`` job: the person's maximum wait is over (key ``guild:user``)."""
        guild_text, _, user_text = job.key.partition(":")
        guild_id, user_id = int(guild_text), int(user_text)
        held = await self.store.queue.entry(guild_id, user_id)
        if held is not None and held.table_id is not None:  # asked to confirm a table: see after
            table = await self.store.queue.table(held.table_id)
            if table is not None and table.status == "confirming":
                after = max(table.confirm_by, self.store.clock.time()) + 1
                await self.store.jobs.schedule(QUEUE_EXPIRE, job.key, after)
            return
        entry = await self.store.queue.expire(guild_id, user_id)
        if entry is None:
            return
        hours = round((entry.expires_at - entry.joined_at) / HOUR)
        server = await self.posts.server_name(entry.guild_id)
        await tell(
            self.store,
            self.posts,
            entry.guild_id,
            entry.user_id,
            expired_said(engines.get(entry.game).title, server, hours),
        )
