"""What every concern store and both back ends share: records, refusals, statements, migrations,
and the two interfaces (:class:`Backend`, :class:`Concern`).

Each change is written once, as a *transaction body*: a generator that yields
statements (``yield from`` :func:`one`, :func:`all_`, :func:`run`, :func:`many`) and
receives their results, so its logic (checks, numbering, deadlines, ratings) is the
same on both back ends.  A :class:`Backend` runs a body inside one transaction:
SQLite runs it to the end in one call on its writer thread; PostgreSQL runs it
on one connection between ``BEGIN`` and ``COMMIT``.  The statements are written
with ``?`` placeholders in SQL both databases understand; the PostgreSQL back
end numbers them.  What a back end must do its own way (the move commit, the
one hot path, in one trip; claiming jobs; the ratings lock) is a method of its
back end object.  The concern stores (games, history, people, jobs, ratings,
leagues) are :class:`Concern` subclasses holding one back end; this module
imports neither them nor a back end.
"""

from __future__ import annotations

import abc
import json
import re
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from importlib import resources
from typing import TYPE_CHECKING, Any, Protocol, TypedDict, TypeVar, cast

from bot.time.jobs import DEADLINE as DEADLINE  # the turn deadline job kind, as the store has always named it
from bot.time.source import Clock

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

LIVE = ("lobby", "active")
INT_MIN, INT_MAX = -(2**63), 2**63 - 1


def fits(number: int) -> bool:
    """Whether ``number`` fits a 64-bit signed integer column (SQLite INTEGER, PostgreSQL BIGINT):
    ids from a forged custom_id can be any size, and such an id simply names no row."""
    return INT_MIN <= number <= INT_MAX


def need_guild(guild_id: int | None) -> int:
    if guild_id is None:
        raise ValueError("a server id is needed: games and ratings belong to a server")
    return guild_id


class StorageError(RuntimeError):
    """The database cannot be used; the message says why and what to do, in one line."""


class Unreachable(StorageError):
    """The database server cannot be reached (for now: trying again later may succeed)."""


class NotAnswering(StorageError):
    """The database stopped answering while the bot ran (the server down or refusing, the SQLite
    file locked by another program, full or read-only); the message says which, in one line.
    What was being written may or may not be stored: a commit cut short cannot say."""


class NoRow(LookupError):
    """A statement that always answers a row answered none: the row it reads or changes is gone
    (a broken invariant, not a refusal)."""


class ChannelBusy(Exception):
    """A live game already occupies the channel."""


class Conflict(Exception):
    """A write broke a uniqueness rule (a second live game in a channel, a person seated twice)."""


class Contended(Exception):
    """Two transactions waited on each other and the database cancelled this one (PostgreSQL's
    deadlock or serialization failure); nothing it wrote is stored, and running it again may
    succeed."""


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
    options: dict[str, object]
    max_players: int
    seed: int
    state: dict[str, object] | None
    version: int
    lobby_message_id: int | None
    outcome: dict[str, object] | None
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
    clock_state: dict[str, object] | None = None  # the running clocks (gameclock.Banks.to_dict)
    # the channel was told the game ended (its last board was posted); stored as 1, or 2 once the
    # results card was posted too (:meth:`bot.storage.games.Games.card_told`): ``card_told``
    end_told: bool = False
    rematch_of: int | None = None  # the game this one was opened to play again (its Rematch button)
    card_told: bool = False  # a finished game's results card was posted (Discord took it)

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
    events: list[dict[str, object]] | None = None  # Event.to_dict of each event; None on rows from before
    privacy: dict[str, object] | None = None  # Privacy.to_dict; None on rows from before
    turn: int | None = None  # the engine's turn number before the move; None on rows from before


@dataclass(frozen=True)
class NewMove:
    """A move to append to the log, with its events and privacy mark (plain JSON values) and the
    engine's turn number before it (``None``: not known)."""

    seat: int
    move: str
    by_computer: bool = False
    events: Sequence[Mapping[str, object]] | None = None
    privacy: Mapping[str, object] | None = None
    turn: int | None = None


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
    # the person's shown rating before and after the game, where the game changed it (stored with
    # the result: :meth:`bot.storage.games.Games.finish`)
    rating_before: float | None = None
    rating_after: float | None = None


