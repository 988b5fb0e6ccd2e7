"""The PostgreSQL back end, for several processes sharing one database (``DATABASE_URL=postgresql://...``).

asyncpg with a connection pool.  A transaction body runs on one connection
between ``BEGIN`` and ``COMMIT``; a read of one statement runs without.  A
move's commit is one statement, the server-side function
``pukllay_record_moves`` (migrations/postgres/030_move_turns.sql): it checks the
version under a row lock, so of two processes racing the same move exactly
one is accepted.  Jobs are claimed with ``FOR UPDATE SKIP LOCKED``, so each
is fired by one process.  Ratings are updated under a transaction-scoped
advisory lock per server and game.  A seat is added to a lobby under its
session's row lock (``FOR UPDATE``), so two processes seating people in one
lobby at once count each other's seats.

At start the database is migrated (under an advisory lock, so processes
starting together migrate once) and checked, each problem in one line: the
server cannot be reached, refuses the login, the database does not exist,
holds something that is not Pukllay's, was written by a newer Pukllay, or
lacks part of the schema (tables, the log's append-only triggers, the commit
function).  Messages show the URL without its password.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
import re
import secrets
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from typing import Concatenate, ParamSpec, TypeVar
from urllib.parse import unquote_plus, urlsplit, urlunsplit

import asyncpg

from bot.storage.base import (
    MIGRATIONS_TABLE,
    SCHEMA_VERSION,
    SESSION_COLUMNS,
    Backend,
    Body,
    Clocked,
    Conflict,
    Contended,
    Examined,
    Job,
    NewMove,
    NotAnswering,
    Row,
    SessionRow,
    StaleVersion,
    StorageError,
    Unreachable,
    dump_json,
    migrations,
    older,
    one,
    pending,
    session_of,
    stored_seconds,
    the_one,
)
from bot.storage.games import clock_body
from bot.storage.shards import ShardClaim
from bot.time.jobs import DEADLINE
from bot.time.source import SYSTEM, Clock

MIGRATIONS = migrations("postgres")
RECORD_MOVES = "SELECT o_accepted, o_version FROM pukllay_record_moves(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
# A move's commit as one statement (prepared once per connection by asyncpg): the version bump,
# refused unless the session is still at the expected version (a racing commit holds the row lock,
# and this one then finds the version moved on and changes nothing); the clocks when the game has
# them; the log rows numbered after the last; the turn deadline re-armed (or, for a clocked game
# whose clocks set no deadline, dropped); and the session's row as committed, without its state.
# No rows back: the session was not at the expected version (or is no longer active).
PLAY_MOVES = f"""
WITH up AS (
    UPDATE sessions SET state = $9, version = $2 + cardinality($4::text[]), updated_at = $10,
        clock_state = CASE WHEN $12 THEN $13 ELSE clock_state END,
        timer_seconds = CASE WHEN $12 THEN $14 ELSE timer_seconds END
    WHERE id = $1 AND version = $2 AND status = 'active'
    RETURNING {SESSION_COLUMNS}
), logged AS (
    INSERT INTO moves (session_id, number, seat, move, by_computer, created_at, events, privacy, turn)
    SELECT up.id, COALESCE((SELECT MAX(m.number) FROM moves m WHERE m.session_id = $1), 0) + i,
        ($3::integer[])[i], ($4::text[])[i], ($5::integer[])[i], $10, ($6::text[])[i], ($7::text[])[i],
        ($8::integer[])[i]
    FROM up, generate_subscripts($4::text[], 1) AS i
), armed AS (
    INSERT INTO jobs (kind, key, due_at, payload, created_at)
    SELECT '{DEADLINE}', $1::text, $11 + up.timer_seconds, json_build_object('version', up.version)::text, $10
    FROM up WHERE up.timer_seconds IS NOT NULL
    ON CONFLICT (kind, key) DO UPDATE SET due_at = excluded.due_at, payload = excluded.payload,
        claimed_by = NULL, claim = NULL, claimed_until = NULL, attempts = 0
), disarmed AS (
    DELETE FROM jobs WHERE $12 AND kind = '{DEADLINE}' AND key = $1::text
        AND EXISTS (SELECT 1 FROM up WHERE up.timer_seconds IS NULL)
)
SELECT * FROM up
"""
MIGRATION_LOCK = 0x70756B6C  # advisory lock key held while migrating ("pukl")
TABLES = ("schema_migrations",) + tuple(
    dict.fromkeys(
        name
        for _, _, sql in MIGRATIONS
        for name in re.findall(r"CREATE TABLE (?:IF NOT EXISTS )?(\w+)", sql, flags=re.IGNORECASE)
    )
)
"""Every table the quick check looks for: those the migrations make (none is ever dropped)."""
POOL_SIZE = 10


class OneLineTries(logging.Filter):
    """The driver's pool logs each failed try to open its connections again while PostgreSQL is
    down with the exception's whole traceback (a warning at 1, 2, 4 ... 60 s): an outage, which the
    bot says in one line of its own, would read as many crashes.  Each such try is one line, the
    exception's kind and words at its end."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None:
            words = " ".join(str(exc).split())[:200] or "no details"
            record.msg, record.args = f"{record.getMessage()} ({type(exc).__name__}: {words})", None
            record.exc_info = record.exc_text = None
        return True


