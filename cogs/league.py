"""``/league ...``: community leagues (sign-ups, scheduled rounds in threads, standings, brackets).

The season's logic is in :mod:`bot.league.service`; this cog presents it.  Each round's games
open in threads of their own under the league's channel; the scheduler opens the rounds
(``league_round`` jobs) and ends them (``league_deadline`` jobs).
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
import re
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

import discord
from discord import app_commands
from discord.ext import commands

import engines
from bot import alt, i18n
from bot.app import PukllayBot
from bot.league import pairing
from bot.league.service import FORMAT_NAMES, LeagueError, LeagueService, OpenedRound, Standing
from bot.public import clip
from bot.storage import Job
from bot.storage.leagues import DEADLINE_JOB, ROUND_JOB, LeagueRow
from bot.surface.attach import picture
from bot.time import gameclock as gc
from bot.time.scheduler import Scheduler
from bot.ui import NEEDED_FOR_THREADS, Table, can_view_channel
from engines.core import said
from languages import ENGLISH, N_, Language
from renderers import league as pictures

log = logging.getLogger(__name__)

GAMES = [
    app_commands.Choice(name=info.title, value=name)
    for name, info in engines.GAMES.items()
    if name in ("guanga", "tiwanaku", "pachakuna", "nowa_gwinea", "guacamole")
]
# A league of each format, as its sign-up message names it (messages: translated where shown).
LEAGUE_KINDS = {
    "swiss": N_("a Swiss league"),
    "round_robin": N_("a round robin league"),
    "elimination": N_("a single elimination league"),
}
FORMATS = [app_commands.Choice(name=title.capitalize(), value=value) for value, title in FORMAT_NAMES.items()]


def server(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise LeagueError("leagues belong to a server; use this command in one of its channels")
    return interaction.guild_id


def channel(interaction: discord.Interaction) -> int:
    if interaction.channel_id is None:
        raise LeagueError("use this command in a server channel")
    return interaction.channel_id


NOT_ORGANISER = N_("only someone with Manage Server, or the league organiser role, can do that")

RETRY_ROUND = 600.0
"""Seconds between tries to open a round the bot lacks permissions for."""


def only(users: Iterable[int]) -> discord.AllowedMentions:
    """Mentions that notify exactly ``users`` (user ids) and nobody else, whatever the text holds."""
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        users=[discord.Object(u) for u in dict.fromkeys(users)],
        replied_user=False,
    )


def missing_permissions(perms: discord.Permissions) -> list[str]:
    """The permissions a round's games need in the league's channel (each in a thread of its own)
    that ``perms`` lacks, by the names Discord shows."""
    return [label for attr, label in NEEDED_FOR_THREADS if not getattr(perms, attr)]


def and_list(items: list[str], t: Language = ENGLISH) -> str:
    if len(items) == 1:
        return items[0]
    return t.gettext("{items} and {last}", items=", ".join(items[:-1]), last=items[-1])


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
                "{text} is not a start date; write it as YYYY-MM-DD or YYYY-MM-DD HH:MM (UTC)",
                text=repr(text),
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
            raise LeagueError(
                "{text} is not an option; write options as name=value, e.g. mode=apprentice", text=repr(part)
            )
        out[name] = value
    return out


def parse_points(text: str | None) -> list[float] | None:
    if not text:
        return None
    try:
        return [float(x) for x in re.split(r"[,\s]+", text.strip()) if x]
    except ValueError:
        raise LeagueError(
            "{text} is not a list of points; write them best place first, e.g. 3,2,1,0", text=repr(text)
        ) from None


def form(x: float) -> int:
    """The count that picks a message's plural form for ``x``, which may be fractional (0.5 days
    and 2.5 points read as plurals)."""
    return int(x) if float(x).is_integer() else 2


def clock_text(league: LeagueRow, t: Language = ENGLISH) -> str:
    """The league's clock in words (shown with its settings and its rounds), in language ``t``."""
    spec = league.game_clock
    if spec is not None:
        try:
            words = gc.parse_clock(spec).describe(t)
        except gc.ClockError:
            words = ""  # checked when the league was created; never worse than the spec itself
        if words:
            return t.gettext(
                "Clock: `{clock}`, {words}; at the round's deadline the computer finishes every game still running.",
                clock=spec,
                words=words,
            )
        return t.gettext(
            "Clock: `{clock}`; at the round's deadline the computer finishes every game still running.",
            clock=spec,
        )
    if league.legacy_timer:
        hours = league.legacy_timer / 3600
        return t.ngettext(
            "Turn timer: {n} hour a turn; at the round's deadline the computer finishes every game still running.",
            "Turn timer: {n} hours a turn; at the round's deadline the computer finishes every game still running.",
            form(hours),
            n=f"{hours:g}",
        )
    return t.gettext("No clock; at the round's deadline the computer finishes every game still running.")


