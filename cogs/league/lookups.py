"""``/league standings``, ``round``, ``bracket`` and ``export``: what people look at (a text too long
for one message, such as a bracket of 64, comes whole in several: :func:`bot.texts.pieces`)."""

from __future__ import annotations

import io
import re

import discord
from discord import app_commands

from bot import i18n
from bot.league import texts
from bot.league.season import Picture
from bot.league.service import LeagueError
from bot.surface.league import file_of
from bot.surface.replies import guarded, reply
from bot.texts import pieces
from cogs.league.base import LEAGUE, Part


class Lookups(Part):
    """A league's standings, its current round, its bracket and its results as a file."""

    async def post_picture(
        self, interaction: discord.Interaction, picture: Picture, text: str, head: str | None = None
    ) -> None:
        """A public answer (deferred already): the picture (above it ``head``, by default the text's
        first line), then the same in words below it."""
        quiet = discord.AllowedMentions.none()
        head = text.splitlines()[0] if head is None else head
        await interaction.followup.send(head, file=file_of(picture), allowed_mentions=quiet)
        for piece in pieces(text):  # a bracket of 64 is read whole, over several messages
            await interaction.followup.send(piece, allowed_mentions=quiet)

    @app_commands.command(
        name="standings", description="Post a league's standings (a picture and the same in text)"
    )
    @app_commands.describe(league=LEAGUE)
    @guarded(defer=False)
    async def standings(self, interaction: discord.Interaction, league: str | None = None) -> None:
        found = await self.find(interaction, league)
        await interaction.response.defer(thinking=True)  # a public answer: the picture is for everyone
        t = await self.language(found)  # so in the server's language
        text, picture = await self.rounds.standings_post(found, texts.round_heading(found, t), t)
        head = text.splitlines()[0]
        url = await self.bot.page_link("league", found.id, found.guild_id)
        if url:
            head += "\n" + t.gettext("On the web: {url}", url=url)
        await self.post_picture(interaction, picture, text, head)

    @app_commands.command(
        name="round", description="The current round's games, with links and how far each is"
    )
    @app_commands.describe(league=LEAGUE)
    @guarded()
    async def round(self, interaction: discord.Interaction, league: str | None = None) -> None:
        found = await self.find(interaction, league)
        if found.current_round == 0:
            raise LeagueError("{league} has no round open yet", league=found.shown)
        t = i18n.private(interaction)  # a private answer: the asker's language
        first, *rest = pieces(await self.rounds.round_text(found, t))  # 40 tables: several messages
        await reply(interaction, first)
        for piece in rest:
            await interaction.followup.send(
                piece, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )

    @app_commands.command(name="bracket", description="Post the bracket of a single-elimination league")
    @app_commands.describe(league=LEAGUE)
    @guarded(defer=False)
    async def bracket(self, interaction: discord.Interaction, league: str | None = None) -> None:
        found = await self.find(interaction, league)
        if found.format != "elimination" and not found.final_round:
            if found.format == "swiss":
                raise LeagueError(
                    "{league} is a Swiss league; {/league standings} shows it", league=found.shown
                )
            raise LeagueError(
                "{league} is a round-robin league; {/league standings} shows it", league=found.shown
            )
        if found.status == "signup":
            raise LeagueError("the bracket is drawn when the league starts")
        if found.format != "elimination" and not await self.leagues.seeds(found):
            raise LeagueError(
                "the final stage's bracket is drawn from the standings when its first round opens (after "
                "round {round})",
                round=found.swiss_rounds,
            )
        await interaction.response.defer(thinking=True)  # public: the server's language
        picture, text = await self.rounds.bracket_post(found, await self.language(found))
        await self.post_picture(interaction, picture, text)

    @app_commands.command(name="export", description="The standings and every result as a CSV file")
    @app_commands.describe(league=LEAGUE)
    @guarded()
    async def export(self, interaction: discord.Interaction, league: str | None = None) -> None:
        found = await self.find(interaction, league)
        data = (await self.leagues.export(found)).encode("utf-8")
        name = re.sub(r"[^A-Za-z0-9]+", "-", found.name).strip("-").lower() or "league"
        file = discord.File(io.BytesIO(data), filename=f"{name}.csv")
        await reply(
            interaction,
            i18n.private(interaction).gettext(
                "{league}: standings, then every game and bye.", league=found.shown
            ),
            file=file,
        )
