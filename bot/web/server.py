"""The bot's web server: aiohttp (which discord.py already depends on), started when ``HTTP_PORT``
is set, before the bot's first login attempt (``Pukllay.prepare``), and stopped when the bot closes.

``GET /healthz``: 200 with ``{"ready": true, ...}`` when the database answers and every shard's
gateway is connected, else 503 with the reasons (see :mod:`bot.web.health`).
``GET /metrics``: the counters in Prometheus' text format (see :mod:`bot.web.metrics`).
With ``WEB_PAGES`` on, the same server serves the read-only pages (:mod:`bot.web.pages`).

Every answer carries strict headers (:data:`HEADERS`: a content security policy that allows
scripts and styles from this server only and no framing, no referrer, no sniffing); every
request counts against its address's allowance (:class:`RateLimit`), and one over it gets 429.
Only GET and HEAD are routed: there is no write endpoint.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord
from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from bot.storage import Store
from bot.web import health
from bot.web.metrics import CONTENT_TYPE, LATE_JOB, Metrics

if TYPE_CHECKING:
    from bot.web.pages import Pages

log = logging.getLogger(__name__)

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
    "X-Robots-Tag": "noindex, nofollow",
}


def client_address(peer: str | None, forwarded: str) -> str:
    """Whose request it is: the peer, or, when the peer is this machine (a reverse proxy beside
    the bot), the last address of its ``X-Forwarded-For`` (the one the proxy itself saw)."""
    peer = peer or "?"
    try:
        local = ipaddress.ip_address(peer).is_loopback
    except ValueError:
        local = False
    if local and forwarded:
        last = forwarded.split(",")[-1].strip()
        try:
            return str(ipaddress.ip_address(last))
        except ValueError:
            return peer
    return peer


def counted_as(address: str) -> str:
    """What the rate limit counts ``address`` as: an IPv4 address itself (an IPv6 address that
    maps one, too), an IPv6 address its /64 network, which one machine or home usually holds
    whole; anything else as it is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv4Address):
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.ip_network((ip, 64), strict=False))


STREAMS_PER_ADDRESS = 20
"""Event streams one address (:func:`counted_as`) may hold open at once: a reader's tabs, or a
club behind one address following its games; one more gets 429 (each stream reads its game
every second for as long as it is open)."""


