"""The store handed to the rest of the bot: the concern stores on one back end, and its lifecycle.

``store.games`` (sessions, seats, the move commit, the end of a game), ``store.history`` (the
log read back, snapshots, undo requests), ``store.people`` (people's and servers' settings),
``store.jobs``, ``store.ratings`` (ratings and results), ``store.leagues`` and
``store.league_pairing`` (an organiser's pairing controls).  All share the one
:class:`~bot.storage.base.Backend` given, so a transaction that crosses concerns (finishing a
game writes its results, ratings and league result) is still one transaction.  Which back end is
chosen by :func:`bot.storage.open_store`, not here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import TypeVar

from bot.storage.attendance import Attendance
from bot.storage.base import Backend, Body, NotAnswering
from bot.storage.games import Games
from bot.storage.history import History
from bot.storage.jobs import Jobs
from bot.storage.league_pairing import LeaguePairing
from bot.storage.leagues import Leagues
from bot.storage.noshows import NoShows
from bot.storage.outages import Outages
from bot.storage.people import People
from bot.storage.profiles import Profiles
from bot.storage.queue import Queue
from bot.storage.ratings import Ratings
from bot.storage.waits import Waits
from bot.time.jobs import ARCHIVE, BOARD
from bot.time.source import Clock

T = TypeVar("T")


class Store:
    """The database: its concern stores as attributes, and open/close, health and counts.

    Open with :func:`bot.storage.open_store`, close with :meth:`close`.  Times come from the back
    end's clock.  Nothing outside this package sees SQL or which database it talks to.
    """

    def __init__(self, db: Backend):
        self.db = db
        self.backend = db.name  # sqlite or postgresql
        self.where = self.path = db.where  # the SQLite file, or the PostgreSQL URL without its password
        self.clock: Clock = db.clock
        self.upgraded_from = db.upgraded_from  # the schema this opening upgraded the database from
        self.kept_copy = db.kept_copy  # SQLite: the copy kept of the file before that upgrade
        self.ratings = Ratings(db)
        self.leagues = Leagues(db)
        self.league_pairing = LeaguePairing(db)  # forbidden pairs, fixed tables, rounds in review
        self.games = Games(db, self.ratings, self.leagues)
        self.history = History(db)
        self.people = People(db)
        self.jobs = Jobs(db)
        self.attendance = Attendance(db)  # league check-ins, byes asked for, pauses
        self.profiles = Profiles(db)  # turns derived from the log, and gates (bot.profiles)
        self.noshows = NoShows(db)  # league no-shows and substitutes
        self.queue = Queue(db)  # the queue that forms games
        self.waits = Waits(db)  # autoplay, digest hour, passes ahead, watchers, follows
        self.outages = Outages(db)  # when each shard last ran, and the times it did not
        self._let_go: set[asyncio.Future[None]] = set()  # pings cut short by their time limit, ending

    async def close(self) -> None:
        await self.db.close()

    def _gone(self, asked: asyncio.Future[None]) -> None:
        """A ping let go of has ended: forgotten, its error (if any) read, so that none is logged."""
        self._let_go.discard(asked)
        if not asked.cancelled():
            asked.exception()

    async def transact(self, body: Body[T]) -> T:
        """Run statements of several concerns in one transaction (a league's record of a change
        at a table that turned out to have nothing to change)."""
        return await self.db.transact(body)

    async def claim_shards(self, count: int, ids: Sequence[int], on_lost: Callable[[str], None]) -> None:
        """Hold shards ``ids`` of ``count`` (0 of 1 without sharding) for this process while it
        runs: raises :class:`~bot.storage.base.StorageError` naming the process that serves one of
        them from this database already; ``on_lost`` is told if they are lost while running (see
        :mod:`bot.storage.shards`)."""
        await self.db.claim_shards(count, ids, on_lost)

    async def check_integrity(self) -> list[str]:
        """The back end's full check: ``[]`` when sound, else the problems found."""
        return await self.db.check_integrity()

    async def schema_version(self) -> int:
        row = await self.db.the_row("SELECT MAX(version) FROM schema_migrations")
        return row[0] or 0

    async def ping(self, *, timeout: float = 5.0) -> str | None:  # noqa: ASYNC109
        """``None`` when the database answers a query within ``timeout`` seconds, else why not, in
        one line (for ``/healthz``; never raises)."""
        asked = asyncio.ensure_future(self.db.ping())
        await asyncio.wait({asked}, timeout=timeout)
        if not asked.done():
            # Not awaited: letting go of a statement a hung server never answers can take its whole
            # time limit (PostgreSQL's driver waits for it to end before its connection goes back).
            asked.cancel()
            self._let_go.add(asked)
            asked.add_done_callback(self._gone)
            return f"{self.where} did not answer within {timeout:g} s"
        exc = asked.exception()
        if exc is None:
            return None
        if isinstance(exc, NotAnswering):  # already one line naming the database and the cause
            return str(exc)
        text = " ".join(str(exc).split()) or "no details"
        return f"{self.where}: {exc.__class__.__name__}: {text}"

    async def games_running(self) -> int:
        """How many games are started and not ended."""
        row = await self.db.the_row("SELECT COUNT(*) FROM sessions WHERE status = 'active'")
        return int(row[0])

    async def servers_in_play(self) -> set[int]:
        """The servers where something of the bot's goes on: a lobby or a game, a league in
        sign-up or running, someone waiting in the queue, a finished game's thread to archive or
        its refused board to post."""
        rows = await self.db.all(
            "SELECT guild_id FROM sessions WHERE status IN ('lobby', 'active') AND guild_id IS NOT NULL"
            " UNION SELECT guild_id FROM leagues WHERE status IN ('signup', 'running')"
            " UNION SELECT guild_id FROM queue_entries"
        )
        found = {int(r[0]) for r in rows}
        games = sorted({int(j.key) for kind in (BOARD, ARCHIVE) for j in await self.jobs.pending(kind)})
        for at in range(0, len(games), 500):
            part = games[at : at + 500]
            marks = ", ".join("?" * len(part))
            rows = await self.db.all(
                f"SELECT DISTINCT guild_id FROM sessions WHERE id IN ({marks}) AND guild_id IS NOT NULL",
                *part,
            )
            found.update(int(r[0]) for r in rows)
        return found

    async def jobs_waiting(self, late_after: float) -> tuple[int, int]:
        """(jobs whose time has come, of those the ones waiting ``late_after`` seconds or more)."""
        now = self.clock.time()
        row = await self.db.the_row(
            "SELECT COUNT(*), COALESCE(SUM(CASE WHEN due_at <= ? THEN 1 ELSE 0 END), 0)"
            " FROM jobs WHERE due_at <= ?",
            now - late_after,
            now,
        )
        return int(row[0]), int(row[1])