logging.getLogger("asyncpg.pool").addFilter(OneLineTries())
CONNECT_SECONDS = 15.0  # seconds a new connection may take (the pool's, when it makes one, too)
STATEMENT_SECONDS = 30.0  # a statement's time limit by default (DATABASE_STATEMENT_SECONDS)


SECRET_PARAMETERS = frozenset({"password", "sslpassword"})
"""Query parameters of a PostgreSQL URL that hold a secret (``?password=...`` works as well as
``user:password@``)."""


def redact(url: str) -> str:
    """The URL without its password (in the user part or as a query parameter)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "DATABASE_URL"
    if (
        "@" in url.split("//", 1)[-1][len(parts.netloc) :]
    ):  # a password holding / ? or # as it is: part of it would show
        return "DATABASE_URL"
    netloc = parts.netloc
    if "@" in netloc:
        user, host = netloc.rsplit("@", 1)
        netloc = f"{user.split(':', 1)[0]}@{host}"
    query = "&".join(
        pair
        for pair in parts.query.split("&")
        if pair and unquote_plus(pair.partition("=")[0]).strip().lower() not in SECRET_PARAMETERS
    )
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, ...``."""
    count = 0

    def number(_: re.Match) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return re.sub(r"\?", number, sql)


# What connecting with DATABASE_URL may raise: the server's refusals, the network, and a URL the
# driver cannot use (a port that is not a number: ValueError; one past 65535: OverflowError).
CONNECT_FAILURES = (
    TimeoutError,
    asyncpg.PostgresError,
    OSError,
    asyncpg.InterfaceError,
    ValueError,
    OverflowError,
)


FOR_NOW = (
    OSError,
    asyncio.TimeoutError,
    asyncpg.PostgresConnectionError,  # the connection failed or was cut
    asyncpg.OperatorInterventionError,  # the server stopping, or starting (recovering): no connections yet
    asyncpg.TooManyConnectionsError,
    asyncpg.ObjectNotInPrerequisiteStateError,  # the database does not accept connections now
    asyncpg.InternalClientError,  # a connection cut in the middle of an operation
)
"""What stops PostgreSQL from serving the bot for now (trying again later may succeed: exit status 1),
unlike a refused login or a missing database, which a person must put right."""


class StoppedAnswering(NotAnswering, Unreachable):
    """PostgreSQL stopped answering while the bot ran (the server down, restarting or failing over):
    worth starting again later (exit status 1), unlike SQLite's file locked, full or read-only."""


def failure(where: str, exc: BaseException) -> StorageError:
    """The error for a failure to reach or log in to PostgreSQL (:class:`Unreachable` for what
    stops it for now: the network, a server starting or stopping, all its connections taken)."""
    kind = Unreachable if isinstance(exc, FOR_NOW) else StorageError
    return kind(explain(where, exc))


