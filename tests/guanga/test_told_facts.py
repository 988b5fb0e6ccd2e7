"""The values Guanga's kept sentences carry (which card, which cells, what the market shows, the
notation, a save's schema, an order's points) and the rules behind a few of them (a stopper in a
claimed shape, where a first patch may go under the connected rule, the final scores and solo
rank in the view).  The tests read the sentences' values and the English line's facts."""

from __future__ import annotations

import pytest

from engines import guanga as G
from engines.core import IllegalMove, MalformedMove, Said, SetupError
from engines.guanga import data as D
from engines.guanga.rules import NOTATION, Claim, breakdown, order_said, place_parts, solo_rank

from .util import (
    BLU_AM,
    BLU_IN,
    GRN_KU,
    GRN_RO,
    RED_CH,
    RED_IN,
    YEL_AM,
    YEL_KU,
    cell,
    clear,
    game,
    kind,
    play,
    put,
    set_basket,
    set_market,
)


def _claim_ready():
    """Seat 0 has placed yellow on B2 and may claim A03 (yellow amaru diagonal A1-B2-C3)."""
    s = game(2)
    set_market(s, ["A03", "A01", "A02", "G01", "G02", "G03", "M01", "M02", "M03"][: len(s.market)])
    clear(s, 0)
    put(s, 0, {"C3": [RED_CH, YEL_KU], "A1": YEL_AM})
    set_basket(s, [YEL_KU, BLU_IN, GRN_RO, RED_IN, BLU_AM, GRN_KU, RED_CH, YEL_AM])
    s, _ = play(s, 0, "P1B2", "P2E5")
    assert s.phase == "claim"
    return s


def _refused(s, seat, text, error=IllegalMove):
    with pytest.raises(error) as info:
        G.apply_move(s, seat, G.parse_move(text))
    return info.value


def test_a_claimed_shape_may_not_hold_a_stopper():
    """A stopper on a cell of the shape forbids the claim, even when its top patch shows the
    colour; the refusal names that cell."""
    s = _claim_ready()
    assert Claim("A03", "yellow", (cell("A1"), cell("B2"), cell("C3"))) in G.legal_moves(s, 0)
    s.stoppers[0].append(cell("B2"))
    exc = _refused(s, 0, "C A03 yellow A1B2C3")
    assert exc.said.args == {"n": 1, "cells": "B2"}
    assert "B2" in str(exc) and "stopper" in str(exc)


def test_a_card_not_in_the_market_is_named_with_the_market():
    s = _claim_ready()
    exc = _refused(s, 0, "C A05 red A1 A2 B1 B2")
    assert exc.said.args["card"] == "A05"
    shown = exc.said.args["shown"]
    assert isinstance(shown, str) and shown.split(", ") == [c for c in s.market if c]
    assert "A03" in str(exc)


def test_keeping_an_order_after_the_start_says_why():
    s = game(2, "apprentice")
    assert s.phase != "order"
    exc = _refused(s, 0, f"keep {s.orders_dealt[0][1]}")
    what = exc.said.args["what"]
    assert isinstance(what, Said) and "order" in what.msg
    assert str(exc).startswith(what.in_words())


def test_the_cut_off_event_names_the_cells_sent_to_the_bag():
    """Artisan: emptying C2 and C4 cuts B2, C5 and D5 off from the centre; the event lists them."""
    s = game(2, "artisan")
    set_market(s, ["A01", "A02", "A03", "A04", "G01", "G02", "G03", "M01", "M02", "B01", "B02"])
    clear(s, 0)
    put(s, 0, {"C3": RED_CH, "C4": RED_IN, "C5": [BLU_AM, BLU_IN], "D5": GRN_KU})
    set_basket(s, [RED_CH, BLU_IN, GRN_RO, RED_IN, BLU_AM, GRN_KU, kind("green", "chakana"), YEL_AM])
    s, _ = play(s, 0, "P1C2", "P3B2", "C A01 red C2C3C4")
    s, ev = play(s, 0, "R C2C4")
    cut = [e for e in ev if e.kind == "cutoff"]
    assert len(cut) == 1 and cut[0].said is not None
    assert cut[0].said.args["cells"] == "B2, C5, D5" and cut[0].said.args["n"] == 4
    assert "B2, C5, D5" in cut[0].text


