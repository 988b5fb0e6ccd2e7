"""What every part of ``/league`` holds: the league services, finding the league a command or a
button names among those the asker may see, and the organiser's check.

Each part (sign-ups and seasons, what people look at, attendance, no-shows, pairing controls,
organiser settings) is a class of its own whose commands :class:`cogs.league.LeagueCog` places in
the one ``/league`` group; a part's buttons find their part through :func:`part`."""

from __future__ import annotations

import functools
from typing import TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.app import PukllayBot
from bot.league import controls
from bot.league.noshow_desk import NoShowDesk
from bot.league.service import LeagueError
from bot.storage.leagues import LeagueRow
from bot.storage.store import Store
from bot.surface.channels import can_view_channel, server_permissions
from bot.surface.replies import reply
from engines.core import Said
from languages import N_, Language

NOT_ORGANISER = N_("only someone with Manage Server, or the league organiser role, can do that")
LEAGUE = "The league (leave out when there is only one)"
"""The description of every command's ``league`` option."""
COG = "LeagueCog"
"""The name the league cog is registered under (buttons find their part through it)."""

P = TypeVar("P", bound="Part")


def server(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise LeagueError("leagues belong to a server; use this command in one of its channels")
    return interaction.guild_id


def channel(interaction: discord.Interaction) -> int:
    if interaction.channel_id is None:
        raise LeagueError("use this command in a server channel")
    return interaction.channel_id


def part(interaction: discord.Interaction, kind: type[P]) -> P | None:
    """The running league cog's part of type ``kind`` (None while the cog is not loaded)."""
    client = interaction.client
    cog = client.get_cog(COG) if isinstance(client, commands.Bot) else None
    found = getattr(cog, "parts", {}).get(kind)
    return found if isinstance(found, kind) else None


async def can_organise(store: Store, interaction: discord.Interaction) -> bool:
    """Whether the asker may run leagues on this server: Manage Server, or the organiser role."""
    if server_permissions(interaction).manage_guild:
        return True
    role = await store.people.organiser_role(server(interaction))
    return role is not None and any(r.id == role for r in getattr(interaction.user, "roles", ()))


async def organises_league(store: Store, interaction: discord.Interaction, league_id: int) -> bool:
    """Whether the asker runs the league ``league_id``: its organiser, or anyone who may run leagues."""
    league = await store.leagues.league(league_id)
    if league is None or league.guild_id != interaction.guild_id:
        return False
    return league.organiser_id == interaction.user.id or await can_organise(store, interaction)


class Part(commands.Cog):
    """The league services and the helpers every part of ``/league`` shares.

    A part is a cog (so discord.py binds its commands to it) that is never added to the bot by
    itself: :class:`cogs.league.LeagueCog` places its commands in ``/league``.  Every command's
    ``league`` option completes with the names of the leagues the asker sees."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        for command in vars(cls).values():
            if isinstance(command, app_commands.Command) and command.get_parameter("league") is not None:
                command.autocomplete("league")(Part.league_names)

    def __init__(self, bot: PukllayBot):
        if (
            bot.leagues is None
            or bot.league_rounds is None
            or bot.league_attendance is None
            or bot.league_noshows is None
        ):
            raise RuntimeError("the bot has not been set up yet (setup_hook makes its leagues)")
        self.bot = bot
        self.leagues = bot.leagues
        self.attendance = bot.league_attendance
        self.rounds = bot.league_rounds
        self.store = bot.leagues.store
        self.front = bot.ready_front()
        self.desk: NoShowDesk = bot.league_noshows

    async def can_organise(self, interaction: discord.Interaction) -> bool:
        return await can_organise(self.store, interaction)

    async def require_organiser(
        self, interaction: discord.Interaction, league: LeagueRow | None = None
    ) -> None:
        if league is not None and league.organiser_id == interaction.user.id:
            return
        if not await self.can_organise(interaction):
            raise LeagueError(NOT_ORGANISER)

    async def organises(self, interaction: discord.Interaction, league: LeagueRow) -> bool:
        try:
            await self.require_organiser(interaction, league)
        except LeagueError:
            return False
        return True

    @staticmethod
    def sees(interaction: discord.Interaction, league: LeagueRow) -> bool:
        """Whether the asker can view the league's channel: for anyone else the league does not
        exist (no command, button or autocomplete shows it or acts on it)."""
        return can_view_channel(interaction, league.channel_id)

    async def find(self, interaction: discord.Interaction, name: str | None) -> LeagueRow:
        """The league a command names (see :meth:`LeagueService.find`), among those the asker sees."""
        return await self.leagues.find(server(interaction), name, functools.partial(self.sees, interaction))

    async def organised(
        self, interaction: discord.Interaction, name: str | None
    ) -> tuple[LeagueRow, Language]:
        """The league an organiser's command names, refused unless the asker runs it; and the
        asker's language, in which the command answers."""
        found = await self.find(interaction, name)
        await self.require_organiser(interaction, found)
        return found, i18n.private(interaction)

    async def clicked(self, interaction: discord.Interaction, league_id: int) -> LeagueRow:
        """The league a button names, refused unless it is still there and the asker sees it."""
        league = await self.store.leagues.league(league_id)
        if league is None or league.guild_id != interaction.guild_id:
            raise LeagueError("that league is gone")
        if not self.sees(interaction, league):
            raise LeagueError("this button belongs to a league whose channel you cannot view")
        return league

    async def answer(self, interaction: discord.Interaction, text: str, done: Said | None = None) -> None:
        """Answer privately with ``text``; ``done``: what the command changed, for the table's
        record of the interaction."""
        if done is not None:
            self.front.replies.committed(interaction, done)
        await reply(interaction, text)

    async def language(self, league: LeagueRow) -> Language:
        """The language of what the league posts: its server's."""
        return await i18n.server(self.bot, self.store, league.guild_id)

    async def league_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        leagues = await self.store.leagues.of_server(server(interaction), live=False)
        wanted = current.casefold()
        return [
            app_commands.Choice(name=x.name, value=x.name)
            for x in leagues
            if wanted in x.name.casefold() and self.sees(interaction, x)
        ][:25]

    async def tiebreak_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        t = i18n.private(interaction)
        return [app_commands.Choice(name=n, value=v) for n, v in controls.complete_order(current, t)][:25]
