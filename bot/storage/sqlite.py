"""The SQLite back end: the zero-setup default, one process, one file.

Two connections, each owned by one dedicated thread: the writer runs every
change as one ``BEGIN IMMEDIATE ... COMMIT``, the reader runs reads (each
reading body inside one read transaction, so a session and its seats come
from the same snapshot).  A third connection, used on the event loop itself,
reads one session with its seats (a handful of rows by key, quicker than the
trip to a thread and back), so a move costs one trip: its commit.  A transaction body is run to the end in *one* call
on its connection's thread, so a move's commit is one trip from the event
loop, however many statements it holds.  (aiosqlite, used before, sends each
statement to its thread separately and offers no public way to run a function
there; a single-thread executor per connection is the same mechanism with
that one call.)  The file is in WAL mode with foreign keys on.

Only one process may use a database file: the file is locked (``flock``) while
it is open, and a second process is refused with a message pointing to
PostgreSQL.  A path that is a folder, a read-only file, a folder SQLite cannot
write in, a file that is not a database, a damaged file (SQLite's quick check
at every start) and a database from a newer Pukllay are each refused in one
line, before anything else happens.  So is another program's SQLite file (tables, none of
them Pukllay's migration record): it is left exactly as it was.

Before a database from an older Pukllay is upgraded, a copy of it as it was is kept beside it
(``pukllay.db.before-017`` when migration 17 is the first to apply): rolling back is putting
that copy back.  :func:`backup` copies a database with SQLite's online backup API (safe while
the bot runs), and :func:`look` examines one without changing it (``--check-database``).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import functools
import logging
import os
import secrets
import sqlite3
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Concatenate, ParamSpec, TypeVar, TypeVarTuple
from urllib.parse import quote

from bot.storage.base import (
    MIGRATIONS_TABLE,
    SCHEMA_VERSION,
    SESSION_COLUMNS,
    Backend,
    Body,
    Clocked,
    Conflict,
    Examined,
    Job,
    NewMove,
    NotAnswering,
    Row,
    SessionRow,
    StorageError,
    migrations,
    pending,
    session_of,
    the_one,
)
from bot.storage.games import commit_body
from bot.time.source import Clock

log = logging.getLogger(__name__)

MIGRATIONS = migrations("sqlite")
SECOND_PROCESS = (
    "{path} is in use by another Pukllay process; SQLite serves one process at a time: stop the other "
    "one, or run several processes on PostgreSQL (DATABASE_URL=postgresql://..., see 'Running large' "
    "in the README)"
)


def unreachable_path(path: str, exc: OSError) -> StorageError:
    """The refusal of a DATABASE_PATH the system will not even look up: a folder on the way the
    bot's user may not enter, a name too long, a loop of links."""
    return StorageError(
        f"cannot look up DATABASE_PATH {path} ({exc.strerror or exc}); the bot's user must be able to "
        "enter every folder on the way to it: fix the folders' permissions or set DATABASE_PATH elsewhere"
    )


def present(path: str) -> bool:
    """Whether something is at ``path`` (a link counts, even a broken one); a path the system will
    not look up is refused (not taken for a missing file)."""
    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError as exc:
        raise unreachable_path(path, exc) from None
    return True


def check_path(path: str) -> None:
    """Refuse, in one line, a database path SQLite could not use, before opening it."""
    try:
        _check_path(path)
    except StorageError:
        raise
    except OSError as exc:
        raise unreachable_path(path, exc) from None


