"""Scenario tests: one per rule or ruling of Guanga."""

from __future__ import annotations

import json
import re

import pytest

from bot.sessions.model import named, refusal
from engines import guanga as G
from engines.core import UNKNOWN, GameOver, IllegalMove, MalformedMove, NotYourTurn, SetupError, jsonable
from engines.guanga import data as D
from engines.guanga.rules import (
    Claim,
    Done,
    Keep,
    Mode,
    Place,
    Return,
    Stopper,
    claim_options,
    empty_cells,
    legal_moves,
    patch_counts,
)
from languages import ENGLISH, language
from tests.support.sentences import check_refusal

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
    conserved,
    fill,
    game,
    kind,
    play,
    put,
    set_basket,
    set_market,
)


def _apply(s, seat, text):
    return G.apply_move(s, seat, G.parse_move(text))


# --------------------------------------------------------------------------- setup


@pytest.mark.parametrize("players,total,grey", [(4, 20, 2), (3, 19, 1), (2, 18, 0), (1, 9, 0)])
def test_workshop_markers_by_player_count(players, total, grey):
    """Workshop: 2 per colour/symbol plus grey markers by player count; solo uses 9 markers."""
    s = game(players)
    assert sum(s.markers.values()) == total
    assert s.markers["grey"] == grey


def test_setup_basket_mother_patches_and_patch_count():
    """Setup: basket of 8 face up, each mother patch of the player's colour on C3, 120 patches."""
    s = game(4)
    assert all(k is not None for k in s.basket) and len(s.basket) == 8
    for seat in range(4):
        stack = s.guangas[seat][cell("C3")]
        assert len(stack) == 1 and stack[0] // 5 == seat
        assert sum(len(st) for st in s.guangas[seat]) == 1
    assert sum(patch_counts(s)) == 120 and conserved(s)


