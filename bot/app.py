"""The bot: start-up, dependencies, extensions, the scheduler, sharding and command sync.

Every application command is server-only: the tree's allowed contexts are
servers alone (the sync payload carries ``contexts: [0]`` and
``dm_permission: false`` for every command), and an interaction without a
server is refused in words anyway.  A command whose options Discord would
not normally send (an unknown choice value, say) gets a plain answer too.

Logging in is tried again, with growing waits (:class:`Backoff`), while Discord
cannot be reached (a network failure at start), each failure logged; a token
Discord refuses raises ``discord.LoginFailure`` at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n, profiles
from bot.computers import Computers
from bot.league.calendar import Calendar
from bot.league.noshow_desk import NoShowDesk
from bot.league.presence import Attendance, CheckinDesk
from bot.league.season import Rounds
from bot.league.service import LeagueService
from bot.queue.service import QueueService
from bot.sessions import SessionService
from bot.settings import Settings
from bot.storage import Store, open_store
from bot.surface import options, removal
from bot.surface.calendar import DiscordCalendar
from bot.surface.channels import NEEDED_FOR_THREADS, SERVERS_ONLY
from bot.surface.direct import end_notice
from bot.surface.front import DYNAMIC_ITEMS, Front
from bot.surface.league import LeaguePosts
from bot.surface.queue import QueuePosts
from bot.surface.replies import answer_unknown
from bot.time import jobs
from bot.time.alive import Heartbeat
from bot.time.scheduler import Scheduler, process_name
from bot.time.source import Clock
from bot.web import health
from bot.web.metrics import ANSWER_WITHIN, Metrics
from bot.web.pages import Pages
from bot.web.server import WebServer
from engines.core import said

log = logging.getLogger(__name__)

EXTENSIONS: tuple[str, ...] = (
    "cogs.table",
    "cogs.me",
    "cogs.guanga",
    "cogs.tiwanaku",
    "cogs.pachakuna",
    "cogs.nowa_gwinea",
    "cogs.guacamole",
    "cogs.league",
    "cogs.gates",
    "cogs.queue",
    "cogs.play",
    "cogs.help",
)
"""The cogs loaded at start, in order.  A game's cog is added here when it lands."""


ANSWERING = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-dynamic-item-",
    "discord-ui-modal-dispatch-",
)
"""How discord.py names the task it runs each interaction's callback in (a slash command, a
button, a menu, a form): :meth:`Pukllay.close` waits for them before it closes its HTTP connection."""
ANSWER_WAIT = 10.0
"""Seconds :meth:`Pukllay.close` waits for the interactions being answered."""


def answering() -> set[asyncio.Task[object]]:
    """The tasks answering interactions in this process now, whatever their kind (a guarded
    command's work, a help page, a refusal of an odd value, a button), but the one asking."""
    me = asyncio.current_task()
    return {task for task in asyncio.all_tasks() if task is not me and task.get_name().startswith(ANSWERING)}


async def answers_given(seconds: float = ANSWER_WAIT) -> int:
    """Wait (at most ``seconds``) for the interactions being answered in this process
    (:func:`answering`): closed under them, their answers would fail with the connection.  How
    many were still running."""
    running = answering()
    if not running:
        return 0
    log.info("closing: waiting for %d interaction(s) being answered", len(running))
    _, pending = await asyncio.wait(running, timeout=seconds)
    return len(pending)


SERVERS = app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)