def _check_path(path: str) -> None:
    p = Path(path)
    if p.is_dir():
        raise StorageError(
            f"DATABASE_PATH {path} is a folder, not a file; name a file in it, such as {p / 'pukllay.db'}"
        )
    folder = p.parent
    try:
        if not folder.is_dir():
            folder.mkdir(parents=True, exist_ok=True)
            # (a typo in the path would start on a new, empty database: the log says so at once)
            log.warning(
                "the folder %s did not exist: it is made, with a new, empty database %s", folder, p.name
            )
    except OSError as exc:
        raise StorageError(
            f"cannot create the folder {folder} for the database ({exc.strerror or exc}); "
            "create it or set DATABASE_PATH elsewhere"
        ) from None
    if p.exists():
        if not p.is_file():
            raise StorageError(f"DATABASE_PATH {path} is not a regular file; name a database file")
        if not os.access(p, os.R_OK):
            raise StorageError(
                f"{path} cannot be read (permission denied); give the bot's user read and write access"
            )
        if not os.access(p, os.W_OK):
            raise StorageError(
                f"{path} is read-only; Pukllay writes every move to it: make it writable for the bot's user"
            )
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StorageError(
            f"the folder {folder} is not writable; SQLite creates {p.name} and its -wal and -shm files "
            "there: make it writable for the bot's user or set DATABASE_PATH elsewhere"
        )


def explain(path: str, exc: BaseException) -> str:
    """One line for an SQLite error met while opening ``path``."""
    text = str(exc)
    low = text.lower()
    if "readonly" in low or "read-only" in low:
        return (
            f"{path} is read-only ({text}); Pukllay writes every move to it: make it and its folder writable"
        )
    if "unable to open" in low:
        return f"cannot open {path} ({text}); check that the path and its folder exist and are writable"
    if "not a database" in low or "malformed" in low or "corrupt" in low:
        return (
            f"{path} is not a Pukllay database or is damaged ({text}); "
            "restore a backup or set DATABASE_PATH to another file"
        )
    return f"cannot use the database {path} ({exc.__class__.__name__}: {text})"


def not_answering(path: str, exc: sqlite3.OperationalError) -> str | None:
    """One line for an SQLite failure while the bot runs that is the file's, not a statement's
    (None: a statement's)."""
    text = str(exc)
    low = text.lower()
    if "locked" in low or "busy" in low:
        return (
            f"{path} is locked by another program ({text}); Pukllay waited 30 s for it: stop the "
            "program holding it (a sqlite3 shell left in a transaction, a backup tool)"
        )
    if "full" in low:
        return f"{path} cannot grow ({text}); free space on its disk"
    if "readonly" in low or "read-only" in low:
        return f"{path} became read-only ({text}); make it and its folder writable for the bot's user"
    if "disk i/o" in low or "unable to open" in low:
        return f"{path} cannot be read or written ({text}); check its disk and that the file is still there"
    return None


P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")
Ts = TypeVarTuple("Ts")


