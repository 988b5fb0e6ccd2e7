"""Which process serves which shards, held in PostgreSQL so that two processes never serve one.

Processes sharing one PostgreSQL database split the bot's shards between them (``SHARD_IDS``).
Two that serve the same shard (both started without ``SHARD_IDS``, or with ranges that overlap)
would both receive its events: a command would be handled twice, a board posted twice.  So each
process, before it logs in, takes a session-level advisory lock for each shard it serves, on a
connection of its own kept open while it runs, and a shared lock on its ``SHARD_COUNT`` (processes
that disagree on the count would send one server's events to two places).  A shard already held,
or another count in use, stops the start with one line naming the process that holds it (its
``application_name``: host, process id and shards).

The locks end with their connection: a process that stops, however it stops, lets its shards go
at once.  While the bot runs, :meth:`ShardClaim.check` (every :data:`CHECK_EVERY` seconds) makes
sure the connection is still there; when the database dropped it (a restart of the server), the
locks are taken again on a new one, and if another process took a shard meanwhile, ``on_lost``
is told, and the bot stops rather than serve that shard twice.

SQLite needs none of this: a database file serves one process at a time (``bot.storage.sqlite``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import Callable, Sequence

import asyncpg

from bot.storage.base import StorageError

log = logging.getLogger(__name__)

SHARD_LOCKS = 0x506B_5348  # the advisory locks' first key: a shard ("PkSH"), second key its number
COUNT_LOCKS = 0x506B_5343  # ... and the shard counts in use ("PkSC"), second key the count
CHECK_EVERY = 30.0  # seconds between checks that the locks' connection is still there
FAILURES = (
    TimeoutError,
    OSError,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    # a connection the server ended while idle can answer its next query with this ("cannot
    # switch to state 12; another operation (2) is in progress") rather than as closed
    asyncpg.InternalClientError,
)  # the connection's own

HELD = (
    "another Pukllay process serves {what} from this database already ({holder}), and two processes "
    "serving one shard would answer each command twice: stop the other one, or give each process "
    "shards of its own (SHARD_COUNT and SHARD_IDS, see 'Running large' in the README)"
)
OTHER_COUNT = (
    "another Pukllay process serves this database with SHARD_COUNT={theirs} ({holder}) and this one "
    "{ours}: every process of one bot must use the same SHARD_COUNT (see 'Running large' in the README)"
)

_HOLDERS = """
SELECT l.classid::bigint AS space, l.objid::bigint AS number, a.application_name AS name
FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 AND l.pid <> pg_backend_pid()
  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND ((l.classid = $1 AND l.objid = ANY($2::oid[])) OR (l.classid = $3 AND l.objid <> $4))
ORDER BY l.classid, l.objid
"""


def shards_text(count: int, ids: Sequence[int]) -> str:
    """``ids`` of ``count`` as a person reads them: "shard 0", "shards 0-3 of 4"."""
    if count == 1:
        return "the bot without shards"
    runs: list[str] = []
    start = prev = None
    for i in sorted(ids):
        if prev is not None and i == prev + 1:
            prev = i
            continue
        if start is not None:
            runs.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = i
    if start is not None:
        runs.append(str(start) if start == prev else f"{start}-{prev}")
    word = "shard" if len(ids) == 1 else "shards"
    return f"{word} {','.join(runs)} of {count}"


def process_label(count: int, ids: Sequence[int]) -> str:
    """This process as another one's refusal names it (its ``application_name``, at most 63 bytes)."""
    return f"pukllay {socket.gethostname()}:{os.getpid()} {shards_text(count, ids)}"[:63]