def explain(where: str, exc: BaseException) -> str:
    """One line for a failure to reach or log in to PostgreSQL."""
    if isinstance(exc, asyncpg.InvalidPasswordError):
        return f"PostgreSQL refused the password for {where} ({exc}); check DATABASE_URL"
    if isinstance(exc, asyncpg.InvalidCatalogNameError):
        return f"{where}: {exc}; create it (createdb) or name an existing database in DATABASE_URL"
    if isinstance(exc, asyncpg.InvalidAuthorizationSpecificationError):
        return f"PostgreSQL refused the login to {where} ({exc}); check the user in DATABASE_URL"
    if isinstance(exc, OSError | asyncio.TimeoutError):
        reason = getattr(exc, "strerror", None) or str(exc) or exc.__class__.__name__
        return f"cannot reach PostgreSQL at {where} ({reason}); check DATABASE_URL and that the server runs"
    if isinstance(exc, FOR_NOW):
        return (
            f"PostgreSQL at {where} does not take the bot now ({exc.__class__.__name__}: {exc}); check that "
            "the server runs (it may be starting or stopping)"
        )
    return f"cannot use the PostgreSQL database {where} ({exc.__class__.__name__}: {exc})"


DOWN = (*FOR_NOW, asyncpg.InvalidCatalogNameError)  # (the database gone, while the bot runs)


def down(exc: BaseException) -> bool:
    """Whether ``exc`` says the server stopped answering (rather than refusing a statement)."""
    if isinstance(exc, asyncpg.InterfaceError):
        return "closed" in str(exc)  # "connection is closed", not a misuse of the driver
    return isinstance(exc, DOWN)


P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")


