"""The tables the queue forms, from matching to their start: :class:`Tables`, the part of the
queue's service (:class:`bot.queue.service.QueueService`) that forms them.

A matching (:meth:`Tables.match`) asks the matcher (:func:`bot.queue.match.form`) which tables
can be formed from the people waiting and opens each in a thread of the server's queue channel:
the lobby is created and every person seated through the lobby's own path
(``bot.sessions.lobby``), so every refusal a lobby has applies; a person it refuses leaves the
queue (told why) and the others wait again at their places.  The table then starts at once when
everyone at it chose so; otherwise each is pinged with a Confirm button and the game starts when
the last confirms.  When the time to confirm runs out (a ``queue_confirm`` job), those who did
not confirm leave the queue, the lobby closes and the others wait again at their places.  The job
stays until the table's Confirm message says what came of it (see :meth:`Tables.conclude`); each
start brings forward those a stop left (:meth:`Tables.sweep`).

The gate: :attr:`Tables.gate` (``guild, user, game -> a refusal or None``) is asked for each
waiting person before matching; a person it refuses is not seated, and stays waiting.  So is a
person away (``/me away``), until they are back.  What the queue needs of Discord is
:class:`Posts`, and a person is told what came of their wait by :func:`tell`.  The people
waiting (joining, leaving, their waits) are the service's, which holds a :class:`Tables` and
calls it: :meth:`Tables.match`, :meth:`Tables.confirm`, :meth:`Tables.give_back` (someone
leaving a table being confirmed), :meth:`Tables.unconfirmed` and :meth:`Tables.sweep`, and reads
its :attr:`Tables.gate`.  Nothing here calls the service.

Imports: the matcher, the wishes, sessions, storage, the time's jobs, languages; never discord.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import engines
from bot import notices
from bot.league.names import shown
from bot.queue.match import ANY, Table, Want, form
from bot.queue.wishes import options_in_full, want_of
from bot.sessions import MoveResult, Refusal, Session, SessionService
from bot.sessions.lobby import EVERYONE_LEFT
from bot.sessions.seats import CHANNEL_GONE, SERVER_GONE
from bot.storage import Job, Store
from bot.storage.queue import QueueEntry, QueueTable
from bot.texts import game_options_text
from bot.time import gameclock as gc
from bot.time.jobs import QUEUE_BACK, QUEUE_CONFIRM, QUEUE_EXPIRE
from engines.core import Said, said, said_n
from languages import N_, Language, language

log = logging.getLogger(__name__)

HOUR = 3600.0
MAX_ROUNDS = 50
"""How many times one matching forms tables again after a table could not be seated."""
CLOCKS = {"live": None, "daily": "move:1d", ANY: "move:1d"}
"""The game clock a table gets at each pace (a table everyone left to ``any`` is played daily)."""
CONFIRM_SECONDS = {"live": 10 * 60.0, "daily": 12 * HOUR, ANY: 12 * HOUR}
"""How long the people at a formed table have to confirm, by its pace."""
SETTLE_LEASE = 120.0
"""How long a process settling a table's Confirm message holds its claim (see
:meth:`Tables.conclude`): when it stops meanwhile, another settles the message after."""
STARTED = N_("Everyone confirmed: the game has started")
NOT_PLAYED = N_(
    "This table was not played; those of its people still waiting are back in the queue, at their places."
)
"""A Confirm message a stop left with its button, its table given back (why it was is not kept)."""
LOBBY_CLOSED = N_(
    "This table's lobby was closed before the game started; the others wait in the queue again, at their"
    " places."
)


def dropped_said(game: str, server: str) -> Said:
    return said(
        "You did not confirm your {game} table in time, so you have left the queue of {server}."
        " Join again with /queue join.",
        game=game,
        server=server,
    )


def refused_said(game: str, reason: Said) -> Said:
    return said(
        "You could not be seated at the {game} table the queue formed: {reason}. You have left the queue.",
        game=game,
        reason=reason,
    )


def left_said(entry: QueueEntry) -> Said:
    """What a table's Confirm message says when someone at it left the queue (the name as a
    message writes it)."""
    return said(
        "{name} left the queue; the others wait in the queue again, at their places.",
        name=shown(entry.name),
    )


def not_played_said(entry: QueueEntry | None, table_id: int) -> Said:
    """The answer to a press of the Confirm button of table ``table_id``, given back: where the
    presser stands in the queue now (``entry``: their place, if they wait)."""
    if entry is None:
        return said("this table was not played, and you are not in the queue; /queue join to wait again")
    if entry.table_id is not None and entry.table_id != table_id:
        return said(
            "this table was not played; another table the queue formed for you waits for your Confirm"
        )
    return said("this table was not played; you wait in the queue again, at your place (see /queue list)")


Gate = Callable[[int, int, str], Awaitable[Said | None]]
"""A gate: (server, person, game) -> why the person may not sit at a table of that game, or None."""


class Posts(Protocol):
    """What the queue needs of Discord (:class:`bot.surface.queue.QueuePosts`)."""

    async def language(self, guild_id: int) -> Language: ...

    async def open_thread(self, channel_id: int, name: str) -> int | None: ...

    async def post(
        self,
        channel_id: int,
        guild_id: int,
        text: str,
        *,
        pings: Sequence[int] = (),
        confirm: int | None = None,
    ) -> int | None: ...

    async def settle(
        self, channel_id: int, guild_id: int, message_id: int, text: str, *, shown: str | None = None
    ) -> bool:
        """The message ``message_id`` says ``text`` under what it says and loses its buttons; with
        ``shown`` (what it said when posted), it is written whole as ``shown`` and ``text``, so
        that it has the one line however often it is written.  False when Discord refused."""
        ...

    async def direct(self, user_id: int, text: str) -> bool: ...

    async def server_name(self, guild_id: int) -> str: ...

    async def announce(self, result: MoveResult) -> None: ...

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        """False only when Discord says the person is no longer in the server."""
        ...


async def tell(store: Store, posts: Posts, guild_id: int, user_id: int, what: Said) -> None:
    """Tell ``user_id`` ``what`` by direct message, in their language (else the server's); when
    the DM is refused, with a mention in the server's queue channel instead.  In their quiet
    hours (``/me notify quiet:``: no direct messages then) the queue channel names them
    instead, pinging them only when they take their notices as mentions (a direct message after
    all when the channel takes no post)."""
    person = await store.people.person(user_id)
    server_t = await posts.language(guild_id)
    mine = language(person.locale) if person.locale else server_t
    quiet = notices.is_quiet(person, store.clock.time())
    if not quiet and await posts.direct(user_id, what.in_words(mine)):
        return
    ping = not quiet or person.wants_mention
    channel_id = await store.queue.channel(guild_id)
    posted = None
    if channel_id is not None:
        posted = await posts.post(
            channel_id,
            guild_id,
            f"<@{user_id}> " + what.in_words(server_t),
            pings=[user_id] if ping else [],
        )
    if posted is None and quiet:  # the channel took nothing: a direct message after all
        await posts.direct(user_id, what.in_words(mine))


def formed_text(table: Table, people: Sequence[QueueEntry], t: Language) -> str:
    """What the thread of a table the queue formed says first: whom it seats, its pace and options."""
    info = engines.get(table.game)
    names = " ".join(f"<@{p.user_id}>" for p in people)
    lines = [
        t.ngettext(
            "{people}: the queue formed a {game} table of {n} player for you.",
            "{people}: the queue formed a {game} table of {n} players for you.",
            table.size,
            people=names,
            game=info.title,
        )
    ]
    if table.computers:
        lines.append(t.ngettext("{n} seat is a computer's.", "{n} seats are computers'.", table.computers))
    pace = t.gettext("live (no clock)") if table.pace == "live" else t.gettext("daily (a day per move)")
    rated = t.gettext("unrated") if table.rated == "unrated" else t.gettext("rated")
    lines.append(t.gettext("Pace: {pace}; {rated}.", pace=pace, rated=rated))
    lines.append(
        t.gettext(
            "Options: {options}",
            options=game_options_text(table.game, options_in_full(table.game, table.options, table.size), t),
        )
    )
    return "\n".join(lines)


async def settle(posts: Posts, table: QueueTable, what: Said, shown: str | None = None) -> bool:
    """Replace the table's Confirm message by what came of it (without the button); ``shown``: what
    the message says (kept with its mark: see :meth:`Tables.conclude`).  False when Discord
    refused."""
    if table.channel_id is None or table.message_id is None:
        return True
    t = await posts.language(table.guild_id)
    return await posts.settle(
        table.channel_id, table.guild_id, table.message_id, what.in_words(t), shown=shown
    )


@dataclass(frozen=True)
class Opened:
    """What forming one table came to: its table row, and its session when it opened."""

    table: Table
    table_id: int
    session: Session | None
    started: bool


@dataclass(frozen=True)
class Opening:
    """A held table while it opens: its people (longest waiting first), its server, the thread it
    opened in, the server's language and the game's title."""

    table: Table
    table_id: int
    guild_id: int
    thread: int
    people: list[QueueEntry]
    t: Language
    title: str

    @property
    def host(self) -> QueueEntry:
        """Who opens the lobby: the longest waiting."""
        return self.people[0]


class Stuck(Exception):
    """The queue channel takes no threads (the bot lacks a permission, or it is gone)."""


def admits(user_ids: set[int]) -> Callable[[Want], bool]:
    """The matcher's gate admitting ``user_ids``."""

    def admissible(want: Want) -> bool:
        return want.user_id in user_ids

    return admissible


class Tables:
    """Forms the tables of every server's queue from the people waiting and sees each to its start
    or gives it back (see the module's docstring)."""

    def __init__(self, store: Store, sessions: SessionService, posts: Posts, gate: Gate | None = None):
        self.store = store
        self.sessions = sessions
        self.posts = posts
        self.gate = gate
        self._locks: dict[int, asyncio.Lock] = {}

    # ------------------------------------------------------------------ forming

    async def wants(self, guild_id: int) -> list[Want]:
        """The waiting people of a server's queue (not those held by a table), as the matcher
        reads them."""
        entries = [e for e in await self.store.queue.entries(guild_id) if e.table_id is None]
        avoid = await self.store.queue.avoid_lists(e.user_id for e in entries)
        return [want_of(e, avoid.get(e.user_id, frozenset())) for e in entries]

    async def admitted(self, guild_id: int, wants: Sequence[Want]) -> set[int]:
        """The waiting people who may be seated now: not away (``/me away``: they would hold up
        their table until they are back), and admitted by the gate (when there is one)."""
        people = await self.store.people.several(w.user_id for w in wants)
        now = self.store.clock.time()
        here = [w for w in wants if w.user_id not in people or not people[w.user_id].away_at(now)]
        for w in wants:  # the queue forms again when their time away ends, /me back or not
            away = people.get(w.user_id)
            if away is not None and away.away_until is not None and away.away_at(now):
                await self.store.jobs.schedule(QUEUE_BACK, f"{guild_id}:{w.user_id}", away.away_until)
        if self.gate is None:
            return {w.user_id for w in here}
        return {w.user_id for w in here if await self.gate(guild_id, w.user_id, w.game) is None}

    async def match(self, guild_id: int) -> list[Opened]:
        """Form every table the server's queue can form now, and open them (one matching at a time
        per server in this process; holding a table's people is checked in the database too)."""
        channel_id = await self.store.queue.channel(guild_id)
        if channel_id is None:
            return []
        opened: list[Opened] = []
        async with self._locks.setdefault(guild_id, asyncio.Lock()):
            for _ in range(MAX_ROUNDS):  # a refused seat returns the rest to the queue: match again
                wants = await self.wants(guild_id)
                ok = await self.admitted(guild_id, wants)
                tables = form(wants, admits(ok))
                again = False
                for table in tables:
                    if await self.left_server(guild_id, table.user_ids):
                        again = True  # form the tables again without them
                        break
                    try:
                        done = await self.open_table(guild_id, channel_id, table)
                    except Stuck:  # the channel takes no threads now: the people wait on
                        return opened
                    if done is None:
                        again = True
                        break
                    opened.append(done)
                if not again:
                    break
        return opened

    async def left_server(self, guild_id: int, user_ids: Iterable[int]) -> bool:
        """Take out of the queue those of a table about to open who left the server (the bot is not
        told when someone leaves; they are looked up as their table forms).  Whether anyone was."""
        gone = [u for u in user_ids if not await self.posts.is_member(guild_id, u)]
        for user_id in gone:
            log.info("queue of server %s: %s left the server, and the queue", guild_id, user_id)
            await self.store.queue.leave(guild_id, user_id)
            await self.store.jobs.cancel(QUEUE_EXPIRE, f"{guild_id}:{user_id}")
        return bool(gone)

    async def open_table(self, guild_id: int, channel_id: int, table: Table) -> Opened | None:
        """Hold the table's people, open its thread and lobby, seat them; start it when all chose
        to start at once, else ask them to confirm.  None when it could not be opened (its people
        wait again; a person the lobby refused has left the queue)."""
        now = self.store.clock.time()
        table_id = await self.store.queue.hold(
            guild_id=guild_id,
            game=table.game,
            size=table.size,
            pace=table.pace,
            rated=table.rated,
            confirm_by=now + CONFIRM_SECONDS[table.pace],
            user_ids=table.user_ids,
            entry_ids=[w.order for w in table.people],
        )
        if table_id is None:
            return None
        # Its queue_confirm job is armed with it: if the opening is cut short (the process stops),
        # the table's people are given back when the time to confirm is over (see unconfirmed).
        opening = await self.table_thread(guild_id, channel_id, table, table_id)
        session = await self.open_lobby(opening)
        if session is None or not await self.seat_people(opening, session):
            return None
        for _ in range(table.computers):
            await self.sessions.lobby.add_computer(opening.thread, opening.host.user_id)
        session = await self.sessions.core.require(opening.thread)
        text = formed_text(table, opening.people, opening.t)
        if all(p.at_once for p in opening.people):
            return await self.start_at_once(opening, session, text)
        return await self.ask_to_confirm(opening, session, text, now + CONFIRM_SECONDS[table.pace])

    async def table_thread(self, guild_id: int, channel_id: int, table: Table, table_id: int) -> Opening:
        """The held table's thread opened in the queue channel and kept with it; :class:`Stuck`
        (the table given back) when the channel takes no thread."""
        seated = await self.store.queue.seated(table_id)
        by_id = {e.user_id: e for e in seated}
        people = [by_id[u] for u in table.user_ids if u in by_id]
        t = await self.posts.language(guild_id)
        info = engines.get(table.game)
        thread = await self.posts.open_thread(
            channel_id, t.gettext("{game} · queue table {table}", game=info.title, table=table_id)[:100]
        )
        if thread is None:
            log.warning("queue table %s: no thread in channel %s", table_id, channel_id)
            await self.store.queue.return_table(table_id, [])
            raise Stuck(channel_id)
        # The thread kept before its lobby opens: an opening cut short between the two leaves a
        # lobby there that the table's giving back finds and closes (see give_back).
        await self.store.queue.place_table(table_id, channel_id=thread, session_id=None, message_id=None)
        return Opening(table, table_id, guild_id, thread, people, t, info.title)

    async def open_lobby(self, opening: Opening) -> Session | None:
        """The table's lobby opened in its thread by its host (the longest waiting) and kept with
        the table, unrated when the table is.  None when it could not open (the table given back)
        or the table was given back meanwhile (the lobby closed)."""
        table, table_id, thread = opening.table, opening.table_id, opening.thread
        try:
            session = await self.sessions.lobby.create(
                table.game,
                guild_id=opening.guild_id,
                channel_id=thread,
                host_id=opening.host.user_id,
                host_name=opening.host.name,
                options=json.loads(table.options),
                max_players=table.size,
                clock=CLOCKS[table.pace],
                capped=False,  # admitted by the queue's gate when the table formed
            )
        except Refusal as exc:
            log.warning("queue table %s: the lobby could not open (%s)", table_id, exc)
            await self.store.queue.return_table(table_id, [])
            return None
        # Kept at once: a table given back before it was placed (the opening was cut short, or
        # someone left meanwhile) closes this lobby instead of leaving its people seated in it.
        if not await self.store.queue.place_table(
            table_id, channel_id=thread, session_id=session.id, message_id=None
        ):
            await self.withdraw(session, opening.guild_id, thread, None, opening.t)
            return None
        if table.rated == "unrated":  # before the seats: a lobby seated in full is set up in full
            await self.store.queue.set_unrated(session.id)
        return session

    async def seat_people(self, opening: Opening, session: Session) -> bool:
        """The table's other people seated in its lobby.  False when the lobby refused one: the
        lobby closes, that person leaves the queue (told why) and the others wait again (unless
        the table was given back meanwhile, when nobody is told)."""
        guild_id, thread = opening.guild_id, opening.thread
        for person in opening.people[1:]:
            try:
                await self.sessions.lobby.join(thread, person.user_id, person.name)
            except Refusal as exc:
                await self.sessions.lobby.close_lobby(session.id, "a player could not be seated")
                if await self.store.queue.return_table(opening.table_id, [person.user_id]) is None:
                    return False  # given back meanwhile (someone left the queue): its lobby is closed
                await self.store.jobs.cancel(QUEUE_EXPIRE, f"{guild_id}:{person.user_id}")
                await tell(
                    self.store, self.posts, guild_id, person.user_id, refused_said(opening.title, exc.said)
                )
                await self.posts.post(
                    thread,
                    guild_id,
                    opening.t.gettext("This table could not be seated; the others wait in the queue again."),
                )
                return False
        return True

    async def start_at_once(self, opening: Opening, session: Session, text: str) -> Opened | None:
        """A table whose people all chose to start at once: ``text`` (the table as formed) pings them,
        and the game starts.  None when the table was given back meanwhile (the lobby closed)."""
        people, thread = opening.people, opening.thread
        await self.posts.post(thread, opening.guild_id, text, pings=[p.user_id for p in people])
        if not await self.store.queue.place_table(
            opening.table_id, channel_id=thread, session_id=session.id, message_id=None
        ):
            await self.withdraw(session, opening.guild_id, thread, None, opening.t)
            return None
        return Opened(opening.table, opening.table_id, session, await self.start(opening.table_id))

    async def ask_to_confirm(self, opening: Opening, session: Session, text: str, by: float) -> Opened | None:
        """``text`` (the table as formed) pings the table's people with a Confirm button to press
        before ``by``, and the message is kept with the table.  Started when the last confirmation
        landed as the message went out; None when the table was given back meanwhile (the lobby
        closed, the message without its button)."""
        guild_id, thread, table_id = opening.guild_id, opening.thread, opening.table_id
        text += "\n" + opening.t.gettext(
            "Press Confirm to take your seat before {when}; the game starts when everyone has.",
            when=f"<t:{int(by)}:R>",
        )
        message_id = await self.posts.post(
            thread, guild_id, text, pings=[p.user_id for p in opening.people], confirm=table_id
        )
        if not await self.store.queue.place_table(
            table_id, channel_id=thread, session_id=session.id, message_id=message_id, shown=text
        ):
            placed = await self.store.queue.table(table_id)
            if placed is not None and placed.status == "started":  # confirmed as the message went out
                await settle(self.posts, replace(placed, message_id=message_id), said(STARTED), text)
                return Opened(opening.table, table_id, session, True)
            await self.withdraw(session, guild_id, thread, message_id, opening.t)
            return None
        return Opened(opening.table, table_id, session, False)

    async def withdraw(
        self, session: Session, guild_id: int, thread: int, message_id: int | None, t: Language
    ) -> None:
        """The table was given back while it was being opened (someone left the queue): its lobby
        closes, and its thread says so (its Confirm message, when there is one, loses the button)."""
        await self.sessions.lobby.close_lobby(session.id, "a player left the queue")
        text = t.gettext("This table could not be seated; the others wait in the queue again.")
        if message_id is not None:
            await self.posts.settle(thread, guild_id, message_id, text)
        else:
            await self.posts.post(thread, guild_id, text)

    # ------------------------------------------------------------------ confirming

    async def confirm(self, table_id: int, user_id: int) -> Said:
        """A person at the table confirms; the game starts when they were the last."""
        table = await self.store.queue.table(table_id)
        if table is not None and table.status == "started" and await self.seated_in_lobby(table, user_id):
            await self.start(table_id)  # its start was cut short (the database stopped answering)
            return said(STARTED)
        if table is not None and table.status in ("confirming", "started") and await self.begun(table):
            # A button left on a game under way (started from its lobby, or by a start a stop cut
            # short): the start settles it now (if nothing did since); the press is told where it is.
            await self.start(table_id)
            return await self.started_said(table)
        if table is not None and table.status == "returned":
            await self.conclude(table, said(NOT_PLAYED))  # if a stop left its message as it was
            raise Refusal(not_played_said(await self.store.queue.entry(table.guild_id, user_id), table_id))
        if table is None or table.status != "confirming":
            raise Refusal("this table is no longer waiting for confirmations")
        if user_id not in {e.user_id for e in await self.store.queue.seated(table_id)}:
            raise Refusal("this table is not yours; join the queue with /queue join")
        changed, everyone = await self.store.queue.confirm(table_id, user_id)
        if changed and not everyone:  # another confirmation may have been stored as this one counted
            everyone = all(e.confirmed for e in await self.store.queue.seated(table_id))
        if everyone:
            await self.start(table_id)
            now = await self.store.queue.table(table_id)
            if now is not None and now.status == "returned":  # someone had left its lobby, or it closed
                raise Refusal(not_played_said(await self.store.queue.entry(now.guild_id, user_id), table_id))
            return said(STARTED)
        if not changed:
            return said("You have confirmed already; the game starts when everyone has")
        return said("Confirmed; the game starts when everyone has")

    async def seated_in_lobby(self, table: QueueTable, user_id: int) -> bool:
        """Whether the table's game is still a lobby with ``user_id`` seated in it."""
        session = None if table.session_id is None else await self.sessions.core.get(table.session_id)
        return session is not None and session.status == "lobby" and session.seat_of(user_id) is not None

    async def seated_in_full(self, table: QueueTable) -> bool:
        """Whether the table's game is a lobby with every seat of the table taken (its people and
        its computers)."""
        session = None if table.session_id is None else await self.sessions.core.get(table.session_id)
        return session is not None and session.status == "lobby" and len(session.seats) == table.size

    async def begun(self, table: QueueTable) -> bool:
        """Whether the table's game left its lobby (started there before everyone confirmed)."""
        session = None if table.session_id is None else await self.sessions.core.get(table.session_id)
        return session is not None and session.status in ("active", "finished")

    async def left_lobby(
        self, table: QueueTable, seated: Sequence[QueueEntry], *, job: Job | None = None
    ) -> bool:
        """Whether someone held by the table left its lobby (its Leave button, /game leave): then
        they leave the queue as if they had left it, and the others wait again at their places
        (``job``: see :meth:`conclude`)."""
        session = None if table.session_id is None else await self.sessions.core.get(table.session_id)
        if session is None or session.status != "lobby":
            return False
        gone = [e for e in seated if session.seat_of(e.user_id) is None]
        if not gone:
            return False
        await self.give_back(table.id, [e.user_id for e in gone], told=False, why=left_said(gone[0]), job=job)
        return True

    async def table_of(self, session_id: int) -> QueueTable | None:
        """The table waiting for confirmations whose lobby is game ``session_id``, if any."""
        return next((t for t in await self.store.queue.tables() if t.session_id == session_id), None)

    async def lobby_ended(self, session_id: int, *, job: Job | None = None) -> bool:
        """Whether game ``session_id`` is the lobby of a table waiting for confirmations, and it
        ended with no game (its host abandoned it, everyone left it, its thread or server went):
        then the table is given back.  Those who closed it leave the queue, as those who leave
        its lobby do (the host who abandoned it; everyone, when everyone left); the others wait
        again at their places (all of them, when a moderator deleted the thread)."""
        row = await self.store.games.session(session_id)
        if row is None or row.status != "abandoned":
            return False
        table = await self.table_of(session_id)
        if table is None:
            return False
        seated = [e.user_id for e in await self.store.queue.seated(table.id)]
        if row.end_reason in (CHANNEL_GONE, SERVER_GONE):
            dropped: list[int] = []
        else:
            dropped = seated if row.end_reason == EVERYONE_LEFT else [row.host_id]
        return await self.give_back(table.id, dropped, told=False, why=said(LOBBY_CLOSED), job=job)

    async def start(self, table_id: int, *, job: Job | None = None) -> bool:
        """Start the table's game (its people leave the queue); False when it was no longer
        waiting for confirmations, or someone left its lobby (the others wait again), or another
        start of it (two last confirmations at once) started the game first.  A table marked
        started whose game is still a lobby (the start was cut short: the database stopped
        answering) has its game started now.  ``job``: see :meth:`conclude`."""
        table = await self.store.queue.table(table_id)
        if table is None or table.channel_id is None or table.session_id is None:
            return False
        seated = await self.store.queue.seated(table_id)
        if table.status == "confirming" and await self.left_lobby(table, seated, job=job):
            return False
        if table.status == "confirming" and await self.lobby_ended(table.session_id, job=job):
            return False
        if not await self.store.queue.start_table(table_id) and table.status != "started":
            return False
        session = await self.sessions.core.get(table.session_id)
        result = None
        if session is not None and session.status == "lobby":
            try:
                result = await self.sessions.lobby.start(table.channel_id, session.row.host_id, posted=True)
            except Refusal:
                # another start of this table (the other of two last confirmations at once) got
                # there first: the game is under way, and this one has nothing left to do
                now = await self.sessions.core.get(table.session_id)
                if now is None or now.status == "lobby":
                    raise
        # Only once the game has started does the job go (with the line that says so, or with
        # whoever is writing it): until then the time to confirm is the start's retry.
        if result is not None:  # a stop before this leaves the job to say it
            await self.conclude(table, said(STARTED), job=job)
        elif await self.begun(table):  # started from its lobby (/game start), or by another start
            await self.conclude(table, await self.started_said(table), job=job)
        else:
            await self.store.jobs.cancel(QUEUE_CONFIRM, str(table_id))
        for e in seated:
            await self.store.jobs.cancel(QUEUE_EXPIRE, f"{e.guild_id}:{e.user_id}")
        if result is None:
            return False
        await self.posts.announce(result)
        return True

    async def give_back(
        self,
        table_id: int,
        dropped: Sequence[int],
        *,
        told: bool = True,
        why: Said | None = None,
        job: Job | None = None,
    ) -> bool:
        """The table is not played: ``dropped`` leave the queue (told, with ``told``), the lobby
        closes, the others wait again at their places and the queue matches again; the Confirm
        message says ``why`` (by default: not everyone confirmed in time).  False when the table
        was no longer waiting for confirmations, or its game started (its people leave the queue).
        ``job``: see :meth:`conclude`."""
        table = await self.store.queue.table(table_id)
        if table is None:
            return False
        if await self.begun(table):  # its game was started from its lobby (/game start) meanwhile:
            await self.start(table_id, job=job)  # its people play it and leave the queue; its message says so
            return False
        gone = await self.store.queue.return_table(table_id, dropped)
        if gone is None:
            return False
        table = await self.store.queue.table(table_id) or table  # its lobby may have opened meanwhile
        # Its queue_confirm job stays until its Confirm message is settled (see conclude).
        session_id = table.session_id
        if session_id is None and table.channel_id is not None:  # opened, and cut short before kept
            found = await self.sessions.core.in_channel(table.channel_id)
            session_id = found.id if found is not None and found.status == "lobby" else None
        if session_id is not None:
            await self.sessions.lobby.close_lobby(session_id, "not everyone confirmed the queue's table")
        info = engines.get(table.game)
        for e in gone:
            await self.store.jobs.cancel(QUEUE_EXPIRE, f"{e.guild_id}:{e.user_id}")
            if told:
                await tell(
                    self.store,
                    self.posts,
                    e.guild_id,
                    e.user_id,
                    dropped_said(info.title, await self.posts.server_name(e.guild_id)),
                )
        await self.conclude(
            table,
            why
            or said_n(
                len(gone),
                "Not everyone confirmed in time ({n} person did not); the others wait in the queue again, at their places.",
                "Not everyone confirmed in time ({n} people did not); the others wait in the queue again, at their places.",
            ),
            job=job,
        )
        await self.match(table.guild_id)
        return True

    async def started_said(self, table: QueueTable) -> Said:
        """That the table's game has started, with a link to its board (else to its thread)."""
        session = None if table.session_id is None else await self.sessions.core.get(table.session_id)
        board = None if session is None else session.row.board_message_id
        if board is None or table.channel_id is None:
            link = f"<#{table.channel_id}>"
        else:
            link = notices.jump_link(table.guild_id, table.channel_id, board)
        return said("The game has started: {link}", link=link)

    async def conclude(self, table: QueueTable, what: Said, *, job: Job | None = None) -> bool:
        """The table's Confirm message says what came of it and loses its button, once, across
        processes.  Its ``queue_confirm`` job is the mark of a message still to settle, and keeps
        what the message says (``shown``, kept as it was posted): it is claimed in the database
        for :data:`SETTLE_LEASE` seconds first (of conclusions at once, in one process or several,
        one gets it) and dropped once the message is settled.  The message is written whole, what
        it says and one line under it, so a conclusion that finds the mark held by another (still
        writing, or killed as it wrote: its claim lasts until the lease is over) writes it too,
        now, and drops the mark: whichever writes last, the message has one line.  A stop before
        leaves the mark to fire at its time (or at the next start's :meth:`sweep`).  ``job``: the
        ``queue_confirm`` job the caller is firing (its claim is the caller's).  False when the
        mark was gone, or someone else holds one kept without the message's text (a table opened
        before it was kept: that one adds its line alone), or Discord refused (nothing changed)."""
        mark = str(table.id)
        async with self.store.jobs.holding(
            QUEUE_CONFIRM, mark, "queue", lease=SETTLE_LEASE, held=job
        ) as held:
            if held is not None:
                await settle(self.posts, table, what, held.payload.get("shown"))
                return True
        kept = await self.store.jobs.job(QUEUE_CONFIRM, mark)
        shown = kept.payload.get("shown") if kept is not None else None
        if shown is None or not await settle(self.posts, table, what, shown):
            return False
        await self.store.jobs.cancel(QUEUE_CONFIRM, mark)  # written: the holder's claim adds nothing
        return True

    # ------------------------------------------------------------------ jobs

    async def unconfirmed(self, job: Job) -> None:
        """A ``queue_confirm`` job: the time to confirm the table ``job.key`` is up.  A table
        whose people were never asked (its opening was cut short) gives everyone back; one whose
        people all confirmed (at once, so that no confirmation saw the others'), or all chose to
        start at once and sit in its lobby in full (its start was cut short), starts.  A table whose
        game started and whose job is still here (the process stopped before its Confirm message
        was updated) has that message say the game started, with a link to it."""
        table_id = int(job.key)
        table = await self.store.queue.table(table_id)
        if table is not None and table.status == "started":
            # a start cut short: its game starts now (if still a lobby); a stop after its game began
            # and before its job went left the button on its message, which says it started now
            await self.start(table_id, job=job)
            return
        if table is not None and table.status == "returned":  # a stop left the button on it
            await self.conclude(table, said(NOT_PLAYED), job=job)
            return
        if table is None or table.status != "confirming":
            return
        seated = await self.store.queue.seated(table_id)
        # asked: its Confirm message went out, or everyone chose to start at once and the lobby
        # was seated in full before the opening was cut short (then it starts, as they chose)
        asked = table.message_id is not None or (
            all(e.at_once for e in seated) and await self.seated_in_full(table)
        )
        waiting = [e.user_id for e in seated if not e.confirmed] if asked else []
        if waiting and await self.extended(table, waiting, job):
            return
        if not asked or waiting or not await self.start(table_id, job=job):
            await self.give_back(table_id, waiting, job=job)

    async def extended(self, table: QueueTable, waiting: Sequence[int], job: Job) -> bool:
        """Whether the time to confirm came before those ``waiting`` had it whole with the bot in
        service in the server (no button worked while it was out): it is then over as much later
        as the outages took of it, the job given back for then, and they are told so in the
        table's thread."""
        whole = CONFIRM_SECONDS.get(table.pace, CONFIRM_SECONDS[ANY])
        opened, now = table.opened_at, self.store.clock.time()
        outages = gc.joined(await self.store.outages.of_guild(table.guild_id))
        left = whole - gc.used(opened, now, outages)
        if left < 1 or not await self.store.queue.extend_table(table.id, job, now + left):
            return False
        if table.channel_id is not None:
            t = await self.posts.language(table.guild_id)
            text = t.gettext(
                "{players}: I was out of service for {time}, when Confirm could not be pressed, so you "
                "have until {when} to confirm.",
                players=" ".join(f"<@{u}>" for u in waiting),
                time=gc.spoken(now - opened - gc.used(opened, now, outages)),
                when=f"<t:{int(now + left)}:R>",
            )
            await self.posts.post(table.channel_id, table.guild_id, text, pings=waiting)
        return True

    async def sweep(self) -> int:
        """At start-up: Confirm messages a stop left with their button on tables no longer waiting
        (started, given back) are settled now, not when their time to confirm runs out (up to 12
        hours on): their ``queue_confirm`` jobs (see :meth:`conclude`) are brought forward to now,
        for the process that claims them (one a process killed while settling its message still
        holds is due when the claim's lease is over already).  How many were."""
        now = self.store.clock.time()
        swept = 0
        for job in await self.store.jobs.pending(QUEUE_CONFIRM):
            table = await self.store.queue.table(int(job.key))
            if (table is None or table.status != "confirming") and await self.store.jobs.hasten(job, now):
                swept += 1
        return swept
