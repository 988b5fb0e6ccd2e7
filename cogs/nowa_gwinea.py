"""``/nowa_gwinea ...``: Nowa Gwinea."""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands

from bot import alt, i18n
from bot.surface.attach import picture
from bot.surface.gamecog import CLOCK_DESCRIPTION, THREAD_DESCRIPTION, GameCog
from bot.surface.menus import Offers

PLACE = Offers(kinds=tuple("FILNPTUVWXYZ"))  # /nowa_gwinea place: a hut by its letter


class NowaGwineaCog(
    GameCog, group_name="nowa_gwinea", group_description="Nowa Gwinea: build villages at once, 1-4 players"
):
    game = "nowa_gwinea"

    @app_commands.command(name="new", description="Open a Nowa Gwinea lobby in this channel")
    @app_commands.describe(
        players="The most players who may sit, 1-4",
        side="Task boards' side: standard or hard (default standard)",
        boards="Everyone on the same board each round, or one board each (default same)",
        water_target="Water holes needed to call Gwinea (variant; default 5)",
        fruit_for_all="Variant: players who did not cover all the water score 2 per fruit bush covered",
        hard_seats="Seat numbers that play the hard side anyway, e.g. 1,2",
        hard_reroll="Hard side: roll again until all 5 water holes of the task need 6+ huts (default on)",
        thread=THREAD_DESCRIPTION,
        clock=CLOCK_DESCRIPTION,
    )
    @app_commands.choices(
        side=i18n.slash_choices("nowa_gwinea new", "side"),
        boards=i18n.slash_choices("nowa_gwinea new", "boards"),
    )
    async def new(
        self,
        interaction: discord.Interaction,
        players: app_commands.Range[int, 1, 4] = 4,
        side: app_commands.Choice[str] | None = None,
        boards: app_commands.Choice[str] | None = None,
        water_target: app_commands.Range[int, 1, 5] = 5,
        fruit_for_all: bool = False,
        hard_seats: app_commands.Range[str, 0, 20] = "",
        hard_reroll: bool = True,
        thread: bool = True,
        clock: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        options = {
            "side": side.value if side else "standard",
            "boards": boards.value if boards else "shared",
            "water_target": water_target,
            "fruit_for_all": fruit_for_all,
            "hard_seats": hard_seats,
            "hard_reroll": hard_reroll,
        }
        await self.open_lobby(interaction, options, players, thread=thread, clock=clock)

    @app_commands.command(
        name="place", description="Build a hut: letter, orientation 0-7, anchor cell, e.g. F3C4"
    )
    @app_commands.describe(hut="The hut placement (autocomplete lists the legal ones; see /nowa_gwinea huts)")
    async def place(self, interaction: discord.Interaction, hut: app_commands.Range[str, 1, 20]) -> None:
        await self.play(interaction, hut, PLACE)

    @place.autocomplete("hut")
    async def _place_choices(self, interaction: discord.Interaction, current: str):
        return await self.front.menus.autocomplete(interaction, current, offers=PLACE, game=self.game)

    @app_commands.command(name="gwinea", description="Call Gwinea! when your village covers the water holes")
    async def gwinea(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "gwinea")

    @app_commands.command(
        name="huts", description="A picture of the 12 huts and their orientations, for typing moves"
    )
    async def huts(self, interaction: discord.Interaction) -> None:
        renderer = self.info.load_renderer()
        t = i18n.private(interaction)
        if renderer is None:
            await interaction.response.send_message(
                t.gettext(
                    "This table draws no pictures, so there is no hut chart. A move is a hut's letter "
                    "(F I L N P T U V W X Y Z), its orientation 0-7 and its anchor's cell, e.g. F3C4."
                ),
                ephemeral=True,
            )
            return
        contrast = (await self.front.look.service.store.people.person(interaction.user.id)).contrast
        png = await asyncio.to_thread(renderer.render_huts, t.code, contrast)
        await interaction.response.send_message(
            t.gettext("The 12 huts: letter, then orientation 0-7, then the cell of the hut's anchor square."),
            file=picture(png, "nowa-gwinea-huts.png", alt.hut_chart(t)),
            ephemeral=True,
        )


async def setup(bot) -> None:
    await bot.add_cog(NowaGwineaCog(bot))
