"""The engine contract on seeded random games: legal_moves equals what apply_move accepts among
every rotation (with or without a payment), llama move, sale, purchase and end the notation can
write, the saved state comes back field by field at every step, the seed plus the log replay
the game, and each move's first event names it and the mover."""

from __future__ import annotations

import random

import pytest

import engines.pachakuna as P
from engines.pachakuna import data as D
from tests.support.contract import assert_events_tell, assert_replays, check_steps, playout

PAYS = ["", "/w", "/y", "/r", "/b", "/wr", "/yb", "/wrb"]
KINDS = {"Rotate": {"rotate"}, "MoveLlama": {"move"}, "Sell": {"sell"}, "Buy": {"buy"}, "End": {"end_turn"}}


def candidates(state, seat):
    out = ["end"]
    for c in D.CELLS:
        out += [f"r{c}+{k}" for k in range(6)]
        out += [f"m{i}-{c}" for i in (1, 2, 3)]
    for i in (1, 2, 3):
        out += [f"s{i}"] + [f"b{i}{p}" for p in PAYS]
    out += [f"r{c}+2{p}" for c in (12, 36, 94) for p in PAYS]
    return out


@pytest.mark.parametrize("board,seed", [("A", 3), ("random", 8)])
def test_contract_on_random_games(board, seed):
    config = P.Config(board=P.Board(board))
    steps = playout(P, config, 2, seed, random.Random(seed), max_moves=300)
    check_steps(P, steps, range(2), candidates, key=lambda s: s.phase, first=3, every=20)
    assert_replays(P, config, 2, seed, steps)
    assert_events_tell(steps, KINDS)
