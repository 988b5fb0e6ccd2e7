"""``/pachakuna ...``: P'achakuna."""

from __future__ import annotations

import discord
from discord import app_commands

import engines
from bot.i18n import slash_choices
from bot.surface.gamecog import CLOCK_DESCRIPTION, THREAD_DESCRIPTION, GameCog
from bot.surface.menus import Offers

ROTATE = Offers(kinds=("r",))  # /pachakuna rotate
LLAMA = Offers(kinds=("m", "s", "b", "end"))  # /pachakuna llama

BOARDS = slash_choices("pachakuna new", "board")
LIMITS = next(o.choices for o in engines.GAMES["pachakuna"].options() if o.name == "max_turns") or ()
TURN_LIMITS = [app_commands.Choice(name=str(n) if n else "no limit", value=n) for n in LIMITS]
"""The turn limits the game allows (its ``max_turns`` option's choices), and no other number."""


class PachakunaCog(
    GameCog, group_name="pachakuna", group_description="P'achakuna: llamas and trade for 2 players"
):
    game = "pachakuna"

    @app_commands.command(name="new", description="Open a P'achakuna lobby in this channel (2 players)")
    @app_commands.describe(
        board="How the tiles are laid out (default plan A)",
        max_turns="End after this many turns, most colours winning (default: no limit)",
        thread=THREAD_DESCRIPTION,
        clock=CLOCK_DESCRIPTION,
    )
    @app_commands.choices(board=BOARDS, max_turns=TURN_LIMITS)
    async def new(
        self,
        interaction: discord.Interaction,
        board: app_commands.Choice[str] | None = None,
        max_turns: int = 0,
        thread: bool = True,
        clock: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        await self.open_lobby(
            interaction,
            {"board": board.value if board else "A", "max_turns": max_turns},
            2,
            thread=thread,
            clock=clock,
        )

    @app_commands.command(name="rotate", description="Turn a tile: field and sixths clockwise, e.g. r34+2")
    @app_commands.describe(rotation="Tile and turn, e.g. r34+2 (autocomplete lists the legal ones)")
    async def rotate(
        self, interaction: discord.Interaction, rotation: app_commands.Range[str, 1, 100]
    ) -> None:
        await self.play(interaction, rotation, ROTATE)

    @rotate.autocomplete("rotation")
    async def _rotate_choices(self, interaction: discord.Interaction, current: str):
        return await self.front.menus.autocomplete(interaction, current, offers=ROTATE, game=self.game)

    @app_commands.command(name="llama", description="Move, sell or buy with a llama, e.g. m1-56, s1, b1")
    @app_commands.describe(action="The llama's action (autocomplete lists the legal ones)")
    async def llama(self, interaction: discord.Interaction, action: app_commands.Range[str, 1, 100]) -> None:
        await self.play(interaction, action, LLAMA)

    @llama.autocomplete("action")
    async def _llama_choices(self, interaction: discord.Interaction, current: str):
        return await self.front.menus.autocomplete(interaction, current, offers=LLAMA, game=self.game)


async def setup(bot) -> None:
    await bot.add_cog(PachakunaCog(bot))