class JobPayload(TypedDict, total=False):
    """What a job keeps besides its kind and key (:data:`bot.time.jobs.KINDS` says which kind holds
    which); stored as JSON."""

    version: int  # deadline, autoplay: the session's version it was set for
    move: str  # autoplay: the move to make
    since: float  # clock warning: when the turn's clock started; board: its first refusal; after board: its record
    at: int  # clock vote timeout: the time the question was asked
    message: int  # clock vote timeout: the question's message, once posted (closed, it loses its buttons)
    taken: bool  # clock vote timeout: the computer took the seat, and the channel is not told yet
    decided: bool  # clock vote timeout: the question was answered; its buttons are still to go
    unanswered: bool  # clock vote timeout: nobody answered (the question says so as it closes)
    later: bool  # clock vote timeout: Discord refused the edit that closes it; the job tries again
    shown: str  # queue confirm: what the table's Confirm message says, rewritten with what came of it
    league: int  # league deadline, league nudge, league held
    round: int  # league round (a guard while it opens), league deadline, league nudge, league held
    stage: str  # league nudge, league held: remind or warn
    game: int  # league held: the league game whose late player's news was held back
    user: int  # league held: whose
    warn_at: float  # league nudge (the reminder): when the warning is due
    missing: list[str]  # league round: the permissions it waited for last time
    announce: bool  # league round: the season ended and its end is not posted yet
    review: float  # league round: the round waits for the organiser's review since then (a reminder)
    first: bool  # league round: the organiser is still to be told that the round waits for review; after
    # board: the game's first board (its start told to its players' followers)
    told: str  # board: what the players were told of the refusal (Refused.key)
    guild: int  # board: the game's server
    inside: int  # board: a board refused inside a turn; the board it was to follow (its message id)
    ping: bool  # board: that board inside a turn was posted with ping (Boards.post_board); after board:
    # the board ended a turn (passes declared ahead, turn notices), else it was one inside a turn
    restarted: list[int]  # board: the seats whose turn that board started again (more time on a clock)
    header: dict[str, Any]  # board: that board's header, a sentence (Said.to_dict), said again at the try
    lines: list[dict[str, Any]]  # board: sentences the channel refused just before that board, carried by it
    pings: list[int]  # board: the people those lines mention who want a mention
    # board: the table's own lines of the boards refused (a seat given to the computer), said
    # again at the try; one sentence, not a list, in a job kept before they were a list
    note: list[dict[str, Any]] | dict[str, Any]
    during: str  # board: the claim of the post holding the job when those sentences were handed to it
    left: str  # board: the claim of the post holding the job when another post left what it tells to its try
    held: bool  # remind: it carries a turn notice quiet hours held back (it comes, reminders or not)
    asked: list[list[int]]  # timeout notice: the questions (seat, time out) told after quiet hours
    called: list[int]  # after board: the seats whose turn the board began, told it by turn notice
    end: bool  # after board: the board told the game's end, told its players by direct message
    moves: int  # undo notice: how many moves the request takes back
    last: str  # after board: the line the board's public picture shows (drawn again for its watchers)
    again: bool  # after board: a board asked for again (/game board), which its watchers had: not sent them


def job_json(payload: JobPayload) -> str:
    """A job's payload as the ``jobs`` table stores it."""
    return json.dumps(payload)


@dataclass(frozen=True)
class Job:
    """A job row; a claimed one carries its claim token, which completing or releasing it checks."""

    id: int
    kind: str
    key: str
    due_at: float
    payload: JobPayload
    attempts: int = 0
    claimed_by: str | None = None
    claim: str | None = None
    claimed_until: float | None = None
    text: str = field(default="", compare=False, repr=False)  # the payload as stored


# ----------------------------------------------------------------------------- statements


