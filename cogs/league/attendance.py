"""Attendance in Swiss leagues: ``/league checkin`` (and the round's Check in button), ``bye``,
``pause``, ``resume`` and the organiser's ``attendance``."""

from __future__ import annotations

import discord
from discord import app_commands

from bot import i18n
from bot.league.service import LeagueError
from bot.surface.replies import guarded
from cogs.league.base import LEAGUE, Part
from engines.core import said


class Attendance(Part):
    """Check-ins, byes asked for and pauses (Swiss leagues), and the organiser's settings of them."""

    @app_commands.command(name="checkin", description="Check in for the coming round of a league")
    @app_commands.describe(league=LEAGUE)
    @guarded()
    async def checkin(self, interaction: discord.Interaction, league: str | None = None) -> None:
        found = await self.find(interaction, league)
        text = await self.attendance.check_in(found, interaction.user.id, t=i18n.private(interaction))
        await self.answer(interaction, text, said("You checked in for {league}", league=found.shown))

    @guarded()
    async def checkin_click(self, interaction: discord.Interaction, league_id: int, number: int) -> None:
        found = await self.store.leagues.league(league_id)
        if found is None or found.guild_id != interaction.guild_id or not self.sees(interaction, found):
            raise LeagueError("this button belongs to a league whose channel you cannot view")
        text = await self.attendance.check_in(found, interaction.user.id, number, t=i18n.private(interaction))
        await self.answer(interaction, text, said("You checked in for {league}", league=found.shown))

    @app_commands.command(name="bye", description="Ask for a bye in a coming round of a Swiss league")
    @app_commands.describe(
        round="The round you will not play",
        cancel="Take back a bye you asked for",
        league=LEAGUE,
    )
    @guarded()
    async def bye(
        self,
        interaction: discord.Interaction,
        round: app_commands.Range[int, 1, 30],
        cancel: bool = False,
        league: str | None = None,
    ) -> None:
        found = await self.find(interaction, league)
        text = await self.attendance.ask_bye(
            found, interaction.user.id, round, cancel, i18n.private(interaction)
        )
        await self.answer(
            interaction, text, said("Your bye request for round {round} was changed", round=round)
        )

    @app_commands.command(name="pause", description="Sit out the next rounds of a Swiss league (no points)")
    @app_commands.describe(rounds="How many coming rounds", league=LEAGUE)
    @guarded()
    async def pause(
        self,
        interaction: discord.Interaction,
        rounds: app_commands.Range[int, 1, 30],
        league: str | None = None,
    ) -> None:
        found = await self.find(interaction, league)
        text = await self.attendance.pause(found, interaction.user.id, rounds, i18n.private(interaction))
        await self.answer(interaction, text, said("Your pause in {league} was recorded", league=found.shown))

    @app_commands.command(
        name="resume", description="Take back your pause: be paired again from the next round"
    )
    @app_commands.describe(league=LEAGUE)
    @guarded()
    async def resume(self, interaction: discord.Interaction, league: str | None = None) -> None:
        found = await self.find(interaction, league)
        text = await self.attendance.resume(found, interaction.user.id, i18n.private(interaction))
        await self.answer(
            interaction, text, said("Your pause in {league} was taken back", league=found.shown)
        )

    @app_commands.command(
        name="attendance", description="Check-in before rounds, and what a bye asked for scores (Swiss)"
    )
    @app_commands.describe(
        checkin="Players check in before every round, only the first, or never",
        hours="How long the check-in window is open before a round (hours)",
        requested_bye="What a bye a player asks for scores: nothing, half or all of a bye",
        league=LEAGUE,
    )
    @app_commands.choices(
        checkin=[
            app_commands.Choice(name="Before every round", value="every"),
            app_commands.Choice(name="Before the first round", value="first"),
            app_commands.Choice(name="Off", value="off"),
        ],
        requested_bye=[
            app_commands.Choice(name="None", value="none"),
            app_commands.Choice(name="Half", value="half"),
            app_commands.Choice(name="Full", value="full"),
        ],
    )
    @guarded()
    async def attendance_settings(
        self,
        interaction: discord.Interaction,
        checkin: app_commands.Choice[str] | None = None,
        hours: app_commands.Range[float, 0.1, 1440.0] | None = None,
        requested_bye: app_commands.Choice[str] | None = None,
        league: str | None = None,
    ) -> None:
        found, t = await self.organised(interaction, league)
        text = await self.attendance.configure(
            found,
            checkin.value if checkin else None,
            hours,
            requested_bye.value if requested_bye else None,
            t,
        )
        await self.answer(
            interaction, text, said("The attendance settings of {league} were changed", league=found.shown)
        )
