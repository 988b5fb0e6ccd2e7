"""/healthz and /metrics (HTTP_PORT): scraped after a few moves against the Discord stand-in; the
numbers are what happened, and /healthz is not ready while the database does not answer or the
gateway connection is down, ready again once they are back."""

from __future__ import annotations

import logging
import os
from typing import Any

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.conftest import Database
from tests.support.polling import until

NIM = ("cogs.table", "tests.support.nim_cog")


def samples(page: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a /metrics page: (name, sorted labels) -> value."""
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(page)
        for s in family.samples
    }


async def get(url: str) -> tuple[int, Any]:
    async with aiohttp.ClientSession() as http, http.get(url) as reply:
        if reply.content_type == "application/json":
            return reply.status, await reply.json()
        return reply.status, await reply.text()


class Outage:
    """Make the bot's database stop answering, for real, and come back: the SQLite file removed
    from under the bot, or PostgreSQL refusing connections to the database (the bot's cut)."""

    def __init__(self, database: Database, cluster: Any = None, name: str = ""):
        self.database, self.cluster, self.name = database, cluster, name
        self.aside = database.target + ".aside"

    async def begin(self) -> None:
        if self.database.kind == "sqlite":
            os.replace(self.database.target, self.aside)
            return
        await self.cluster.admin(f"ALTER DATABASE {self.name} ALLOW_CONNECTIONS false")
        await self.cluster.admin(
            f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{self.name}'"
        )

    async def end(self) -> None:
        if self.database.kind == "sqlite":
            os.replace(self.aside, self.database.target)
            return
        await self.cluster.admin(f"ALTER DATABASE {self.name} ALLOW_CONNECTIONS true")


class Reconnects(logging.Filter):
    """discord.py logs each failed reconnection attempt as an error; while the test keeps Discord
    away on purpose those are expected, and counted here instead of failing the test."""

    def __init__(self) -> None:
        super().__init__()
        self.seen = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage().startswith("Attempting a reconnect"):
            self.seen += 1
            return False
        return True


async def test_health_and_metrics_after_a_few_moves(standin, bot_factory, table_clock, backend):
    database, outage = backend
    alice, bob = standin.add_user("alice"), standin.add_user("bob")
    chan = standin.guild.text_channels[0]
    database_url = database.target if database.kind == "postgres" else None
    make = bot_factory(NIM, http_port=0, database_url=database_url)
    async with standin.run_client(make) as bot:
        if database.kind == "sqlite":
            database.target = bot.store.where
            outage = Outage(database)
        await standin.wait_synced()
        assert bot.web is not None and bot.web.port > 0
        base = f"http://127.0.0.1:{bot.web.port}"
        status, body = await get(base + "/healthz")
        assert status == 200 and body["ready"] is True, body
        assert body["database"] == "ok" and body["shards"]["0"]["connected"] is True

        # A game, three moves, each taking one stone.
        lobby = await standin.slash(alice, chan, "nim new", thread=False, piles=3)
        await standin.click(bob, lobby.message, "Join")
        await standin.click(alice, lobby.message, "Start")
        session = await bot.sessions.core.in_channel(chan.id)
        for _ in range(3):
            (seat,) = session.to_move()
            user = alice if session.by_seat(seat).user_id == alice.id else bob
            legal = await bot.sessions.play.legal_moves(chan.id, user.id)
            await (await standin.slash(user, chan, "nim move", move=legal[0])).original()
            session = await bot.sessions.core.get(session.id)
        assert session.status == "active" and len(await bot.store.history.moves(session.id)) == 3

        # A job of a kind of its own: due, then late, then fired 90 s after its time.
        fired = []

        async def handler(job) -> None:
            fired.append(job.key)

        bot.scheduler.register("probe", handler)
        await bot.scheduler.schedule("probe", "1", table_clock.time() + 10)
        table_clock.advance(20)
        due = samples((await get(base + "/metrics"))[1])
        assert due[("pukllay_jobs_due", ())] == 1 and due[("pukllay_jobs_late", ())] == 0
        table_clock.advance(80)
        assert samples((await get(base + "/metrics"))[1])[("pukllay_jobs_late", ())] == 1
        assert await bot.scheduler.run_due() == 1 and fired == ["1"]

        status, page = await get(base + "/metrics")
        assert status == 200
        m = samples(page)
        assert m[("pukllay_moves_total", (("by", "person"), ("game", "nim")))] == 3
        assert ("pukllay_moves_total", (("by", "computer"), ("game", "nim"))) not in m
        assert m[("pukllay_move_seconds_count", (("game", "nim"),))] == 3
        assert m[("pukllay_games_running", ())] == 1
        assert m[("pukllay_interactions_total", (("type", "application_command"),))] == 4  # new, 3 moves
        assert m[("pukllay_interactions_total", (("type", "component"),))] == 2  # Join, Start
        assert m[("pukllay_job_runs_total", (("kind", "probe"), ("outcome", "ok")))] == 1
        assert m[("pukllay_job_lateness_seconds_count", (("kind", "probe"),))] == 1
        assert m[("pukllay_job_lateness_seconds_bucket", (("kind", "probe"), ("le", "60.0")))] == 0
        assert m[("pukllay_job_lateness_seconds_bucket", (("kind", "probe"), ("le", "300.0")))] == 1
        assert m[("pukllay_jobs_due", ())] == 0 and m[("pukllay_jobs_late", ())] == 0
        assert m[("pukllay_database_up", ())] == 1
        assert m[("pukllay_gateway_connected", (("shard", "0"),))] == 1
        assert ("pukllay_gateway_latency_seconds", (("shard", "0"),)) in m
        assert all(
            m[("pukllay_errors_total", (("kind", k),))] == 0 for k in ("command", "interaction", "job")
        )

        # The database stops answering: not ready, and why.
        await outage.begin()
        try:
            status, body = await get(base + "/healthz")
            assert status == 503 and body["ready"] is False, body
            assert body["database"] != "ok"
            assert body["problems"][0].startswith("the database does not answer"), body
            assert body["shards"]["0"]["connected"] is True
            assert samples((await get(base + "/metrics"))[1])[("pukllay_database_up", ())] == 0
        finally:
            await outage.end()

        async def ready_again() -> bool:
            status, body = await get(base + "/healthz")
            return status == 200 and body["ready"]

        await until(ready_again, "/healthz ready once the database is back", pause=0.05)

        # The gateway connection drops and Discord cannot be reached: not ready, and why.
        reconnects = Reconnects()
        logging.getLogger("discord.client").addFilter(reconnects)
        try:
            await standin.refuse_connections()
            await standin.disconnect(4000)

            async def down() -> dict | None:
                status, body = await get(base + "/healthz")
                return body if status == 503 else None

            body = await until(down, "/healthz not ready while the gateway is down", pause=0.05)
            assert body["problems"] == ["shard 0's gateway connection is down"], body
            assert body["database"] == "ok" and body["shards"]["0"]["connected"] is False
            gauge = samples((await get(base + "/metrics"))[1])
            assert gauge[("pukllay_gateway_connected", (("shard", "0"),))] == 0
            await standin.accept_connections()
            await standin.wait_connected(timeout=60)
            await until(ready_again, "/healthz ready once the gateway is back", pause=0.05)
        finally:
            await standin.accept_connections()
            logging.getLogger("discord.client").removeFilter(reconnects)
    assert bot.web is None  # stopped with the bot


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request):
    """(the database, how to take it away): the bot's own SQLite file (named once it runs), or a
    fresh PostgreSQL database on the session's server."""
    if request.param == "sqlite":
        empty = Database("sqlite", "")
        yield empty, Outage(empty)
        return
    cluster = request.getfixturevalue("pg_cluster")
    template = request.getfixturevalue("pg_template")
    name = await cluster.create_database(template)
    try:
        database = Database("postgres", cluster.url(name))
        yield database, Outage(database, cluster, name)
    finally:
        await cluster.admin(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
        await cluster.drop_database(name)
