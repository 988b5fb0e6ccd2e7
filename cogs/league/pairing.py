"""The pairing controls of a Swiss league (``/league organiser settings``, ``forbid``, ``allow``,
``pair``, ``unpair``) and the review step (``/league organiser review`` and its message's menu
and button)."""

from __future__ import annotations

import re

import discord
from discord import app_commands

from bot import i18n
from bot.app import PukllayBot
from bot.league import controls, texts
from bot.league.names import all_shown, shown
from bot.league.service import LeagueError
from bot.storage.leagues import LeagueRow
from bot.surface.replies import guarded, reply
from cogs.league.base import LEAGUE, Part, part
from engines.core import said
from languages import ENGLISH, N_, Language


class Pairing(Part):
    """A Swiss league's tiebreaks, forbidden and fixed pairs, and the review of a round before it is
    published."""

    def __init__(self, bot: PukllayBot):
        super().__init__(bot)
        self.pairing = controls.Controls(self.leagues)

    @app_commands.command(name="settings", description="Change a league's tiebreak order or its review step")
    @app_commands.describe(
        tiebreaks="Tiebreaks after points, in order, e.g. Sonneborn-Berger, Buchholz",
        review="Swiss: see each round's tables privately, swap players, then publish it",
        league=LEAGUE,
    )
    @guarded()
    async def pairing_settings(
        self,
        interaction: discord.Interaction,
        tiebreaks: app_commands.Range[str, 1, 100] | None = None,
        review: bool | None = None,
        league: str | None = None,
    ) -> None:
        found, t = await self.organised(interaction, league)
        if tiebreaks is None and review is None:
            raise LeagueError("give tiebreaks, review or both")
        changed = await self.pairing.set_settings(found, order=tiebreaks, review=review)
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

    pairing_settings.autocomplete("tiebreaks")(Part.tiebreak_choices)

    async def forbid_or_allow(
        self,
        interaction: discord.Interaction,
        player: discord.Member,
        other: discord.Member,
        league: str | None,
        forbidden: bool,
    ) -> None:
        found, t = await self.organised(interaction, league)
        changed = await self.pairing.forbid(found, player.id, other.id, forbidden)
        values = {"a": shown(player.display_name), "b": shown(other.display_name), "league": found.shown}
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
        done = said("{a} and {b}: pairing changed", a=values["a"], b=values["b"])
        await self.answer(interaction, text, done if changed else None)

    @app_commands.command(name="forbid", description="Never pair two players together in a Swiss league")
    @app_commands.describe(player="One player", other="The other", league=LEAGUE)
    @guarded()
    async def forbid(
        self,
        interaction: discord.Interaction,
        player: discord.Member,
        other: discord.Member,
        league: str | None = None,
    ) -> None:
        await self.forbid_or_allow(interaction, player, other, league, True)

    @app_commands.command(name="allow", description="Let a forbidden pair be paired together again")
    @app_commands.describe(player="One player", other="The other", league=LEAGUE)
    @guarded()
    async def allow(
        self,
        interaction: discord.Interaction,
        player: discord.Member,
        other: discord.Member,
        league: str | None = None,
    ) -> None:
        await self.forbid_or_allow(interaction, player, other, league, False)

    @app_commands.command(
        name="pair", description="Seat a table of the next Swiss round by hand, in seat order"
    )
    @app_commands.describe(
        first="Who sits first (moves first)",
        second="Who sits second",
        third="Third seat (games of 3 or more)",
        fourth="Fourth seat",
        fifth="Fifth seat",
        sixth="Sixth seat",
        league=LEAGUE,
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
        found, t = await self.organised(interaction, league)
        seated = [m for m in (first, second, third, fourth, fifth, sixth) if m is not None]
        number = await self.pairing.fix(found, [m.id for m in seated])
        names = ", ".join(shown(m.display_name) for m in seated)
        self.front.replies.committed(interaction, said("a table of round {round} was fixed", round=number))
        text = t.gettext(
            "Round {round} of {league} will seat {players} at one table, in that order; the others are paired"
            " around it.",
            round=number,
            league=found.shown,
            players=names,
        )
        # Who is away over the round's start is decided when it is due (they may come back first),
        # so the table is fixed all the same; the organiser is told now, not only when it is due.
        away, checks_in = await self.pairing.away_over_start(found, number, [m.id for m in seated])
        for user, until in away:
            values = {"user": user, "until": texts.when(until), "round": number}
            text += "\n" + (
                t.gettext(
                    "⚠️ <@{user}> is away until {until}, over the start of round {round}: unless they come"
                    " back before it ({/me back}) or check in for it, they will not be paired in it and this"
                    " table will not be kept. To seat someone else, {/league organiser unpair} this table first.",
                    **values,
                )
                if checks_in
                else t.gettext(
                    "⚠️ <@{user}> is away until {until}, over the start of round {round}: unless they come"
                    " back before it ({/me back}), they will not be paired in it and this table will not be"
                    " kept. To seat someone else, {/league organiser unpair} this table first.",
                    **values,
                )
            )
        await reply(interaction, text)

    @app_commands.command(name="unpair", description="Undo the next round's table you fixed for a player")
    @app_commands.describe(member="A player at the table", league=LEAGUE)
    @guarded()
    async def unpair(
        self, interaction: discord.Interaction, member: discord.Member, league: str | None = None
    ) -> None:
        found, t = await self.organised(interaction, league)
        players = await self.pairing.unfix(found, member.id)
        names = all_shown(await self.rounds.names(found))  # written in the answer
        await reply(
            interaction,
            t.gettext(
                "The fixed table of {players} is undone; they are paired with the others.",
                players=", ".join(names.get(u, str(u)) for u in players),
            ),
        )

    @app_commands.command(
        name="review", description="See the round waiting for review, swap players, publish it"
    )
    @app_commands.describe(league=LEAGUE)
    @guarded()
    async def review(self, interaction: discord.Interaction, league: str | None = None) -> None:
        found, t = await self.organised(interaction, league)
        draft = await self.pairing.draft(found)
        text = await self.pairing.tables_text(found, draft, t)
        await reply(interaction, text, view=review_view(found.id, draft.number, t))

    @guarded(defer=False)
    async def review_swap(
        self, interaction: discord.Interaction, league_id: int, number: int, users: list[int]
    ) -> None:
        found = await self.review_league(interaction, league_id, number)
        if len(users) != 2:
            raise LeagueError("pick two players to swap")
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
        await self.rounds.launch(opened)

    async def review_league(self, interaction: discord.Interaction, league_id: int, number: int) -> LeagueRow:
        """The league a review message's control acts on, refused unless the round still waits."""
        found = await self.clicked(interaction, league_id)
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
        pairing = part(interaction, Pairing)
        if pairing is not None:
            # The ids as sent (a forged select may leave its users unresolved): the handler refuses
            # anything but two of the round's players.
            sent = interaction.data.get("values") if interaction.data is not None else None
            listed: list[object] = sent if isinstance(sent, list) else []
            users = [
                int(v) for v in listed if isinstance(v, str) and v.isascii() and v.isdigit() and len(v) <= 20
            ]
            await pairing.review_swap(interaction, self.league_id, self.number, users)


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
        pairing = part(interaction, Pairing)
        if pairing is not None:
            await pairing.review_publish(interaction, self.league_id, self.number)


PUBLISH = N_("Publish")


def review_view(league_id: int, number: int, t: Language = ENGLISH) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ReviewSwap(league_id, number, t))
    view.add_item(ReviewPublish(league_id, number, t))
    return view