class PukllayTree(app_commands.CommandTree):
    """The command tree: refuses interactions outside servers, and answers (instead of
    only logging) when a command cannot even be called with the values sent."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.guild_id is None:
            await self._tell(interaction, i18n.private(interaction).gettext(SERVERS_ONLY))
            return False
        return await self.values_check(interaction)

    async def values_check(self, interaction: discord.Interaction) -> bool:
        """Every option value is one the command takes (see :mod:`bot.surface.options`); otherwise the
        command is not run and the asker reads which option, what it takes and what came.  An
        autocomplete request with an odd value beside the one being typed gets no suggestions."""
        command = interaction.command
        data = interaction.data
        if not isinstance(command, app_commands.Command) or not isinstance(data, dict):
            return True
        focused = interaction.type is discord.InteractionType.autocomplete
        held = data.get("resolved")
        resolved = None if focused else held if isinstance(held, dict) else {}
        found = options.problem(command, options.command_options(data), focused=focused, resolved=resolved)
        if found is None:
            return True
        if focused:
            try:
                await interaction.response.autocomplete([])
            except discord.HTTPException:
                log.warning("could not answer autocomplete %s", interaction.id, exc_info=True)
            return False
        await self._tell(interaction, "⚠️ " + found.sentence.in_words(i18n.private(interaction)))
        return False

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.TransformerError):
            await self._tell(interaction, self.bad_value(interaction, error))
            return
        if isinstance(error, app_commands.CheckFailure):
            await self._tell(
                interaction,
                i18n.private(interaction).gettext(SERVERS_ONLY)
                if interaction.guild_id is None
                else i18n.private(interaction).gettext("⚠️ Not allowed here."),
            )
            return
        metrics = getattr(self.client, "metrics", None)
        if isinstance(metrics, Metrics):
            metrics.error("command")
        log.error(
            "command %s failed", interaction.command and interaction.command.qualified_name, exc_info=error
        )
        await self._tell(
            interaction,
            i18n.private(interaction).gettext("Something went wrong on our side. The error has been logged."),
        )

    @staticmethod
    def bad_value(interaction: discord.Interaction, error: app_commands.TransformerError) -> str:
        """Name the option whose value could not be converted (a member who has left the server,
        say), what it takes and what came."""
        t = i18n.private(interaction)
        given = vars(interaction.namespace)
        for param in getattr(interaction.command, "parameters", None) or ():
            if param.display_name in given and given[param.display_name] is error.value:
                got = options.shown(getattr(error.value, "id", error.value))
                sentence = said(
                    "The option {option} must be {allowed} (got {got}).",
                    option=options.option_name(param.display_name),
                    allowed=options.allowed(param),
                    got=got,
                )
                return "⚠️ " + sentence.in_words(t)
        return "⚠️ " + t.gettext(
            "{value} is not a value this command takes.", value=options.shown(error.value)
        )

    @staticmethod
    async def _tell(interaction: discord.Interaction, text: str) -> None:
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not answer interaction %s", interaction.id, exc_info=True)


@dataclass(frozen=True)
class Backoff:
    """The waits between login attempts: ``first`` seconds, doubled after each failure, at most ``most``."""

    first: float = 2.0
    most: float = 300.0

    def delays(self) -> Iterator[float]:
        delay = self.first
        while True:
            yield delay
            delay = min(delay * 2, self.most)


UNREACHABLE = (OSError, aiohttp.ClientError, asyncio.TimeoutError, discord.DiscordServerError)
"""What a login attempt raises when Discord cannot be reached (or answers 5xx): worth trying again."""


class CommandsRefused(RuntimeError):
    """Discord refused the slash commands for ``DEV_GUILD_ID``'s server (403): the bot is not in
    it, was invited without the ``applications.commands`` scope, or the id is not a server's.
    The message says so in one line; ``python -m bot`` prints it and stops."""


def invite_url(application_id: int) -> str:
    """The address that invites the bot: both scopes, and the permissions the table checks in a
    game's channel (:data:`bot.surface.channels.NEEDED_FOR_THREADS`), as the README gives them."""
    permissions = discord.Permissions(**{attr: True for attr, _ in NEEDED_FOR_THREADS})
    return (
        f"https://discord.com/oauth2/authorize?client_id={application_id}"
        f"&scope=bot+applications.commands&permissions={permissions.value}"
    )


def intents() -> discord.Intents:
    """Slash commands need no privileged intents; guilds give channel and thread data."""
    chosen = discord.Intents.none()
    chosen.guilds = True
    return chosen


if TYPE_CHECKING:  # a mixin for the two bots below; to the type checker, a bot (the table's client)
    from bot.surface.tableparts import TableClient

    _BotBase = TableClient
else:
    _BotBase = object