class RateLimit:
    """A bucket per address (:func:`counted_as`: an IPv6 address's is its /64 network's):
    ``burst`` requests at once, refilled at ``rate`` a second.  The address is the peer's, or,
    when the peer is this machine (a reverse proxy beside the bot), the last one its
    ``X-Forwarded-For`` names.  At most ``addresses`` buckets are kept: past
    that, the address seen least recently is forgotten (its bucket has refilled the longest;
    the one just charged is never forgotten)."""

    def __init__(
        self,
        rate: float = 5.0,
        burst: float = 120.0,
        *,
        addresses: int = 10000,
        now: Callable[[], float] = time.monotonic,
    ):
        self.rate, self.burst, self.addresses, self.now = rate, burst, addresses, now
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # least recently seen first

    @staticmethod
    def address(request: web.Request) -> str:
        return client_address(request.remote, request.headers.get("X-Forwarded-For", ""))

    def allow(self, address: str) -> float:
        """0 when ``address`` may go on, else the seconds until it may."""
        now, address = self.now(), counted_as(address)
        level, then = self._buckets.get(address, (self.burst, now))
        level = min(self.burst, level + (now - then) * self.rate)
        wait = 0.0 if level >= 1 else (1 - level) / self.rate
        self._buckets[address] = (level if wait else level - 1, now)
        self._buckets.move_to_end(address)
        while len(self._buckets) > max(1, self.addresses):
            self._buckets.popitem(last=False)
        return wait


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class MalformedRequests(logging.Filter):
    """aiohttp logs a request it cannot parse (a scanner's ``GET *``, a bad or too long header)
    as an error with a traceback, after answering it 400: anyone can send one, so it is a line at
    the debug level here, with aiohttp's reason."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, HttpProcessingError):
            peer = record.args[0] if isinstance(record.args, tuple) and record.args else "?"
            reason = " ".join(str(exc.message).split())[:200]
            log.debug("refused a malformed request from %s (%s)", peer, reason)
            return False
        return True


SERVER_LOG = logging.getLogger("bot.web.server.http")
"""The logger aiohttp's connections write to (its ``aiohttp.server`` otherwise), filtered by
:class:`MalformedRequests`."""
SERVER_LOG.addFilter(MalformedRequests())


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
        pages: Pages | None = None,
        limit: RateLimit | None = None,
    ):
        self.client = client
        self.store = store
        self.metrics = metrics
        self.host = host
        self.port = port
        self.pages = pages
        self.limit = limit or RateLimit()
        self.streams: dict[str, int] = {}  # event streams open per address (counted_as)
        self.scraped_down = False  # the last scrape found the database not answering (and said so)
        self.app = web.Application(middlewares=[self.guard])
        self.app.on_response_prepare.append(self.strict)
        self.app.router.add_get("/healthz", self.healthz)
        self.app.router.add_get("/metrics", self.scrape)
        if pages is not None:
            pages.add_routes(self.app)
        self._runner: web.AppRunner | None = None

    @web.middleware
    async def guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """The rate limit: pages only (health checks and scrapes come from the operator); and at
        most :data:`STREAMS_PER_ADDRESS` event streams open per address."""
        if self.pages is None or request.path in ("/healthz", "/metrics"):
            return await handler(request)
        address = self.limit.address(request)
        wait = self.limit.allow(address)
        if wait:
            return self.pages.too_many(request, max(1, math.ceil(wait)))
        if not request.path.endswith("/events") or request.method != "GET":
            return await handler(request)
        key = counted_as(address)
        if self.streams.get(key, 0) >= STREAMS_PER_ADDRESS:
            return self.pages.too_many(request, 60)
        self.streams[key] = self.streams.get(key, 0) + 1
        try:
            return await handler(request)  # (for as long as the stream is open)
        finally:
            self.streams[key] -= 1
            if not self.streams[key]:
                del self.streams[key]

    @staticmethod
    async def strict(request: web.Request, reply: web.StreamResponse) -> None:
        reply.headers.update(HEADERS)

    async def link(self, kind: str, ref: int, guild_id: int | None, public_url: str | None) -> str | None:
        """The address of the page of the ``kind`` (game, league, person) numbered ``ref`` of server
        ``guild_id``, at ``public_url`` (else this server's own address); None when the pages are
        off, or the server turned them off."""
        if self.pages is None or guild_id is None:
            return None
        return await self.pages.link(kind, ref, guild_id, public_url or self.address)

    @property
    def address(self) -> str:
        """This server's own address, as links and the log give it (an IPv6 address in brackets)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    async def start(self) -> None:
        runner = web.AppRunner(self.app, access_log=None, handle_signals=False, logger=SERVER_LOG)
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
        if runner.addresses:  # the port chosen when HTTP_PORT is 0
            self.port = runner.addresses[0][1]
        log.info(
            "serving /healthz, /metrics%s on %s",
            " and the pages" if self.pages is not None else "",
            self.address,
        )

    async def stop(self) -> None:
        if self.pages is not None:
            self.pages.close()
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

    def database_down(self, why: str) -> None:
        """A scrape found the database not answering: ``database_up`` says 0 (the last counts
        stay), and one warning line is logged, once until it answers a scrape again."""
        self.metrics.database_up.set(0)
        if not self.scraped_down:
            log.warning(
                "could not read the games and jobs for /metrics: the database does not answer (%s)", why
            )
            self.scraped_down = True

    async def refresh(self) -> None:
        """Set the gauges read at a scrape: the gateway per shard, the database, games and jobs."""
        m = self.metrics
        for shard in health.shards(self.client):
            label = str(shard.id)
            m.gateway_connected.labels(label).set(1 if shard.connected else 0)
            m.gateway_latency.labels(label).set(math.nan if shard.latency is None else shard.latency)
        store = self.store()
        problem = "not open" if store is None else await store.ping()
        if store is None or problem is not None:
            self.database_down(problem or "not open")
            return  # the last counts read stay; database_up says they are old
        try:
            running = await store.games_running()
            due, late = await store.jobs_waiting(LATE_JOB)
        except Exception as exc:
            # The database went between the ping and the counts: the same outage as a ping that
            # fails, answered alike.
            self.database_down(f"{type(exc).__name__}: {exc}"[:200])
            return
        if self.scraped_down:
            log.info("/metrics reads the games and jobs again: the database answers")
            self.scraped_down = False
        m.database_up.set(1)
        m.games_running.set(running)
        m.jobs_due.set(due)
        m.jobs_late.set(late)
