"""The Nim test game's cog, built on the shared GameCog like every real game."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.surface.gamecog import CLOCK_DESCRIPTION, GameCog


class NimCog(GameCog, group_name="nim", group_description="Nim, the table's test game"):
    game = "nim"

    @app_commands.command(name="new", description="Open a Nim lobby in this channel")
    @app_commands.describe(
        piles="How many piles of stones",
        players="The most players who may sit",
        thread="Open it in a thread",
        clock=CLOCK_DESCRIPTION,
    )
    async def new(
        self,
        interaction: discord.Interaction,
        piles: app_commands.Range[int, 1, 5] = 3,
        players: app_commands.Range[int, 1, 4] = 2,
        thread: bool = True,
        clock: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        await self.open_lobby(interaction, {"piles": piles}, players, thread=thread, clock=clock)


async def setup(bot) -> None:
    await bot.add_cog(NimCog(bot))
