"""The bot as the Discord side's parts see it, written down as a type.

The parts (:class:`bot.surface.front.Front` makes them) know the bot as :class:`TableClient`, so
they never import the bot that makes them: the imports run one way (``bot.app ->
bot.surface.front -> bot.surface.<feature>``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from discord.ext import commands

    from bot.settings import Settings
    from bot.time.scheduler import Scheduler

    class TableClient(commands.Bot):
        """The bot as its parts see it (to the type checker; :class:`bot.app.Pukllay` is one)."""

        settings: Settings
        scheduler: Scheduler | None
        sleep: Callable[[float], Awaitable[object]]  # how the table waits before trying again

        async def page_link(self, kind: str, ref: int, guild_id: int | None) -> str | None: ...