def signup_text(league: LeagueRow, names: list[str], t: Language = ENGLISH) -> str:
    """The sign-up message (a public post: the server's language ``t``)."""
    info = engines.get(league.game)
    days = league.round_seconds / 86400
    values = {
        "league": league.shown,
        "kind": t.gettext(LEAGUE_KINDS[league.format]),
        "game": info.title,
        "players": t.ngettext("{n} player", "{n} players", league.group_size),
        "days": t.ngettext("{n} day", "{n} days", form(days), n=f"{days:g}"),
    }
    if league.format == "swiss":
        head = t.gettext(
            "🏆 **{league}**: {kind} of {game}, {players} a game, {rounds}, {days} a round.",
            rounds=t.ngettext("{n} round", "{n} rounds", league.rounds),
            **values,
        )
    else:
        head = t.gettext("🏆 **{league}**: {kind} of {game}, {players} a game, {days} a round.", **values)
    lines = [
        head,
        t.gettext(
            "Points per place: {points}; a bye scores {bye}.",
            points=", ".join(f"{p:g}" for p in league.points),
            bye=f"{league.bye_points:g}",
        ),
        clock_text(league, t),
    ]
    if league.status == "signup":
        lines.append(
            t.gettext(
                "Sign up with the buttons below or /league join (first round from {when}).",
                when=when(league.starts_at),
            )
        )
    else:
        lines.append(t.gettext("Sign-ups are closed."))
    lines.append(
        t.gettext(
            "Signed up ({n}): {names}",
            n=len(names),
            names=", ".join(names) if names else t.gettext("nobody yet"),
        )
    )
    return clip("\n".join(lines))


def standings_text(league: LeagueRow, rows: list[Standing], heading: str, t: Language = ENGLISH) -> str:
    """The standings in words, for screen readers (and every row, when the picture is cut)."""
    lines = [heading]
    for s in rows:
        r = s.row
        values = {
            "rank": r.rank,
            "name": t.gettext("{name} (dropped)", name=s.name) if s.dropped else s.name,
            "points": t.ngettext("{n} point", "{n} points", form(r.points), n=f"{r.points:g}"),
            "games": t.ngettext("{n} game", "{n} games", r.games),
            "wins": t.ngettext("{n} win", "{n} wins", r.wins),
            "tiebreak": f"{r.buchholz:g}",
        }
        if s.movement is not None and s.movement > 0:
            line = t.gettext(
                "{rank}. {name}: {points}, {games}, {wins}, tiebreak {tiebreak}, up {up}",
                up=s.movement,
                **values,
            )
        elif s.movement is not None and s.movement < 0:
            line = t.gettext(
                "{rank}. {name}: {points}, {games}, {wins}, tiebreak {tiebreak}, down {down}",
                down=-s.movement,
                **values,
            )
        else:
            line = t.gettext("{rank}. {name}: {points}, {games}, {wins}, tiebreak {tiebreak}", **values)
        lines.append(line)
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
    def __init__(self, league_id: int, action: str, t: Language = ENGLISH):
        label, style = {
            "join": (N_("Join"), discord.ButtonStyle.success),
            "leave": (N_("Leave"), discord.ButtonStyle.secondary),
        }[action]
        super().__init__(
            discord.ui.Button(label=t.gettext(label), style=style, custom_id=f"pk:lg:{action}:{league_id}")
        )
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


