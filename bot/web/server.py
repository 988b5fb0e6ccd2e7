"""The bot's web server: aiohttp (which discord.py already depends on), started in the bot's
``setup_hook`` when ``HTTP_PORT`` is set and stopped when the bot closes.

``GET /healthz``: 200 with ``{"ready": true, ...}`` when the database answers and every shard's
gateway is connected, else 503 with the reasons (see :mod:`bot.web.health`).
``GET /metrics``: the counters in Prometheus' text format (see :mod:`bot.web.metrics`).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable

import discord
from aiohttp import web

from bot.storage import Store
from bot.web import health
from bot.web.metrics import CONTENT_TYPE, LATE_JOB, Metrics

log = logging.getLogger(__name__)


class WebServerError(RuntimeError):
    """The web server cannot listen where the settings say; the message is one line."""


class WebServer:
    """``/healthz`` and ``/metrics`` for ``client``, on ``host``:``port`` (port 0: any free one;
    :attr:`port` is the one bound once started)."""

    def __init__(
        self,
        client: discord.Client,
        store: Callable[[], Store | None],
        metrics: Metrics,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
    ):
        self.client = client
        self.store = store
        self.metrics = metrics
        self.host = host
        self.port = port
        self.app = web.Application()
        self.app.router.add_get("/healthz", self.healthz)
        self.app.router.add_get("/metrics", self.scrape)
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        runner = web.AppRunner(self.app, access_log=None, handle_signals=False)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        try:
            await site.start()
        except OSError as exc:
            await runner.cleanup()
            raise WebServerError(
                f"cannot serve /healthz and /metrics on {self.host} port {self.port} ({exc.strerror or exc}); "
                "choose another HTTP_PORT or HTTP_HOST"
            ) from None
        self._runner = runner
        server = site._server
        sockets = getattr(server, "sockets", None) or ()
        if sockets:
            self.port = sockets[0].getsockname()[1]
        log.info("serving /healthz and /metrics on http://%s:%d", self.host, self.port)

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    async def healthz(self, request: web.Request) -> web.Response:
        found = await health.check(self.client, self.store())
        self.metrics.database_up.set(1 if found.database is None else 0)
        return web.json_response(found.to_dict(), status=200 if found.ready else 503)

    async def scrape(self, request: web.Request) -> web.Response:
        await self.refresh()
        return web.Response(body=self.metrics.page(), headers={"Content-Type": CONTENT_TYPE})

    async def refresh(self) -> None:
        """Set the gauges read at a scrape: the gateway per shard, the database, games and jobs."""
        m = self.metrics
        for shard in health.shards(self.client):
            label = str(shard.id)
            m.gateway_connected.labels(label).set(1 if shard.connected else 0)
            m.gateway_latency.labels(label).set(math.nan if shard.latency is None else shard.latency)
        store = self.store()
        problem = "not open" if store is None else await store.ping()
        m.database_up.set(1 if problem is None else 0)
        if store is None or problem is not None:
            return  # the last counts read stay; database_up says they are old
        try:
            running = await store.games_running()
            due, late = await store.jobs_waiting(LATE_JOB)
        except Exception:
            log.warning("could not read the games and jobs for /metrics", exc_info=True)
            m.database_up.set(0)
            return
        m.games_running.set(running)
        m.jobs_due.set(due)
        m.jobs_late.set(late)
