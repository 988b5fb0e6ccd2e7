"""The storage interface and what both back ends share: records, refusals, and every transaction.

Each change is written once, as a *transaction body*: a generator that yields
statements (:func:`one`, :func:`all_`, :func:`run`, :func:`many`) and receives
their results, so its logic (checks, numbering, deadlines, ratings) is the
same on both back ends.  A back end runs a body inside one transaction: SQLite
runs it to the end in one call on its writer thread; PostgreSQL runs it on one
connection between ``BEGIN`` and ``COMMIT``.  The statements are written with
``?`` placeholders in SQL both databases understand; the PostgreSQL back end
numbers them.  The move commit, the one hot path, is one trip on both (see
each back end's ``_commit_moves``).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from bot.time.jobs import DEADLINE
from bot.time.source import Clock

LIVE = ("lobby", "active")
INT_MIN, INT_MAX = -(2**63), 2**63 - 1


def fits(number: int) -> bool:
    """Whether ``number`` fits a 64-bit signed integer column (SQLite INTEGER, PostgreSQL BIGINT):
    ids from a forged custom_id can be any size, and such an id simply names no row."""
    return INT_MIN <= number <= INT_MAX


def _need_guild(guild_id: int | None) -> int:
    if guild_id is None:
        raise ValueError("a server id is needed: games and ratings belong to a server")
    return guild_id


class StorageError(RuntimeError):
    """The database cannot be used; the message says why and what to do, in one line."""


class Unreachable(StorageError):
    """The database server cannot be reached (for now: trying again later may succeed)."""


class ChannelBusy(Exception):
    """A live game already occupies the channel."""


class Conflict(Exception):
    """A write broke a uniqueness rule (a second live game in a channel, a person seated twice)."""


class StaleVersion(Exception):
    """The session changed since the caller read it (or the deadline being fired is gone)."""

    def __init__(self, current: int):
        super().__init__(f"the session is at version {current}")
        self.current = current


@dataclass(frozen=True)
class SessionRow:
    id: int
    game: str
    guild_id: int | None
    channel_id: int
    host_id: int
    status: str
    options: dict[str, Any]
    max_players: int
    seed: int
    state: dict[str, Any] | None
    version: int
    lobby_message_id: int | None
    outcome: dict[str, Any] | None
    end_reason: str | None
    created_at: str
    updated_at: str
    finished_at: str | None
    timer_seconds: float | None = None
    damaged: str | None = None  # why the table could not load or run this session
    unreadable: str | None = None  # what was wrong reading the row's saved JSON (state, options...)
    board_message_id: int | None = None  # the channel message holding the live board
    told_through: int = 0  # the last move the channel has been told of
    lobby_channel_id: int | None = None  # the parent channel of a game's thread (its lobby message)
    clock: str | None = None  # the game clock's spec (bot/time/gameclock.py); None: none, or the turn timer
    clock_state: dict[str, Any] | None = None  # the running clocks (gameclock.Banks.to_dict)

    @property
    def live(self) -> bool:
        return self.status in LIVE


@dataclass(frozen=True)
class SeatRow:
    join_order: int
    seat: int | None
    user_id: int | None
    display_name: str
    is_computer: bool
    resigned: bool
    level: str | None = None  # the computer level chosen when the seat was given to the computer


@dataclass(frozen=True)
class MoveRow:
    number: int
    seat: int
    move: str
    by_computer: bool
    created_at: str
    events: list[dict[str, Any]] | None = None  # Event.to_dict of each event; None on rows from before
    privacy: dict[str, Any] | None = None  # Privacy.to_dict; None on rows from before


@dataclass(frozen=True)
class NewMove:
    """A move to append to the log, with its events and privacy mark (plain JSON values)."""

    seat: int
    move: str
    by_computer: bool = False
    events: list[dict[str, Any]] | None = None
    privacy: dict[str, Any] | None = None


NOTIFY_PLACES = ("thread", "dm", "both", "none")


@dataclass(frozen=True)
class PersonRow:
    """A person's settings, the same in every server (defaults when they never set any)."""

    user_id: int
    notify: str = "thread"  # where turn notices go: one of NOTIFY_PLACES
    remind_hours: int = 12  # 0: no reminders
    time_zone: str = "UTC"
    quiet_start: int | None = None  # local hour when quiet hours begin (no DMs), 0-23
    quiet_end: int | None = None  # local hour when they end
    dm_failed: bool = False  # a DM failed since they were last told
    away_since: float | None = None  # time away (/me away): from, until (seconds since the epoch)
    away_until: float | None = None
    away_reason: str | None = None
    away_year: int | None = None  # the year away_days_used counts
    away_days_used: int = 0
    locale: str | None = None  # the Discord locale of their last interaction (None: never seen)
    contrast: bool = False  # their private pictures in the high-contrast palette (/me contrast)

    def away_at(self, now: float) -> bool:
        return (
            self.away_since is not None
            and self.away_until is not None
            and self.away_since <= now < self.away_until
        )

    @property
    def wants_dm(self) -> bool:
        return self.notify in ("dm", "both")

    @property
    def wants_mention(self) -> bool:
        return self.notify in ("thread", "both")


@dataclass(frozen=True)
class UndoRequest:
    """A pending request to take back moves: asked by ``seat`` at ``version``, from move ``target``;
    ``waiting``: the seats still to agree."""

    session_id: int
    version: int
    seat: int
    target: int
    waiting: frozenset[int]
    message_id: int | None = None


@dataclass(frozen=True)
class RatingRow:
    """A player's rating in one game on one server (``mu``/``sigma`` None: not rated yet)."""

    user_id: int
    name: str
    mu: float | None
    sigma: float | None
    games: int = 0
    wins: int = 0
    place: int | None = None


@dataclass(frozen=True)
class ResultRow:
    seat: int
    user_id: int | None
    score: float | None
    place: int
    resigned: bool


@dataclass(frozen=True)
class Job:
    """A job row; a claimed one carries its claim token, which completing or releasing it checks."""

    id: int
    kind: str
    key: str
    due_at: float
    payload: dict[str, Any]
    attempts: int = 0
    claimed_by: str | None = None
    claim: str | None = None
    claimed_until: float | None = None


# ----------------------------------------------------------------------------- statements


def one(sql: str, *params: Any) -> tuple[str, str, tuple]:
    """The first row (or None)."""
    return ("one", sql, params)


def all_(sql: str, *params: Any) -> tuple[str, str, tuple]:
    """Every row."""
    return ("all", sql, params)


def run(sql: str, *params: Any) -> tuple[str, str, tuple]:
    """Run a change; the result is the number of rows it changed."""
    return ("run", sql, params)


