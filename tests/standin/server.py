"""A stand-in for Discord, served on 127.0.0.1, for the real discord.py client.

It serves the REST API (``https://discord.com/api/v10``), the gateway (``wss://gateway.discord.gg``) and
the CDN over TLS from a throw-away certificate authority.  The client is given an aiohttp connector
whose resolver sends those host names, and only those, to the stand-in; discord.py itself is not
touched.  Tests act as users (``slash``, ``click``, ``select``, ``autocomplete``, ``modal_submit``) and
read what the bot posted (``messages``, ``next_message``).  Discord's limits are enforced: a
violation is answered as Discord answers it and fails the test with the reason.  Every request body
and every answer is checked against Discord's OpenAPI description (``spec.py``), and Discord's rate
limits apply (``ratelimits.py``).  See README.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import datetime
import fnmatch
import inspect
import json
import logging
import os
import re
import secrets
import socket
import ssl
import sys
import tempfile
import time
import traceback
import zlib
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import trustme
from aiohttp import web
from aiohttp.abc import AbstractResolver

from . import limits, ratelimits
from . import spec as spec_module
from .model import (
    ACTIVE,
    ALL_PERMISSIONS,
    APPLIED_TAGS_MAX,
    ATTACH_FILES,
    BOT_PERMISSIONS,
    CANCELED,
    COMPLETED,
    CREATE_EVENTS,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    DEFAULT_EVERYONE,
    EMBED_LINKS,
    EVENT_MOVES,
    EXTERNAL,
    FORUM_TAGS_MAX,
    GUILD_FORUM,
    MANAGE_CHANNELS,
    MANAGE_EVENTS,
    MANAGE_MESSAGES,
    MANAGE_THREADS,
    MENTION_EVERYONE,
    READ_MESSAGE_HISTORY,
    REQUIRE_TAG,
    SCHEDULED,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    USE_APPLICATION_COMMANDS,
    VIEW_CHANNEL,
    Attachment,
    Channel,
    Guild,
    Interaction,
    Member,
    Message,
    Role,
    ScheduledEvent,
    User,
    iso,
    normalize_components,
    snowflake,
)

log = logging.getLogger("tests.standin")


def answer_latency() -> float:
    """Seconds the stand-in holds back its answer to each request that changes something, from
    ``STANDIN_ANSWER_LATENCY`` (0 by default): what the request changes is seen at once, and the
    client learns of it that much later, as with Discord, whose answers take tens of milliseconds.
    Run the end-to-end tests with it (``STANDIN_ANSWER_LATENCY=0.02``) to find a test that goes on
    before the bot has finished what it does after Discord answers."""
    text = os.environ.get("STANDIN_ANSWER_LATENCY") or "0"
    try:
        seconds = float(text)
    except ValueError:
        raise ValueError(f"STANDIN_ANSWER_LATENCY must be seconds, such as 0.02 (got {text!r})") from None
    if not 0 <= seconds <= 1:
        raise ValueError(f"STANDIN_ANSWER_LATENCY must be 0 to 1 second (got {text!r})")
    return seconds


ANSWER_LATENCY = answer_latency()

API_HOST = "discord.com"
GATEWAY_HOST = "gateway.discord.gg"
CDN_HOSTS = ("cdn.discordapp.com", "media.discordapp.net")
HOSTS = (API_HOST, GATEWAY_HOST, *CDN_HOSTS)
API_PREFIX = "/api/v10"
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15
INTENT_GUILD_SCHEDULED_EVENTS = 1 << 16
EVENTS_LIVE_MAX = 100  # scheduled events a guild may have SCHEDULED or ACTIVE at once (30038)
# Interaction contexts (where a command is used) and installation contexts (integration types).
GUILD_CONTEXT, BOT_DM_CONTEXT, PRIVATE_CHANNEL_CONTEXT = 0, 1, 2
CONTEXT_NAMES = {0: "a server channel", 1: "a DM with the bot", 2: "a DM or group DM between users"}
GUILD_INSTALL, USER_INSTALL = 0, 1
# What the app may do in a DM (developers/interactions/receiving-and-responding, app_permissions).
DM_APP_PERMISSIONS = ATTACH_FILES | EMBED_LINKS | (1 << 17)  # ... and MENTION_EVERYONE
BOT_DM_APP_PERMISSIONS = DM_APP_PERMISSIONS | (1 << 18)  # ... and USE_EXTERNAL_EMOJIS

_tls: tuple[trustme.CA, trustme.LeafCert] | None = None


def _certificates() -> tuple[trustme.CA, trustme.LeafCert]:
    """One throw-away CA and leaf certificate per test process (key generation is the slow part)."""
    global _tls
    if _tls is None:
        ca = trustme.CA()
        _tls = (ca, ca.issue_cert(*HOSTS))
    return _tls


_client_ctx: ssl.SSLContext | None = None
_server_ctx: ssl.SSLContext | None = None


def _server_context() -> ssl.SSLContext:
    global _server_ctx
    if _server_ctx is None:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        _certificates()[1].configure_cert(ctx)
        _server_ctx = ctx
    return _server_ctx


def _client_context() -> ssl.SSLContext:
    """TLS for the client: trusts the throw-away CA only (not the system's, so nothing else verifies)."""
    global _client_ctx
    if _client_ctx is None:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        _certificates()[0].configure_trust(ctx)
        _client_ctx = ctx
    return _client_ctx


# -- failures ----------------------------------------------------------------------------------------


def _drop_same_localizations(obj: dict) -> None:
    """Discord ignores a localized value identical to the default (application-commands#localization):
    it is not kept, so it is not returned either.  Applied to a command, its options and choices."""
    for field_name in ("name", "description"):
        table = obj.get(f"{field_name}_localizations")
        if isinstance(table, dict):
            obj[f"{field_name}_localizations"] = {k: v for k, v in table.items() if v != obj.get(field_name)}
    for child in [*(obj.get("options") or []), *(obj.get("choices") or [])]:
        if isinstance(child, dict):
            _drop_same_localizations(child)


READY_WAIT = 180.0
"""How long :meth:`StandIn.run_client` waits at most for a client's READY (and
:meth:`StandIn.wait_shards` for processes' gateway sessions).  A bot's start (migrations, cogs,
the command sync) takes well under a second alone, several seconds on a machine busy with other
work, and two bot processes started at low priority beside six other jobs on 2 cores took over a
minute: this bound only ends a test that would never get there, so it is generous, and a passing
test never waits for it."""
NONCE_WINDOW = 180.0
"""Seconds a message's nonce is remembered for ``enforce_nonce`` (Discord: "the past few minutes";
three, the short end of a few: a repeat later than this creates a new message, as Discord may)."""
WAIT_SECONDS = 30.0
"""How long a wait for the bot lasts before it fails the test (``wait_timeout``): the bound on a
hang.  A wait ends as soon as the bot has done what is awaited, so a passing test never waits it
out; 5 s once failed a whole game's export (its animated summary) on a machine running six jobs."""


class StandInError(AssertionError):
    """Base of the failures the stand-in reports to a test."""


class Violation(StandInError):
    """The bot broke one of Discord's rules (limits, 3-second answer, one initial response, ...)."""

    def __init__(self, reason: str, route: str = "", *, number: int = 0, status: int = 400):
        super().__init__(f"{reason}" + (f"  [{route}]" if route else ""))
        self.reason = reason
        self.route = route
        self.number = number
        self.status = status
        self.reported = False


class ClientError(StandInError):
    """discord.py logged an ERROR (an exception inside an event, command or view handler)."""

    def __init__(self, record: logging.LogRecord):
        text = f"discord.py logged an error ({record.name}): {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            text += "\n" + "".join(traceback.format_exception(*record.exc_info))
        super().__init__(text)
        self.record = record
        self.exception = record.exc_info[1] if record.exc_info else None
        self.reported = False


class ClientStopped(StandInError):
    """The client's ``start()`` ended (crashed or was closed) while the test was still using it."""

    def __init__(self, text: str):
        super().__init__(text)
        self.reported = False


class StandInTimeout(StandInError):
    """What the test waited for did not happen in time."""


class UsageError(StandInError):
    """The test asked a user to do something Discord's client would not allow."""


def run_delay() -> float:
    """Seconds this thread has so far spent ready to run but waiting for a CPU (Linux's schedstat).

    The answer deadline subtracts it: on a machine busy with other work the operating system can
    hold the whole test process back for seconds, and that is the machine's load, not the bot's
    slowness.  Where the figure is not available it is 0 and the deadline is plain wall time."""
    try:
        with open("/proc/thread-self/schedstat") as f:
            return int(f.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def _drop_nulls(value: Any) -> Any:
    """``value`` without the ``null`` fields of its objects (Discord leaves absent what is not set)."""
    if isinstance(value, dict):
        return {k: _drop_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_drop_nulls(v) for v in value]
    return value


# -- injection ---------------------------------------------------------------------------------------


@dataclass
class Injection:
    """The next ``times`` requests matching ``pattern`` are answered with ``status``."""

    pattern: str
    status: int
    times: int
    retry_after: float = 0.05
    is_global: bool = False
    hits: list[str] = field(default_factory=list)

    @property
    def remaining(self) -> int:
        return self.times - len(self.hits)

    def matches(self, method: str, path: str, template: str) -> bool:
        if self.remaining <= 0:
            return False
        return any(fnmatch.fnmatchcase(s, self.pattern) for s in (f"{method} {path}", f"{method} {template}"))


@dataclass
class Hold:
    """The next request matching ``pattern`` is carried out (what it changes is seen at once) and
    its answer held back until :meth:`release`: a Discord slow to answer."""

    pattern: str
    released: asyncio.Event = field(default_factory=asyncio.Event)
    hits: list[str] = field(default_factory=list)

    def matches(self, method: str, path: str, template: str) -> bool:
        if self.hits:
            return False
        return any(fnmatch.fnmatchcase(s, self.pattern) for s in (f"{method} {path}", f"{method} {template}"))

    def release(self) -> None:
        self.released.set()


# -- results handed to tests -------------------------------------------------------------------------


@dataclass
class RawResponse:
    """The answer to :meth:`StandIn.http`."""

    status: int
    headers: dict[str, str]
    json: Any


class InteractionResult:
    """What a user's action led to: the initial response, and a way to wait for what follows."""

    def __init__(self, standin: StandIn, interaction: Interaction):
        self.standin = standin
        self.interaction = interaction

    @property
    def type(self) -> int | None:
        """The callback type: 4 message, 5 deferred, 6 deferred update, 7 update, 8 choices, 9 modal."""
        return self.interaction.response_type

    @property
    def deferred(self) -> bool:
        return self.type in (5, 6)

    @property
    def message(self) -> Message | None:
        """The message the response created (4, 5) or updated (6, 7)."""
        return self.interaction.original()

    def _msg(self) -> Message:
        m = self.message
        if m is None:
            raise UsageError(f"the response to {self.interaction.label} (type {self.type}) has no message")
        return m

    @property
    def content(self) -> str:
        return self._msg().content

    @property
    def text(self) -> str:
        """The words of the message (a components-v2 message's text displays included)."""
        return self._msg().text

    @property
    def files(self) -> list[Attachment]:
        return self._msg().files

    @property
    def embeds(self) -> list[dict]:
        return self._msg().embeds

    @property
    def components(self) -> list[dict]:
        return self._msg().components

    @property
    def ephemeral(self) -> bool:
        return self._msg().ephemeral

    @property
    def modal(self) -> dict | None:
        return self.interaction.modal

    @property
    def choices(self) -> list[dict] | None:
        return self.interaction.choices

    @property
    def followup_messages(self) -> list[Message]:
        return list(self.interaction.followups)

    async def followups(self, n: int = 1, *, timeout: float | None = None) -> list[Message]:  # noqa: ASYNC109
        """Wait until the bot has sent ``n`` followup messages for this interaction; return them all."""
        i = self.interaction
        await self.standin.wait_for(
            lambda: len(i.followups) >= n,
            timeout=timeout,
            what=f"{n} followup(s) to {i.label} (have {len(i.followups)})",
        )
        return list(i.followups)

    async def followup(self, *, timeout: float | None = None) -> Message:  # noqa: ASYNC109
        """Wait for the first followup (after a deferral, the first followup fills in the response)."""
        return (await self.followups(1, timeout=timeout))[0]

    async def original(
        self,
        predicate: Callable[[Message], bool] | None = None,
        *,
        timeout: float | None = None,  # noqa: ASYNC109
    ) -> Message:
        """Wait until the original response is no longer loading (and ``predicate`` holds); return it."""
        i = self.interaction

        def ready() -> Message | None:
            m = i.original()
            if m is not None and not m.loading and (predicate is None or predicate(m)):
                return m
            return None

        return await self.standin.wait_for(ready, timeout=timeout, what=f"the final response to {i.label}")

    def __repr__(self) -> str:
        return f"<InteractionResult {self.interaction.label} type={self.type} message={self.message!r}>"


# -- gateway connection ------------------------------------------------------------------------------


class _GatewayConnection:
    def __init__(self, standin: StandIn, ws: web.WebSocketResponse, compress: bool):
        self.standin = standin
        self.ws = ws
        self.seq = 0
        self.z = zlib.compressobj() if compress else None
        self.lock = asyncio.Lock()
        self.intents = 0
        self.session_id = secrets.token_hex(16)
        self.identified = asyncio.Event()
        self.processed = 0  # the last sequence number the client reported in a heartbeat
        self.shard = (0, 1)  # [shard_id, num_shards] from IDENTIFY

    def serves(self, guild: Guild | None) -> bool:
        """Discord's sharding formula: a guild's events go to shard (guild_id >> 22) % num_shards;
        events without a guild (DMs) go to shard 0."""
        shard_id, count = self.shard
        if guild is None:
            return shard_id == 0
        return (guild.id >> 22) % count == shard_id

    async def send(self, op: int, d: Any = None, t: str | None = None) -> None:
        async with self.lock:
            if self.ws.closed:
                return
            payload: dict[str, Any] = {"op": op, "d": d, "s": None, "t": t}
            if op == 0:
                self.seq += 1
                payload["s"] = self.seq
            text = json.dumps(payload, separators=(",", ":"))
            if self.z is not None:
                await self.ws.send_bytes(self.z.compress(text.encode()) + self.z.flush(zlib.Z_SYNC_FLUSH))
            else:
                await self.ws.send_str(text)

    async def dispatch(self, event: str, data: Any) -> None:
        await self.send(0, data, event)


class _Resolver(AbstractResolver):
    def __init__(self, standin: StandIn):
        self.standin = standin

    async def resolve(self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET):
        if host not in HOSTS:
            self.standin._violation(
                f"the bot tried to reach {host}:{port}, which is not Discord", f"DNS {host}"
            )
            raise OSError(f"stand-in: {host} is not a Discord host")
        return [
            {
                "hostname": host,
                "host": "127.0.0.1",
                "port": self.standin.port,
                "family": socket.AF_INET,
                "proto": 0,
                "flags": socket.AI_NUMERICHOST,
            }
        ]

    async def close(self) -> None:
        pass


def members_news(thread: Channel, **change: object) -> dict[str, object]:
    """A ``THREAD_MEMBERS_UPDATE`` about ``thread``, with its ``added_members`` or
    ``removed_member_ids``."""
    assert thread.guild is not None
    return {
        "id": str(thread.id),
        "guild_id": str(thread.guild.id),
        "member_count": len(thread.thread_members),
        **change,
    }


def violation_number(record: logging.LogRecord) -> int | None:
    """The stand-in violation whose answer raised the exception logged in ``record``, if any."""
    exc = record.exc_info[1] if record.exc_info else None
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        response = getattr(exc, "response", None)
        number = getattr(response, "headers", {}).get("X-Standin-Violation") if response is not None else None
        if number is not None:
            return int(number)
        exc = exc.__cause__ or getattr(exc, "original", None) or exc.__context__
    return None


class _ApiError(Exception):
    def __init__(self, status: int, body: dict, violation: Violation | None = None):
        self.status, self.body, self.violation = status, body, violation


class _RateLimited(Exception):
    """A handler's own rate limit (renames, daily command creates): answered with a 429."""

    def __init__(self, decision: ratelimits.Decision, code: int | None = None, message: str | None = None):
        self.decision, self.code, self.message = decision, code, message


class _LogHandler(logging.Handler):
    def __init__(self, standin: StandIn):
        super().__init__(logging.ERROR)
        self.standin = standin

    def emit(self, record: logging.LogRecord) -> None:
        self.standin._client_error(record)


@dataclass
class _RequestState:
    """What the stand-in knows about the request it is serving (one per request task)."""

    label: str
    body: tuple[dict, list] | None = None
    schema_problems: list = field(default_factory=list)
    checked: bool = False  # the handler ran its checks (``_reject``)


_current_request: contextvars.ContextVar[_RequestState] = contextvars.ContextVar("standin_request")


@dataclass
class _Route:
    method: str
    template: str
    regex: re.Pattern
    handler: Callable
    auth: bool = True


# -- the stand-in ------------------------------------------------------------------------------------


class StandIn:
    """Discord on 127.0.0.1: REST, gateway and CDN, one guild, users the test adds.

    ``interaction_timeout``: seconds the bot has to answer an interaction (Discord: 3).
    ``wait_timeout``: how long helpers wait for the bot before failing the test: a bound on a
    hang, not a deadline the bot must meet (Discord sets none after the first answer), so long
    that a loaded machine never reaches it for work that ends (:data:`WAIT_SECONDS`).
    """

    def __init__(
        self,
        *,
        interaction_timeout: float = 3.0,
        wait_timeout: float = WAIT_SECONDS,
        file_size_limit: int = limits.DEFAULT_FILE_SIZE,
        guild_name: str = "Pukllay Test",
        channels: Iterable[str] = ("general", "games"),
        thread: str | None = "game-thread",
        watch_loggers: Iterable[str] = ("discord",),
        openapi: bool = True,
        rate_limits: bool = True,
        route_limits: dict[str, ratelimits.RouteLimit] | None = None,
        user_pace: float = 2.0,
        clock: ratelimits.Clock | None = None,
        user_install: bool = False,
        nonce_window: float = NONCE_WINDOW,
    ):
        self.interaction_timeout = interaction_timeout
        self.openapi = openapi  # check requests and answers against Discord's OpenAPI description
        self._spec = spec_module.spec() if openapi else None
        self.clock = clock or ratelimits.Clock()  # Discord's time for rate limits (see ratelimits.py)
        # The world's time as Discord's servers read it: scheduled events are checked against it
        # (a start in the future, external events starting and ending on time).  A test whose bot
        # runs on a manual clock hands that clock's ``time`` here.
        self.wall: Callable[[], float] = time.time
        self.user_pace = user_pace  # seconds the clock moves on each time a test user acts
        # enforce_nonce: (author id, nonce) -> when (self.clock) the message with it was created, and it
        self.nonce_window = nonce_window
        self._nonces: dict[tuple[int, str], tuple[float, Message]] = {}
        self.ratelimits = ratelimits.RateLimiter(self.clock, route_limits) if rate_limits else None
        self._held_until = 0.0  # loop time until which the client holds rate-limited requests back
        # The app is installed to the server; with user_install, every test user has installed it too.
        self.installations = {GUILD_INSTALL, USER_INSTALL} if user_install else {GUILD_INSTALL}
        self.dm_channels: dict[frozenset[int], Channel] = {}
        self.wait_timeout = wait_timeout
        self.file_size_limit = file_size_limit
        self.watch_loggers = tuple(watch_loggers)
        self.token = "standin." + secrets.token_urlsafe(24)
        self.bot_user = User(snowflake(), "pukllay", bot=True)
        self.application_id = self.bot_user.id
        owner = User(snowflake(), "owner")
        gid = snowflake()
        self.users: dict[int, User] = {owner.id: owner, self.bot_user.id: self.bot_user}
        self.guilds: list[Guild] = []
        self.guild = self._new_guild(gid, guild_name, owner, channels, thread)
        self.bot_role = self.guild.role("Pukllay")

        self.messages_by_id: dict[int, Message] = {}
        self._channel_messages: dict[int, list[Message]] = {}
        self._handed_out: dict[int, set[int]] = {}
        self.attachments: dict[int, Attachment] = {}
        self.interactions: dict[int, Interaction] = {}
        self.commands: dict[int | None, list[dict]] = {}  # guild id (None: global) -> commands with ids
        self.syncs = 0
        self.resumes = 0
        self.identifies = 0  # IDENTIFY payloads accepted
        self.injections: list[Injection] = []
        self.holds: list[Hold] = []
        self.requests: list[str] = []  # "METHOD /path" of every REST request, in order
        self.unknown_routes: list[str] = []
        self.violations: list[Violation] = []
        self.client_errors: list[ClientError] = []
        self.client_stops: list[ClientStopped] = []
        self.stats: dict[str, list[float]] = {"ready": [], "response": []}

        self._waiters: list[asyncio.Future] = []
        self._conns: list[_GatewayConnection] = []  # identified gateway sessions, oldest first
        self._sending: set[asyncio.Future] = set()  # gateway events on their way (see _spawn)
        self._session_shards: dict[str, tuple[int, int]] = {}  # session id -> shard, for RESUME
        self._runner: web.AppRunner | None = None
        self._site: web.TCPSite | None = None  # None while refusing connections
        self._log_handler = _LogHandler(self)
        self._run_started_syncs = 0
        self._violation_numbers = 0
        self._ca_file: str | None = None
        self.port = 0
        self._routes = self._build_routes()

    # -- lifecycle ---------------------------------------------------------------------------------

    async def __aenter__(self) -> StandIn:
        await self.start()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.stop()

    async def start(self) -> None:
        server_ctx = _server_context()
        app = web.Application(client_max_size=self.file_size_limit * (limits.FILES + 1) + (1 << 20))
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0, ssl_context=server_ctx)
        await site.start()
        self._site = site
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        for name in self.watch_loggers:
            logging.getLogger(name).addHandler(self._log_handler)

    async def stop(self) -> None:
        if self._ca_file is not None:
            with contextlib.suppress(OSError):
                os.unlink(self._ca_file)
            self._ca_file = None
        for name in self.watch_loggers:
            logging.getLogger(name).removeHandler(self._log_handler)
        for conn in list(self._conns):
            with contextlib.suppress(Exception):
                await conn.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
            self._site = None

    async def refuse_connections(self) -> None:
        """Stop listening, as when the network or Discord is down: a client's new connections are
        refused by the system (``ECONNREFUSED``, before any TLS or HTTP), as a real outage's would be.
        Connections already open are left as they are.  :meth:`accept_connections` listens again."""
        if self._site is not None:
            await self._site.stop()
            self._site = None

    async def accept_connections(self) -> None:
        """Listen again, on the same port, after :meth:`refuse_connections`."""
        if self._site is None and self._runner is not None:
            site = web.TCPSite(self._runner, "127.0.0.1", self.port, ssl_context=_server_context())
            await site.start()
            self._site = site

    def connector(self) -> aiohttp.TCPConnector:
        """An aiohttp connector that reaches Discord's hosts on this stand-in and no other host."""
        return aiohttp.TCPConnector(resolver=_Resolver(self), ssl=_client_context(), use_dns_cache=False)

    def child_command(self, factory: str) -> tuple[list[str], dict[str, str]]:
        """The command line and extra environment that run a client built by ``factory``
        (``"module:function"``, called with the connector) in another process, against this
        stand-in (see launch.py)."""
        if self._ca_file is None:
            handle = tempfile.NamedTemporaryFile(prefix="standin-ca-", suffix=".pem", delete=False)
            handle.close()
            _certificates()[0].cert_pem.write_to_path(handle.name)
            self._ca_file = handle.name
        argv = [sys.executable, "-m", "tests.standin.launch", str(self.port), self._ca_file, factory]
        return argv, {"STANDIN_TOKEN": self.token}

    def client_options(self) -> dict[str, Any]:
        """Keyword arguments for ``discord.Client``: the connector and a short ``guild_ready_timeout``."""
        return {"connector": self.connector(), "guild_ready_timeout": 0.01}

    @contextlib.asynccontextmanager
    async def run_client(
        self, make_client: Callable[..., Any], *, ready_timeout: float | None = None
    ) -> AsyncIterator[Any]:
        """Start a client built by ``make_client(connector)``, wait for READY, yield it, then close it.

        Pass ``guild_ready_timeout=0.01`` to the client (discord.py otherwise waits 2 s before READY).
        The stand-in keeps its state between runs, so a second run is a restart.
        """
        connector = self.connector()
        client = make_client(connector)
        if inspect.isawaitable(client):
            client = await client
        slow = getattr(getattr(client, "_connection", None), "guild_ready_timeout", 0)
        if slow and slow > 0.5:
            log.warning(
                "the client waits guild_ready_timeout=%s s before READY; pass guild_ready_timeout=0.01", slow
            )
        started = time.perf_counter()
        self._run_started_syncs = self.syncs
        self._conns = [c for c in self._conns if not c.ws.closed]
        identified_before = self.identifies
        task = asyncio.create_task(client.start(self.token), name="standin-client")
        closing = ready = False

        def stopped(t: asyncio.Task) -> None:
            if closing or not ready:  # before READY, _until_ready reports it
                return
            exc = None if t.cancelled() else t.exception()
            self.client_stops.append(
                ClientStopped(f"the client stopped while the test was using it: {exc!r}")
            )
            self._changed()

        task.add_done_callback(stopped)
        try:
            await self._until_ready(
                client, task, ready_timeout or max(self.wait_timeout, READY_WAIT), identified_before
            )
            ready = True
            self.stats["ready"].append(time.perf_counter() - started)
            yield client
        finally:
            closing = True
            await client.close()
            await asyncio.wait({task}, timeout=5)
            if not task.done():
                task.cancel()
            elif not task.cancelled():
                task.exception()  # a crash was already reported (ClientStopped, or before READY)

    async def _until_ready(self, client: Any, task: asyncio.Task, timeout: float, before: int) -> None:  # noqa: ASYNC109
        async def ready() -> None:
            await self.wait_for(
                lambda: self.identifies > before,
                timeout=timeout,
                what="the client to IDENTIFY",
            )
            await client.wait_until_ready()

        waiter = asyncio.ensure_future(ready())
        done, _ = await asyncio.wait({waiter, task}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if waiter in done:
            waiter.result()
            return
        waiter.cancel()
        if task in done:
            exc = task.exception()
            raise StandInError(f"the client stopped before READY: {exc!r}") from exc
        raise StandInTimeout(f"the client was not READY after {timeout} s")

    # -- gateway sessions and shards ---------------------------------------------------------------

    @property
    def _conn(self) -> _GatewayConnection | None:
        """The gateway session of the first guild's shard (the one a single client test talks
        to), whether or not the bot is still in that guild."""
        return self._shard_conn(self.guild)

    def _conn_for_guild(self, guild: Guild | None) -> _GatewayConnection | None:
        """The newest identified session whose shard serves ``guild`` (None: DMs, shard 0), the
        one its events go to; None for a guild the bot is not in (removed: see :meth:`remove_bot`).

        Discord lets several sessions identify with the same shard; it does not document how
        it splits events between them, so the stand-in sends each event to one of them, the newest.
        """
        if guild is not None and not self.bot_in(guild):
            return None
        return self._shard_conn(guild)

    def bot_in(self, guild: Guild) -> bool:
        """Whether the bot is a member of ``guild`` (not removed from it: see :meth:`remove_bot`)."""
        return self.bot_user.id in guild.members

    def _shard_conn(self, guild: Guild | None) -> _GatewayConnection | None:
        for conn in reversed(self._conns):
            if conn.identified.is_set() and not conn.ws.closed and conn.serves(guild):
                return conn
        return None

    def _conn_for(self, channel: Channel) -> _GatewayConnection | None:
        return self._conn_for_guild(None if channel.is_dm else channel.guild)

    @staticmethod
    def shard_of(guild: Guild, shard_count: int) -> int:
        """The shard that gets ``guild``'s events: ``(guild_id >> 22) % shard_count``."""
        return (guild.id >> 22) % shard_count

    def shards_connected(self) -> set[tuple[int, int]]:
        """The ``[shard_id, num_shards]`` of every identified gateway session."""
        return {c.shard for c in self._conns if c.identified.is_set() and not c.ws.closed}

    async def wait_shards(self, *shards: tuple[int, int], timeout: float | None = None) -> None:  # noqa: ASYNC109
        """Wait until a session has identified for each of ``shards`` (``(shard_id, num_shards)``);
        like a client's READY, at most :data:`READY_WAIT` unless told otherwise."""
        await self.wait_for(
            lambda: set(shards) <= self.shards_connected(),
            timeout=max(self.wait_timeout, READY_WAIT) if timeout is None else timeout,
            what=f"gateway sessions for shards {sorted(shards)} (have {sorted(self.shards_connected())})",
        )

    # -- users, roles, channels --------------------------------------------------------------------

    def _new_guild(
        self, gid: int, name: str, owner: User, channels: Iterable[str], thread: str | None
    ) -> Guild:
        guild = Guild(gid, name, owner)
        guild.roles.append(Role(gid, "@everyone", DEFAULT_EVERYONE))
        bot_role = Role(snowflake(), "Pukllay", BOT_PERMISSIONS, position=1, managed=True)
        guild.roles.append(bot_role)
        for u, roles in ((owner, []), (self.bot_user, [bot_role])):
            guild.members[u.id] = Member(u, list(roles))
        for pos, channel_name in enumerate(channels):
            guild.channels.append(Channel(snowflake(), channel_name, guild, 0, pos))
        if thread and guild.channels:
            parent = guild.channels[0]
            guild.channels.append(Channel(snowflake(), thread, guild, 11, 0, parent.id, owner.id))
        self.guilds.append(guild)
        return guild

    def add_guild(
        self,
        name: str,
        *,
        channels: Iterable[str] = ("general", "games"),
        thread: str | None = None,
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """Another guild the bot is in (owned by the first guild's owner).  With ``shard``
        (``(shard_id, num_shards)``), its id is chosen so that Discord's formula sends its events to
        that shard.  A connected session of its shard gets GUILD_CREATE, as when the bot joins."""
        gid = snowflake()
        if shard is not None:
            shard_id, count = shard
            while (gid >> 22) % count != shard_id:
                gid = snowflake()
        guild = self._new_guild(gid, name, self.guild.owner, channels, thread)
        self._joined(guild)
        return guild

    def _joined(self, guild: Guild) -> None:
        """The bot joined ``guild``: its session serving it gets GUILD_CREATE, without the
        ``unavailable`` field (present, false, it says a guild the bot is in became available,
        which discord.py tells as ``on_guild_available``, not ``on_guild_join``)."""
        conn = self._conn_for_guild(guild)
        if conn is not None:
            payload = guild.payload(self.bot_user)
            del payload["unavailable"]
            self._spawn(conn.dispatch("GUILD_CREATE", payload))
        self._changed()

    def guild_by_id(self, guild_id: str | int) -> Guild | None:
        return next((g for g in self.guilds if str(g.id) == str(guild_id)), None)

    def add_users(self, *names: str, roles: Iterable[Role] = (), guild: Guild | None = None) -> list[User]:
        """Add members to the guild (the first one unless ``guild`` is given); announced with
        GUILD_MEMBER_ADD to the session serving it, if it asked for the members intent."""
        out = []
        for name in names:
            u = User(snowflake(), name)
            self.users[u.id] = u
            out.append(u)
            self.join(u, guild or self.guild, roles=roles)
        return out

    def join(self, user: User, guild: Guild, *, roles: Iterable[Role] = ()) -> None:
        """``user`` joins ``guild`` too."""
        member = Member(user, list(roles))
        guild.members[user.id] = member
        conn = self._conn_for_guild(guild)
        if conn is not None and conn.intents & INTENT_GUILD_MEMBERS:
            self._spawn(conn.dispatch("GUILD_MEMBER_ADD", {**member.payload(), "guild_id": str(guild.id)}))

    def remove_bot(self, guild: Guild) -> None:
        """An admin removes the bot from ``guild`` (a kick, or the app taken out of the server): its
        session serving the guild gets GUILD_DELETE without ``unavailable`` (a removal, not an
        outage), and from then on nothing of the guild reaches it: no event, and every request on
        the guild or its channels is answered 403 Missing Access (50001), as Discord answers a bot
        outside a server (a bot that has not read the event yet, or was removed while it was not
        running, is not at fault: no violation).  The application's commands registered in that
        guild go with it (an application invited again has none there until it registers them
        again: discordjs/discord.js#10321, "expected behaviour"); its managed role stays here, so
        that :meth:`invite_bot` gives it back."""
        conn = self._conn_for_guild(guild)
        guild.members.pop(self.bot_user.id, None)
        self.commands.pop(guild.id, None)
        if conn is not None:
            self._spawn(conn.dispatch("GUILD_DELETE", {"id": str(guild.id)}))
        self._changed()

    def invite_bot(self, guild: Guild) -> None:
        """An admin invites the removed bot to ``guild`` again: it is a member once more, with its
        managed role, and its session serving the guild gets GUILD_CREATE, as at a first invitation.
        Its global commands reach the guild's members again; its guild commands are not there until
        it registers them."""
        role = next(r for r in guild.roles if r.managed)
        guild.members[self.bot_user.id] = Member(self.bot_user, [role])
        self._joined(guild)

    def leave(self, user: User, guild: Guild) -> None:
        """``user`` leaves ``guild`` (announced with GUILD_MEMBER_REMOVE, with the members intent)."""
        guild.members.pop(user.id, None)
        conn = self._conn_for_guild(guild)
        if conn is not None and conn.intents & INTENT_GUILD_MEMBERS:
            self._spawn(
                conn.dispatch("GUILD_MEMBER_REMOVE", {"guild_id": str(guild.id), "user": user.payload()})
            )
        self._changed()

    def add_user(self, name: str, **kw: Any) -> User:
        return self.add_users(name, **kw)[0]

    def add_role(
        self, name: str, permissions: int = 0, *, guild: Guild | None = None, mentionable: bool = False
    ) -> Role:
        guild = guild or self.guild
        role = Role(snowflake(), name, permissions, position=len(guild.roles), mentionable=mentionable)
        guild.roles.append(role)
        return role

    @property
    def owner(self) -> User:
        return self.guild.owner

    def channel(self, name_or_id: str | int) -> Channel:
        """A server channel or thread by name (in the first guild) or id (in any guild, or a DM)."""
        for dm in self.dm_channels.values():
            if dm.id == name_or_id:
                return dm
        try:
            return self.guild.channel(name_or_id)
        except KeyError:
            for guild in self.guilds[1:]:
                if any(c.id == name_or_id for c in guild.channels):
                    return guild.channel(name_or_id)
            raise

    def dm(self, user: User, other: User | None = None) -> Channel:
        """The direct-message channel between ``user`` and the bot (or ``other``), opened if need be.

        A command used in the bot's DM has context 1 (BOT_DM); in a DM between two users, context 2
        (PRIVATE_CHANNEL), where Discord offers only the commands of an app the user installed.
        """
        other = other or self.bot_user
        key = frozenset({user.id, other.id})
        if key not in self.dm_channels:
            self.dm_channels[key] = Channel(
                snowflake(), f"dm-{user.name}-{other.name}", None, 1, members=(user, other)
            )
        return self.dm_channels[key]

    def close_dms(self, user: User, closed: bool = True) -> None:
        """``user`` stops accepting direct messages from the bot (Discord answers 50007)."""
        user.dms_open = not closed

    # -- reading what the bot did ------------------------------------------------------------------

    def messages(
        self,
        channel: Channel,
        *,
        visible_to: User | None = None,
        include_deleted: bool = False,
        author: User | None = None,
    ) -> list[Message]:
        """Messages in ``channel`` in order (ephemeral ones included unless ``visible_to`` excludes them)."""
        out = []
        for m in self._channel_messages.get(channel.id, []):
            if m.deleted and not include_deleted:
                continue
            if visible_to is not None and not m.visible(visible_to):
                continue
            if author is not None and m.author is not author:
                continue
            out.append(m)
        return out

    def message(self, message_id: int) -> Message:
        return self.messages_by_id[message_id]

    async def next_message(
        self,
        channel: Channel,
        predicate: Callable[[Message], bool] | None = None,
        *,
        visible_to: User | None = None,
        timeout: float | None = None,  # noqa: ASYNC109
    ) -> Message:
        """The oldest message in ``channel`` not yet handed out by this method that matches ``predicate``.

        Each message is handed out once; messages still loading (a deferred answer) wait until they are
        filled in.  ``visible_to`` restricts the search to what that user can see.
        """
        seen = self._handed_out.setdefault(channel.id, set())

        def find() -> Message | None:
            for m in self._channel_messages.get(channel.id, []):
                if m.id in seen or m.deleted or m.loading:
                    continue
                if visible_to is not None and not m.visible(visible_to):
                    continue
                if predicate is None or predicate(m):
                    seen.add(m.id)
                    return m
            return None

        return await self.wait_for(find, timeout=timeout, what=f"a new message in #{channel.name}")

    def skip_messages(self, channel: Channel) -> None:
        """Mark everything already in ``channel`` as handed out, so ``next_message`` only sees new ones."""
        self._handed_out.setdefault(channel.id, set()).update(
            m.id for m in self._channel_messages.get(channel.id, [])
        )

    def set_permissions(
        self, channel: Channel, target: User | Role, *, allow: int = 0, deny: int = 0
    ) -> None:
        """Set a permission overwrite on ``channel`` for a role or member (CHANNEL_UPDATE tells the bot)."""
        kind = 0 if isinstance(target, Role) else 1
        channel.overwrites[target.id] = (kind, allow, deny)
        conn = self._conn_for(channel)
        if conn is not None:
            self._spawn(conn.dispatch("CHANNEL_UPDATE", channel.payload()))
        self._changed()

    async def settle(self, *, timeout: float | None = None) -> None:  # noqa: ASYNC109
        """Wait until the client has processed every gateway event sent so far.

        The stand-in asks for a heartbeat (op 1); discord.py answers it, with the last sequence number
        it handled, only after parsing the events before it.  Use it before asserting on the client's
        cache (after ``add_users``, ``set_permissions``, a thread the bot opened...).  discord.py lets
        itself send about 110 gateway messages a minute, so do not call it in a tight loop.
        """
        conn = self._conn
        if conn is None:
            raise UsageError("no client is connected")
        if self._sending:  # events a test's action set on their way, not sent yet
            await asyncio.wait(list(self._sending))
        target = conn.seq
        await conn.send(1)
        await self.wait_for(
            lambda: conn.processed >= target or conn.ws.closed,
            timeout=timeout,
            what=f"the client to process gateway events up to {target}",
        )

    async def disconnect(self, code: int = 4000) -> None:
        """Close the gateway from Discord's side.  discord.py resumes after 4000 (or 1001, 1006) and
        gives up after 4004 (authentication failed), 4013/4014 (bad or disallowed intents)."""
        conn = self._conn
        if conn is None:
            raise UsageError("no client is connected")
        self._conns.remove(conn)
        await conn.ws.close(code=code)
        self._changed()

    async def wait_connected(self, *, timeout: float | None = None) -> None:  # noqa: ASYNC109
        """Wait until a client has identified (or resumed) on the gateway."""
        await self.wait_for(
            lambda: self._conn is not None and self._conn.identified.is_set(),
            timeout=timeout,
            what="the client to connect to the gateway",
        )

    async def delete(self, message: Message) -> None:
        """Someone (a user or a moderator) deletes ``message``; MESSAGE_DELETE reaches the bot."""
        self.clock.advance(self.user_pace)
        self._delete_message(message)

    def command(self, name: str, guild: bool | None = None, *, server: Guild | None = None) -> dict:
        """The synced command called ``name`` (the guild's commands first; ``server``: which guild,
        the first by default)."""
        gid = (server or self.guild).id
        scopes = [gid, None] if guild is None else [gid if guild else None]
        for scope in scopes:
            for c in self.commands.get(scope, []):
                if c["name"] == name and c.get("type", 1) == 1:
                    return c
        known = sorted({c["name"] for cs in self.commands.values() for c in cs})
        raise UsageError(f"no synced command /{name}; synced: {known}")

    async def wait_synced(self, *, timeout: float | None = None) -> None:  # noqa: ASYNC109
        """Wait until the current client has synced its commands (PUT .../commands)."""
        await self.wait_for(
            lambda: self.syncs > self._run_started_syncs,
            timeout=timeout,
            what="the bot to sync its application commands",
        )

    # -- waiting -----------------------------------------------------------------------------------

    def _changed(self) -> None:
        waiters, self._waiters = self._waiters, []
        for f in waiters:
            if not f.done():
                f.set_result(None)

    def _error_reported(self, e: ClientError) -> bool:
        if e.reported:
            return True
        number = getattr(e.record, "standin_violation", None)
        if number is not None and any(v.number == number and v.reported for v in self.violations):
            e.reported = True  # a consequence of a violation the test already heard about
            e.record.standin_reported = True  # type: ignore[attr-defined]
        return e.reported

    def _pending_failure(self) -> StandInError | None:
        for v in self.violations:
            if not v.reported:
                return v
        for e in self.client_errors:
            if not self._error_reported(e):
                return e
        for c in self.client_stops:
            if not c.reported:
                return c
        return None

    def raise_failures(self) -> None:
        """Raise the first violation or client error not yet reported to the test."""
        failure = self._pending_failure()
        if failure is not None:
            failure.reported = True
            if isinstance(failure, ClientError):
                failure.record.standin_reported = True  # type: ignore[attr-defined]
            raise failure

    async def wait_for(
        self,
        predicate: Callable[[], Any],
        *,
        timeout: float | None = None,  # noqa: ASYNC109
        what: str = "a condition",
    ) -> Any:
        """Wait until ``predicate()`` is truthy and return its value.

        The predicate is checked again whenever the stand-in's state changes (a request, a gateway
        message); for the client's own cache, ``await settle()`` first.  Fails at once with the reason
        if the bot breaks a rule or discord.py logs an error meanwhile.
        """
        loop = asyncio.get_running_loop()
        timeout = self.wait_timeout if timeout is None else timeout
        deadline = loop.time() + timeout
        while True:
            self.raise_failures()
            value = predicate()
            if value:
                return value
            # While discord.py sleeps on a rate limit the stand-in told it of, the wait is extended.
            remaining = max(deadline, self._held_until + timeout) - loop.time()
            if remaining <= 0:
                raise StandInTimeout(f"timed out after {timeout} s waiting for {what}")
            fut = loop.create_future()
            self._waiters.append(fut)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(fut, remaining)

    def _violation(self, reason: str, route: str = "", status: int = 400) -> Violation:
        self._violation_numbers += 1
        v = Violation(reason, route, number=self._violation_numbers, status=status)
        self.violations.append(v)
        log.info("violation: %s", v)
        self._changed()
        return v

    def _client_error(self, record: logging.LogRecord) -> None:
        error = ClientError(record)
        number = violation_number(record)
        if number is not None:
            # An exception caused by the answer to a violation the test already heard about is not news.
            record.standin_violation = number  # type: ignore[attr-defined]
            if any(v.number == number and v.reported for v in self.violations):
                error.reported = True
                record.standin_reported = True  # type: ignore[attr-defined]
        self.client_errors.append(error)
        self._changed()

    def violation_reported(self, number: int) -> bool:
        return any(v.number == number and v.reported for v in self.violations)

    async def next_violation(self, match: str | None = None, *, timeout: float | None = None) -> Violation:  # noqa: ASYNC109
        """Wait for the bot to break a rule; return that violation (marked reported) if it matches."""
        try:
            await self.wait_for(lambda: False, timeout=timeout, what=f"a violation matching {match!r}")
        except Violation as v:
            if match is not None and not re.search(match, v.reason):
                raise
            return v
        raise AssertionError("unreachable")

    def expect_violation(self, match: str | None = None) -> Violation:
        """Take (and mark reported) the first unreported violation, checking its reason matches."""
        for v in self.violations:
            if not v.reported:
                if match is not None and not re.search(match, v.reason):
                    raise AssertionError(f"violation {v.reason!r} does not match {match!r}")
                v.reported = True
                return v
        raise AssertionError(f"no violation recorded (expected one matching {match!r})")

    def unreported_failures(self) -> list[StandInError]:
        return (
            [v for v in self.violations if not v.reported]
            + [e for e in self.client_errors if not self._error_reported(e)]
            + [c for c in self.client_stops if not c.reported]
        )

    # -- misbehaviour ------------------------------------------------------------------------------

    def inject(
        self,
        pattern: str,
        *,
        status: int = 429,
        times: int = 1,
        retry_after: float = 0.05,
        is_global: bool = False,
    ) -> Injection:
        """Answer the next ``times`` requests matching ``pattern`` with ``status`` (429 or 5xx).

        ``pattern`` is an fnmatch pattern over ``"METHOD /path"`` (without ``/api/v10``) or over the route
        template, e.g. ``"POST /channels/*/messages"`` or ``"POST /interactions/{interaction_id}/{interaction_token}/callback"``.
        """
        inj = Injection(pattern, status, times, retry_after, is_global)
        self.injections.append(inj)
        return inj

    def hold(self, pattern: str) -> Hold:
        """Carry out the next request matching ``pattern`` (as :meth:`inject` matches) and hold its
        answer back until the hold is released."""
        held = Hold(pattern)
        self.holds.append(held)
        return held

    # -- raw HTTP, for requests discord.py would not send ------------------------------------------

    async def http(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        files: Iterable[tuple[str, bytes]] = (),
        auth: bool = True,
    ) -> RawResponse:
        """Send one request to the REST API as a client would (``path`` without ``/api/v10``).

        ``body`` is sent as JSON; with ``files``, the request is multipart (``payload_json``, ``files[n]``).  Returns the status,
        the headers and the decoded JSON body.  Use it for requests discord.py refuses to build.
        """
        headers = {"Authorization": f"Bot {self.token}"} if auth else {}
        kwargs: dict[str, Any] = {}
        files = list(files)
        if files:
            form = aiohttp.FormData()
            form.add_field("payload_json", json.dumps(body or {}), content_type="application/json")
            for n, (name, blob) in enumerate(files):
                form.add_field(f"files[{n}]", blob, filename=name, content_type="application/octet-stream")
            kwargs["data"] = form
        elif body is not None:
            kwargs["json"] = body
        url = f"https://{API_HOST}{API_PREFIX}{path}"
        async with (
            aiohttp.ClientSession(connector=self.connector()) as session,
            session.request(method, url, headers=headers, **kwargs) as response,
        ):
            text = await response.text()
            return RawResponse(response.status, dict(response.headers), json.loads(text) if text else None)

    # -- acting as users ---------------------------------------------------------------------------

    async def slash(
        self,
        user: User,
        channel: Channel,
        path: str,
        /,
        options: dict[str, Any] | None = None,
        *,
        wait: bool = True,
        **kwargs: Any,
    ) -> InteractionResult:
        """``user`` runs ``/path`` (``"game join"`` for a subcommand) in ``channel`` with the options given."""
        opts = {**(options or {}), **kwargs}
        data = self._command_data(user, channel, path, opts, focused=None)
        return await self._interact(2, user, channel, data, label=f"/{path}", wait=wait)

    async def autocomplete(
        self,
        user: User,
        channel: Channel,
        path: str,
        focused: str,
        /,
        options: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> list[dict]:
        """``user`` types into option ``focused`` of ``/path``; returns the choices the bot offered."""
        opts = {**(options or {}), **kwargs}
        opts.setdefault(focused, "")
        data = self._command_data(user, channel, path, opts, focused=focused)
        r = await self._interact(4, user, channel, data, label=f"autocomplete /{path} {focused}")
        return list(r.choices or [])

    async def click(
        self, user: User, message: Message, target: str, *, wait: bool = True
    ) -> InteractionResult:
        """``user`` clicks the button with custom_id (or label) ``target`` on ``message``."""
        comp = self._usable_component(user, message, target, (2,))
        if comp.get("style") == 5:
            raise UsageError(f"button {target!r} is a link button; clicking it opens {comp.get('url')}")
        data = {"custom_id": comp["custom_id"], "component_type": 2}
        return await self._interact(
            3,
            user,
            message.channel,
            data,
            message=message,
            label=f"click {comp.get('label') or comp['custom_id']!r}",
            wait=wait,
        )

    async def select(
        self, user: User, message: Message, target: str, values: list[Any], *, wait: bool = True
    ) -> InteractionResult:
        """``user`` picks ``values`` in the select menu with custom_id (or placeholder) ``target``."""
        comp = self._usable_component(user, message, target, (3, 5, 6, 7, 8))
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise UsageError(f"select {target!r} takes {lo} to {hi} values, not {len(values)}")
        data: dict[str, Any] = {"custom_id": comp["custom_id"], "component_type": comp["type"]}
        if comp["type"] == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise UsageError(f"select {target!r} offers {allowed}, not {bad}")
            data["values"] = list(values)
        else:
            data["values"] = [str(v.id) for v in values]
            data["resolved"] = self._resolved(values, message.channel)
        return await self._interact(
            3,
            user,
            message.channel,
            data,
            message=message,
            label=f"select {comp['custom_id']!r} {values}",
            wait=wait,
        )

    async def modal_submit(
        self,
        user: User,
        opened: InteractionResult | Interaction,
        values: dict[str, Any],
        *,
        wait: bool = True,
    ) -> InteractionResult:
        """``user`` fills in the modal the bot opened in answer to ``opened`` and submits it."""
        parent = opened.interaction if isinstance(opened, InteractionResult) else opened
        modal = parent.modal
        if modal is None:
            raise UsageError(f"{parent.label} was not answered with a modal")
        if user is not parent.user:
            raise UsageError("only the user who opened a modal can submit it")
        values = dict(values)

        def fill(comp: dict) -> dict | None:
            t = comp.get("type")
            if t == 1:
                return {"type": 1, "components": [x for x in map(fill, comp.get("components", [])) if x]}
            if t == 18:
                inner = fill(comp["component"])
                return {"type": 18, "id": comp.get("id"), "component": inner}
            if t == 4:
                cid = comp["custom_id"]
                value = values.pop(cid, comp.get("value") or "")
                if comp.get("required", True) and not value:
                    raise UsageError(f"text input {cid!r} is required")
                lo, hi = comp.get("min_length", 0) or 0, comp.get("max_length", 4000) or 4000
                if value and not lo <= len(value) <= hi:
                    raise UsageError(f"text input {cid!r} takes {lo} to {hi} characters, not {len(value)}")
                return {"type": 4, "custom_id": cid, "value": value}
            if t in (3, 5, 6, 7, 8):
                cid = comp["custom_id"]
                chosen = list(values.pop(cid, []))
                lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
                if comp.get("required", True) and not lo <= len(chosen) <= hi or len(chosen) > hi:
                    raise UsageError(f"select {cid!r} takes {lo} to {hi} values, not {len(chosen)}")
                if t == 3:
                    allowed = [o["value"] for o in comp.get("options", [])]
                    if any(v not in allowed for v in chosen):
                        raise UsageError(f"select {cid!r} offers {allowed}, not {chosen}")
                return {"type": t, "custom_id": cid, "values": [str(getattr(v, "id", v)) for v in chosen]}
            return None

        components = [x for x in map(fill, modal.get("components", [])) if x]
        if values:
            raise UsageError(f"the modal has no inputs {sorted(values)}")
        data = {"custom_id": modal["custom_id"], "components": components}
        return await self._interact(
            5,
            user,
            parent.channel,
            data,
            message=parent.message,
            parent=parent,
            label=f"modal {modal['custom_id']!r}",
            wait=wait,
        )

    async def say(self, user: User, channel: Channel, content: str) -> Message:
        """``user`` posts a plain message (MESSAGE_CREATE reaches the bot if it asked for the intent)."""
        self.clock.advance(self.user_pace)
        msg = self._store_message(channel, user, {"content": content}, [])
        return msg

    # -- building interactions ---------------------------------------------------------------------

    def _usable_component(self, user: User, message: Message, target: str, types: tuple[int, ...]) -> dict:
        if message.deleted:
            raise UsageError(f"message {message.id} was deleted")
        if not message.visible(user):
            raise UsageError(f"{user.name} cannot see ephemeral message {message.id}")
        try:
            comp = message.component(target, types=types)
        except LookupError as e:
            raise UsageError(str(e)) from None
        if comp.get("disabled"):
            raise UsageError(f"component {target!r} on message {message.id} is disabled")
        return comp

    def _command_data(
        self, user: User, channel: Channel, path: str, opts: dict[str, Any], focused: str | None
    ) -> dict:
        parts = path.strip().lstrip("/").split()
        context = self._context(user, channel)
        if context == GUILD_CONTEXT:
            cmd = self.command(parts[0], server=channel.guild)
        else:  # the global command; a server command of that name is refused just below
            try:
                cmd = self.command(parts[0], guild=False)
            except UsageError:
                cmd = self.command(parts[0], guild=True)
        offered = self.command_contexts(cmd, user)
        if context not in offered:
            where = ", ".join(CONTEXT_NAMES[c] for c in sorted(offered)) or "nowhere"
            raise UsageError(
                f"Discord does not offer /{parts[0]} in {CONTEXT_NAMES[context]}, only in {where} "
                f"(contexts {cmd.get('contexts')}, integration_types {cmd.get('integration_types')}, "
                f"dm_permission {cmd.get('dm_permission')}{', a server command' if cmd.get('guild_id') else ''})"
            )
        node, chain = cmd, []
        for p in parts[1:]:
            subs = [o for o in node.get("options") or [] if o.get("type") in (1, 2)]
            match = [o for o in subs if o["name"] == p]
            if not match:
                raise UsageError(
                    f"/{path}: {node['name']!r} has no subcommand {p!r}; it has {[s['name'] for s in subs]}"
                )
            node = match[0]
            chain.append(node)
        if any(o.get("type") in (1, 2) for o in node.get("options") or []):
            names = [o["name"] for o in node["options"]]
            raise UsageError(f"/{path} is a group; name one of {names}")
        resolved: dict[str, dict] = {}
        leaf = self._option_values(path, node.get("options") or [], opts, focused, resolved, channel)
        options = leaf
        for sub in reversed(chain):
            options = [{"name": sub["name"], "type": sub["type"], "options": options}]
        data: dict[str, Any] = {"id": str(cmd["id"]), "name": cmd["name"], "type": 1, "options": options}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    def _option_values(
        self,
        path: str,
        schema: list[dict],
        opts: dict[str, Any],
        focused: str | None,
        resolved: dict[str, dict],
        channel: Channel,
    ) -> list[dict]:
        by_name = {o["name"]: o for o in schema}
        unknown = set(opts) - set(by_name)
        if unknown:
            raise UsageError(f"/{path} has no option(s) {sorted(unknown)}; it has {list(by_name)}")
        out = []
        for o in schema:
            name = o["name"]
            if name not in opts:
                if o.get("required") and focused is None:
                    raise UsageError(f"/{path} needs option {name!r}")
                continue
            value = opts[name]
            if name == focused:
                out.append({"name": name, "type": o["type"], "value": str(value), "focused": True})
                continue
            out.append(
                {
                    "name": name,
                    "type": o["type"],
                    "value": self._option_value(path, o, value, resolved, channel),
                }
            )
        return out

    def _option_value(
        self, path: str, o: dict, value: Any, resolved: dict[str, dict], channel: Channel
    ) -> Any:
        t, name = o["type"], o["name"]
        where = f"/{path} option {name!r}"
        if t == 3:
            if not isinstance(value, str):
                raise UsageError(f"{where} takes text, not {value!r}")
            lo, hi = o.get("min_length", 0) or 0, o.get("max_length", 6000) or 6000
            if not lo <= len(value) <= hi:
                raise UsageError(f"{where} takes {lo} to {hi} characters")
        elif t == 4:
            if not isinstance(value, int) or isinstance(value, bool):
                raise UsageError(f"{where} takes an integer, not {value!r}")
        elif t == 10:
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise UsageError(f"{where} takes a number, not {value!r}")
        elif t == 5:
            if not isinstance(value, bool):
                raise UsageError(f"{where} takes true or false, not {value!r}")
        elif t in (6, 7, 8, 9):
            kinds = {6: (User,), 7: (Channel,), 8: (Role,), 9: (User, Role)}[t]
            if not isinstance(value, kinds):
                raise UsageError(f"{where} takes a {'/'.join(k.__name__ for k in kinds)}, not {value!r}")
            if t == 7 and o.get("channel_types") and value.type not in o["channel_types"]:
                raise UsageError(f"{where} takes channels of types {o['channel_types']}")
            for k, v in self._resolved([value], channel).items():
                resolved.setdefault(k, {}).update(v)
            return str(value.id)
        elif t == 11:
            if isinstance(value, tuple):
                filename, blob = value
                value = Attachment(blob, filename=filename, channel_id=0)
            if not isinstance(value, Attachment):
                raise UsageError(f"{where} takes (filename, bytes), not {value!r}")
            self.attachments[value.id] = value
            resolved.setdefault("attachments", {})[str(value.id)] = value.payload()
            return str(value.id)
        if t in (4, 10):
            if "min_value" in o and value < o["min_value"] or "max_value" in o and value > o["max_value"]:
                raise UsageError(f"{where} takes {o.get('min_value')} to {o.get('max_value')}, not {value}")
        if o.get("choices") and value not in [c["value"] for c in o["choices"]]:
            raise UsageError(f"{where} takes one of {[c['value'] for c in o['choices']]}, not {value!r}")
        return value

    def _resolved(self, values: list[Any], channel: Channel | None = None) -> dict[str, dict]:
        channel = channel or self.guild.text_channels[0]
        guild = channel.guild or self.guild
        out: dict[str, dict] = {}
        for v in values:
            if isinstance(v, User):
                out.setdefault("users", {})[str(v.id)] = v.payload()
                member = None if channel.is_dm else guild.members.get(v.id)
                if member is not None:
                    mp = member.payload(guild.channel_permissions_of(v, channel))
                    del mp["user"]
                    out.setdefault("members", {})[str(v.id)] = mp
            elif isinstance(v, Role):
                out.setdefault("roles", {})[str(v.id)] = v.payload()
            elif isinstance(v, Channel):
                out.setdefault("channels", {})[str(v.id)] = {
                    **v.payload(),
                    "permissions": str(guild.everyone.permissions),
                }
        return out

    # -- contexts ----------------------------------------------------------------------------------

    def _context(self, user: User, channel: Channel) -> int:
        if not channel.is_dm:
            return GUILD_CONTEXT
        if user not in channel.members:
            raise UsageError(f"{user.name} is not part of the DM {channel.name}")
        return BOT_DM_CONTEXT if self.bot_user in channel.members else PRIVATE_CHANNEL_CONTEXT

    def command_contexts(self, cmd: dict, user: User) -> set[int]:
        """The interaction contexts in which Discord offers ``cmd`` to ``user``.

        A server command only in its server.  A global command where its ``contexts`` allow (all three
        when null; without the BOT_DM when the old ``dm_permission`` is false), and only where one of its
        ``integration_types`` the app is installed for reaches: installed to the server, in the server
        and in the bot's DM (for a member of the server); installed by the user, everywhere.
        """
        if cmd.get("guild_id"):
            return {GUILD_CONTEXT}
        contexts = cmd.get("contexts")
        allowed = set(contexts) if contexts is not None else {0, 1, 2}
        if contexts is None and cmd.get("dm_permission") is False:
            allowed.discard(BOT_DM_CONTEXT)
        installs = set(cmd.get("integration_types") or [GUILD_INSTALL]) & self.installations
        reach: set[int] = set()
        if GUILD_INSTALL in installs:
            reach.add(GUILD_CONTEXT)
            if any(user.id in g.members and self.bot_in(g) for g in self.guilds):
                reach.add(BOT_DM_CONTEXT)
        if USER_INSTALL in installs:
            reach |= {GUILD_CONTEXT, BOT_DM_CONTEXT, PRIVATE_CHANNEL_CONTEXT}
        return allowed & reach

    def _owners(self, context: int, user: User, channel: Channel) -> dict[str, str]:
        """``authorizing_integration_owners``: the installations the interaction was authorized for."""
        owners: dict[str, str] = {}
        if GUILD_INSTALL in self.installations and context != PRIVATE_CHANNEL_CONTEXT:
            owners["0"] = str(channel.guild.id) if context == GUILD_CONTEXT else "0"
        if USER_INSTALL in self.installations:
            owners["1"] = str(user.id)
        return owners

    def _interaction_payload(self, i: Interaction) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(i.id),
            "application_id": str(self.application_id),
            "type": i.type,
            "data": i.data,
            "channel_id": str(i.channel.id),
            "token": i.token,
            "version": 1,
            "locale": i.user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": dict(i.owners),
            "context": i.context,
            "attachment_size_limit": self.file_size_limit,
        }
        if i.context == GUILD_CONTEXT:
            guild = i.channel.guild
            member = guild.members.get(i.user.id) or Member(i.user)
            payload.update(
                {
                    "guild_id": str(guild.id),
                    "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
                    "guild_locale": guild.locale,
                    "channel": i.channel.payload(),
                    "member": member.payload(guild.channel_permissions_of(i.user, i.channel)),
                    # the parent's, in a private thread the bot was not added to as well (Discord
                    # delivers the command there; the bot's own posts are what it refuses)
                    "app_permissions": str(
                        guild.channel_permissions_of(self.bot_user, i.channel, membership=False)
                    ),
                }
            )
        else:
            perms = BOT_DM_APP_PERMISSIONS if i.context == BOT_DM_CONTEXT else DM_APP_PERMISSIONS
            payload.update(
                {
                    "channel": i.channel.payload(i.user),
                    "user": i.user.payload(),
                    "app_permissions": str(perms),
                }
            )
        if i.message is not None:
            payload["message"] = i.message.payload()
        return payload

    async def _interact(
        self,
        itype: int,
        user: User,
        channel: Channel,
        data: dict,
        *,
        message: Message | None = None,
        parent: Interaction | None = None,
        label: str = "",
        wait: bool = True,
    ) -> InteractionResult:
        if channel.guild is not None and not self.bot_in(channel.guild):
            raise UsageError(
                f"the bot is not in the guild {channel.guild.name}: none of its commands is there"
            )
        conn = self._conn_for(channel)
        if conn is None:
            where = "DMs (shard 0)" if channel.is_dm else f"the guild {channel.guild.name}"
            raise UsageError(f"no client serves {where} (use run_client, or start a bot for its shard)")
        context = self._context(user, channel)
        if context == GUILD_CONTEXT:
            if user.id not in channel.guild.members:
                raise UsageError(f"{user!r} is not a member of the guild {channel.guild.name}")
            perms = channel.guild.channel_permissions_of(user, channel)
            if not perms & VIEW_CHANNEL:
                raise UsageError(f"{user.name} cannot see #{channel.name}")
            if itype in (2, 4) and not perms & USE_APPLICATION_COMMANDS:
                raise UsageError(f"{user.name} may not use application commands in #{channel.name}")
            if itype in (2, 4) and channel.is_thread and channel.archived:
                raise UsageError(
                    f"#{channel.name} is archived: Discord offers no commands in an archived thread"
                )
        self.clock.advance(self.user_pace)  # a person acts at a person's pace
        loop = asyncio.get_running_loop()
        now = loop.time()
        i = Interaction(
            snowflake(),
            "interaction." + secrets.token_urlsafe(32),
            itype,
            user,
            channel,
            data,
            now,
            now + self.interaction_timeout,
            message=message,
            parent=parent,
            label=f"{label} by {user.name}",
            context=context,
            owners=self._owners(context, user, channel),
            run_delay=run_delay(),
        )
        self.interactions[i.id] = i
        self.raise_failures()
        await conn.dispatch("INTERACTION_CREATE", self._interaction_payload(i))
        result = InteractionResult(self, i)
        if not wait:
            return result
        while True:
            try:
                await self.wait_for(
                    lambda: i.acknowledged,
                    timeout=self.interaction_timeout - self.answer_time(i) + 0.05,
                    what=f"the answer to {i.label}",
                )
            except StandInTimeout:
                if not i.acknowledged and self.answer_time(i) <= self.interaction_timeout:
                    continue  # the operating system held the process back: the bot's time is not up
                if not i.acknowledged:
                    i.timeout_violation = self._violation(
                        f"{i.label} was not answered within {self.interaction_timeout} s "
                        "(Discord shows 'The application did not respond')",
                        "INTERACTION_CREATE",
                    )
                    self.raise_failures()
                raise
            break
        self.stats["response"].append((i.responded_at or now) - now)
        return result

    # -- storing messages --------------------------------------------------------------------------

    def _spawn(self, coro) -> None:
        """Send a gateway event from code that cannot wait (a test's action): :meth:`settle`
        waits for it to be sent, then handled."""
        task = asyncio.ensure_future(coro)
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)
        task.add_done_callback(lambda t: t.cancelled() or t.exception())

    def _attachments_for(
        self,
        channel: Channel,
        data: dict,
        files: list[tuple[str, bytes, str | None]],
        existing: list[Attachment] | None,
        *,
        editing: bool = False,
    ) -> list[Attachment]:
        """The attachments after a create or an edit.

        An edit that lists ``attachments`` keeps exactly those (old ones by id, new files by their index);
        files uploaded but not listed are dropped.  Without the list, new files are appended.
        """
        by_index = {}
        for idx, (name, blob, ctype) in enumerate(files):
            by_index[idx] = (name, blob, ctype)
        out: list[Attachment] = []
        used: set[int] = set()
        listed = data.get("attachments")
        if listed is None:
            out = list(existing or [])
        else:
            old = {a.id: a for a in existing or []}
            for entry in listed:
                aid = int(entry["id"])
                if aid in old:
                    out.append(old[aid])
                elif aid in by_index:
                    name, blob, ctype = by_index[aid]
                    out.append(
                        Attachment(
                            blob,
                            filename=entry.get("filename") or name,
                            channel_id=channel.id,
                            content_type=ctype,
                            description=entry.get("description"),
                        )
                    )
                    used.add(aid)
        for idx, (name, blob, ctype) in by_index.items():
            if idx not in used and not (editing and listed is not None):
                out.append(Attachment(blob, filename=name, channel_id=channel.id, content_type=ctype))
        for a in out:
            self.attachments[a.id] = a
        return out

    def _store_message(
        self,
        channel: Channel,
        author: User,
        data: dict,
        files: list[tuple[str, bytes, str | None]],
        *,
        interaction: Interaction | None = None,
        visible_to: frozenset[int] | None = None,
        flags: int | None = None,
        message_id: int | None = None,
    ) -> Message:
        msg = Message(message_id or snowflake(), channel, author)
        self._apply_edit(msg, data, files, creating=True)
        if flags is not None:
            msg.flags = flags
        msg.interaction = interaction
        msg.visible_to = visible_to
        if interaction is not None:
            msg.webhook_id = self.application_id
        ref = data.get("message_reference")
        if ref and ref.get("message_id"):
            msg.reference_id = int(ref["message_id"])
        if not msg.ephemeral and not msg.loading:
            msg.pinged = self._pings(msg, data)
        self.messages_by_id[msg.id] = msg
        self._channel_messages.setdefault(channel.id, []).append(msg)
        if visible_to is None:
            self._gateway_message_event("MESSAGE_CREATE", msg)
        self._changed()
        return msg

    def _media(self, media: dict) -> dict:
        """An unfurled media item as Discord answers it (``attachment://name`` stays as sent)."""
        url = media.get("url", "")
        return {**media, "id": str(snowflake()), "url": url, "proxy_url": url}

    def _pings(self, msg: Message, data: dict) -> frozenset[int]:
        """Who Discord notifies for a new message, as its Allowed Mentions documentation says.

        Without ``allowed_mentions`` Discord parses everything in the content: user, role and
        ``@everyone``/``@here`` mentions, and a reply notifies the replied-to author.  With it,
        ``parse`` lists the kinds parsed from the content, ``users``/``roles`` list the only ones
        that may be notified (each must also be in the content), and ``replied_user`` (default
        false) notifies the replied-to author.  A role mention notifies when the role is
        mentionable or the author has Mention Everyone in the channel (an interaction's messages
        are sent through a webhook, which Discord lets mention any role); ``@everyone`` needs the
        same.  Only members who can view the channel are notified (``@here``, for want of
        presences, counts everyone), never the author.  Sets ``msg.pinged_roles`` and
        ``msg.pinged_everyone`` too."""
        allowed = data.get("allowed_mentions")
        channel = msg.channel
        if channel.is_dm:
            viewers = {u.id for u in channel.members}
            may_ping_all = False
            guild = None
        else:
            guild = channel.guild
            viewers = {
                uid
                for uid, m in guild.members.items()
                if guild.channel_permissions_of(m.user, channel) & VIEW_CHANNEL
            }
            may_ping_all = msg.webhook_id is not None or bool(
                guild.channel_permissions_of(msg.author, channel) & MENTION_EVERYONE
            )
        if allowed is None:
            parse = {"users", "roles", "everyone"}
            users_listed = roles_listed = None
            replied = True
        else:
            parse = set(allowed.get("parse") or [])
            users_listed = {int(x) for x in allowed["users"]} if allowed.get("users") is not None else None
            roles_listed = {int(x) for x in allowed["roles"]} if allowed.get("roles") is not None else None
            replied = bool(allowed.get("replied_user"))
        notified: set[int] = set()
        if "users" in parse:
            notified.update(msg.mentioned)
        elif users_listed is not None:
            notified.update(u for u in msg.mentioned if u in users_listed)
        roles: set[int] = set()
        if guild is not None:
            by_id = {r.id: r for r in guild.roles}
            for rid in msg.mentioned_roles:
                role = by_id.get(rid)
                if role is None or not (role.mentionable or may_ping_all):
                    continue
                if "roles" in parse or (roles_listed is not None and rid in roles_listed):
                    roles.add(rid)
            for uid, member in guild.members.items():
                if any(r.id in roles for r in member.roles):
                    notified.add(uid)
        everyone = "everyone" in parse and msg.mentions_everyone and may_ping_all
        if everyone:
            notified.update(viewers)
        if replied and msg.reference_id is not None:
            ref = self.messages_by_id.get(msg.reference_id)
            if ref is not None:
                notified.add(ref.author.id)
        msg.pinged_roles = frozenset(roles)
        msg.pinged_everyone = everyone
        return frozenset(u for u in notified if u in viewers and u != msg.author.id)

    def all_messages(self) -> list[Message]:
        """Every message the stand-in holds, in every channel, thread and DM, in the order created."""
        return sorted(self.messages_by_id.values(), key=lambda m: m.id)

    def set_nick(self, user: User, nick: str | None, *, guild: Guild | None = None) -> None:
        """``user``'s nickname in ``guild`` (the first one unless given), as a member sets it; it
        comes with their interactions (GUILD_MEMBER_UPDATE with the members intent)."""
        guild = guild or self.guild
        member = guild.members[user.id]
        member.nick = nick
        conn = self._conn_for_guild(guild)
        if conn is not None and conn.intents & INTENT_GUILD_MEMBERS:
            self._spawn(conn.dispatch("GUILD_MEMBER_UPDATE", {**member.payload(), "guild_id": str(guild.id)}))
        self._changed()

    def _apply_edit(
        self, msg: Message, data: dict, files: list[tuple[str, bytes, str | None]], *, creating: bool = False
    ) -> int:
        """Apply a create or an edit; return the flag bits the edit asked for that Discord ignores."""
        ignored = 0
        if creating:
            msg.flags = int(data.get("flags") or 0)
        else:
            msg.flags, ignored = limits.edit_flags(msg.flags, data.get("flags"))
        if "content" in data:
            msg.content = data["content"] or ""
            msg.extra["mentions"] = [
                self.users[u].payload() for u in dict.fromkeys(msg.mentioned) if u in self.users
            ]
        if "embeds" in data:
            msg.embeds = data["embeds"] or []
        if "components" in data:
            msg.components = normalize_components(data["components"], self._media)
        for k in ("poll", "tts", "nonce", "sticker_ids", "allowed_mentions"):
            if k in data:
                msg.extra[k] = data[k]
        if files or "attachments" in data:
            msg.files = self._attachments_for(msg.channel, data, files, msg.files, editing=not creating)
        return ignored

    def _edit_message(
        self, msg: Message, data: dict, files: list[tuple[str, bytes, str | None]], label: str
    ) -> None:
        was_loading = msg.loading
        ignored = self._apply_edit(msg, data, files)
        if ignored:
            # Discord answers 200 and leaves these bits as they were; a bot that relies on them is wrong.
            self._violation(
                f"{label}: an edit cannot set the flags {limits.flag_names(ignored)} (Discord ignores them "
                f"without an error; an edit changes only {limits.flag_names(limits.EDIT_FLAGS)}); "
                f"message {msg.id} keeps flags {limits.flag_names(msg.flags & ~limits.LOADING)}",
                label,
            )
        msg.flags &= ~128
        msg.edits += 1
        msg.edited = None if was_loading else time.time()
        if msg.visible_to is None:
            self._gateway_message_event("MESSAGE_UPDATE", msg)
        self._changed()

    def _delete_message(self, msg: Message) -> None:
        msg.deleted = True
        if msg.visible_to is None and self._hears(msg.channel):
            payload = {"id": str(msg.id), "channel_id": str(msg.channel.id)}
            if msg.channel.guild is not None:
                payload["guild_id"] = str(msg.channel.guild.id)
            self._spawn(self._conn_for(msg.channel).dispatch("MESSAGE_DELETE", payload))  # type: ignore[union-attr]
        self._changed()

    def _hears(self, channel: Channel) -> bool:
        """Whether the connected client gets message events from ``channel`` (its intents, its DMs)."""
        conn = self._conn_for(channel)
        if conn is None:
            return False
        if channel.is_dm:
            return self.bot_user in channel.members and bool(conn.intents & INTENT_DIRECT_MESSAGES)
        return bool(conn.intents & INTENT_GUILD_MESSAGES)

    def _gateway_message_event(self, event: str, msg: Message) -> None:
        conn = self._conn_for(msg.channel)
        if conn is None or not self._hears(msg.channel):
            return
        payload = msg.payload()
        mentioned = self.bot_user.mention in msg.content or f"<@!{self.bot_user.id}>" in msg.content
        private = msg.channel.is_dm  # the message content intent does not apply to the bot's DMs
        if (
            msg.author is not self.bot_user
            and not conn.intents & INTENT_MESSAGE_CONTENT
            and not (mentioned or private)
        ):
            # Without the privileged intent, Discord blanks what other people wrote.
            payload.update(content="", embeds=[], attachments=[], components=[])
        self._spawn(conn.dispatch(event, payload))

    # -- HTTP plumbing -----------------------------------------------------------------------------

    def _build_routes(self) -> list[_Route]:
        """The routes served, named by the path templates of Discord's OpenAPI description."""
        original = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
        webhook_message = "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"
        table = [
            ("GET", "/users/@me", self._r_me, True),
            ("GET", "/users/{user_id}", self._r_user, True),
            ("POST", "/users/@me/channels", self._r_create_dm, True),
            ("GET", "/oauth2/applications/@me", self._r_app, True),
            ("GET", "/applications/@me", self._r_app, True),
            ("GET", "/gateway", self._r_gateway, False),
            ("GET", "/gateway/bot", self._r_gateway, True),
            ("PUT", "/applications/{application_id}/commands", self._r_put_commands, True),
            ("GET", "/applications/{application_id}/commands", self._r_get_commands, True),
            ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", self._r_put_commands, True),
            ("GET", "/applications/{application_id}/guilds/{guild_id}/commands", self._r_get_commands, True),
            ("POST", "/interactions/{interaction_id}/{interaction_token}/callback", self._r_callback, False),
            ("POST", "/webhooks/{webhook_id}/{webhook_token}", self._r_followup, False),
            ("GET", original, self._r_webhook_message, False),
            ("PATCH", original, self._r_webhook_message, False),
            ("DELETE", original, self._r_webhook_message, False),
            ("GET", webhook_message, self._r_webhook_message, False),
            ("PATCH", webhook_message, self._r_webhook_message, False),
            ("DELETE", webhook_message, self._r_webhook_message, False),
            ("GET", "/channels/{channel_id}", self._r_channel, True),
            ("GET", "/channels/{channel_id}/messages", self._r_history, True),
            ("POST", "/channels/{channel_id}/messages", self._r_create_message, True),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._r_message, True),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._r_message, True),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._r_message, True),
            ("POST", "/channels/{channel_id}/typing", self._r_typing, True),
            ("POST", "/channels/{channel_id}/threads", self._r_create_thread, True),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._r_create_thread, True),
            ("PATCH", "/channels/{channel_id}", self._r_edit_channel, True),
            ("DELETE", "/channels/{channel_id}", self._r_delete_channel, True),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", self._r_thread_member, True),
            ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", self._r_thread_member, True),
            ("GET", "/guilds/{guild_id}", self._r_guild, True),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._r_member, True),
            ("GET", "/guilds/{guild_id}/channels", self._r_guild_channels, True),
            ("GET", "/guilds/{guild_id}/threads/active", self._r_active_threads, True),
            ("GET", "/guilds/{guild_id}/scheduled-events", self._r_events, True),
            ("POST", "/guilds/{guild_id}/scheduled-events", self._r_create_event, True),
            ("GET", "/guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}", self._r_event, True),
            ("PATCH", "/guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}", self._r_event, True),
            ("DELETE", "/guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}", self._r_event, True),
        ]
        routes = []
        for method, template, handler, auth in table:
            rx = re.sub(
                r"\{(\w+)\}",
                lambda m: f"(?P<{m.group(1)}>[^/]+)",
                re.escape(template).replace(r"\{", "{").replace(r"\}", "}"),
            )
            routes.append(_Route(method, template, re.compile(rx + "$"), handler, auth))
        return routes

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        host = (request.host or "").split(":")[0]
        if host == GATEWAY_HOST:
            return await self._gateway(request)
        if host in CDN_HOSTS:
            return self._cdn(request)
        path = request.path
        method = request.method
        if host != API_HOST or not path.startswith(API_PREFIX + "/"):
            return self._unknown(method, f"https://{host}{path}")
        path = path[len(API_PREFIX) :]
        self.requests.append(f"{method} {path}")
        for route in self._routes:
            if route.method != method:
                continue
            m = route.regex.match(path)
            if m is None:
                continue
            label = f"{method} {route.template}"
            for inj in self.injections:
                if inj.matches(method, path, route.template):
                    inj.hits.append(f"{method} {path}")
                    await request.read()
                    return self._injected(inj)
            if route.auth and request.headers.get("Authorization") != f"Bot {self.token}":
                v = self._violation(f"{label} without the bot token", label, 401)
                return self._answer(label, 401, {"message": "401: Unauthorized", "code": 0}, v)
            headers: dict[str, str] = {}
            if self.ratelimits is not None:
                decision = self.ratelimits.check(label, m.groupdict(), authenticated=route.auth)
                self._hold(self.ratelimits.hold_until(decision))
                if not decision.allowed:
                    await request.read()
                    return self._rate_limited(label, decision)
                headers = decision.headers
            answer = await self._serve(request, route, label, m.groupdict(), headers)
            if ANSWER_LATENCY and method != "GET":  # carried out and seen; the answer comes late
                await asyncio.sleep(ANSWER_LATENCY)
            for held in self.holds:
                if held.matches(method, path, route.template):
                    held.hits.append(f"{method} {path}")
                    self._changed()
                    await held.released.wait()
                    break
            return answer
        return self._unknown(method, path)

    def _hold(self, seconds: float) -> None:
        """The client was told to hold requests back for ``seconds``: waits allow for it."""
        if seconds > 0:
            loop_now = asyncio.get_running_loop().time()
            self._held_until = max(self._held_until, loop_now + seconds)

    def _rate_limited(
        self,
        label: str,
        decision: ratelimits.Decision,
        *,
        code: int | None = None,
        message: str | None = None,
    ) -> web.Response:
        """Discord's 429: ``retry_after`` in the body and the headers; discord.py sleeps and retries."""
        body: dict[str, Any] = {
            "message": message or "You are being rate limited.",
            "retry_after": round(decision.retry_after, 3),
            "global": decision.is_global,
        }
        if code is not None:
            body["code"] = code
        log.info("rate limited: %s (%s), retry after %.2f s", label, decision.bucket, decision.retry_after)
        self._changed()
        return self._answer(label, 429, body, headers=decision.headers)

    async def _serve(
        self, request: web.Request, route: _Route, label: str, params: dict, headers: dict[str, str]
    ) -> web.Response:
        state = _RequestState(label)
        token = _current_request.set(state)
        try:
            try:
                await self._read_body(request, label)
                if state.schema_problems and not self._spec.takes_body(route.method, route.template):
                    self._reject(label, [])
                status, body = await route.handler(request, label, **params)
                if state.schema_problems and not state.checked:
                    v = self._violation(
                        f"{label}: stand-in bug: the handler never checked the request body "
                        f"({'; '.join(str(p) for p in state.schema_problems)})",
                        label,
                    )
                    return self._answer(label, 400, {"message": "stand-in error", "code": 0}, v, headers)
            except _RateLimited as e:
                return self._rate_limited(label, e.decision, code=e.code, message=e.message)
            except _ApiError as e:
                return self._answer(label, e.status, e.body, e.violation, headers)
            except Exception as e:  # a request the stand-in could not digest: fail fast, with the trace
                v = self._violation(
                    f"{label}: the stand-in failed on this request: {e!r}\n{traceback.format_exc()}", label
                )
                return self._answer(label, 400, {"message": f"stand-in error: {e!r}", "code": 0}, v, headers)
            return self._answer(label, status, body, headers=headers)
        finally:
            _current_request.reset(token)

    def _answer(
        self,
        label: str,
        status: int,
        body: Any,
        violation: Violation | None = None,
        headers: dict[str, str] | None = None,
    ) -> web.Response:
        """The HTTP answer, checked against the response Discord's description gives for ``status``."""
        if self.openapi:
            method, template = label.split(" ", 1)
            for problem in self._spec.check_response(method, template, status, body):
                self._violation(
                    f"{label}: the stand-in's {status} answer breaks Discord's OpenAPI description at {problem}",
                    label,
                )
        return self._json(status, body, violation, headers)

    def _json(
        self,
        status: int,
        body: Any,
        violation: Violation | None = None,
        headers: dict[str, str] | None = None,
    ) -> web.Response:
        # Discord's API answers through Google's load balancer; discord.py takes a 429 without this
        # header for a Cloudflare ban and gives up instead of retrying.
        headers = {"Via": "1.1 google", **(headers or {})}
        if violation is not None:
            headers["X-Standin-Violation"] = str(violation.number)
        if status == 204:
            return web.Response(status=204, headers=headers)
        return web.Response(
            status=status, body=json.dumps(body).encode(), headers=headers, content_type="application/json"
        )

    def _unknown(self, method: str, path: str) -> web.Response:
        self.unknown_routes.append(f"{method} {path}")
        v = self._violation(
            f"the stand-in has no route {method} {path} (add it to tests/standin/server.py)",
            f"{method} {path}",
            404,
        )
        return self._json(404, {"message": "404: Not Found", "code": 0}, v)

    def _injected(self, inj: Injection) -> web.Response:
        if inj.status == 429:
            headers = {
                "Via": "1.1 google",
                "Retry-After": str(max(1, round(inj.retry_after))),
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{time.time() + inj.retry_after:.3f}",
                "X-RateLimit-Reset-After": f"{inj.retry_after:.3f}",
                "X-RateLimit-Bucket": "standin-injected",
                "X-RateLimit-Scope": "user",
            }
            if inj.is_global:
                headers["X-RateLimit-Global"] = "true"
            body = {
                "message": "You are being rate limited.",
                "retry_after": inj.retry_after,
                "global": inj.is_global,
                "code": 0,
            }
            return web.Response(
                status=429, body=json.dumps(body).encode(), headers=headers, content_type="application/json"
            )
        body = {"message": f"{inj.status}: injected by the stand-in", "code": 0}
        return web.Response(
            status=inj.status, body=json.dumps(body).encode(), content_type="application/json"
        )

    def _cdn(self, request: web.Request) -> web.Response:
        m = re.match(r"^/attachments/(\d+)/(\d+)/([^/]+)$", request.path)
        att = self.attachments.get(int(m.group(2))) if m else None
        if att is None or att.filename != m.group(3):  # type: ignore[union-attr]
            return self._unknown(request.method, f"https://{request.host}{request.path}")
        return web.Response(body=bytes(att), content_type=att.content_type)

    async def _read_body(
        self, request: web.Request, label: str
    ) -> tuple[dict, list[tuple[str, bytes, str | None]]]:
        """The JSON body (or ``payload_json``) and the files; read once, checked against the description."""
        state = _current_request.get(None)
        if state is not None and state.body is not None:
            return state.body
        body = await self._parse_body(request, label)
        if state is not None:
            state.body = body
            if self.openapi and (request.body_exists or body != ({}, [])):
                method, template = label.split(" ", 1)
                if self._spec.takes_body(method, template):
                    state.schema_problems = self._spec.check_request(method, template, body[0])
                else:
                    state.schema_problems = [
                        spec_module.SchemaError((), "requestBody", "this route takes no body", "", "")
                    ]
        return body

    async def _parse_body(
        self, request: web.Request, label: str
    ) -> tuple[dict, list[tuple[str, bytes, str | None]]]:
        if request.content_type == "multipart/form-data":
            payload: dict = {}
            files: list[tuple[int, str, bytes, str | None]] = []
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                name = part.name or ""
                blob = await part.read(decode=False)  # type: ignore[union-attr]
                if name == "payload_json":
                    payload = json.loads(blob)
                elif (fm := re.fullmatch(r"files\[(\d+)\]", name)) or name.startswith("file"):
                    idx = int(fm.group(1)) if fm else len(files)
                    ctype = part.headers.get("Content-Type")
                    if ctype == "application/octet-stream":
                        ctype = None
                    files.append((idx, part.filename or f"file{idx}", bytes(blob), ctype))  # type: ignore
                else:
                    v = self._violation(f"{label}: unexpected multipart field {name!r}", label)
                    raise _ApiError(400, {"message": "Invalid Form Body", "code": 50035}, v)
            files.sort()
            return payload, [(n, b, c) for _, n, b, c in files]
        raw = await request.read()
        if not raw:
            return {}, []
        if request.content_type != "application/json":
            v = self._violation(
                f"{label}: body sent as {request.content_type!r}, not application/json", label
            )
            raise _ApiError(400, {"message": "400: Bad Request", "code": 0}, v)
        return json.loads(raw), []

    def _reject(self, label: str, problems: list[limits.Problem]) -> None:
        """Answer ``problems`` as Discord would; with none, answer how the body breaks the description.

        Every handler calls this before it changes anything, so a body that breaks Discord's OpenAPI
        description is refused (the stand-in's own checks, in Discord's words, come first).
        """
        state = _current_request.get(None)
        if state is not None:
            state.checked = True
            if not problems and state.schema_problems:
                rules = "; ".join(str(p) for p in state.schema_problems)
                v = self._violation(
                    f"{label}: the request body breaks Discord's OpenAPI description at {rules}", label
                )
                raise _ApiError(400, limits.error_body([p.problem() for p in state.schema_problems]), v)
        if not problems:
            return
        reason = "; ".join(str(p) for p in problems)
        too_large = any(p.code == "ENTITY_TOO_LARGE" for p in problems)
        empty = [p for p in problems if p.code == "EMPTY_MESSAGE"]
        if too_large:
            v = self._violation(f"{label}: {reason}", label, 413)
            raise _ApiError(413, {"message": "Request entity too large", "code": 40005}, v)
        if empty and len(problems) == 1:
            v = self._violation(f"{label}: {reason}", label)
            raise _ApiError(400, {"message": "Cannot send an empty message", "code": 50006}, v)
        v = self._violation(f"{label}: {reason}", label)
        raise _ApiError(400, limits.error_body(problems), v)

    def _channel_or_404(self, channel_id: str, label: str) -> Channel:
        try:
            channel = self.channel(int(channel_id))
        except (KeyError, ValueError):
            v = self._violation(f"{label}: unknown channel {channel_id}", label, 404)
            raise _ApiError(404, {"message": "Unknown Channel", "code": 10003}, v) from None
        if channel.is_dm and self.bot_user not in channel.members:
            v = self._violation(f"{label}: the bot is not part of the DM {channel.name}", label, 403)
            raise _ApiError(403, {"message": "Missing Access", "code": 50001}, v)
        if channel.guild is not None and not self.bot_in(channel.guild):
            log.info("%s: the bot is not in the server of #%s", label, channel.name)
            raise _ApiError(403, {"message": "Missing Access", "code": 50001})  # (see remove_bot)
        return channel

    def _message_or_404(self, channel: Channel | None, message_id: str, label: str) -> Message:
        msg = self.messages_by_id.get(int(message_id)) if message_id.isdigit() else None
        if msg is not None and msg.deleted:
            # Someone deleted it: Discord's ordinary answer, which a bot must be ready for.
            raise _ApiError(404, {"message": "Unknown Message", "code": 10008})
        if msg is None or (channel is not None and msg.channel is not channel):
            v = self._violation(f"{label}: message {message_id} never existed in that channel", label, 404)
            raise _ApiError(404, {"message": "Unknown Message", "code": 10008}, v)
        return msg

    # -- REST handlers -----------------------------------------------------------------------------

    async def _r_me(self, request, label):
        return 200, {
            **self.bot_user.payload(),
            "verified": True,
            "mfa_enabled": False,
            "locale": "en-US",
            "email": None,
            "bio": "",
        }

    async def _r_create_dm(self, request, label):
        data, _ = await self._read_body(request, label)
        self._reject(label, [])
        rid = str(data.get("recipient_id") or "")
        user = self.users.get(int(rid)) if rid.isdigit() else None
        if user is None or user is self.bot_user:
            v = self._violation(f"{label}: no user {rid!r} to open a DM with", label)
            raise _ApiError(400, {"message": "Invalid Recipient(s)", "code": 50033}, v)
        return 200, self.dm(user).payload(self.bot_user)

    async def _r_user(self, request, label, user_id):
        u = self.users.get(int(user_id)) if user_id.isdigit() else None
        if u is None:
            raise _ApiError(404, {"message": "Unknown User", "code": 10013})
        return 200, u.payload()

    async def _r_app(self, request, label):
        return 200, {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "description": "",
            "icon": None,
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.owner.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "flags_new": "0",
            "bot": self.bot_user.payload(),
            "rpc_origins": [],
            "tags": [],
            "approximate_guild_count": 1,
            "approximate_user_install_count": 0,
            "approximate_user_authorization_count": 0,
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "redirect_uris": [],
            "integration_types_config": {"0": {}},  # installed to servers only
            "event_webhooks_url": None,
            "event_webhooks_status": 1,
            "event_webhooks_types": [],
            "explicit_content_filter": 0,
            "eligible_oauth2_scopes": [],
        }

    async def _r_gateway(self, request, label):
        return 200, {
            "url": f"wss://{GATEWAY_HOST}",
            "shards": 1,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
        }

    def _check_app(self, app_id: str, label: str) -> None:
        if app_id != str(self.application_id):
            v = self._violation(
                f"{label}: application id {app_id} is not the bot's ({self.application_id})", label, 403
            )
            raise _ApiError(403, {"message": "Missing Access", "code": 50001}, v)

    async def _r_put_commands(self, request, label, application_id, guild_id=None):
        self._check_app(application_id, label)
        commands, _ = await self._read_body(request, label)
        guild = self.guild_by_id(guild_id) if guild_id is not None else None
        if guild_id is not None and guild is None:
            v = self._violation(f"{label}: unknown guild {guild_id}", label, 403)
            raise _ApiError(403, {"message": "Missing Access", "code": 50001}, v)
        if guild is not None and not self.bot_in(guild):  # removed from it
            raise _ApiError(403, {"message": "Missing Access", "code": 50001})
        if not isinstance(commands, list):
            v = self._violation(f"{label}: body is not a list of commands", label)
            raise _ApiError(400, {"message": "Invalid Form Body", "code": 50035}, v)
        self._reject(label, limits.check_commands(commands, is_global=guild_id is None))
        scope = int(guild_id) if guild_id else None
        old = {(c["type"], c["name"]): c for c in self.commands.get(scope, [])}
        stored = []
        for c in commands:
            cmd = self._stored_command(c, scope)
            prev = old.get((cmd["type"], cmd["name"]))
            if prev is not None:
                cmd["id"] = prev["id"]
            stored.append(cmd)
        created = sum(1 for c in stored if (c["type"], c["name"]) not in old)
        wait = self.ratelimits.create_commands(scope, created) if self.ratelimits and created else None
        if wait is not None:
            where = "global commands" if scope is None else "this guild"
            self._violation(
                f"{label}: {created} new command(s) would pass Discord's "
                f"{ratelimits.DAILY_COMMAND_CREATES} command creates a day for {where}; "
                f"it answers 429 (30034) and the bot waits {wait:.0f} s",
                label,
                429,
            )
            headers = {"Retry-After": str(int(wait) + 1), "X-RateLimit-Scope": "shared"}
            raise _RateLimited(
                ratelimits.Decision(False, headers, wait, False, "daily command creates"),
                30034,
                "Max number of daily application command creates has been reached (200)",
            )
        self.commands[scope] = stored
        self.syncs += 1
        self._changed()
        return 200, stored

    def _stored_command(self, c: dict, scope: int | None) -> dict:
        """A command as Discord keeps and returns it: defaults filled in, ``null`` fields dropped."""
        perms = c.get("default_member_permissions")
        cmd: dict[str, Any] = {
            "id": str(snowflake()),
            "application_id": str(self.application_id),
            "version": str(snowflake()),
            "type": c.get("type") or 1,
            "name": c["name"],
            "description": c.get("description") or "",
            "default_member_permissions": None if perms is None else str(int(perms)),
            "dm_permission": c.get("dm_permission") is not False,
            "contexts": c.get("contexts"),
            # The application is installed to servers only, so that is the default installation context.
            "integration_types": c.get("integration_types") or [0],
            "nsfw": bool(c.get("nsfw")),
        }
        for key in ("name_localizations", "description_localizations"):
            if c.get(key) is not None:
                cmd[key] = c[key]
        if cmd["type"] == 1:
            cmd["options"] = [_drop_nulls(o) for o in c.get("options") or []]
        _drop_same_localizations(cmd)
        if scope:
            cmd["guild_id"] = str(scope)
        return cmd

    async def _r_get_commands(self, request, label, application_id, guild_id=None):
        self._check_app(application_id, label)
        return 200, self.commands.get(int(guild_id) if guild_id else None, [])

    def _interaction_for(self, interaction_id: str | None, token: str, label: str) -> Interaction:
        if interaction_id is not None:
            i = self.interactions.get(int(interaction_id)) if interaction_id.isdigit() else None
            if i is not None and i.token == token:
                return i
            v = self._violation(f"{label}: unknown interaction or token", label, 404)
            raise _ApiError(404, {"message": "Unknown interaction", "code": 10062}, v)
        for i in self.interactions.values():
            if i.token == token:
                return i
        v = self._violation(f"{label}: unknown webhook token", label, 404)
        raise _ApiError(404, {"message": "Unknown Webhook", "code": 10015}, v)

    def answer_time(self, i: Interaction) -> float:
        """Seconds since ``i`` was created, less the time the operating system kept the stand-in's
        thread (the bot's too, when it runs in this process) waiting for a CPU meanwhile."""
        wall = asyncio.get_running_loop().time() - i.created
        return wall - max(0.0, run_delay() - i.run_delay)

    async def _r_callback(self, request, label, interaction_id, interaction_token):
        i = self._interaction_for(interaction_id, interaction_token, label)
        body, files = await self._read_body(request, label)
        now = asyncio.get_running_loop().time()
        if i.acknowledged:
            v = self._violation(
                f"{i.label}: a second initial response (callback type {body.get('type')}) — "
                "Interaction has already been acknowledged",
                label,
            )
            raise _ApiError(400, {"message": "Interaction has already been acknowledged.", "code": 40060}, v)
        if self.answer_time(i) > self.interaction_timeout:
            v = self._violation(
                f"{i.label}: answered after {now - i.created:.2f} s, later than the "
                f"{self.interaction_timeout} s Discord allows (Unknown interaction)",
                label,
                404,
            )
            if i.timeout_violation is not None and i.timeout_violation.reported:
                v.reported = True  # the test already heard that this interaction went unanswered
            raise _ApiError(404, {"message": "Unknown interaction", "code": 10062}, v)
        rtype = body.get("type")
        data = body.get("data") or {}
        allowed = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7} if i.message else {4, 5}}[i.type]
        if rtype not in allowed:
            v = self._violation(
                f"{i.label}: callback type {rtype} is not allowed for interaction type {i.type} "
                f"(allowed: {sorted(allowed)})",
                label,
            )
            raise _ApiError(400, {"message": "Interaction callback type invalid", "code": 50035}, v)
        blobs = [(n, b) for n, b, _ in files]
        problems: list[limits.Problem] = []
        if rtype == 4:
            problems = limits.check_message(
                data, blobs, file_size_limit=self.file_size_limit, base=("data",), flags=limits.CALLBACK_FLAGS
            )
        elif rtype == 5:
            problems = limits.check_flags(
                data.get("flags"), limits.DEFERRED_FLAGS, ("data", "flags"), "a deferred callback (type 5)"
            )
        elif rtype == 7:
            existing = self._as_data(i.message)
            problems = limits.check_message(
                data,
                blobs,
                file_size_limit=self.file_size_limit,
                existing=existing,
                base=("data",),
                flags=limits.CALLBACK_FLAGS,
            )
        elif rtype == 8:
            problems = limits.check_choices(data.get("choices"), option_type=self._focused_type(i))
        elif rtype == 9:
            problems = limits.check_modal(data)
        self._reject(label, problems)
        message: Message | None = None
        if rtype == 4:
            eph = bool(int(data.get("flags") or 0) & limits.EPHEMERAL)
            message = self._store_message(
                i.channel,
                self.bot_user,
                data,
                files,
                interaction=i,
                visible_to=frozenset({i.user.id}) if eph else None,
            )
            i.response_message = message
        elif rtype == 5:
            eph = bool(int(data.get("flags") or 0) & limits.EPHEMERAL)
            message = self._store_message(
                i.channel,
                self.bot_user,
                {},
                [],
                interaction=i,
                visible_to=frozenset({i.user.id}) if eph else None,
                flags=limits.LOADING | (limits.EPHEMERAL if eph else 0),
            )
            i.response_message = message
        elif rtype in (6, 7):
            message = i.message
        elif rtype == 8:
            i.choices = list(data.get("choices") or [])
        elif rtype == 9:
            i.modal = data
        i.response_type = rtype
        i.responded_at = now
        if rtype == 7 and message is not None:
            self._edit_message(message, data, files, label)
        self._changed()
        if request.query.get("with_response") not in ("1", "true", "True"):
            return 204, None
        callback: dict[str, Any] = {"id": str(i.id), "type": i.type}
        if message is not None and rtype in (4, 5, 7):
            callback["response_message_id"] = str(message.id)
            callback["response_message_loading"] = rtype == 5
            callback["response_message_ephemeral"] = message.ephemeral
        out: dict[str, Any] = {"interaction": callback}
        if message is not None and rtype in (4, 7):
            # Discord describes a resource (the message) only for a new message or an update.
            out["resource"] = {"type": rtype, "message": message.payload()}
        return 200, out

    @staticmethod
    def _focused_type(i: Interaction) -> int | None:
        """The type of the option being typed into, for an autocomplete interaction."""
        options = i.data.get("options") or []
        while options:
            focused = [o for o in options if o.get("focused")]
            if focused:
                return focused[0].get("type")
            options = [x for o in options if o.get("type") in (1, 2) for x in o.get("options") or []]
        return None

    @staticmethod
    def _as_data(msg: Message | None) -> dict:
        if msg is None:
            return {}
        return {
            "content": msg.content,
            "embeds": msg.embeds,
            "components": msg.components,
            "attachments": [a.payload() for a in msg.files],
            "flags": msg.flags,
        }

    def _token_alive(self, i: Interaction, label: str) -> None:
        if asyncio.get_running_loop().time() > i.created + 15 * 60:
            v = self._violation(f"{label}: the interaction token expired (15 minutes)", label, 401)
            raise _ApiError(401, {"message": "Invalid Webhook Token", "code": 50027}, v)
        if not i.acknowledged:
            v = self._violation(f"{i.label}: followup or edit before any initial response", label, 404)
            raise _ApiError(404, {"message": "Unknown Webhook", "code": 10015}, v)

    async def _r_followup(self, request, label, webhook_id, webhook_token):
        self._check_app(webhook_id, label)
        i = self._interaction_for(None, webhook_token, label)
        data, files = await self._read_body(request, label)
        self._token_alive(i, label)
        if i.type == 4:
            v = self._violation(f"{i.label}: followup messages cannot answer an autocomplete", label)
            raise _ApiError(400, {"message": "Invalid interaction", "code": 50035}, v)
        self._reject(
            label,
            limits.check_message(
                data,
                [(n, b) for n, b, _ in files],
                file_size_limit=self.file_size_limit,
                flags=limits.FOLLOWUP_FLAGS,
            ),
        )
        original = i.response_message
        if i.response_type == 5 and original is not None and original.loading:
            # Discord: the first followup after a deferral fills in the "thinking" message.
            self._edit_message(original, data, files, label)
            msg = original
        else:
            eph = bool(int(data.get("flags") or 0) & limits.EPHEMERAL)
            msg = self._store_message(
                i.channel,
                self.bot_user,
                data,
                files,
                interaction=i,
                visible_to=frozenset({i.user.id}) if eph else None,
            )
        i.followups.append(msg)
        self._changed()
        if request.query.get("wait") in ("true", "1", "True"):
            return 200, msg.payload()
        return 204, None

    async def _r_webhook_message(self, request, label, webhook_id, webhook_token, message_id="@original"):
        self._check_app(webhook_id, label)
        i = self._interaction_for(None, webhook_token, label)
        data, files = await self._read_body(request, label)
        self._token_alive(i, label)
        if message_id == "@original":
            msg = i.original()
            if msg is not None and msg.deleted:
                raise _ApiError(404, {"message": "Unknown Message", "code": 10008})
            if msg is None:
                v = self._violation(
                    f"{i.label}: there is no original response message to {request.method}", label, 404
                )
                raise _ApiError(404, {"message": "Unknown Message", "code": 10008}, v)
        else:
            msg = self._message_or_404(None, message_id, label)
            if msg.interaction is not i and msg is not i.original():
                v = self._violation(f"{label}: message {message_id} does not belong to {i.label}", label, 404)
                raise _ApiError(404, {"message": "Unknown Message", "code": 10008}, v)
        if request.method == "GET":
            return 200, msg.payload()
        if request.method == "DELETE":
            self._delete_message(msg)
            return 204, None
        self._reject(
            label,
            limits.check_message(
                data,
                [(n, b) for n, b, _ in files],
                file_size_limit=self.file_size_limit,
                existing=self._as_data(msg),
            ),
        )
        self._edit_message(msg, data, files, label)
        return 200, msg.payload()

    async def _r_channel(self, request, label, channel_id):
        return 200, self._channel_or_404(channel_id, label).payload()

    async def _r_history(self, request, label, channel_id):
        channel = self._channel_or_404(channel_id, label)
        limit = int(request.query.get("limit", 50))
        msgs = [m for m in self.messages(channel) if m.visible_to is None]
        before, after = request.query.get("before"), request.query.get("after")
        if before:
            msgs = [m for m in msgs if m.id < int(before)]
        if after:
            msgs = [m for m in msgs if m.id > int(after)]
            return 200, [m.payload() for m in msgs[:limit]][::-1]
        return 200, [m.payload() for m in msgs[-limit:]][::-1]

    async def _r_create_message(self, request, label, channel_id):
        channel = self._channel_or_404(channel_id, label)
        data, files = await self._read_body(request, label)
        self._reject(
            label,
            limits.check_message(
                data,
                [(n, b) for n, b, _ in files],
                file_size_limit=self.file_size_limit,
                flags=limits.CREATE_FLAGS,
            )
            + limits.check_nonce(data.get("nonce")),
        )
        if channel.is_dm:
            (recipient,) = channel.recipients(self.bot_user)
            shares_a_server = any(recipient.id in g.members and self.bot_in(g) for g in self.guilds)
            if not recipient.dms_open or not (shares_a_server or USER_INSTALL in self.installations):
                # Discord's ordinary answer: the user does not take DMs from the bot.  The bot must cope.
                log.info("%s does not accept DMs", recipient.name)
                raise _ApiError(403, {"message": "Cannot send messages to this user", "code": 50007})
            repeat = self._nonce_repeat(self.bot_user, data)
            if repeat is not None:
                return 200, repeat.payload()
            return 200, self._create_message(channel, data, files).payload()
        if channel.is_forum:
            v = self._violation(
                f"{label}: #{channel.name} is a forum: it takes posts (threads), not messages", label
            )
            raise _ApiError(400, {"message": "Cannot send a message in a forum channel", "code": 40058}, v)
        perms = channel.guild.channel_permissions_of(self.bot_user, channel)
        if channel.is_thread and channel.locked and (channel.archived or not perms & MANAGE_THREADS):
            # A locked thread takes messages only from those with Manage Threads, and only while it
            # is active: sending never unarchives a thread a moderator locked.
            log.info("#%s is locked", channel.name)
            raise _ApiError(403, {"message": "Thread is locked", "code": 160005})
        if not perms & VIEW_CHANNEL:  # a channel the bot cannot see: Missing Access, as for every request
            log.info("bot cannot see #%s", channel.name)
            raise _ApiError(403, {"message": "Missing Access", "code": 50001})
        needed = {SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES: "Send Messages"}
        if files:
            needed[ATTACH_FILES] = "Attach Files"
        if data.get("embeds"):
            needed[EMBED_LINKS] = "Embed Links"
        missing = [name for bit, name in needed.items() if not perms & bit]
        if missing:
            # Discord's ordinary answer (a server admin can take permissions away); the bot must cope.
            log.info("bot lacks %s in #%s", missing, channel.name)
            raise _ApiError(403, {"message": "Missing Permissions", "code": 50013})
        repeat = self._nonce_repeat(self.bot_user, data)
        if repeat is not None:
            return 200, repeat.payload()
        if channel.archived:
            # Discord unarchives a thread someone posts in (it was not locked: see above)
            channel.archived = False
            channel.archive_timestamp = time.time()
            conn = self._conn_for(channel)
            if conn is not None:
                self._spawn(conn.dispatch("THREAD_UPDATE", channel.payload()))
        return 200, self._create_message(channel, data, files).payload()

    def _nonce_repeat(self, author: User, data: dict) -> Message | None:
        """The message ``author`` created with the nonce of ``data`` within :attr:`nonce_window`,
        when ``data`` asks for ``enforce_nonce``: Discord answers a repeat with it, creating nothing.

        Scoped as the documentation words it: the same author, in any channel (it says nothing of
        channels), a nonce compared as text (discord.py sends every nonce as a string).  A message
        deleted since still holds its nonce (the documentation frees it by time only): the repeat is
        answered with the message as it was, and nothing is posted again."""
        nonce = data.get("nonce")
        if nonce is None or not data.get("enforce_nonce"):
            return None
        seen = self._nonces.get((author.id, str(nonce)))
        if seen is None or self.clock() - seen[0] >= self.nonce_window:
            return None
        log.info("a repeated nonce %r: answered with message %s, none created", nonce, seen[1].id)
        return seen[1]

    def _create_message(
        self, channel: Channel, data: dict, files: list[tuple[str, bytes, str | None]]
    ) -> Message:
        """A message the bot creates in ``channel``, its nonce remembered (:meth:`_nonce_repeat`)."""
        msg = self._store_message(channel, self.bot_user, data, files)
        if data.get("nonce") is not None:
            self._nonces[(self.bot_user.id, str(data["nonce"]))] = (self.clock(), msg)
        return msg

    async def _r_message(self, request, label, channel_id, message_id):
        channel = self._channel_or_404(channel_id, label)
        data, files = await self._read_body(request, label)
        msg = self._message_or_404(channel, message_id, label)
        if msg.ephemeral:
            v = self._violation(
                f"{label}: ephemeral messages can only be reached through the interaction webhook", label, 404
            )
            raise _ApiError(404, {"message": "Unknown Message", "code": 10008}, v)
        if request.method == "GET":
            # Get Channel Message: "requires the current user to have the VIEW_CHANNEL and
            # READ_MESSAGE_HISTORY permissions" in a server's channel (resources/message).
            if channel.guild is not None:
                perms = channel.guild.channel_permissions_of(self.bot_user, channel)
                if not perms & VIEW_CHANNEL:
                    log.info("bot cannot see #%s", channel.name)
                    raise _ApiError(403, {"message": "Missing Access", "code": 50001})
                if not perms & READ_MESSAGE_HISTORY:
                    log.info("bot lacks Read Message History in #%s", channel.name)
                    raise _ApiError(403, {"message": "Missing Permissions", "code": 50013})
            return 200, msg.payload()
        perms = ALL_PERMISSIONS & ~MANAGE_MESSAGES  # a DM: no one deletes the other's messages
        if channel.guild is not None and request.method in ("PATCH", "DELETE"):
            # Editing or deleting a message, even the bot's own by its id, needs only to see the
            # channel (no Read Message History); a channel the bot cannot see is Missing Access.
            perms = channel.guild.channel_permissions_of(self.bot_user, channel)
            if not perms & VIEW_CHANNEL:
                log.info("bot cannot see #%s", channel.name)
                raise _ApiError(403, {"message": "Missing Access", "code": 50001})
        if msg.author is not self.bot_user and request.method == "PATCH":
            v = self._violation(f"{label}: the bot cannot edit another user's message", label, 403)
            raise _ApiError(
                403, {"message": "Cannot edit a message authored by another user", "code": 50005}, v
            )
        if request.method == "PATCH" and channel.is_thread and channel.archived:
            # Only deleting happens in an archived thread; editing a message there is refused.
            raise _ApiError(400, {"message": "Thread is archived", "code": 50083})
        if request.method == "PATCH" and channel.is_thread and channel.locked and not perms & MANAGE_THREADS:
            # topics/threads, Locked Threads: without Manage Threads no one creates or updates
            # messages in a locked thread, active or not.
            log.info("#%s is locked", channel.name)
            raise _ApiError(403, {"message": "Thread is locked", "code": 160005})
        if request.method == "DELETE" and msg.author is not self.bot_user and not perms & MANAGE_MESSAGES:
            # resources/message, Delete Message: another user's message needs Manage Messages.
            log.info("bot may not delete others' messages in #%s", channel.name)
            raise _ApiError(403, {"message": "Missing Permissions", "code": 50013})
        if request.method == "DELETE":
            self._delete_message(msg)
            return 204, None
        self._reject(
            label,
            limits.check_message(
                data,
                [(n, b) for n, b, _ in files],
                file_size_limit=self.file_size_limit,
                existing=self._as_data(msg),
            ),
        )
        self._edit_message(msg, data, files, label)
        return 200, msg.payload()

    async def _r_create_thread(self, request, label, channel_id, message_id=None):
        """Start a thread (from a message, or without one), as Discord documents it: a public
        thread needs Create Public Threads in the parent, a private one Create Private Threads;
        a thread started from a message has the message's id, and the message links to it."""
        parent = self._channel_or_404(channel_id, label)
        if parent.is_forum and message_id is None:
            return await self._forum_post(request, label, parent)
        data, _ = await self._read_body(request, label)
        problems = limits.length_problem(("name",), data.get("name") or "", 100, "thread name", 1)
        if parent.is_thread:
            problems.append(
                limits.Problem(
                    ("channel_id",),
                    "THREAD_IN_THREAD",
                    "Cannot create a thread in a thread",
                    f"#{parent.name} is already a thread",
                )
            )
        self._reject(label, problems)
        if parent.is_dm or parent.type not in (0, 5):
            v = self._violation(
                f"{label}: threads cannot be started in #{parent.name} (type {parent.type})", label
            )
            raise _ApiError(400, {"message": "Cannot execute action on this channel type", "code": 50024}, v)
        kind = 11 if message_id is not None else int(data.get("type") or 12)
        perms = parent.guild.channel_permissions_of(self.bot_user, parent)
        if not perms & VIEW_CHANNEL:
            log.info("bot cannot see #%s", parent.name)
            raise _ApiError(403, {"message": "Missing Access", "code": 50001})
        needed = CREATE_PUBLIC_THREADS if kind in (10, 11) else CREATE_PRIVATE_THREADS
        if not perms & needed or (message_id is not None and not perms & READ_MESSAGE_HISTORY):
            # Discord's ordinary answer (an admin can take the permission away); the bot must cope.
            log.info("bot may not start threads in #%s", parent.name)
            raise _ApiError(403, {"message": "Missing Permissions", "code": 50013})
        source = None
        if message_id is not None:
            source = self._message_or_404(parent, message_id, label)
            if source.ephemeral:
                v = self._violation(f"{label}: a thread cannot start from an ephemeral message", label, 404)
                raise _ApiError(404, {"message": "Unknown Message", "code": 10008}, v)
            if source.thread is not None or any(c.id == source.id for c in parent.guild.channels):
                v = self._violation(f"{label}: message {message_id} already has a thread", label)
                raise _ApiError(
                    400, {"message": "A thread has already been created for this message", "code": 160004}, v
                )
            tid = source.id
        else:
            tid = snowflake()
        thread = Channel(tid, data["name"], parent.guild, kind, 0, parent.id, self.bot_user.id)
        if data.get("auto_archive_duration") is not None:
            thread.auto_archive_duration = int(data["auto_archive_duration"])
        parent.guild.channels.append(thread)
        payload = {**thread.payload(), "newly_created": True}
        conn = self._conn_for(thread)
        if conn is not None:
            self._spawn(conn.dispatch("THREAD_CREATE", payload))
        if source is not None:
            source.thread = thread
            self._gateway_message_event("MESSAGE_UPDATE", source)
        self._changed()
        return 201, thread.payload()

    async def _r_edit_channel(self, request, label, channel_id):
        channel = self._channel_or_404(channel_id, label)
        data, _ = await self._read_body(request, label)
        problems = []
        if "name" in data:
            problems = limits.length_problem(("name",), data["name"] or "", 100, "channel name", 1)
        if channel.is_forum and data.get("available_tags") is not None:
            problems += self._tag_problems(channel, data["available_tags"])
        if channel.in_forum and data.get("applied_tags") is not None:
            problems += self._applied_tag_problems(self.channel(channel.parent_id), data["applied_tags"])
        self._reject(label, problems)
        if channel.is_thread:
            self._may_edit_thread(channel, data)
        if channel.is_forum and data.get("available_tags") is not None:
            self._set_forum_tags(channel, data["available_tags"])
        if channel.in_forum and data.get("applied_tags") is not None:
            forum = self.channel(channel.parent_id)
            wanted = [int(t) for t in data["applied_tags"]]
            self._may_apply_tags(forum, set(channel.applied_tags) ^ set(wanted))
            channel.applied_tags = wanted
        renamed = data.get("name") not in (None, channel.name)
        if renamed and self.ratelimits is not None:
            decision = self.ratelimits.check_limit(label, ratelimits.RENAME_LIMIT, {"channel_id": channel_id})
            if not decision.allowed:
                self._violation(
                    f"{label}: #{channel.name} renamed a third time within 10 minutes; Discord makes the bot "
                    f"wait {decision.retry_after:.0f} s",
                    label,
                    429,
                )
                raise _RateLimited(decision)
        if "name" in data:
            channel.name = data["name"]
        if channel.is_thread:
            if "archived" in data and bool(data["archived"]) != channel.archived:
                channel.archived = bool(data["archived"])
                channel.archive_timestamp = time.time()
            if "locked" in data:
                channel.locked = bool(data["locked"])
            if data.get("auto_archive_duration") is not None:
                channel.auto_archive_duration = int(data["auto_archive_duration"])
                channel.archive_timestamp = time.time()
        conn = self._conn_for(channel)
        if conn is not None:
            event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
            self._spawn(conn.dispatch(event, channel.payload()))
        self._changed()
        return 200, channel.payload()

    def _may_edit_thread(self, thread: Channel, data: dict) -> None:
        """Discord's rules for editing a thread (topics/threads, Editing & Deleting Threads): the name,
        ``archived`` and ``auto_archive_duration`` need Manage Threads or being the thread's creator;
        ``locked`` and ``rate_limit_per_user`` need Manage Threads; a locked thread is unarchived only
        by its creator or with Manage Threads."""
        perms = thread.guild.channel_permissions_of(self.bot_user, thread)
        if not perms & VIEW_CHANNEL:
            raise _ApiError(403, {"message": "Missing Access", "code": 50001})
        manage = bool(perms & MANAGE_THREADS)
        creator = thread.owner_id == self.bot_user.id
        wants = set(data) & {
            "name",
            "archived",
            "auto_archive_duration",
            "locked",
            "rate_limit_per_user",
            "applied_tags",
        }
        if wants & {"locked", "rate_limit_per_user"} and not manage:
            raise _ApiError(403, {"message": "Missing Permissions", "code": 50013})
        if wants & {"name", "archived", "auto_archive_duration", "applied_tags"} and not (manage or creator):
            raise _ApiError(403, {"message": "Missing Permissions", "code": 50013})
        if thread.archived and data.get("archived") is not False:
            # Only unarchiving touches an archived thread; anything else is refused.
            raise _ApiError(
                400,
                {
                    "message": "Thread is archived; unarchive it (archived: false) before changing it",
                    "code": 50083,
                },
            )

    async def _r_delete_channel(self, request, label, channel_id):
        channel = self._channel_or_404(channel_id, label)
        if not channel.is_thread:
            v = self._violation(f"{label}: the bot deleted the channel #{channel.name}", label, 403)
            raise _ApiError(403, {"message": "Missing Permissions", "code": 50013}, v)
        channel.guild.channels.remove(channel)
        conn = self._conn_for(channel)
        if conn is not None:
            self._spawn(
                conn.dispatch(
                    "THREAD_DELETE",
                    {
                        "id": str(channel.id),
                        "guild_id": str(channel.guild.id),
                        "parent_id": str(channel.parent_id),
                        "type": channel.type,
                    },
                )
            )
        self._changed()
        return 200, channel.payload()

    def add_to_thread(self, user: User, thread: Channel, added: User) -> None:
        """``user`` adds ``added`` to ``thread`` (in Discord's client, by mentioning them in it:
        Add Thread Member, which needs the ability to send messages there).  The bot, added,
        hears ``THREAD_CREATE`` as Discord sends it to whoever is added to a thread it could not
        see ("Gaining Access to Private Threads"), then ``THREAD_MEMBERS_UPDATE``."""
        guild = thread.guild
        if guild is None or not thread.is_thread or thread.archived:
            raise UsageError(f"#{thread.name} is not an active thread")
        needed = VIEW_CHANNEL | SEND_MESSAGES_IN_THREADS
        if guild.channel_permissions_of(user, thread) & needed != needed:
            raise UsageError(f"{user.name} may not add anyone to #{thread.name}")
        self.clock.advance(self.user_pace)
        self._thread_joined(thread, added)

    def moderate_thread(
        self, user: User, thread: Channel, *, archived: bool | None = None, locked: bool | None = None
    ) -> None:
        """``user``, who may manage threads there (the server's owner, say), archives or locks
        ``thread`` (or undoes it); ``THREAD_UPDATE`` tells the bot."""
        guild = thread.guild
        if guild is None or not thread.is_thread:
            raise UsageError(f"#{thread.name} is not a thread")
        if not guild.channel_permissions_of(user, thread) & MANAGE_THREADS:
            raise UsageError(f"{user.name} may not manage #{thread.name}")
        self.clock.advance(self.user_pace)
        if archived is not None and archived != thread.archived:
            thread.archived = archived
            thread.archive_timestamp = time.time()
        if locked is not None:
            thread.locked = locked
        conn = self._conn_for(thread)
        if conn is not None:
            self._spawn(conn.dispatch("THREAD_UPDATE", thread.payload()))
        self._changed()

    def remove_from_thread(self, user: User, thread: Channel, removed: User) -> None:
        """``user`` (the thread's owner, or someone who may manage threads) removes ``removed``
        from ``thread``; the bot, removed, hears ``THREAD_MEMBERS_UPDATE`` with its id among
        ``removed_member_ids`` (and, from a private thread, loses sight of it)."""
        guild = thread.guild
        if guild is None or not thread.is_thread or removed.id not in thread.thread_members:
            raise UsageError(f"{removed.name} is not a member of #{thread.name}")
        if user.id != thread.owner_id and not guild.channel_permissions_of(user, thread) & MANAGE_THREADS:
            raise UsageError(f"{user.name} may not remove anyone from #{thread.name}")
        self.clock.advance(self.user_pace)
        thread.thread_members.discard(removed.id)
        conn = self._conn_for(thread)
        if conn is not None and removed.id == self.bot_user.id:
            self._spawn(
                conn.dispatch(
                    "THREAD_MEMBERS_UPDATE", members_news(thread, removed_member_ids=[str(removed.id)])
                )
            )
        self._changed()

    def _thread_joined(self, thread: Channel, added: User) -> None:
        if added.id in thread.thread_members:
            return
        thread.thread_members.add(added.id)
        conn = self._conn_for(thread)
        if conn is not None and added.id == self.bot_user.id:
            member = {
                "id": str(thread.id),
                "user_id": str(added.id),
                "join_timestamp": iso(self.wall()),
                "flags": 0,
            }
            self._spawn(conn.dispatch("THREAD_CREATE", {**thread.payload(), "member": member}))
            self._spawn(conn.dispatch("THREAD_MEMBERS_UPDATE", members_news(thread, added_members=[member])))
        self._changed()

    async def _r_thread_member(self, request, label, channel_id, user_id):
        """Join Thread (``@me``), Add Thread Member, and their DELETEs (resources/channel): the
        thread must be active; the bot joins only a thread it can view (a private one it was added
        to, or may manage), and adds others only where it can send messages."""
        channel = self._channel_or_404(channel_id, label)
        if not channel.is_thread:
            v = self._violation(f"{label}: #{channel.name} is not a thread", label)
            raise _ApiError(400, {"message": "Invalid thread", "code": 50024}, v)
        perms = channel.guild.channel_permissions_of(self.bot_user, channel)
        if not perms & VIEW_CHANNEL:
            log.info("bot cannot see #%s", channel.name)
            raise _ApiError(403, {"message": "Missing Access", "code": 50001})
        if channel.archived:
            raise _ApiError(400, {"message": "Thread is archived", "code": 50083})
        me = user_id == "@me"
        if not me and not perms & SEND_MESSAGES_IN_THREADS:
            raise _ApiError(403, {"message": "Missing Permissions", "code": 50013})
        who = self.bot_user if me else self.users.get(int(user_id))
        if who is None:
            raise _ApiError(404, {"message": "Unknown User", "code": 10013})
        if request.method == "PUT":
            self._thread_joined(channel, who)
        else:
            channel.thread_members.discard(who.id)
            self._changed()
        return 204, None

    async def _r_typing(self, request, label, channel_id):
        self._channel_or_404(channel_id, label)
        return 204, None

    async def _r_guild(self, request, label, guild_id):
        guild = self._guild_or_404(guild_id)
        return 200, guild.rest_payload()

    async def _r_member(self, request, label, guild_id, user_id):
        guild = self._guild_or_404(guild_id)
        member = guild.members.get(int(user_id)) if user_id.isdigit() else None
        if member is None:
            raise _ApiError(404, {"message": "Unknown Member", "code": 10007})
        return 200, member.payload()

    async def _r_guild_channels(self, request, label, guild_id):
        guild = self._guild_or_404(guild_id)
        return 200, [c.payload() for c in guild.channels if not c.is_thread]

    # -- forums (channels/topics: Forums; resources/channel: Start Thread in Forum or Media Channel) --

    @staticmethod
    def _applied_tag_problems(forum: Channel, tags: list) -> list[limits.Problem]:
        """A post's tags: at most five, each one of the forum's own."""
        problems = []
        if len(tags) > APPLIED_TAGS_MAX:
            problems.append(
                limits.Problem(
                    ("applied_tags",),
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {APPLIED_TAGS_MAX} or fewer in length.",
                    f"{len(tags)} tags on one post (limit {APPLIED_TAGS_MAX})",
                )
            )
        for i, tag in enumerate(tags):
            if not str(tag).isdigit() or forum.tag(int(tag)) is None:
                problems.append(
                    limits.Problem(
                        ("applied_tags", i),
                        "FORUM_TAG_UNKNOWN",
                        "Unknown tag.",
                        f"tag {tag} is not one of #{forum.name}'s tags "
                        f"({', '.join(t['name'] for t in forum.available_tags) or 'it has none'})",
                    )
                )
        return problems

    def _may_apply_tags(self, forum: Channel, changed: set[int]) -> None:
        """Adding or removing a moderated tag needs Manage Threads (an ordinary refusal)."""
        perms = forum.guild.channel_permissions_of(self.bot_user, forum)
        moderated = {int(t["id"]) for t in forum.available_tags if t.get("moderated")}
        if changed & moderated and not perms & MANAGE_THREADS:
            log.info("bot may not set the moderated tags of #%s", forum.name)
            raise _ApiError(403, {"message": "Missing Permissions", "code": 50013})

    @staticmethod
    def _tag_problems(forum: Channel, tags: list) -> list[limits.Problem]:
        problems = []
        if len(tags) > FORUM_TAGS_MAX:
            problems.append(
                limits.Problem(
                    ("available_tags",),
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {FORUM_TAGS_MAX} or fewer in length.",
                    f"{len(tags)} tags (limit {FORUM_TAGS_MAX})",
                )
            )
        for i, tag in enumerate(tags):
            problems += limits.length_problem(
                ("available_tags", i, "name"), tag.get("name") or "", 20, "tag name"
            )
        return problems

    def _set_forum_tags(self, forum: Channel, tags: list[dict]) -> None:
        perms = forum.guild.channel_permissions_of(self.bot_user, forum)
        if not perms & MANAGE_CHANNELS:
            log.info("bot may not edit #%s", forum.name)
            raise _ApiError(403, {"message": "Missing Permissions", "code": 50013})
        names = [t["name"] for t in tags]
        if len(set(names)) != len(names):
            v = self._violation(
                f"#{forum.name}: tag names must be unique ({names})", "PATCH /channels/{channel_id}"
            )
            raise _ApiError(400, {"message": "Tag names must be unique", "code": 40061}, v)
        forum.available_tags = [
            {
                "id": str(t["id"]) if t.get("id") and forum.tag(int(t["id"])) else str(snowflake()),
                "name": t["name"],
                "moderated": bool(t.get("moderated")),
                "emoji_id": t.get("emoji_id"),
                "emoji_name": t.get("emoji_name"),
            }
            for t in tags
        ]

    async def _forum_post(self, request, label: str, forum: Channel):
        """A post in a forum: a public thread and its first message, which has the thread's id.
        Needs Send Messages in the forum (Create Public Threads is ignored); the tags must be the
        forum's (at most five); a forum that requires a tag refuses a post without one (40067)."""
        data, files = await self._read_body(request, label)
        problems = limits.length_problem(("name",), data.get("name") or "", 100, "thread name", 1)
        message = data.get("message")
        if not isinstance(message, dict):
            problems.append(
                limits.Problem(
                    ("message",),
                    "BASE_TYPE_REQUIRED",
                    "This field is required",
                    "a forum post needs its message",
                )
            )
        else:
            problems += limits.check_message(
                message,
                [(n, b) for n, b, _ in files],
                file_size_limit=self.file_size_limit,
                base=("message",),
                flags=limits.CREATE_FLAGS,
            )
        tags = data.get("applied_tags") or []
        problems += self._applied_tag_problems(forum, tags)
        self._reject(label, problems)
        perms = forum.guild.channel_permissions_of(self.bot_user, forum)
        if not perms & VIEW_CHANNEL:
            log.info("bot cannot see #%s", forum.name)
            raise _ApiError(403, {"message": "Missing Access", "code": 50001})
        needed = {SEND_MESSAGES: "Send Messages"}
        if files:
            needed[ATTACH_FILES] = "Attach Files"
        if message.get("embeds"):
            needed[EMBED_LINKS] = "Embed Links"
        missing = [name for bit, name in needed.items() if not perms & bit]
        if missing:
            log.info("bot lacks %s in #%s", missing, forum.name)
            raise _ApiError(403, {"message": "Missing Permissions", "code": 50013})
        if forum.flags & REQUIRE_TAG and not tags:
            log.info("#%s requires a tag on each post", forum.name)
            raise _ApiError(
                400, {"message": "A tag is required to create a forum post in this channel", "code": 40067}
            )
        self._may_apply_tags(forum, {int(t) for t in tags})
        tid = snowflake()
        thread = Channel(tid, data["name"], forum.guild, 11, 0, forum.id, self.bot_user.id)
        thread.applied_tags = [int(t) for t in tags]
        if data.get("auto_archive_duration") is not None:
            thread.auto_archive_duration = int(data["auto_archive_duration"])
        forum.guild.channels.append(thread)
        conn = self._conn_for(thread)
        if conn is not None:
            self._spawn(conn.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True}))
        first = self._store_message(thread, self.bot_user, message, files, message_id=tid)
        return 201, {**thread.payload(), "message": first.payload()}

    def add_forum(
        self,
        name: str,
        tags: Iterable[str] = (),
        *,
        moderated: Iterable[str] = (),
        require_tag: bool = False,
        guild: Guild | None = None,
    ) -> Channel:
        """A forum channel (type 15) with ``tags`` (those in ``moderated`` only for members with
        Manage Threads); ``require_tag``: every post must carry one.  CHANNEL_CREATE tells the bot."""
        guild = guild or self.guild
        forum = Channel(snowflake(), name, guild, GUILD_FORUM, len(guild.channels))
        held = set(moderated)
        forum.available_tags = [
            {"id": str(snowflake()), "name": n, "moderated": n in held, "emoji_id": None, "emoji_name": None}
            for n in tags
        ]
        if require_tag:
            forum.flags |= REQUIRE_TAG
        guild.channels.append(forum)
        conn = self._conn_for_guild(guild)
        if conn is not None:
            self._spawn(conn.dispatch("CHANNEL_CREATE", forum.payload()))
        self._changed()
        return forum

    def tag_names(self, post: Channel) -> list[str]:
        """The names of the tags on a forum post."""
        forum = self.channel(post.parent_id)
        return [forum.tag(t)["name"] for t in post.applied_tags if forum.tag(t) is not None]  # type: ignore[index]

    def start_thread(
        self, user: User, channel: Channel, name: str, content: str = "", *, private: bool = False
    ) -> Channel:
        """``user`` starts a public thread named ``name`` in a text channel (Create Public Threads),
        a ``private`` one (Create Private Threads: only its members and moderators see it), or
        makes a post in a forum, ``content`` its first message (Send Messages): a thread whose
        ``owner_id`` is theirs.  ``THREAD_CREATE`` (``newly_created``) tells the bot, as it does of
        every thread it can view (then the post's ``MESSAGE_CREATE``): of a private thread only when
        it may manage threads there ("Private threads are only synced to you if you are a member or
        a moderator")."""
        guild = channel.guild
        if guild is None or not (channel.is_forum or channel.type == 0) or (private and channel.is_forum):
            kind = "private threads are" if private else "threads are"
            raise UsageError(
                f"{kind} started in a server's text channel{'' if private else ' or forum'}, not #{channel.name}"
            )
        needed = (
            SEND_MESSAGES
            if channel.is_forum
            else CREATE_PRIVATE_THREADS
            if private
            else CREATE_PUBLIC_THREADS
        )
        if (guild.channel_permissions_of(user, channel) & (VIEW_CHANNEL | needed)) != VIEW_CHANNEL | needed:
            raise UsageError(f"{user.name} may not start a thread in #{channel.name}")
        self.clock.advance(self.user_pace)
        thread = Channel(snowflake(), name, guild, 12 if private else 11, 0, channel.id, user.id)
        thread.thread_members.add(user.id)
        guild.channels.append(thread)
        conn = self._conn_for(thread)
        if conn is not None and guild.channel_permissions_of(self.bot_user, thread) & VIEW_CHANNEL:
            self._spawn(conn.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True}))
        if channel.is_forum:
            self._store_message(thread, user, {"content": content}, [], message_id=thread.id)
        self._changed()
        return thread

    async def _r_active_threads(self, request, label, guild_id):
        guild = self._guild_or_404(guild_id)
        # "all active threads in a guild that the current user can access"
        threads = [c.payload() for c in guild.threads_seen_by(self.bot_user)]
        return 200, {"threads": threads, "members": [], "has_more": False}

    def set_role_permissions(self, role: Role, permissions: int, *, guild: Guild | None = None) -> None:
        """Change a role's server-wide permissions (GUILD_ROLE_UPDATE tells the bot)."""
        guild = guild or self.guild
        role.permissions = permissions
        conn = self._conn_for_guild(guild)
        if conn is not None:
            self._spawn(
                conn.dispatch("GUILD_ROLE_UPDATE", {"guild_id": str(guild.id), "role": role.payload()})
            )
        self._changed()

    # -- scheduled events (resources/guild-scheduled-event) -----------------------------------------

    def events(self, guild: Guild | None = None) -> list[ScheduledEvent]:
        """The guild's scheduled events, as Discord holds them now (``wall`` time)."""
        guild = guild or self.guild
        self._events_tick(guild)
        return list(guild.scheduled_events)

    def _events_tick(self, guild: Guild) -> None:
        """What Discord does by itself: an external event starts at its start time and ends at its
        end time."""
        now = self.wall()
        for e in guild.scheduled_events:
            before = e.status
            if e.entity_type == EXTERNAL and e.status == SCHEDULED and now >= e.start:
                e.status = ACTIVE
            if e.entity_type == EXTERNAL and e.status == ACTIVE and e.end is not None and now >= e.end:
                e.status = COMPLETED
            if e.status != before:
                self._event_news("GUILD_SCHEDULED_EVENT_UPDATE", e)

    def _event_news(self, name: str, e: ScheduledEvent) -> None:
        conn = self._conn_for_guild(e.guild)
        if conn is not None and conn.intents & INTENT_GUILD_SCHEDULED_EVENTS:
            self._spawn(conn.dispatch(name, e.payload()))
        self._changed()

    def _guild_or_404(self, guild_id: str) -> Guild:
        guild = self.guild_by_id(guild_id)
        if guild is None:
            raise _ApiError(404, {"message": "Unknown Guild", "code": 10004})
        if not self.bot_in(guild):  # removed from it (see remove_bot)
            raise _ApiError(403, {"message": "Missing Access", "code": 50001})
        return guild

    @staticmethod
    def _when(value: str | None) -> float | None:
        if value is None:
            return None
        return datetime.datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()

    def _event_problems(self, data: dict, event: ScheduledEvent | None, guild: Guild) -> list[limits.Problem]:
        """Discord's rules for an event's fields (creating: ``event`` None; modifying: merged onto
        it): name 1-100, description up to 1000, the fields each entity type needs, a start in the
        future and an end after it."""
        problems = []
        if "name" in data or event is None:
            problems += limits.length_problem(("name",), data.get("name") or "", 100, "event name", 1)
        if data.get("description") is not None:
            problems += limits.length_problem(
                ("description",), data["description"], 1000, "event description", 1
            )
        kind = data.get("entity_type") or (event.entity_type if event else None)
        channel_id = data["channel_id"] if "channel_id" in data else (event.channel_id if event else None)
        metadata = data.get("entity_metadata") if "entity_metadata" in data else None
        location = (metadata or {}).get("location") if metadata else (event.location if event else None)
        end = (
            self._when(data["scheduled_end_time"])
            if data.get("scheduled_end_time")
            else (event.end if event else None)
        )
        start = (
            self._when(data["scheduled_start_time"])
            if data.get("scheduled_start_time")
            else (event.start if event else None)
        )

        def problem(field: str, code: str, message: str, reason: str) -> None:
            problems.append(limits.Problem((field,), code, message, reason))

        if kind == EXTERNAL:
            if channel_id is not None:
                problem(
                    "channel_id",
                    "GUILD_SCHEDULED_EVENT_CHANNEL_NOT_ALLOWED",
                    "Must be null for an external event.",
                    "an EXTERNAL event has no channel",
                )
            if not location:
                problem(
                    "entity_metadata",
                    "BASE_TYPE_REQUIRED",
                    "This field is required",
                    "an EXTERNAL event needs entity_metadata with a location",
                )
            else:
                problems += limits.length_problem(
                    ("entity_metadata", "location"), location, 100, "location", 1
                )
            if end is None:
                problem(
                    "scheduled_end_time",
                    "BASE_TYPE_REQUIRED",
                    "This field is required",
                    "an EXTERNAL event needs scheduled_end_time",
                )
        elif kind is not None:
            target = (
                next((c for c in guild.channels if c.id == int(channel_id)), None) if channel_id else None
            )
            if target is None or target.type != (13 if kind == 1 else 2):
                problem(
                    "channel_id",
                    "CHANNEL_TYPE_INVALID",
                    "Invalid channel.",
                    f"entity type {kind} needs a {'stage' if kind == 1 else 'voice'} channel of the guild",
                )
            if metadata:
                problem(
                    "entity_metadata",
                    "GUILD_SCHEDULED_EVENT_METADATA_NOT_ALLOWED",
                    "Must be null.",
                    f"entity type {kind} takes no entity_metadata",
                )
        if data.get("scheduled_start_time") and start is not None and start <= self.wall():
            problem(
                "scheduled_start_time",
                "GUILD_SCHEDULED_EVENT_SCHEDULE_PAST",
                "Cannot schedule event in the past.",
                f"start {data['scheduled_start_time']} is not in the future",
            )
        if start is not None and end is not None and end <= start:
            problem(
                "scheduled_end_time",
                "GUILD_SCHEDULED_EVENT_END_BEFORE_START",
                "Cannot schedule event to end before starting.",
                "the end is not after the start",
            )
        status = data.get("status")
        if (
            event is not None
            and status is not None
            and status != event.status
            and (event.status, status) not in EVENT_MOVES
        ):
            problem(
                "status",
                "GUILD_SCHEDULED_EVENT_INVALID_STATUS_TRANSITION",
                "Invalid status transition.",
                f"status {event.status} cannot become {status} (Discord allows 1->2, 2->3, 1->4)",
            )
        return problems

    def _may_manage_event(self, guild: Guild, event: ScheduledEvent | None) -> None:
        """External events: creating needs Create Events; changing or deleting one's own event
        Create Events or Manage Events, another's Manage Events (an ordinary refusal)."""
        perms = guild.permissions_of(self.bot_user)
        if event is None or event.creator is self.bot_user:
            allowed = perms & (CREATE_EVENTS if event is None else CREATE_EVENTS | MANAGE_EVENTS)
        else:
            allowed = perms & MANAGE_EVENTS
        if not allowed:
            log.info("bot may not manage scheduled events in %s", guild.name)
            raise _ApiError(403, {"message": "Missing Permissions", "code": 50013})

    async def _r_events(self, request, label, guild_id):
        guild = self._guild_or_404(guild_id)
        counts = request.query.get("with_user_count") in ("1", "true", "True")
        return 200, [{**e.payload(), **({"user_count": 0} if counts else {})} for e in self.events(guild)]

    async def _r_create_event(self, request, label, guild_id):
        guild = self._guild_or_404(guild_id)
        data, _ = await self._read_body(request, label)
        self._reject(label, self._event_problems(data, None, guild))
        self._may_manage_event(guild, None)
        self._events_tick(guild)
        if sum(e.status in (SCHEDULED, ACTIVE) for e in guild.scheduled_events) >= EVENTS_LIVE_MAX:
            raise _ApiError(
                400,
                {
                    "message": "Maximum number of uncompleted guild scheduled events reached (100)",
                    "code": 30038,
                },
            )
        metadata = data.get("entity_metadata") or {}
        event = ScheduledEvent(
            snowflake(),
            guild,
            self.bot_user,
            data["name"],
            int(data["entity_type"]),
            self._when(data["scheduled_start_time"]) or 0.0,
            self._when(data.get("scheduled_end_time")),
            description=data.get("description"),
            channel_id=int(data["channel_id"]) if data.get("channel_id") else None,
            location=metadata.get("location"),
            privacy_level=int(data["privacy_level"]),
        )
        guild.scheduled_events.append(event)
        self._event_news("GUILD_SCHEDULED_EVENT_CREATE", event)
        return 200, event.payload()

    async def _r_event(self, request, label, guild_id, guild_scheduled_event_id):
        guild = self._guild_or_404(guild_id)
        data, _ = await self._read_body(request, label)
        self._events_tick(guild)
        event = next((e for e in guild.scheduled_events if str(e.id) == guild_scheduled_event_id), None)
        if event is None:
            raise _ApiError(404, {"message": "Unknown Guild Scheduled Event", "code": 10070})
        if request.method == "GET":
            self._reject(label, [])
            return 200, event.payload()
        self._reject(label, self._event_problems(data, event, guild) if request.method == "PATCH" else [])
        self._may_manage_event(guild, event)
        if request.method == "DELETE":
            guild.scheduled_events.remove(event)
            self._event_news("GUILD_SCHEDULED_EVENT_DELETE", event)
            return 204, None
        if event.status in (COMPLETED, CANCELED):
            # Discord's ordinary answer: the event ended (by itself at its end time, or was cancelled).
            log.info("scheduled event %s is over", event.name)
            raise _ApiError(400, {"message": "Cannot update a finished event", "code": 180000})
        for key, attr in (
            ("name", "name"),
            ("description", "description"),
            ("privacy_level", "privacy_level"),
        ):
            if key in data:
                setattr(event, attr, data[key])
        if data.get("entity_type"):
            event.entity_type = int(data["entity_type"])
        if "channel_id" in data:
            event.channel_id = int(data["channel_id"]) if data["channel_id"] else None
        if event.entity_type == EXTERNAL and data.get("entity_metadata"):
            event.location = data["entity_metadata"].get("location")  # discarded for other types
        if data.get("scheduled_start_time"):
            event.start = self._when(data["scheduled_start_time"]) or event.start
        if "scheduled_end_time" in data:
            event.end = self._when(data["scheduled_end_time"])
        if data.get("status") is not None:
            event.status = int(data["status"])
        event.updates += 1
        self._event_news("GUILD_SCHEDULED_EVENT_UPDATE", event)
        return 200, event.payload()

    # -- gateway -----------------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        q = request.query
        if q.get("v") != "10" or q.get("encoding") != "json":
            self._violation(
                f"gateway opened with v={q.get('v')} encoding={q.get('encoding')} (want v=10, json)",
                "GATEWAY",
            )
            await ws.close(code=4012)
            return ws
        compress = q.get("compress")
        if compress not in (None, "zlib-stream"):
            self._violation(f"gateway compression {compress!r} is not supported by the stand-in", "GATEWAY")
            await ws.close(code=4000)
            return ws
        conn = _GatewayConnection(self, ws, compress == "zlib-stream")
        await conn.send(10, {"heartbeat_interval": 41250})
        try:
            async for frame in ws:
                if frame.type != aiohttp.WSMsgType.TEXT:
                    continue
                await self._gateway_op(conn, json.loads(frame.data))
        finally:
            if conn in self._conns:
                self._conns.remove(conn)
                self._changed()
        return ws

    async def _gateway_op(self, conn: _GatewayConnection, msg: dict) -> None:
        op, d = msg.get("op"), msg.get("d")
        if op == 1:
            conn.processed = max(conn.processed, int(d or 0))
            await conn.send(11)
            self._changed()
        elif op == 2:
            if d.get("token") != self.token:
                self._violation("IDENTIFY with the wrong token", "GATEWAY")
                await conn.ws.close(code=4004)
                return
            shard = d.get("shard", [0, 1])
            if (
                not isinstance(shard, list)
                or len(shard) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in shard)
                or not 0 <= shard[0] < shard[1]
            ):
                self._violation(
                    f"IDENTIFY with the invalid shard {shard!r}; Discord closes with 4010", "GATEWAY"
                )
                await conn.ws.close(code=4010)
                return
            conn.shard = (shard[0], shard[1])
            conn.intents = int(d.get("intents") or 0)
            self._session_shards[conn.session_id] = conn.shard
            self._conns.append(conn)
            self.identifies += 1
            served = [g for g in self.guilds if conn.serves(g) and self.bot_in(g)]
            await conn.dispatch(
                "READY",
                {
                    "v": 10,
                    "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False},
                    "guilds": [{"id": str(g.id), "unavailable": True} for g in served],
                    "session_id": conn.session_id,
                    "resume_gateway_url": f"wss://{GATEWAY_HOST}",
                    "shard": list(conn.shard),
                    "application": {"id": str(self.application_id), "flags": 0},
                    "private_channels": [],
                    "relationships": [],
                    "presences": [],
                    "user_settings": {},
                    "session_type": "normal",
                    "auth": {},
                    "geo_ordered_rtc_regions": [],
                },
            )
            for g in served:
                await conn.dispatch("GUILD_CREATE", g.payload(self.bot_user))
            conn.identified.set()
            self._changed()
        elif op == 6:
            if d.get("token") != self.token or d.get("session_id") not in self._session_shards:
                await conn.send(9, False)
                return
            conn.session_id = d["session_id"]
            conn.shard = self._session_shards[conn.session_id]
            self._conns.append(conn)
            self.resumes += 1
            await conn.dispatch("RESUMED", {})
            conn.identified.set()
            self._changed()
        elif op == 8:
            guild = self.guild_by_id(d.get("guild_id")) or self.guild
            members = list(guild.members.values())
            ids = d.get("user_ids")
            if ids:
                wanted = {int(x) for x in (ids if isinstance(ids, list) else [ids])}
                members = [m for m in members if m.user.id in wanted]
            await conn.dispatch(
                "GUILD_MEMBERS_CHUNK",
                {
                    "guild_id": str(guild.id),
                    "members": [m.payload() for m in members],
                    "chunk_index": 0,
                    "chunk_count": 1,
                    "not_found": [],
                    "nonce": d.get("nonce"),
                },
            )
        # op 3 (presence) and 4 (voice state) need no answer