def test_mother_patch_taken_from_pile_when_basket_lacks_colour():
    """Setup: with no patch of the player's colour in the basket, it is found in the pile."""
    from engines.guanga.rules import _take_mother

    s = game(2)
    clear(s, 1)
    set_basket(s, [RED_CH, RED_IN, GRN_RO, GRN_KU, YEL_AM, YEL_KU, RED_CH, GRN_RO])
    basket = list(s.basket)
    top_blue = max(i for i, k in enumerate(s.pile) if k // 5 == 1)
    expect = s.pile[top_blue]
    _take_mother(s, 1)
    assert s.guangas[1][cell("C3")] == [expect] and s.basket == basket and conserved(s)
    set_basket(s, [RED_CH, BLU_AM, GRN_RO, GRN_KU, YEL_AM, YEL_KU, RED_CH, GRN_RO])
    s.guangas[1][cell("C3")] = []
    s.pile.append(expect)
    _take_mother(s, 1)
    assert s.guangas[1][cell("C3")] == [BLU_AM] and all(k is not None for k in s.basket)


@pytest.mark.parametrize(
    "mode,layout",
    [
        ("beginner", "AAAGGGMMM"),
        ("apprentice", "AAAAGGGMM"),
        ("master", "AAAAGGGMMBB"),
        ("artisan", "AAAAGGGMMBB"),
    ],
)
def test_market_layout_per_mode(mode, layout):
    """Market: 3/3/3 in beginner, 4/3/2 in apprentice, plus 2 blankets in master and artisan."""
    s = game(2, mode)
    assert "".join(c[0] for c in s.market) == layout
    assert "".join(s.market_levels) == layout


def test_config_validation():
    """Options: player count 1-4, stoppers only in beginner/apprentice, seats must match."""
    with pytest.raises(SetupError, match="1 to 4"):
        G.Config(players=5).validate()
    with pytest.raises(SetupError, match="stoppers"):
        G.Config(players=2, mode=Mode.MASTER, stoppers=True).validate()
    with pytest.raises(SetupError, match="seats"):
        G.new_game(G.Config(players=2), 3, 1)


def test_apprentice_setup_shells_and_orders():
    """Apprentice: 2 orders dealt, one kept; 3 shells each; master starts with none."""
    s = game(3, "apprentice", keep=False)
    assert s.phase == "order" and G.to_move(s) == {0, 1, 2}
    assert all(len(d) == 2 for d in s.orders_dealt) and s.shells == [3, 3, 3]
    s2, ev = _apply(s, 1, f"keep {s.orders_dealt[1][1]}")
    assert s2.orders[1] == s.orders_dealt[1][1] and G.to_move(s2) == {0, 2}
    assert ev[0].visible_to == frozenset({1}) and "secret" in ev[0].public_text
    with pytest.raises(IllegalMove, match="not dealt"):
        _apply(s2, 0, f"keep {s.orders_dealt[1][0]}")
    with pytest.raises(NotYourTurn):
        _apply(s2, 1, f"keep {s.orders_dealt[1][0]}")
    assert game(2, "master").shells == [0, 0]


# --------------------------------------------------------------------------- beginner turn


def test_beginner_place_anywhere_with_stacking():
    """Beginner: take two basket patches and place them anywhere, on top of others too."""
    s = game(2)
    set_basket(s, [RED_CH, BLU_IN, YEL_AM, GRN_RO, RED_IN, BLU_AM, YEL_KU, GRN_KU])
    s, _ = _apply(s, 0, "P1 C3")
    assert s.phase == "place2" and s.guangas[0][cell("C3")][-1] == RED_CH
    s, _ = _apply(s, 0, "p 2 c3")  # same cell again, stacked
    assert len(s.guangas[0][cell("C3")]) == 3
    assert s.turn == 1 and all(k is not None for k in s.basket), "basket refilled to 8 at the end of the turn"
    assert conserved(s)


def test_take_from_empty_slot_is_refused():
    """Beginner: a basket slot already taken this turn is empty."""
    s = game(2)
    s, _ = _apply(s, 0, "P1A1")
    with pytest.raises(IllegalMove, match="slot 1 is empty"):
        _apply(s, 0, "P1A2")


def _claim_ready(mode="beginner", players=2):
    """Seat 0 can claim A03 (yellow amaru diagonal) after placing yellow on B2."""
    s = game(players, mode)
    set_market(
        s,
        ["A03", "A01", "A02", "G01", "G02", "G03", "M01", "M02", "M03"][: len(s.market)]
        if mode == "beginner"
        else ["A03", "A01", "A02", "A04", "G01", "G02", "G03", "M01", "M02"],
    )
    clear(s, 0)
    put(s, 0, {"C3": [RED_CH, YEL_KU], "A1": YEL_AM})
    set_basket(s, [YEL_KU, BLU_IN, GRN_RO, RED_IN, BLU_AM, GRN_KU, RED_CH, YEL_AM])
    return s


def test_claim_requires_taking_first():
    """Claiming: the take-and-place action comes first."""
    s = _claim_ready()
    with pytest.raises(IllegalMove, match="only after taking"):
        _apply(s, 0, "C A03 yellow A1B2C3")


def test_claim_by_colour_in_any_orientation():
    """Claiming: the card's shape in its colour, turned or mirrored, flips the colour marker."""
    s = _claim_ready()
    s, _ = play(s, 0, "P1B2", "P2E5")
    assert s.phase == "claim"
    moves = claim_options(s, 0)
    assert Claim("A03", "yellow", (cell("A1"), cell("B2"), cell("C3"))) in moves
    # the mirrored diagonal A3-B2-C1 also works once built
    s2 = _claim_ready()
    clear(s2, 0)
    put(s2, 0, {"C3": RED_CH, "A3": YEL_AM, "C1": YEL_KU})
    s2, _ = play(s2, 0, "P1B2", "P2E5")
    assert Claim("A03", "yellow", (cell("A3"), cell("B2"), cell("C1"))) in claim_options(s2, 0)
    s3, ev = _apply(s, 0, "C A03 yellow A1 B2 C3")
    assert s3.markers["yellow"] == 1 and s3.phase == "return" and "A03" in s3.claimed[0]
    assert "flipping the yellow marker" in ev[0].text


def test_claim_by_symbol():
    """Claiming: the shape may instead be shown all in the card's symbol (any colours)."""
    s = game(2)
    set_market(s, ["A01", "A02", "A03", "G01", "G02", "G03", "M01", "M02", "M03"])
    clear(s, 0)
    put(s, 0, {"C3": RED_CH, "D1": kind("blue", "chakana")})
    set_basket(
        s,
        [kind("green", "chakana"), kind("yellow", "chakana"), GRN_RO, RED_IN, BLU_AM, GRN_KU, RED_IN, YEL_AM],
    )
    s, _ = play(s, 0, "P1D2", "P2D3")
    s, _ = _apply(s, 0, "C A01 chakana D1D2D3")
    assert s.markers["chakana"] == 1 and s.markers["red"] == 2


def test_claim_refused_when_shape_or_colour_wrong():
    """Claiming: every cell's top patch must show the attribute, in the card's exact shape."""
    s = _claim_ready()
    s, _ = play(s, 0, "P1B2", "P2E5")
    with pytest.raises(IllegalMove, match="the top patches of D4, E5 do not show yellow"):
        _apply(s, 0, "C A03 yellow C3 D4 E5")  # D4 empty, E5 blue inti
    with pytest.raises(IllegalMove, match="do not make the shape"):
        _apply(s, 0, "C A03 yellow A1 B2 B3")
    with pytest.raises(IllegalMove, match="claimed in yellow or in amaru"):
        _apply(s, 0, "C A03 red A1 B2 C3")
    with pytest.raises(IllegalMove, match="not in the market"):
        _apply(s, 0, "C A05 red A1 A2 B1 B2")


def test_covered_patch_does_not_count():
    """Stacks: only the top patch of a cell counts for a shape."""
    s = _claim_ready()
    s, _ = play(s, 0, "P1B2", "P2C3")  # blue inti now covers the yellow on C3
    assert not [m for m in claim_options(s, 0) if m.card == "A03"]


def test_return_two_patches_of_the_shape_top_only():
    """Claiming: two cells of the shape give their top patch back to the bag."""
    s = _claim_ready()
    s, _ = play(s, 0, "P1B2", "P2E5", "C A03 yellow A1B2C3")
    with pytest.raises(IllegalMove, match="cells of the claimed shape"):
        _apply(s, 0, "R A1 E5")
    bag = len(s.bag)
    s, ev = _apply(s, 0, "R A1 C3")
    assert len(s.bag) == bag + 2
    assert s.guangas[0][cell("C3")] == [RED_CH]  # only the top left
    assert s.guangas[0][cell("A1")] == []
    assert "returned" in ev[0].text
    assert s.turn == 1, "nothing optional left: the turn ended by itself"
    assert conserved(s)


def test_only_one_claim_per_turn():
    """Claiming: at most one market item per turn."""
    s = game(2, "apprentice")
    set_market(s, ["A01", "A02", "A03", "A04", "G01", "G02", "G03", "M01", "M02"])
    clear(s, 0)
    put(s, 0, {"C3": RED_CH, "A1": RED_IN, "A2": RED_IN, "E1": RED_IN, "E2": RED_IN})
    set_basket(s, [RED_CH, BLU_IN, GRN_RO, RED_IN, BLU_AM, GRN_KU, RED_CH, YEL_AM])
    s, _ = play(s, 0, "P1A3", "P2B3", "C A01 red A1A2A3", "R A1A2")
    assert s.phase == "after" and s.turn == 0  # shells left to spend
    with pytest.raises(IllegalMove, match="only one market item") as info:
        _apply(s, 0, "C A01 red E1E2E3")
    assert "done" in str(info.value) and "(S3A1)" in str(info.value)  # what is still open


def test_marker_must_be_available():
    """Workshop: a claim needs a face-up marker of its colour or symbol."""
    s = _claim_ready()
    s.markers["yellow"] = 0
    s.markers["amaru"] = 0
    s, _ = play(s, 0, "P1B2", "P2D4")
    assert s.turn == 1  # no claim possible: the turn ended
    s = _claim_ready()
    s, _ = play(s, 0, "P1B2", "P2E5")
    s.markers["yellow"] = 0
    with pytest.raises(IllegalMove, match="no workshop marker for yellow"):
        _apply(s, 0, "C A03 yellow A1B2C3")


def test_grey_marker_only_for_colours_once_all_colours_are_down():
    """Workshop: grey stands in for a colour only when every colour marker is down, never a symbol."""
    s = _claim_ready(players=4)
    s.markers["yellow"] = 0
    s.markers["amaru"] = 0
    s, _ = play(s, 0, "P1B2", "P2E5")
    assert s.turn == 1, "other colours still up: grey unusable"
    s = _claim_ready(players=4)
    for c in D.COLOURS:
        s.markers[c] = 0
    s.markers["amaru"] = 0
    s, _ = play(s, 0, "P1B2", "P2E5")
    s, ev = _apply(s, 0, "C A03 yellow A1B2C3")
    assert s.markers["grey"] == 1 and "grey" in ev[0].text
    s = _claim_ready(players=4)
    for c in D.COLOURS:
        s.markers[c] = 0
    s.markers["amaru"] = 0
    from engines.guanga.rules import marker_for

    assert marker_for(s, "amaru") is None and marker_for(s, "yellow") == "grey"


def test_market_replaced_from_same_level_or_left_empty():
    """Market: a claimed card is replaced from its level's deck; an empty deck leaves the slot empty."""
    s = _claim_ready()
    top = s.decks["A"][-1]
    s2, _ = play(s, 0, "P1B2", "P2E5", "C A03 yellow A1B2C3")
    assert top in s2.market and s2.market_levels[s2.market.index(top)] == "A"
    s.decks["A"] = []
    s3, _ = play(s, 0, "P1B2", "P2E5", "C A03 yellow A1B2C3")
    assert s3.market[0] is None


def test_end_trigger_by_visible_markers_and_round_completed():
    """End: at 6 visible markers (2 players) the round is completed, then the game ends."""
    s = _claim_ready(players=2)
    # 18 markers; leave 7 up so this claim brings it to 6
    down = 11
    for name in D.SYMBOLS + D.COLOURS:
        while down and s.markers[name] > 0 and name not in ("yellow",):
            s.markers[name] -= 1
            down -= 1
    assert sum(s.markers.values()) == 7
    s, ev = play(s, 0, "P1B2", "P2E5", "C A03 yellow A1B2C3")
    assert s.end_triggered and any(e.kind == "trigger" for e in ev)
    s, _ = _apply(s, 0, "R A1 B2")
    assert not s.finished and s.turn == 1, "seat 1 still plays to complete the round"
    s, ev = play(s, 1, "P1A1", "P2A2")
    if not s.finished:
        s, ev = _apply(s, 1, "done")
    assert s.finished and "round" in s.end_reason
    assert G.outcome(s) is not None and G.to_move(s) == set()
    with pytest.raises(GameOver):
        _apply(s, 0, "P1A1")


def test_end_trigger_by_last_seat_ends_at_once():
    """End: when the last seat of the round triggers the end, the game ends after that turn."""
    s = _claim_ready(players=2)
    s.turn = 1
    clear(s, 1)
    put(s, 1, {"C3": [BLU_IN, YEL_KU], "A1": YEL_AM})
    s.markers = {k: 0 for k in s.markers}
    s.markers["yellow"] = 2
    s.markers["amaru"] = 5
    s, _ = play(s, 1, "P1B2", "P2E5", "C A03 yellow A1B2C3", "R A1B2")
    assert s.finished


def test_beginner_ends_when_basket_cannot_be_refilled():
    """Beginner: if the basket cannot be refilled to 8 the game ends."""
    s = game(2)
    s.bag.extend(s.pile[1:])
    s.pile = s.pile[:1]
    s, _ = play(s, 0, "P1A1", "P2A2")
    assert s.finished and "refilled" in s.end_reason
    assert conserved(s)


def test_solo_beginner_plays_on_with_a_short_basket_to_its_own_end():
    """Solo beginner: the solo version ends only when a turn begins with two basket patches that
    cannot be placed, not when the pile can no longer refill the basket to 8 (beginner's end for
    2-4 players): the turn after the pile ran out begins with the seven patches left."""
    s = game(1)
    s.bag.extend(s.pile[1:])
    s.pile = s.pile[:1]
    s, _ = play(s, 0, "P1A1", "P2A2")
    assert not s.finished and s.turn == 0 and s.phase == "place1", s.end_reason
    assert sum(k is not None for k in s.basket) == 7 and conserved(s)
    while sum(k is not None for k in s.basket) >= 2:
        a, b = [i + 1 for i, k in enumerate(s.basket) if k is not None][:2]
        s, _ = play(s, 0, f"P{a}B1", f"P{b}B2")
    assert s.finished and s.end_reason == "at the start of {p0}'s turn the basket patches could not be placed"
    assert sum(k is not None for k in s.basket) == 1 and conserved(s)


def test_empty_space_penalty_and_complete_tile():
    """Scoring: -2 per empty cell; the first complete guanga gets the 10 VP tile."""
    s = game(2)
    set_market(s, [])
    clear(s, 0)
    fill(s, 0, skip=("E4", "E5"))
    assert empty_cells(s, 0) == 2
    set_basket(s, [BLU_IN, GRN_RO, YEL_KU, RED_CH, BLU_AM, GRN_KU, RED_CH, YEL_AM])
    s, ev = play(s, 0, "P1E4", "P2E5")
    assert s.tile == 0 and any(e.kind == "tile" for e in ev)
    # a later complete guanga gets nothing more
    clear(s, 1)
    fill(s, 1, skip=("E4", "E5"))
    s, _ = play(s, 1, "P1E4", "P2E5")
    assert s.tile == 0
    s.guangas[1][cell("A1")] = []
    s.pile.append(s.guangas[0][cell("A1")].pop())
    s.pile.append(s.guangas[0][cell("A2")].pop())
    s.finished = True
    b0 = G.outcome(s).details["breakdown"][0]
    assert b0["tile"] == 10 and b0["penalty"] == 4, "the tile stays even when cells empty later"
    b1 = G.outcome(s).details["breakdown"][1]
    assert b1["tile"] == 0 and b1["penalty"] == 2


def test_ties_fewer_negative_points_then_shared():
    """Ties: fewer negative points wins, then the tie stands."""
    s = game(3)
    for seat in range(3):
        clear(s, seat)
        fill(s, seat)
    s.claimed = [["A05", "A01"], ["A01", "A05"], ["A05", "A01"]]  # 12 VP each
    s.pile.append(s.guangas[0][cell("A1")].pop())  # -2
    s.claimed[0].append("A02")  # +5: 15
    s.pile.append(s.guangas[1][cell("A1")].pop())
    s.pile.append(s.guangas[1][cell("A2")].pop())
    s.claimed[1].append("A04")  # +7 -4: 15
    s.finished = True
    out = G.outcome(s)
    assert out.scores == (15.0, 15.0, 12.0)
    assert out.ranking == ((0,), (1,), (2,)) and out.tiebreak == "fewer negative points ({p0} -2, {p1} -4)"
    s.guangas[1][cell("A2")].append(s.pile.pop())
    s.claimed[1][-1] = "A02"
    out = G.outcome(s)
    assert out.ranking[0] == (0, 1) and out.tiebreak is None


# --------------------------------------------------------------------------- apprentice


def test_apprentice_pair_differs_and_is_adjacent():
    """Apprentice: the two patches differ in colour and symbol and sit orthogonally adjacent."""
    s = game(2, "apprentice")
    set_basket(s, [RED_CH, RED_IN, BLU_IN, GRN_RO, None, None, None, None])
    s, _ = _apply(s, 0, "P1A1")
    with pytest.raises(IllegalMove, match="differ in both"):
        _apply(s, 0, "P2A2")
    with pytest.raises(IllegalMove, match="orthogonally next to A1"):
        _apply(s, 0, "P3B2")
    legal = legal_moves(s, 0)
    assert Place(3, cell("A2")) in legal and Place(3, cell("B1")) in legal and len(legal) == 4
    s, _ = _apply(s, 0, "P3A2")
    assert s.phase == "claim"


def test_apprentice_first_patch_needs_a_partner():
    """Apprentice: a patch with no basket partner of another colour and symbol cannot be taken."""
    s = game(2, "apprentice")
    set_basket(s, [RED_CH, RED_IN, kind("blue", "chakana"), None, None, None, None, None])
    legal = [m for m in legal_moves(s, 0) if isinstance(m, Place)]
    assert {m.slot for m in legal} == {2, 3}
    with pytest.raises(IllegalMove, match="no legal second patch"):
        _apply(s, 0, "P1A1")


def test_shells_buy_refresh_and_score():
    """Apprentice shells: 1 buys a basket patch placed anywhere, 1 refreshes the basket, 1 VP each left."""
    s = game(2, "apprentice")
    set_basket(s, [RED_CH, BLU_IN, GRN_RO, RED_IN, BLU_AM, GRN_KU, RED_CH, YEL_AM])
    s, ev = _apply(s, 0, "S8E5")
    assert s.shells[0] == 2 and s.guangas[0][cell("E5")] == [YEL_AM] and s.phase == "place1"
    old = list(s.basket)
    bag = len(s.bag)
    s, ev = _apply(s, 0, "refresh")
    assert s.shells[0] == 1 and len(s.bag) == bag + 7 and s.basket != old
    assert s.shells_spent == 2 and conserved(s)
    s.finished = True
    assert G.outcome(s).details["breakdown"][0]["shells"] == 1
    s.finished = False
    s.shells[0] = 0
    with pytest.raises(IllegalMove, match="costs 1"):
        _apply(s, 0, "S1A1")


def test_a_skipped_take_allows_no_claim():
    """A claim needs the turn's take first (rulebook: "to claim a market item you must first
    perform your action"): a bought patch that leaves the basket without a legal pair skips the
    take, and with it the claim; the player may still spend shells, then the turn ends."""
    s, _ = apprentice_claim_of_a01()
    put(s, 0, {"A3": RED_IN})  # A1 A2 A3 red: A01 Chullo's shape is already on the guanga
    set_basket(s, [RED_CH, RED_IN, BLU_IN, None, None, None, None, None])
    s, events = _apply(s, 0, "S3E5")  # the blue inti bought: two reds are left, no legal pair
    assert "the take is skipped" in " | ".join(e.text for e in events)
    assert s.turn == 0 and not any(isinstance(m, (Place, Claim)) for m in legal_moves(s, 0))
    with pytest.raises(IllegalMove, match="only after taking and placing your two patches"):
        _apply(s, 0, "C A01 red A1A2A3")
    s, _ = _apply(s, 0, "done")
    assert s.turn == 1 and s.claimed[0] == [] and s.markers["red"] == 2


def test_no_shells_in_beginner():
    """Beginner: there are no Mullu shells to spend.  ``x`` (short for refresh) and a buy are
    refused saying what they asked for and what the player may do instead."""
    s = game(2)
    for text in ("refresh", "x"):
        with pytest.raises(IllegalMove, match="no Mullu shells|beginner mode has none") as refused:
            _apply(s, 0, text)
        assert str(refused.value).startswith("refresh (x) replaces the basket for a Mullu shell"), (
            refused.value
        )
        assert "you may: " in str(refused.value) and "(P1A1)" in str(refused.value), refused.value
    with pytest.raises(IllegalMove) as refused:
        _apply(s, 0, "S3B2")
    assert str(refused.value).startswith(
        "a buy (S3B2) spends Mullu shells, and beginner mode has none; now ("
    )


def test_bag_recycled_into_pile():
    """Apprentice and up: an empty pile is refilled by shuffling the bag; the game goes on."""
    s = game(2, "apprentice")
    s.bag.extend(s.pile)
    s.pile = []
    bag = len(s.bag)
    s, _ = play(s, 0, "P1A1")
    legal = [m for m in legal_moves(s, 0) if isinstance(m, Place)]
    s, _ = G.apply_move(s, 0, legal[0])
    if s.turn == 0:
        s, _ = _apply(s, 0, "done")
    assert not s.finished and s.recycles == 1 and len(s.pile) == bag - 2 and s.bag == []
    assert all(k is not None for k in s.basket) and conserved(s)
    s.bag.extend(s.pile)
    s.pile = []
    seat = s.turn
    s, _ = play(s, seat, "P1A1")
    s, _ = G.apply_move(s, seat, [m for m in legal_moves(s, seat) if isinstance(m, Place)][0])
    if s.turn == seat:
        s, _ = _apply(s, seat, "done")
    assert s.turn != seat and s.recycles == 2 and conserved(s)


def test_orders_score_with_two_items_per_part():
    """Orders: each part scores once with at least 2 claimed items of its flag / typology."""
    s = game(2, "apprentice")
    s.orders[0] = "O1"  # Peru 5 / Torso 3
    s.claimed[0] = ["A01", "A02"]  # Peru Head, Peru Torso
    s.finished = True
    assert G.outcome(s).details["breakdown"][0]["orders"] == 5
    s.claimed[0] = ["A01", "A02", "A04", "B01"]  # + Bolivia Torso, Peru Torso blanket
    assert G.outcome(s).details["breakdown"][0]["orders"] == 8
    s.claimed[0] = ["A02"]
    assert G.outcome(s).details["breakdown"][0]["orders"] == 0


# --------------------------------------------------------------------------- stoppers


def test_stoppers_block_limit_and_count_as_filled():
    """Stoppers: free, on any guanga, 2 per player, 2 per guanga, block cells and shapes, count as filled."""
    s = game(3, "beginner", stoppers=True)
    s, ev = _apply(s, 0, "T2A1")
    assert s.stoppers[1] == [cell("A1")] and s.stoppers_left[0] == 1 and s.phase == "place1"
    s, _ = _apply(s, 0, "T1E5")
    with pytest.raises(IllegalMove, match="no stoppers left"):
        _apply(s, 0, "T3A1")
    s, _ = play(s, 0, "P1A1", "P2A2")
    s, _ = _apply(s, 1, "T2A2")
    with pytest.raises(IllegalMove, match="already has 2 stoppers") as full:
        _apply(s, 1, "T2A3")
    names = ["Ana", "Beto", "Cusi"]  # the refusal names the player, as the table reads it
    assert refusal(named(full.value, names), ENGLISH) == "Beto's guanga already has 2 stoppers"
    assert refusal(named(full.value, names), language("es")) == "la guanga de Beto ya tiene 2 topes"
    with pytest.raises(IllegalMove, match="has a stopper"):
        _apply(s, 1, "P1A1")
    before = empty_cells(s, 1)
    s.stoppers[1].remove(cell("A2"))
    assert empty_cells(s, 1) == before + 1
    with pytest.raises(IllegalMove, match="without the stoppers"):
        _apply(game(2), 0, "T1A1")


def test_stopper_breaks_a_shape():
    """Stoppers: a stoppered cell never counts in a shape, even with a patch under it."""
    s = game(2, "apprentice", stoppers=True)
    set_market(s, ["A01", "A02", "A03", "A04", "G01", "G02", "G03", "M01", "M02"])
    clear(s, 0)
    put(s, 0, {"C3": RED_CH, "A1": RED_IN, "A2": RED_IN})
    set_basket(s, [RED_CH, BLU_IN, GRN_RO, RED_IN, BLU_AM, GRN_KU, RED_CH, YEL_AM])
    s, _ = play(s, 0, "T1A2", "P1A3", "P2B3")
    assert not [m for m in claim_options(s, 0) if m.card == "A01" and cell("A2") in m.cells]


# --------------------------------------------------------------------------- master / artisan


def test_master_shells_from_complete_lines_and_costs():
    """Master: 2 shells per complete line of the claimed attribute, from basket patches; buy 3; 2 per VP."""
    s = game(2, "master")
    set_market(s, ["A01", "A02", "A03", "A04", "G01", "G02", "G03", "M01", "M02", "B01", "B02"])
    clear(s, 0)
    put(s, 0, {"C3": RED_CH})
    for i, name in enumerate(("A2", "A3", "A4", "A5", "B5", "C5", "D5", "E5")):
        put(s, 0, {name: i % 5})
    set_basket(s, [RED_IN, BLU_IN, GRN_RO, RED_CH, BLU_AM, GRN_KU, RED_CH, YEL_AM])
    s, _ = play(s, 0, "P1A1", "P3B1")
    s, ev = _apply(s, 0, "C A01 red A1A2A3")
    # row A and column 5 are all red: 2 lines -> 4 shells, from the 4 leftmost basket patches
    assert s.shells[0] == 4 and s.basket[:6] == [None] * 6
    shells = [e for e in ev if e.kind == "shells"]
    assert len(shells) == 1 and "{p0}" in shells[0].text and "2 red lines" in shells[0].text
    assert "4 Mullu shells" in shells[0].text
    assert len(s.shell_patches[0]) == 4 and conserved(s)
    s, _ = _apply(s, 0, "R A1A2")
    s, _ = _apply(s, 0, "S7D1")
    assert s.shells[0] == 1 and conserved(s)
    with pytest.raises(IllegalMove, match="costs 3"):
        _apply(s, 0, "S8D2")
    s.shells[0] = 5
    s.finished = True
    assert G.outcome(s).details["breakdown"][0]["shells"] == 2


def test_master_shells_only_for_the_claimed_attribute():
    """Master: only lines of the attribute used for the claim give shells."""
    s = game(2, "master")
    set_market(s, ["A01", "A02", "A03", "A04", "G01", "G02", "G03", "M01", "M02", "B01", "B02"])
    clear(s, 0)
    put(s, 0, {"C3": RED_CH})
    for name in ("A1", "A2", "A3", "A4"):
        put(s, 0, {name: kind("blue", "chakana")})
    set_basket(s, [GRN_RO, BLU_IN, kind("green", "chakana"), RED_CH, BLU_AM, GRN_KU, RED_CH, YEL_AM])
    s, _ = play(s, 0, "P3A5", "P2B5")
    s, _ = _apply(s, 0, "C A01 chakana A1A2A3")
    assert s.shells[0] == 2
    s2 = game(2, "master")
    assert s2.shells[0] == 0


def test_blanket_gives_an_extra_patch():
    """Blankets: claiming one lets the player take one more basket patch at once."""
    s = game(2, "master")
    set_market(s, ["A01", "A02", "A03", "A04", "G01", "G02", "G03", "M01", "M02", "B01", "B02"])
    clear(s, 0)
    put(s, 0, {"C3": RED_CH})
    for i, name in enumerate(("A1", "A2", "A3", "A4", "B1", "B2", "B3")):
        put(s, 0, {name: kind(D.COLOURS[i % 4], "chakana")})
    set_basket(s, [kind("yellow", "chakana"), BLU_IN, GRN_RO, RED_IN, BLU_AM, GRN_KU, RED_CH, YEL_AM])
    s, _ = play(s, 0, "P1B4", "P4B5")
    s, _ = play(s, 0, "C B01 chakana A1A2A3A4B1B2B3B4", "R A1A2")
    assert s.phase == "extra"
    s, ev = _apply(s, 0, "P2E5")
    assert s.guangas[0][cell("E5")] == [BLU_IN] and "blanket" in ev[0].text and ev[0].kind == "place"
    assert s.turn == 1 or s.phase == "after"


def test_artisan_everything_connected_to_centre():
    """Artisan: new patches must stay orthogonally connected to C3."""
    s = game(2, "artisan")
    set_basket(s, [RED_CH, BLU_IN, GRN_RO, RED_IN, BLU_AM, GRN_KU, RED_CH, YEL_AM])
    with pytest.raises(IllegalMove, match="connected to the centre"):
        _apply(s, 0, "P1A1")
    s2, _ = _apply(s, 0, "P1C1")  # C2 can bridge it
    assert [m for m in legal_moves(s2, 0) if isinstance(m, Place)] == [
        Place(b, cell("C2")) for b in (2, 3, 5, 6, 8)
    ]
    s, _ = play(s, 0, "P1C4", "P2C5")
    assert s.guangas[0][cell("C5")] == [BLU_IN]


def test_artisan_mother_patch_stays_and_cut_off_removed():
    """Artisan: the mother patch is never returned; patches cut off from C3 by a return go to the bag."""
    s = game(2, "artisan")
    set_market(s, ["A01", "A02", "A03", "A04", "G01", "G02", "G03", "M01", "M02", "B01", "B02"])
    clear(s, 0)
    put(s, 0, {"C3": RED_CH, "C4": RED_IN, "C5": [BLU_AM, BLU_IN], "D5": GRN_KU})
    set_basket(s, [RED_CH, BLU_IN, GRN_RO, RED_IN, BLU_AM, GRN_KU, kind("green", "chakana"), YEL_AM])
    s, _ = play(s, 0, "P1C2", "P3B2")
    s, _ = _apply(s, 0, "C A01 red C2C3C4")
    assert Return((cell("C2"), cell("C3"))) not in legal_moves(s, 0)
    with pytest.raises(IllegalMove, match="mother patch"):
        _apply(s, 0, "R C2C3")
    bag = len(s.bag)
    s, ev = _apply(s, 0, "R C2C4")
    # C4 emptied: C5 (2 patches) and D5 are cut off from C3; B2 is cut off too (C2 emptied)
    assert (
        s.guangas[0][cell("C5")] == [] and s.guangas[0][cell("D5")] == [] and s.guangas[0][cell("B2")] == []
    )
    assert len(s.bag) == bag + 2 + 4
    cut = [e.text for e in ev if e.kind == "cutoff"]
    assert len(cut) == 1 and re.search(r"\b4 patches", cut[0]), "the cut-off event counts 4 patches"
    assert conserved(s)
    assert s.guangas[0][cell("C3")] == [RED_CH]


def test_the_rules_help_sends_cut_off_patches_to_the_bag():
    """/rules says what the game does with patches cut off from C3 in artisan (they go back to the
    bag, and from it to the pile again), in English and Spanish; it said they were lost."""
    from tests.support.sentences import ES

    artisan_en = next(
        line for line in ENGLISH.gettext(G.RULES_HELP).splitlines() if line.startswith("- Artisan (")
    )
    artisan_es = next(
        line for line in ES.gettext(G.RULES_HELP).splitlines() if line.startswith("- Artesana (")
    )
    assert "cut-off patches go to the bag" in artisan_en and "lost" not in artisan_en
    assert "vuelven a la bolsa" in artisan_es and "pierden" not in artisan_es


def test_the_rules_help_says_solo_has_no_complete_guanga_tile():
    """/rules promises +10 for the first full guanga; its solo line says the solo version has no
    such tile (the engine gives none: test_solo_market_not_refilled_and_no_tile), in English
    and Spanish."""
    from tests.support.sentences import ES

    solo_en = next(line for line in G.RULES_HELP.splitlines() if line.startswith("**Solo**"))
    solo_es = next(
        line for line in ES.gettext(G.RULES_HELP).splitlines() if line.startswith("**En solitario**")
    )
    assert "+10 tile" in solo_en and "loseta de +10" in solo_es


def test_the_rules_help_gives_the_solo_workshop_and_master_s_shells():
    """/rules says what the solo workshop holds (one marker per colour and per symbol, no grey:
    nine claims at most) and that solo master still earns shells from lines, and what master
    changes about shells (none at start, 2 per full line of the claim's colour or symbol, taken
    from the basket face down, a patch for 3, 2 to a VP), as the game deals them, in English and
    Spanish."""
    from tests.support.sentences import ES

    solo = G.new_game(G.Config(players=1, mode=Mode.MASTER), 1, 3)
    assert sum(solo.markers.values()) == 9 and solo.markers.get("grey", 0) == 0
    assert solo.shells == [0] and D.SHELLS_PER_LINE == 2 and D.SHELL_BUY_COST["master"] == 3
    assert D.SHELLS_PER_VP["master"] == 2
    english = G.RULES_HELP.splitlines()
    spanish = ES.gettext(G.RULES_HELP).splitlines()
    solo_en = next(line for line in english if line.startswith("**Solo**"))
    solo_es = next(line for line in spanish if line.startswith("**En solitario**"))
    assert "one workshop marker per colour and symbol (9 claims at most)" in solo_en
    assert "master's lines still earn shells" in solo_en
    assert "un solo marcador del taller por color y por símbolo (9 reclamos como máximo)" in solo_es
    assert "en Maestra las líneas siguen dando conchas" in solo_es
    master_en = next(line for line in english if line.startswith("- {choice guanga new mode master}"))
    master_es = next(line for line in spanish if line.startswith("- Maestra ("))
    for needed in (
        "no starting shells",
        "a claim earns 2 per full row/column of the colour or symbol used, taken face down from the basket",
        "a patch costs 3, 2 shells = 1 VP",
        "market + 2 blankets (+1 patch each)",
    ):
        assert needed in master_en, needed
    for needed in (
        "empiezas sin conchas",
        "cada reclamo te da 2 por cada fila o columna completa del color o del símbolo con que reclamas, y se "
        "toman de la canasta como parches boca abajo",
        "un parche cuesta 3 y 2 conchas valen 1 PV",
        "el mercado suma 2 cobijas (un parche más cada una)",
    ):
        assert needed in master_es, needed


# --------------------------------------------------------------------------- solo


@pytest.mark.parametrize(
    "mode,total", [("beginner", 40), ("apprentice", 60), ("master", 60), ("artisan", 60)]
)
def test_solo_setup(mode, total):
    """Solo: 40 patches in beginner, 60 otherwise; 9 markers; no orders."""
    s = game(1, mode)
    assert sum(patch_counts(s)) == total and conserved(s)
    assert sum(s.markers.values()) == 9 and s.markers["grey"] == 0
    assert s.orders == [None] and s.orders_dealt == [[]] and s.phase == "place1"


def test_solo_market_not_refilled_and_no_tile():
    """Solo: a claimed card is not replaced; no complete-guanga tile."""
    s = _claim_ready(players=1)
    s, _ = play(s, 0, "P1B2", "P2E5", "C A03 yellow A1B2C3")
    assert s.market[0] is None
    s = game(1)
    clear(s, 0)
    set_market(s, [])
    fill(s, 0, skip=("E5",))
    a, b = [i + 1 for i, k in enumerate(s.basket) if k is not None][:2]
    s, _ = play(s, 0, f"P{a}E5", f"P{b}E5")
    assert s.tile is None and empty_cells(s, 0) == 0


def test_solo_ends_when_two_patches_cannot_be_placed_and_ranks():
    """Solo: the game ends when, at a turn's start, the basket patches cannot be placed; a rank is given."""
    s = game(1, "apprentice")
    set_market(s, [])
    set_basket(s, [RED_CH, BLU_IN, RED_IN, None, None, None, None, None])
    s.guangas[0][cell("A1")].extend(s.pile + s.bag)
    s.pile, s.bag = [], []
    s, _ = play(s, 0, "P1A2", "P2A3")
    if not s.finished:
        s, _ = _apply(s, 0, "done")
    assert s.finished and "could not be placed" in s.end_reason
    out = G.outcome(s)
    assert out.details["rank"] in {name for _, name in D.SOLO_RANKS} | {D.SOLO_LOWEST_RANK}
    assert conserved(s)


@pytest.mark.parametrize(
    "points,rank",
    [
        (0, "Apprentice"),
        (39, "Apprentice"),
        (40, "Aspirant"),
        (79, "Guardian"),
        (80, "Instructor"),
        (108, "Instructor"),
        (109, "Master"),
        (119, "Master"),
        (120, "Artisan"),
        (-6, "Apprentice"),
    ],
)
def test_solo_rank_table(points, rank):
    """Solo: the rank table, exactly 120 counting as Artisan."""
    from engines.guanga.rules import solo_rank

    assert solo_rank(points).startswith(rank)


# --------------------------------------------------------------------------- secrets, notation, contract


def test_orders_secret_until_the_end():
    """Orders are secret: only their owner sees them until the game ends."""
    s = game(3, "apprentice", keep=False)
    v1 = jsonable(G.view_for(s, 1))
    assert v1["dealt_orders"] == s.orders_dealt[1]
    for other in s.orders_dealt[0] + s.orders_dealt[2]:
        assert other not in json.dumps(v1)
    s = game(3, "apprentice")
    v = jsonable(G.view_for(s, 0))
    assert v["guangas"][0]["order"] == s.orders[0]
    assert v["guangas"][1]["order"] == UNKNOWN and v["guangas"][1]["score"]["orders"] == UNKNOWN
    spect = jsonable(G.view_for(s, None))
    assert all(p["order"] == UNKNOWN for p in spect["guangas"])
    assert "pile" in spect and isinstance(spect["pile"], int)
    s.finished = True
    assert jsonable(G.view_for(s, None))["guangas"][2]["order"] == s.orders[2]


def test_notation_round_trip_and_errors():
    """Notation: every move's text parses back to the same move; bad text says what is expected."""
    for text in ("P3B2", "S1E5", "refresh", "T2C4", "C A03 yellow B2C3D4", "R B2D4", "keep O3", "done"):
        assert str(G.parse_move(text)) == text
    assert G.parse_move("  c a03   AMARU b2, c3 d4 ") == Claim("A03", "amaru", (6, 12, 18))
    assert G.parse_move("c A3 col D4 B2 C3") == Claim("A03", "yellow", (6, 12, 18))
    assert G.parse_move("ret d4 b2") == Return((6, 18))
    assert G.parse_move("p 3 b2") == Place(3, 6)
    assert G.parse_move("O10") == Keep("O10")
    assert G.parse_move("T1A1") == Stopper(0, 0)
    assert isinstance(G.parse_move("DONE"), Done)
    for bad, frag in (
        ("P9A1", "P3B2"),
        ("C Z01 red A1", "P3B2"),
        ("C A03 purple A1B2C3", "colour or symbol"),
        ("R B2", "exactly two"),
        ("keep O11", "O1 to O10"),
        ("", "empty"),
        ("C A01 red A1A1A2", "twice"),
        ("P 3B2 5C4", "one patch per move"),
    ):
        with pytest.raises(MalformedMove, match=frag):
            G.parse_move(bad)
    assert len(str(Claim("B09", "kuntur", tuple(range(12))))) <= 100


def test_a_slot_player_or_cell_out_of_range_is_named():
    """A take, buy or stopper with a slot, player or cell out of range is told the ranges (not the
    whole notation), in English and in Spanish."""
    for text, english, spanish in (
        (
            "P9A1",
            "basket slots are 1 to 8 and cells A1 to E5 (rows A-E, columns 1-5), like P3B2",
            "los huecos de la canasta van del 1 al 8 y las casillas de A1 a E5",
        ),
        (
            "p1 f1",
            "basket slots are 1 to 8 and cells A1 to E5 (rows A-E, columns 1-5), like P3B2",
            "(filas A-E, columnas 1-5), como P3B2",
        ),
        (
            "S0B6",
            "basket slots are 1 to 8 and cells A1 to E5 (rows A-E, columns 1-5), like S3B2",
            "como S3B2",
        ),
        (
            "T2F1",
            "a stopper names a player 1-4 and a cell A1 to E5 (rows A-E, columns 1-5), like T2C4",
            "un tope indica un asiento (1-4) y una casilla de A1 a E5",
        ),
    ):
        with pytest.raises(MalformedMove) as refused:
            G.parse_move(text)
        assert str(refused.value) == f'"{text}": {english}'
        assert spanish in check_refusal(refused.value)


def test_apply_move_never_mutates_and_checks_turn():
    """Contract: the input state is unchanged; the wrong seat gets NotYourTurn."""
    s = game(2, "apprentice")
    before = G.to_dict(s)
    m = next(iter(legal_moves(s, 0)))
    G.apply_move(s, 0, m)
    assert G.to_dict(s) == before
    with pytest.raises(NotYourTurn):
        G.apply_move(s, 1, m)
    assert legal_moves(s, 1) == []


def test_legal_moves_match_apply_move():
    """Contract: listed moves are accepted and unlisted placements are refused."""
    from engines.guanga.rules import Buy

    for mode in ("beginner", "apprentice", "artisan"):
        s = game(2, mode, stoppers=mode == "apprentice")
        for _ in range(2):
            legal = set(legal_moves(s, s.turn))
            for slot in range(1, 9):
                for c in range(25):
                    for mv in (Place(slot, c), Buy(slot, c)):
                        if mv in legal:
                            G.apply_move(s, s.turn, mv)
                        else:
                            with pytest.raises(IllegalMove):
                                G.apply_move(s, s.turn, mv)
            s, _ = G.apply_move(
                s,
                s.turn,
                sorted(legal, key=str)[0]
                if mode != "beginner"
                else [m for m in legal if isinstance(m, Place)][0],
            )


def test_round_trip_dict():
    """Persistence: to_dict is JSON and from_dict restores it exactly."""
    s = _claim_ready("master")
    s, _ = play(s, 0, "P1B2", "P2B3", "C A03 yellow A1B2C3")
    d = G.to_dict(s)
    json.dumps(d)
    assert G.to_dict(G.from_dict(json.loads(json.dumps(d)))) == d
    with pytest.raises(SetupError):
        G.from_dict({**d, "schema": 99})


def test_rules_help_and_player_counts():
    """Package: the help is short (every engine's contract names: tests/test_layers.py)."""
    # As shown ({option ...} and {choice ...} filled in), in one Discord message (a longer guide,
    # as the Spanish, follows in more: bot.surface.gamecog).
    assert len(ENGLISH.gettext(G.RULES_HELP)) <= 2000
    assert (G.MIN_PLAYERS, G.MAX_PLAYERS) == (1, 4)


def test_master_refresh_sends_shell_patch_and_basket_to_bag():
    """Master: a refresh costs 1 shell; that shell's patch and the old basket go to the bag."""
    s = game(2, "master")
    s.shell_patches[0] = [s.pile.pop(0), s.pile.pop(0)]
    s.shells[0] = 2
    bag = len(s.bag)
    s, _ = _apply(s, 0, "refresh")
    assert s.shells[0] == 1 and len(s.shell_patches[0]) == 1
    assert len(s.bag) == bag + 1 + 8 and conserved(s)
    with pytest.raises(IllegalMove, match="costs 3"):
        _apply(s, 0, "S1C4")


def test_options_from_strings():
    """Options: mode, stoppers and cannot_place are lobby options with their choices."""
    from engines.core import config_from_options, config_options

    opts = {o.name: o for o in config_options(G.Config)}
    assert set(opts) == {"mode", "stoppers", "cannot_place"}
    assert opts["mode"].choices == ("beginner", "apprentice", "master", "artisan")
    assert opts["cannot_place"].choices == ("finish_round", "end_now")
    assert opts["cannot_place"].default == "finish_round"
    cfg = config_from_options(G.Config, 3, {"mode": "apprentice", "stoppers": "yes"})
    assert cfg.mode is Mode.APPRENTICE and cfg.stoppers is True and cfg.players == 3
    with pytest.raises(SetupError):
        config_from_options(G.Config, 2, {"mode": "artisan", "stoppers": "yes"})


def test_views_hide_pile_bag_and_covered_patches():
    """Hidden information: pile and bag are counts; a stack shows its top patch and height only."""
    s = game(2)
    set_basket(s, [RED_CH, BLU_IN, YEL_AM, GRN_RO, RED_IN, BLU_AM, YEL_KU, GRN_KU])
    s, _ = play(s, 0, "P1A1", "P2A1")
    v = jsonable(G.view_for(s, None))
    assert v["pile"] == len(s.pile) and v["bag"] == len(s.bag)
    assert v["guangas"][0]["heights"][0] == 2 and v["guangas"][0]["tops"][0] == "blue/inti"
    assert "red/chakana" not in json.dumps(v["guangas"][0]["tops"])
    assert v["decks"] == {k: len(d) for k, d in s.decks.items()}


def test_solo_stoppers_on_own_guanga():
    """Stoppers in solo: the player may only stop their own guanga, and it counts as filled."""
    s = game(1, "apprentice", stoppers=True)
    assert {m.target for m in legal_moves(s, 0) if isinstance(m, Stopper)} == {0}
    before = empty_cells(s, 0)
    s, _ = _apply(s, 0, "T1E5")
    assert empty_cells(s, 0) == before - 1
    with pytest.raises(IllegalMove, match="no player 2"):
        _apply(s, 0, "T2E4")


def test_second_patch_nothing_else_between():
    """Turn order: between the two patches of a take only the second placement is allowed."""
    s = game(2, "apprentice", stoppers=True)
    first = next(m for m in legal_moves(s, 0) if isinstance(m, Place))
    s, _ = G.apply_move(s, 0, first)
    assert s.phase == "place2"
    assert all(isinstance(m, Place) for m in legal_moves(s, 0))
    with pytest.raises(IllegalMove, match="before you take"):
        _apply(s, 0, "refresh")
    with pytest.raises(IllegalMove, match="cannot end your turn"):
        _apply(s, 0, "done")


# --------------------------------------------------------------------------- what the events and refusals tell


def test_claim_names_the_card_and_its_replacement():
    """A claim is told with the card's name and points, the attribute, the cells and the marker;
    the market card that replaces it is named too."""
    s = game(2, "apprentice")
    set_market(s, ["A01", "A02", "A03", "A04", "G01", "G02", "G03", "M01", "M02"])
    clear(s, 0)
    put(s, 0, {"C3": RED_CH, "A1": RED_IN, "A2": RED_IN})
    set_basket(s, [RED_CH, BLU_IN, GRN_RO, RED_IN, BLU_AM, GRN_KU, RED_CH, YEL_AM])
    s, _ = play(s, 0, "P1A3", "P2B3")
    slot = s.market.index("A01")
    refill = s.decks[s.market_levels[slot]][-1]
    s2, ev = _apply(s, 0, "C A01 red A1A2A3")
    assert ev[0].kind == "claim" and s2.market[slot] == refill
    text = ev[0].text
    row = {c[0]: c for c in D.CARDS}
    assert text.startswith("{p0} claimed A01 Chullo (5 VP) with red on A1, A2, A3")
    assert "flipping the red marker" in text and f"{refill} {row[refill][1]} joins the market" in text
    with pytest.raises(IllegalMove, match="A1, A2, B3 do not make the shape of A01 Chullo"):
        _apply(s, 0, "C A01 red A1A2B3")


def test_refusal_in_the_wrong_phase_says_what_may_be_done():
    """A move out of its moment is refused naming the moment and the moves allowed now."""
    s = game(2, "apprentice")
    with pytest.raises(IllegalMove) as info:
        _apply(s, 0, "C A01 red A1A2A3")
    text = str(info.value)
    assert "only after taking and placing your two patches" in text
    assert "now (taking the first of your two patches) you may:" in text
    assert "place a basket patch (P1A1)" in text and "refresh the basket" in text
    assert "end your turn" not in text


def examples_in(refused: IllegalMove) -> list[str]:
    """The moves a refusal gives as examples of what may be done now: ``(P1A1)``, ``(done)``."""
    allowed = str(refused).split(" you may: ", 1)[1]
    return re.findall(r"\(([^()]+)\)", allowed)


def test_a_refusal_gives_legal_moves_of_the_position_as_examples():
    """Each example of a refusal's moves allowed now is one of the legal moves: the order the
    player was dealt, a claim the market and the guanga allow, a stopper; a stopper in a game
    without the variant is refused with the moves allowed too."""
    s = game(2, "apprentice", keep=False)
    assert s.orders_dealt[1] == ["O10", "O2"]
    with pytest.raises(IllegalMove) as refused:
        _apply(s, 1, "P1A1")
    assert examples_in(refused.value) == ["keep O10"]
    s = game(3, "beginner")
    set_market(s, ["A01", "A02", "A03", "G01", "G02", "G03", "M01", "M02", "M03"])
    clear(s, 0)
    put(
        s,
        0,
        {
            "C3": RED_IN,
            "A1": RED_IN,
            "A2": RED_IN,
            "B1": kind("green", "chakana"),
            "B2": kind("yellow", "chakana"),
        },
    )
    set_basket(s, [RED_CH, BLU_IN, GRN_RO, RED_IN, BLU_AM, GRN_KU, RED_CH, YEL_AM])
    s, _ = play(s, 0, "P1A3", "P7B3")
    with pytest.raises(IllegalMove) as refused:
        _apply(s, 0, "T2C3")
    assert str(refused.value).startswith(
        "this game is played without the stoppers variant; now (claiming a market item) you may: "
    )
    assert examples_in(refused.value) == ["C A01 red A1A2A3", "done"]
    assert "C A03" not in str(refused.value)
    legal = {str(m) for m in legal_moves(s, 0)}
    assert set(examples_in(refused.value)) <= legal
    s = game(2, "beginner", stoppers=True)
    with pytest.raises(IllegalMove) as refused:
        _apply(s, 0, "done")
    assert examples_in(refused.value) == ["P1A1", "T2A1"]
    assert set(examples_in(refused.value)) <= {str(m) for m in legal_moves(s, 0)}


def test_a_wrong_cell_for_a_bought_patch_lists_the_right_ones():
    """Artisan: a bought patch must join the weave; the refusal lists where it may go."""
    s = game(2, "artisan")
    s.shells[0] = 3
    with pytest.raises(IllegalMove) as info:
        _apply(s, 0, "S1A1")
    assert "A1 would not be connected to the centre C3; a bought patch may go on: " in str(info.value)
    assert "B3, C2, C3, C4, D3" in str(info.value)


def test_every_order_chosen_starts_the_first_turn():
    s = game(2, "apprentice", keep=False)
    s, ev = _apply(s, 0, f"keep {s.orders_dealt[0][0]}")
    assert [e.kind for e in ev] == ["order"] and s.phase == "order"
    s, ev = _apply(s, 1, f"keep {s.orders_dealt[1][0]}")
    assert [e.kind for e in ev][:2] == ["order", "turn"] and "{p0} begins" in ev[1].text
    assert s.phase == "place1" and s.turn == 0


def test_tile_points_count_in_the_total_and_hidden_orders_do_not():
    """The total adds market, orders, shells and tile points and takes off the penalty; while
    the game is on, another player's view counts no hidden order points."""
    s = game(2, "apprentice")
    s.claimed[0] = ["A01", "A02"]  # Peru Head 5 + Peru Torso
    s.orders[0] = "O1"  # Peru 5 / Torso 3
    s.tile = 0
    b = G.rules.breakdown(s, 0)
    assert b["tile"] > 0 and b["orders"] == 5
    assert b["total"] == b["market"] + b["orders"] + b["shells"] + b["tile"] - b["penalty"]
    hidden = G.view_for(s, 1).guangas[0].score
    assert hidden["orders"] == UNKNOWN
    assert hidden["total"] == b["market"] + b["shells"] + b["tile"] - b["penalty"]
    assert G.view_for(s, 0).guangas[0].score["total"] == b["total"]


def test_a_full_guanga_does_not_hide_the_others_from_stoppers():
    s = game(3, "beginner", stoppers=True)
    s.stoppers[0] = [cell("A1"), cell("A2")]
    targets = {m.target for m in legal_moves(s, 0) if isinstance(m, Stopper)}
    assert targets == {1, 2}


@pytest.mark.parametrize("mode", ["beginner", "apprentice"])
def test_own_stoppers_take_cells_out_of_every_placement(mode):
    """A stoppered cell of one's own guanga takes no patch and no first patch of a pair."""
    s = game(2, mode, stoppers=True)
    s.stoppers[0] = [cell("B2"), cell("D4")]
    cells = {m.cell for m in legal_moves(s, 0) if isinstance(m, Place)}
    assert cells and not cells & {cell("B2"), cell("D4")} and cell("A1") in cells


def test_beginner_needs_two_basket_patches_to_take():
    s = game(2, "beginner")
    set_basket(s, [RED_CH, None, None, None, None, None, None, None])
    assert not [m for m in legal_moves(s, 0) if isinstance(m, Place)]
    set_basket(s, [RED_CH, BLU_IN, None, None, None, None, None, None])
    assert {m.slot for m in legal_moves(s, 0) if isinstance(m, Place)} == {1, 2}


def test_no_claim_without_a_face_up_marker():
    """A claim flips a marker of its attribute, or a grey one once every colour marker is down;
    with neither left, nothing can be claimed in that colour."""
    s = game(2, "apprentice")
    set_market(s, ["A01", "A02", "A03", "A04", "G01", "G02", "G03", "M01", "M02"])
    clear(s, 0)
    put(s, 0, {"C3": RED_CH, "A1": RED_IN, "A2": RED_IN})
    set_basket(s, [RED_CH, BLU_IN, GRN_RO, RED_IN, BLU_AM, GRN_KU, RED_CH, YEL_AM])
    s, _ = play(s, 0, "P1A3", "P2B3")
    for c in D.COLOURS:
        s.markers[c] = 0
    s.markers["grey"] = 1
    assert Claim("A01", "red", (0, 1, 2)) in claim_options(s, 0)
    s.markers["grey"] = 0
    assert not [m for m in claim_options(s, 0) if m.attr == "red"]
    with pytest.raises(IllegalMove, match="no workshop marker for red"):
        _apply(s, 0, "C A01 red A1A2A3")


def test_claim_words_for_the_attribute():
    assert G.parse_move("C A03 sym B2C3D4") == Claim("A03", "amaru", (6, 12, 18))
    assert G.parse_move("C A03 colour B2C3D4") == Claim("A03", "yellow", (6, 12, 18))
    with pytest.raises(MalformedMove, match="^purple is not a colour or symbol"):
        G.parse_move("C A03 Purple B2C3D4")
    assert G.parse_move("x") == G.parse_move("REFRESH") == G.rules.Refresh()


def test_the_rules_help_says_the_grey_markers_by_player_count():
    """/rules said a grey marker stands for any colour but not how many there are: 2 with 4
    players, 1 with 3, none with 1 or 2 (DECISIONS.md, as the workshop is laid out); it says so,
    in English and Spanish."""
    from tests.support.sentences import ES

    greys = {n: G.new_game(G.Config(players=n), n, 5).markers.get("grey", 0) for n in range(1, 5)}
    assert greys == {1: 0, 2: 0, 3: 1, 4: 2}
    assert "grey, 2 with 4 players, 1 with 3, none with 1-2" in G.RULES_HELP
    assert "los grises, 2 con 4 jugadores, 1 con 3 y ninguno con 1-2" in " ".join(
        ES.gettext(G.RULES_HELP).split()
    )
