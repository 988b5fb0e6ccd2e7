"""A Swiss round's pairing is a pure function of the league's history: the same players, results,
byes, forbidden pairs, ratings and seed give the same tables and seats in any process (whatever
its string hashing), whatever order the players and the games of a round are listed in.

Each season below is paired in fresh interpreters with different ``PYTHONHASHSEED`` values, as
two runs of the bot (or two test workers) would; inside one interpreter it is paired again from
the players and each round's games listed in other orders.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

# Run in a fresh interpreter: every round of a few seasons, paired from the history so far, with
# seeded random places; then each round again from the same history listed in other orders.
SCRIPT = r"""
import json, random, sys
from collections import Counter
from bot.league.pairing import GameResult, bye_points, standings, swiss_round

def season(size, count, rounds, seed):
    players = [f"{i:03d}" for i in range(7, 7 + count)]
    ratings = {p: float(1500 + 25 * (i % 3)) for i, p in enumerate(players)}  # many ties
    forbidden = [(players[0], players[1]), (players[2], players[5])]
    rng = random.Random(seed)
    games, byes, out = [], [], []
    for number in range(1, rounds + 1):
        rows = standings(players, games, byes=byes, bye_score=bye_points(size), ratings=ratings)
        points = {r.player: r.points for r in rows}

        def pair(listed, listed_games):
            rnd = swiss_round(
                listed,
                size,
                points=points,
                byes_had=Counter(p for _, p in byes),
                ratings=ratings,
                seed=seed * 1000 + number,
                games=listed_games,
                byes=byes,
                forbidden=forbidden,
                round_number=number,
                total_rounds=rounds,
            )
            return [list(g) for g in rnd.groups], list(rnd.byes)

        first = pair(players, games)
        shuffler = random.Random(number)
        listed = players[::-1]
        shuffler.shuffle(listed)
        reordered = sorted(games, key=lambda g: (g.round, shuffler.random()))
        assert pair(listed, reordered) == first, (size, number)
        out.append(first)
        groups, sitting = first
        for group in groups:
            places = list(range(1, len(group) + 1))
            rng.shuffle(places)
            games.append(GameResult(number, dict(zip(group, places)), tuple(group)))
        byes += [(number, p) for p in sitting]
    return out

print(json.dumps([season(size, count, 5, seed) for size, count, seed in json.loads(sys.argv[1])]))
"""

CASES = [(2, 11, 3), (3, 10, 4), (3, 13, 5), (4, 14, 6), (5, 12, 7), (6, 15, 8)]


def paired_in_a_fresh_interpreter(hashseed: str) -> list:
    env = {**os.environ, "PYTHONHASHSEED": hashseed}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(CASES)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


@pytest.mark.parametrize("hashseeds", [("0", "1", "4242")])
def test_the_same_history_pairs_the_same_in_every_process(hashseeds):
    first, *others = [paired_in_a_fresh_interpreter(h) for h in hashseeds]
    assert len(first) == len(CASES) and all(len(season) == 5 for season in first)
    for seen in others:
        assert seen == first
