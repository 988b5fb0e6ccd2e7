"""The facts Guanga's answers carry (which slots, which reason, whose turn, how many patches) and
the bookkeeping behind them (turn count, the tile in a save, the view's cost and highlight,
undo by consent, scores now).  The wording stays free: the tests read numbers, notation and
kinds."""

from __future__ import annotations

import re

import pytest

from engines import guanga as G
from engines.core import IllegalMove, MalformedMove, NotYourTurn
from engines.guanga import data as D
from engines.guanga.rules import Claim, breakdown, buy_cost, claim_options, joined_to_centre, legal_moves
from engines.guanga.shapes import mask_of

from .util import (
    BLU_AM,
    BLU_IN,
    GRN_KU,
    GRN_RO,
    RED_CH,
    RED_IN,
    YEL_AM,
    YEL_KU,
    apprentice_claim_of_a01,
    cell,
    clear,
    fill,
    game,
    play,
    set_basket,
    set_market,
)


def _refusal(s, seat, text, error=IllegalMove) -> str:
    with pytest.raises(error) as info:
        G.apply_move(s, seat, G.parse_move(text))
    return str(info.value)


def _numbers(text: str) -> list[int]:
    return [int(x) for x in re.findall(r"\d+", text)]


def _play_turn(s):
    """The seat to move takes its first two listed placements and ends the turn if it must."""
    seat = s.turn
    turns = s.turns
    while s.turns == turns and not s.finished:
        moves = legal_moves(s, seat)
        place = [m for m in moves if type(m).__name__ == "Place"]
        s, _ = G.apply_move(s, seat, place[0] if place else G.parse_move("done"))
    return s


@pytest.mark.parametrize("mode,move", [("beginner", "P1A1"), ("apprentice", "S1A1")])
def test_an_empty_slot_refusal_lists_the_filled_slots(mode, move):
    """Taking or buying from an empty slot: the refusal names that slot and the filled ones."""
    s = game(2, mode)
    set_basket(s, [None, None, RED_IN, BLU_IN, GRN_RO, YEL_KU, BLU_AM, GRN_KU])
    msg = _refusal(s, 0, move)
    assert _numbers(msg)[0] == 1
    assert sorted(set(_numbers(msg)[1:])) == [3, 4, 5, 6, 7, 8]


def test_a_bought_patch_on_a_stopper_is_refused_for_the_stopper():
    """Buying onto a cell with a stopper: the reason is the stopper, not the centre."""
    s = game(2, "apprentice", stoppers=True)
    s, _ = play(s, 0, "T1B2")
    assert s.phase == "place1"
    msg = _refusal(s, 0, "S1B2")
    assert "stopper" in msg and "centre" not in msg
    assert "B2" not in msg.split(":")[-1]  # B2 is not among the cells offered


def test_a_stopper_that_ends_the_last_turn_ends_the_game():
    """The last seat's last stopper, with nothing left to do, ends its turn and the game."""
    s = game(2, "beginner", stoppers=True)
    s, _ = play(s, 0, "P1A1", "P2E1", "done")
    s, _ = play(s, 1, "P1A1", "P2E1")
    assert s.turn == 1 and s.phase == "claim" and claim_options(s, 1) == []
    s.end_triggered = True
    s, _ = play(s, 1, "T1A5")
    assert not s.finished  # a stopper is still there to place
    s, ev = play(s, 1, "T1B5")
    assert s.finished and [e.kind for e in ev][-1] == "end"
    assert G.outcome(s) is not None


def test_the_turn_counter_counts_every_turn():
    """Bookkeeping: turns played and the turn number go up by one a turn."""
    s = game(2)
    assert s.turns == 0 and G.turn_number(s) == 1
    for played in (1, 2, 3):
        s = _play_turn(s)
        assert s.turns == played and G.turn_number(s) == played + 1
    assert s.turn == 1