def answering(
    method: Callable[Concatenate[SQLiteBackend, P], Awaitable[R]],
) -> Callable[Concatenate[SQLiteBackend, P], Coroutine[object, None, R]]:
    """The method, its failures because the file cannot be used now (locked by another program,
    full, read-only) raised as :class:`NotAnswering` in one line, every other error as it was."""

    @functools.wraps(method)
    async def run(self: SQLiteBackend, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await method(self, *args, **kwargs)
        except sqlite3.OperationalError as exc:
            why = not_answering(self.where, exc)
            if why is None:
                raise
            raise NotAnswering(why) from exc

    return run


def lock_file(path: str) -> int | None:
    """Hold an exclusive lock on the database file for this process (None for ``:memory:``).

    ``flock`` locks are separate from SQLite's own (POSIX record) locks, so this
    does not disturb SQLite; the lock goes when the process ends, however it ends.
    """
    if path == ":memory:":
        return None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise StorageError(
            f"cannot open {path} ({exc.strerror or exc}); check the path and its folder"
        ) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise StorageError(SECOND_PROCESS.format(path=path)) from None
    return fd


FOREIGN = (
    "{path} holds tables that are not Pukllay's ({names}); it looks like another program's database and "
    "was left as it is: set DATABASE_PATH to a file of Pukllay's own (a new path is created)"
)


def _try_lock(fd: int, kind: int) -> bool:
    try:
        fcntl.flock(fd, kind | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def connect_readonly(path: str, *, locked: bool) -> sqlite3.Connection:
    """A connection that only reads ``path``.

    ``locked``: this process holds the file's lock, so no Pukllay process writes it.  Then, with
    no write-ahead log left beside it, the file is read as immutable: SQLite writes nothing at
    all, not even its -shm file, and a read-only copy in a read-only folder can be read.
    Otherwise (a running bot's file, or a log left by one that was killed) SQLite's read-only
    mode, which reads the log too.
    """
    wal = Path(f"{path}-wal")
    has_log = wal.exists() and wal.stat().st_size > 0
    mode = "immutable=1" if locked and not has_log else "mode=ro"
    return sqlite3.connect(f"file:{quote(os.path.abspath(path))}?{mode}", uri=True, isolation_level=None)


def _tables(con: sqlite3.Connection) -> tuple[list[str], set[int]]:
    """The file's tables, and the migrations it records."""
    tables = [
        r[0]
        for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name"
        )
    ]
    applied: set[int] = set()
    if "schema_migrations" in tables:
        applied = {r[0] for r in con.execute("SELECT version FROM schema_migrations")}
    return tables, applied


def _integrity(con: sqlite3.Connection) -> list[str]:
    found = [r[0] for r in con.execute("PRAGMA integrity_check(100)")]
    return [] if found == ["ok"] else found


def _copy(con: sqlite3.Connection, target: str) -> None:
    """Copy the database ``con`` reads into the new file ``target`` with SQLite's backup API
    (one step: one consistent snapshot, while writers go on), as one self-contained file."""
    partial = f"{target}.partial"
    with contextlib.suppress(FileNotFoundError):
        os.unlink(partial)
    try:
        dest = sqlite3.connect(partial, isolation_level=None)
        try:
            con.backup(dest)
            dest.execute("PRAGMA journal_mode = DELETE")  # no -wal file belongs to the copy
        finally:
            dest.close()
        os.replace(partial, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(partial)
        raise


def _before_upgrade(path: str) -> tuple[int, str] | None:
    """Refuse another program's file, and a newer Pukllay's; before an upgrade keep a copy.

    Runs with the file locked, before anything writes to it.  Returns (the schema upgraded from,
    the copy) when migrations are to be applied to a database that has some already.
    """
    con = connect_readonly(path, locked=True)
    try:
        tables, applied = _tables(con)
        if tables and "schema_migrations" not in tables:
            raise StorageError(FOREIGN.format(path=path, names=", ".join(tables[:5])))
        todo = pending(path, applied, MIGRATIONS)
        if not applied or not todo:
            return None
        base = f"{path}.before-{todo[0][0]:03d}"
        kept, n = base, 1
        while os.path.exists(kept):  # an earlier copy is never overwritten
            kept, n = f"{base}.{n}", n + 1
        try:
            _copy(con, kept)
        except (OSError, sqlite3.Error) as exc:
            raise StorageError(
                f"cannot keep a copy of {path} in {kept} before upgrading it ({exc}); nothing was changed: "
                "free some space or make the folder writable"
            ) from None
        return max(applied), kept
    finally:
        con.close()


def backup(path: str, dest: str) -> Examined:
    """Copy the Pukllay database ``path`` into the new file ``dest`` (SQLite's online backup API:
    safe while the bot runs, which goes on writing), then check the copy.

    Returns the copy as found: its schema, and the problems of SQLite's integrity check.
    """
    if not present(path):
        raise StorageError(f"{path}: no such database file; check DATABASE_PATH")
    if not os.path.isfile(path):
        raise StorageError(f"DATABASE_PATH {path} is not a database file")
    if os.path.lexists(dest):
        raise StorageError(f"{dest} exists already; name a new file for the backup")
    if not Path(dest).parent.is_dir():
        raise StorageError(f"the folder {Path(dest).parent} does not exist; create it or name another file")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError as exc:
        raise StorageError(f"cannot read {path} ({exc.strerror or exc})") from None
    try:
        con = connect_readonly(path, locked=_try_lock(fd, fcntl.LOCK_SH))
        try:
            tables, _ = _tables(con)
            if not tables or "schema_migrations" not in tables:
                raise StorageError(
                    f"{path} is not a Pukllay database ({'no tables' if not tables else ', '.join(tables[:5])})"
                )
            _copy(con, dest)
        finally:
            con.close()
    except sqlite3.Error as exc:
        raise StorageError(f"cannot back up {path} into {dest} ({exc})") from None
    except OSError as exc:
        raise StorageError(f"cannot write the backup {dest} ({exc.strerror or exc})") from None
    finally:
        os.close(fd)
    copy = connect_readonly(dest, locked=True)  # a new file: no process knows it yet
    try:
        tables, applied = _tables(copy)
        return Examined(dest, "sqlite", tables=tables, applied=applied, problems=_integrity(copy))
    finally:
        copy.close()


def look(path: str) -> Examined:
    """``--check-database`` on SQLite: the file examined without changing it.

    A missing file is reported missing (not created); a read-only file or folder is fine; the
    file is not migrated; another program's file is only named; a file SQLite cannot read
    through (cut short, damaged) is reported damaged.  A running Pukllay process
    holding the file is refused (its file is checked when it is stopped).
    """
    p = Path(path)
    try:
        if not p.exists():
            return Examined(path, "sqlite", exists=False)
        if not p.is_file():
            raise StorageError(f"DATABASE_PATH {path} is not a database file")
    except OSError as exc:
        raise unreachable_path(path, exc) from None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError as exc:
        raise StorageError(
            f"cannot read {path} ({exc.strerror or exc}); run the check as the bot's user"
        ) from None
    found = Examined(path, "sqlite")
    try:
        if not _try_lock(fd, fcntl.LOCK_SH):
            raise StorageError(SECOND_PROCESS.format(path=path))
        con = connect_readonly(path, locked=True)
        try:
            found.tables, found.applied = _tables(con)
            if found.tables and not found.foreign and not found.newer:
                found.problems = _integrity(con)
            return found
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        if exc.sqlite_errorcode & 0xFF != sqlite3.SQLITE_CORRUPT:
            raise StorageError(explain(path, exc)) from None
        # An SQLite file, cut short or damaged before the check could read it through: damage.
        found.damaged = str(exc)
        return found
    except sqlite3.Error as exc:
        raise StorageError(explain(path, exc)) from None
    finally:
        os.close(fd)


def _steps(con: sqlite3.Connection, body: Body[T]) -> T:
    """Run a transaction body's statements on ``con``; its return value."""
    try:
        op = next(body)
        while True:
            result: object
            kind, sql, params = op
            if isinstance(params, list):  # many
                if len(params) == 1:
                    con.execute(sql, params[0])  # one row: without executemany's own cost
                else:
                    con.executemany(sql, params)
                result = None
            else:
                cur = con.execute(sql, params)
                if kind == "run":
                    result = cur.rowcount
                else:
                    rows = cur.fetchall()
                    result = rows if kind == "all" else (rows[0] if rows else None)
            op = body.send(result)
    except StopIteration as stop:
        return stop.value


def _write(con: sqlite3.Connection, body: Body[T]) -> T:
    con.execute("BEGIN IMMEDIATE")
    try:
        result = _steps(con, body)
    except BaseException:
        if con.in_transaction:
            con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")
    return result


def _readonly(con: sqlite3.Connection, body: Body[T]) -> T:
    con.execute("BEGIN")  # one snapshot for every statement of the body
    try:
        return _steps(con, body)
    finally:
        if con.in_transaction:
            con.execute("COMMIT")


def _connect(path: str, *, check_same_thread: bool = True, durable: bool = False) -> sqlite3.Connection:
    """A connection in WAL mode.  ``durable``: each commit is synced to the disk before it returns
    (``synchronous = FULL``), so a move the bot acknowledged survives a power cut or a crash of the
    system too; else (``NORMAL``) it survives the process's end, and the last commits before a
    power cut may be lost (the setting ``SQLITE_SYNC``: ``full`` is the bot's default, ``normal``
    spares a sync of the disk at each commit)."""
    con = sqlite3.connect(path, isolation_level=None, timeout=30, check_same_thread=check_same_thread)
    try:
        con.row_factory = sqlite3.Row
        con.execute("PRAGMA foreign_keys = ON")
        con.execute("PRAGMA busy_timeout = 30000")
        mode = con.execute("PRAGMA journal_mode = WAL").fetchone()
        con.execute(f"PRAGMA synchronous = {'FULL' if durable else 'NORMAL'}")
        if path != ":memory:" and mode[0].lower() != "wal":
            raise StorageError(f"{path}: SQLite would not switch to WAL mode (got {mode[0]})")
    except BaseException:
        con.close()
        raise
    return con


class _Thread:
    """A connection owned by one thread; :meth:`call` runs a function with it there."""

    def __init__(self, name: str):
        self._pool = ThreadPoolExecutor(1, thread_name_prefix=name)
        self.con: sqlite3.Connection | None = None

    async def call(self, fn: Callable[[sqlite3.Connection, *Ts], T], *args: *Ts) -> T:
        con = self.con
        if con is None:
            raise StorageError("the database connection is closed")
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, con, *args)

    async def connect(self, path: str, durable: bool = False) -> None:
        self.con = await asyncio.get_running_loop().run_in_executor(
            self._pool, functools.partial(_connect, path, durable=durable)
        )

    async def close(self) -> None:
        if self.con is not None:
            await self.call(lambda con: con.close())
            self.con = None
        self._pool.shutdown(wait=True)


def _migrate(con: sqlite3.Connection, path: str, stamp: str) -> None:
    con.execute(MIGRATIONS_TABLE)
    applied = {r[0] for r in con.execute("SELECT version FROM schema_migrations")}
    # The quick check reads every page but skips the index cross-checks; the full
    # integrity check is `python -m bot --check-database` (see check_integrity).
    check = con.execute("PRAGMA quick_check").fetchone()
    if check[0] != "ok":
        raise StorageError(
            f"{path} failed SQLite's quick check ({check[0]}); restore a backup "
            "(python -m bot --check-database runs the full check)"
        )
    for number, name, sql in pending(path, applied, MIGRATIONS):
        script = (
            f"BEGIN IMMEDIATE;\n{sql}\n"
            f"INSERT INTO schema_migrations (version, name, applied_at) VALUES ({number}, '{name}', "
            f"'{stamp.replace(chr(39), '')}');\nCOMMIT;"
        )
        try:
            con.executescript(script)
        except sqlite3.DatabaseError as exc:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise StorageError(f"{path}: migration {number} ({name}) failed: {exc}") from None


def _claim(
    con: sqlite3.Connection, owner: str, now: float, until: float, limit: int, token: str
) -> list[Row]:
    con.execute("BEGIN IMMEDIATE")
    try:
        rows = con.execute(
            "UPDATE jobs SET claimed_by = ?, claim = ?, claimed_until = ?, attempts = attempts + 1"
            " WHERE id IN (SELECT id FROM jobs WHERE due_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)"
            " ORDER BY due_at, id LIMIT ?) RETURNING *",
            (owner, token, until, now, now, limit),
        ).fetchall()
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")
    return rows


def _identity(path: str) -> tuple[int, int] | None:
    """The file's (device, inode), or None for an in-memory database or a missing file."""
    if path == ":memory:":
        return None
    try:
        st = os.stat(path)
    except OSError:
        return (-1, -1)
    return st.st_dev, st.st_ino


class SQLiteBackend(Backend):
    name = "sqlite"

    def __init__(
        self,
        path: str,
        clock: Clock,
        writer: _Thread,
        reader: _Thread,
        lock: int | None,
        inline: sqlite3.Connection | None = None,
    ):
        super().__init__(path, clock)
        self._writer = writer
        self._reader = reader
        self._inline = inline  # the event loop's own connection, for a session's row and seats
        self._lock_fd = lock
        self._file = _identity(path)

    @classmethod
    async def open(
        cls,
        target: str | os.PathLike[str],
        *,
        clock: Clock | None = None,
        upgrade: bool = True,
        durable: bool = False,
    ) -> SQLiteBackend:
        """Open the file (``upgrade`` is for PostgreSQL; an SQLite file is upgraded after a copy
        of it is kept); ``durable``: each commit synced to the disk (:func:`_connect`)."""
        from bot.time.source import SYSTEM

        clock = clock or SYSTEM
        path = str(target)
        if path != ":memory:":
            check_path(path)
        lock = lock_file(path)
        writer, reader = _Thread("pukllay-sqlite-writer"), _Thread("pukllay-sqlite-reader")
        upgraded: tuple[int, str] | None = None
        inline: sqlite3.Connection | None = None
        try:
            try:
                if path != ":memory:":
                    upgraded = await asyncio.to_thread(_before_upgrade, path)
                    if upgraded is not None:
                        log.warning(
                            "upgrading %s from schema %d to %d; the database as it was is kept in %s "
                            "(to roll back, stop the bot and put that copy back)",
                            path,
                            upgraded[0],
                            SCHEMA_VERSION,
                            upgraded[1],
                        )
                await writer.connect(path, durable)
                await writer.call(_migrate, path, clock.stamp())
                await reader.connect(path, durable)
                inline = _connect(path, check_same_thread=False, durable=durable)
            except sqlite3.Error as exc:
                raise StorageError(explain(path, exc)) from None
        except BaseException:
            await reader.close()
            await writer.close()
            if lock is not None:
                os.close(lock)
            raise
        db = cls(path, clock, writer, reader, lock, inline)
        if upgraded is not None:
            db.upgraded_from, db.kept_copy = upgraded
        return db

    async def claim_shards(self, count: int, ids: Sequence[int], on_lost: Callable[[str], None]) -> None:
        """Nothing to hold: the file serves one process at a time (a second one is refused when it
        opens the file, :func:`lock_file`), so every shard is this process's."""

    async def close(self) -> None:
        if self._inline is not None:
            self._inline.close()
            self._inline = None
        await self._reader.close()
        await self._writer.close()
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # releases the lock
            self._lock_fd = None

    async def ping(self) -> None:
        """The file at the path is still the one opened (a file removed or replaced under a running
        bot would take every later write with it), and it answers a query."""
        if self._file is not None and _identity(self.where) != self._file:
            raise StorageError("the database file was removed or replaced while the bot ran")
        await self._reader.call(lambda con: con.execute("SELECT 1").fetchone())

    @answering
    async def check_integrity(self) -> list[str]:
        """SQLite's full integrity check (slow on a large file): ``[]`` when the file is sound,
        else the problems SQLite reports (at most 100)."""
        rows = await self.all("PRAGMA integrity_check(100)")
        found = [r[0] for r in rows]
        return [] if found == ["ok"] else found

    @answering
    async def transact(self, body: Body[T]) -> T:
        try:
            return await self._writer.call(_write, body)
        except sqlite3.IntegrityError as exc:
            if "UNIQUE" in str(exc):
                raise Conflict(str(exc)) from None
            raise

    @answering
    async def read(self, body: Body[T]) -> T:
        return await self._reader.call(_readonly, body)

    @answering
    async def read_small(self, body: Body[T]) -> T:
        # A few rows by their primary key or an index: tens of microseconds, less than the trip to
        # the reader thread and back, which is most of a move's read.  WAL readers never wait for
        # the writer, so this does not block the loop behind a commit.
        if self._inline is None:
            return await self.read(body)
        return _readonly(self._inline, body)

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
        # The whole commit (version check, log rows, snapshot, clocks, deadline) in one call on the
        # writer thread.
        stamp, now = self.clock.stamp(), self.clock.time()
        return await self.transact(
            commit_body(session_id, expected_version, moves, state, job, stamp, now, clock)
        )

    @answering
    async def commit_play(
        self,
        session_id: int,
        expected_version: int,
        moves: list[NewMove],
        state: dict[str, object],
        clock: Clocked | None,
    ) -> SessionRow:
        stamp, now = self.clock.stamp(), self.clock.time()
        commit = commit_body(session_id, expected_version, moves, state, None, stamp, now, clock)

        def body() -> Body[SessionRow]:
            yield from commit
            row = yield from the_one(f"SELECT {SESSION_COLUMNS} FROM sessions WHERE id = ?", session_id)
            return session_of(row, state)

        return await self.transact(body())

    @answering
    async def claim_jobs(self, owner: str, now: float, until: float, limit: int) -> list[Row]:
        return await self._writer.call(_claim, owner, now, until, limit, secrets.token_hex(8))