def many(sql: str, rows: Iterable[Sequence[Any]]) -> tuple[str, str, list]:
    """Run a change once per parameter row."""
    return ("many", sql, [tuple(r) for r in rows])


Body = Generator[tuple[str, str, Any], Any, Any]


# ----------------------------------------------------------------------------- migrations


def migrations(backend: str) -> list[tuple[int, str, str]]:
    """The numbered migrations of ``backend`` (``sqlite`` or ``postgres``): (number, name, SQL)."""
    out = []
    for entry in resources.files(f"bot.migrations.{backend}").iterdir():
        m = re.fullmatch(r"(\d+)_(\w+)\.sql", entry.name)
        if m:
            out.append((int(m.group(1)), m.group(2), entry.read_text(encoding="utf-8")))
    out.sort()
    numbers = [n for n, _, _ in out]
    if numbers != list(range(1, len(numbers) + 1)):
        raise StorageError(f"{backend} migrations must be numbered 1..n without gaps, found {numbers}")
    return out


SCHEMA_VERSION = len(migrations("sqlite"))


MIGRATIONS_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
)


@dataclass
class Examined:
    """A database as the read-only check found it (``python -m bot --check-database``).

    ``exists`` is False for a SQLite path with no file (none is created); ``tables`` are the
    tables found; ``applied`` the migrations recorded in them; ``problems`` what the check
    found wrong.  Nothing is changed to find any of it.
    """

    where: str
    backend: str
    exists: bool = True
    tables: list[str] = field(default_factory=list)
    applied: set[int] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)

    @property
    def foreign(self) -> bool:
        """Tables, but no Pukllay migration record among them: another program's database."""
        return bool(self.tables) and "schema_migrations" not in self.tables

    @property
    def schema(self) -> int:
        return max(self.applied, default=0)

    @property
    def newer(self) -> bool:
        return self.schema > SCHEMA_VERSION

    def to_apply(self) -> list[tuple[int, str]]:
        """The migrations an upgrade would apply: (number, name)."""
        return [(n, name) for n, name, _ in migrations("sqlite") if n not in self.applied]


def describe(steps: list[tuple[int, str]]) -> str:
    """Migrations as ``017 server_language, 018 league_clocks``."""
    return ", ".join(f"{n:03d} {name}" for n, name in steps)


def older(where: str, applied: set[int], steps: list[tuple[int, str]]) -> str:
    """The words for a database an upgrade would migrate."""
    return (
        f"{where} has schema {max(applied, default=0)}, older than this Pukllay's {SCHEMA_VERSION}; "
        f"the upgrade applies {describe(steps)}"
    )


def pending(where: str, applied: set[int], known: list[tuple[int, str, str]]) -> list[tuple[int, str, str]]:
    """The migrations still to apply; a database written by newer code is refused."""
    newest = max(applied, default=0)
    if newest > SCHEMA_VERSION:
        raise StorageError(
            f"{where} was written by a newer Pukllay (database schema {newest}, this code knows up to "
            f"{SCHEMA_VERSION}); upgrade the bot or point it at another database"
        )
    return [m for m in known if m[0] not in applied]


# ----------------------------------------------------------------------------- rows


def _json(text: str | None, what: str, problems: list[str], default: Any = None) -> Any:
    if not text:
        return default
    try:
        return json.loads(text)
    except (ValueError, TypeError) as exc:
        problems.append(f"its saved {what} is not readable JSON ({exc})")
        return default


def stored_seconds(timer: float | None) -> float | None:
    """A deadline's delay as stored: None for none, and never 0 (which would mean none)."""
    return None if timer is None else max(float(timer), 0.001)


def dump_json(value: Any) -> str | None:
    return None if value is None else json.dumps(value)


SESSION_COLUMNS = (
    "id, game, guild_id, channel_id, host_id, status, options, max_players, seed, version,"
    " lobby_message_id, outcome, end_reason, created_at, updated_at, finished_at, timer_seconds,"
    " damaged, board_message_id, told_through, lobby_channel_id, clock, clock_state"
)
"""Every column :func:`session_of` reads but the state (which a move's commit already holds)."""

_READ = object()