def test_something_that_is_not_a_move_is_answered_with_the_notation():
    s = game(2)
    with pytest.raises(MalformedMove) as info:
        G.apply_move(s, 0, 42)  # type: ignore[arg-type]
    assert info.value.said.args == {"text": '"42"', "notation": NOTATION}
    assert NOTATION.in_words() in str(info.value)


def test_an_unknown_save_schema_is_named():
    d = G.to_dict(game(2))
    d["schema"] = 99
    with pytest.raises(SetupError) as info:
        G.from_dict(d)
    assert info.value.said.args == {"schema": "99"}
    assert "99" in str(info.value)


def test_without_the_stoppers_variant_nobody_has_a_stopper():
    s = game(3, stoppers=False)
    assert s.stoppers_left == [0, 0, 0]
    assert G.from_dict(G.to_dict(s)).stoppers_left == [0, 0, 0]
    with_stoppers = game(3, stoppers=True)
    assert with_stoppers.stoppers_left == [D.STOPPERS_PER_PLAYER] * 3


@pytest.mark.parametrize("order", [o[0] for o in D.ORDERS])
def test_an_order_is_told_with_its_flag_and_points(order):
    """An order's words carry its flag and its typology, each with its points."""
    _, flag, flag_vp, typology, typology_vp = next(o for o in D.ORDERS if o[0] == order)
    told = order_said(order)
    assert told.args["order"] == order
    assert told.args["flag_vp"] == flag_vp and told.args["typology_vp"] == typology_vp
    assert str(told.args["flag"].in_words()) == flag and str(told.args["typology"].in_words()) == typology
    assert told.in_words() == f"{order} ({flag} {flag_vp} VP / {typology} {typology_vp} VP)"


def test_a_claim_may_write_a_space_inside_the_card():
    cells = (cell("A1"), cell("B2"), cell("C3"))
    assert G.parse_move("C A 3 yellow A1B2C3") == Claim("A03", "yellow", cells)
    assert G.parse_move("C G 10 red A1B2C3") == Claim("G10", "red", cells)


def test_a_first_patch_needs_a_free_neighbour_for_the_second():
    """Artisan (paired and connected): the first patch of a turn goes only where a cell next to
    it is left free for the second.  A1 touches the weave (B1), but both its neighbours carry a
    stopper, so it is not offered; A3, next to the weave with free neighbours, is."""
    s = game(2, "artisan")
    clear(s, 0)
    put(s, 0, {"C3": RED_CH, "C2": BLU_IN, "B2": GRN_RO, "B1": YEL_AM})
    s.stoppers[0] += [cell("A2"), cell("B1")]
    assert s.phase == "place1"
    slots, cells = place_parts(s, 0)
    assert slots and cell("A3") in cells and cell("C2") in cells
    assert cell("A1") not in cells and cell("A2") not in cells and cell("B1") not in cells
    exc = _refused(s, 0, "P1A1")
    assert "A1" in str(exc)


def test_the_view_of_a_finished_game_shows_the_final_scores():
    s = game(2)
    s.finished, s.phase = True, "over"
    out = G.outcome(s)
    assert out is not None
    pen = D.EMPTY_CELL_PENALTY
    assert G.view_for(s, 0).final_scores == (-24 * pen, -24 * pen) == tuple(int(x) for x in out.scores)
    assert G.view_for(game(2), 0).final_scores is None


def test_the_view_of_a_finished_solo_game_shows_its_rank():
    s = game(1)
    s.finished, s.phase = True, "over"
    points = breakdown(s, 0)["total"]
    assert G.view_for(s, 0).solo_rank == solo_rank(points) == G.outcome(s).details["rank"]
    assert G.view_for(game(1), 0).solo_rank is None
    assert G.view_for(s, 0).final_scores == (points,)