class ShardClaim:
    """The advisory locks of this process's shards, on their own connection (see the module)."""

    def __init__(
        self, url: str, count: int, ids: Sequence[int], on_lost: Callable[[str], None] | None = None
    ):
        self.url, self.count, self.ids = url, count, tuple(sorted(set(ids)))
        self.on_lost = on_lost
        self.label = process_label(count, self.ids)
        self._conn: asyncpg.Connection | None = None
        self._task: asyncio.Task[None] | None = None
        self.lost: str | None = None  # why the shards were given up, once they were

    async def take(self) -> None:
        """Lock this process's shards, or raise :class:`StorageError` naming who holds them."""
        problem = await self._connect_and_lock()
        if problem is not None:
            raise StorageError(problem)

    async def _connect_and_lock(self) -> str | None:
        """A connection of this process's name, its locks taken (it becomes the claim's); else
        what stands in the way, the connection closed.  The connection's own failures raise."""
        conn = await asyncpg.connect(self.url, server_settings={"application_name": self.label}, timeout=15)
        try:
            problem = await self._lock(conn)
        except BaseException:
            conn.terminate()
            raise
        if problem is not None:
            await conn.close()
            return problem
        self._conn = conn
        return None

    async def _lock(self, conn: asyncpg.Connection) -> str | None:
        """Take the locks on ``conn``; None when all were taken, else what stands in the way (the
        locks taken are let go)."""
        await conn.execute("SELECT pg_advisory_lock_shared($1, $2)", COUNT_LOCKS, self.count)
        taken = [
            row[0]
            for row in await conn.fetch(
                "SELECT pg_try_advisory_lock($1, shard) FROM unnest($2::int[]) WITH ORDINALITY AS s(shard, n)"
                " ORDER BY n",
                SHARD_LOCKS,
                list(self.ids),
            )
        ]
        rows = await conn.fetch(_HOLDERS, SHARD_LOCKS, list(self.ids), COUNT_LOCKS, self.count)
        if all(taken) and not rows:
            return None
        await conn.execute("SELECT pg_advisory_unlock_all()")
        others = [r for r in rows if r["space"] == COUNT_LOCKS]
        if others:
            ours = "runs without shards" if self.count == 1 else f"with SHARD_COUNT={self.count}"
            return OTHER_COUNT.format(theirs=others[0]["number"], ours=ours, holder=_names(others))
        held = {int(r["number"]) for r in rows if r["space"] == SHARD_LOCKS}
        held |= {shard for shard, ok in zip(self.ids, taken, strict=True) if not ok}
        return HELD.format(what=shards_text(self.count, sorted(held)), holder=_names(rows))

    def start(self) -> None:
        """Check the locks every :data:`CHECK_EVERY` seconds while the bot runs."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._watch(), name="pukllay-shards")

    async def _watch(self) -> None:
        while self.lost is None:
            await asyncio.sleep(CHECK_EVERY)
            try:
                await self.check()
            except Exception:  # never the end of the checks: a shard served twice goes unseen
                log.exception("the shards' locks could not be checked; trying again in %g s", CHECK_EVERY)

    async def check(self) -> bool:
        """Whether the shards are still this process's: the connection answering, or the locks
        taken again on a new one.  False while the database cannot be reached (tried again at the
        next check), or once another process holds a shard (``on_lost`` is told, once)."""
        if self.lost is not None:
            return False
        if self._conn is not None and not self._conn.is_closed():
            try:
                await self._conn.fetchval("SELECT 1")
                return True
            except FAILURES:
                pass
        if self._conn is not None:
            self._conn.terminate()
            self._conn = None
        try:
            problem = await self._connect_and_lock()
        except FAILURES as exc:
            log.warning(
                "the shards' locks could not be taken again (%s); trying again in %g s", exc, CHECK_EVERY
            )
            return False
        if problem is None:
            log.info("the database dropped the shards' locks; taken again")
            return True
        self.lost = problem
        log.error("stopping: while the database was away, %s", problem)
        if self.on_lost is not None:
            self.on_lost(problem)
        return False

    async def release(self) -> None:
        """Let the shards go (the connection closed) and stop checking."""
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None
        if self._conn is not None:
            try:
                await self._conn.close(timeout=5)
            except FAILURES:
                self._conn.terminate()
            self._conn = None


def _names(rows: Sequence[asyncpg.Record]) -> str:
    names = sorted({r["name"] for r in rows if r["name"]})
    return "; ".join(names) if names else "another process"
