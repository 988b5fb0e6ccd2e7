"""Two-player Swiss byes: "nobody gets a second bye before everyone has had one" (README, Leagues).

The pairing library's answer (the Dutch system) avoids a repeated meeting before it spreads the
byes; where every player still without a bye could only sit out at the cost of a rematch, it gave
the bye to one who had had one.  Such an answer is not taken: the byes go to the fewest first.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.league.pairing import GameResult, standings, swiss_round

PLAYERS = ["p00", "p01", "p02", "p03", "p04"]
# Three rounds of a 5-player league of 4 rounds of two-player games, as the league hands them on
# (each game's players in seat order, places, the pairing's byes).
GAMES = [
    GameResult(1, {"p00": 1, "p02": 2}, ("p00", "p02")),
    GameResult(1, {"p03": 1, "p01": 2}, ("p03", "p01")),
    GameResult(2, {"p00": 1, "p04": 2}, ("p04", "p00")),
    GameResult(2, {"p02": 1, "p03": 2}, ("p02", "p03")),
    GameResult(3, {"p01": 1, "p00": 2}, ("p01", "p00")),
    GameResult(3, {"p03": 1, "p04": 2}, ("p03", "p04")),
]
BYES = [(1, "p04"), (2, "p01"), (3, "p02")]


def next_round(players, games, byes, number, total, seed):
    rows = standings(players, games, byes=byes, bye_score=1.0)
    return swiss_round(
        players,
        2,
        points={r.player: r.points for r in rows},
        history=[g.seating for g in games],
        byes_had=Counter(p for _, p in byes),
        seed=seed,
        games=games,
        byes=byes,
        round_number=number,
        total_rounds=total,
        starting_order=players,
    )


def test_the_bye_goes_to_one_without_a_bye_though_it_costs_a_rematch():
    """p00 and p03 have had no bye; the library's answer gave p04 a second one."""
    rnd = next_round(PLAYERS, GAMES, BYES, 4, 4, seed=4)
    had = Counter(p for _, p in BYES)
    assert [had[b] for b in rnd.byes] == [0], (rnd.byes, rnd.groups)


@pytest.mark.parametrize("count, rounds", [(5, 4), (5, 5), (7, 7)])
@pytest.mark.parametrize("seed", range(4))
def test_a_seasons_byes_are_spread_before_anyone_has_two(count, rounds, seed):
    rng = random.Random(seed)
    players = [f"p{i:02}" for i in range(count)]
    games: list[GameResult] = []
    byes: list[tuple[int, str]] = []
    for number in range(1, rounds + 1):
        rnd = next_round(players, games, byes, number, rounds, seed)
        had = Counter(p for _, p in byes)
        assert max((had[b] for b in rnd.byes), default=0) <= min(had[p] for g in rnd.groups for p in g)
        for group in rnd.groups:
            first, second = rng.sample(list(group), 2)
            games.append(GameResult(number, {first: 1, second: 2}, tuple(group)))
        byes += [(number, b) for b in rnd.byes]
    assert max(Counter(p for _, p in byes).values()) == 1  # no more byes than players: one each at most
