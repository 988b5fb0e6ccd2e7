"""The Check in button on a league round's check-in announcement.

Its custom id names the league and the round (``pk:lg:in:<league>:<round>``), so it works after a
restart; a click is answered by the league cog's ``checkin_click`` (found by the cog's name, as
the sign-up buttons are).
"""

from __future__ import annotations

import re

import discord
from discord.ext import commands

TEMPLATE = r"pk:lg:in:(?P<lid>\d+):(?P<round>\d+)"


class CheckinButton(discord.ui.DynamicItem[discord.ui.Button], template=TEMPLATE):
    def __init__(self, league_id: int, number: int, label: str = "Check in"):
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.success, custom_id=f"pk:lg:in:{league_id}:{number}"
            )
        )
        self.league_id = league_id
        self.number = number

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["lid"]), int(match["round"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        cog = client.get_cog("LeagueCog") if isinstance(client, commands.Bot) else None
        answer = getattr(cog, "checkin_click", None)
        if answer is not None:
            await answer(interaction, self.league_id, self.number)


def checkin_view(league_id: int, number: int, label: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(CheckinButton(league_id, number, label))
    return view
