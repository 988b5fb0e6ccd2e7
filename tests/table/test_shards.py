"""Two processes on one PostgreSQL database never serve one shard (bot.storage.shards).

Each store here stands for a process: its shards are locked on a connection of its own, named
after the process.  A second claim that overlaps (the same shards, or no ``SHARD_IDS`` beside
another process) or that uses another ``SHARD_COUNT`` is refused in one line naming the holder;
shards that do not overlap are served side by side; a process that stops lets its shards go; the
locks' connection dropped by the database is replaced, and the bot is told when another process
took a shard meanwhile.  ``python -m bot`` refuses such a start with exit status 2, before logging
in to Discord.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Callable

import asyncpg
import pytest

from bot.storage import StorageError, open_store, shards
from bot.storage.shards import SHARD_LOCKS, ShardClaim, shards_text
from tests.support.polling import until
from tests.table.test_database_start import run_bot
from tests.table.test_stopping import bot_env, free_port, health


@pytest.fixture
async def pg_url(pg_copies):
    name = await pg_copies.take()
    try:
        yield pg_copies.cluster.url(name)
    finally:
        await pg_copies.give_back(name)


class Lost:
    """``on_lost``: what the bot is told."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def __call__(self, problem: str) -> None:
        self.said.append(problem)


async def opened(url: str, count: int, ids: list[int], lost: Lost | None = None):
    store = await open_store(url)
    try:
        await store.claim_shards(count, ids, lost or Lost())
    except BaseException:
        await store.close()
        raise
    return store


async def drop_lock_connections(url: str, label_part: str, sparing: asyncpg.Connection | None = None) -> int:
    """The database ends the connections whose name holds ``label_part`` (as a server restart
    would), all but ``sparing``'s, and waits until they have ended."""
    conn = await asyncpg.connect(url)
    spared = sparing.get_server_pid() if sparing is not None else 0
    try:
        return await conn.fetchval(
            "SELECT count(pg_terminate_backend(pid, 30000)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND application_name LIKE $1 AND pid <> $2",
            f"%{label_part}%",
            spared,
        )
    finally:
        await conn.close()


def test_shards_as_a_person_reads_them():
    assert shards_text(1, [0]) == "the bot without shards"
    assert shards_text(4, [2]) == "shard 2 of 4"
    assert shards_text(8, [0, 1, 2, 3, 6]) == "shards 0-3,6 of 8"


async def test_overlapping_shards_are_refused_naming_the_holder(pg_url):
    first = await opened(pg_url, 4, [0, 1])
    try:
        with pytest.raises(StorageError) as refused:
            await opened(pg_url, 4, [1, 2, 3])  # shard 1 is the first one's
        text = str(refused.value)
        assert "another Pukllay process serves shard 1 of 4 from this database already" in text
        assert "pukllay " in text and "shards 0-1 of 4" in text  # the holder, by its own name
        assert "SHARD_IDS" in text and "Running large" in text
        with pytest.raises(StorageError, match="serves shards 0-1 of 4"):
            await opened(pg_url, 4, [0, 1, 2, 3])  # no SHARD_IDS: every shard
        beside = await opened(pg_url, 4, [2, 3])  # the other half: both serve
        await beside.close()
    finally:
        await first.close()
    again = await opened(pg_url, 4, [0, 1, 2, 3])  # the first stopped: its shards are free
    await again.close()


async def test_two_processes_without_shards_are_refused(pg_url):
    first = await opened(pg_url, 1, [0])
    try:
        with pytest.raises(StorageError, match="serves the bot without shards from this database already"):
            await opened(pg_url, 1, [0])
    finally:
        await first.close()


async def test_another_shard_count_is_refused_both_ways(pg_url):
    first = await opened(pg_url, 2, [0])
    try:
        with pytest.raises(StorageError) as refused:
            await opened(pg_url, 4, [3])  # no shard in common, but another count
        assert "SHARD_COUNT=2" in str(refused.value) and "this one with SHARD_COUNT=4" in str(refused.value)
        with pytest.raises(StorageError, match="this one runs without shards"):
            await opened(pg_url, 1, [0])
    finally:
        await first.close()
    second = await opened(pg_url, 4, [3])
    try:
        with pytest.raises(StorageError, match="SHARD_COUNT=4"):
            await opened(pg_url, 2, [1])
    finally:
        await second.close()


async def test_a_refused_claim_leaves_nothing_held(pg_url):
    """The refused process's own locks (the shards it did get) are let go: once the holder stops,
    a third process takes every shard."""
    first = await opened(pg_url, 4, [3])
    with pytest.raises(StorageError):
        await opened(pg_url, 4, [0, 1, 2, 3])  # got 0-2, refused on 3
    await first.close()
    third = await opened(pg_url, 4, [0, 1, 2, 3])
    await third.close()


async def test_locks_dropped_by_the_database_are_taken_again(pg_url):
    lost = Lost()
    store = await opened(pg_url, 2, [0], lost)
    try:
        assert await store.db._shards.check()  # the connection answers
        assert await drop_lock_connections(pg_url, "shard 0 of 2") == 1
        assert await store.db._shards.check()  # a new connection, the lock taken again
        with pytest.raises(StorageError, match="shard 0 of 2"):
            await opened(pg_url, 2, [0])
        assert lost.said == []
    finally:
        await store.close()


