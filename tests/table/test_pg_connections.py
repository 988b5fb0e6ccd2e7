"""The PostgreSQL store's pooled connections when the server drops them: a connection the server
cut is never used again once the server is back, through a relay (tests/support/relay.py) that
makes the network's timing the test's."""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import urlsplit

import pytest

from bot.storage import open_store, postgres
from bot.storage.base import NotAnswering, Unreachable
from tests.support.outage import Outage
from tests.support.relay import Relay

pytestmark = pytest.mark.parametrize("database", ["postgres"], indirect=True)


@pytest.fixture
async def relay(pg_cluster):
    relay = await Relay(pg_cluster).start()
    try:
        yield relay
    finally:
        await relay.close()


@pytest.fixture
async def outage(pg_cluster, database):
    down = Outage(pg_cluster, database.target)
    yield down
    await down.end()


def name_of(target: str) -> str:
    return urlsplit(target).path.lstrip("/")


async def test_connections_the_server_cut_while_idle_are_not_used_once_it_is_back(database, relay, outage):
    """Five connections sit in the pool when the server ends them all; its goodbye reaches the
    bot before the close does (the relay holds the closes).  A statement during the outage is
    answered "stopped answering"; once the server is back every statement is answered, none on a
    dead connection ("another operation is in progress").

    The goodbyes are on their way to the bot before the statement; should the bot still send it
    before it has read the goodbye of its connection, the driver takes that goodbye for the
    statement's error and waits for the server to be ready again, which a server gone never says:
    the statement then ends at its time limit (5 s here, 30 s by default, and as long again for
    its cancel), "stopped answering" all the same."""
    store = await open_store(relay.url(name_of(database.target)), statement_seconds=5)
    try:
        pool = store.db._pool  # five connections open, as five commands at once leave them
        async with contextlib.AsyncExitStack() as held:
            for _ in range(5):
                await held.enter_async_context(pool.acquire())
        assert pool.get_size() == 5
        relay.hold_closes()
        await outage.begin()
        await relay.closes_held(5)
        with pytest.raises(NotAnswering, match="stopped answering") as stopped:
            await store.schema_version()
        assert isinstance(stopped.value, Unreachable)  # worth starting again later: exit status 1
        await outage.end()
        for _ in range(6):
            assert await store.schema_version() > 0
    finally:
        await relay.let_closes_go()  # the pool's closing waits for the server's close
        await store.close()


async def test_closing_a_connection_the_server_cut_is_no_error(database, relay):
    """The pool closes the connections it expired in tasks nobody awaits: closing one whose server
    is gone is no error (an error there is logged by asyncio as "Task exception was never
    retrieved", a BrokenPipeError's traceback in the operator's log), and the connection is let go."""
    store = await open_store(relay.url(name_of(database.target)))
    try:
        async with store.db._pool.acquire() as pooled:
            conn = pooled._con
        relay.cut_now()  # the bot has not heard of it yet: closing writes to a broken pipe
        await conn.close()
        assert conn.is_closed()
    finally:
        await store.close()


async def test_the_store_closes_when_the_servers_close_never_arrives(database, relay, outage, monkeypatch):
    """The server ended the pool's connections and its closes have not reached the bot (the
    network lost them): the bot stopping closes its store all the same, each connection let go
    after waiting CLOSE_WAIT for the server's goodbye, instead of waiting for ever."""
    monkeypatch.setattr(postgres, "CLOSE_WAIT", 0.05, raising=False)
    store = await open_store(relay.url(name_of(database.target)))
    async with contextlib.AsyncExitStack() as held:
        for _ in range(3):
            await held.enter_async_context(store.db._pool.acquire())
    relay.hold_closes()
    await outage.begin()
    try:
        async with asyncio.timeout(60):  # a bound for the old wait for ever, far above CLOSE_WAIT
            await store.close()
    finally:
        await relay.let_closes_go()


async def test_a_statement_the_server_never_answers_ends_and_frees_the_pool(database, relay, monkeypatch):
    """The server runs a statement and its answer never comes (a server that hangs, or a network
    gone without a word): once the statement's time limit passes it ends as "stopped answering",
    its connection is discarded rather than used again mid-statement, and so many such
    statements, more than the pool holds, leave the pool free for the statements after them.
    (The one beyond the pool waits for a new connection, which the hung server does not answer
    either: it ends when the connection's own time runs out, shortened here from 15 s.)"""
    monkeypatch.setattr(postgres, "CONNECT_SECONDS", 3.0)
    store = await open_store(relay.url(name_of(database.target)), statement_seconds=0.2)
    try:
        pool = store.db._pool
        relay.stall_at("FROM schema_migrations")  # every answer held from then on

        async def stalled_statement() -> BaseException | None:
            try:
                await store.schema_version()
            except NotAnswering as exc:
                return exc
            return None

        async with asyncio.timeout(60):  # a bound for the old wait for ever, far above the limit
            results = await asyncio.gather(*(stalled_statement() for _ in range(postgres.POOL_SIZE + 1)))
        assert all(isinstance(r, NotAnswering) for r in results), results
        assert "stopped answering (no answer to a statement within 0.2 seconds)" in str(results[0])
        assert pool.get_size() == 0  # each connection that ran one was discarded
        relay.resume()
        for _ in range(postgres.POOL_SIZE + 1):
            assert await store.schema_version() > 0
    finally:
        relay.resume()
        await store.close()


async def test_a_ping_keeps_its_time_limit_when_the_server_hangs(database, relay):
    """/healthz pings with a 5 s limit.  A server that hangs (or a network gone without a word)
    answers nothing: the ping says so when its limit is up, not once the statement's own limit
    (here 300 s; 30 s by default) has let go of its connection; once the server answers again,
    so does the next ping."""
    store = await open_store(relay.url(name_of(database.target)), statement_seconds=300)
    try:
        assert await store.ping(timeout=1) is None
        relay.stall()
        hung = await asyncio.wait_for(store.ping(timeout=0.2), 60)  # (60 s: only a guard)
        assert hung is not None and "did not answer within 0.2 s" in hung, hung
        relay.resume()
        assert await store.ping(timeout=30) is None
    finally:
        relay.resume()
        await store.close()
