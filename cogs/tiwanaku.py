"""``/tiwanaku ...``: Tiwanaku."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import slash_choices
from bot.surface.gamecog import CLOCK_DESCRIPTION, THREAD_DESCRIPTION, GameCog
from bot.surface.menus import Offers

DIVINE = Offers(kinds=("done", "pass"), contains="=")  # /tiwanaku divine: C3=2, then done; pass at the end
EXPLORE = Offers(kinds=("+",), contains="-")  # /tiwanaku explore: +A1, B3-C3, B3-out

BOARDS = slash_choices("tiwanaku new", "board")


class TiwanakuCog(
    GameCog, group_name="tiwanaku", group_description="Tiwanaku: explore and deduce, 1-4 players"
):
    game = "tiwanaku"

    @app_commands.command(name="new", description="Open a Tiwanaku lobby in this channel")
    @app_commands.describe(
        board="Board size (default automatic)",
        players="The most players who may sit, 1-4 (default: as many as the board seats)",
        thread=THREAD_DESCRIPTION,
        clock=CLOCK_DESCRIPTION,
    )
    @app_commands.choices(board=BOARDS)
    async def new(
        self,
        interaction: discord.Interaction,
        board: app_commands.Choice[str] | None = None,
        players: app_commands.Range[int, 1, 4] | None = None,
        thread: bool = True,
        clock: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        await self.open_lobby(
            interaction, {"board": board.value if board else "auto"}, players, thread=thread, clock=clock
        )

    @app_commands.command(name="divine", description="Guess the crop under one of your explorers, e.g. C3=2")
    @app_commands.describe(guess="Cell and crop, e.g. C3=2 (autocomplete lists the guesses you can make)")
    async def divine(self, interaction: discord.Interaction, guess: app_commands.Range[str, 1, 20]) -> None:
        await self.play(interaction, guess, DIVINE)

    @divine.autocomplete("guess")
    async def _divine_choices(self, interaction: discord.Interaction, current: str):
        return await self.front.menus.autocomplete(interaction, current, offers=DIVINE, game=self.game)

    @app_commands.command(name="explore", description="Move an explorer, e.g. +A1 to enter or B3-C3")
    @app_commands.describe(step="The explorer's move (autocomplete lists the legal ones)")
    async def explore(self, interaction: discord.Interaction, step: app_commands.Range[str, 1, 20]) -> None:
        await self.play(interaction, step, EXPLORE)

    @explore.autocomplete("step")
    async def _explore_choices(self, interaction: discord.Interaction, current: str):
        return await self.front.menus.autocomplete(interaction, current, offers=EXPLORE, game=self.game)


async def setup(bot) -> None:
    await bot.add_cog(TiwanakuCog(bot))
