"""``/league ...``: community leagues (sign-ups, scheduled rounds in threads, standings, brackets).

The season's logic is in :mod:`bot.league.service`; this cog presents it.  Each round's games
open in threads of their own under the league's channel; the scheduler opens the rounds
(``league_round`` jobs) and ends them (``league_deadline`` jobs).
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from datetime import UTC, datetime

import discord
from discord import app_commands
from discord.ext import commands

import engines
from bot import gameclock as gc
from bot.app import PukllayBot
from bot.league import pairing
from bot.league.service import FORMAT_NAMES, LeagueError, LeagueService, OpenedRound, Standing
from bot.public import clip
from bot.scheduler import Scheduler
from bot.storage import Job
from bot.storage.leagues import DEADLINE_JOB, ROUND_JOB, LeagueRow, LeagueStore
from bot.ui import MENTIONS, NEEDED_FOR_THREADS, Table
from engines.core import plural
from renderers import league as pictures

log = logging.getLogger(__name__)

GAMES = [
    app_commands.Choice(name=info.title, value=name)
    for name, info in engines.GAMES.items()
    if name in ("guanga", "tiwanaku", "pachakuna", "nowa_gwinea", "guacamole")
]
FORMATS = [app_commands.Choice(name=title.capitalize(), value=value) for value, title in FORMAT_NAMES.items()]


def server(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise LeagueError("leagues belong to a server; use this command in one of its channels")
    return interaction.guild_id


def channel(interaction: discord.Interaction) -> int:
    if interaction.channel_id is None:
        raise LeagueError("use this command in a server channel")
    return interaction.channel_id


NOT_ORGANISER = "only someone with Manage Server, or the league organiser role, can do that"

RETRY_ROUND = 600.0
"""Seconds between tries to open a round the bot lacks permissions for."""


def missing_permissions(perms: discord.Permissions) -> list[str]:
    """The permissions a round's games need in the league's channel (each in a thread of its own)
    that ``perms`` lacks, by the names Discord shows."""
    return [label for attr, label in NEEDED_FOR_THREADS if not getattr(perms, attr)]


def and_list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def when(seconds: float) -> str:
    """A time Discord shows in each reader's own time zone."""
    return f"<t:{int(seconds)}:f>"


def parse_start(text: str | None, now: float) -> float | None:
    """``2026-12-01 18:00`` (UTC) as seconds since the epoch; None for none."""
    if not text:
        return None
    try:
        moment = datetime.strptime(text.strip(), "%Y-%m-%d %H:%M").replace(tzinfo=UTC)
    except ValueError:
        try:
            moment = datetime.strptime(text.strip(), "%Y-%m-%d").replace(tzinfo=UTC)
        except ValueError:
            raise LeagueError(
                f"{text!r} is not a start date; write it as YYYY-MM-DD or YYYY-MM-DD HH:MM (UTC)"
            ) from None
    if moment.timestamp() < now - 60:
        raise LeagueError("the start date has passed; leave it out to start when the organiser says so")
    return moment.timestamp()


def parse_options(text: str | None) -> dict[str, str]:
    """``mode=apprentice stoppers=true`` (spaces or commas between) as a dict."""
    out: dict[str, str] = {}
    for part in re.split(r"[,\s]+", (text or "").strip()):
        if not part:
            continue
        name, sep, value = part.partition("=")
        if not sep or not name or not value:
            raise LeagueError(f"{part!r} is not an option; write options as name=value, e.g. mode=apprentice")
        out[name] = value
    return out


def parse_points(text: str | None) -> list[float] | None:
    if not text:
        return None
    try:
        return [float(x) for x in re.split(r"[,\s]+", text.strip()) if x]
    except ValueError:
        raise LeagueError(
            f"{text!r} is not a list of points; write them best place first, e.g. 3,2,1,0"
        ) from None


def clock_text(league: LeagueRow) -> str:
    """The league's clock in words (shown with its settings and its rounds)."""
    late = "at the round's deadline the computer finishes every game still running"
    spec = league.game_clock
    if spec is not None:
        try:
            words = f", {gc.parse_clock(spec).describe()}"
        except gc.ClockError:
            words = ""  # checked when the league was created; never worse than the spec itself
        return f"Clock: `{spec}`{words}; {late}."
    if league.legacy_timer:
        return f"Turn timer: {plural(league.legacy_timer / 3600, 'hour')} a turn; {late}."
    return f"No clock; {late}."