def test_every_phase_is_described_in_words():
    """A refusal names the phase in words, not by its internal key."""
    from engines.guanga.rules import _phase_words

    phases = ("order", "place1", "place2", "claim", "return", "extra", "after")
    words = [str(_phase_words(p)) for p in phases]
    assert all(w != p for w, p in zip(words, phases, strict=True))
    assert len(set(words)) == len(phases)


def test_out_of_turn_says_whose_turn_it_is_and_orders_say_wait():
    """Out of turn: while orders are kept, wait for the others; in play, whose turn it is."""
    s = game(2, "apprentice", keep=False)
    s, _ = G.apply_move(s, 0, G.parse_move(f"keep {s.orders_dealt[0][0]}"))
    waiting = _refusal(s, 0, f"keep {s.orders_dealt[0][0]}", NotYourTurn)
    assert _numbers(waiting) == []  # no player is to blame; the others are choosing
    s, _ = G.apply_move(s, 1, G.parse_move(f"keep {s.orders_dealt[1][0]}"))
    assert s.phase == "place1" and s.turn == 0
    assert "it is {p0}'s turn" in _refusal(s, 1, "refresh", NotYourTurn)  # the table names {p0}
    s = _play_turn(s)
    assert s.turn == 1
    assert "it is {p1}'s turn" in _refusal(s, 0, "refresh", NotYourTurn)


@pytest.mark.parametrize("mode,cost", [("beginner", 0), ("apprentice", 1), ("master", 3), ("artisan", 3)])
def test_the_view_shows_what_a_bought_patch_costs(mode, cost):
    """The view's buy cost: none in beginner mode, 1 shell in apprentice, 3 in master and artisan."""
    s = game(2, mode)
    assert buy_cost(s.config) == cost
    assert G.view_for(s, 0).buy_cost == cost and G.view_for(s, None).buy_cost == cost


def test_the_view_highlights_the_cells_of_the_last_turn():
    """The view marks, as (seat, cell), every cell the moves of the turn touched, and keeps the
    last turn's marks (the board posted when a turn ends) until the next turn's first move."""
    s = game(2, "beginner", stoppers=True)
    s, _ = play(s, 0, "P1A1")
    assert G.view_for(s, None).highlight == ((0, cell("A1")),)
    s, _ = play(s, 0, "P2B1")
    assert G.view_for(s, 1).highlight == ((0, cell("A1")), (0, cell("B1")))
    s, _ = play(s, 0, "T2D4", "done")
    assert s.turn == 1 and s.phase == "place1"
    turn = ((0, cell("A1")), (0, cell("B1")), (1, cell("D4")))
    assert G.view_for(s, 0).highlight == turn and G.view_for(s, None).lit_slot is None
    back = G.from_dict(G.to_dict(s))
    assert back == s and G.view_for(back, None).highlight == turn
    s, _ = play(s, 1, "P3E5")
    assert G.view_for(s, None).highlight == ((1, cell("E5")),)


def test_the_view_lights_the_market_slot_of_the_last_turns_claim():
    """After a turn with a claim, the board marks the placed, claimed and returned cells and the
    market slot the claimed card left (its replacement is there now), until the next turn's
    first move."""
    s, slot = apprentice_claim_of_a01()
    s, _ = play(s, 0, "P1A3", "P2B3", "C A01 red A1A2A3")
    assert G.view_for(s, None).lit_slot == slot and s.market[slot] != "A01"
    s, _ = play(s, 0, "R A1A2", "done")
    view = G.view_for(s, 1)
    assert s.turn == 1 and view.lit_slot == slot
    assert set(view.highlight) == {(0, cell(c)) for c in ("A1", "A2", "A3", "B3")}
    s, _ = play(s, 1, str(G.legal_moves(s, 1)[0]))
    assert G.view_for(s, None).lit_slot is None


