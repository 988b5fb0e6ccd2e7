"""``/guacamole ...``: Guacamole."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.surface.gamecog import CLOCK_DESCRIPTION, THREAD_DESCRIPTION, GameCog
from bot.surface.menus import Offers


class GuacamoleCog(
    GameCog, group_name="guacamole", group_description="Guacamole: a card game of dishes for 2-6 cooks"
):
    game = "guacamole"

    @app_commands.command(name="new", description="Open a Guacamole lobby in this channel")
    @app_commands.describe(
        players="The most players who may sit, 2-6",
        dishes_per_turn="New dishes allowed per turn (default 1; 0 = no limit)",
        thread=THREAD_DESCRIPTION,
        clock=CLOCK_DESCRIPTION,
    )
    @app_commands.choices(
        dishes_per_turn=[app_commands.Choice(name=str(n) if n else "no limit", value=n) for n in (1, 2, 3, 0)]
    )
    async def new(
        self,
        interaction: discord.Interaction,
        players: app_commands.Range[int, 2, 6] = 6,
        dishes_per_turn: int = 1,
        thread: bool = True,
        clock: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        await self.open_lobby(
            interaction, {"dishes_per_turn": dishes_per_turn}, players, thread=thread, clock=clock
        )

    @app_commands.command(name="prepare", description="Prepare a card from your hand, e.g. prep 5T")
    @app_commands.describe(card="The card to prepare (autocomplete lists your hand's legal ones)")
    async def prepare(self, interaction: discord.Interaction, card: app_commands.Range[str, 1, 100]) -> None:
        await self.play(interaction, _with_verb(card, "prep", ("prep", "prepare", "play", "free")))

    @prepare.autocomplete("card")
    async def _prepare_choices(self, interaction: discord.Interaction, current: str):
        return await self.front.menus.autocomplete(
            interaction, current, offers=Offers(kinds=("prep", "free")), game=self.game
        )

    @app_commands.command(name="dish", description="Lay a card into the dish you are making, e.g. dish 4T")
    @app_commands.describe(card="The next card of the dish, or done / cancel (autocomplete lists them)")
    async def dish(self, interaction: discord.Interaction, card: app_commands.Range[str, 1, 100]) -> None:
        await self.play(interaction, _with_verb(card, "dish", ("dish", "done", "cancel")))

    @dish.autocomplete("card")
    async def _dish_choices(self, interaction: discord.Interaction, current: str):
        return await self.front.menus.autocomplete(
            interaction, current, offers=Offers(kinds=("dish", "done", "cancel")), game=self.game
        )

    @app_commands.command(name="draw", description="Draw a card from the deck or a discard pile")
    @app_commands.describe(source="deck, x1 or x2")
    async def draw(self, interaction: discord.Interaction, source: app_commands.Range[str, 1, 20]) -> None:
        text = source.strip()
        await self.play(interaction, text if text.lower().startswith("draw") else f"draw {text}")

    @draw.autocomplete("source")
    async def _draw_choices(self, interaction: discord.Interaction, current: str):
        return await self.front.menus.autocomplete(
            interaction, current, offers=Offers(kinds=("draw",)), game=self.game
        )


def _with_verb(text: str, verb: str, verbs: tuple[str, ...]) -> str:
    """A command's option as a move: a card alone (``5T``, what the option asks for) gets the
    command's verb (``prep 5T``); a whole move from autocomplete (``prep 5T``, ``free 5T x1``,
    ``done``) goes as it is."""
    text = text.strip()
    words = text.split()
    if words and words[0].lower() in verbs:
        return text
    return f"{verb} {text}"


async def setup(bot) -> None:
    await bot.add_cog(GuacamoleCog(bot))
