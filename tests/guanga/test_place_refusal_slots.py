"""A second patch refused for sharing a colour or symbol with the first names the basket slots
that may be taken instead, not the cells of a slot that may go nowhere ("may go on: none")."""

from __future__ import annotations

import random

import pytest

import engines
from engines.core import IllegalMove, config_from_options
from engines.guanga import rules as R

G = engines.get("guanga").load()


def at_second_patch(mode: str, seed: int):
    """A game of three in ``mode`` at a turn's second patch, with a basket slot it may not take."""
    state = G.new_game(config_from_options(G.Config, 3, {"mode": mode}), 3, seed)
    rng = random.Random(seed)
    while G.outcome(state) is None:
        seat = min(G.to_move(state))
        if state.phase == "place2":
            ok, _ = R.place_parts(state, seat)
            barred = [i for i, k in enumerate(state.basket) if k is not None and i not in ok]
            if ok and barred:
                return state, seat, ok, barred[0]
        legal = list(G.legal_moves(state, seat))
        state, _ = G.apply_move(state, seat, G.computer_move(G.view_for(state, seat), legal, rng))
    raise AssertionError("no second patch with a barred slot")


@pytest.mark.parametrize(("mode", "seed"), [("apprentice", 1), ("artisan", 1), ("master", 3)])
def test_a_barred_second_patch_names_the_slots_that_may_be_taken(mode, seed):
    state, seat, ok, barred = at_second_patch(mode, seed)
    before = G.to_dict(state)
    cell = R.CELL_NAMES[R.place_parts(state, seat)[1][0]]  # a cell the second patch may go on
    with pytest.raises(IllegalMove) as refused:
        G.apply_move(state, seat, G.parse_move(f"P{barred + 1}{cell}"))
    text = str(refused.value)
    assert "must differ in both" in text
    assert text.endswith("the slots you may take now: " + ", ".join(str(i + 1) for i in sorted(ok)))
    assert "none" not in text
    assert G.to_dict(state) == before
