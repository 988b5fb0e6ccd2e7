"""``/game ...``: what every game shares (join, leave, start, status, board, hand, log...)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import engines
from bot.app import PukllayBot
from bot.ratings import shown
from bot.sessions import TableError
from bot.ui import clip
from engines.core import DEFAULT_LEVEL, LEVELS

GAME_NAMES = ("guanga", "tiwanaku", "pachakuna", "nowa_gwinea", "guacamole")


class TableCog(
    commands.GroupCog, group_name="game", group_description="Join, watch and manage the game in this channel"
):
    def __init__(self, bot: PukllayBot):
        self.bot = bot

    @property
    def table(self):
        return self.bot.table

    @property
    def sessions(self):
        return self.bot.sessions

    @app_commands.command(name="join", description="Take a seat in the lobby in this channel")
    async def join(self, interaction: discord.Interaction) -> None:
        await self.table.lobby_action(interaction, None, "join", from_button=False)

    @app_commands.command(
        name="leave", description="Leave the lobby in this channel (use resign once it started)"
    )
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.table.lobby_action(interaction, None, "leave", from_button=False)

    @app_commands.command(name="computer", description="Seat a computer player in the lobby")
    @app_commands.describe(level="How strong it plays: easy, normal (the default) or strong")
    @app_commands.choices(level=[app_commands.Choice(name=lv, value=lv) for lv in LEVELS])
    async def computer(
        self, interaction: discord.Interaction, level: app_commands.Choice[str] | None = None
    ) -> None:
        chosen = level.value if level is not None else DEFAULT_LEVEL
        await self.table.lobby_action(interaction, None, "cpu", from_button=False, level=chosen)

    @app_commands.command(name="start", description="Start the game in this channel with the players seated")
    async def start(self, interaction: discord.Interaction) -> None:
        await self.table.lobby_action(interaction, None, "start", from_button=False)

    @app_commands.command(name="status", description="Who is playing, whose turn it is, and the options")
    async def status(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            session = await self.sessions.require(interaction.channel_id)
            if session.status == "lobby":
                await self.table.reply(interaction, self.table.lobby_text(session))
                return
            moves = await self.sessions.store.move_count(session.id)
            seats = "\n".join(
                f"{s.seat + 1}. {s.name}{s.tag}{' — resigned' if s.resigned else ''}"
                for s in sorted(session.seats, key=lambda s: s.seat)
            )
            opts = ", ".join(f"{k}: {v}" for k, v in session.row.options.items()) or "standard"
            waiting = ", ".join(s.name for s in session.waiting_on()) or "nobody"
            await self.table.reply(
                interaction,
                f"**{session.info.title}** (game #{session.id}) — {moves} moves played\n"
                f"Options: {opts}\n{seats}\nWaiting on: {waiting}",
            )

        await self.table.guard(interaction, work)

    @app_commands.command(name="board", description="Post the current board in this channel again")
    async def board(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            session = await self.sessions.require(interaction.channel_id)
            if session.status != "active":
                raise TableError("the game has not started yet; the lobby is above")
            await self.table.post_board(
                session, self.table.public_text(session, None, f"**{session.info.title}**")
            )
            await self.table.reply(interaction, "Board posted.")

        await self.table.guard(interaction, work)

    @app_commands.command(
        name="hand", description="Your private view: hand, secret order or village (only you see it)"
    )
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.table.show_hand(interaction)

    @app_commands.command(name="log", description="The recent moves of the game in this channel")
    @app_commands.describe(count="How many recent moves to show (1-50)")
    async def log(self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 50] = 15) -> None:
        async def work() -> None:
            session = await self.sessions.require(interaction.channel_id)
            rows = await self.sessions.store.moves(session.id, last=count)
            if not rows:
                await self.table.reply(interaction, "No moves yet.")
                return
            names = session.names()
            lines = [
                f"{r.number}. {names[r.seat] if r.seat >= 0 else 'the table'}"
                f"{' (computer)' if r.by_computer else ''}: `{r.move}`"
                for r in rows
            ]
            await self.table.reply(interaction, clip("\n".join(lines)))

        await self.table.guard(interaction, work)

    @app_commands.command(name="resign", description="Leave the running game; the computer takes your seat")
    async def resign(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            result = await self.sessions.resign(interaction.channel_id, interaction.user.id)
            await self.table.announce(result)
            await self.table.reply(interaction, "You resigned.")

        await self.table.guard(interaction, work)

    @app_commands.command(
        name="abandon", description="End the game in this channel without a result (host or Manage Channels)"
    )
    async def abandon(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            perms = interaction.permissions
            session = await self.sessions.abandon(
                interaction.channel_id, interaction.user.id, can_manage=bool(perms and perms.manage_channels)
            )
            channel = self.bot.get_partial_messageable(session.row.channel_id, guild_id=session.row.guild_id)
            await channel.send(
                f"The {session.info.title} game was abandoned by {interaction.user.mention}.",
                allowed_mentions=discord.AllowedMentions.none(),
            )
            await self.table.refresh_lobby(session)
            await self.table.reply(interaction, "Game abandoned.")

        await self.table.guard(interaction, work)

    @app_commands.command(
        name="timer", description="Set how long players have to move (host or Manage Channels)"
    )
    @app_commands.describe(hours="Hours each turn may take before the table acts (0 turns the timer off)")
    async def timer(self, interaction: discord.Interaction, hours: app_commands.Range[float, 0, 720]) -> None:
        async def work() -> None:
            perms = interaction.permissions
            session = await self.sessions.set_timer(
                interaction.channel_id,
                interaction.user.id,
                hours * 3600,
                can_manage=bool(perms and perms.manage_channels),
            )
            if hours:
                text = (
                    f"Turn timer set: {hours:g} h. When it runs out the table acts: a round ends where the game "
                    "says so, otherwise the computer moves for whoever is late."
                )
            else:
                text = "Turn timer off."
            channel = self.bot.get_partial_messageable(session.row.channel_id, guild_id=session.row.guild_id)
            await channel.send(text)
            await self.table.reply(interaction, "Done.")

        await self.table.guard(interaction, work)

    @app_commands.command(
        name="list", description="The games being played or waiting for players in this server"
    )
    async def list(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            sessions = await self.sessions.live(interaction.guild_id)
            if not sessions:
                await self.table.reply(interaction, "No games right now. Start one with `/<game> new`.")
                return
            lines = []
            for s in sessions:
                who = ", ".join(seat.name for seat in s.seats)
                extra = (
                    f"waiting on {', '.join(x.name for x in s.waiting_on()) or 'nobody'}"
                    if s.status == "active"
                    else f"lobby {len(s.seats)}/{s.row.max_players}"
                )
                lines.append(f"<#{s.row.channel_id}> — {s.info.title} ({extra}): {who}")
            await self.table.reply(interaction, clip("\n".join(lines)))

        await self.table.guard(interaction, work)

    @app_commands.command(name="ratings", description="The server's league table for a game")
    @app_commands.describe(game="Which game's ratings to show")
    @app_commands.choices(
        game=[
            app_commands.Choice(name=g.title, value=g.name)
            for g in engines.GAMES.values()
            if g.name in GAME_NAMES
        ]
    )
    async def ratings(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        async def work() -> None:
            rows = await self.sessions.store.leaderboard(interaction.guild_id, game.value)
            if not rows:
                await self.table.reply(
                    interaction, f"No rated {game.name} games here yet (two people or more)."
                )
                return
            lines = [f"**{game.name}** — ratings on this server (mu - 3 sigma)"]
            for i, r in enumerate(rows, 1):
                lines.append(f"{i}. {r.name} — {shown(r.mu, r.sigma)} ({r.games} games, {r.wins} wins)")
            await self.table.reply(interaction, clip("\n".join(lines)))

        await self.table.guard(interaction, work)

    @app_commands.command(name="stats", description="A player's ratings and record on this server")
    @app_commands.describe(player="Whose record to show (default: yours)")
    async def stats(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        async def work() -> None:
            who = player or interaction.user
            rows = await self.sessions.store.ratings_of(interaction.guild_id, who.id)
            if not rows:
                await self.table.reply(
                    interaction, f"{who.display_name} has no rated games on this server yet."
                )
                return
            lines = [f"**{who.display_name}**"]
            for name, r in rows.items():
                title = engines.get(name).title if name in engines.GAMES else name
                lines.append(f"{title}: {shown(r.mu, r.sigma)} ({r.games} games, {r.wins} wins)")
            await self.table.reply(interaction, "\n".join(lines))

        await self.table.guard(interaction, work)

    @app_commands.command(name="games", description="The games Pukllay hosts")
    async def games(self, interaction: discord.Interaction) -> None:
        lines = [
            f"**{g.title}** — `/{g.name} new`, {g.min_players}-{g.max_players} players"
            for g in engines.available().values()
        ]
        await self.table.reply(interaction, "\n".join(lines) or "No games are installed.")


async def setup(bot: PukllayBot) -> None:
    await bot.add_cog(TableCog(bot))
