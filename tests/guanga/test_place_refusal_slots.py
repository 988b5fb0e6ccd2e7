"""A second patch refused for sharing a colour or symbol with the first names the basket slots
that may be taken instead, not the cells of a slot that may go nowhere ("may go on: none")."""

from __future__ import annotations

import random

import pytest

import engines
from engines.core import IllegalMove, config_from_options
from engines.guanga import rules as R
from tests.support.sentences import check_refusal

from .util import BLU_AM, BLU_IN, GRN_KU, GRN_RO, RED_CH, RED_IN, YEL_AM, game, kind, play, set_basket

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


def refusal(state, seat: int, text: str) -> str:
    with pytest.raises(IllegalMove) as refused:
        G.apply_move(state, seat, G.parse_move(text))
    check_refusal(refused.value)
    return refused.value.said.in_words()


def test_an_artisan_slot_without_a_partner_is_refused_for_that_not_for_its_cell():
    """Artisan: slot 2 (red inti) has no partner differing in colour and symbol; C4 touches C3,
    so the refusal names the slot, not the connection to the centre."""
    s = game(2, "artisan")
    set_basket(
        s, [RED_CH, RED_IN, BLU_IN, kind("red", "amaru"), kind("red", "kuntur"), RED_IN, RED_IN, RED_CH]
    )
    assert refusal(s, 0, "P2C4") == (
        "slot 2 leaves no legal second patch (it must differ in colour and symbol); "
        "the slots you may take now: 1, 3, 4, 5, 8"
    )
    assert refusal(s, 0, "P1A1").startswith("A1 would not stay orthogonally connected to the centre C3")


def test_a_first_patch_walled_in_by_stoppers_is_refused_for_its_cell():
    """Apprentice with stoppers: A2 and B1 are stoppered, so A1 has no free neighbour for the
    second patch; the slot itself may be taken elsewhere."""
    s = game(2, "apprentice", stoppers=True)
    set_basket(s, [RED_CH, BLU_IN, GRN_RO, RED_IN, BLU_AM, GRN_KU, RED_CH, YEL_AM])
    s, _ = play(s, 0, "T1A2", "T1B1")
    text = refusal(s, 0, "P1A1")
    assert text.startswith(
        "A1 has no free neighbour, and the second patch must go orthogonally next to the first; "
        "slot 1 may go on: A3, A4"
    )
    assert "leaves no legal second patch" not in text
