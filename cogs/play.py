"""``/play ...``: fewer waits. ``/play next`` opens the game that has waited longest for you;
``/play watch`` sends you a game's public turn posts by DM (or stops); ``/play pass-ahead``
declares a pass for your next turn.  The work is :class:`bot.surface.waits.Waits`'s."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.app import PukllayBot
from bot.surface.gamecog import FrontCog
from bot.surface.replies import guarded
from bot.surface.waits import Waits


@app_commands.guild_only()
class PlayCog(
    FrontCog,
    group_name="play",
    group_description="Fewer waits: your next game, watching, passing ahead",
):
    @property
    def waits(self) -> Waits:
        return self.front.waits

    @app_commands.command(
        name="next", description="Open the game that has waited longest for you (only you see it)"
    )
    @guarded()
    async def next(self, interaction: discord.Interaction) -> None:
        await self.waits.next_game(interaction)

    @app_commands.command(
        name="watch", description="Get this game's public turn posts by direct message (again: stop)"
    )
    @guarded()
    async def watch(self, interaction: discord.Interaction) -> None:
        await self.waits.watch(interaction)

    @app_commands.command(
        name="pass-ahead", description="Pass at your next turn if it comes straight after this one"
    )
    @app_commands.describe(cancel="True: take back a pass you declared")
    @guarded()
    async def pass_ahead(self, interaction: discord.Interaction, cancel: bool = False) -> None:
        await self.waits.pass_ahead(interaction, cancel)


async def setup(bot: PukllayBot) -> None:
    await bot.add_cog(PlayCog(bot))