def answering(
    method: Callable[Concatenate[PostgresBackend, P], Awaitable[R]],
) -> Callable[Concatenate[PostgresBackend, P], Coroutine[object, None, R]]:
    """The method, its failures because the server stopped answering raised as
    :class:`NotAnswering` (one line, without the password), every other error as it was."""

    @functools.wraps(method)
    async def run(self: PostgresBackend, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await method(self, *args, **kwargs)
        except Exception as exc:
            if not down(exc):
                raise
            # The pool's connections are suspect now: one cut mid-statement can go back to the
            # pool looking idle (its release runs no reset query, see _keep_session) and refuse
            # the next statement with "another operation is in progress".  Each is replaced at its
            # next use.
            await self._pool.expire_connections()
            text = " ".join(str(exc).split()) or exc.__class__.__name__
            if isinstance(exc, TimeoutError) and self.statement_seconds is not None:
                text = f"no answer to a statement within {self.statement_seconds:g} seconds"
            raise StoppedAnswering(
                f"PostgreSQL at {self.where} stopped answering ({text}); check that the server runs"
            ) from exc

    return run


async def _steps(conn: asyncpg.Connection, body: Body[T]) -> T:
    try:
        op = next(body)
        while True:
            result: object
            kind, sql, params = op
            query = numbered(sql)
            if kind == "many":
                if params:
                    await conn.executemany(query, params)
                result = None
            elif kind == "run":
                status = await conn.execute(query, *params)
                result = int(status.rsplit(" ", 1)[-1])
            elif kind == "all":
                result = await conn.fetch(query, *params)
            else:
                result = await conn.fetchrow(query, *params)
            op = body.send(result)
    except StopIteration as stop:
        return stop.value


async def _schema_problems(conn: asyncpg.Connection) -> list[str]:
    """What is missing of the schema the migrations built (the PostgreSQL quick check)."""
    problems = []
    found = await _tables(conn)
    problems += [f"the table {t} is missing" for t in TABLES if t not in found]
    triggers = {
        r[0]
        for r in await conn.fetch(
            "SELECT tgname FROM pg_trigger WHERE tgrelid = to_regclass('moves') AND NOT tgisinternal"
        )
    }
    for name in ("moves_are_not_updated", "moves_are_not_deleted"):
        if name not in triggers:
            problems.append(f"the trigger {name} that keeps the move log append-only is missing")
    if await conn.fetchval("SELECT to_regproc('pukllay_record_moves')") is None:
        problems.append("the function pukllay_record_moves is missing")
    return problems


async def _tables(conn: asyncpg.Connection) -> list[str]:
    return sorted(
        r[0]
        for r in await conn.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
    )


async def _gaps(conn: asyncpg.Connection) -> list[str]:
    rows = await conn.fetch(
        "SELECT session_id FROM moves GROUP BY session_id HAVING MAX(number) <> COUNT(*) LIMIT 100"
    )
    return [f"the move log of session {r[0]} has gaps in its numbering" for r in rows]


async def look(url: str) -> Examined:
    """``--check-database`` on PostgreSQL: the database examined in read-only transactions
    (nothing is migrated or written): its tables, schema, the schema check and the log's numbering."""
    where = redact(url)
    try:
        conn = await asyncpg.connect(
            url, timeout=CONNECT_SECONDS, server_settings={"default_transaction_read_only": "on"}
        )
    except CONNECT_FAILURES as exc:
        raise failure(where, exc) from None
    try:
        tables = await _tables(conn)
        found = Examined(where, "postgresql", tables=tables)
        if "schema_migrations" in tables:
            found.applied = {r[0] for r in await conn.fetch("SELECT version FROM schema_migrations")}
        if found.applied and not found.newer:
            current = not found.to_apply()
            found.problems = (await _schema_problems(conn) if current else []) + await _gaps(conn)
        return found
    except asyncpg.PostgresError as exc:
        raise failure(where, exc) from None
    finally:
        await conn.close()


async def _migrate(conn: asyncpg.Connection, where: str, stamp: str, upgrade: bool = True) -> None:
    await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        tables = await _tables(conn)
        if tables and "schema_migrations" not in tables:
            raise StorageError(
                f"{where} holds tables that are not Pukllay's ({', '.join(tables[:5])}); "
                "give Pukllay an empty database of its own"
            )
        await conn.execute(MIGRATIONS_TABLE)
        applied = {r[0] for r in await conn.fetch("SELECT version FROM schema_migrations")}
        todo = pending(where, applied, MIGRATIONS)
        if applied and todo and not upgrade:
            raise StorageError(
                f"{older(where, applied, [(n, name) for n, name, _ in todo])}; back it up first "
                "(pg_dump, see 'Backups' in the README), then upgrade it with python -m bot --migrate"
            )
        for number, name, sql in todo:
            try:
                async with conn.transaction():
                    await conn.execute(sql)
                    await conn.execute(
                        "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                        number,
                        name,
                        stamp,
                    )
            except asyncpg.PostgresError as exc:
                raise StorageError(f"{where}: migration {number} ({name}) failed: {exc}") from None
        problems = await _schema_problems(conn)
        if problems:
            raise StorageError(
                f"{where} is damaged: {'; '.join(problems)}; restore a backup or use another database"
            )
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)


async def _applied(conn: asyncpg.Connection) -> set[int]:
    if await conn.fetchval("SELECT to_regclass('schema_migrations')") is None:
        return set()
    return {r[0] for r in await conn.fetch("SELECT version FROM schema_migrations")}


def _logged(
    session_id: int,
    expected_version: int,
    moves: list[NewMove],
    state: Mapping[str, object],
    stamp: str,
    now: float,
) -> tuple[object, ...]:
    """The first eleven parameters of both commit statements: the session, the version expected,
    the moves as arrays (seats, texts, by the computer, events, privacy, turns), the state and the
    times."""
    return (
        session_id,
        expected_version,
        [m.seat for m in moves],
        [m.move for m in moves],
        [int(m.by_computer) for m in moves],
        [dump_json(m.events) for m in moves],
        [dump_json(m.privacy) for m in moves],
        [m.turn for m in moves],
        json.dumps(state),
        stamp,
        now,
    )


