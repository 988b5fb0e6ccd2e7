"""The bot: start-up, dependencies, extensions and command sync."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord.ext import commands

from bot.sessions import SessionService
from bot.settings import Settings
from bot.storage import Store
from bot.ui import DYNAMIC_ITEMS, Table

log = logging.getLogger(__name__)

EXTENSIONS: tuple[str, ...] = (
    "cogs.table",
    "cogs.guanga",
    "cogs.tiwanaku",
    "cogs.pachakuna",
    "cogs.nowa_gwinea",
    "cogs.guacamole",
)
"""The cogs loaded at start, in order.  A game's cog is added here when it lands."""


def intents() -> discord.Intents:
    """Slash commands need no privileged intents; guilds give channel and thread data."""
    chosen = discord.Intents.none()
    chosen.guilds = True
    return chosen


class PukllayBot(commands.Bot):
    def __init__(
        self,
        settings: Settings,
        *,
        extensions: Sequence[str] = EXTENSIONS,
        **client_options: Any,
    ):
        client_options.setdefault("intents", intents())
        client_options.setdefault("allowed_mentions", discord.AllowedMentions(everyone=False, roles=False))
        super().__init__(command_prefix=commands.when_mentioned, help_command=None, **client_options)
        self.settings = settings
        self.extension_list = tuple(extensions)
        self.store: Store | None = None
        self.sessions: SessionService | None = None
        self.table: Table | None = None

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.settings.database_path)
        self.sessions = SessionService(self.store, computer_seconds=self.settings.computer_seconds)
        self.table = Table(self, self.sessions)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        for name in self.extension_list:
            await self.load_extension(name)
        if self.settings.sync_commands:
            await self.sync_commands()
        self._deadline_task = asyncio.create_task(self._deadline_loop(), name="pukllay-deadlines")

    async def _deadline_loop(self) -> None:
        """Act on passed deadlines; they are in the database, so they survive restarts."""
        await self.wait_until_ready()
        while not self.is_closed():
            try:
                await self.run_due_deadlines()
            except Exception:
                log.exception("deadline check failed")
            await asyncio.sleep(self.settings.deadline_poll_seconds)

    async def run_due_deadlines(self) -> int:
        """Fire every deadline that has passed; returns how many acted."""
        acted = 0
        for session_id, version in await self.store.due_deadlines():
            result = await self.sessions.fire_deadline(session_id, version)
            if result is not None:
                acted += 1
                await self.table.announce(result)
        return acted

    async def sync_commands(self) -> None:
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to server %s", len(synced), self.settings.dev_guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d commands globally", len(synced))

    async def on_ready(self) -> None:
        log.info("ready as %s in %d servers", self.user, len(self.guilds))

    async def close(self) -> None:
        task = getattr(self, "_deadline_task", None)
        if task is not None:
            task.cancel()
        if self.table is not None and not await self.table.drain():
            log.warning("closing with interactions still being handled")
        try:
            await super().close()
        finally:
            if self.store is not None:
                await self.store.close()
                self.store = None
