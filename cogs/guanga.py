"""``/guanga ...``: Guanga: Tejidos Andinos."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import slash_choices
from bot.surface.gamecog import CLOCK_DESCRIPTION, THREAD_DESCRIPTION, GameCog
from bot.surface.menus import Offers

PLACE = Offers(kinds=("P", "S"))  # /guanga place: P3B2, or S3B2 bought with shells
CLAIM = Offers(kinds=("C ", "R ", "done"))  # /guanga claim: the claim, the patches returned, done

MODES = slash_choices("guanga new", "mode")
CANNOT_PLACE = slash_choices("guanga new", "cannot_place")


class GuangaCog(
    GameCog, group_name="guanga", group_description="Guanga: Tejidos Andinos, weaving for 1-4 players"
):
    game = "guanga"

    @app_commands.command(name="new", description="Open a Guanga lobby in this channel")
    @app_commands.describe(
        mode="Which mode to play (default Beginner)",
        stoppers="Stoppers variant, Beginner and Apprentice only (default off)",
        players="The most players who may sit, 1-4 (1 plays the solo version)",
        cannot_place="2-4 players: when someone cannot place two basket patches (default: finish the round)",
        thread=THREAD_DESCRIPTION,
        clock=CLOCK_DESCRIPTION,
    )
    @app_commands.choices(mode=MODES, cannot_place=CANNOT_PLACE)
    async def new(
        self,
        interaction: discord.Interaction,
        mode: app_commands.Choice[str] | None = None,
        stoppers: bool = False,
        players: app_commands.Range[int, 1, 4] = 4,
        cannot_place: app_commands.Choice[str] | None = None,
        thread: bool = True,
        clock: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        options = {"mode": mode.value if mode else "beginner", "stoppers": stoppers}
        if cannot_place is not None:  # unset, a solo table takes the default it ignores
            options["cannot_place"] = cannot_place.value
        await self.open_lobby(interaction, options, players, thread=thread, clock=clock)

    @app_commands.command(name="place", description="Take a basket patch and place it on your guanga")
    @app_commands.describe(patch="Basket slot and cell, e.g. P3B2 (autocomplete lists the legal ones)")
    async def place(self, interaction: discord.Interaction, patch: app_commands.Range[str, 1, 100]) -> None:
        await self.play(interaction, patch, PLACE)

    @place.autocomplete("patch")
    async def _place_choices(self, interaction: discord.Interaction, current: str):
        return await self.front.menus.autocomplete(interaction, current, offers=PLACE, game=self.game)

    @app_commands.command(name="claim", description="Claim a market card by the shape on your guanga")
    @app_commands.describe(
        claim="Card, attribute and cells, e.g. C A03 yellow B2C3D4 (autocomplete lists them)"
    )
    async def claim(self, interaction: discord.Interaction, claim: app_commands.Range[str, 1, 100]) -> None:
        await self.play(interaction, claim, CLAIM)

    @claim.autocomplete("claim")
    async def _claim_choices(self, interaction: discord.Interaction, current: str):
        return await self.front.menus.autocomplete(interaction, current, offers=CLAIM, game=self.game)


async def setup(bot) -> None:
    await bot.add_cog(GuangaCog(bot))
