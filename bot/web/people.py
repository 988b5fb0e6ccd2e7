"""A person's public profile in one server, as data: their ratings per game there and the games
they finished there (newest first), with place and score.

A profile belongs to one server (its link is the person's in that server): nothing of another
server shows.  Its games carry no links, since a game's page is shared where the game is (its
channel may be private).  No Discord, no SQL.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import engines
from bot.ratings import shown_or_start
from bot.storage import Store
from bot.storage.web import WebLinks
from bot.texts import number, ordinal
from languages import Language


@dataclass(frozen=True)
class RatingLine:
    game: str
    rating: str
    games: int
    wins: int


@dataclass(frozen=True)
class GameLine:
    game: str
    number: int
    when: str
    place: str
    score: str
    resigned: bool
    ran_out: bool = False  # their time ran out (the computer took the seat), as the game's page says


@dataclass
class PersonPage:
    name: str
    ratings: list[RatingLine] = field(default_factory=list)
    games: list[GameLine] = field(default_factory=list)


class People:
    def __init__(self, store: Store, links: WebLinks):
        self.store = store
        self.links = links

    async def page(self, guild_id: int, user_id: int, t: Language) -> PersonPage | None:
        name = await self.links.name_of(guild_id, user_id)
        ratings = await self.store.ratings.ratings_of(guild_id, user_id)
        if name is None and not ratings:
            return None
        if name is None:
            name = next(iter(ratings.values())).name
        page = PersonPage(name)
        for game, r in ratings.items():
            page.ratings.append(
                RatingLine(engines.title(game), number(shown_or_start(r.mu, r.sigma), t), r.games, r.wins)
            )
        for g in await self.links.finished_games(guild_id, user_id):
            page.games.append(
                GameLine(
                    engines.title(g.game),
                    g.session_id,
                    (g.finished_at or "")[:10],
                    ordinal(g.place, t),
                    "" if g.score is None else number(g.score, t),
                    g.resigned,
                    g.ran_out,
                )
            )
        return page