async def _keep_session(conn: asyncpg.Connection) -> None:
    """A connection goes back to the pool as it is: the store never changes session state
    (no SET, LISTEN or cursors; its advisory locks end with their transaction), so asyncpg's
    default reset, one more round trip on every release, has nothing to undo.  (That round trip
    also found connections the server had cut; the store expires the pool's connections when a
    statement finds the server gone instead, see :func:`answering`.)"""


CLOSE_WAIT = 5.0  # seconds a closing connection waits for the server's goodbye


class PooledConnection(asyncpg.Connection):
    """The pool's connections: closing one is never an error.  The pool closes the connections
    it expired (see :func:`answering`) in tasks that nobody awaits, so a close that fails on a
    connection the server cut (a broken pipe) would be logged by asyncio as "Task exception was
    never retrieved", a traceback for what is no fault; and one whose server does not answer
    (the network gone) would wait for ever.  Either is let go at once instead."""

    async def close(self, *, timeout: float | None = None) -> None:  # noqa: ASYNC109 - asyncpg's own signature
        try:
            await super().close(timeout=CLOSE_WAIT if timeout is None else timeout)
        except Exception:  # asyncpg has aborted the connection already
            self.terminate()


class PostgresBackend(Backend):
    name = "postgresql"

    def __init__(
        self,
        where: str,
        clock: Clock,
        pool: asyncpg.Pool,
        url: str = "",
        statement_seconds: float | None = None,
    ):
        super().__init__(where, clock)
        self.statement_seconds = statement_seconds  # the statements' time limit
        self._pool = pool
        self._url = url
        self._shards: ShardClaim | None = None

    @classmethod
    async def open(
        cls,
        target: str | os.PathLike[str],
        *,
        clock: Clock | None = None,
        upgrade: bool = True,
        statement_seconds: float | None = None,
    ) -> PostgresBackend:
        """The store on the database ``target`` names.  A statement the server has not answered
        within ``statement_seconds`` (:data:`STATEMENT_SECONDS` by default) ends as the server
        not answering: the driver asks the server to cancel it and, if that is not answered
        within as long again, discards the connection (it is never used again mid-statement),
        so a server that hangs or a network gone without a word holds no pool slot for ever."""
        url = str(target)
        where = redact(url)
        clock = clock or SYSTEM
        limit = STATEMENT_SECONDS if statement_seconds is None else statement_seconds
        # The migrations run on a connection of their own, without the statements' time limit
        # (upgrading a large database may take longer).
        try:
            conn = await asyncpg.connect(url, timeout=CONNECT_SECONDS)
        except CONNECT_FAILURES as exc:
            raise failure(where, exc) from None
        try:
            applied_before = await _applied(conn)
            await _migrate(conn, where, clock.stamp(), upgrade)
        except asyncpg.PostgresError as exc:
            raise failure(where, exc) from None
        finally:
            await conn.close()
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=POOL_SIZE,
                timeout=CONNECT_SECONDS,
                reset=_keep_session,
                connection_class=PooledConnection,
                command_timeout=limit,
            )
        except CONNECT_FAILURES as exc:
            raise failure(where, exc) from None
        db = cls(where, clock, pool, url, limit)
        if applied_before and max(applied_before) < SCHEMA_VERSION:
            db.upgraded_from = max(applied_before)
        return db

    async def close(self) -> None:
        if self._shards is not None:
            await self._shards.release()
            self._shards = None
        await self._pool.close()

    async def claim_shards(self, count: int, ids: Sequence[int], on_lost: Callable[[str], None]) -> None:
        """Lock this process's shards for as long as it runs (:mod:`bot.storage.shards`), or raise
        :class:`StorageError` naming the process that serves one of them already."""
        claim = ShardClaim(self._url, count, ids, on_lost)
        try:
            await claim.take()
        except CONNECT_FAILURES as exc:
            raise failure(self.where, exc) from None
        claim.start()
        self._shards = claim

    @answering
    async def check_integrity(self) -> list[str]:
        """The schema check of every start, and the log's numbering (1..n in every session)."""
        async with self._pool.acquire() as conn:
            return await _schema_problems(conn) + await _gaps(conn)

    @answering
    async def transact(self, body: Body[T]) -> T:
        try:
            async with self._pool.acquire() as conn, conn.transaction():
                return await _steps(conn, body)
        except asyncpg.UniqueViolationError as exc:
            raise Conflict(str(exc)) from None
        except (asyncpg.DeadlockDetectedError, asyncpg.SerializationError) as exc:  # 40P01, 40001
            raise Contended(str(exc)) from None

    @answering
    async def read(self, body: Body[T]) -> T:
        async with self._pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
            return await _steps(conn, body)

    @answering
    async def read_small(self, body: Body[T]) -> T:
        # Its statement is one snapshot by itself: no transaction around it (two trips fewer).
        async with self._pool.acquire() as conn:
            return await _steps(conn, body)

    @answering
    async def all(self, sql: str, *params: object) -> list[Row]:
        return await self._pool.fetch(numbered(sql), *params)

    def ratings_lock(self, guild_id: int, game: str) -> Body[None]:
        yield from one("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", f"ratings:{guild_id}:{game}")

    def session_lock(self, session_id: int) -> Body[None]:
        yield from one("SELECT id FROM sessions WHERE id = ? FOR UPDATE", session_id)

    @answering
    async def commit_moves(
        self,
        session_id: int,
        expected_version: int,
        moves: list[NewMove],
        state: Mapping[str, object],
        job: Job | None,
        clock: Clocked | None,
    ) -> int:
        stamp, now = self.clock.stamp(), self.clock.time()
        args = (
            *_logged(session_id, expected_version, moves, state, stamp, now),
            *((None, None) if job is None else (job.id, job.claim)),
        )

        def clocked() -> Body[Row]:
            # A clocked game: the same function, then its clocks, in one transaction (two trips).
            row = yield from the_one(RECORD_MOVES, *args)
            if row[0] and clock is not None:
                yield from clock_body(session_id, row[1], clock[0], clock[1], now, stamp)
            return row

        try:
            if clock is None:
                row = await self._pool.fetchrow(numbered(RECORD_MOVES), *args)
            else:
                row = await self.transact(clocked())
        except asyncpg.RaiseError as exc:
            if "stale deadline" in str(exc):  # the claimed deadline was fired or re-armed meanwhile
                raise StaleVersion(expected_version) from None
            raise
        if not row[0]:
            raise StaleVersion(row[1])
        return row[1]

    @answering
    async def commit_play(
        self,
        session_id: int,
        expected_version: int,
        moves: list[NewMove],
        state: dict[str, object],
        clock: Clocked | None,
    ) -> SessionRow:
        async with self._pool.acquire() as conn:
            row = await conn.fetchrow(
                PLAY_MOVES,
                *_logged(session_id, expected_version, moves, state, self.clock.stamp(), self.clock.time()),
                clock is not None,
                None if clock is None else json.dumps(clock[0]),
                None if clock is None else stored_seconds(clock[1]),
            )
            if row is None:
                current = await conn.fetchval("SELECT version FROM sessions WHERE id = $1", session_id)
                raise StaleVersion(-1 if current is None else current)
        return session_of(row, state)

    @answering
    async def claim_jobs(self, owner: str, now: float, until: float, limit: int) -> list[Row]:
        return await self._pool.fetch(
            "UPDATE jobs SET claimed_by = $1, claim = $2, claimed_until = $3, attempts = attempts + 1"
            " WHERE id IN (SELECT id FROM jobs WHERE due_at <= $4 AND (claimed_until IS NULL OR claimed_until <= $4)"
            " ORDER BY due_at, id LIMIT $5 FOR UPDATE SKIP LOCKED) RETURNING *",
            owner,
            secrets.token_hex(8),
            until,
            now,
            limit,
        )
