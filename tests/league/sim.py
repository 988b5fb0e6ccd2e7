"""A simulated Swiss season with seeded random results (shared by the tests and bench/league.py),
and the fields and groupings the pairing tests build from."""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from dataclasses import dataclass, field

from bot.league.pairing import GameResult, Round, bye_points, standings, swiss_round


def names(n: int) -> list[str]:
    """A field of ``n`` players: ``p00``, ``p01``, ..."""
    return [f"p{i:02d}" for i in range(n)]


def partitions(players: list[str], size: int):
    """Every way to cut ``players`` into groups of ``size`` (brute force, small fields only)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for others in itertools.combinations(rest, size - 1):
        left = [p for p in rest if p not in others]
        for tail in partitions(left, size):
            yield [(first, *others), *tail]


@dataclass
class Season:
    players: list[str]
    size: int
    results: list[GameResult] = field(default_factory=list)
    byes: list[tuple[int, str]] = field(default_factory=list)
    history: list[tuple[str, ...]] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)
    pairing_seconds: list[float] = field(default_factory=list)

    def table(self, through_round: int | None = None):
        return standings(
            self.players,
            self.results,
            byes=self.byes,
            bye_score=bye_points(self.size),
            through_round=through_round,
        )


def simulate(players: list[str], size: int, rounds: int, seed: int) -> Season:
    """Pair ``rounds`` Swiss rounds, each from the standings so far, with random places."""
    rng = random.Random(seed)
    season = Season(list(players), size)
    for r in range(1, rounds + 1):
        rows = season.table()
        started = time.perf_counter()
        rnd = swiss_round(
            players,
            size,
            points={x.player: x.points for x in rows},
            history=season.history,
            byes_had=Counter(p for _, p in season.byes),
            seed=seed + r,
        )
        season.pairing_seconds.append(time.perf_counter() - started)
        season.rounds.append(rnd)
        for g in rnd.groups:
            order = list(g)
            rng.shuffle(order)
            season.results.append(GameResult(r, {p: i + 1 for i, p in enumerate(order)}))
        season.byes += [(r, b) for b in rnd.byes]
        season.history += rnd.groups
    return season
