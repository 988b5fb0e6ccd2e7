"""A throw-away PostgreSQL server for the tests and benchmarks, from the machine's installation.

``Cluster().start()`` runs ``initdb`` in a new temporary folder and starts the
server on a unix socket in that folder (no TCP), with durability turned off
(``fsync``, ``synchronous_commit``: nothing here needs to survive a power cut);
``stop()`` stops it and removes the folder.  PostgreSQL refuses to run as
root, so as root the server runs as the ``postgres`` user (or ``nobody``).
Each test gets a fresh database copied from a migrated template
(``CREATE DATABASE ... TEMPLATE``), which is much faster than migrating anew.

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

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        command = [*args]
        if self.user is not None:
            uid, gid = self.user
            command = ["setpriv", f"--reuid={uid}", f"--regid={gid}", "--clear-groups", *command]
        return subprocess.run(command, capture_output=True, text=True, check=check, timeout=120)

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

        conn = await asyncpg.connect(self.url())
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
            self._run(
                str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop", check=False
            )
            self.running = False
        self.remove()

    def remove(self) -> None:
        shutil.rmtree(self.base, ignore_errors=True)