def test_a_save_from_before_the_turn_marks_loads():
    """Persistence: a saved state without the turn's market slot and marks loads, with none lit."""
    s = game(2)
    d = G.to_dict(s)
    del d["lit_slot"], d["fresh_turn"]
    back = G.from_dict(d)
    assert back.lit_slot is None and G.view_for(back, None).lit_slot is None


def test_the_complete_guanga_tile_survives_a_save():
    """Persistence: who took the complete-guanga tile is kept by to_dict/from_dict."""
    s = game(2)
    set_market(s, [])
    clear(s, 0)
    fill(s, 0, skip=("E4", "E5"))
    set_basket(s, [BLU_IN, GRN_RO, YEL_KU, RED_CH, BLU_AM, GRN_KU, RED_CH, YEL_AM])
    s, _ = play(s, 0, "P1E4", "P2E5")
    assert s.tile == 0
    back = G.from_dict(G.to_dict(s))
    assert back.tile == 0 and back == s
    assert breakdown(back, 0)["tile"] == D.COMPLETE_TILE_VP


def test_claims_accept_color_and_symbol_spelled_out():
    """Notation: "color"/"colour"/"col" name the card's colour, "symbol"/"sym" its symbol."""
    cells = (cell("A1"), cell("B2"), cell("C3"))
    for word in ("col", "colour", "color", "COLOR"):
        assert G.parse_move(f"C A03 {word} A1B2C3") == Claim("A03", "yellow", cells)
    for word in ("sym", "symbol", "Symbol"):
        assert G.parse_move(f"C A03 {word} A1B2C3") == Claim("A03", "amaru", cells)


def test_two_placements_in_one_move_are_split_in_the_answer():
    """Two patches written in one move: the answer shows each as its own move, in order."""
    with pytest.raises(MalformedMove) as info:
        G.parse_move("P3B2 P4C2")
    msg = str(info.value)
    assert "P3B2" in msg and "P4C2" in msg and msg.index("P3B2") < msg.index("P4C2")


def test_scores_now_counts_cards_penalties_and_the_tile():
    """Scores now: each seat's total as if the game ended now."""
    s = game(2)
    pen = D.EMPTY_CELL_PENALTY
    assert G.scores_now(s) == (-24.0 * pen, -24.0 * pen)  # only the mother patch is down
    s.claimed[1].append("A03")
    s.tile = 1
    assert G.scores_now(s) == (-24.0 * pen, -24.0 * pen + 6 + D.COMPLETE_TILE_VP)


def test_joined_to_centre_needs_the_centre():
    """Only cells joined to C3 through occupied cells count, and none when C3 is empty."""
    assert joined_to_centre(0) == 0
    assert joined_to_centre(mask_of([cell("A1"), cell("A2")])) == 0
    joined = mask_of([cell("C3"), cell("C4"), cell("C5")])
    assert joined_to_centre(joined | mask_of([cell("A1")])) == joined


def test_undo_by_consent_follows_what_a_move_draws():
    """Undoable: a kept order and a stopper; not a take, nor a done that refills the basket."""
    s = game(2, "apprentice", stoppers=True, keep=False)
    assert G.undoable(s, 0, f"keep {s.orders_dealt[0][0]}") is True
    s = game(2, "apprentice", stoppers=True)
    assert G.undoable(s, 0, G.parse_move("T2C4")) is True
    assert G.undoable(s, 0, "P1A1") is False
    s, _ = play(s, 0, "T2C4")
    place = [m for m in legal_moves(s, 0) if type(m).__name__ == "Place"]
    s, _ = G.apply_move(s, 0, place[0])
    place = [m for m in legal_moves(s, 0) if type(m).__name__ == "Place"]
    s, _ = G.apply_move(s, 0, place[0])
    assert s.phase in ("claim", "after") and s.turn == 0
    after, _ = G.apply_move(s, 0, G.parse_move("done"))
    assert after.pile != s.pile and after.recycles == s.recycles and not after.finished
    assert G.undoable(s, 0, "done") is False  # the basket is refilled from the pile