def session_of(row: Any, state: Any = _READ) -> SessionRow:
    """A session row; saved JSON that cannot be read is reported in ``unreadable``, never raised,
    so one damaged row cannot stop a list of sessions.  ``state``, when given, is the saved state
    as the caller just wrote it (the row then need not hold it)."""
    problems: list[str] = []
    clock_state = _json(row["clock_state"], "clock", problems)  # read before `unreadable` is
    return SessionRow(
        id=row["id"],
        game=row["game"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        host_id=row["host_id"],
        status=row["status"],
        options=_json(row["options"], "options", problems, {}),
        max_players=row["max_players"],
        seed=row["seed"],
        state=_json(row["state"], "state", problems) if state is _READ else state,
        version=row["version"],
        lobby_message_id=row["lobby_message_id"],
        outcome=_json(row["outcome"], "outcome", problems),
        end_reason=row["end_reason"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        finished_at=row["finished_at"],
        timer_seconds=row["timer_seconds"],
        damaged=row["damaged"],
        unreadable="; ".join(problems) or None,
        board_message_id=row["board_message_id"],
        told_through=row["told_through"] or 0,
        lobby_channel_id=row["lobby_channel_id"],
        clock=row["clock"],
        clock_state=clock_state,
    )


def person_of(row: Any) -> PersonRow:
    return PersonRow(
        user_id=row["user_id"],
        notify=row["notify"],
        remind_hours=row["remind_hours"],
        time_zone=row["time_zone"],
        quiet_start=row["quiet_start"],
        quiet_end=row["quiet_end"],
        dm_failed=bool(row["dm_failed"]),
        away_since=row["away_since"],
        away_until=row["away_until"],
        away_reason=row["away_reason"],
        away_year=row["away_year"],
        away_days_used=row["away_days_used"] or 0,
        locale=row["locale"],
        contrast=bool(row["contrast"]),
    )


def move_of(row: Any) -> MoveRow:
    problems: list[str] = []
    events = _json(row["events"], "events", problems)
    privacy = _json(row["privacy"], "privacy", problems)
    return MoveRow(
        number=row["number"],
        seat=row["seat"],
        move=row["move"],
        by_computer=bool(row["by_computer"]),
        created_at=row["created_at"],
        events=events if isinstance(events, list) else None,
        privacy=privacy if isinstance(privacy, dict) else None,
    )


def _undo_of(row: Any) -> UndoRequest:
    return UndoRequest(
        row["session_id"],
        row["version"],
        row["seat"],
        row["target"],
        frozenset(json.loads(row["waiting"])),
        row["message_id"],
    )


def seat_of(row: Any) -> SeatRow:
    return SeatRow(
        join_order=row["join_order"],
        seat=row["seat"],
        user_id=row["user_id"],
        display_name=row["display_name"],
        is_computer=bool(row["is_computer"]),
        resigned=bool(row["resigned"]),
        level=row["computer_level"],
    )


def job_of(row: Any) -> Job:
    payload = _json(row["payload"], "payload", [], {})
    return Job(
        id=row["id"],
        kind=row["kind"],
        key=row["key"],
        due_at=row["due_at"],
        payload=payload if isinstance(payload, dict) else {},
        attempts=row["attempts"],
        claimed_by=row["claimed_by"],
        claim=row["claim"],
        claimed_until=row["claimed_until"],
    )


def rating_of(r: Any) -> RatingRow:
    return RatingRow(r["user_id"], r["display_name"], r["mu"], r["sigma"], r["games"], r["wins"])


SEATS_SQL = "SELECT * FROM seats WHERE session_id = ? ORDER BY COALESCE(seat, join_order), join_order"
ARM_SQL = (
    "INSERT INTO jobs (kind, key, due_at, payload, created_at) VALUES (?, ?, ?, ?, ?)"
    " ON CONFLICT (kind, key) DO UPDATE SET due_at = excluded.due_at, payload = excluded.payload,"
    " claimed_by = NULL, claim = NULL, claimed_until = NULL, attempts = 0"
)


# ----------------------------------------------------------------------------- the interface


class Store:
    """The database: sessions, seats, the move log, results, ratings and jobs.

    Open with :meth:`open` (a path: SQLite; a ``postgresql://`` URL: PostgreSQL), close with
    :meth:`close`.  Times come from ``clock``.  Nothing outside this package sees SQL or which
    database it talks to.
    """

    backend = "?"

    def __init__(self, where: str, clock: Clock):
        self.where = where  # the SQLite path, or the PostgreSQL URL without its password
        self.clock = clock
        self.upgraded_from: int | None = None  # the schema this opening upgraded the database from
        self.kept_copy: str | None = None  # SQLite: the copy kept of the file before that upgrade

    # ----------------------------------------------------------------- lifecycle

    @property
    def path(self) -> str:
        """Where the data is (the SQLite file, or the PostgreSQL URL without its password)."""
        return self.where

    async def close(self) -> None:
        raise NotImplementedError

    async def check_integrity(self) -> list[str]:
        """The back end's full check: ``[]`` when sound, else the problems found."""
        raise NotImplementedError

    async def schema_version(self) -> int:
        row = await self._one("SELECT MAX(version) FROM schema_migrations")
        return row[0] or 0

    async def ping(self, *, timeout: float = 5.0) -> str | None:  # noqa: ASYNC109
        """``None`` when the database answers a query within ``timeout`` seconds, else why not, in
        one line (for ``/healthz``; never raises)."""
        try:
            async with asyncio.timeout(timeout):
                await self._ping()
        except TimeoutError:
            return f"{self.where} did not answer within {timeout:g} s"
        except Exception as exc:
            text = " ".join(str(exc).split()) or "no details"
            return f"{self.where}: {exc.__class__.__name__}: {text}"
        return None

    async def _ping(self) -> None:
        await self._one("SELECT 1")

    async def games_running(self) -> int:
        """How many games are started and not ended."""
        row = await self._one("SELECT COUNT(*) FROM sessions WHERE status = 'active'")
        return int(row[0])

    async def jobs_waiting(self, late_after: float) -> tuple[int, int]:
        """(jobs whose time has come, of those the ones waiting ``late_after`` seconds or more)."""
        now = self.clock.time()
        row = await self._one(
            "SELECT COUNT(*), COALESCE(SUM(CASE WHEN due_at <= ? THEN 1 ELSE 0 END), 0)"
            " FROM jobs WHERE due_at <= ?",
            now - late_after,
            now,
        )
        return int(row[0]), int(row[1])

    # ----------------------------------------------------------------- what a back end provides

    async def _transact(self, body: Body) -> Any:
        """Run ``body`` in one write transaction; its return value is the result."""
        raise NotImplementedError

    async def _read(self, body: Body) -> Any:
        """Run a reading ``body`` (several statements in one trip where the back end can)."""
        raise NotImplementedError

    async def _read_small(self, body: Body) -> Any:
        """Run a reading ``body`` of a few rows found by key (a session and its seats) the quickest
        way the back end has."""
        return await self._read(body)

    async def _commit_moves(
        self,
        session_id: int,
        expected_version: int,
        moves: list[NewMove],
        state: dict[str, Any],
        job: Job | None,
        clock: tuple[dict[str, Any], float | None] | None = None,
    ) -> int:
        """Append ``moves`` with the snapshot ``state`` in one trip; StaleVersion if refused."""
        raise NotImplementedError

    async def _commit_play(
        self,
        session_id: int,
        expected_version: int,
        moves: list[NewMove],
        state: dict[str, Any],
        clock: tuple[dict[str, Any], float | None] | None,
    ) -> SessionRow:
        """:meth:`_commit_moves` without a job, returning the session's row as committed."""
        raise NotImplementedError

    async def claim_jobs(self, owner: str, *, lease: float, limit: int = 20) -> list[Job]:
        """Claim up to ``limit`` due jobs for ``owner`` until now + ``lease`` seconds.

        A job is due when its time has come and nobody holds a live claim on it (a claim whose
        lease ran out, because its process died, is taken over).  Claims never overlap, across
        processes too.
        """
        raise NotImplementedError

    def _ratings_lock(self, guild_id: int, game: str) -> Body:
        """Statements that keep two transactions from rating the same server's game at once."""
        return
        yield  # a generator that yields nothing (SQLite's writer lock already serialises)

    async def _all(self, sql: str, *params: Any) -> list[Any]:
        return await self._read(single(all_(sql, *params)))

    async def _one(self, sql: str, *params: Any) -> Any:
        rows = await self._all(sql, *params)
        return rows[0] if rows else None

    # ----------------------------------------------------------------- sessions

    async def create_session(
        self,
        *,
        game: str,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: dict[str, Any],
        max_players: int,
        seed: int,
        lobby_channel_id: int | None = None,
        clock: str | None = None,
        timer_seconds: float | None = None,
    ) -> int:
        """A new lobby (``clock``: its game clock's spec, ``timer_seconds``: the first turn's delay)."""
        _need_guild(guild_id)
        stamp = self.clock.stamp()

        def body() -> Body:
            row = yield one(
                "INSERT INTO sessions (game, guild_id, channel_id, host_id, status, options, max_players,"
                " seed, created_at, updated_at, lobby_channel_id, clock, timer_seconds)"
                " VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                game,
                guild_id,
                channel_id,
                host_id,
                json.dumps(options),
                max_players,
                seed,
                stamp,
                stamp,
                lobby_channel_id,
                clock,
                None if timer_seconds is None else float(timer_seconds),
            )
            yield run(
                "INSERT INTO seats (session_id, join_order, user_id, display_name) VALUES (?, 0, ?, ?)",
                row[0],
                host_id,
                host_name,
            )
            return row[0]

        try:
            return await self._transact(body())
        except Conflict:
            raise ChannelBusy() from None

    async def session(self, session_id: int) -> SessionRow | None:
        if not fits(session_id):
            return None
        row = await self._one("SELECT * FROM sessions WHERE id = ?", session_id)
        return session_of(row) if row else None

    async def live_session(self, channel_id: int) -> SessionRow | None:
        if not fits(channel_id):
            return None
        row = await self._one(
            "SELECT * FROM sessions WHERE channel_id = ? AND status IN ('lobby', 'active')", channel_id
        )
        return session_of(row) if row else None

    async def load(
        self, *, session_id: int | None = None, channel_id: int | None = None
    ) -> tuple[SessionRow, list[SeatRow]] | None:
        """A session (by id, or the live one in a channel) with its seats, read in one trip."""
        key = session_id if session_id is not None else channel_id
        if key is None or not fits(key):
            return None

        where = (
            "s.id = ?" if session_id is not None else "s.channel_id = ? AND s.status IN ('lobby', 'active')"
        )
        rows = await self._read_small(
            single(
                all_(
                    "SELECT s.*, st.join_order, st.seat, st.user_id, st.display_name, st.is_computer,"
                    " st.resigned, st.computer_level"
                    f" FROM sessions s LEFT JOIN seats st ON st.session_id = s.id WHERE {where}"
                    " ORDER BY COALESCE(st.seat, st.join_order), st.join_order",
                    key,
                )
            )
        )
        if not rows:
            return None
        return session_of(rows[0]), [seat_of(r) for r in rows if r["join_order"] is not None]

    async def live_sessions(self, guild_id: int | None) -> list[SessionRow]:
        """The server's lobbies and running games; a missing server id is refused (ValueError)."""
        rows = await self._all(
            "SELECT * FROM sessions WHERE guild_id = ? AND status IN ('lobby', 'active') ORDER BY id",
            _need_guild(guild_id),
        )
        return [session_of(r) for r in rows]

    async def mark_damaged(self, session_id: int, reason: str) -> bool:
        """Mark a session damaged (its deadline cleared, its version bumped, so that no copy read
        before can commit a move); False when it already was."""
        stamp = self.clock.stamp()

        def body() -> Body:
            changed = yield run(
                "UPDATE sessions SET damaged = ?, damaged_at = ?, version = version + 1"
                " WHERE id = ? AND damaged IS NULL",
                reason[:500],
                stamp,
                session_id,
            )
            yield from self._disarm(session_id)
            return changed == 1

        return await self._transact(body())

    async def seats(self, session_id: int) -> list[SeatRow]:
        return [seat_of(r) for r in await self._all(SEATS_SQL, session_id)]

    async def add_seat(
        self,
        session_id: int,
        user_id: int | None,
        name: str,
        *,
        limit: int,
        computer: bool = False,
        level: str | None = None,
    ) -> bool:
        """Seat a player (a computer at ``level``) in a lobby; False when the lobby is full or not
        open.  A person seated meanwhile (by another process) raises :class:`Conflict`."""
        stamp = self.clock.stamp()

        def body() -> Body:
            row = yield one("SELECT status FROM sessions WHERE id = ?", session_id)
            if row is None or row[0] != "lobby":
                return False
            count = yield one(
                "SELECT COUNT(*), COALESCE(MAX(join_order), -1) FROM seats WHERE session_id = ?", session_id
            )
            if count[0] >= limit:
                return False
            yield run(
                "INSERT INTO seats (session_id, join_order, user_id, display_name, is_computer, computer_level)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                session_id,
                count[1] + 1,
                user_id,
                name,
                int(computer),
                level,
            )
            yield from self._touch(session_id, stamp)
            return True

        return await self._transact(body())

    async def remove_seat(self, session_id: int, join_order: int) -> None:
        stamp = self.clock.stamp()

        def body() -> Body:
            yield run("DELETE FROM seats WHERE session_id = ? AND join_order = ?", session_id, join_order)
            yield from self._touch(session_id, stamp)

        await self._transact(body())

    async def set_lobby_message(self, session_id: int, message_id: int | None) -> None:
        await self._transact(
            single(run("UPDATE sessions SET lobby_message_id = ? WHERE id = ?", message_id, session_id))
        )

    async def start(
        self,
        session_id: int,
        seat_of: dict[int, int],
        options: dict[str, Any],
        state: dict[str, Any],
    ) -> int:
        """Lobby -> active: assign engine seats (join_order -> seat), store the first snapshot."""
        stamp, now = self.clock.stamp(), self.clock.time()

        def body() -> Body:
            row = yield one(
                "UPDATE sessions SET status = 'active', options = ?, state = ?, version = version + 1,"
                " updated_at = ? WHERE id = ? AND status = 'lobby' RETURNING version, timer_seconds",
                json.dumps(options),
                json.dumps(state),
                stamp,
                session_id,
            )
            if row is None:
                raise StaleVersion(-1)
            yield many(
                "UPDATE seats SET seat = ? WHERE session_id = ? AND join_order = ?",
                [(seat, session_id, join_order) for join_order, seat in seat_of.items()],
            )
            yield from self._arm(session_id, row[0], row[1], now, stamp)
            return row[0]

        return await self._transact(body())

    def _arm(self, session_id: int, version: int, timer: float | None, now: float, stamp: str) -> Body:
        """Set the session's deadline job for ``version`` from its timer (none without a timer)."""
        if timer:
            yield run(
                ARM_SQL, DEADLINE, str(session_id), now + timer, json.dumps({"version": version}), stamp
            )
        else:
            yield from self._disarm(session_id)

    def _disarm(self, session_id: int) -> Body:
        yield run("DELETE FROM jobs WHERE kind = ? AND key = ?", DEADLINE, str(session_id))

    async def set_clock(
        self,
        session_id: int,
        clock: str | None,
        state: dict[str, Any] | None,
        timer: float | None,
        *,
        expected_version: int | None = None,
    ) -> bool:
        """Set the game clock (its spec and running clocks) and the delay to the next deadline,
        re-armed from now when the game runs (``timer`` None: no deadline).  With
        ``expected_version``, nothing changes unless the session is still at it (False).

        The version is bumped when the spec or the running clocks change (a move computes the
        clocks from them); a deadline moved on with the clocks as they were (time away) keeps
        it, so the buttons on the board stay good."""
        stamp, now = self.clock.stamp(), self.clock.time()
        dumped = dump_json(state)

        def body() -> Body:
            check = "" if expected_version is None else " AND version = ?"
            extra = () if expected_version is None else (expected_version,)
            row = yield one(
                "UPDATE sessions SET clock = ?, clock_state = ?, timer_seconds = ?,"
                " version = CASE WHEN COALESCE(clock, '') = COALESCE(?, '')"
                " AND COALESCE(clock_state, '') = COALESCE(?, '') THEN version ELSE version + 1 END"
                " WHERE id = ?" + check + " RETURNING version, status",
                clock,
                dumped,
                stored_seconds(timer),
                clock,
                dumped,
                session_id,
                *extra,
            )
            if row is None:
                return False
            if row[1] == "active":
                yield from self._arm(session_id, row[0], stored_seconds(timer), now, stamp)
            return True

        return await self._transact(body())

    def _clock_body(
        self,
        session_id: int,
        version: int,
        state: dict[str, Any],
        timer: float | None,
        now: float,
        stamp: str,
    ) -> Body:
        """A move's clock update, inside the move's transaction: the running clocks and the deadline."""
        yield run(
            "UPDATE sessions SET clock_state = ?, timer_seconds = ? WHERE id = ?",
            json.dumps(state),
            stored_seconds(timer),
            session_id,
        )
        yield from self._arm(session_id, version, stored_seconds(timer), now, stamp)

    async def record_moves(
        self,
        session_id: int,
        expected_version: int,
        moves: Iterable[NewMove | tuple[int, str, bool]],
        state: dict[str, Any],
        *,
        job: Job | None = None,
        clock: tuple[dict[str, Any], float | None] | None = None,
    ) -> int:
        """Append moves and the new snapshot atomically, in one trip to the database.

        Each move is a :class:`NewMove` (with its events and privacy mark) or a bare
        ``(seat, text, by_computer)`` tuple, stored without them.  Raises
        :class:`StaleVersion` when the session is no longer at ``expected_version`` (or,
        with ``job``, when that claimed job is no longer there: another process fired it,
        or a move re-armed it); nothing is written then.  The claimed ``job`` is consumed
        in the same transaction.  Returns the new version; the turn deadline is re-armed
        for it.  ``clock`` (a clocked game): the running clocks after these moves and the
        delay to the next deadline, written in the same transaction.
        """
        rows = [m if isinstance(m, NewMove) else NewMove(*m) for m in moves]
        return await self._commit_moves(session_id, expected_version, rows, state, job, clock)

    async def play_moves(
        self,
        session_id: int,
        expected_version: int,
        moves: Iterable[NewMove],
        state: dict[str, Any],
        *,
        clock: tuple[dict[str, Any], float | None] | None = None,
    ) -> SessionRow:
        """:meth:`record_moves` (without a job) that hands back the session's row as committed, read
        in the same transaction and the same trip, so that a move needs no second read to be
        posted: its version, deadline, clocks, board message and the rest as they are now, and
        ``state`` as its saved state (the very object given, not a copy read back)."""
        return await self._commit_play(session_id, expected_version, list(moves), state, clock)

    def _commit_body(
        self,
        session_id: int,
        expected_version: int,
        moves: list[NewMove],
        state: dict[str, Any],
        job: Job | None,
        stamp: str,
        now: float,
        clock: tuple[dict[str, Any], float | None] | None = None,
    ) -> Body:
        """The move commit as one transaction body (the SQLite back end runs it in one call).

        Two statements when all goes well: the version bump (refused unless the session is
        still at ``expected_version``) and the log rows, each numbered after the last; then
        the claimed deadline is consumed and the next one armed, when there are such.
        (Without a timer a session has no deadline job: setting the timer to none drops it.)
        """
        new_version = expected_version + len(moves)
        row = yield one(
            "UPDATE sessions SET state = ?, version = ?, updated_at = ?"
            " WHERE id = ? AND version = ? AND status = 'active' RETURNING timer_seconds",
            json.dumps(state),
            new_version,
            stamp,
            session_id,
            expected_version,
        )
        if row is None:
            current = yield one("SELECT version FROM sessions WHERE id = ?", session_id)
            raise StaleVersion(current[0] if current else -1)
        if job is not None:
            gone = yield run("DELETE FROM jobs WHERE id = ? AND claim = ?", job.id, job.claim)
            if gone != 1:
                raise StaleVersion(expected_version)
        yield many(
            "INSERT INTO moves (session_id, number, seat, move, by_computer, created_at, events, privacy)"
            " SELECT ?, COALESCE(MAX(number), 0) + 1, ?, ?, ?, ?, ?, ? FROM moves WHERE session_id = ?",
            [
                (
                    session_id,
                    m.seat,
                    m.move,
                    int(m.by_computer),
                    stamp,
                    dump_json(m.events),
                    dump_json(m.privacy),
                    session_id,
                )
                for m in moves
            ],
        )
        if clock is not None:
            yield from self._clock_body(session_id, new_version, clock[0], clock[1], now, stamp)
        elif row[0]:
            yield from self._arm(session_id, new_version, row[0], now, stamp)
        return new_version

    async def set_seat_flags(self, session_id: int, seat: int, *, computer: bool, resigned: bool) -> int:
        """Mark an engine seat as played by the computer and/or resigned; bumps the version."""
        stamp, now = self.clock.stamp(), self.clock.time()

        def body() -> Body:
            yield run(
                "UPDATE seats SET is_computer = ?, resigned = ? WHERE session_id = ? AND seat = ?",
                int(computer),
                int(resigned),
                session_id,
                seat,
            )
            row = yield one(
                "UPDATE sessions SET version = version + 1, updated_at = ? WHERE id = ?"
                " RETURNING version, timer_seconds",
                stamp,
                session_id,
            )
            yield from self._arm(session_id, row[0], row[1], now, stamp)
            return row[0]

        return await self._transact(body())

    async def finish(
        self,
        session_id: int,
        *,
        status: str,
        reason: str,
        outcome: dict[str, Any] | None,
        results: Sequence[ResultRow],
        rate: Callable[[list[RatingRow]], Sequence[RatingRow]] | None = None,
        names: dict[int, str] | None = None,
    ) -> None:
        """Active or lobby -> finished or abandoned, with the results recorded.

        With ``rate``, the players' current ratings are read and the new ones written in
        the same transaction (no other transaction rates the same server's game meanwhile,
        in any process), so two games ending at once cannot lose an update.  ``rate`` gets
        and returns :class:`RatingRow` values.
        """
        if status not in ("finished", "abandoned"):
            raise ValueError(status)
        stamp = self.clock.stamp()

        def body() -> Body:
            if rate is not None:
                yield from self._rate(session_id, results, rate, names or {}, stamp)
            yield run(
                "UPDATE sessions SET status = ?, end_reason = ?, outcome = ?, finished_at = ?, updated_at = ?,"
                " version = version + 1 WHERE id = ? AND status IN ('lobby', 'active')",
                status,
                reason,
                dump_json(outcome) if outcome else None,
                stamp,
                stamp,
                session_id,
            )
            yield from self._disarm(session_id)
            yield many(
                "INSERT INTO results (session_id, seat, user_id, score, place, resigned) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (
                        session_id,
                        r.seat,
                        r.user_id,
                        None if r.score is None else float(r.score),
                        r.place,
                        int(r.resigned),
                    )
                    for r in results
                ],
            )
            yield from self._after_finish(session_id, status, results)

        await self._transact(body())

    def _after_finish(self, session_id: int, status: str, results: Sequence[ResultRow]) -> Body:
        """Statements run in a session's finishing transaction after its results (the league
        storage writes a league game's places here)."""
        return
        yield

    def _rate(self, session_id, results, rate, names, stamp) -> Body:
        row = yield one("SELECT guild_id, game FROM sessions WHERE id = ?", session_id)
        guild_id, game = row[0], row[1]
        if guild_id is None:
            return  # ratings belong to a server (a game opened outside one, by older code, is not rated)
        yield from self._ratings_lock(guild_id, game)
        current = []
        for r in results:
            if r.user_id is None:
                continue
            found = yield one(
                "SELECT mu, sigma, games, wins FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?",
                guild_id,
                game,
                r.user_id,
            )
            current.append(
                RatingRow(
                    user_id=r.user_id,
                    name=names.get(r.user_id, str(r.user_id)),
                    mu=found[0] if found else None,
                    sigma=found[1] if found else None,
                    games=found[2] if found else 0,
                    wins=found[3] if found else 0,
                    place=r.place,
                )
            )
        new = list(rate(current))
        if not new:
            return
        yield many(
            "INSERT INTO ratings (guild_id, game, user_id, display_name, mu, sigma, games, wins, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, user_id) DO UPDATE SET"
            " display_name = excluded.display_name, mu = excluded.mu, sigma = excluded.sigma,"
            " games = excluded.games, wins = excluded.wins, updated_at = excluded.updated_at",
            [
                (guild_id, game, n.user_id, n.name, float(n.mu), float(n.sigma), n.games, n.wins, stamp)
                for n in new
            ],
        )
        yield run("UPDATE sessions SET rated = 1 WHERE id = ?", session_id)

    async def leaderboard(self, guild_id: int | None, game: str, *, limit: int = 15) -> list[RatingRow]:
        rows = await self._all(
            "SELECT * FROM ratings WHERE guild_id = ? AND game = ? ORDER BY mu - 3 * sigma DESC, games DESC"
            " LIMIT ?",
            _need_guild(guild_id),
            game,
            limit,
        )
        return [rating_of(r) for r in rows]

    async def ratings_of(self, guild_id: int | None, user_id: int) -> dict[str, RatingRow]:
        rows = await self._all(
            "SELECT * FROM ratings WHERE guild_id = ? AND user_id = ? ORDER BY game",
            _need_guild(guild_id),
            user_id,
        )
        return {r["game"]: rating_of(r) for r in rows}

    def _touch(self, session_id: int, stamp: str) -> Body:
        yield run("UPDATE sessions SET version = version + 1, updated_at = ? WHERE id = ?", stamp, session_id)

    # ----------------------------------------------------------------- log and results

    async def moves(self, session_id: int, *, last: int | None = None) -> list[MoveRow]:
        if last is None:
            rows = await self._all("SELECT * FROM moves WHERE session_id = ? ORDER BY number", session_id)
        else:
            rows = await self._all(
                "SELECT * FROM (SELECT * FROM moves WHERE session_id = ? ORDER BY number DESC LIMIT ?) AS recent"
                " ORDER BY number",
                session_id,
                last,
            )
        return [move_of(r) for r in rows]

    async def move_count(self, session_id: int) -> int:
        row = await self._one("SELECT COUNT(*) FROM moves WHERE session_id = ?", session_id)
        return row[0]

    async def moves_after(self, session_id: int, number: int) -> list[MoveRow]:
        """The moves after move ``number``, oldest first (what the channel has not been told)."""
        rows = await self._all(
            "SELECT * FROM moves WHERE session_id = ? AND number > ? ORDER BY number", session_id, number
        )
        return [move_of(r) for r in rows]

    async def seat_move_count(self, session_id: int, seat: int) -> int:
        """How many moves ``seat`` has made (a stale private menu is told by it)."""
        row = await self._one(
            "SELECT COUNT(*) FROM moves WHERE session_id = ? AND seat = ?", session_id, seat
        )
        return row[0]

    # ----------------------------------------------------------------- the channel's board

    async def set_board_message(self, session_id: int, message_id: int, told_through: int) -> int | None:
        """Record the newly posted board and the last move it told; returns the board it replaces.

        ``told_through`` never goes back (two posts racing keep the larger).
        """

        def body() -> Body:
            row = yield one("SELECT board_message_id FROM sessions WHERE id = ?", session_id)
            yield run(
                "UPDATE sessions SET board_message_id = ?,"
                " told_through = CASE WHEN told_through > ? THEN told_through ELSE ? END WHERE id = ?",
                message_id,
                told_through,
                told_through,
                session_id,
            )
            return row[0] if row else None

        return await self._transact(body())

    async def last_session(self, channel_id: int) -> SessionRow | None:
        """The newest session in a channel, live or ended: a finished game stays visible to
        /game status, log and board until a new one opens there."""
        if not fits(channel_id):
            return None
        row = await self._one(
            "SELECT * FROM sessions WHERE channel_id = ? ORDER BY id DESC LIMIT 1", channel_id
        )
        return session_of(row) if row else None

    async def results(self, session_id: int) -> list[ResultRow]:
        rows = await self._all("SELECT * FROM results WHERE session_id = ? ORDER BY place, seat", session_id)
        return [ResultRow(r["seat"], r["user_id"], r["score"], r["place"], bool(r["resigned"])) for r in rows]

    # ----------------------------------------------------------------- servers

    async def server_language(self, guild_id: int) -> str | None:
        """The language a server chose with ``/game language`` (``None``: its own Discord language)."""
        if not fits(guild_id):
            return None
        row = await self._one("SELECT language FROM server_settings WHERE guild_id = ?", guild_id)
        return row["language"] if row else None

    async def set_server_language(self, guild_id: int, language: str | None) -> None:
        """Choose the language of a server's public messages and images (``None``: back to its own)."""
        stamp = self.clock.stamp()
        await self._transact(
            single(
                run(
                    "INSERT INTO server_settings (guild_id, language, updated_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language,"
                    " updated_at = excluded.updated_at",
                    guild_id,
                    language,
                    stamp,
                )
            )
        )

    async def server_contrast(self, guild_id: int) -> bool:
        """Whether a server chose the high-contrast palette for its public pictures (``/game contrast``)."""
        if not fits(guild_id):
            return False
        row = await self._one("SELECT contrast FROM server_settings WHERE guild_id = ?", guild_id)
        return bool(row["contrast"]) if row else False

    async def set_server_contrast(self, guild_id: int, on: bool) -> None:
        """Choose the palette of a server's public pictures (its language untouched)."""
        await self._transact(
            single(
                run(
                    "INSERT INTO server_settings (guild_id, contrast, updated_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (guild_id) DO UPDATE SET contrast = excluded.contrast,"
                    " updated_at = excluded.updated_at",
                    guild_id,
                    int(on),
                    self.clock.stamp(),
                )
            )
        )

    # ----------------------------------------------------------------- people

    async def person(self, user_id: int) -> PersonRow:
        """A person's settings (the defaults when they never set any)."""
        row = await self._one("SELECT * FROM people WHERE user_id = ?", user_id) if fits(user_id) else None
        return person_of(row) if row else PersonRow(user_id)

    async def people(self, user_ids: Iterable[int]) -> dict[int, PersonRow]:
        """Several people's settings in one query (defaults for those without a row)."""
        ids = sorted({u for u in user_ids if fits(u)})
        found: dict[int, PersonRow] = {}
        if ids:
            marks = ", ".join("?" for _ in ids)
            rows = await self._all(f"SELECT * FROM people WHERE user_id IN ({marks})", *ids)
            found = {r["user_id"]: person_of(r) for r in rows}
        return {u: found.get(u, PersonRow(u)) for u in ids}

    async def save_person(self, person: PersonRow) -> None:
        stamp = self.clock.stamp()
        await self._transact(
            single(
                run(
                    "INSERT INTO people (user_id, notify, remind_hours, time_zone, quiet_start, quiet_end,"
                    " dm_failed, away_since, away_until, away_reason, away_year, away_days_used, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify,"
                    " remind_hours = excluded.remind_hours, time_zone = excluded.time_zone,"
                    " quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end,"
                    " dm_failed = excluded.dm_failed, away_since = excluded.away_since,"
                    " away_until = excluded.away_until, away_reason = excluded.away_reason,"
                    " away_year = excluded.away_year, away_days_used = excluded.away_days_used,"
                    " updated_at = excluded.updated_at",
                    person.user_id,
                    person.notify,
                    person.remind_hours,
                    person.time_zone,
                    person.quiet_start,
                    person.quiet_end,
                    int(person.dm_failed),
                    person.away_since,
                    person.away_until,
                    person.away_reason,
                    person.away_year,
                    person.away_days_used,
                    stamp,
                )
            )
        )

    async def set_dm_failed(self, user_id: int, failed: bool) -> bool:
        """Note (or clear) that a DM to the person failed; True when the flag changed."""
        stamp = self.clock.stamp()
        if failed:
            sql = (
                "INSERT INTO people (user_id, dm_failed, updated_at) VALUES (?, 1, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET dm_failed = 1, updated_at = excluded.updated_at"
                " WHERE people.dm_failed = 0"
            )
            changed = await self._transact(single(run(sql, user_id, stamp)))
        else:
            changed = await self._transact(
                single(
                    run(
                        "UPDATE people SET dm_failed = 0, updated_at = ? WHERE user_id = ? AND dm_failed = 1",
                        stamp,
                        user_id,
                    )
                )
            )
        return changed == 1

    async def set_locale(self, user_id: int, locale: str) -> bool:
        """Keep the Discord locale of the person's latest interaction (their settings otherwise
        untouched; a person without a row gets one with the defaults); True when it changed."""
        if not fits(user_id):
            return False
        changed = await self._transact(
            single(
                run(
                    "INSERT INTO people (user_id, locale, updated_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale"
                    " WHERE people.locale IS NULL OR people.locale <> excluded.locale",
                    user_id,
                    locale,
                    self.clock.stamp(),
                )
            )
        )
        return changed == 1

    async def set_contrast(self, user_id: int, on: bool) -> None:
        """Choose the palette of the person's private pictures (their other settings untouched)."""
        await self._transact(
            single(
                run(
                    "INSERT INTO people (user_id, contrast, updated_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (user_id) DO UPDATE SET contrast = excluded.contrast,"
                    " updated_at = excluded.updated_at",
                    user_id,
                    int(on),
                    self.clock.stamp(),
                )
            )
        )

    async def sessions_of(self, user_id: int) -> list[tuple[SessionRow, list[SeatRow]]]:
        """Every live session (lobby or game, every server) where the person sits and has not
        resigned, with its seats, in one query."""
        if not fits(user_id):
            return []
        rows = await self._all(
            "SELECT s.*, st.join_order, st.seat, st.user_id AS seat_user, st.display_name, st.is_computer,"
            " st.resigned FROM sessions s JOIN seats st ON st.session_id = s.id"
            " WHERE s.status IN ('lobby', 'active') AND s.id IN (SELECT session_id FROM seats"
            " WHERE user_id = ? AND resigned = 0)"
            " ORDER BY s.id, COALESCE(st.seat, st.join_order), st.join_order",
            user_id,
        )
        out: dict[int, tuple[SessionRow, list[SeatRow]]] = {}
        for r in rows:
            if r["id"] not in out:
                out[r["id"]] = (session_of(r), [])
            out[r["id"]][1].append(
                SeatRow(
                    r["join_order"],
                    r["seat"],
                    r["seat_user"],
                    r["display_name"],
                    bool(r["is_computer"]),
                    bool(r["resigned"]),
                )
            )
        return list(out.values())

    # ----------------------------------------------------------------- snapshots (history)

    async def moves_between(self, session_id: int, after: int, through: int) -> list[MoveRow]:
        """The moves numbered ``after + 1`` to ``through``, oldest first."""
        rows = await self._all(
            "SELECT * FROM moves WHERE session_id = ? AND number > ? AND number <= ? ORDER BY number",
            session_id,
            after,
            through,
        )
        return [move_of(r) for r in rows]

    async def move_at(self, session_id: int, number: int) -> MoveRow | None:
        row = await self._one("SELECT * FROM moves WHERE session_id = ? AND number = ?", session_id, number)
        return move_of(row) if row else None

    async def snapshot_before(self, session_id: int, number: int) -> tuple[int, dict[str, Any]] | None:
        """The latest saved state at or before move ``number``: (its move number, the state)."""
        row = await self._one(
            "SELECT number, state FROM snapshots WHERE session_id = ? AND number <= ?"
            " ORDER BY number DESC LIMIT 1",
            session_id,
            number,
        )
        if row is None:
            return None
        try:
            return row[0], json.loads(row[1])
        except ValueError:
            return None  # an unreadable snapshot is only a lost shortcut: the log rebuilds it

    async def save_snapshots(self, session_id: int, states: Sequence[tuple[int, dict[str, Any]]]) -> None:
        """Keep the states after the moves given (one already saved is left as it is)."""
        if not states:
            return
        await self._transact(
            single(
                many(
                    "INSERT INTO snapshots (session_id, number, state) VALUES (?, ?, ?)"
                    " ON CONFLICT (session_id, number) DO NOTHING",
                    [(session_id, n, json.dumps(s)) for n, s in states],
                )
            )
        )

    async def snapshot_count(self, session_id: int) -> int:
        row = await self._one("SELECT COUNT(*) FROM snapshots WHERE session_id = ?", session_id)
        return row[0]

    async def drop_snapshots(self, session_id: int) -> None:
        """Forget a game's saved states (they are rebuilt from the log when needed)."""
        await self._transact(single(run("DELETE FROM snapshots WHERE session_id = ?", session_id)))

    # ----------------------------------------------------------------- undo requests

    async def ask_undo(self, request: UndoRequest) -> None:
        """Store ``request`` as the game's pending undo request (replacing an older one)."""

        def body() -> Body:
            yield run("DELETE FROM undo_requests WHERE session_id = ?", request.session_id)
            yield run(
                "INSERT INTO undo_requests (session_id, version, seat, target, waiting, message_id, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                request.session_id,
                request.version,
                request.seat,
                request.target,
                json.dumps(sorted(request.waiting)),
                request.message_id,
                self.clock.stamp(),
            )

        await self._transact(body())

    async def undo_request(self, session_id: int) -> UndoRequest | None:
        row = await self._one("SELECT * FROM undo_requests WHERE session_id = ?", session_id)
        return _undo_of(row) if row else None

    async def set_undo_message(self, session_id: int, message_id: int) -> None:
        await self._transact(
            single(
                run("UPDATE undo_requests SET message_id = ? WHERE session_id = ?", message_id, session_id)
            )
        )

    async def agree_undo(self, session_id: int, version: int, seat: int) -> UndoRequest | None:
        """``seat`` agrees to the request made at ``version``; returns it as it stands now
        (``None`` when there is no such request any more)."""

        def body() -> Body:
            row = yield one(
                "SELECT * FROM undo_requests WHERE session_id = ? AND version = ?", session_id, version
            )
            if row is None:
                return None
            request = _undo_of(row)
            waiting = request.waiting - {seat}
            yield run(
                "UPDATE undo_requests SET waiting = ? WHERE session_id = ?",
                json.dumps(sorted(waiting)),
                session_id,
            )
            return UndoRequest(
                session_id, version, request.seat, request.target, frozenset(waiting), request.message_id
            )

        return await self._transact(body())

    async def drop_undo(self, session_id: int, version: int | None = None) -> bool:
        """Forget the game's request (only the one made at ``version``, when given)."""
        if version is None:
            changed = await self._transact(
                single(run("DELETE FROM undo_requests WHERE session_id = ?", session_id))
            )
        else:
            changed = await self._transact(
                single(
                    run("DELETE FROM undo_requests WHERE session_id = ? AND version = ?", session_id, version)
                )
            )
        return changed == 1

    # ----------------------------------------------------------------- jobs

    async def schedule(
        self, kind: str, key: str, due_at: float, payload: dict[str, Any] | None = None
    ) -> None:
        """Set the job ``kind``/``key`` to fire at ``due_at`` (seconds since the epoch), replacing
        a pending one of the same kind and key (and any claim on it)."""
        stamp = self.clock.stamp()
        await self._transact(
            single(run(ARM_SQL, kind, str(key), float(due_at), json.dumps(payload or {}), stamp))
        )

    async def cancel(self, kind: str, key: str) -> bool:
        """Drop the pending job ``kind``/``key``; False when there was none."""
        changed = await self._transact(
            single(run("DELETE FROM jobs WHERE kind = ? AND key = ?", kind, str(key)))
        )
        return changed == 1

    async def job(self, kind: str, key: str) -> Job | None:
        row = await self._one("SELECT * FROM jobs WHERE kind = ? AND key = ?", kind, str(key))
        return job_of(row) if row else None

    async def jobs(self, kind: str | None = None) -> list[Job]:
        """Pending jobs (of one kind), soonest first."""
        if kind is None:
            rows = await self._all("SELECT * FROM jobs ORDER BY due_at, id")
        else:
            rows = await self._all("SELECT * FROM jobs WHERE kind = ? ORDER BY due_at, id", kind)
        return [job_of(r) for r in rows]

    async def next_due(self) -> float | None:
        """When the soonest job is due (or its claim's lease ends), or None without jobs."""
        row = await self._one(
            "SELECT MIN(CASE WHEN claimed_until IS NOT NULL AND claimed_until > due_at"
            " THEN claimed_until ELSE due_at END) FROM jobs"
        )
        return None if row is None or row[0] is None else float(row[0])

    async def complete_job(self, job: Job) -> bool:
        """Drop a fired job, if the claim is still ours (a job re-armed meanwhile stays)."""
        changed = await self._transact(
            single(run("DELETE FROM jobs WHERE id = ? AND claim = ?", job.id, job.claim))
        )
        return changed == 1

    async def release_job(self, job: Job, due_at: float) -> bool:
        """Give a claimed job back, to be tried again at ``due_at``."""
        changed = await self._transact(
            single(
                run(
                    "UPDATE jobs SET due_at = ?, claimed_by = NULL, claim = NULL, claimed_until = NULL"
                    " WHERE id = ? AND claim = ?",
                    float(due_at),
                    job.id,
                    job.claim,
                )
            )
        )
        return changed == 1


def single(op: tuple[str, str, Any]) -> Body:
    result = yield op
    return result