async def test_a_shard_taken_while_the_database_was_away_stops_the_bot(pg_url):
    lost = Lost()
    store = await opened(pg_url, 2, [0, 1], lost)
    try:
        assert await drop_lock_connections(pg_url, "shards 0-1 of 2") == 1
        other = await opened(pg_url, 2, [1])  # started while the first's locks were gone
        try:
            assert not await store.db._shards.check()
            assert len(lost.said) == 1 and "serves shard 1 of 2" in lost.said[0]
            assert not await store.db._shards.check() and len(lost.said) == 1  # told once
            with pytest.raises(StorageError, match="shard 1 of 2"):  # the other keeps its shard
                await opened(pg_url, 2, [1])
        finally:
            await other.close()
    finally:
        await store.close()


class Stumbling(ShardClaim):
    """A claim whose first check fails as asyncpg once failed a check on a connection the server
    had just ended ("cannot switch to state 12; another operation (2) is in progress", an error
    of none of the kinds the check expects); its checks after that are the claim's own, once
    ``go`` is set."""

    stumbled = False

    def __init__(self, url: str, count: int, ids: list[int], on_lost: Callable[[str], None]) -> None:
        super().__init__(url, count, ids, on_lost)
        self.go = asyncio.Event()

    async def check(self) -> bool:
        if not self.stumbled:
            self.stumbled = True
            raise asyncpg.InternalClientError(
                "cannot switch to state 12; another operation (2) is in progress"
            )
        await self.go.wait()
        return await super().check()


async def test_a_check_that_fails_unexpectedly_is_not_the_last(pg_url, monkeypatch, caplog):
    """The checks go on after one failed with an error no one expected: a shard taken by another
    process while the database was away still stops the bot (the checks had ended there, and the
    bot served on without its locks)."""
    monkeypatch.setattr(shards, "CHECK_EVERY", 0.01)
    told = asyncio.Event()
    claim = Stumbling(pg_url, 2, [0], lambda problem: told.set())
    await claim.take()
    claim.start()
    try:
        assert await drop_lock_connections(pg_url, "shard 0 of 2") == 1
        other = await opened(pg_url, 2, [0])  # started while the first's locks were gone
        try:
            claim.go.set()
            await asyncio.wait_for(told.wait(), 30)  # (bounded: a hang fails, it does not block)
            assert claim.stumbled and claim.lost is not None and "serves shard 0 of 2" in claim.lost
            assert "could not be checked" in caplog.text  # the stumble was logged
        finally:
            await other.close()
    finally:
        await claim.release()


async def test_sqlite_claims_nothing(db_path):
    """SQLite serves one process a file (refused at opening): any shards are this process's."""
    store = await open_store(db_path)
    try:
        await store.claim_shards(4, [0, 1, 2, 3], Lost())
    finally:
        await store.close()


async def test_python_m_bot_refuses_a_shard_served_already(pg_url, tmp_path):
    """A second ``python -m bot`` whose shards another process serves stops before logging in:
    exit status 2, the reason in one line, no traceback and no Discord error."""
    first = await opened(pg_url, 2, [0, 1])
    try:
        proc = run_bot({"DATABASE_URL": pg_url, "SHARD_COUNT": "2", "SHARD_IDS": "1"}, cwd=tmp_path)
    finally:
        await first.close()
    out = proc.stdout + proc.stderr
    assert proc.returncode == 2, out
    assert "Traceback" not in out and "Discord" not in out
    refusals = [line for line in out.splitlines() if "serves shard 1 of 2 from this database already" in line]
    assert len(refusals) == 1, out


# ``python -m bot`` with Discord's API at a port nothing listens on (the bot waits between login
# attempts, its shards locked and its web server up), checking its shards' locks every 0.1 s.
CHECKING_OFTEN = """
import sys
import discord.http
discord.http.Route.BASE = "https://127.0.0.1:1/api/v10"
import bot.storage.shards
bot.storage.shards.CHECK_EVERY = 0.1
from bot.__main__ import main
sys.exit(main([]))
"""


async def test_python_m_bot_stops_when_another_process_took_its_shard(pg_url, tmp_path):
    """The database drops a running bot's locks (as a restart of the server would), and another
    process takes its shard before it can take it again: the bot stops with exit status 2 and
    says why, rather than serve the shard twice."""
    port = free_port()
    env = bot_env(port, DATABASE_URL=pg_url)
    proc = await asyncio.to_thread(
        subprocess.Popen,
        [sys.executable, "-c", CHECKING_OFTEN],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    other = await asyncpg.connect(
        pg_url, server_settings={"application_name": "pukllay elsewhere:7 the bot without shards"}
    )
    try:

        async def up_or_ended() -> bool:  # the bot's start, its shards locked, then its first failed login
            return await asyncio.to_thread(health, port) == 503 or proc.poll() is not None

        await until(up_or_ended, "the bot's /healthz answering 503, or its end", tries=600, pause=0.1)
        assert proc.poll() is None, proc.communicate()
        # The other process asks for the shard first (it waits in the lock's queue), so that it is
        # the one given the shard when the bot's connection ends.
        waiting = asyncio.ensure_future(other.execute("SELECT pg_advisory_lock($1, 0)", SHARD_LOCKS))
        await until(
            lambda: queued(pg_url), "the other process queued for the shard's lock", tries=600, pause=0.05
        )
        assert await drop_lock_connections(pg_url, "the bot without shards", sparing=other) == 1
        await asyncio.wait_for(waiting, 60)
        _, err = await asyncio.to_thread(proc.communicate, timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        await other.close()
    assert proc.returncode == 2, err
    assert "Traceback" not in err
    said = [
        line
        for line in err.splitlines()
        if "serves the bot without shards from this database already" in line
    ]
    assert any("elsewhere:7" in line for line in said), err


async def queued(url: str) -> bool:
    """Whether a connection waits for an advisory lock on the database."""
    conn = await asyncpg.connect(url)
    try:
        return bool(
            await conn.fetchval(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            )
        )
    finally:
        await conn.close()
