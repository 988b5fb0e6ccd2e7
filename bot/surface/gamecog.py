"""The base of every game's cog: ``/<game> move`` with autocomplete and ``/<game> rules``; and
:class:`FrontCog`, the base of every command group that reaches the table through the bot's front.

A game's cog subclasses :class:`GameCog` with ``group_name`` set to the game's
registry name, adds a ``new`` command carrying that game's options (which calls
:meth:`GameCog.open_lobby`), and may add commands for its moves that end in
:meth:`GameCog.play`.  The cog holds no rules and no SQL.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

import engines
from bot import i18n
from bot.surface.front import Front
from bot.surface.menus import EVERY_MOVE, Offers
from bot.surface.replies import guarded
from bot.texts import pieces

if TYPE_CHECKING:
    from bot.app import Pukllay


CLOCK_DESCRIPTION = "A clock: move:24h (each turn), bank:3d+12h (a time bank plus an increment), or off"
THREAD_DESCRIPTION = (
    "Open the game in its own thread (default on; inside a thread or forum post it stays there)"
)


class FrontCog(commands.GroupCog):
    """A command group of the bot's (a game's, ``/game``, ``/me``...): the bot, and the Discord
    side it reaches once ready."""

    def __init__(self, bot: Pukllay):
        self.bot = bot

    @property
    def front(self) -> Front:
        return self.bot.ready_front()


@app_commands.guild_only()
class GameCog(FrontCog):
    game: ClassVar[str]

    def __init__(self, bot: Pukllay):
        super().__init__(bot)
        self.info = engines.get(self.game)

    @guarded(defer=False)
    async def open_lobby(
        self,
        interaction: discord.Interaction,
        options: Mapping[str, object],
        players: int | None = None,
        *,
        thread: bool = True,
        clock: str | None = None,
    ) -> None:
        await self.front.lobby.open(interaction, self.game, options, players, thread=thread, clock=clock)

    @guarded(defer=False)
    async def play(self, interaction: discord.Interaction, move: str, offers: Offers = EVERY_MOVE) -> None:
        """Play ``move``; a game's own command passes the moves it ``offers`` (as its autocomplete)."""
        await self.front.menus.play(interaction, move, game=self.game, offers=offers)

    async def move_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.front.menus.autocomplete(interaction, current, game=self.game)

    @app_commands.command(
        name="move", description="Play a move in this channel's game (autocomplete lists the legal ones)"
    )
    @app_commands.describe(move="The move in the game's notation; start typing to see the legal moves")
    async def move(self, interaction: discord.Interaction, move: app_commands.Range[str, 1, 100]) -> None:
        await self.play(interaction, move)

    @move.autocomplete("move")
    async def _move_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self.move_choices(interaction, current)

    @app_commands.command(name="rules", description="A short guide to the game and its notation")
    async def rules(self, interaction: discord.Interaction) -> None:
        t = i18n.private(interaction)
        rules = getattr(self.info.load(), "RULES_HELP", None)
        if rules:  # the engine marks its guide for translation (N_); the asker reads it in their language
            text = t.gettext(rules)
        else:
            text = t.gettext("No help is written for {game} yet.", game=self.info.title)
        # A guide longer than a message (Guanga's, in Spanish) follows in more private messages.
        first, *rest = pieces(text)
        await interaction.response.send_message(first, ephemeral=True)
        for more in rest:
            await interaction.followup.send(more, ephemeral=True)
