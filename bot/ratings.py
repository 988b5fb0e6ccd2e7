"""Ratings for leagues: OpenSkill (Plackett-Luce) over the places of a finished game.

Only people are rated, and only in games with at least two of them; computer
players and abandoned games leave ratings alone.  The shown rating is the
conservative estimate mu - 3 sigma: new players start at 0, a win raises it, a
loss can take it below 0, and as the system grows sure of a player it settles
near their skill (what the table says of it: ``bot.texts.RATING_MEANING``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

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
