"""A person's public profile in one server, as data: their ratings per game there and the games
they finished there (newest first), with place and score.

A profile belongs to one server (its link is the person's in that server): nothing of another
server shows.  Its games carry no links, since a game's page is shared where the game is (its
channel may be private).  No Discord, no SQL.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date

import engines
from bot.ratings import shown_or_start
from bot.storage import RatingRow, Store
from bot.storage.web import WebLinks
from bot.texts import number, ordinal
from bot.web.standings import rating_text
from languages import Language
from languages.bidi import isolated

GAMES_SHOWN = 100
"""The most finished games a profile lists (the newest); past them it says how many more there are."""


@dataclass(frozen=True)
class RatingLine:
    game: str
    rating: str
    games: int
    wins: int


def months(t: Language) -> tuple[str, ...]:
    """The months' short names in ``t``, January first."""
    return (
        t.pgettext("month", "Jan"),
        t.pgettext("month", "Feb"),
        t.pgettext("month", "Mar"),
        t.pgettext("month", "Apr"),
        t.pgettext("month", "May"),
        t.pgettext("month", "Jun"),
        t.pgettext("month", "Jul"),
        t.pgettext("month", "Aug"),
        t.pgettext("month", "Sep"),
        t.pgettext("month", "Oct"),
        t.pgettext("month", "Nov"),
        t.pgettext("month", "Dec"),
    )


def day_of(stamp: str | None) -> date | None:
    """The day of a stored time (``2026-11-30T10:28:34.123+00:00``, UTC), if it is one."""
    try:
        return date.fromisoformat((stamp or "")[:10])
    except ValueError:
        return None


def day_text(day: date, t: Language) -> str:
    """A day as ``t`` writes a date: ``30 Nov 2026``, ``30 nov 2026`` (not the stored
    ``2026-11-30``, which a reader of either language may take for another order)."""
    return t.gettext("{day} {month} {year}", day=day.day, month=months(t)[day.month - 1], year=day.year)


@dataclass(frozen=True)
class GameLine:
    game: str
    number: int
    when: str  # the day it ended, as the reader's language writes it
    place: str
    score: str
    resigned: bool
    ran_out: bool = False  # their time ran out (the computer took the seat), as the game's page says
    day: str = ""  # the day it ended, as a machine reads it (``2026-11-30``)


@dataclass
class PersonPage:
    name: str
    ratings: list[RatingLine] = field(default_factory=list)
    games: list[GameLine] = field(default_factory=list)
    cut: str = ""  # past :data:`GAMES_SHOWN` games: that the list stops there, and how many more there are


def cut_note(more: int, t: Language) -> str:
    """Under a list of the latest :data:`GAMES_SHOWN` games: that only they are listed, and how
    many ``more`` (older) games are not."""
    return t.ngettext(
        "Only the latest {shown} are listed: {n} older game is not.",
        "Only the latest {shown} are listed: {n} older games are not.",
        more,
        shown=GAMES_SHOWN,
    )


class People:
    def __init__(self, store: Store, links: WebLinks):
        self.store = store
        self.links = links

    async def page(self, guild_id: int, user_id: int, t: Language) -> PersonPage | None:
        """The profile of ``user_id`` in server ``guild_id``; None when the server knows nothing
        of them (never seated there, never rated, in none of its leagues).  Someone it knows who
        finished no game there yet (signed up to a league whose first round is still to come)
        has a page too, which says so."""
        ratings = await self.store.ratings.ratings_of(guild_id, user_id)
        name = await self.name(guild_id, user_id, ratings)
        if name is None:
            return None
        page = PersonPage(isolated(name))
        for game, r in ratings.items():
            page.ratings.append(
                RatingLine(
                    engines.title(game), rating_text(shown_or_start(r.mu, r.sigma), t), r.games, r.wins
                )
            )
        finished = await self.links.finished_games(guild_id, user_id, limit=GAMES_SHOWN + 1)
        if len(finished) > GAMES_SHOWN:
            page.cut = cut_note(await self.links.finished_count(guild_id, user_id) - GAMES_SHOWN, t)
        for g in finished[:GAMES_SHOWN]:
            day = day_of(g.finished_at)
            page.games.append(
                GameLine(
                    engines.title(g.game),
                    g.session_id,
                    "" if day is None else day_text(day, t),
                    ordinal(g.place, t),
                    "" if g.score is None else number(g.score, t),
                    g.resigned,
                    g.ran_out,
                    "" if day is None else day.isoformat(),
                )
            )
        return page

    async def name(
        self, guild_id: int, user_id: int, ratings: Mapping[str, RatingRow] | None = None
    ) -> str | None:
        """The name ``user_id``'s page in server ``guild_id`` goes by: the one they last played
        under there, else the one of their ratings there (``ratings``, read here if not given),
        else the one they signed up to a league there under; None when the server knows nothing
        of them, and they have no page there."""
        name = await self.links.name_of(guild_id, user_id)
        if name is not None:
            return name
        if ratings is None:
            ratings = await self.store.ratings.ratings_of(guild_id, user_id)
        if ratings:
            return next(iter(ratings.values())).name
        return await self.league_name(guild_id, user_id)

    async def league_name(self, guild_id: int, user_id: int) -> str | None:
        """The name ``user_id`` signed up under to the newest league of server ``guild_id`` they
        are in (a league's page shows it already), else None."""
        for league in await self.store.leagues.of_server(guild_id, live=False):
            for player in await self.store.leagues.league_players(league.id):
                if player.user_id == user_id:
                    return player.name
        return None
