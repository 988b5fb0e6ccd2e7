"""``/league ...``: community leagues (sign-ups, scheduled rounds in threads, standings, brackets).

Slash commands, buttons and their answers only, one module a concern: :mod:`.seasons` (creating
a league, its sign-ups and start), :mod:`.lookups` (standings, rounds, brackets, export),
:mod:`.attendance` (check-ins, byes, pauses), :mod:`.noshows` (late games, no-shows,
substitutes, drops), :mod:`.pairing` (tiebreaks, fixed and forbidden pairs, the review step) and
:mod:`.settings` (the organiser role and a league's settings); :mod:`.base` holds what they share.
:class:`LeagueCog` places their commands in the one ``/league`` group, in the order of
:data:`LAYOUT`.

The season's logic is in :mod:`bot.league.service`, its words in :mod:`bot.league.texts`, and its
rounds, deadlines and season ends (fired by the scheduler, posted through
:mod:`bot.surface.league`) in :mod:`bot.league.season`.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import PukllayBot
from bot.surface.checkin import CheckinButton
from cogs.league.attendance import Attendance
from cogs.league.base import Part
from cogs.league.lookups import Lookups
from cogs.league.noshows import NoShows, OverdueButton
from cogs.league.pairing import Pairing, ReviewPublish, ReviewSwap
from cogs.league.seasons import Seasons, SignupButton
from cogs.league.settings import Settings

PARTS: tuple[type[Part], ...] = (Seasons, Lookups, NoShows, Attendance, Pairing, Settings)

LAYOUT: dict[str | None, list[str]] = {
    None: "create join leave start final standings round bracket export overdue checkin bye pause resume".split(),
    "settings": ["organiser_role"],
    "organiser": "add remove drop forum pairing_settings forbid allow pair unpair review substitute reliability"
    " attendance_settings autoplay".split(),
}
"""Where each part's command goes (the group, None for ``/league`` itself), in the order Discord
lists them; every command of every part is placed here once."""


@app_commands.guild_only()
class LeagueCog(
    commands.GroupCog, group_name="league", group_description="Leagues: sign-ups, rounds and standings"
):
    settings = app_commands.Group(name="settings", description="League settings for this server")
    organiser = app_commands.Group(name="organiser", description="Run a league: add, remove or drop players")

    def __init__(self, bot: PukllayBot):
        self.bot = bot
        self.parts: dict[type[Part], Part] = {kind: kind(bot) for kind in PARTS}
        first = self.parts[Seasons]
        self.leagues, self.store = first.leagues, first.store
        commands_of = {
            command.callback.__name__: command
            for owner in self.parts.values()
            for command in owner.walk_app_commands()
            if isinstance(command, app_commands.Command)
        }
        groups = {None: self.group(), "settings": self.settings, "organiser": self.organiser}
        placed = [name for names in LAYOUT.values() for name in names]
        if sorted(placed) != sorted(commands_of):
            raise RuntimeError(f"LAYOUT places {sorted(placed)}, the parts hold {sorted(commands_of)}")
        for key, names in LAYOUT.items():
            for name in names:
                command = commands_of[name]  # bound to its part, the cog it was written in
                groups[key].add_command(command)
                if key is None:
                    # What discord.py lists as the cog's own (walk_app_commands) holds it too.
                    self.__cog_app_commands__.append(command)  # type: ignore[arg-type]  # bound to its part

    def group(self) -> app_commands.Group:
        group = self.app_command
        assert group is not None  # a GroupCog is a group
        return group

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(SignupButton, CheckinButton, OverdueButton)
        self.bot.add_dynamic_items(ReviewSwap, ReviewPublish)

    async def checkin_click(self, interaction: discord.Interaction, league_id: int, number: int) -> None:
        """A round's Check in button (:mod:`bot.surface.checkin`, which cannot import the cogs)."""
        attendance = self.parts[Attendance]
        assert isinstance(attendance, Attendance)
        await attendance.checkin_click(interaction, league_id, number)


async def setup(bot: PukllayBot) -> None:
    await bot.add_cog(LeagueCog(bot))
