"""The engine contract on seeded random games: legal_moves equals what apply_move accepts among
every placement, purchase, return, order, stopper and word the notation can write (claims: every
listed claim is accepted; the shapes are too many to write out), the saved state comes back field
by field at every step, the seed plus the log replay the game, and each move's first event
names it and the mover."""

from __future__ import annotations

import random

import pytest

from engines import guanga as G
from engines.core import config_from_options
from engines.guanga.rules import CELL_NAMES, Claim
from tests.support.contract import assert_events_tell, assert_replays, check_steps, playout

CELLS = list(CELL_NAMES)
WRITTEN = (
    ["done", "refresh"]
    + [f"keep O{k}" for k in range(1, 11)]
    + [f"{verb}{slot}{c}" for verb in "PS" for slot in range(1, 9) for c in CELLS]
    + [f"T{p}{c}" for p in range(1, 5) for c in CELLS]
    + [f"R {a}{b}" for i, a in enumerate(CELLS) for b in CELLS[i + 1 :]]
)
KINDS = {
    "Place": {"place"},
    "Buy": {"buy"},
    "Claim": {"claim"},
    "Return": {"return"},
    "Keep": {"order"},
    "Refresh": {"refresh"},
    "Done": {"done"},
    "Stopper": {"stopper"},
}


def candidates(state, seat):
    return WRITTEN + [str(m) for m in G.legal_moves(state, seat) if isinstance(m, Claim)]


@pytest.mark.parametrize(
    "players,mode,options",
    [(2, "beginner", {"stoppers": True}), (3, "apprentice", {}), (2, "master", {}), (1, "artisan", {})],
)
def test_contract_on_random_games(players, mode, options):
    config = config_from_options(G.Config, players, {"mode": mode, **options})
    steps = playout(G, config, players, 7, random.Random(7), max_moves=400)
    check_steps(G, steps, range(players), candidates, key=lambda s: s.phase, first=3, every=15)
    assert_replays(G, config, players, 7, steps)
    assert_events_tell(steps, KINDS)
