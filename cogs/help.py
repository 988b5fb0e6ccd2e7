"""``/help``: what Pukllay is and how a first game goes, for someone who has just found the bot.

The answer is private and in the asker's Discord language; it names the games installed, and
every command as the asker's client shows it."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.app import PukllayBot
from cogs.table import games_lines
from languages import N_, Language

HOW_TO_PLAY = (
    N_(
        "**To play**: a game's command above, used in a channel, opens a lobby there and a thread for "
        "the game; the others press {button Join} (or {button Add computer} for a computer player), "
        "and a seated player presses {button Start}."
    ),
    N_(
        "**On your turn** you are mentioned in the game's thread: press {button Play} under the board "
        "for a menu of your legal moves, or type {/<game> move} (its list offers them). Your hand or "
        "secret part: {/game hand}; the board in words: {/game describe}."
    ),
    N_(
        "**Learn a game**: {/<game> rules}. **Your games**, in every server: {/game mine}; {/play next} "
        "opens the one that has waited longest for you. **Your settings** (turn notices, time away): "
        "{/me show}."
    ),
)


def help_text(t: Language) -> str:
    """The guide, in ``t``: the games installed (as ``/game games`` lists them), then how to play."""
    head = t.gettext("**Pukllay** hosts board games in this server's channels:")
    return "\n".join([head, *games_lines(t), *(t.gettext(line) for line in HOW_TO_PLAY)])


class HelpCog(commands.Cog):
    def __init__(self, bot: PukllayBot):
        self.bot = bot

    @app_commands.command(name="help", description="What Pukllay is and how to play a first game")
    @app_commands.guild_only()
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(help_text(i18n.private(interaction)), ephemeral=True)


async def setup(bot: PukllayBot) -> None:
    await bot.add_cog(HelpCog(bot))
