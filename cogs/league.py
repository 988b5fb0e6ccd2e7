"""``/league ...``: community leagues (sign-ups, scheduled rounds in threads, standings, brackets).

Slash commands, the sign-up buttons and their answers only: the season's logic is in
:mod:`bot.league.service`, its words in :mod:`bot.league.texts`, and its rounds, deadlines and
season ends (fired by the scheduler, posted through :mod:`bot.surface.league`) in
:mod:`bot.league.season`.
"""

from __future__ import annotations

import functools
import io
import logging
import re

import discord
from discord import app_commands
from discord.ext import commands

import engines
from bot import i18n
from bot.app import PukllayBot
from bot.league import controls, noshows, texts
from bot.league.noshow_desk import NoShowDesk
from bot.league.season import Picture
from bot.league.service import FORMAT_NAMES, LeagueError
from bot.storage.leagues import LeagueRow
from bot.surface.channels import can_view_channel
from bot.surface.checkin import CheckinButton
from bot.surface.league import file_of
from bot.surface.replies import guarded, reply
from engines.core import said
from languages import ENGLISH, N_, Language

log = logging.getLogger(__name__)

GAMES = [
    app_commands.Choice(name=info.title, value=name)
    for name, info in engines.GAMES.items()
    if name in ("guanga", "tiwanaku", "pachakuna", "nowa_gwinea", "guacamole")
]
FORMATS = [app_commands.Choice(name=title.capitalize(), value=value) for value, title in FORMAT_NAMES.items()]
NO_SHOW = [
    app_commands.Choice(name="The computer takes the seat", value=noshows.COMPUTER),
    app_commands.Choice(name="The seat forfeits the game", value=noshows.FORFEIT),
    app_commands.Choice(
        name="Score the game as it stands (Tiwanaku, Nowa Gwinea, Guacamole)", value=noshows.SCORE
    ),
]
CREDIT = [
    app_commands.Choice(name="The original player", value=noshows.ORIGINAL),
    app_commands.Choice(name="The substitute", value=noshows.SUBSTITUTE),
    app_commands.Choice(name="Nobody", value=noshows.NOBODY),
]
SUBSTITUTE_ACTIONS = [
    app_commands.Choice(name="Add to the list", value="add"),
    app_commands.Choice(name="Remove from the list", value="remove"),
]
OVERDUE_BUTTONS = 8
"""Tables with buttons in /league overdue (three buttons each; a message holds 25)."""


