"""Golden games: recorded move lists replayed from the seed reproduce the hand-checked result.

game_3p_seed2026.json (3 players, one dish per turn), checked by hand:
P1: 4L 5O 6L 9A invalid 4; 1O..8O run of 1-8 (8 cards, valid) 9; 7A 5T 2; 1L 2T 2;
    6T 7T 1T one type 4; 3L 3L 5L 6L 8P invalid 5                      -> 26
P2: 1O 5O 2; 7L 7T 2; 3A 5A 6O 4A 2T 1P run 1-6 valid 7 (no L: no guacamole); 3O 8O 2;
    6A 8A 9A 1A one type 5; 6T 9T 9T 1P invalid 4                      -> 22
P3: 3P 5A 6A 7O 8L 4O 2A 1T run 1-8 valid 9 + guacamole (all five types) 3 = 12;
    1L 2L 3A 4A 5L 6P 7A 9O no 8, invalid, no T so no guacamole 8; 6O 7O 2O one type 4;
    4O 4T 4T 4P one number 5                                           -> 29
Ranking P3, P1, P2 with no tiebreak needed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engines.guacamole as g
from engines.guacamole.data import card_code

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_game(path):
    """Golden game: replaying the recorded moves gives the recorded, hand-checked scores."""
    data = json.loads(path.read_text())
    cfg = g.Config(**data["config"])
    state = g.new_game(cfg, cfg.players, data["seed"])
    for text in data["moves"]:
        assert not state.over
        (seat,) = g.to_move(state)
        state, _ = g.apply_move(state, seat, g.parse_move(text))
    assert state.over
    oc = g.outcome(state)
    assert list(oc.scores) == data["final_scores"]
    assert [list(r) for r in oc.ranking] == data["ranking"]
    assert oc.tiebreak == data["tiebreak"]
    dishes = [[[card_code(c) for c in d] for d in state.dishes[p]] for p in range(cfg.players)]
    assert dishes == data["final_dishes"]


def test_golden_exists():
    """At least one golden game is recorded."""
    assert GOLDEN
