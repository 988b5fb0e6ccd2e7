"""No-shows and substitutes: ``/league overdue`` and its buttons, the organiser's ``drop`` and
``substitute``."""

from __future__ import annotations

import re

import discord
from discord import app_commands

from bot import i18n
from bot.league import noshows
from bot.league.names import all_shown, shown
from bot.league.service import LeagueError
from bot.surface.replies import guarded, reply
from cogs.league.base import LEAGUE, Part, part
from engines.core import said
from languages import N_

SUBSTITUTE_ACTIONS = [
    app_commands.Choice(name="Add to the list", value="add"),
    app_commands.Choice(name="Remove from the list", value="remove"),
]
OVERDUE_BUTTONS = 8
"""Tables with buttons in /league overdue (three buttons each; a message holds 25)."""


DROPPED = N_("{name} was dropped from {league}; they forfeit their remaining games.")
DROPPED_BUT_SUBSTITUTED = N_(
    "{name} was dropped from {league}; they forfeit their remaining games except those a substitute"
    " plays for them."
)


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
        desk = part(interaction, NoShows)
        if desk is not None:
            await desk.overdue_click(interaction, self.league_id, self.game_id, self.action)


class NoShows(Part):
    """Late games and who holds them up, no-shows decided by hand, substitutes and drops."""

    @app_commands.command(
        name="drop", description="Drop a player mid-season: their remaining games are forfeited"
    )
    @app_commands.describe(member="Who to drop", league=LEAGUE)
    @guarded()
    async def drop(
        self, interaction: discord.Interaction, member: discord.Member, league: str | None = None
    ) -> None:
        found, t = await self.organised(interaction, league)
        subs, computers, ended = await self.desk.drop(
            found, member.id, member.display_name
        )  # boards Discord refuses are logged
        self.front.replies.committed(
            interaction,
            said("{name} was dropped from {league}", name=shown(member.display_name), league=found.shown),
        )
        credit_to = (await self.store.noshows.rules(found.id)).credit
        text = t.gettext(
            # a substitute's result counting for the dropped player is no forfeit of theirs
            DROPPED_BUT_SUBSTITUTED if subs and credit_to == noshows.ORIGINAL else DROPPED,
            name=shown(member.display_name),
            league=found.shown,
        )
        if computers:
            text += " " + t.ngettext(
                "{n} game in play goes on with the computer in their seat.",
                "{n} games in play go on with the computer in their seat.",
                computers,
            )
        if subs:
            credit = t.gettext(noshows.CREDIT_NAMES[credit_to])
            text += " " + t.ngettext(
                "A substitute took {n} seat (its result counts for {credit}).",
                "Substitutes took {n} seats (their results count for {credit}).",
                subs,
                credit=credit,
            )
        if ended:
            text += " " + t.ngettext(
                "{n} two-player game in play ended at once, won by the other player.",
                "{n} two-player games in play ended at once, each won by the other player.",
                ended,
            )
        await reply(interaction, text)

    @app_commands.command(
        name="substitute", description="Add a member to a league's substitutes, or remove them"
    )
    @app_commands.describe(
        action="Add to the list or remove from it",
        member="Who",
        league=LEAGUE,
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
        found, t = await self.organised(interaction, league)
        if action.value == "add":
            if member.bot:
                raise LeagueError("bots do not play in leagues; the computer fills seats by itself")
            if found.status not in ("signup", "running"):
                raise LeagueError("{league} is over; it takes no substitutes", league=found.shown)
            active = {p.user_id for p in await self.store.leagues.league_players(found.id) if p.active}
            if member.id in active:
                raise LeagueError(
                    "{name} plays in {league}; a substitute is someone who does not",
                    name=shown(member.display_name),
                    league=found.shown,
                )
            if not await self.store.noshows.add_substitute(found.id, member.id, member.display_name):
                raise LeagueError(
                    "{name} is on the substitutes' list of {league} already",
                    name=shown(member.display_name),
                    league=found.shown,
                )
            done = said(
                "{name} is a substitute in {league}", name=shown(member.display_name), league=found.shown
            )
        elif not await self.store.noshows.remove_substitute(found.id, member.id):
            raise LeagueError(
                "{name} is not on the substitutes' list of {league}",
                name=shown(member.display_name),
                league=found.shown,
            )
        else:
            done = said(
                "{name} is no longer a substitute in {league}",
                name=shown(member.display_name),
                league=found.shown,
            )
        self.front.replies.committed(interaction, done)
        listed = [shown(s.name) for s in await self.store.noshows.substitutes(found.id)]
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
    @app_commands.describe(league=LEAGUE)
    @guarded()
    async def overdue(self, interaction: discord.Interaction, league: str | None = None) -> None:
        found = await self.find(interaction, league)
        if found.status in ("finished", "cancelled"):
            raise LeagueError("{league} is over", league=found.shown)
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

    @guarded()
    async def overdue_click(
        self, interaction: discord.Interaction, league_id: int, game_id: int, action: str
    ) -> None:
        league = await self.clicked(interaction, league_id)
        await self.require_organiser(interaction, league)
        if league.status != "running":
            raise LeagueError("{league} is not running", league=league.shown)
        t = i18n.private(interaction)
        names = all_shown(await self.rounds.names(league))  # written in the answer
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
                substitute=shown(sub.name),
                name=shown(original),
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