def signup_view(league: LeagueRow, t: Language = ENGLISH) -> discord.ui.View | None:
    if league.status != "signup":
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(SignupButton(league.id, "join", t))
    view.add_item(SignupButton(league.id, "leave", t))
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
        role = await self.store.people.organiser_role(server(interaction))
        return role is not None and any(r.id == role for r in getattr(user, "roles", ()))

    async def require_organiser(
        self, interaction: discord.Interaction, league: LeagueRow | None = None
    ) -> None:
        if league is not None and league.organiser_id == interaction.user.id:
            return
        if not await self.can_organise(interaction):
            raise LeagueError(NOT_ORGANISER)

    @staticmethod
    def sees(interaction: discord.Interaction, league: LeagueRow) -> bool:
        """Whether the asker can view the league's channel: for anyone else the league does not
        exist (no command, button or autocomplete shows it or acts on it)."""
        return can_view_channel(interaction, league.channel_id)

    async def find(self, interaction: discord.Interaction, name: str | None) -> LeagueRow:
        """The league a command names (see :meth:`LeagueService.find`), among those the asker sees."""
        return await self.leagues.find(server(interaction), name, functools.partial(self.sees, interaction))

    async def language(self, league: LeagueRow) -> Language:
        """The language of what the league posts: its server's."""
        return await i18n.server(self.bot, self.store, league.guild_id)

    async def names(self, league: LeagueRow) -> dict[int, str]:
        return {p.user_id: p.name for p in await self.store.leagues.league_players(league.id)}

    async def refresh_signup(self, league: LeagueRow) -> None:
        if not league.signup_message_id:
            return
        fresh = await self.store.leagues.league(league.id)
        if fresh is None or fresh.signup_message_id is None:
            return
        league, message_id = fresh, fresh.signup_message_id
        names = list((await self.names(league)).values())
        channel = self.bot.get_partial_messageable(league.channel_id, guild_id=league.guild_id)
        t = await self.language(league)
        try:
            await channel.get_partial_message(message_id).edit(
                content=signup_text(league, names, t), view=signup_view(league, t)
            )
        except discord.HTTPException:
            log.warning("could not update the sign-up message of league %s", league.id, exc_info=True)

    async def post(
        self, league: LeagueRow, content: str, *, file: discord.File | None = None, pings: Sequence[int] = ()
    ) -> None:
        """Post in the league's channel; only ``pings`` (user ids) are notified of their mentions."""
        target = self.bot.get_partial_messageable(league.channel_id, guild_id=league.guild_id)
        mentions = only(pings)
        if file is None:
            await target.send(clip(content), allowed_mentions=mentions)
        else:
            await target.send(clip(content), file=file, allowed_mentions=mentions)

    async def league_names(self, interaction: discord.Interaction, current: str):
        leagues = await self.store.leagues.of_server(server(interaction), live=False)
        wanted = current.casefold()
        return [
            app_commands.Choice(name=x.name, value=x.name)
            for x in leagues
            if wanted in x.name.casefold() and self.sees(interaction, x)
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
            self.table.committed(
                interaction,
                said("The league {league} was created", league=league.shown),
            )
            await self.bot.page_link("league", league.id, league.guild_id)  # its web link, made now
            t = await self.language(league)  # the sign-up message is public: the server's language
            view = signup_view(league, t)
            assert view is not None  # a new league takes sign-ups
            sent = await interaction.response.send_message(signup_text(league, [], t), view=view)
            if sent.message_id is not None:
                await self.store.leagues.set_signup_message(league.id, sent.message_id)

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
            await self.store.people.set_organiser_role(server(interaction), role.id if role else None)
            t = i18n.private(interaction)
            text = (
                t.gettext("Members with the role {role} can now run leagues.", role=role.name)
                if role
                else t.gettext("The organiser role is cleared.")
            )
            await self.table.reply(interaction, text)

        await self.table.guard(interaction, work)

    # ----------------------------------------------------------------- sign-ups

    @app_commands.command(name="join", description="Sign up for a league before it starts")
    @app_commands.describe(league="The league (leave out when there is only one)")
    async def join(self, interaction: discord.Interaction, league: str | None = None) -> None:
        async def work() -> None:
            found = await self.find(interaction, league)
            text = await self.leagues.join(
                found, interaction.user.id, interaction.user.display_name, t=i18n.private(interaction)
            )
            await self.refresh_signup(found)
            await self.table.reply(interaction, text + ".")

        await self.table.guard(interaction, work)

    @app_commands.command(name="leave", description="Withdraw from a league before it starts")
    @app_commands.describe(league="The league (leave out when there is only one)")
    async def leave(self, interaction: discord.Interaction, league: str | None = None) -> None:
        async def work() -> None:
            found = await self.find(interaction, league)
            text = await self.leagues.leave(found, interaction.user.id, t=i18n.private(interaction))
            await self.refresh_signup(found)
            await self.table.reply(interaction, text + ".")

        await self.table.guard(interaction, work)

    async def signup_click(self, interaction: discord.Interaction, league_id: int, action: str) -> None:
        async def work() -> None:
            league = await self.store.leagues.league(league_id)
            if league is None or league.guild_id != interaction.guild_id:
                raise LeagueError("that league is gone")
            if not self.sees(interaction, league):
                raise LeagueError("this button belongs to a league whose channel you cannot view")
            mine = i18n.private(interaction)
            if action == "join":
                text = await self.leagues.join(
                    league, interaction.user.id, interaction.user.display_name, t=mine
                )
            else:
                text = await self.leagues.leave(league, interaction.user.id, t=mine)
            names = list((await self.names(league)).values())
            t = await self.language(league)
            await interaction.response.edit_message(
                content=signup_text(league, names, t), view=signup_view(league, t)
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
            found = await self.find(interaction, league)
            await self.require_organiser(interaction, found)
            if member.bot:
                raise LeagueError("bots do not play in leagues; the computer fills seats by itself")
            text = await self.leagues.join(
                found, member.id, member.display_name, who=member.display_name, t=i18n.private(interaction)
            )
            await self.refresh_signup(found)
            await self.table.reply(interaction, text + ".")

        await self.table.guard(interaction, work)

    @organiser.command(name="remove", description="Take a member off a league before it starts")
    @app_commands.describe(member="Who to remove", league="The league (leave out when there is only one)")
    async def remove(
        self, interaction: discord.Interaction, member: discord.Member, league: str | None = None
    ) -> None:
        async def work() -> None:
            found = await self.find(interaction, league)
            await self.require_organiser(interaction, found)
            text = await self.leagues.leave(
                found, member.id, who=member.display_name, t=i18n.private(interaction)
            )
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
            found = await self.find(interaction, league)
            await self.require_organiser(interaction, found)
            results = await self.leagues.drop(found, member.id)
            t = i18n.private(interaction)
            self.table.committed(
                interaction,
                said("{name} was dropped from {league}", name=member.display_name, league=found.shown),
            )
            for result in results:
                try:
                    await self.table.announce(result)
                except discord.HTTPException:
                    log.warning("could not post the board of session %s after a drop", result.session.id)
            await self.table.reply(
                interaction,
                t.ngettext(
                    "{name} was dropped from {league}; they forfeit their remaining games"
                    " ({n} game in play went on without them).",
                    "{name} was dropped from {league}; they forfeit their remaining games"
                    " ({n} games in play went on without them).",
                    len(results),
                    name=member.display_name,
                    league=found.shown,
                ),
            )

        await self.table.guard(interaction, work)

    add.autocomplete("league")(league_names)
    remove.autocomplete("league")(league_names)
    drop.autocomplete("league")(league_names)

    @app_commands.command(name="start", description="Close the sign-ups and start the season on schedule")
    @app_commands.describe(league="The league (leave out when there is only one)")
    async def start(self, interaction: discord.Interaction, league: str | None = None) -> None:
        async def work() -> None:
            found = await self.find(interaction, league)
            await self.require_organiser(interaction, found)
            started, first = await self.leagues.start(found, interaction.user.id)
            t = i18n.private(interaction)
            self.table.committed(interaction, said("{league} started", league=started.shown))
            await self.refresh_signup(started)
            self.scheduler.wake()
            await self.table.reply(
                interaction,
                t.ngettext(
                    "{league} has started: {n} round, the first opens {when}.",
                    "{league} has started: {n} rounds, the first opens {when}.",
                    started.rounds,
                    league=started.shown,
                    when=when(first),
                ),
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
            found = await self.find(interaction, league)
            await self.require_organiser(interaction, found)
            changed = await self.leagues.set_final(found, top)
            t = i18n.private(interaction)
            if not changed.final_top:
                self.table.committed(
                    interaction, said("{league} has no final stage now", league=changed.shown)
                )
                await self.table.reply(
                    interaction,
                    t.ngettext(
                        "{league} has no final stage now: {n} round, and the top of the standings is the champion.",
                        "{league} has no final stage now: {n} rounds, and the top of the standings is the champion.",
                        changed.rounds,
                        league=changed.shown,
                    ),
                )
                return
            self.table.committed(
                interaction,
                said("{league} ends in a final of the top {top}", league=changed.shown, top=top),
            )
            byes = pairing.bracket_size(top) - top
            values = {"round": changed.swiss_rounds, "top": top, "league": changed.shown, "byes": byes}
            final_rounds = changed.rounds - changed.swiss_rounds
            if byes == 1:
                text = t.ngettext(
                    "After round {round}, the top {top} of {league}'s standings play a knockout final over {n}"
                    " round, seeded by the standings, the top seed starting with a bye. Its winner is the champion.",
                    "After round {round}, the top {top} of {league}'s standings play a knockout final over {n}"
                    " rounds, seeded by the standings, the top seed starting with a bye. Its winner is the champion.",
                    final_rounds,
                    **values,
                )
            elif byes:
                text = t.ngettext(
                    "After round {round}, the top {top} of {league}'s standings play a knockout final over {n}"
                    " round, seeded by the standings, the top {byes} seeds starting with a bye. Its winner is the"
                    " champion.",
                    "After round {round}, the top {top} of {league}'s standings play a knockout final over {n}"
                    " rounds, seeded by the standings, the top {byes} seeds starting with a bye. Its winner is the"
                    " champion.",
                    final_rounds,
                    **values,
                )
            else:
                text = t.ngettext(
                    "After round {round}, the top {top} of {league}'s standings play a knockout final over {n}"
                    " round, seeded by the standings. Its winner is the champion.",
                    "After round {round}, the top {top} of {league}'s standings play a knockout final over {n}"
                    " rounds, seeded by the standings. Its winner is the champion.",
                    final_rounds,
                    **values,
                )
            await self.table.reply(interaction, text)

        await self.table.guard(interaction, work)

    final.autocomplete("league")(league_names)

    # ----------------------------------------------------------------- what people look at

    async def standings_post(
        self, league: LeagueRow, heading: str, t: Language = ENGLISH
    ) -> tuple[str, discord.File]:
        """The standings picture and, to post below it, the same in text (for screen readers), both
        in language ``t``."""
        rows = await self.leagues.standings(league)
        ratings = await self.leagues.rating_map(league)
        data = await asyncio.to_thread(
            functools.partial(
                pictures.standings,
                league.name,
                heading,
                picture_lines(rows, ratings),
                language=t.code,
                contrast=await self.store.people.server_contrast(league.guild_id),
            )
        )
        text = standings_text(league, rows, f"**{league.shown}**: {heading}", t)
        return text, picture(data, f"league-{league.id}-standings.png", alt.from_text(text))

    def round_heading(self, league: LeagueRow, t: Language = ENGLISH) -> str:
        swiss = league.swiss_rounds
        if league.status == "finished":
            return t.ngettext(
                "final standings after {n} round",
                "final standings after {n} rounds",
                min(league.current_round, swiss),
            )
        if league.current_round == 0:
            return t.gettext("before the first round")
        if league.in_final:
            return t.ngettext(
                "standings after {n} round; the top {top} play the final stage",
                "standings after {n} rounds; the top {top} play the final stage",
                swiss,
                top=league.final_top,
            )
        return t.gettext("standings in round {round} of {rounds}", round=league.current_round, rounds=swiss)

    def round_name(self, league: LeagueRow, number: int, t: Language = ENGLISH) -> str:
        """``round 2 of 5``, or ``round 1 of 2 of the final stage``."""
        if league.final_round and number >= league.final_round:
            return t.gettext(
                "round {round} of {rounds} of the final stage",
                round=number - league.final_round + 1,
                rounds=league.rounds - league.final_round + 1,
            )
        return t.gettext("round {round} of {rounds}", round=number, rounds=league.swiss_rounds)

    @app_commands.command(
        name="standings", description="Post a league's standings (a picture and the same in text)"
    )
    @app_commands.describe(league="The league (leave out when there is only one)")
    async def standings(self, interaction: discord.Interaction, league: str | None = None) -> None:
        async def work() -> None:
            found = await self.find(interaction, league)
            await interaction.response.defer(thinking=True)  # a public answer: the picture is for everyone
            t = await self.language(found)  # so in the server's language
            text, file = await self.standings_post(found, self.round_heading(found, t), t)
            # The picture first, then the words below it, as a message of their own.
            quiet = discord.AllowedMentions.none()
            head = text.splitlines()[0]
            url = await self.bot.page_link("league", found.id, found.guild_id)
            if url:
                head += "\n" + t.gettext("On the web: {url}", url=url)
            await interaction.followup.send(head, file=file, allowed_mentions=quiet)
            await interaction.followup.send(text, allowed_mentions=quiet)

        await self.table.guard(interaction, work, defer=False)

    @app_commands.command(
        name="round", description="The current round's games, with links and how far each is"
    )
    @app_commands.describe(league="The league (leave out when there is only one)")
    async def round(self, interaction: discord.Interaction, league: str | None = None) -> None:
        async def work() -> None:
            found = await self.find(interaction, league)
            if found.current_round == 0:
                raise LeagueError("{league} has no round open yet", league=found.shown)
            t = i18n.private(interaction)  # a private answer: the asker's language
            names = await self.names(found)
            rounds = {r.number: r for r in await self.store.leagues.league_rounds(found.id)}
            current = rounds.get(found.current_round)
            name = self.round_name(found, found.current_round, t)
            if current is not None:
                lines = [
                    t.gettext(
                        "**{league}**, {round} (ends {when})",
                        league=found.shown,
                        round=name,
                        when=when(current.deadline_at),
                    )
                ]
            else:
                lines = [t.gettext("**{league}**, {round}", league=found.shown, round=name)]
            lines.append(clock_text(found, t))
            for g in await self.store.leagues.league_games(found.id, found.current_round):
                who = ", ".join(names.get(u, str(u)) for u in g.players)
                session = await self.bot.ready_sessions().core.get(g.session_id) if g.session_id else None
                if g.status == "finished":
                    order = sorted(g.seats, key=lambda s: s.place or 99)
                    state = t.gettext(
                        "finished: {places}",
                        places=", ".join(f"{s.place}. {names.get(s.user_id, s.user_id)}" for s in order),
                    )
                elif session is not None:
                    state = t.gettext("being played")
                else:
                    state = t.gettext("not opened")
                if session is not None:
                    lines.append(
                        t.gettext(
                            "Table {table}: {players} in {channel}, {state}",
                            table=g.table_no,
                            players=who,
                            channel=f"<#{session.row.channel_id}>",
                            state=state,
                        )
                    )
                else:
                    lines.append(
                        t.gettext(
                            "Table {table}: {players}, {state}", table=g.table_no, players=who, state=state
                        )
                    )
            byes = [
                names.get(u, str(u))
                for r, u, _ in await self.store.leagues.league_byes(found.id)
                if r == found.current_round
            ]
            if byes:
                lines.append(
                    t.ngettext(
                        "Bye ({n} point each): {players}",
                        "Bye ({n} points each): {players}",
                        form(found.bye_points),
                        n=f"{found.bye_points:g}",
                        players=", ".join(byes),
                    )
                )
            await self.table.reply(interaction, "\n".join(lines))

        await self.table.guard(interaction, work)

    @app_commands.command(name="bracket", description="Post the bracket of a single-elimination league")
    @app_commands.describe(league="The league (leave out when there is only one)")
    async def bracket(self, interaction: discord.Interaction, league: str | None = None) -> None:
        async def work() -> None:
            found = await self.find(interaction, league)
            if found.format != "elimination" and not found.final_round:
                if found.format == "swiss":
                    raise LeagueError(
                        "{league} is a Swiss league; /league standings shows it", league=found.shown
                    )
                raise LeagueError(
                    "{league} is a round-robin league; /league standings shows it", league=found.shown
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
            file, text = await self.bracket_post(found, await self.language(found))
            quiet = discord.AllowedMentions.none()
            await interaction.followup.send(text.splitlines()[0], file=file, allowed_mentions=quiet)
            await interaction.followup.send(text, allowed_mentions=quiet)

        await self.table.guard(interaction, work, defer=False)

    async def bracket_post(self, league: LeagueRow, t: Language = ENGLISH) -> tuple[discord.File, str]:
        """The bracket picture and the same in text below it, in language ``t``."""
        names = await self.names(league)
        b = await self.leagues.bracket(league)

        def name(player: str | None) -> str | None:
            return None if player is None else names.get(int(player), player)

        rounds = [
            [pictures.BracketMatch(name(m.a), name(m.b), name(m.winner), r == 0) for m in matches]
            for r, matches in enumerate(b.rounds)
        ]
        final = league.format == "swiss"
        if league.status == "finished":
            heading = (
                t.gettext("{league}: final stage, finished", league=league.shown)
                if final
                else t.gettext("{league}: bracket, finished", league=league.shown)
            )
        else:
            heading = f"{league.shown}: {self.round_name(league, league.current_round, t)}"
        # The picture's title is short enough to fit it; the text says the round too.
        title = (
            t.gettext("{league}: final stage", league=league.name)
            if final
            else t.gettext("{league}: bracket", league=league.name)
        )
        contrast = await self.store.people.server_contrast(league.guild_id)
        data = await asyncio.to_thread(
            functools.partial(pictures.bracket, title, rounds, language=t.code, contrast=contrast)
        )
        lines = [f"**{heading}**"]
        bye = t.gettext("bye")

        def match(m: pictures.BracketMatch) -> str:
            a, b = (x or (bye if m.first_round else "?") for x in (m.a, m.b))
            if m.winner:
                return t.gettext("{a} v {b} → {winner}", a=a, b=b, winner=m.winner)
            return t.gettext("{a} v {b}", a=a, b=b)

        for r, matches in enumerate(rounds, 1):
            lines.append(
                t.gettext("Round {round}: {matches}", round=r, matches="; ".join(match(m) for m in matches))
            )
        text = clip("\n".join(lines))
        return picture(data, f"league-{league.id}-bracket.png", alt.from_text(text)), text

    @app_commands.command(name="export", description="The standings and every result as a CSV file")
    @app_commands.describe(league="The league (leave out when there is only one)")
    async def export(self, interaction: discord.Interaction, league: str | None = None) -> None:
        async def work() -> None:
            found = await self.find(interaction, league)
            data = (await self.leagues.export(found)).encode("utf-8")
            name = re.sub(r"[^A-Za-z0-9]+", "-", found.name).strip("-").lower() or "league"
            file = discord.File(io.BytesIO(data), filename=f"{name}.csv")
            await self.table.reply(
                interaction,
                i18n.private(interaction).gettext(
                    "{league}: standings, then every game and bye.", league=found.shown
                ),
                file=file,
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
        league = await self.store.leagues.league(league_id)
        if league is None or league.status != "running" or league.current_round != number - 1:
            return
        missing = await self.missing_permissions(league)
        if missing:
            await self.store.leagues.schedule_round(
                league_id, number, self.store.clock.time() + RETRY_ROUND, missing=missing
            )
            if job.payload.get("missing") != missing:
                await self.tell_organiser(league, number, missing)
            return
        opened = await self.leagues.open_round(league_id, number, job=job)
        if opened is None:
            # Nothing opened, and the season is not over: the final stage found fewer than two
            # players left, or it was removed while its round was due.  The season ends here.
            league = await self.store.leagues.league(league_id)
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
        t = await self.language(league)
        text = t.ngettext(
            "{organiser}: {round} of **{league}** cannot open: I am missing {missing} in {channel}. Give my role"
            " that permission there (channel settings, Permissions); I try again every {minutes} minutes, and"
            " the round starts when I can open its games.",
            "{organiser}: {round} of **{league}** cannot open: I am missing {missing} in {channel}. Give my role"
            " those permissions there (channel settings, Permissions); I try again every {minutes} minutes, and"
            " the round starts when I can open its games.",
            len(missing),
            organiser=f"<@{league.organiser_id}>",
            round=self.round_name(league, number, t),
            league=league.shown,
            missing=and_list(missing, t),
            channel=f"<#{league.channel_id}>",
            minutes=int(RETRY_ROUND // 60),
        )
        try:
            await self.post(league, text, pings=[league.organiser_id])
            return
        except discord.HTTPException:
            log.info("league %s: cannot post in its channel; writing to the organiser", league.id)
        try:
            user = self.bot.get_user(league.organiser_id) or await self.bot.fetch_user(league.organiser_id)
            await user.send(text, allowed_mentions=only([league.organiser_id]))
        except discord.HTTPException:
            log.warning("league %s: could not tell the organiser about %s", league.id, missing)

    async def open_games(self, opened: OpenedRound) -> None:
        league = opened.league
        names = await self.names(league)
        info = engines.get(league.game)
        t = await self.language(league)  # everything here is posted: the server's language
        parent = self.bot.get_channel(league.channel_id) or await self.bot.fetch_channel(league.channel_id)
        round_name = self.round_name(league, opened.number, t)
        lines = [
            t.gettext(
                "🏆 **{league}**: {round} is open until {when}. Games still running then are finished by the computer.",
                league=league.shown,
                round=round_name,
                when=when(opened.deadline_at),
            )
        ]
        if opened.final_stage and opened.number == league.final_round:
            seeds = await self.leagues.seeds(league)
            lines.insert(
                1,
                t.gettext(
                    "The final stage, seeded by the standings: {seeds}",
                    seeds=", ".join(f"{i}. {names.get(int(p), p)}" for i, p in enumerate(seeds, 1)),
                ),
            )
        for game in opened.games:
            who = ", ".join(names.get(u, str(u)) for u in game.players)
            values = {"league": league.name[:60], "table": game.table_no}
            if opened.final_stage:
                thread_name = t.gettext(
                    "{league} · final round {round} · table {table}",
                    round=opened.number - (league.final_round or 0) + 1,
                    **values,
                )
            else:
                thread_name = t.gettext(
                    "{league} · round {round} · table {table}", round=opened.number, **values
                )
            try:
                if not isinstance(parent, discord.TextChannel):
                    raise TypeError(f"#{getattr(parent, 'name', parent)} takes no threads")
                thread = await parent.create_thread(
                    name=thread_name[:100], type=discord.ChannelType.public_thread
                )
            except (discord.HTTPException, TypeError) as exc:
                log.warning("league %s: no thread for table %s (%s)", league.id, game.table_no, exc)
                lines.append(
                    t.gettext(
                        "Table {table}: {players}: could not be opened (the bot cannot create threads here)",
                        table=game.table_no,
                        players=who,
                    )
                )
                continue
            session = await self.leagues.open_game(league, game, thread.id, names)
            if session is None:
                lines.append(
                    t.gettext(
                        "Table {table}: {players}: forfeited (too few players left)",
                        table=game.table_no,
                        players=who,
                    )
                )
                continue
            mentions = " ".join(f"<@{u}>" for u in game.players if session.seat_of(u))
            await thread.send(
                t.gettext(
                    "{players}: your {game} game for **{league}**, {round}. Play it here before {when}.",
                    players=mentions,
                    game=info.title,
                    league=league.shown,
                    round=round_name,
                    when=when(opened.deadline_at),
                ),
                allowed_mentions=only(u for u in game.players if session.seat_of(u)),
            )
            await self.table.post_board(
                session,
                header=t.gettext(
                    "**{game}**: {league}, {round}", game=info.title, league=league.shown, round=round_name
                ),
            )
            lines.append(
                t.gettext(
                    "Table {table}: {players} in {thread}",
                    table=game.table_no,
                    players=who,
                    thread=thread.mention,
                )
            )
        if opened.byes:
            byes = ", ".join(names.get(u, str(u)) for u in opened.byes)
            if opened.final_stage:
                lines.append(t.gettext("Bye into the next round: {players}", players=byes))
            else:
                lines.append(
                    t.ngettext(
                        "Bye ({n} point): {players}",
                        "Bye ({n} points): {players}",
                        form(league.bye_points),
                        n=f"{league.bye_points:g}",
                        players=byes,
                    )
                )
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
        league = await self.store.leagues.league(league_id)
        if league is None or league.status != "running" or league.current_round != number:
            return
        if number < league.rounds:
            await self.store.leagues.schedule_round(league_id, number + 1, self.store.clock.time())
            self.scheduler.wake()
            return
        await self.end_season(league)

    async def end_season(self, league: LeagueRow) -> None:
        """Crown the champion: the final standings picture with the champion, the standings in
        text below it, and, after a final stage, its bracket (picture, then text)."""
        champion = await self.leagues.champion(league)
        league = await self.leagues.reread(league.id)
        t = await self.language(league)
        text, file = await self.standings_post(league, self.round_heading(league, t), t)
        final = bool(league.final_round and await self.leagues.seeds(league))
        if champion and final:
            crown = t.gettext(
                "🏆 **{league}** is over. Champion: {champion} (winner of the final stage)!",
                league=league.shown,
                champion=f"<@{champion}>",
            )
        elif champion:
            crown = t.gettext(
                "🏆 **{league}** is over. Champion: {champion}!",
                league=league.shown,
                champion=f"<@{champion}>",
            )
        else:
            crown = t.gettext("**{league}** is over.", league=league.shown)
        await self.post(league, crown, file=file, pings=[champion] if champion else [])
        await self.post(league, text)
        if league.format == "swiss" and league.final_round and await self.leagues.seeds(league):
            picture, words = await self.bracket_post(league, t)
            await self.post(league, words.splitlines()[0], file=picture)
            await self.post(league, words)


async def setup(bot) -> None:
    await bot.add_cog(LeagueCog(bot))