def server(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise LeagueError("leagues belong to a server; use this command in one of its channels")
    return interaction.guild_id


def channel(interaction: discord.Interaction) -> int:
    if interaction.channel_id is None:
        raise LeagueError("use this command in a server channel")
    return interaction.channel_id


NOT_ORGANISER = N_("only someone with Manage Server, or the league organiser role, can do that")


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


class OverdueButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"pk:lg:od:(?P<action>remind|sub|decide):(?P<lid>\d+):(?P<gid>\d+)",
):
    """A button of /league overdue: remind, substitute or decide one game (organisers only)."""

    LABELS = {
        "remind": N_("Remind table {table}"),
        "sub": N_("Substitute at table {table}"),
        "decide": N_("Decide table {table}"),
    }

    def __init__(self, league_id: int, game_id: int, action: str, label: str = ""):
        style = discord.ButtonStyle.danger if action == "decide" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=label or action, style=style, custom_id=f"pk:lg:od:{action}:{league_id}:{game_id}"
            )
        )
        self.league_id, self.game_id, self.action = league_id, game_id, action

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["lid"]), int(match["gid"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        cog = client.get_cog("LeagueCog") if isinstance(client, commands.Bot) else None
        if isinstance(cog, LeagueCog):
            await cog.overdue_click(interaction, self.league_id, self.game_id, self.action)


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
        if bot.leagues is None or bot.league_rounds is None or bot.league_attendance is None:
            raise RuntimeError("the bot has not been set up yet (setup_hook makes its leagues)")
        self.bot = bot
        self.leagues = bot.leagues
        self.attendance = bot.league_attendance
        self.rounds = bot.league_rounds
        self.store = bot.leagues.store
        self.front = bot.ready_front()
        self.pairing = controls.Controls(bot.leagues)
        if bot.league_noshows is None:
            raise RuntimeError("the bot has not been set up yet (setup_hook makes its leagues)")
        self.desk: NoShowDesk = bot.league_noshows

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(SignupButton, CheckinButton, OverdueButton)
        self.bot.add_dynamic_items(ReviewSwap, ReviewPublish)

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

    async def signup_message(self, league: LeagueRow) -> tuple[str, discord.ui.View | None]:
        """The sign-up message's text and buttons as they stand (public: the server's language)."""
        t = await self.language(league)
        return texts.signup_text(league, list((await self.rounds.names(league)).values()), t), signup_view(
            league, t
        )

    async def refresh_signup(self, league: LeagueRow) -> None:
        if not league.signup_message_id:
            return
        fresh = await self.store.leagues.league(league.id)
        if fresh is None or fresh.signup_message_id is None:
            return
        channel = self.bot.get_partial_messageable(fresh.channel_id, guild_id=fresh.guild_id)
        content, view = await self.signup_message(fresh)
        try:
            await channel.get_partial_message(fresh.signup_message_id).edit(content=content, view=view)
        except discord.HTTPException:
            log.warning("could not update the sign-up message of league %s", league.id, exc_info=True)

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
        tiebreaks="Tiebreaks after points, in order, e.g. Sonneborn-Berger, Buchholz",
        review="Swiss: see each round's tables privately, swap players, then publish it",
        no_show="At a game's deadline, for whoever has not played: computer, forfeit, or score as it stands",
        drop_after="Drop a player after this many no-shows (0: never; 2 if left out)",
        substitute_credit="Whose result a substitute's game is: the original player's, the substitute's, or nobody's",
    )
    @app_commands.choices(game=GAMES, format=FORMATS, no_show=NO_SHOW, substitute_credit=CREDIT)
    @guarded(defer=False)
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
        tiebreaks: app_commands.Range[str, 1, 100] | None = None,
        review: bool = False,
        no_show: app_commands.Choice[str] | None = None,
        drop_after: app_commands.Range[int, 0, 30] = noshows.DEFAULT_DROP_AFTER,
        substitute_credit: app_commands.Choice[str] | None = None,
    ) -> None:
        await self.require_organiser(interaction)
        order = controls.parse_order(tiebreaks) if tiebreaks is not None else None
        action = no_show.value if no_show else noshows.DEFAULT_ACTION
        credit = substitute_credit.value if substitute_credit else noshows.DEFAULT_CREDIT
        try:
            chosen = noshows.check(game.value, action, drop_after, credit)
        except noshows.NoShowError as exc:
            raise LeagueError(exc.msg, **exc.values) from None
        league = await self.leagues.create(
            guild_id=server(interaction),
            channel_id=channel(interaction),
            organiser_id=interaction.user.id,
            name=name,
            game=game.value,
            format=format.value,
            group_size=players,
            options=texts.parse_options(options),
            rounds=rounds,
            days=days,
            clock=clock,
            starts_at=texts.parse_start(start, self.store.clock.time()),
            points=texts.parse_points(points),
            seed=self.bot.ready_sessions().new_seed()
            % (2**31),  # drawn as a game's seed is, never from the time
            tiebreak_order=order,
            review=review,
        )
        await self.store.noshows.set_rules(league.id, chosen)
        self.front.replies.committed(
            interaction,
            said("The league {league} was created", league=league.shown),
        )
        await self.bot.page_link("league", league.id, league.guild_id)  # its web link, made now
        content, view = await self.signup_message(league)
        assert view is not None  # a new league takes sign-ups
        sent = await interaction.response.send_message(content, view=view)
        if sent.message_id is not None:
            await self.store.leagues.set_signup_message(league.id, sent.message_id)

    @settings.command(
        name="organiser_role", description="The role that may run leagues (leave out to clear it)"
    )
    @app_commands.describe(role="Members with this role can create and run leagues")
    @guarded()
    async def organiser_role(
        self, interaction: discord.Interaction, role: discord.Role | None = None
    ) -> None:
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
        await reply(interaction, text)

    # ----------------------------------------------------------------- sign-ups

    async def sign(
        self,
        interaction: discord.Interaction,
        league: str | None,
        joining: bool,
        member: discord.Member | None = None,
    ) -> None:
        """Sign the asker (or, by an organiser, ``member``) up for a league, or off it."""
        found = await self.find(interaction, league)
        person, who = interaction.user, "you"
        if member is not None:
            await self.require_organiser(interaction, found)
            if member.bot and joining:
                raise LeagueError("bots do not play in leagues; the computer fills seats by itself")
            person, who = member, member.display_name
        t = i18n.private(interaction)
        if joining and found.status == "running":  # a late sign-up (Swiss, before half the rounds)
            text = await self.attendance.late_join(found, person.id, person.display_name, who=who, t=t)
        elif joining:
            text = await self.leagues.join(found, person.id, person.display_name, who=who, t=t)
        else:
            text = await self.leagues.leave(found, person.id, who=who, t=t)
        await self.refresh_signup(found)
        await reply(interaction, text + ".")

    @app_commands.command(name="join", description="Sign up for a league before it starts")
    @app_commands.describe(league="The league (leave out when there is only one)")
    @guarded()
    async def join(self, interaction: discord.Interaction, league: str | None = None) -> None:
        await self.sign(interaction, league, True)

    @app_commands.command(name="leave", description="Withdraw from a league before it starts")
    @app_commands.describe(league="The league (leave out when there is only one)")
    @guarded()
    async def leave(self, interaction: discord.Interaction, league: str | None = None) -> None:
        await self.sign(interaction, league, False)

    @guarded(defer=False)
    async def signup_click(self, interaction: discord.Interaction, league_id: int, action: str) -> None:
        league = await self.store.leagues.league(league_id)
        if league is None or league.guild_id != interaction.guild_id:
            raise LeagueError("that league is gone")
        if not self.sees(interaction, league):
            raise LeagueError("this button belongs to a league whose channel you cannot view")
        mine = i18n.private(interaction)
        if action == "join":
            text = await self.leagues.join(league, interaction.user.id, interaction.user.display_name, t=mine)
        else:
            text = await self.leagues.leave(league, interaction.user.id, t=mine)
        content, view = await self.signup_message(league)
        await interaction.response.edit_message(content=content, view=view)
        await interaction.followup.send(text + ".", ephemeral=True)

    join.autocomplete("league")(league_names)
    leave.autocomplete("league")(league_names)

    # ----------------------------------------------------------------- the organiser

    @organiser.command(name="add", description="Sign a member up for a league before it starts")
    @app_commands.describe(member="Who to sign up", league="The league (leave out when there is only one)")
    @guarded()
    async def add(
        self, interaction: discord.Interaction, member: discord.Member, league: str | None = None
    ) -> None:
        await self.sign(interaction, league, True, member)

    @organiser.command(name="remove", description="Take a member off a league before it starts")
    @app_commands.describe(member="Who to remove", league="The league (leave out when there is only one)")
    @guarded()
    async def remove(
        self, interaction: discord.Interaction, member: discord.Member, league: str | None = None
    ) -> None:
        await self.sign(interaction, league, False, member)

    @organiser.command(
        name="drop", description="Drop a player mid-season: their remaining games are forfeited"
    )
    @app_commands.describe(member="Who to drop", league="The league (leave out when there is only one)")
    @guarded()
    async def drop(
        self, interaction: discord.Interaction, member: discord.Member, league: str | None = None
    ) -> None:
        found = await self.find(interaction, league)
        await self.require_organiser(interaction, found)
        subs, computers = await self.desk.drop(found, member.id)  # boards Discord refuses are logged
        t = i18n.private(interaction)
        self.front.replies.committed(
            interaction,
            said("{name} was dropped from {league}", name=member.display_name, league=found.shown),
        )
        text = t.ngettext(
            "{name} was dropped from {league}; they forfeit their remaining games"
            " ({n} game in play went on without them).",
            "{name} was dropped from {league}; they forfeit their remaining games"
            " ({n} games in play went on without them).",
            subs + computers,
            name=member.display_name,
            league=found.shown,
        )
        if subs:
            text += " " + t.ngettext("A substitute took {n} seat.", "Substitutes took {n} seats.", subs)
        await reply(interaction, text)

    add.autocomplete("league")(league_names)
    remove.autocomplete("league")(league_names)
    drop.autocomplete("league")(league_names)

    @app_commands.command(name="start", description="Close the sign-ups and start the season on schedule")
    @app_commands.describe(league="The league (leave out when there is only one)")
    @guarded()
    async def start(self, interaction: discord.Interaction, league: str | None = None) -> None:
        found = await self.find(interaction, league)
        await self.require_organiser(interaction, found)
        started, first = await self.leagues.start(found, interaction.user.id)
        t = i18n.private(interaction)
        self.front.replies.committed(interaction, said("{league} started", league=started.shown))
        await self.refresh_signup(started)
        checkin = await self.attendance.arm(started, first)
        self.rounds.scheduler.wake()
        text = t.ngettext(
            "{league} has started: {n} round, the first opens {when}.",
            "{league} has started: {n} rounds, the first opens {when}.",
            started.rounds,
            league=started.shown,
            when=texts.when(first),
        )
        if checkin is not None:
            text += " " + t.gettext(
                "Its check-in opens {when}; the round waits until the check-in has been open its full time.",
                when=texts.when(checkin),
            )
        await reply(interaction, text)

    start.autocomplete("league")(league_names)

    @app_commands.command(
        name="final", description="End a Swiss league with a knockout final of its top players"
    )
    @app_commands.describe(
        top="How many of the best in the standings play the final (0 removes the final stage)",
        league="The league (leave out when there is only one)",
    )
    @guarded()
    async def final(
        self,
        interaction: discord.Interaction,
        top: app_commands.Range[int, 0, 1000],
        league: str | None = None,
    ) -> None:
        found = await self.find(interaction, league)
        await self.require_organiser(interaction, found)
        changed = await self.leagues.set_final(found, top)
        if changed.final_top:
            done = said("{league} ends in a final of the top {top}", league=changed.shown, top=top)
        else:
            done = said("{league} has no final stage now", league=changed.shown)
        self.front.replies.committed(interaction, done)
        await reply(interaction, texts.final_text(changed, top, i18n.private(interaction)))

    final.autocomplete("league")(league_names)

    # ----------------------------------------------------------------- what people look at

    async def post_picture(
        self, interaction: discord.Interaction, picture: Picture, text: str, head: str | None = None
    ) -> None:
        """A public answer (deferred already): the picture (above it ``head``, by default the text's
        first line), then the same in words below it."""
        quiet = discord.AllowedMentions.none()
        head = text.splitlines()[0] if head is None else head
        await interaction.followup.send(head, file=file_of(picture), allowed_mentions=quiet)
        await interaction.followup.send(text, allowed_mentions=quiet)

    @app_commands.command(
        name="standings", description="Post a league's standings (a picture and the same in text)"
    )
    @app_commands.describe(league="The league (leave out when there is only one)")
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
    @app_commands.describe(league="The league (leave out when there is only one)")
    @guarded()
    async def round(self, interaction: discord.Interaction, league: str | None = None) -> None:
        found = await self.find(interaction, league)
        if found.current_round == 0:
            raise LeagueError("{league} has no round open yet", league=found.shown)
        t = i18n.private(interaction)  # a private answer: the asker's language
        await reply(interaction, await self.rounds.round_text(found, t))

    @app_commands.command(name="bracket", description="Post the bracket of a single-elimination league")
    @app_commands.describe(league="The league (leave out when there is only one)")
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
    @app_commands.describe(league="The league (leave out when there is only one)")
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

    @organiser.command(
        name="forum", description="Post each table in a forum channel, tagged waiting, playing, done"
    )
    @app_commands.describe(
        forum="The forum channel (leave out to go back to threads in the league's channel)",
        league="The league (leave out when there is only one)",
    )
    @guarded()
    async def forum(
        self,
        interaction: discord.Interaction,
        forum: discord.ForumChannel | None = None,
        league: str | None = None,
    ) -> None:
        found = await self.find(interaction, league)
        await self.require_organiser(interaction, found)
        if found.status not in ("signup", "running"):
            raise LeagueError("{league} is over", league=found.shown)
        calendar = self.rounds.calendar
        if calendar is None:
            raise LeagueError("leagues are not set up yet; try again in a minute")
        t = i18n.private(interaction)
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

    forum.autocomplete("league")(league_names)
    standings.autocomplete("league")(league_names)
    export.autocomplete("league")(league_names)
    round.autocomplete("league")(league_names)
    bracket.autocomplete("league")(league_names)

    # ----------------------------------------------------------------- pairing controls

    async def tiebreak_choices(self, interaction: discord.Interaction, current: str):
        t = i18n.private(interaction)
        return [app_commands.Choice(name=n, value=v) for n, v in controls.complete_order(current, t)][:25]

    create.autocomplete("tiebreaks")(tiebreak_choices)

    @organiser.command(name="settings", description="Change a league's tiebreak order or its review step")
    @app_commands.describe(
        tiebreaks="Tiebreaks after points, in order, e.g. Sonneborn-Berger, Buchholz",
        review="Swiss: see each round's tables privately, swap players, then publish it",
        league="The league (leave out when there is only one)",
    )
    @guarded()
    async def pairing_settings(
        self,
        interaction: discord.Interaction,
        tiebreaks: app_commands.Range[str, 1, 100] | None = None,
        review: bool | None = None,
        league: str | None = None,
    ) -> None:
        found = await self.find(interaction, league)
        await self.require_organiser(interaction, found)
        if tiebreaks is None and review is None:
            raise LeagueError("give tiebreaks, review or both")
        changed = await self.pairing.set_settings(found, order=tiebreaks, review=review)
        t = i18n.private(interaction)
        self.front.replies.committed(interaction, said("{league}: settings changed", league=changed.shown))
        lines = [
            t.gettext(
                "{league} ranks by points, then: {legend}.",
                league=changed.shown,
                legend=controls.legend(controls.order_of(changed), t),
            )
        ]
        if changed.review:
            lines.append(t.gettext("Each round waits for your review before it is published."))
        else:
            lines.append(t.gettext("Rounds are published as soon as they are paired."))
        await reply(interaction, "\n".join(lines))

    pairing_settings.autocomplete("tiebreaks")(tiebreak_choices)

    async def forbid_or_allow(
        self,
        interaction: discord.Interaction,
        player: discord.Member,
        other: discord.Member,
        league: str | None,
        forbidden: bool,
    ) -> None:
        found = await self.find(interaction, league)
        await self.require_organiser(interaction, found)
        changed = await self.pairing.forbid(found, player.id, other.id, forbidden)
        t = i18n.private(interaction)
        values = {"a": player.display_name, "b": other.display_name, "league": found.shown}
        if forbidden:
            text = (
                t.gettext("{a} and {b} will not be paired together in {league}.", **values)
                if changed
                else t.gettext("{a} and {b} were a forbidden pair already.", **values)
            )
        else:
            text = (
                t.gettext("{a} and {b} may be paired together again in {league}.", **values)
                if changed
                else t.gettext("{a} and {b} were not a forbidden pair.", **values)
            )
        if changed:
            self.front.replies.committed(
                interaction, said("{a} and {b}: pairing changed", a=values["a"], b=values["b"])
            )
        await reply(interaction, text)

    @organiser.command(name="forbid", description="Never pair two players together in a Swiss league")
    @app_commands.describe(
        player="One player", other="The other", league="The league (leave out when there is only one)"
    )
    @guarded()
    async def forbid(
        self,
        interaction: discord.Interaction,
        player: discord.Member,
        other: discord.Member,
        league: str | None = None,
    ) -> None:
        await self.forbid_or_allow(interaction, player, other, league, True)

    @organiser.command(name="allow", description="Let a forbidden pair be paired together again")
    @app_commands.describe(
        player="One player", other="The other", league="The league (leave out when there is only one)"
    )
    @guarded()
    async def allow(
        self,
        interaction: discord.Interaction,
        player: discord.Member,
        other: discord.Member,
        league: str | None = None,
    ) -> None:
        await self.forbid_or_allow(interaction, player, other, league, False)

    @organiser.command(name="pair", description="Seat a table of the next Swiss round by hand, in seat order")
    @app_commands.describe(
        first="Who sits first (moves first)",
        second="Who sits second",
        third="Third seat (games of 3 or more)",
        fourth="Fourth seat",
        fifth="Fifth seat",
        sixth="Sixth seat",
        league="The league (leave out when there is only one)",
    )
    @guarded()
    async def pair(
        self,
        interaction: discord.Interaction,
        first: discord.Member,
        second: discord.Member,
        third: discord.Member | None = None,
        fourth: discord.Member | None = None,
        fifth: discord.Member | None = None,
        sixth: discord.Member | None = None,
        league: str | None = None,
    ) -> None:
        found = await self.find(interaction, league)
        await self.require_organiser(interaction, found)
        seated = [m for m in (first, second, third, fourth, fifth, sixth) if m is not None]
        number = await self.pairing.fix(found, [m.id for m in seated])
        names = ", ".join(m.display_name for m in seated)
        self.front.replies.committed(interaction, said("a table of round {round} was fixed", round=number))
        await reply(
            interaction,
            i18n.private(interaction).gettext(
                "Round {round} of {league} will seat {players} at one table, in that order; the others are paired"
                " around it.",
                round=number,
                league=found.shown,
                players=names,
            ),
        )

    @organiser.command(name="unpair", description="Undo the next round's table you fixed for a player")
    @app_commands.describe(
        member="A player at the table", league="The league (leave out when there is only one)"
    )
    @guarded()
    async def unpair(
        self, interaction: discord.Interaction, member: discord.Member, league: str | None = None
    ) -> None:
        found = await self.find(interaction, league)
        await self.require_organiser(interaction, found)
        players = await self.pairing.unfix(found, member.id)
        names = await self.rounds.names(found)
        await reply(
            interaction,
            i18n.private(interaction).gettext(
                "The fixed table of {players} is undone; they are paired with the others.",
                players=", ".join(names.get(u, str(u)) for u in players),
            ),
        )

    @organiser.command(
        name="review", description="See the round waiting for review, swap players, publish it"
    )
    @app_commands.describe(league="The league (leave out when there is only one)")
    @guarded()
    async def review(self, interaction: discord.Interaction, league: str | None = None) -> None:
        found = await self.find(interaction, league)
        await self.require_organiser(interaction, found)
        draft = await self.pairing.draft(found)
        t = i18n.private(interaction)
        text = await self.pairing.tables_text(found, draft, t)
        await reply(interaction, text, view=review_view(found.id, draft.number, t))

    @guarded(defer=False)
    async def review_swap(
        self, interaction: discord.Interaction, league_id: int, number: int, users: list[int]
    ) -> None:
        found = await self.review_league(interaction, league_id, number)
        draft = await self.pairing.swap(found, users[0], users[1])
        t = i18n.private(interaction)
        self.front.replies.committed(
            interaction, said("two players were swapped in round {round}", round=number)
        )
        text = await self.pairing.tables_text(found, draft, t)
        await interaction.response.edit_message(content=text, view=review_view(league_id, number, t))

    @guarded(defer=False)
    async def review_publish(self, interaction: discord.Interaction, league_id: int, number: int) -> None:
        found = await self.review_league(interaction, league_id, number)
        await interaction.response.defer()
        opened = await self.pairing.publish(found)
        self.front.replies.committed(interaction, said("round {round} was published", round=number))
        await interaction.edit_original_response(
            content=i18n.private(interaction).gettext(
                "Round {round} of {league} is published: its games are open and the players told.",
                round=number,
                league=found.shown,
            ),
            view=None,
        )
        await self.rounds.open_games(opened)

    async def review_league(self, interaction: discord.Interaction, league_id: int, number: int) -> LeagueRow:
        """The league a review message's control acts on, refused unless the round still waits."""
        found = await self.store.leagues.league(league_id)
        if found is None or found.guild_id != interaction.guild_id:
            raise LeagueError("that league is gone")
        if not self.sees(interaction, found):
            raise LeagueError("this button belongs to a league whose channel you cannot view")
        await self.require_organiser(interaction, found)
        if (
            found.current_round + 1 != number
            or await self.store.league_pairing.draft(league_id, number) is None
        ):
            raise LeagueError(
                "round {round} of {league} no longer waits for review (it was published)",
                round=number,
                league=found.shown,
            )
        return found

    forbid.autocomplete("league")(league_names)
    allow.autocomplete("league")(league_names)
    pair.autocomplete("league")(league_names)
    unpair.autocomplete("league")(league_names)
    review.autocomplete("league")(league_names)
    pairing_settings.autocomplete("league")(league_names)

    # ----------------------------------------------------------------- no-shows and substitutes

    @organiser.command(
        name="substitute", description="Add a member to a league's substitutes, or remove them"
    )
    @app_commands.describe(
        action="Add to the list or remove from it",
        member="Who",
        league="The league (leave out when there is only one)",
    )
    @app_commands.choices(action=SUBSTITUTE_ACTIONS)
    @guarded()
    async def substitute(
        self,
        interaction: discord.Interaction,
        action: app_commands.Choice[str],
        member: discord.Member,
        league: str | None = None,
    ) -> None:
        found = await self.find(interaction, league)
        await self.require_organiser(interaction, found)
        t = i18n.private(interaction)
        if action.value == "add":
            if member.bot:
                raise LeagueError("bots do not play in leagues; the computer fills seats by itself")
            if found.status not in ("signup", "running"):
                raise LeagueError("{league} is over; it takes no substitutes", league=found.shown)
            active = {p.user_id for p in await self.store.leagues.league_players(found.id) if p.active}
            if member.id in active:
                raise LeagueError(
                    "{name} plays in {league}; a substitute is someone who does not",
                    name=member.display_name,
                    league=found.shown,
                )
            if not await self.store.noshows.add_substitute(found.id, member.id, member.display_name):
                raise LeagueError(
                    "{name} is on the substitutes' list of {league} already",
                    name=member.display_name,
                    league=found.shown,
                )
            done = said("{name} is a substitute in {league}", name=member.display_name, league=found.shown)
        elif not await self.store.noshows.remove_substitute(found.id, member.id):
            raise LeagueError(
                "{name} is not on the substitutes' list of {league}",
                name=member.display_name,
                league=found.shown,
            )
        else:
            done = said(
                "{name} is no longer a substitute in {league}", name=member.display_name, league=found.shown
            )
        self.front.replies.committed(interaction, done)
        listed = [s.name for s in await self.store.noshows.substitutes(found.id)]
        await reply(
            interaction,
            done.in_words(t)
            + ". "
            + t.ngettext(
                "Substitutes ({n}): {names}.",
                "Substitutes ({n}): {names}.",
                len(listed),
                names=", ".join(listed) or "-",
            ),
        )

    @app_commands.command(
        name="overdue",
        description="The current round's games that are late or not started, and who holds each up",
    )
    @app_commands.describe(league="The league (leave out when there is only one)")
    @guarded()
    async def overdue(self, interaction: discord.Interaction, league: str | None = None) -> None:
        found = await self.find(interaction, league)
        if found.status != "running" or found.current_round == 0:
            raise LeagueError("{league} has no round open yet", league=found.shown)
        t = i18n.private(interaction)
        text, late = await self.desk.overdue_text(found, t)
        view = None
        if late and await self.organises(interaction, found):
            view = discord.ui.View(timeout=None)
            for o in late[:OVERDUE_BUTTONS]:
                for action in ("remind", "sub", "decide"):
                    label = t.gettext(OverdueButton.LABELS[action], table=o.table_no)
                    view.add_item(OverdueButton(found.id, o.game_id, action, label))
            if len(late) > OVERDUE_BUTTONS:
                text += "\n" + t.gettext(
                    "Buttons for the first {n} tables; decide those, then ask again.", n=OVERDUE_BUTTONS
                )
        await reply(interaction, text, view=view)

    async def organises(self, interaction: discord.Interaction, league: LeagueRow) -> bool:
        try:
            await self.require_organiser(interaction, league)
        except LeagueError:
            return False
        return True

    @guarded()
    async def overdue_click(
        self, interaction: discord.Interaction, league_id: int, game_id: int, action: str
    ) -> None:
        league = await self.store.leagues.league(league_id)
        if league is None or league.guild_id != interaction.guild_id:
            raise LeagueError("that league is gone")
        if not self.sees(interaction, league):
            raise LeagueError("this button belongs to a league whose channel you cannot view")
        await self.require_organiser(interaction, league)
        if league.status != "running":
            raise LeagueError("{league} is not running", league=league.shown)
        t = i18n.private(interaction)
        names = await self.rounds.names(league)
        game = await self.desk.game(league, game_id)
        if action == "remind":
            told = await self.desk.remind(league, game)
            if not told:
                raise LeagueError("table {table} is not waiting for anyone now", table=game.table_no)
            text = t.gettext(
                "Reminded {players} at table {table}.",
                players=", ".join(names.get(u, str(u)) for u in told),
                table=game.table_no,
            )
        elif action == "sub":
            sub, original = await self.desk.substitute_for(league, game_id)
            text = t.gettext(
                "{substitute} takes {name}'s seat at table {table}.",
                substitute=sub.name,
                name=original,
                table=game.table_no,
            )
        else:
            done = await self.desk.decide(league, game_id)
            chosen = await self.store.noshows.rules(league.id)
            text = t.ngettext(
                "Table {table}: {n} no-show counted ({players}); {action}.",
                "Table {table}: {n} no-shows counted ({players}); {action}.",
                len(done.late),
                table=game.table_no,
                players=", ".join(names.get(u, str(u)) for u in done.late),
                action=t.gettext(noshows.ACTION_NAMES[chosen.action]),
            )
            if done.dropped:
                text += " " + t.gettext(
                    "Dropped: {players}.", players=", ".join(names.get(u, str(u)) for u in done.dropped)
                )
        await reply(interaction, text)

    substitute.autocomplete("league")(league_names)
    overdue.autocomplete("league")(league_names)

    @organiser.command(
        name="reliability", description="The least reliability a player needs to sign up (0: none)"
    )
    @app_commands.describe(
        minimum="The least reliability in % (a new player has 80); 0: none",
        league="The league (leave out when there is only one)",
    )
    @guarded()
    async def reliability(
        self,
        interaction: discord.Interaction,
        minimum: app_commands.Range[int, 0, 99],
        league: str | None = None,
    ) -> None:
        found = await self.find(interaction, league)
        await self.require_organiser(interaction, found)
        await self.store.profiles.set_league_gate(found.id, minimum or None)
        t = i18n.private(interaction)
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

    reliability.autocomplete("league")(league_names)

    # ----------------------------------------------------------------- attendance (Swiss leagues)

    @app_commands.command(name="checkin", description="Check in for the coming round of a league")
    @app_commands.describe(league="The league (leave out when there is only one)")
    @guarded()
    async def checkin(self, interaction: discord.Interaction, league: str | None = None) -> None:
        found = await self.find(interaction, league)
        text = await self.attendance.check_in(found, interaction.user.id, t=i18n.private(interaction))
        self.front.replies.committed(interaction, said("You checked in for {league}", league=found.shown))
        await reply(interaction, text)

    @guarded()
    async def checkin_click(self, interaction: discord.Interaction, league_id: int, number: int) -> None:
        found = await self.store.leagues.league(league_id)
        if found is None or found.guild_id != interaction.guild_id or not self.sees(interaction, found):
            raise LeagueError("this button belongs to a league whose channel you cannot view")
        text = await self.attendance.check_in(found, interaction.user.id, number, t=i18n.private(interaction))
        self.front.replies.committed(interaction, said("You checked in for {league}", league=found.shown))
        await reply(interaction, text)

    @app_commands.command(name="bye", description="Ask for a bye in a coming round of a Swiss league")
    @app_commands.describe(
        round="The round you will not play",
        cancel="Take back a bye you asked for",
        league="The league (leave out when there is only one)",
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
        self.front.replies.committed(
            interaction, said("Your bye request for round {round} was changed", round=round)
        )
        await reply(interaction, text)

    @app_commands.command(name="pause", description="Sit out the next rounds of a Swiss league (no points)")
    @app_commands.describe(
        rounds="How many coming rounds", league="The league (leave out when there is only one)"
    )
    @guarded()
    async def pause(
        self,
        interaction: discord.Interaction,
        rounds: app_commands.Range[int, 1, 30],
        league: str | None = None,
    ) -> None:
        found = await self.find(interaction, league)
        text = await self.attendance.pause(found, interaction.user.id, rounds, i18n.private(interaction))
        self.front.replies.committed(
            interaction, said("Your pause in {league} was recorded", league=found.shown)
        )
        await reply(interaction, text)

    @app_commands.command(
        name="resume", description="Take back your pause: be paired again from the next round"
    )
    @app_commands.describe(league="The league (leave out when there is only one)")
    @guarded()
    async def resume(self, interaction: discord.Interaction, league: str | None = None) -> None:
        found = await self.find(interaction, league)
        text = await self.attendance.resume(found, interaction.user.id, i18n.private(interaction))
        self.front.replies.committed(
            interaction, said("Your pause in {league} was taken back", league=found.shown)
        )
        await reply(interaction, text)

    @organiser.command(
        name="attendance", description="Check-in before rounds, and what a bye asked for scores (Swiss)"
    )
    @app_commands.describe(
        checkin="Players check in before every round, only the first, or never",
        hours="How long the check-in window is open before a round (hours)",
        requested_bye="What a bye a player asks for scores: nothing, half or all of a bye",
        league="The league (leave out when there is only one)",
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
        found = await self.find(interaction, league)
        await self.require_organiser(interaction, found)
        text = await self.attendance.configure(
            found,
            checkin.value if checkin else None,
            hours,
            requested_bye.value if requested_bye else None,
            i18n.private(interaction),
        )
        self.front.replies.committed(
            interaction, said("The attendance settings of {league} were changed", league=found.shown)
        )
        await reply(interaction, text)

    checkin.autocomplete("league")(league_names)
    bye.autocomplete("league")(league_names)
    pause.autocomplete("league")(league_names)
    resume.autocomplete("league")(league_names)
    attendance_settings.autocomplete("league")(league_names)

    @organiser.command(
        name="autoplay",
        description="Whether players' only legal moves may be played for them (if they allow it)",
    )
    @app_commands.describe(
        allowed="Allow it or not; leave out to see which it is",
        league="The league (leave out when there is only one)",
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

    autoplay.autocomplete("league")(league_names)


class ReviewSwap(
    discord.ui.DynamicItem[discord.ui.UserSelect], template=r"pk:lgrv:swap:(?P<lid>\d+):(?P<round>\d+)"
):
    """The review message's menu: pick the two players to swap."""

    def __init__(self, league_id: int, number: int, t: Language = ENGLISH):
        super().__init__(
            discord.ui.UserSelect(
                custom_id=f"pk:lgrv:swap:{league_id}:{number}",
                placeholder=t.gettext("Pick two players to swap"),
                min_values=2,
                max_values=2,
            )
        )
        self.league_id = league_id
        self.number = number

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["lid"]), int(match["round"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = (
            interaction.client.get_cog("LeagueCog") if isinstance(interaction.client, commands.Bot) else None
        )
        if isinstance(cog, LeagueCog):
            users = [u.id for u in self.item.values]
            await guarded(defer=False)(LeagueCog.review_swap)(
                cog, interaction, self.league_id, self.number, users
            )


class ReviewPublish(
    discord.ui.DynamicItem[discord.ui.Button], template=r"pk:lgrv:pub:(?P<lid>\d+):(?P<round>\d+)"
):
    """The review message's button: publish the round as it stands."""

    def __init__(self, league_id: int, number: int, t: Language = ENGLISH):
        super().__init__(
            discord.ui.Button(
                label=t.gettext(PUBLISH),
                style=discord.ButtonStyle.success,
                custom_id=f"pk:lgrv:pub:{league_id}:{number}",
            )
        )
        self.league_id = league_id
        self.number = number

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["lid"]), int(match["round"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = (
            interaction.client.get_cog("LeagueCog") if isinstance(interaction.client, commands.Bot) else None
        )
        if isinstance(cog, LeagueCog):
            await guarded(defer=False)(LeagueCog.review_publish)(
                cog, interaction, self.league_id, self.number
            )


PUBLISH = N_("Publish")


def review_view(league_id: int, number: int, t: Language = ENGLISH) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ReviewSwap(league_id, number, t))
    view.add_item(ReviewPublish(league_id, number, t))
    return view


async def setup(bot) -> None:
    await bot.add_cog(LeagueCog(bot))