def signup_text(league: LeagueRow, names: list[str]) -> str:
    info = engines.get(league.game)
    rounds = f"{plural(league.rounds, 'round')}, " if league.format == "swiss" else ""
    lines = [
        f"🏆 **{league.name}**: a {FORMAT_NAMES[league.format]} league of {info.title},"
        f" {plural(league.group_size, 'player')} a game, {rounds}{plural(league.round_seconds / 86400, 'day')} a round.",
        f"Points per place: {', '.join(f'{p:g}' for p in league.points)}; a bye scores {league.bye_points:g}.",
        clock_text(league),
    ]
    if league.status == "signup":
        lines.append(
            f"Sign up with the buttons below or /league join (first round from {when(league.starts_at)})."
        )
    else:
        lines.append("Sign-ups are closed.")
    lines.append(f"Signed up ({len(names)}): " + (", ".join(names) if names else "nobody yet"))
    return clip("\n".join(lines))


def standings_text(league: LeagueRow, rows: list[Standing], heading: str) -> str:
    """The standings in words, for screen readers (and every row, when the picture is cut)."""
    lines = [heading]
    for s in rows:
        r = s.row
        move = "" if s.movement is None else (f", up {s.movement}" if s.movement > 0 else "")
        if s.movement is not None and s.movement < 0:
            move = f", down {-s.movement}"
        lines.append(
            f"{r.rank}. {s.name}{' (dropped)' if s.dropped else ''}: {plural(r.points, 'point')},"
            f" {plural(r.games, 'game')}, {plural(r.wins, 'win')}, tiebreak {r.buchholz:g}{move}"
        )
    return clip("\n".join(lines))


def picture_lines(rows: list[Standing], ratings: dict[int, float]) -> list[pictures.StandingLine]:
    return [
        pictures.StandingLine(
            s.row.rank,
            s.name,
            s.row.points,
            s.row.games,
            s.row.wins,
            s.row.buchholz,
            ratings.get(int(s.row.player)),
            s.movement,
            s.dropped,
        )
        for s in rows
    ]


class SignupButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"pk:lg:(?P<action>join|leave):(?P<lid>\d+)"
):
    def __init__(self, league_id: int, action: str):
        label, style = {
            "join": ("Join", discord.ButtonStyle.success),
            "leave": ("Leave", discord.ButtonStyle.secondary),
        }[action]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"pk:lg:{action}:{league_id}"))
        self.league_id = league_id
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["lid"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        cog = client.get_cog("LeagueCog") if isinstance(client, commands.Bot) else None
        if isinstance(cog, LeagueCog):
            await cog.signup_click(interaction, self.league_id, self.action)


def signup_view(league: LeagueRow) -> discord.ui.View | None:
    if league.status != "signup":
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(SignupButton(league.id, "join"))
    view.add_item(SignupButton(league.id, "leave"))
    return view


@app_commands.guild_only()
class LeagueCog(
    commands.GroupCog, group_name="league", group_description="Leagues: sign-ups, rounds and standings"
):
    settings = app_commands.Group(name="settings", description="League settings for this server")
    organiser = app_commands.Group(name="organiser", description="Run a league: add, remove or drop players")

    def __init__(self, bot: PukllayBot):
        self.bot = bot
        sessions = bot.ready_sessions()
        store = sessions.store
        if not isinstance(store, LeagueStore):
            raise RuntimeError("this store keeps no leagues")
        self.leagues = LeagueService(store, sessions)
        self.store = store

    async def cog_load(self) -> None:
        self.scheduler.register(ROUND_JOB, self.fire_round)
        self.scheduler.register(DEADLINE_JOB, self.fire_deadline)
        self.bot.add_dynamic_items(SignupButton)

    @property
    def table(self) -> Table:
        return self.bot.ready_table()

    @property
    def scheduler(self) -> Scheduler:
        """The bot's scheduler, which ``setup_hook`` makes before loading the cogs."""
        if self.bot.scheduler is None:
            raise RuntimeError("the bot has not been set up yet (setup_hook makes its scheduler)")
        return self.bot.scheduler

    # ----------------------------------------------------------------- helpers

    async def can_organise(self, interaction: discord.Interaction) -> bool:
        user = interaction.user
        perms = getattr(user, "guild_permissions", None)
        if perms is not None and perms.manage_guild:
            return True
        role = await self.store.organiser_role(server(interaction))
        return role is not None and any(r.id == role for r in getattr(user, "roles", ()))

    async def require_organiser(
        self, interaction: discord.Interaction, league: LeagueRow | None = None
    ) -> None:
        if league is not None and league.organiser_id == interaction.user.id:
            return
        if not await self.can_organise(interaction):
            raise LeagueError(NOT_ORGANISER)

    async def names(self, league: LeagueRow) -> dict[int, str]:
        return {p.user_id: p.name for p in await self.store.league_players(league.id)}

    async def refresh_signup(self, league: LeagueRow) -> None:
        if not league.signup_message_id:
            return
        fresh = await self.store.league(league.id)
        if fresh is None or fresh.signup_message_id is None:
            return
        league, message_id = fresh, fresh.signup_message_id
        names = list((await self.names(league)).values())
        channel = self.bot.get_partial_messageable(league.channel_id, guild_id=league.guild_id)
        try:
            await channel.get_partial_message(message_id).edit(
                content=signup_text(league, names), view=signup_view(league)
            )
        except discord.HTTPException:
            log.warning("could not update the sign-up message of league %s", league.id, exc_info=True)

    async def post(self, league: LeagueRow, content: str, *, file: discord.File | None = None) -> None:
        target = self.bot.get_partial_messageable(league.channel_id, guild_id=league.guild_id)
        if file is None:
            await target.send(clip(content), allowed_mentions=MENTIONS)
        else:
            await target.send(clip(content), file=file, allowed_mentions=MENTIONS)

    async def league_names(self, interaction: discord.Interaction, current: str):
        leagues = await self.store.leagues(server(interaction), live=False)
        wanted = current.casefold()
        return [
            app_commands.Choice(name=x.name, value=x.name) for x in leagues if wanted in x.name.casefold()
        ][:25]

    # ----------------------------------------------------------------- creating and settings

    @app_commands.command(name="create", description="Create a league and open its sign-ups in this channel")
    @app_commands.describe(
        name="The league's name",
        game="The game played",
        format="Swiss (any number of players), round robin (small leagues) or single elimination",
        players="Players per game (2 for single elimination)",
        rounds="Rounds of a Swiss league (round robin and elimination work it out)",
        days="Days each round lasts",
        start="First round no earlier than this date, YYYY-MM-DD or YYYY-MM-DD HH:MM in UTC",
        clock="The games' clock: move:24h (a day a turn) or bank:3d+12h (a time bank); leave out for none",
        options="The games' options as name=value, e.g. mode=apprentice",
        points="League points per place, best first, e.g. 3,2,1,0",
    )
    @app_commands.choices(game=GAMES, format=FORMATS)
    async def create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 60],
        game: app_commands.Choice[str],
        format: app_commands.Choice[str],
        players: app_commands.Range[int, 2, 6],
        rounds: app_commands.Range[int, 0, 30] = 0,
        days: app_commands.Range[float, 0.01, 60.0] = 7.0,
        start: app_commands.Range[str, 1, 20] | None = None,
        clock: app_commands.Range[str, 1, 40] | None = None,
        options: app_commands.Range[str, 1, 200] | None = None,
        points: app_commands.Range[str, 1, 60] | None = None,
    ) -> None:
        async def work() -> None:
            await self.require_organiser(interaction)
            league = await self.leagues.create(
                guild_id=server(interaction),
                channel_id=channel(interaction),
                organiser_id=interaction.user.id,
                name=name,
                game=game.value,
                format=format.value,
                group_size=players,
                options=parse_options(options),
                rounds=rounds,
                days=days,
                clock=clock,
                starts_at=parse_start(start, self.store.clock.time()),
                points=parse_points(points),
                seed=interaction.id % (2**31),
            )
            self.table.committed(interaction, f"The league {league.name} was created")
            view = signup_view(league)
            assert view is not None  # a new league takes sign-ups
            sent = await interaction.response.send_message(signup_text(league, []), view=view)
            if sent.message_id is not None:
                await self.store.set_signup_message(league.id, sent.message_id)

        await self.table.guard(interaction, work, defer=False)

    @settings.command(
        name="organiser_role", description="The role that may run leagues (leave out to clear it)"
    )
    @app_commands.describe(role="Members with this role can create and run leagues")
    async def organiser_role(
        self, interaction: discord.Interaction, role: discord.Role | None = None
    ) -> None:
        async def work() -> None:
            perms = getattr(interaction.user, "guild_permissions", None)
            if perms is None or not perms.manage_guild:
                raise LeagueError("only someone with Manage Server can set the organiser role")
            await self.store.set_organiser_role(server(interaction), role.id if role else None)
            text = (
                f"Members with the role {role.name} can now run leagues."
                if role
                else "The organiser role is cleared."
            )
            await self.table.reply(interaction, text)

        await self.table.guard(interaction, work)

    # ----------------------------------------------------------------- sign-ups

    @app_commands.command(name="join", description="Sign up for a league before it starts")
    @app_commands.describe(league="The league (leave out when there is only one)")
    async def join(self, interaction: discord.Interaction, league: str | None = None) -> None:
        async def work() -> None:
            found = await self.leagues.find(server(interaction), league)
            text = await self.leagues.join(found, interaction.user.id, interaction.user.display_name)
            await self.refresh_signup(found)
            await self.table.reply(interaction, text + ".")

        await self.table.guard(interaction, work)

    @app_commands.command(name="leave", description="Withdraw from a league before it starts")
    @app_commands.describe(league="The league (leave out when there is only one)")
    async def leave(self, interaction: discord.Interaction, league: str | None = None) -> None:
        async def work() -> None:
            found = await self.leagues.find(server(interaction), league)
            text = await self.leagues.leave(found, interaction.user.id)
            await self.refresh_signup(found)
            await self.table.reply(interaction, text + ".")

        await self.table.guard(interaction, work)

    async def signup_click(self, interaction: discord.Interaction, league_id: int, action: str) -> None:
        async def work() -> None:
            league = await self.store.league(league_id)
            if league is None or league.guild_id != interaction.guild_id:
                raise LeagueError("that league is gone")
            if action == "join":
                text = await self.leagues.join(league, interaction.user.id, interaction.user.display_name)
            else:
                text = await self.leagues.leave(league, interaction.user.id)
            names = list((await self.names(league)).values())
            await interaction.response.edit_message(
                content=signup_text(league, names), view=signup_view(league)
            )
            await interaction.followup.send(text + ".", ephemeral=True)

        await self.table.guard(interaction, work, defer=False)

    join.autocomplete("league")(league_names)
    leave.autocomplete("league")(league_names)

    # ----------------------------------------------------------------- the organiser

    @organiser.command(name="add", description="Sign a member up for a league before it starts")
    @app_commands.describe(member="Who to sign up", league="The league (leave out when there is only one)")
    async def add(
        self, interaction: discord.Interaction, member: discord.Member, league: str | None = None
    ) -> None:
        async def work() -> None:
            found = await self.leagues.find(server(interaction), league)
            await self.require_organiser(interaction, found)
            if member.bot:
                raise LeagueError("bots do not play in leagues; the computer fills seats by itself")
            text = await self.leagues.join(found, member.id, member.display_name, who=member.display_name)
            await self.refresh_signup(found)
            await self.table.reply(interaction, text + ".")

        await self.table.guard(interaction, work)

    @organiser.command(name="remove", description="Take a member off a league before it starts")
    @app_commands.describe(member="Who to remove", league="The league (leave out when there is only one)")
    async def remove(
        self, interaction: discord.Interaction, member: discord.Member, league: str | None = None
    ) -> None:
        async def work() -> None:
            found = await self.leagues.find(server(interaction), league)
            await self.require_organiser(interaction, found)
            text = await self.leagues.leave(found, member.id, who=member.display_name)
            await self.refresh_signup(found)
            await self.table.reply(interaction, text + ".")

        await self.table.guard(interaction, work)

    @organiser.command(
        name="drop", description="Drop a player mid-season: their remaining games are forfeited"
    )
    @app_commands.describe(member="Who to drop", league="The league (leave out when there is only one)")
    async def drop(
        self, interaction: discord.Interaction, member: discord.Member, league: str | None = None
    ) -> None:
        async def work() -> None:
            found = await self.leagues.find(server(interaction), league)
            await self.require_organiser(interaction, found)
            results = await self.leagues.drop(found, member.id)
            self.table.committed(interaction, f"{member.display_name} was dropped from {found.name}")
            for result in results:
                try:
                    await self.table.announce(result)
                except discord.HTTPException:
                    log.warning("could not post the board of session %s after a drop", result.session.id)
            await self.table.reply(
                interaction,
                f"{member.display_name} was dropped from {found.name}; they forfeit their remaining games"
                f" ({plural(len(results), 'game')} in play went on without them).",
            )

        await self.table.guard(interaction, work)

    add.autocomplete("league")(league_names)
    remove.autocomplete("league")(league_names)
    drop.autocomplete("league")(league_names)

    @app_commands.command(name="start", description="Close the sign-ups and start the season on schedule")
    @app_commands.describe(league="The league (leave out when there is only one)")
    async def start(self, interaction: discord.Interaction, league: str | None = None) -> None:
        async def work() -> None:
            found = await self.leagues.find(server(interaction), league)
            await self.require_organiser(interaction, found)
            started, first = await self.leagues.start(found, interaction.user.id)
            self.table.committed(interaction, f"{started.name} started")
            await self.refresh_signup(started)
            self.scheduler.wake()
            await self.table.reply(
                interaction,
                f"{started.name} has started: {plural(started.rounds, 'round')}, the first opens {when(first)}.",
            )

        await self.table.guard(interaction, work)

    start.autocomplete("league")(league_names)

    @app_commands.command(
        name="final", description="End a Swiss league with a knockout final of its top players"
    )
    @app_commands.describe(
        top="How many of the best in the standings play the final (0 removes the final stage)",
        league="The league (leave out when there is only one)",
    )
    async def final(
        self,
        interaction: discord.Interaction,
        top: app_commands.Range[int, 0, 1000],
        league: str | None = None,
    ) -> None:
        async def work() -> None:
            found = await self.leagues.find(server(interaction), league)
            await self.require_organiser(interaction, found)
            changed = await self.leagues.set_final(found, top)
            if not changed.final_top:
                self.table.committed(interaction, f"{changed.name} has no final stage now")
                await self.table.reply(
                    interaction,
                    f"{changed.name} has no final stage now: {plural(changed.rounds, 'round')},"
                    " and the top of the standings is the champion.",
                )
                return
            self.table.committed(interaction, f"{changed.name} ends in a final of the top {top}")
            byes = pairing.bracket_size(top) - top
            if byes:
                extra = (
                    ", the top seed starting with a bye"
                    if byes == 1
                    else f", the top {byes} seeds starting with a bye"
                )
            else:
                extra = ""
            await self.table.reply(
                interaction,
                f"After round {changed.swiss_rounds}, the top {top} of {changed.name}'s standings play a"
                f" knockout final over {plural(changed.rounds - changed.swiss_rounds, 'round')}, seeded by"
                f" the standings{extra}. Its winner is the champion.",
            )

        await self.table.guard(interaction, work)

    final.autocomplete("league")(league_names)

    # ----------------------------------------------------------------- what people look at

    async def standings_post(self, league: LeagueRow, heading: str) -> tuple[str, discord.File]:
        """The standings picture and, to post below it, the same in text (for screen readers)."""
        rows = await self.leagues.standings(league)
        ratings = await self.leagues.rating_map(league)
        data = await asyncio.to_thread(pictures.standings, league.name, heading, picture_lines(rows, ratings))
        return standings_text(league, rows, f"**{league.name}**: {heading}"), discord.File(
            io.BytesIO(data), filename=f"league-{league.id}-standings.png"
        )

    def round_heading(self, league: LeagueRow) -> str:
        swiss = league.swiss_rounds
        if league.status == "finished":
            return f"final standings after {plural(min(league.current_round, swiss), 'round')}"
        if league.current_round == 0:
            return "before the first round"
        if league.in_final:
            return (
                f"standings after {plural(swiss, 'round')}; the top {league.final_top} play the final stage"
            )
        return f"standings in round {league.current_round} of {swiss}"

    def round_name(self, league: LeagueRow, number: int) -> str:
        """``round 2 of 5``, or ``round 1 of 2 of the final stage``."""
        if league.final_round and number >= league.final_round:
            return f"round {number - league.final_round + 1} of {league.rounds - league.final_round + 1} of the final stage"
        return f"round {number} of {league.swiss_rounds}"

    @app_commands.command(
        name="standings", description="Post a league's standings (a picture and the same in text)"
    )
    @app_commands.describe(league="The league (leave out when there is only one)")
    async def standings(self, interaction: discord.Interaction, league: str | None = None) -> None:
        async def work() -> None:
            found = await self.leagues.find(server(interaction), league)
            await interaction.response.defer(thinking=True)  # a public answer: the picture is for everyone
            text, file = await self.standings_post(found, self.round_heading(found))
            # The picture first, then the words below it, as a message of their own.
            quiet = discord.AllowedMentions.none()
            await interaction.followup.send(text.splitlines()[0], file=file, allowed_mentions=quiet)
            await interaction.followup.send(text, allowed_mentions=quiet)

        await self.table.guard(interaction, work, defer=False)

    @app_commands.command(
        name="round", description="The current round's games, with links and how far each is"
    )
    @app_commands.describe(league="The league (leave out when there is only one)")
    async def round(self, interaction: discord.Interaction, league: str | None = None) -> None:
        async def work() -> None:
            found = await self.leagues.find(server(interaction), league)
            if found.current_round == 0:
                raise LeagueError(f"{found.name} has no round open yet")
            names = await self.names(found)
            rounds = {r.number: r for r in await self.store.league_rounds(found.id)}
            current = rounds.get(found.current_round)
            lines = [f"**{found.name}**, {self.round_name(found, found.current_round)}"]
            if current is not None:
                lines[0] += f" (ends {when(current.deadline_at)})"
            lines.append(clock_text(found))
            for g in await self.store.league_games(found.id, found.current_round):
                who = ", ".join(names.get(u, str(u)) for u in g.players)
                session = await self.bot.ready_sessions().get(g.session_id) if g.session_id else None
                where = f" in <#{session.row.channel_id}>" if session else ""
                if g.status == "finished":
                    order = sorted(g.seats, key=lambda s: s.place or 99)
                    state = "finished: " + ", ".join(
                        f"{s.place}. {names.get(s.user_id, s.user_id)}" for s in order
                    )
                elif session is not None:
                    state = "being played"
                else:
                    state = "not opened"
                lines.append(f"Table {g.table_no}: {who}{where}, {state}")
            byes = [
                names.get(u, str(u))
                for r, u, _ in await self.store.league_byes(found.id)
                if r == found.current_round
            ]
            if byes:
                lines.append(f"Bye ({plural(found.bye_points, 'point')} each): {', '.join(byes)}")
            await self.table.reply(interaction, "\n".join(lines))

        await self.table.guard(interaction, work)

    @app_commands.command(name="bracket", description="Post the bracket of a single-elimination league")
    @app_commands.describe(league="The league (leave out when there is only one)")
    async def bracket(self, interaction: discord.Interaction, league: str | None = None) -> None:
        async def work() -> None:
            found = await self.leagues.find(server(interaction), league)
            if found.format != "elimination" and not found.final_round:
                raise LeagueError(
                    f"{found.name} is a {FORMAT_NAMES[found.format]} league; /league standings shows it"
                )
            if found.status == "signup":
                raise LeagueError("the bracket is drawn when the league starts")
            if found.format != "elimination" and not await self.leagues.seeds(found):
                raise LeagueError(
                    f"the final stage's bracket is drawn from the standings when its first round opens"
                    f" (after round {found.swiss_rounds})"
                )
            await interaction.response.defer(thinking=True)
            file, text = await self.bracket_post(found)
            quiet = discord.AllowedMentions.none()
            await interaction.followup.send(text.splitlines()[0], file=file, allowed_mentions=quiet)
            await interaction.followup.send(text, allowed_mentions=quiet)

        await self.table.guard(interaction, work, defer=False)

    async def bracket_post(self, league: LeagueRow) -> tuple[discord.File, str]:
        names = await self.names(league)
        b = await self.leagues.bracket(league)

        def name(player: str | None) -> str | None:
            return None if player is None else names.get(int(player), player)

        rounds = [
            [pictures.BracketMatch(name(m.a), name(m.b), name(m.winner), r == 0) for m in matches]
            for r, matches in enumerate(b.rounds)
        ]
        stage = "final stage" if league.format == "swiss" else "bracket"
        if league.status == "finished":
            heading = f"{league.name}: {stage}, finished"
        else:
            heading = f"{league.name}: {self.round_name(league, league.current_round)}"
        # The picture's title is short enough to fit it; the text says the round too.
        data = await asyncio.to_thread(pictures.bracket, f"{league.name}: {stage}", rounds)
        lines = [f"**{heading}**"]
        for r, matches in enumerate(rounds, 1):
            shown = [
                f"{m.a or ('bye' if m.first_round else '?')} v {m.b or ('bye' if m.first_round else '?')}"
                + (f" → {m.winner}" if m.winner else "")
                for m in matches
            ]
            lines.append(f"Round {r}: " + "; ".join(shown))
        return discord.File(io.BytesIO(data), filename=f"league-{league.id}-bracket.png"), clip(
            "\n".join(lines)
        )

    @app_commands.command(name="export", description="The standings and every result as a CSV file")
    @app_commands.describe(league="The league (leave out when there is only one)")
    async def export(self, interaction: discord.Interaction, league: str | None = None) -> None:
        async def work() -> None:
            found = await self.leagues.find(server(interaction), league)
            data = (await self.leagues.export(found)).encode("utf-8")
            name = re.sub(r"[^A-Za-z0-9]+", "-", found.name).strip("-").lower() or "league"
            file = discord.File(io.BytesIO(data), filename=f"{name}.csv")
            await self.table.reply(
                interaction, f"{found.name}: standings, then every game and bye.", file=file
            )

        await self.table.guard(interaction, work)

    standings.autocomplete("league")(league_names)
    export.autocomplete("league")(league_names)
    round.autocomplete("league")(league_names)
    bracket.autocomplete("league")(league_names)

    # ----------------------------------------------------------------- the scheduler's jobs

    async def fire_round(self, job: Job) -> None:
        """Open a round: pair it, open each game in a thread, ping the players, tell the channel.

        When the bot lacks a permission the games need in the league's channel, the round waits:
        the organiser is told once which permission is missing, and the bot tries again every
        :data:`RETRY_ROUND` seconds (the round then opens with its full length)."""
        league_id, number = int(job.key), int(job.payload.get("round", 0))
        league = await self.store.league(league_id)
        if league is None or league.status != "running" or league.current_round != number - 1:
            return
        missing = await self.missing_permissions(league)
        if missing:
            await self.store.schedule_round(
                league_id, number, self.store.clock.time() + RETRY_ROUND, missing=missing
            )
            if job.payload.get("missing") != missing:
                await self.tell_organiser(league, number, missing)
            return
        opened = await self.leagues.open_round(league_id, number, job=job)
        if opened is None:
            # Nothing opened, and the season is not over: the final stage found fewer than two
            # players left, or it was removed while its round was due.  The season ends here.
            league = await self.store.league(league_id)
            if (
                league is not None
                and league.status == "running"
                and league.current_round == number - 1
                and (number > league.rounds or league.final_round == number)
            ):
                await self.end_season(league)
            return
        await self.open_games(opened)

    async def missing_permissions(self, league: LeagueRow) -> list[str]:
        """The permissions the bot lacks in the league's channel to open games (empty when it has
        them, or when the channel is not known to this process: opening then reports it)."""
        parent = self.bot.get_channel(league.channel_id)
        if not isinstance(parent, discord.TextChannel) or parent.guild.me is None:
            return []
        return missing_permissions(parent.permissions_for(parent.guild.me))

    async def tell_organiser(self, league: LeagueRow, number: int, missing: list[str]) -> None:
        """Tell the organiser which permissions a round waits for: in the league's channel, or by
        direct message when the bot cannot post there."""
        text = (
            f"<@{league.organiser_id}>: {self.round_name(league, number)} of **{league.name}** cannot open:"
            f" I am missing {and_list(missing)} in <#{league.channel_id}>. Give my role"
            f" {'that permission' if len(missing) == 1 else 'those permissions'} there (channel settings,"
            f" Permissions); I try again every {int(RETRY_ROUND // 60)} minutes, and the round starts"
            " when I can open its games."
        )
        try:
            await self.post(league, text)
            return
        except discord.HTTPException:
            log.info("league %s: cannot post in its channel; writing to the organiser", league.id)
        try:
            user = self.bot.get_user(league.organiser_id) or await self.bot.fetch_user(league.organiser_id)
            await user.send(text)
        except discord.HTTPException:
            log.warning("league %s: could not tell the organiser about %s", league.id, missing)

    async def open_games(self, opened: OpenedRound) -> None:
        league = opened.league
        names = await self.names(league)
        info = engines.get(league.game)
        parent = self.bot.get_channel(league.channel_id) or await self.bot.fetch_channel(league.channel_id)
        lines = [
            f"🏆 **{league.name}**: {self.round_name(league, opened.number)} is open until"
            f" {when(opened.deadline_at)}. Games still running then are finished by the computer."
        ]
        if opened.final_stage and opened.number == league.final_round:
            seeds = await self.leagues.seeds(league)
            lines.insert(
                1,
                "The final stage, seeded by the standings: "
                + ", ".join(f"{i}. {names.get(int(p), p)}" for i, p in enumerate(seeds, 1)),
            )
        stage_round = (
            f"final round {opened.number - (league.final_round or 0) + 1}"
            if opened.final_stage
            else f"round {opened.number}"
        )
        for game in opened.games:
            who = ", ".join(names.get(u, str(u)) for u in game.players)
            try:
                if not isinstance(parent, discord.TextChannel):
                    raise TypeError(f"#{getattr(parent, 'name', parent)} takes no threads")
                thread = await parent.create_thread(
                    name=f"{league.name[:60]} · {stage_round} · table {game.table_no}",
                    type=discord.ChannelType.public_thread,
                )
            except (discord.HTTPException, TypeError) as exc:
                log.warning("league %s: no thread for table %s (%s)", league.id, game.table_no, exc)
                lines.append(
                    f"Table {game.table_no}: {who}: could not be opened (the bot cannot create threads here)"
                )
                continue
            session = await self.leagues.open_game(league, game, thread.id, names)
            if session is None:
                lines.append(f"Table {game.table_no}: {who}: forfeited (too few players left)")
                continue
            mentions = " ".join(f"<@{u}>" for u in game.players if session.seat_of(u))
            await thread.send(
                f"{mentions}: your {info.title} game for **{league.name}**, {self.round_name(league, opened.number)}."
                f" Play it here before {when(opened.deadline_at)}.",
                allowed_mentions=MENTIONS,
            )
            await self.table.post_board(
                session, header=f"**{info.title}**: {league.name}, {self.round_name(league, opened.number)}"
            )
            lines.append(f"Table {game.table_no}: {who} in {thread.mention}")
        if opened.byes:
            byes = ", ".join(names.get(u, str(u)) for u in opened.byes)
            if opened.final_stage:
                lines.append(f"Bye into the next round: {byes}")
            else:
                lines.append(f"Bye ({plural(league.bye_points, 'point')}): {byes}")
        await self.post(league, "\n".join(lines))

    async def fire_deadline(self, job: Job) -> None:
        """A round's time is up: the computer finishes the games still running, then the next
        round is due at once, or the season ends with its champion."""
        league_id, number = int(job.payload["league"]), int(job.payload["round"])
        for result in await self.leagues.round_deadline(league_id, number):
            try:
                await self.table.announce(result)
            except discord.HTTPException:
                log.warning("could not post the final board of session %s", result.session.id)
        league = await self.store.league(league_id)
        if league is None or league.status != "running" or league.current_round != number:
            return
        if number < league.rounds:
            await self.store.schedule_round(league_id, number + 1, self.store.clock.time())
            self.scheduler.wake()
            return
        await self.end_season(league)

    async def end_season(self, league: LeagueRow) -> None:
        """Crown the champion: the final standings picture with the champion, the standings in
        text below it, and, after a final stage, its bracket (picture, then text)."""
        champion = await self.leagues.champion(league)
        league = await self.leagues.reread(league.id)
        text, file = await self.standings_post(league, self.round_heading(league))
        how = (
            " (winner of the final stage)" if league.final_round and await self.leagues.seeds(league) else ""
        )
        crown = (
            f"🏆 **{league.name}** is over. Champion: <@{champion}>{how}!"
            if champion
            else f"**{league.name}** is over."
        )
        await self.post(league, crown, file=file)
        await self.post(league, text)
        if league.format == "swiss" and league.final_round and await self.leagues.seeds(league):
            picture, words = await self.bracket_post(league)
            await self.post(league, words.splitlines()[0], file=picture)
            await self.post(league, words)


async def setup(bot) -> None:
    await bot.add_cog(LeagueCog(bot))
