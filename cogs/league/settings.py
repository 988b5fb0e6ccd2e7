"""The organiser's settings: ``/league settings organiser_role`` and ``/league organiser forum``,
``reliability`` and ``autoplay``."""

from __future__ import annotations

import discord
from discord import app_commands

from bot import i18n
from bot.league import texts
from bot.league.names import shown
from bot.league.service import LeagueError
from bot.surface.channels import server_permissions
from bot.surface.replies import guarded, reply
from cogs.league.base import LEAGUE, Part, server


class Settings(Part):
    """Who may run leagues, and what an organiser sets of a league: where its games are played,
    the reliability it asks of who signs up, and whether it allows autoplay."""

    @app_commands.command(
        name="organiser_role", description="The role that may run leagues (leave out to clear it)"
    )
    @app_commands.describe(role="Members with this role can create and run leagues")
    @guarded()
    async def organiser_role(
        self, interaction: discord.Interaction, role: discord.Role | None = None
    ) -> None:
        if not server_permissions(interaction).manage_guild:
            raise LeagueError("only someone with Manage Server can set the organiser role")
        await self.store.people.set_organiser_role(server(interaction), role.id if role else None)
        t = i18n.private(interaction)
        text = (
            t.gettext("Members with the role {role} can now run leagues.", role=shown(role.name))
            if role
            else t.gettext("The organiser role is cleared.")
        )
        await reply(interaction, text)

    @app_commands.command(
        name="forum", description="Post each table in a forum channel, tagged waiting, playing, done"
    )
    @app_commands.describe(
        forum="The forum channel (leave out to go back to threads in the league's channel)",
        league=LEAGUE,
    )
    @guarded()
    async def forum(
        self,
        interaction: discord.Interaction,
        forum: discord.ForumChannel | None = None,
        league: str | None = None,
    ) -> None:
        found, t = await self.organised(interaction, league)
        if found.status not in ("signup", "running"):
            raise LeagueError("{league} is over", league=found.shown)
        calendar = self.rounds.calendar
        if calendar is None:
            raise LeagueError("leagues are not set up yet; try again in a minute")
        missing, untagged = await calendar.use_forum(found, forum.id if forum is not None else None)
        if forum is None:
            await reply(
                interaction,
                t.gettext(
                    "From the next round, the games of {league} are played in threads of {channel}.",
                    league=found.shown,
                    channel=f"<#{found.channel_id}>",
                ),
            )
            return
        lines = [
            t.gettext(
                "From the next round, each table of {league} is a post in {forum}, tagged waiting, then"
                " playing, then done; its game is played in the post.",
                league=found.shown,
                forum=forum.mention,
            )
        ]
        if missing:
            lines.append(
                t.ngettext(
                    "I am missing {missing} there: until I have it, the games go to threads of {channel}.",
                    "I am missing {missing} there: until I have them, the games go to threads of {channel}.",
                    len(missing),
                    missing=texts.and_list(missing, t),
                    channel=f"<#{found.channel_id}>",
                )
            )
        elif untagged:
            lines.append(
                t.ngettext(
                    "The forum has no tag {tags} and I may not add it (Manage Channels): posts go without it.",
                    "The forum has no tags {tags} and I may not add them (Manage Channels): posts go without"
                    " them.",
                    len(untagged),
                    tags=texts.and_list(untagged, t),
                )
            )
        await reply(interaction, "\n".join(lines))

    @app_commands.command(
        name="reliability", description="The least reliability a player needs to sign up (0: none)"
    )
    @app_commands.describe(
        minimum="The least reliability in % (a new player has 80); 0: none",
        league=LEAGUE,
    )
    @guarded()
    async def reliability(
        self,
        interaction: discord.Interaction,
        minimum: app_commands.Range[int, 0, 99],
        league: str | None = None,
    ) -> None:
        found, t = await self.organised(interaction, league)
        await self.store.profiles.set_league_gate(found.id, minimum or None)
        if minimum:
            text = t.gettext(
                "{league} now asks a reliability of {minimum} % or more of who signs up; those signed up "
                "stay.",
                league=found.shown,
                minimum=minimum,
            )
        else:
            text = t.gettext("{league} asks no reliability of who signs up.", league=found.shown)
        await reply(interaction, text)

    @app_commands.command(
        name="autoplay",
        description="Whether players' only legal moves may be played for them (if they allow it)",
    )
    @app_commands.describe(
        allowed="Allow it or not; leave out to see which it is",
        league=LEAGUE,
    )
    @guarded()
    async def autoplay(
        self, interaction: discord.Interaction, allowed: bool | None = None, league: str | None = None
    ) -> None:
        found = await self.find(interaction, league)
        if allowed is not None:
            await self.require_organiser(interaction, found)
            await self.store.waits.set_league_allows(found.id, allowed)
        t = i18n.private(interaction)
        if await self.store.waits.league_allows(found.id):
            text = t.gettext(
                "{league} allows autoplay: a player who turned on /me autoplay has their only legal move "
                "played for them.",
                league=found.shown,
            )
        else:
            text = t.gettext(
                "{league} does not allow autoplay: its players play every move themselves.",
                league=found.shown,
            )
        await reply(interaction, text)
