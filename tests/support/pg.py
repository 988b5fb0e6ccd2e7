"""A throw-away PostgreSQL server for the tests and benchmarks, from the machine's installation.

``Cluster().start()`` runs ``initdb`` in a new temporary folder and starts the
server on a unix socket in that folder (no TCP), with durability turned off
(``fsync``, ``synchronous_commit``: nothing here needs to survive a power cut);
``stop()`` stops it and removes the folder.  ``pg_ctl`` leaves the server running on its own
(its parent is pid 1), so a watchdog (a small shell, :data:`WATCHDOG`) started with it holds the
read end of a pipe whose write end only the starting process holds: when that process is gone
(killed, even with SIGKILL) the pipe ends and the watchdog stops the server at once and removes
the folder; ``stop()`` sends it a line first, and it leaves.  PostgreSQL refuses to run as
root, so as root the server runs as the ``postgres`` user (or ``nobody``).
Each test gets a fresh database copied from a migrated template
(``CREATE DATABASE ... TEMPLATE``), which is much faster than migrating anew;
:class:`Copies` makes a copy a test is done with the template's again for the
next test, which is faster still.

The server binaries are found through ``PUKLLAY_PG_BINDIR``, ``pg_config``,
Debian's ``/usr/lib/postgresql/<version>/bin`` or the ``PATH``; without them
:class:`NotInstalled` says how to install PostgreSQL.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

INSTALL = (
    "PostgreSQL is not installed, and the tests run every storage test on it too: "
    "install it (Debian/Ubuntu: apt-get install postgresql) or set PUKLLAY_PG_BINDIR to the folder "
    "holding initdb and pg_ctl"
)


class NotInstalled(RuntimeError):
    pass


CONNECT_SECONDS = 20.0
"""How long the tests' own connections to the server (to make, copy, reset and drop databases)
may take to open.  A local server answers in milliseconds; asyncpg's default, 60 s, would let one
that does not answer hold a test for a minute before a reset falls back to a new copy."""


WATCHDOG = 'read -r _ && exit 0; folder=$1; shift; "$@" >/dev/null 2>&1; rm -rf -- "$folder"'
"""The watchdog's shell script (arguments: the cluster's folder, then the command that stops its
server): a line on its standard input (from ``Cluster.stop``) ends it; the end of its standard
input without one (the process that started the server is gone) stops the server and removes
the folder."""


def bindir() -> Path:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres``."""
    chosen = os.environ.get("PUKLLAY_PG_BINDIR")
    if chosen:
        if all((Path(chosen) / tool).exists() for tool in ("initdb", "pg_ctl", "postgres")):
            return Path(chosen)
        raise NotInstalled(f"PUKLLAY_PG_BINDIR={chosen} holds no initdb, pg_ctl and postgres; {INSTALL}")
    candidates: list[str] = []
    if shutil.which("pg_config"):
        with contextlib.suppress(OSError, subprocess.CalledProcessError):
            out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, check=True)
            candidates.append(out.stdout.strip())
    debian = sorted(
        glob.glob("/usr/lib/postgresql/*/bin"),
        key=lambda p: int(Path(p).parent.name.split(".")[0]),
        reverse=True,
    )
    candidates += debian
    if shutil.which("initdb"):
        candidates.append(str(Path(shutil.which("initdb")).resolve().parent))
    for folder in candidates:
        p = Path(folder)
        if all((p / tool).exists() for tool in ("initdb", "pg_ctl", "postgres")):
            return p
    raise NotInstalled(INSTALL)


