"""Ratings for leagues: OpenSkill (Plackett-Luce) over the places of a finished game.

Only people are rated, and only in games with at least two of them; computer
players and abandoned games leave ratings alone.  The shown rating is the
conservative estimate mu - 3 sigma: new players start at 0, a win raises it, a
loss can take it below 0, and as the system grows sure of a player it settles
near their skill (what the table says of it: ``bot.texts.RATING_MEANING``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from openskill.models import PlackettLuce

if TYPE_CHECKING:
    from bot.storage.base import RatingRow

MODEL = PlackettLuce()
START_MU = MODEL.mu
START_SIGMA = MODEL.sigma


@dataclass(frozen=True)
class Standing:
    user_id: int
    name: str
    place: int
    mu: float = START_MU
    sigma: float = START_SIGMA


@dataclass(frozen=True)
class NewRating:
    user_id: int
    name: str
    mu: float
    sigma: float
    won: bool


@dataclass(frozen=True)
class RatingChange:
    """A person's shown rating before and after a finished game."""

    user_id: int
    name: str
    before: float
    after: float


def shown(mu: float, sigma: float) -> float:
    """The rating players see: mu - 3 sigma, one decimal."""
    return round(mu - 3 * sigma, 1)


def shown_or_start(mu: float | None, sigma: float | None) -> float:
    """The shown rating of a row that may not be rated yet (then the rating everyone starts with)."""
    return shown(START_MU if mu is None else mu, START_SIGMA if sigma is None else sigma)


def rate(standings: Sequence[Standing]) -> list[NewRating]:
    """New ratings after a game; ``place`` 1 is best, equal places are ties."""
    if len(standings) < 2:
        return []
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma, name=str(s.user_id))] for s in standings]
    updated = MODEL.rate(teams, ranks=[s.place for s in standings])
    best = min(s.place for s in standings)
    return [
        NewRating(s.user_id, s.name, team[0].mu, team[0].sigma, s.place == best)
        for s, team in zip(standings, updated, strict=True)
    ]


def _place_of(row: RatingRow) -> int:
    if row.place is None:
        raise ValueError(f"the rating of user {row.user_id} is to change without a place in the game")
    return row.place


def rerate(current: list[RatingRow]) -> list[RatingRow]:
    """New rating rows for the people of a finished game, from their rows and places (none with
    fewer than two people): a row not rated yet starts from the start rating.  (Each person's shown
    rating before and after is what the store keeps with the game's results, read back by
    :meth:`bot.sessions.play.Play.rating_changes`.)"""
    if len(current) < 2:
        return []
    standings = [
        Standing(
            r.user_id,
            r.name,
            _place_of(r),
            START_MU if r.mu is None else r.mu,
            START_SIGMA if r.sigma is None else r.sigma,
        )
        for r in current
    ]
    rated = rate(standings)
    return [
        replace(c, mu=n.mu, sigma=n.sigma, games=c.games + 1, wins=c.wins + int(n.won), place=None)
        for n, c in zip(rated, current, strict=True)
    ]