class Pukllay(_BotBase):
    """What the bot is, sharded or not: dependencies, extensions, the scheduler and command sync.

    Mixed into :class:`PukllayBot` (one gateway connection) and :class:`ShardedPukllayBot`
    (discord.py's ``AutoShardedBot``: the shards ``SHARD_IDS`` of ``SHARD_COUNT`` in this
    process).  Every process runs the scheduler; jobs are claimed in the database, so each
    fires once whichever process takes it.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        extensions: Sequence[str] = EXTENSIONS,
        store: Store | None = None,
        clock: Clock | None = None,
        start_scheduler: bool = True,
        backoff: Backoff = Backoff(),
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        **client_options: Any,
    ):
        client_options.setdefault("intents", intents())
        # Nothing the bot sends pings anyone unless that message names them in its own
        # allowed_mentions: names and league names people typed may hold mentions.
        client_options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            tree_cls=PukllayTree,
            allowed_contexts=SERVERS,
            **client_options,
        )
        self.settings = settings
        self.extension_list = tuple(extensions)
        self.store: Store | None = store  # opened already (python -m bot checks it before logging in)
        self.clock = clock
        self.start_scheduler = start_scheduler  # tests that move a manual clock fire jobs by hand
        self.backoff = backoff  # the waits between login attempts Discord could not answer
        self.sleep = sleep  # how those waits are waited (tests wait on events instead)
        self.sessions: SessionService | None = None
        self.front: Front | None = None  # the Discord side's parts
        self.scheduler: Scheduler | None = None
        self.heartbeat: Heartbeat | None = None  # the bot's outages kept for the clocks (bot.time.alive)
        self.leagues: LeagueService | None = None
        self.league_rounds: Rounds | None = None  # the leagues' rounds, deadlines and season ends
        self.league_attendance: Attendance | None = None
        self.league_noshows: NoShowDesk | None = None  # the leagues' reminders, no-shows and substitutes
        self.queue: QueueService | None = None  # the queue that forms games
        self.computers: Computers | None = None
        self._computers_resumed = False
        # set once the games left waiting at the start are taken up (their catch-ups under way)
        self.taken_up = asyncio.Event()
        self._taking_up: asyncio.Task[None] | None = None  # the start's look for those games, while it runs
        self.metrics = Metrics()  # what /metrics shows; the table's parts report to it
        self.web: WebServer | None = None  # /healthz and /metrics, when HTTP_PORT is set
        self.login_trouble: str | None = None  # why the last login attempt failed, while retrying
        self._cogs_loaded = False  # by the first setup_hook (a sync Discord failed runs it again)
        self._answer_checks: set[asyncio.TimerHandle] = set()
        # the templates of the persistent components (see add_dynamic_items)
        self.known_components: list[re.Pattern[str]] = []
        # the Discord events being handled that use the database; close waits for them to end
        # before it closes the store, and once it has, events find no front (see :meth:`event_front`)
        self._handling: set[asyncio.Task[object]] = set()
        self._store_closing = False
        self.stopped_for: str | None = None  # why the bot stopped itself (another process took its shards)
        self._running: asyncio.Task[object] | None = None  # the task that logged in (and runs the bot)

    def ready_sessions(self) -> SessionService:
        """The session service, which ``setup_hook`` makes before any cog or job can ask."""
        if self.sessions is None:
            raise RuntimeError("the bot has not been set up yet (setup_hook makes its sessions)")
        return self.sessions

    def ready_front(self) -> Front:
        """The Discord side's parts, which ``setup_hook`` makes before any cog or job can ask."""
        if self.front is None:
            raise RuntimeError("the bot has not been set up yet (setup_hook makes its front)")
        return self.front

    @property
    def shard_label(self) -> str:
        ids = getattr(self, "shard_ids", None)
        return f"shards {','.join(map(str, ids))}/{self.shard_count}" if ids else ""

    async def login(self, token: str) -> None:
        """discord.py's login, tried again while Discord cannot be reached; a refused token raises
        ``discord.LoginFailure`` at once (it is never tried again).  The table's Discord-free parts
        and the web server are ready before the first attempt (:meth:`prepare`): while Discord
        cannot be reached, ``/healthz`` says why (503) instead of refusing the connection."""
        self._running = asyncio.current_task()
        await self.prepare()
        for attempt, delay in enumerate(self.backoff.delays(), 1):
            try:
                await super().login(token)
            except UNREACHABLE as exc:
                reason = f"{exc.__class__.__name__}: {exc}"
                self.login_trouble = f"login attempt {attempt} failed: cannot reach Discord ({reason})"
                log.warning(
                    "cannot reach Discord (%s); login attempt %d failed, trying again in %g s",
                    reason,
                    attempt,
                    delay,
                )
                self._drop_http_session()
                await self.sleep(delay)
                continue
            self.login_trouble = None
            if attempt > 1:
                log.info("logged in to Discord at attempt %d", attempt)
            return

    def _shards_lost(self, problem: str) -> None:
        """Another process serves one of this one's shards (taken while the database was away):
        this one stops rather than answer its commands twice: the task that runs it is cancelled,
        as SIGTERM cancels it (the bot closes on its way out), and ``python -m bot`` exits with 2."""
        if self.stopped_for is None:
            self.stopped_for = problem
            if self._running is not None:
                self._running.cancel()

    def _drop_http_session(self) -> None:
        """The failed attempt's HTTP session, let go without closing the connector the next one uses."""
        session = getattr(self.http, "_HTTPClient__session", None)
        if isinstance(session, aiohttp.ClientSession) and not session.closed:
            session.detach()

    async def prepare(self) -> None:
        """The table's parts that need no Discord (the database, the computers, the sessions, the
        services, the scheduler's jobs) and the web server (``HTTP_PORT``), made once, before the
        first login attempt; the scheduler starts only once logged in (:meth:`setup_hook`)."""
        if self.sessions is not None:
            return
        if self.store is None:
            self.store = await open_store(
                self.settings.database,
                clock=self.clock,
                statement_seconds=self.settings.statement_seconds,
                durable=self.settings.durable,
            )
        count = self.settings.shard_count or 1
        ids = self.settings.shard_ids if self.settings.shard_ids is not None else range(count)
        await self.store.claim_shards(count, list(ids), self._shards_lost)
        self.computers = Computers(self.settings.computer_workers)
        await self.computers.start()
        self.sessions = SessionService(
            self.store,
            computer_seconds=self.settings.computer_seconds,
            computers=self.computers,
            metrics=self.metrics,
        )
        self.sessions.computers_wait = True  # a person's move is posted before the computers search
        self.front = Front(self, self.sessions)
        self.scheduler = Scheduler(
            self.store,
            owner=process_name(self.shard_label),
            poll=self.settings.job_poll_seconds,
            metrics=self.metrics,
        )
        front = self.ready_front()
        self.leagues = LeagueService(self.store, self.sessions)
        posts = LeaguePosts(front)
        self.league_rounds = rounds = Rounds(self.leagues, posts, self.scheduler)
        self.league_attendance = Attendance(self.leagues)  # check-ins, byes asked for, pauses
        rounds.gate = CheckinDesk(rounds, posts, self.league_attendance)
        self.league_noshows = desk = NoShowDesk(rounds)
        rounds.calendar = Calendar(self.store, rounds.posts, DiscordCalendar(self))
        front.boards.after_board.append(rounds.calendar.board_posted)
        front.boards.table_gone = rounds.table_gone
        posts.ended_gone = rounds.ended_gone
        store = self.store
        self.queue = queue = QueueService(
            store,
            self.sessions,
            QueuePosts(front),
            gate=lambda guild_id, user_id, game: profiles.queue_admissible(store, guild_id, user_id, game),
        )
        jobs.register(  # every job kind, each with its owner's handler (see bot.time.jobs)
            self.scheduler,
            {
                jobs.DEADLINE: front.clocks.deadline,
                jobs.ARCHIVE: lambda job: front.boards.archive_thread(int(job.key)),
                jobs.REMIND: lambda job: front.reminders.remind(
                    int(job.key), held=bool(job.payload.get("held")), due=float(job.due_at)
                ),
                jobs.TIMEOUT: front.clocks.unanswered,
                jobs.LEAGUE_ROUND: desk.fire_round,  # opens the round (Rounds), then arms its reminder
                jobs.LEAGUE_DEADLINE: desk.fire_deadline,  # no-shows first, then the round's end (Rounds)
                jobs.LEAGUE_NUDGE: desk.fire_nudge,
                jobs.LEAGUE_HELD: desk.fire_held,
                jobs.QUEUE_EXPIRE: queue.expired,
                jobs.QUEUE_CONFIRM: queue.unconfirmed,
                jobs.QUEUE_BACK: queue.back,
                jobs.AUTOPLAY: front.waits.autoplay,
                jobs.CLOCK_WARNING: front.waits.warning,
                jobs.END_NOTICE: lambda job: end_notice(front.notifier, job),
                jobs.BOARD: front.catchup.retry,
                jobs.AFTER_BOARD: front.boards.tell_after,
                jobs.ASK: front.clocks.ask_again,
                jobs.TIMEOUT_NOTICE: front.clocks.tell_held,
                jobs.UNDO_NOTICE: front.undo.tell_held,
            },
        )
        # Confirm buttons a stop left on the queue's tables no longer waiting go at the scheduler's
        # first round, not when their time to confirm would have run out.
        await queue.sweep()
        if self.settings.http_port is not None:
            web = WebServer(
                self,
                lambda: self.store,
                self.metrics,
                host=self.settings.http_host,
                port=self.settings.http_port,
                pages=Pages(self.sessions, front.history) if self.settings.web_pages else None,
            )
            await web.start()
            self.web = web

    async def setup_hook(self) -> None:
        """Once logged in: the buttons, the commands (synced), the cogs, then the scheduler.  When
        Discord cannot be reached for the sync, the login is tried again (:meth:`login`) and this
        runs again: what was done already (the cogs loaded) is not done twice."""
        await self.prepare()
        assert self.scheduler is not None  # (made by prepare)
        if not self._cogs_loaded:
            self.add_dynamic_items(*DYNAMIC_ITEMS)
            await self.tree.set_translator(i18n.Translator())  # slash commands in every catalogue's language
            for name in self.extension_list:
                if name not in self.extensions:
                    await self.load_extension(name)
            self._cogs_loaded = True
        if self.settings.sync_commands and self.syncs_commands:
            await self.sync_commands()
        if self.heartbeat is None:  # the time out of service ends: kept before any job fires
            count = self.settings.shard_count or 1
            ids = self.settings.shard_ids if self.settings.shard_ids is not None else range(count)
            self.heartbeat = Heartbeat(
                self.scheduler.store, count, list(ids), connected=self.connected_shards
            )
            await self.heartbeat.start()
        if self.start_scheduler:
            self.scheduler.start()

    def connected_shards(self) -> set[int]:
        """The shards this process serves whose connection to Discord is live now."""
        return {shard.id for shard in health.shards(self) if shard.connected}

    @property
    def syncs_commands(self) -> bool:
        """One process pushes the commands: the one serving shard 0 (or the only one)."""
        ids = getattr(self, "shard_ids", None)
        return ids is None or 0 in ids

    async def sync_commands(self) -> None:
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            try:
                synced = await self.tree.sync(guild=guild)
            except discord.Forbidden as exc:
                raise CommandsRefused(
                    f"DEV_GUILD_ID {self.settings.dev_guild_id}: Discord refused the slash commands there "
                    f"({exc.text or exc.status}): invite the bot to that server with the bot and "
                    "applications.commands scopes (see 'Inviting the bot' in the README), or set "
                    "DEV_GUILD_ID to the id its icon's Copy Server ID gives (empty: commands everywhere)"
                ) from None
            log.info("synced %d commands to server %s", len(synced), self.settings.dev_guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d commands globally", len(synced))

    async def page_link(self, kind: str, ref: int, guild_id: int | None) -> str | None:
        """The web page's address of a game, league or person of server ``guild_id`` (None when
        the pages are off there)."""
        if self.web is None:
            return None
        return await self.web.link(kind, ref, guild_id, self.settings.public_url)

    async def on_ready(self) -> None:
        if self.guilds or self.application_id is None:
            log.info("ready as %s in %d servers", self.user, len(self.guilds))
        else:  # started before it was invited: say how
            log.warning(
                "ready as %s in no server yet; invite it: %s", self.user, invite_url(self.application_id)
            )
        if not self._computers_resumed and self.front is not None:
            # a computer that was to move when the bot stopped moves now, after the board of a
            # turn that ended and was never posted
            self._computers_resumed = True
            # and a game whose end was stored and whose last board was not gets it
            play, guilds = self.ready_sessions().play, [g.id for g in self.guilds]
            self._taking_up = asyncio.current_task()  # a close meanwhile stops it before the store
            try:
                for session_id in [*await play.computers_waiting(guilds), *await play.ends_untold(guilds)]:
                    self.front.catchup.computers_follow(session_id, catch_up=True)
            finally:
                self._taking_up = None
                self.taken_up.set()
        await self.servers_left()  # (after the take-up, which a close stops before the store)

    @contextlib.asynccontextmanager
    async def event_front(self) -> AsyncIterator[Front | None]:
        """The front for a Discord event's handler that uses the database, or None once the bot is
        closing its store (an event dispatched as the connection closed: what it would do waits
        for the next start, which posts what is owed).  :meth:`close` waits for the handlers
        holding it before it closes the store, so none reaches a closed database."""
        task = asyncio.current_task()
        if self.front is None or self._store_closing or task is None:
            yield None
            return
        self._handling.add(task)
        try:
            yield self.front
        finally:
            self._handling.discard(task)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A thread was deleted: a game or lobby in it ends (see :meth:`Boards.channel_gone`)."""
        async with self.event_front() as front:
            if front is not None:
                await front.boards.channel_gone(payload.guild_id, payload.thread_id)

    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        """A channel changed (its permissions, perhaps): boards refused in its server are tried now."""
        async with self.event_front() as front:
            if front is not None:
                await front.boards.unposted.permissions_changed(after.guild.id)

    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        """A role changed (its permissions, perhaps): boards refused in its server are tried now."""
        async with self.event_front() as front:
            if front is not None:
                await front.boards.unposted.permissions_changed(after.guild.id)

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """A thread changed (unlocked, perhaps; a closed one is not in the cache, hence the raw
        event): boards refused in its server are tried now, unless it is still locked."""
        metadata = payload.data.get("thread_metadata")
        async with self.event_front() as front:
            if front is not None and not (metadata and metadata.get("locked")):
                await front.boards.unposted.permissions_changed(payload.guild_id)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a server (discord.py tells an outage apart: that is
        ``on_guild_unavailable``): the server's leagues are cancelled, its games and lobbies end
        (see :meth:`Boards.channel_gone`), and its queue empties (:meth:`QueueService.server_gone`).
        A removal while the bot was not running sends no event: the next READY, which does not
        list the server, tells it (:meth:`servers_left`; see :mod:`bot.surface.removal`)."""
        log.info("removed from server %s", guild.id)
        async with self.event_front() as front:
            if front is not None:
                await removal.server_gone(front, self.queue, guild.id)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """Invited to a server (again: Discord drops an application's commands registered in a
        server it was removed from): invited to ``DEV_GUILD_ID``, the bot registers its commands
        there again, which it otherwise does only at its start."""
        log.info("invited to server %s", guild.id)
        if guild.id == self.settings.dev_guild_id and self.settings.sync_commands:
            try:
                await self.sync_commands()
            except (CommandsRefused, discord.HTTPException) as exc:
                log.warning("server %s: the commands could not be registered again: %s", guild.id, exc)

    async def servers_left(self) -> list[int]:
        """At READY: what went on in the servers that removed the bot while it was not running
        ends (:func:`bot.surface.removal.servers_left`).  The servers found."""
        async with self.event_front() as front:
            if front is None or self.store is None:  # (closing)
                return []
            return await removal.servers_left(self, self.store, front, self.queue)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel was deleted: the games in it and in its threads end (see :meth:`Boards.channel_gone`)."""
        async with self.event_front() as front:
            if front is not None:
                await front.boards.channel_gone(channel.guild.id, channel.id)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every interaction (command, autocomplete, button): keep the person's client language for
        their direct messages (written only when it changed; see Notifier.remember_locale); count
        it, and count it late if it is not answered within Discord's 3 s of its creation."""
        self.watch_answer(interaction)
        await answer_unknown(interaction, self.known_components)
        async with self.event_front() as front:
            if front is not None and interaction.locale is not None:
                await front.notifier.remember_locale(interaction.user.id, interaction.locale.value)

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """Register persistent components (the table's, a cog's), and keep their templates: a
        click matching none of them is answered by :func:`bot.surface.replies.answer_unknown`."""
        super().add_dynamic_items(*items)
        self.known_components.extend(item.__discord_ui_compiled_template__ for item in items)

    def watch_answer(self, interaction: discord.Interaction) -> None:
        """Count ``interaction``, and check once its 3 s have passed (from its creation, read from
        its snowflake; from now if that reads as later) that it was answered or deferred."""
        kind = interaction.type.name
        self.metrics.interaction_received(kind)
        age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        delay = ANSWER_WITHIN - min(max(age, 0.0), ANSWER_WITHIN)

        def due() -> None:
            self._answer_checks.discard(handle)
            if not interaction.response.is_done():
                self.metrics.interaction_late(kind)
                log.warning("interaction %s (%s) was not answered within 3 s", interaction.id, kind)

        handle = asyncio.get_running_loop().call_later(delay, due)
        self._answer_checks.add(handle)

    async def on_error(self, event_method: str, /, *args: Any, **kwargs: Any) -> None:
        """A Discord event handler raised: counted, then logged as discord.py does."""
        self.metrics.error("event")
        await super().on_error(event_method, *args, **kwargs)

    async def close(self) -> None:
        for handle in self._answer_checks:
            handle.cancel()
        self._answer_checks.clear()
        if self.web is not None:
            await self.web.stop()
            self.web = None
        if self.scheduler is not None:
            await self.scheduler.stop()
        if self.heartbeat is not None:
            await self.heartbeat.stop()
            self.heartbeat = None
        taking_up = self._taking_up
        if taking_up is not None and taking_up is not asyncio.current_task():
            # closed while the start still looked for the games left waiting: they are found
            # again at the next start (nothing is taken up twice), and the store closes unread
            taking_up.cancel()
            await asyncio.gather(taking_up, return_exceptions=True)
        if self.front is not None and not await self.front.catchup.drain(closing=True):
            log.warning("closing with interactions still being handled")
        if self.queue is not None:  # the matchings games' ends started, while Discord still answers
            await self.queue.settled()
        self._answers_before_http_closes()
        try:
            await super().close()
        finally:
            # the connection is closed: no event comes now; those being handled end first
            self._store_closing = True
            handling = [t for t in self._handling if t is not asyncio.current_task()]
            if handling:
                await asyncio.wait(handling, timeout=10.0)
            if self.queue is not None:  # those started meanwhile read the store: they end before it closes
                await self.queue.settled()
            if self.computers is not None:
                await self.computers.close()
            if self.store is not None:
                await self.store.close()
                self.store = None

    def _answers_before_http_closes(self) -> None:
        """discord.py's close shuts the gateway, then the HTTP connection: between the two, once no
        interaction can come any more, the interactions being answered (those that came as the bot
        was closing too) are waited for (:func:`answers_given`), so that none is closed under."""
        close_http = self.http.close

        async def close() -> None:
            if await answers_given():
                log.warning("closing with interactions still being answered")
            await close_http()

        self.http.close = close  # type: ignore[method-assign]  # discord.py's close calls it after the gateway's


class PukllayBot(Pukllay, commands.Bot):
    """The bot on one gateway connection (no sharding)."""


class ShardedPukllayBot(Pukllay, commands.AutoShardedBot):
    """The bot serving the shards ``SHARD_IDS`` of ``SHARD_COUNT`` (all of them without SHARD_IDS)."""


def create_bot(settings: Settings, **options: Any) -> Pukllay:
    """The bot the settings ask for: sharded when ``SHARD_COUNT`` is set."""
    if settings.sharded:
        options.setdefault("shard_count", settings.shard_count)
        if settings.shard_ids is not None:
            options.setdefault("shard_ids", list(settings.shard_ids))
        return ShardedPukllayBot(settings, **options)
    return PukllayBot(settings, **options)
