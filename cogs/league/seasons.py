"""``/league create``, ``join``, ``leave``, ``start``, ``final`` and the organiser's ``add`` and
``remove``: a league's creation, its sign-ups (and their buttons) and its start."""

from __future__ import annotations

import logging
import re

import discord
from discord import app_commands

import engines
from bot import i18n
from bot.league import controls, noshows, texts
from bot.league.names import shown
from bot.league.service import FORMAT_NAMES, LeagueError
from bot.storage.leagues import LeagueRow
from bot.surface.replies import guarded, reply
from cogs.league.base import LEAGUE, Part, channel, part, server
from engines.core import said
from languages import ENGLISH, N_, Language

log = logging.getLogger(__name__)

GAMES = [
    app_commands.Choice(name=info.title, value=name)
    for name, info in engines.GAMES.items()
    if name in ("guanga", "tiwanaku", "pachakuna", "nowa_gwinea", "guacamole")
]
FORMATS = [app_commands.Choice(name=title.capitalize(), value=value) for value, title in FORMAT_NAMES.items()]
NO_SHOW = i18n.slash_choices("league create", "no_show")  # noshows.COMPUTER, FORFEIT, SCORE
CREDIT = [
    app_commands.Choice(name="The original player", value=noshows.ORIGINAL),
    app_commands.Choice(name="The substitute", value=noshows.SUBSTITUTE),
    app_commands.Choice(name="Nobody", value=noshows.NOBODY),
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
        seasons = part(interaction, Seasons)
        if seasons is not None:
            await seasons.signup_click(interaction, self.league_id, self.action)


def signup_view(league: LeagueRow, t: Language = ENGLISH) -> discord.ui.View | None:
    if league.status != "signup":
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(SignupButton(league.id, "join", t))
    view.add_item(SignupButton(league.id, "leave", t))
    return view


class Seasons(Part):
    """A league's creation, its sign-ups and its start."""

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
            seed=self.bot.ready_sessions().new_seed() % (2**31),  # as a game's seed, not the time
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

    async def sign(
        self,
        interaction: discord.Interaction,
        league: str | None,
        joining: bool,
        member: discord.Member | None = None,
    ) -> None:
        """Sign the asker (or, by an organiser, ``member``) up for a league, or off it."""
        found = await self.find(interaction, league)
        person = interaction.user
        who: str | None = None  # the asker: "you"
        if member is not None:
            await self.require_organiser(interaction, found)
            if member.bot and joining:
                raise LeagueError("bots do not play in leagues; the computer fills seats by itself")
            person, who = member, shown(member.display_name)  # as the answer writes it
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
    @app_commands.describe(league=LEAGUE)
    @guarded()
    async def join(self, interaction: discord.Interaction, league: str | None = None) -> None:
        await self.sign(interaction, league, True)

    @app_commands.command(name="leave", description="Withdraw from a league before it starts")
    @app_commands.describe(league=LEAGUE)
    @guarded()
    async def leave(self, interaction: discord.Interaction, league: str | None = None) -> None:
        await self.sign(interaction, league, False)

    @guarded(defer=False)
    async def signup_click(self, interaction: discord.Interaction, league_id: int, action: str) -> None:
        league = await self.clicked(interaction, league_id)
        mine = i18n.private(interaction)
        if action == "join":
            text = await self.leagues.join(league, interaction.user.id, interaction.user.display_name, t=mine)
        else:
            text = await self.leagues.leave(league, interaction.user.id, t=mine)
        content, view = await self.signup_message(league)
        await interaction.response.edit_message(content=content, view=view)
        await interaction.followup.send(text + ".", ephemeral=True)

    @app_commands.command(name="add", description="Sign a member up for a league before it starts")
    @app_commands.describe(member="Who to sign up", league=LEAGUE)
    @guarded()
    async def add(
        self, interaction: discord.Interaction, member: discord.Member, league: str | None = None
    ) -> None:
        await self.sign(interaction, league, True, member)

    @app_commands.command(name="remove", description="Take a member off a league before it starts")
    @app_commands.describe(member="Who to remove", league=LEAGUE)
    @guarded()
    async def remove(
        self, interaction: discord.Interaction, member: discord.Member, league: str | None = None
    ) -> None:
        await self.sign(interaction, league, False, member)

    @app_commands.command(name="start", description="Close the sign-ups and start the season on schedule")
    @app_commands.describe(league=LEAGUE)
    @guarded()
    async def start(self, interaction: discord.Interaction, league: str | None = None) -> None:
        found, t = await self.organised(interaction, league)
        started, first = await self.leagues.start(found)
        self.front.replies.committed(interaction, said("{league} started", league=started.shown))
        await self.refresh_signup(started)
        checkin = await self.attendance.arm(started, first)
        self.rounds.scheduler.wake()
        text = t.ngettext(
            "{league} has started: {n} round, the first opens {when}.",
            "{league} has started: {n} rounds, the first opens {when}.",
            started.rounds,
            league=started.shown,
            when=texts.when(first if checkin is None else checkin[1]),
        )
        if checkin is not None:
            text += " " + t.gettext(
                "Its check-in opens {when}; the round waits until the check-in has been open its full time.",
                when=texts.when(checkin[0]),
            )
        await reply(interaction, text)

    @app_commands.command(
        name="final", description="End a Swiss league with a knockout final of its top players"
    )
    @app_commands.describe(
        top="How many of the best in the standings play the final (0 removes the final stage)",
        league=LEAGUE,
    )
    @guarded()
    async def final(
        self,
        interaction: discord.Interaction,
        top: app_commands.Range[int, 0, 1000],
        league: str | None = None,
    ) -> None:
        found, t = await self.organised(interaction, league)
        changed = await self.leagues.set_final(found, top)
        if changed.final_top:
            done = said("{league} ends in a final of the top {top}", league=changed.shown, top=top)
        else:
            done = said("{league} has no final stage now", league=changed.shown)
        await self.answer(interaction, texts.final_text(changed, top, t), done)

    create.autocomplete("tiebreaks")(Part.tiebreak_choices)