def _server_user() -> tuple[int, int] | None:
    """The (uid, gid) to run the server as when we are root; None when we are not."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            entry = pwd.getpwnam(name)
            return entry.pw_uid, entry.pw_gid
    raise NotInstalled("running as root, and neither a postgres nor a nobody user exists to run PostgreSQL")


class Cluster:
    """One PostgreSQL server in a temporary folder, reached on a unix socket."""

    def __init__(self) -> None:
        self.bin = bindir()
        self.user = _server_user()
        self.base = Path(tempfile.mkdtemp(prefix="pukllay-pg-"))
        self.data = self.base / "data"
        self.socket = self.base / "socket"
        self.log = self.base / "server.log"
        self._names = itertools.count(1)
        self.running = False
        self._watchdog: subprocess.Popen | None = None
        self._leash: int | None = None  # the pipe's write end: the watchdog's stdin ends with it

    def _command(self, *args: str) -> list[str]:
        if self.user is None:
            return [*args]
        uid, gid = self.user
        return ["setpriv", f"--reuid={uid}", f"--regid={gid}", "--clear-groups", *args]

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        command = self._command(*args)
        return subprocess.run(command, capture_output=True, text=True, check=check, timeout=120)

    def _stop_args(self) -> tuple[str, ...]:
        return (str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def _watch(self) -> None:
        """Start the watchdog that stops the server when this process is gone.  Its own session,
        so that a signal to this process's group (Ctrl-C, a kill of the run) does not end it
        before it has done its work; the write end of its pipe is not inherited by anything this
        process starts (Python's pipes are close-on-exec)."""
        read, self._leash = os.pipe()
        try:
            self._watchdog = subprocess.Popen(
                [
                    "sh",
                    "-c",
                    WATCHDOG,
                    "pukllay-pg-watchdog",
                    str(self.base),
                    *self._command(*self._stop_args()),
                ],
                stdin=read,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        finally:
            os.close(read)

    def _dismiss(self) -> None:
        """Tell the watchdog it is not needed (the server was stopped here), and reap it."""
        if self._leash is not None:
            with contextlib.suppress(OSError):
                os.write(self._leash, b"stopped\n")
            os.close(self._leash)
            self._leash = None
        if self._watchdog is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._watchdog.wait(timeout=10)
            self._watchdog = None

    def start(self) -> Cluster:
        self.socket.mkdir()
        if self.user is not None:
            os.chmod(self.base, 0o755)
            for p in (self.base, self.socket):
                os.chown(p, *self.user)
        try:
            self._run(
                str(self.bin / "initdb"),
                "-D",
                str(self.data),
                "-U",
                "pukllay",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-locale",
                "--no-sync",
            )
            self._watch()  # armed before the server starts
            options = (
                f"-k {self.socket} -c listen_addresses='' -c fsync=off -c synchronous_commit=off "
                "-c full_page_writes=off -c max_connections=200 -c shared_buffers=64MB"
            )
            self._run(
                str(self.bin / "pg_ctl"),
                "-D",
                str(self.data),
                "-o",
                options,
                "-l",
                str(self.log),
                "-w",
                "start",
            )
        except subprocess.CalledProcessError as exc:
            log = self.log.read_text() if self.log.exists() else ""
            self.remove()
            raise RuntimeError(f"PostgreSQL did not start: {exc.stderr or exc.stdout}\n{log}") from None
        self.running = True
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://pukllay@/{database}?host={self.socket}"

    async def admin(self, sql: str) -> None:
        import asyncpg

        conn = await asyncpg.connect(self.url(), timeout=CONNECT_SECONDS)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    async def create_database(self, template: str | None = None) -> str:
        """A new empty (or ``template``'s copy) database; its name."""
        name = f"pukllay_{os.getpid()}_{next(self._names)}"
        await self.admin(f"CREATE DATABASE {name}" + (f" TEMPLATE {template}" if template else ""))
        return name

    async def drop_database(self, name: str) -> None:
        await self.admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        if self.running:
            self._run(*self._stop_args(), check=False)
            self.running = False
        self.remove()

    def remove(self) -> None:
        self._dismiss()
        shutil.rmtree(self.base, ignore_errors=True)


# Everything of a database's make-up a test could change besides its rows: schemas, relations,
# columns and their defaults, constraints, indexes, triggers (and whether they are enabled),
# functions, types, views, extensions, per-database settings and large objects.
MAKE_UP = """
SELECT md5(string_agg(x, E'\\n' ORDER BY x)) FROM (
    SELECT 'schema ' || nspname AS x FROM pg_namespace
    UNION ALL
    SELECT format('relation %s %s %s %s', c.relnamespace::regnamespace, c.relname, c.relkind, c.relpersistence)
    FROM pg_class c WHERE c.relnamespace::regnamespace::text NOT IN ('pg_catalog', 'information_schema')
        AND c.relnamespace::regnamespace::text NOT LIKE 'pg_toast%'
    UNION ALL
    SELECT format('column %s %s %s %s %s %s %s', a.attrelid::regclass, a.attnum, a.attname,
                  format_type(a.atttypid, a.atttypmod), a.attnotnull, a.attidentity,
                  pg_get_expr(d.adbin, d.adrelid))
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE c.relnamespace = 'public'::regnamespace AND a.attnum > 0 AND NOT a.attisdropped
    UNION ALL
    SELECT format('constraint %s %s %s', conrelid::regclass, conname, pg_get_constraintdef(oid))
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace
    UNION ALL
    SELECT 'index ' || pg_get_indexdef(i.indexrelid)
    FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid WHERE c.relnamespace = 'public'::regnamespace
    UNION ALL
    SELECT format('trigger %s %s', tgenabled, pg_get_triggerdef(oid)) FROM pg_trigger WHERE NOT tgisinternal
    UNION ALL
    SELECT format('function %s %s', oid::regprocedure, md5(prosrc)) FROM pg_proc
    WHERE pronamespace = 'public'::regnamespace
    UNION ALL
    SELECT format('type %s %s', oid::regtype, typtype) FROM pg_type WHERE typnamespace = 'public'::regnamespace
    UNION ALL
    SELECT format('label %s %s', enumtypid::regtype, enumlabel) FROM pg_enum
    UNION ALL
    SELECT format('view %s %s', oid::regclass, pg_get_viewdef(oid)) FROM pg_class
    WHERE relkind IN ('v', 'm') AND relnamespace = 'public'::regnamespace
    UNION ALL
    SELECT format('rule %s %s', rulename, definition) FROM pg_rules WHERE schemaname = 'public'
    UNION ALL
    SELECT format('policy %s %s', tablename, policyname) FROM pg_policies
    UNION ALL
    SELECT format('extension %s %s', extname, extversion) FROM pg_extension
    UNION ALL
    SELECT format('setting %s %s', setrole, setconfig) FROM pg_db_role_setting
    WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
    UNION ALL
    SELECT 'large objects ' || count(*) FROM pg_largeobject_metadata
) parts
"""


class Copies:
    """Fresh copies of a migrated template database, one per test.

    ``CREATE DATABASE ... TEMPLATE`` copies the system catalogues too (about 9 MB), a few tenths
    of a second of the server's work per test.  A copy a test has finished with is made the
    template's again instead and handed to the next test: its other connections are ended, and
    if its make-up (``MAKE_UP``: tables, columns, constraints, triggers, functions, settings...)
    is still the template's, every table holding rows is emptied (``DELETE``, with triggers off,
    as the move log refuses deletion), the template's rows are put back and its sequences
    (identities too) set as they were.  A copy whose make-up changed (a test altered a table, dropped a
    trigger, turned off connections...) is dropped, and the next test gets a new copy.
    """

    def __init__(self, cluster: Cluster, template: str) -> None:
        self.cluster = cluster
        self.template = template
        self.spare: list[str] = []
        self._make_up: str | None = None
        self._rows: dict[str, tuple[list[str], list[tuple]]] = {}  # table -> (columns, rows)
        self._sequences: list[tuple[str, int, bool]] = []

    async def take(self) -> str:
        if self.spare:
            return self.spare.pop()
        name = await self.cluster.create_database(self.template)
        if self._make_up is None:
            await self._note_template(name)
        return name

    async def give_back(self, name: str) -> None:
        try:
            reset = await self._reset(name)
        except Exception:  # whatever went wrong, a new copy is the safe way on
            reset = False
        if reset:
            self.spare.append(name)
        else:
            await self.cluster.drop_database(name)

    async def _note_template(self, name: str) -> None:
        """The make-up, rows and sequences of a copy not yet used (the template's own)."""
        import asyncpg

        conn = await asyncpg.connect(self.cluster.url(name), timeout=CONNECT_SECONDS)
        try:
            self._make_up = await conn.fetchval(MAKE_UP)
            tables = await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
            for (table,) in tables:
                rows = await conn.fetch(f'SELECT * FROM "{table}"')
                if rows:
                    self._rows[table] = (list(rows[0].keys()), [tuple(r.values()) for r in rows])
            self._sequences = [
                (r["name"], r["last_value"], r["is_called"])
                for r in await conn.fetch(
                    "SELECT format('%I.%I', schemaname, sequencename) AS name, "
                    "coalesce(last_value, start_value) AS last_value, last_value IS NOT NULL AS is_called "
                    "FROM pg_sequences"
                )
            ]
        finally:
            await conn.close()

    async def _reset(self, name: str) -> bool:
        import asyncpg

        conn = await asyncpg.connect(self.cluster.url(name), timeout=CONNECT_SECONDS)
        try:
            await conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            if await conn.fetchval(MAKE_UP) != self._make_up:
                return False
            tables = [
                t for (t,) in await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
            ]
            # The tables holding rows, found in one query (the template's tables, as the make-up
            # is): a test writes to a few of them, and emptying those few is quicker than a
            # TRUNCATE of every table, which makes each table and index a new file.
            held = " UNION ALL ".join(f"SELECT '{t}' WHERE EXISTS (SELECT 1 FROM \"{t}\")" for t in tables)
            written = {t for (t,) in await conn.fetch(held)} if held else set()
            async with conn.transaction():
                await conn.execute("SET LOCAL session_replication_role = replica")  # the triggers off
                for table in sorted(written | set(self._rows)):
                    await conn.execute(f'DELETE FROM "{table}"')
                for table, (columns, rows) in self._rows.items():
                    await conn.copy_records_to_table(table, records=rows, columns=columns)
                for sequence, value, called in self._sequences:
                    await conn.execute("SELECT setval($1::regclass, $2, $3)", sequence, value, called)
            return True
        finally:
            await conn.close()