class Row(Protocol):
    """A row as both back ends hand it over (``sqlite3.Row``, ``asyncpg.Record``): read by
    column name or position, or unpacked in column order.  A column's type is the one its
    statement selects, which no annotation here can know: the drivers' own rows give ``Any``."""

    def __getitem__(self, key: str | int, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...


Params = tuple[object, ...]
"""A statement's parameters, in the order of its ``?`` marks."""

Statement = tuple[str, str, Params | list[Params]]
"""What a transaction body yields: the kind (``one``, ``all``, ``run``, ``many``), the SQL, and its
parameters (``many``: a list of parameter rows)."""


T = TypeVar("T")

Body = Generator[Statement, object, T]
"""A transaction body returning a ``T``: it yields statements, each by ``yield from`` one of
:func:`one`, :func:`all_`, :func:`run`, :func:`many`, which hands back what the back end
answered."""


def one(sql: str, *params: object) -> Body[Row | None]:
    """The first row (or None)."""
    row = yield ("one", sql, params)
    return cast("Row | None", row)  # what both back ends send for "one"


def the_one(sql: str, *params: object) -> Body[Row]:
    """The row a statement always answers (an aggregate such as ``COUNT``, an ``INSERT`` or an
    ``UPDATE`` of a row known to be there, with ``RETURNING``)."""
    row = yield from one(sql, *params)
    if row is None:
        raise NoRow(sql)
    return row


def all_(sql: str, *params: object) -> Body[list[Row]]:
    """Every row."""
    rows = yield ("all", sql, params)
    return cast("list[Row]", rows)  # what both back ends send for "all"


def run(sql: str, *params: object) -> Body[int]:
    """Run a change; the result is the number of rows it changed."""
    changed = yield ("run", sql, params)
    return cast(int, changed)  # what both back ends send for "run"


def many(sql: str, rows: Iterable[Sequence[object]]) -> Body[None]:
    """Run a change once per parameter row."""
    yield ("many", sql, [tuple(r) for r in rows])


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
    found wrong; ``damaged`` SQLite's error when it could not read the file through at all
    (cut short, damaged).  Nothing is changed to find any of it.
    """

    where: str
    backend: str
    exists: bool = True
    tables: list[str] = field(default_factory=list)
    applied: set[int] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)
    damaged: str | None = None  # SQLite could not read the file through (cut short, damaged): why

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


def _json(text: str | None, what: str, problems: list[str]) -> object:
    """The JSON value ``text`` holds; None for none, or when it cannot be read (then noted in
    ``problems``)."""
    if not text:
        return None
    try:
        return json.loads(text)
    except (ValueError, TypeError) as exc:
        problems.append(f"its saved {what} is not readable JSON ({exc})")  # bot.sessions.DAMAGE_REASONS
        return None


def _json_object(text: str | None, what: str, problems: list[str]) -> dict[str, object] | None:
    """The JSON object ``text`` holds; None for none, or when it cannot be read or holds another
    kind of value (then noted in ``problems``)."""
    value = _json(text, what, problems)
    if value is None or isinstance(value, dict):
        return value
    problems.append(  # bot.sessions.DAMAGE_REASONS
        f"its saved {what} is not readable JSON (an object was expected, not {type(value).__name__})"
    )
    return None


def stored_seconds(timer: float | None) -> float | None:
    """A deadline's delay as stored: None for none, and never 0 (which would mean none)."""
    return None if timer is None else max(float(timer), 0.001)


def dump_json(value: object) -> str | None:
    return None if value is None else json.dumps(value)


SESSION_COLUMNS = (
    "id, game, guild_id, channel_id, host_id, status, options, max_players, seed, version,"
    " lobby_message_id, outcome, end_reason, created_at, updated_at, finished_at, timer_seconds,"
    " damaged, board_message_id, told_through, lobby_channel_id, clock, clock_state, end_told,"
    " rematch_of"
)
"""Every column :func:`session_of` reads but the state (which a move's commit already holds)."""


class _Unread:
    """The state :func:`session_of` is to read from the row."""


_READ = _Unread()


def session_of(row: Row, state: dict[str, object] | None | _Unread = _READ) -> SessionRow:
    """A session row; saved JSON that cannot be read is reported in ``unreadable``, never raised,
    so one damaged row cannot stop a list of sessions.  ``state``, when given, is the saved state
    as the caller just wrote it (the row then need not hold it)."""
    problems: list[str] = []
    clock_state = _json_object(row["clock_state"], "clock", problems)  # read before `unreadable` is
    return SessionRow(
        id=row["id"],
        game=row["game"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        host_id=row["host_id"],
        status=row["status"],
        options=_json_object(row["options"], "options", problems) or {},
        max_players=row["max_players"],
        seed=row["seed"],
        state=_json_object(row["state"], "state", problems) if isinstance(state, _Unread) else state,
        version=row["version"],
        lobby_message_id=row["lobby_message_id"],
        outcome=_json_object(row["outcome"], "outcome", problems),
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
        end_told=bool(row["end_told"]),
        rematch_of=row["rematch_of"],
        card_told=row["end_told"] == 2,
    )


R = TypeVar("R", bound="DataclassInstance")


def record(kind: type[R], row: Row, **read: object) -> R:
    """A row as the dataclass ``kind``: each field from the column of its name, but those
    ``read`` gives (a column that needs converting)."""
    return kind(**{f.name: read[f.name] if f.name in read else row[f.name] for f in fields(kind)})


def person_of(row: Row) -> PersonRow:
    return record(
        PersonRow,
        row,
        dm_failed=bool(row["dm_failed"]),
        away_days_used=row["away_days_used"] or 0,
        contrast=bool(row["contrast"]),
    )


def move_of(row: Row) -> MoveRow:
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
        turn=row["turn"],
    )


def undo_of(row: Row) -> UndoRequest:
    return UndoRequest(
        row["session_id"],
        row["version"],
        row["seat"],
        row["target"],
        frozenset(json.loads(row["waiting"])),
        row["message_id"],
    )


def seat_of(row: Row) -> SeatRow:
    return SeatRow(
        join_order=row["join_order"],
        seat=row["seat"],
        user_id=row["user_id"],
        display_name=row["display_name"],
        is_computer=bool(row["is_computer"]),
        resigned=bool(row["resigned"]),
        level=row["computer_level"],
    )


def job_of(row: Row) -> Job:
    payload = _json(row["payload"], "payload", [])
    return Job(
        id=row["id"],
        kind=row["kind"],
        key=row["key"],
        due_at=row["due_at"],
        payload=cast(JobPayload, payload) if isinstance(payload, dict) else {},  # as job_json wrote it
        attempts=row["attempts"],
        claimed_by=row["claimed_by"],
        claim=row["claim"],
        claimed_until=row["claimed_until"],
        text=row["payload"],
    )


RATED = "display_name, mu, sigma, games, wins, updated_at"
"""What a rating table keeps of each player, after the key."""


def rating_of(r: Row) -> RatingRow:
    return RatingRow(r["user_id"], r["display_name"], r["mu"], r["sigma"], r["games"], r["wins"])


SEATS_SQL = "SELECT * FROM seats WHERE session_id = ? ORDER BY COALESCE(seat, join_order), join_order"
ARM_SQL = (
    "INSERT INTO jobs (kind, key, due_at, payload, created_at) VALUES (?, ?, ?, ?, ?)"
    " ON CONFLICT (kind, key) DO UPDATE SET due_at = excluded.due_at, payload = excluded.payload,"
    " claimed_by = NULL, claim = NULL, claimed_until = NULL, attempts = 0"
)

Clocked = tuple[Mapping[str, object], float | None]
"""A clocked game's running clocks after a commit, and the delay to its next deadline."""


def upsert(table: str, key: str, columns: str, *, where: str = "", keep: str = "") -> str:
    """SQL that inserts a row of ``columns`` (comma-separated) into ``table``, or, when its ``key``
    is taken, sets the row's other columns (but those in ``keep``) to the new values (``where``:
    only when that holds)."""
    names = [c.strip() for c in columns.split(",")]
    fixed = {c.strip() for c in f"{key},{keep}".split(",")}
    sets = ", ".join(f"{c} = excluded.{c}" for c in names if c not in fixed)
    marks = ", ".join("?" for _ in names)
    tail = f" WHERE {where}" if where else ""
    return f"INSERT INTO {table} ({columns}) VALUES ({marks}) ON CONFLICT ({key}) DO UPDATE SET {sets}{tail}"


# ----------------------------------------------------------------------------- the back end


class Backend(abc.ABC):
    """One database (its connections, transactions, and the statements only it can run); the
    concern stores share it.  ``where``: the SQLite path, or the PostgreSQL URL without its
    password; times come from ``clock``."""

    name = "?"

    def __init__(self, where: str, clock: Clock):
        self.where = where
        self.clock = clock
        self.upgraded_from: int | None = None  # the schema this opening upgraded the database from
        self.kept_copy: str | None = None  # SQLite: the copy kept of the file before that upgrade

    @abc.abstractmethod
    async def close(self) -> None:
        raise NotImplementedError

    @abc.abstractmethod
    async def claim_shards(self, count: int, ids: Sequence[int], on_lost: Callable[[str], None]) -> None:
        """Hold shards ``ids`` of ``count`` for this process while it runs, so that no other process
        serves them from this database; raise :class:`StorageError` when one does.  ``on_lost`` is
        told if they are lost while running."""
        raise NotImplementedError

    @abc.abstractmethod
    async def check_integrity(self) -> list[str]:
        """The back end's full check: ``[]`` when sound, else the problems found."""
        raise NotImplementedError

    async def ping(self) -> None:
        """Raise unless the database answers a query."""
        await self.one("SELECT 1")

    @abc.abstractmethod
    async def transact(self, body: Body[T]) -> T:
        """Run ``body`` in one write transaction; its return value is the result."""
        raise NotImplementedError

    @abc.abstractmethod
    async def read(self, body: Body[T]) -> T:
        """Run a reading ``body`` (several statements in one trip where the back end can)."""
        raise NotImplementedError

    async def read_small(self, body: Body[T]) -> T:
        """Run a reading ``body`` of a few rows found by key (a session and its seats) the quickest
        way the back end has."""
        return await self.read(body)

    async def all(self, sql: str, *params: object) -> list[Row]:
        return await self.read(all_(sql, *params))

    async def one(self, sql: str, *params: object) -> Row | None:
        rows = await self.all(sql, *params)
        return rows[0] if rows else None

    async def the_row(self, sql: str, *params: object) -> Row:
        """The row a query always answers (an aggregate such as ``COUNT``, a row just written)."""
        row = await self.one(sql, *params)
        if row is None:
            raise NoRow(sql)
        return row

    async def change(self, sql: str, *params: object) -> int:
        """Run one change in its own transaction; the number of rows it changed."""
        return await self.transact(run(sql, *params))

    def ratings_lock(self, guild_id: int, game: str) -> Body[None]:
        """Statements that keep two transactions from rating the same server's game at once."""
        return
        yield  # a generator that yields nothing (SQLite's writer lock already serialises)

    def session_lock(self, session_id: int) -> Body[None]:
        """Statements that keep two transactions from changing the same session's seats at once:
        the second waits for the first's commit, then reads the seats it stored."""
        return
        yield  # a generator that yields nothing (SQLite's writer lock already serialises)

    @abc.abstractmethod
    async def commit_moves(
        self,
        session_id: int,
        expected_version: int,
        moves: list[NewMove],
        state: Mapping[str, object],
        job: Job | None,
        clock: Clocked | None,
    ) -> int:
        """Append ``moves`` with the snapshot ``state`` in one trip; StaleVersion if refused
        (see :meth:`bot.storage.games.Games.record_moves`)."""
        raise NotImplementedError

    @abc.abstractmethod
    async def commit_play(
        self,
        session_id: int,
        expected_version: int,
        moves: list[NewMove],
        state: dict[str, object],
        clock: Clocked | None,
    ) -> SessionRow:
        """:meth:`commit_moves` without a job, returning the session's row as committed."""
        raise NotImplementedError

    @abc.abstractmethod
    async def claim_jobs(self, owner: str, now: float, until: float, limit: int) -> list[Row]:
        """Claim up to ``limit`` jobs due at ``now`` for ``owner`` until ``until``, each by one
        process only (see :meth:`bot.storage.jobs.Jobs.claim_jobs`); the claimed rows."""
        raise NotImplementedError


class Concern:
    """A concern store's base: the back end it runs on, and its clock."""

    def __init__(self, db: Backend):
        self.db = db

    @property
    def clock(self) -> Clock:
        return self.db.clock
