"""Scenario tests: one per rule of P'achakuna and per ruling applied."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter

import pytest

from engines import pachakuna as P
from engines.core import GameOver, IllegalMove, MalformedMove, NotYourTurn, SetupError, jsonable, said
from engines.pachakuna import data as D
from engines.pachakuna.rules import reachable
from tests.support.contract import assert_round_trip
from tests.support.sentences import ES

from .helpers import all_tiles, demands_all, fresh, give, play, put, set_demand

# --------------------------------------------------------------------------- board


def test_board_shape_and_numbering():
    """Board: hexagon of side 5, rows 5-6-7-8-9-8-7-6-5, fields 11..95."""
    assert len(D.CELLS) == 61
    assert [sum(1 for c in D.CELLS if c // 10 == r) for r in range(1, 10)] == [5, 6, 7, 8, 9, 8, 7, 6, 5]
    assert D.CELLS[0] == 11 and D.CELLS[-1] == 95 and 59 in D.CELLS and 69 not in D.CELLS


def test_seven_villages_with_their_colours():
    """Board: centre 55 white and the six corners coloured as the rulings say."""
    assert D.VILLAGES == {
        11: "yellow",
        15: "orange",
        59: "red",
        95: "purple",
        91: "blue",
        51: "green",
        55: "white",
    }
    assert len(D.TILE_CELLS) == 54


def test_corner_villages_have_three_sides_centre_six():
    """Villages are entered through 3 sides (corners) or 6 sides (centre)."""
    for v in D.VILLAGES:
        assert len(D.NEIGHBOURS[v]) == (6 if v == 55 else 3)


def test_neighbour_directions():
    """Edges are numbered clockwise from east: 0 E, 1 SE, 2 SW, 3 W, 4 NW, 5 NE."""
    assert dict(D.NEIGHBOURS[55]) == {0: 56, 1: 65, 2: 64, 3: 54, 4: 44, 5: 45}
    assert dict(D.NEIGHBOURS[33]) == {0: 34, 1: 44, 2: 43, 3: 32, 4: 22, 5: 23}
    assert dict(D.NEIGHBOURS[73]) == {0: 74, 1: 83, 2: 82, 3: 72, 4: 63, 5: 64}


@pytest.mark.parametrize("plan", ["A", "B"])
def test_plan_tile_counts_and_fairness(plan):
    """Tiles: 24 neutral (3 M), 15 mostly flat (2 M), 15 mostly mountainous (4 M); plans are fair."""
    tiles = D.PLANS[plan]
    assert set(tiles) == set(D.TILE_CELLS)
    assert Counter(code[0] for code in tiles.values()) == {"N": 24, "F": 15, "M": 15}
    assert D.is_fair(tiles)


def test_plan_a_layout_is_used():
    """Board option A sets up assembly plan A exactly."""
    s = fresh("A")
    assert s.tiles[12] == "M5" and s.tiles[13] == "F3" and s.tiles[14] == "M4"
    assert s.tiles[21] == "F4" and s.tiles[54] == "N0" and s.tiles[94] == "F0"
    assert s.tiles == D.PLANS["A"]


def test_plan_b_layout_is_used():
    """Board option B sets up assembly plan B exactly."""
    s = fresh("B")
    assert s.tiles[12] == "N4" and s.tiles[52] == "F1" and s.tiles[94] == "N4"
    assert s.tiles == D.PLANS["B"]


def test_mountain_edges_contiguous_arc():
    """A tile kind+rotation has its mountain edges at rot, rot+1, ... (one arc)."""
    assert D.mountain_mask("N0") == 0b000111
    assert D.mountain_mask("F5") == 0b100001
    assert D.mountain_mask("M3") == 0b111000 | 0b000001


def test_random_fair_board():
    """Option random: a fair board (180-degree turn swaps valley/mountain), right counts, from the seed."""
    a = fresh("random", seed=5)
    b = fresh("random", seed=5)
    c = fresh("random", seed=6)
    assert a.tiles == b.tiles and a.tiles != c.tiles
    for s in (a, c):
        assert D.is_fair(s.tiles)
        assert Counter(code[0] for code in s.tiles.values()) == {"N": 24, "F": 15, "M": 15}


# --------------------------------------------------------------------------- setup


def test_setup_llamas_brown_and_start_player():
    """Setup: each player one llama on 55 carrying white; Black gets the brown piece; White begins."""
    s = fresh()
    assert [(lm.seat, lm.id, lm.cell, lm.load) for lm in s.llamas] == [
        (0, 1, 55, "white"),
        (1, 1, 55, "white"),
    ]
    assert s.supply[1]["brown"] == 1 and P.rules.total(s.supply[0]) == 0
    assert P.to_move(s) == {0} and s.phase == "rotate"


def test_setup_demands_fit_and_no_white():
    """Setup: every village gets a demand not of its colour, and none with white."""
    for seed in range(60):
        s = fresh(seed=seed)
        for v, d in s.demands.items():
            big, small = D.demand_colours(d)
            assert D.VILLAGES[v] not in (big, small)
            assert "white" not in (big, small)
        assert demands_all(s) == sorted(D.DEMANDS)


def test_demands_are_42_ordered_pairs():
    """Demands: the 42 ordered pairs (big, small) of distinct colours."""
    assert len(D.DEMANDS) == 42 == len(set(D.DEMANDS))
    assert "RY" in D.DEMANDS and "YR" in D.DEMANDS and "RR" not in D.DEMANDS


def test_config_validation():
    """Config: exactly two players; seats must match."""
    with pytest.raises(SetupError, match="exactly 2"):
        P.new_game(P.Config(players=3), 3, 1)
    with pytest.raises(SetupError, match="seats"):
        P.new_game(P.Config(), 3, 1)
    with pytest.raises(SetupError, match="max_turns"):
        P.Config(max_turns=-1).validate()


# --------------------------------------------------------------------------- notation


@pytest.mark.parametrize(
    "text,canon",
    [
        ("r34+2", "r34+2"),
        ("R34 +2", "r34+2"),
        ("r34-1", "r34+5"),
        ("r34 3", "r34+3"),
        ("r34+2/YR", "r34+2/yr"),
        ("r34+2/ry", "r34+2/yr"),
        ("m1-56", "m1-56"),
        ("M 2 56", "m2-56"),
        ("m156", "m1-56"),
        ("m1>56", "m1-56"),
        ("s1", "s1"),
        (" S 2 ", "s2"),
        ("b1", "b1"),
        ("b3/wg", "b3/wg"),
        ("END", "end"),
        ("done", "end"),
    ],
)
def test_notation_round_trip(text, canon):
    """Notation: r34+2, m1-56, s1, b1, end; case-insensitive, spaces tolerated."""
    move = P.parse_move(text)
    assert str(move) == canon
    assert P.parse_move(str(move)) == move


@pytest.mark.parametrize("text", ["", "r34+9", "x", "r34+2/zz", "s", "r3+2", "b1/rr", "m1-5"])
def test_malformed_moves(text):
    """Bad notation is refused with an example of the right form."""
    with pytest.raises(MalformedMove) as exc:
        P.parse_move(text)
    assert "r34+2" in str(exc.value)


@pytest.mark.parametrize(
    ("text", "example"), [("m4-56", "m1-56"), ("m0 56", "m1-56"), ("s4", "s1"), ("b9/ry", "b1")]
)
def test_a_llama_number_past_three_is_refused_naming_the_llamas_there_are(text, example):
    """A player owns at most 3 llamas: 'm4-56' is told there is no llama 4 and how the llamas are
    numbered, not only that it is no P'achakuna move (the same words as for 'xyz')."""
    with pytest.raises(MalformedMove) as exc:
        P.parse_move(text)
    english = str(exc.value)
    assert "no llama" in english and "numbered 1 to 3" in english and example in english, english
    spanish = exc.value.said.in_words(ES)
    assert "del 1 al 3" in spanish and example in spanish, spanish


# --------------------------------------------------------------------------- paths


def test_white_walks_valleys_only():
    """Paths: white crosses an edge only when both facing edges are valley (all-F1 board: rows only)."""
    s = all_tiles(fresh(), "F1")  # valleys E, W, NW, NE
    assert reachable(s.tiles, 43, black=False) == {41, 42, 44, 45, 46, 47, 48}
    assert reachable(s.tiles, 33, black=False) == {31, 32, 34, 35, 36, 37}
    assert reachable(s.tiles, 33, black=True) == set()


def test_black_climbs_mountains_only():
    """Paths: black crosses only mountain/mountain edges (all-M0 board: rows only); white is walled in."""
    s = all_tiles(fresh(), "M0")  # mountains E, SE, SW, W
    assert reachable(s.tiles, 33, black=True) == {31, 32, 34, 35, 36, 37}
    assert reachable(s.tiles, 33, black=False) == set()


def test_a_refused_move_names_the_terrain_and_the_reachable_places():
    s = all_tiles(fresh(), "F1")
    put(s, 0, 1, 43, None)
    with pytest.raises(
        IllegalMove, match=r"^llama 1 cannot reach 33 from 43 through the valleys; it can reach 41, 42, 44"
    ):
        play(s, 0, "m1-33")
    s = all_tiles(fresh(), "F1")
    s = play(s, 0, "end")
    put(s, 1, 1, 43, None)
    with pytest.raises(IllegalMove, match=r"^llama 1 on 43 has no open path through the mountains; it stays"):
        play(s, 1, "m1-44")


def test_a_llama_with_no_open_path_stays_and_the_help_says_so():
    """A llama on a tile must move at least one tile, unless nothing is open to it: then it stays
    and the turn ends; the /rules help says so, in English and Spanish."""
    s = all_tiles(fresh(), "F1")
    s = play(s, 0, "end")
    put(s, 1, 1, 43, "red")  # Black's llama, walled in by valleys
    assert not P.rules.must_move(s, P.rules.llama(s, 1, 1))
    assert 1 not in P.to_move(play(s, 1, "end"))
    assert "or has no open path" in P.RULES_HELP
    assert "o esté encerrada" in ES.gettext(P.RULES_HELP)


def test_the_llama_acting_before_is_done_when_another_acts():
    s = all_tiles(fresh(), "F1")
    put(s, 0, 1, 43, None)
    put(s, 0, 2, 33, None)
    s = play(s, 0, "m1-44")
    assert s.active == 1 and P.rules.llama(s, 0, 1).stage == 1
    s = play(s, 0, "m2-34")
    assert s.active == 2 and P.rules.llama(s, 0, 1).stage == 3 and P.rules.llama(s, 0, 2).stage == 1


def test_any_distance_and_village_exits():
    """Paths: any distance along an unbroken path; the centre is left through matching tile edges."""
    s = all_tiles(fresh(), "M0")
    assert reachable(s.tiles, 55, black=True) == {51, 52, 53, 54, 56, 57, 58, 59} | set(range(41, 49))
    # white: only 64 and 65 show a valley edge (NE/NW) toward the centre
    assert reachable(s.tiles, 55, black=False) == {64, 65}


def test_llama_stops_at_first_village():
    """Paths: a llama stops in the first village it enters (55 blocks the way along row 5)."""
    s = all_tiles(fresh(), "M0")
    assert reachable(s.tiles, 52, black=True) == {51, 53, 54, 55}


def test_corner_village_entered_through_its_three_sides():
    """Paths: a corner village connects only through its 3 in-board neighbours' facing edges."""
    s = all_tiles(fresh(), "M0")
    assert reachable(s.tiles, 11, black=True) == {12, 13, 14, 15}
    assert 11 in reachable(s.tiles, 13, black=True)
    s.tiles[12] = "F0"  # 12's W edge is now valley: the way from 11 is shut
    assert reachable(s.tiles, 11, black=True) == set()


def test_llamas_never_block():
    """Paths: llamas never block each other; several may share a field."""
    s = _black_to_play(all_tiles(fresh(), "M0"))
    put(s, 1, 1, 41, "red")
    put(s, 0, 1, 43, "red")  # white llama in the way
    s2 = play(s, 1, "m1-48")
    assert P.rules.llama(s2, 1, 1).cell == 48
    s3 = play(s, 1, "m1-43")
    assert {lm.cell for lm in s3.llamas} == {43}


# --------------------------------------------------------------------------- rotation


def _black_to_play(s: P.State) -> P.State:
    s.turn = 1
    return s


def test_first_rotation_free_then_two_each():
    """Rotate: one tile free, each further tile costs 2 resources."""
    s = fresh()
    give(s, 0, red=3, blue=1)
    s, ev = P.apply_move(s, 0, P.parse_move("r36+2"))
    assert s.tiles[36] == "N2" and P.rules.total(s.supply[0]) == 4  # N0 + 2, free
    assert (ev[0].kind, ev[0].text) == ("rotate", "{p0} turned tile 36 two sixths clockwise")
    s, ev = P.apply_move(s, 0, P.parse_move("r34+1"))
    assert ev[0].text == "{p0} turned tile 34 one sixth clockwise, paying 2 resources"
    assert s.tiles[34] == "F0" and s.supply[0] == {**s.supply[0], "red": 1, "blue": 1}
    with pytest.raises(IllegalMove, match="name exactly 2"):
        play(s, 0, "r32+1")
    s = play(s, 0, "r32+1/rb")
    assert P.rules.total(s.supply[0]) == 0
    with pytest.raises(IllegalMove, match="you have only 0"):
        play(s, 0, "r31+1")


def test_rotation_is_clockwise_steps():
    """Rotate: r34+k adds k to the rotation (clockwise), r34-1 turns back one step."""
    s = fresh()
    assert s.tiles[36] == "N0"
    assert play(s, 0, "r36-1").tiles[36] == "N5"
    assert play(s, 0, "r36+4").tiles[36] == "N4"


def test_rotation_same_orientation_allowed_and_marked():
    """Ruling: turning to the same rotation (r34+0) is allowed and still gets a rock."""
    s = play(fresh(), 0, "r36+0", "end")
    assert s.tiles[36] == "N0" and s.rocks == [36]


def test_rotation_refused_under_llama():
    """Rotate: a tile with a llama (either player's) cannot turn."""
    s = fresh()
    put(s, 1, 1, 34, "red")
    with pytest.raises(IllegalMove, match="llama stands on tile 34"):
        play(s, 0, "r34+1")


def test_rotation_refused_on_opponent_rock_then_allowed_later():
    """Rocks: tiles the opponent turned last turn are closed to you this turn only."""
    s = all_tiles(fresh(), "M0")
    put(s, 0, 1, 55, "white")
    put(s, 1, 1, 55, "white")
    s = play(s, 0, "r34+1", "end")
    assert s.rocks == [34]
    with pytest.raises(IllegalMove, match="rock"):
        play(s, 1, "r34+2")
    s = play(s, 1, "r35+1", "end")  # black turns another tile; its rock replaces White's
    assert s.rocks == [35]
    s = play(s, 0, "r34+1")  # free again for White
    assert s.tiles[34] == "M2"


def test_turn_without_rotation_removes_rocks():
    """Rocks: all other rocks are removed; a turn without rotation leaves no rock."""
    s = fresh()
    s = play(s, 0, "r34+1", "end")
    s = play(s, 1, "end")
    assert s.rocks == []


def test_own_rocks_mark_all_tiles_turned_this_turn():
    """Rocks: every tile turned this turn gets a rock when the rotations end."""
    s = fresh()
    give(s, 0, brown=2)
    s = play(s, 0, "r34+1", "r33+1", "end")
    assert sorted(s.rocks) == [33, 34]


def test_same_tile_twice_refused():
    """Choice: a tile turns at most once per turn."""
    s = fresh()
    give(s, 0, brown=4)
    s = play(s, 0, "r34+1")
    with pytest.raises(IllegalMove, match="already turned"):
        play(s, 0, "r34+1")


def test_rotation_refused_on_village_or_off_board():
    """Rotate: only terrain tiles turn."""
    with pytest.raises(IllegalMove, match="village"):
        play(fresh(), 0, "r55+1")
    with pytest.raises(IllegalMove, match="no field"):
        play(fresh(), 0, "r69+1")


def test_rotation_after_llama_action_refused():
    """Turn order: rotations come before any llama action."""
    s = all_tiles(fresh(), "M0")
    s = play(s, 0, "m1-64")
    with pytest.raises(IllegalMove, match="rotations come first"):
        play(s, 0, "r34+1")


def test_payment_takes_loose_first_and_asks_for_cutouts():
    """Ruling: payments take loose pieces first; the player names the cut-out colours otherwise."""
    s = fresh()
    give(s, 0, red=2, blue=1, green=1)  # 1 loose (the second red)
    s = play(s, 0, "r34+1")
    with pytest.raises(IllegalMove, match=r"name exactly 1 .*\(you hold rbg\), e\.g\. /r\. "):
        play(s, 0, "r33+1")
    with pytest.raises(IllegalMove, match="name exactly 1"):
        play(s, 0, "r33+1/yr")
    with pytest.raises(IllegalMove, match="name exactly 1"):
        play(s, 0, "r33+1/y")  # yellow is not held
    s2 = play(s, 0, "r33+1/b")
    assert s2.supply[0]["red"] == 1 and s2.supply[0]["blue"] == 0 and s2.supply[0]["green"] == 1
    t = fresh()
    give(t, 0, red=3)
    t = play(t, 0, "r34+1")
    with pytest.raises(IllegalMove, match="leave out"):
        play(t, 0, "r33+1/r")


def test_brown_counts_as_a_loose_resource():
    """Brown is a resource for paying (and never a cut-out colour)."""
    s = _black_to_play(fresh())
    give(s, 1, brown=1, red=2)
    s = play(s, 1, "r34+1", "r33+1")
    assert s.supply[1] == {**s.supply[1], "brown": 0, "red": 1}


def test_first_rotation_free_refuses_payment():
    """Rotate: the free rotation takes no payment part."""
    s = fresh()
    give(s, 0, red=1)
    with pytest.raises(IllegalMove, match="free"):
        play(s, 0, "r34+1/r")


# --------------------------------------------------------------------------- moving


def test_llama_on_tile_must_move():
    """Move: a llama on a tile must move at least one tile; end is refused until it does."""
    s = all_tiles(fresh(), "M0")
    put(s, 0, 1, 34, "red")
    s.tiles[33] = "F1"
    s.tiles[34] = "F1"
    with pytest.raises(IllegalMove, match="must move"):
        play(s, 0, "end")
    assert P.End() not in P.legal_moves(s, 0)
    s = play(s, 0, "m1-33", "end")
    assert P.to_move(s) == {1}


def test_llama_on_village_may_rest():
    """Move: only llamas on villages may rest."""
    s = play(fresh(), 0, "end")
    assert P.rules.llama(s, 0, 1).cell == 55


def test_stuck_llama_may_stay():
    """Choice: a llama on a tile with no open path cannot move and need not."""
    s = all_tiles(fresh(), "M0")
    put(s, 0, 1, 33, "red")
    assert P.legal_moves(s, 0)[-1] == P.End()
    with pytest.raises(IllegalMove, match="no open path"):
        play(s, 0, "m1-34")
    s = play(s, 0, "end")
    assert P.to_move(s) == {1}


def test_move_refused_when_unreachable():
    """Move: the destination must be on an open path; the message lists reachable fields."""
    s = all_tiles(fresh(), "M0")
    with pytest.raises(IllegalMove, match="can reach 64, 65"):
        play(s, 0, "m1-34")


def test_move_destination_differs_from_start():
    """Choice: a llama's move ends on another field than its start."""
    s = all_tiles(fresh(), "M0")
    with pytest.raises(IllegalMove):
        play(s, 0, "m1-55")


def test_unknown_llama_refused():
    """Move: only your own llamas, by number."""
    with pytest.raises(IllegalMove, match="no llama 2"):
        play(fresh(), 0, "m2-64")


def test_llama_moves_once():
    """Move: a llama moves once per turn."""
    s = all_tiles(fresh(), "M0")
    s = play(s, 0, "m1-64")
    with pytest.raises(IllegalMove, match="finished|already"):
        play(s, 0, "m1-65")


def test_sell_without_moving_forbids_moving():
    """Yucata order: after selling a resting llama it cannot move any more."""
    s = fresh()
    set_demand(s, 55, "RY")
    put(s, 0, 1, 55, "red")
    s = play(s, 0, "s1")
    with pytest.raises(IllegalMove):
        play(s, 0, "m1-" + str(min(reachable(s.tiles, 55, False))))


def test_switching_llama_closes_the_previous_one():
    """Choice: acting with another llama ends the first one's actions."""
    s = all_tiles(fresh(), "M0")
    put(s, 1, 1, 52, "red")
    put(s, 1, 2, 12, "yellow")
    s.turn = 1
    set_demand(s, 51, "RY")
    s = play(s, 1, "m1-51", "m2-14")
    with pytest.raises(IllegalMove, match="finished"):
        play(s, 1, "s1")


# --------------------------------------------------------------------------- selling


def _at_village(load: str, village: int, demand: str | None) -> P.State:
    s = fresh()
    put(s, 0, 1, village, load)
    set_demand(s, village, demand)
    return s


def test_sell_big_flag_gives_two():
    """Sell (iii): the resource on the big flag gives 2 of it."""
    s = play(_at_village("red", 11, "RB"), 0, "s1")
    assert s.supply[0]["red"] == 2 and s.demands[11] is None and s.used == ["RB"]
    assert P.rules.llama(s, 0, 1).load is None


def test_sell_small_flag_gives_one():
    """Sell (ii): the resource on the small flag gives 1 of it."""
    s = play(_at_village("red", 11, "BR"), 0, "s1")
    assert s.supply[0]["red"] == 1 and s.supply[0]["blue"] == 0 and s.used == ["BR"]


def test_sell_unwanted_gives_nothing_but_removes_demand():
    """Sell (i): a resource not on the demand goes back for nothing; the demand still leaves."""
    s = play(_at_village("green", 11, "RB"), 0, "s1")
    assert P.rules.total(s.supply[0]) == 0 and s.demands[11] is None and s.used == ["RB"]


def test_unwanted_sale_is_optional():
    """Ruling: case (i) sales are optional (ending the turn keeps the load)."""
    s = play(_at_village("green", 11, "RB"), 0, "end")
    assert P.rules.llama(s, 0, 1).load == "green" and s.demands[11] == "RB"


def test_no_sale_of_village_colour():
    """Sell: a village does not buy its own colour."""
    with pytest.raises(IllegalMove, match="own colour"):
        play(_at_village("yellow", 11, "RB"), 0, "s1")


def test_one_sale_per_demand():
    """Sell: the demand leaves after a sale, so a village buys once per turn."""
    s = _at_village("red", 11, "RB")
    put(s, 0, 2, 11, "blue")
    s = play(s, 0, "s1")
    with pytest.raises(IllegalMove, match="no demand"):
        play(s, 0, "s2")


def test_sell_only_on_village():
    """Sell: only llamas standing on a village trade."""
    s = all_tiles(fresh(), "M0")
    s = play(s, 0, "m1-64")
    with pytest.raises(IllegalMove, match="not on a village"):
        play(s, 0, "s1")


def test_sell_twice_refused():
    """Sell: a llama sells once."""
    s = play(_at_village("red", 11, "RB"), 0, "s1")
    with pytest.raises(IllegalMove, match="already sold"):
        play(s, 0, "s1")


# --------------------------------------------------------------------------- buying


def test_buy_llama_costs_four_and_stands_on_village():
    """Buy: 4 resources for a llama of your colour placed on that village."""
    s = _at_village("red", 11, "RB")
    give(s, 0, white=3, blue=2)
    s = play(s, 0, "s1", "b1")
    new = P.rules.llama(s, 0, 2)
    assert new.cell == 11 and new.load is None and new.new
    assert s.supply[0] == {**s.supply[0], "white": 1, "blue": 1, "red": 1}
    assert (s.last, s.last_seat, s.turn_log) == ("b1", 0, ["s1", "b1"])
    assert P.rules.llama(s, 0, 1).stage == 3 and new.stage == 3  # the buyer's actions are spent
    assert s.active == 1
    with pytest.raises(IllegalMove, match="llama 1 has finished its actions this turn"):
        play(s, 0, "b1")  # one llama per purchase, though 5 resources and a free place remain


def test_buy_refused_without_four_resources():
    """Buy: you need 4 resources."""
    s = _at_village("red", 11, "RB")
    give(s, 0, white=3)
    with pytest.raises(IllegalMove, match="costs 4"):
        play(s, 0, "b1")


def test_buy_refused_at_three_llamas():
    """Buy: at most 3 llamas per player."""
    s = _at_village("red", 11, "RB")
    put(s, 0, 2, 15, "red")
    put(s, 0, 3, 91, "red")
    give(s, 0, white=9)
    with pytest.raises(IllegalMove, match="3 llamas"):
        play(s, 0, "b1")


def test_buy_only_on_village():
    """Buy: llamas are bought in villages."""
    s = all_tiles(fresh(), "M0")
    give(s, 0, white=9)
    s = play(s, 0, "m1-64")
    with pytest.raises(IllegalMove, match="only in villages"):
        play(s, 0, "b1")


def test_new_llama_waits_and_is_loaded_at_end():
    """Choice: a bought llama does not act this turn; refill loads it with the village colour."""
    s = _at_village("red", 11, "RB")
    give(s, 0, white=9)
    s = play(s, 0, "b1")
    with pytest.raises(IllegalMove, match="llama 2 was just bought; no llama may act any more; write end"):
        play(s, 0, "s2")
    s = play(s, 0, "end")
    assert P.rules.llama(s, 0, 2).load == "yellow"
    assert P.rules.llama(s, 0, 1).load == "red"  # it did not sell


def test_refusal_names_the_llamas_that_may_still_act():
    s = _at_village("red", 11, "RB")
    put(s, 0, 2, 15, "red")
    give(s, 0, white=9)
    s = play(s, 0, "b1")
    with pytest.raises(
        IllegalMove, match=r"llama 3 was just bought; llamas that may still act: 2\. Allowed now: end, s2$"
    ):
        play(s, 0, "s3")


def test_refusal_leaves_out_the_llama_acting_now_once_it_may_do_nothing_more():
    """A refusal lists only llamas that have a move left: llama 2, acting now on the tile it moved
    to, may neither sell nor buy there (it was listed, beside "Allowed now: end")."""
    s = _at_village("white", 59, "WG")
    put(s, 0, 2, 11, "red")
    s = play(s, 0, "s1", "m2-12")
    assert P.rules.llama(s, 0, 2).cell == 12 and P.legal_moves(s, 0) == [P.End()]
    with pytest.raises(
        IllegalMove,
        match=r"llama 1 has finished its actions this turn; no llama may act any more; write end\.",
    ):
        play(s, 0, "m1-48")


def test_buy_with_cutout_payment():
    """Ruling: the buyer names cut-out colours when loose pieces fall short."""
    s = _at_village("red", 11, "RB")
    give(s, 0, white=2, blue=1, green=1, yellow=1)  # 1 loose
    with pytest.raises(IllegalMove, match="name exactly 3"):
        play(s, 0, "b1")
    s = play(s, 0, "b1/ybg")
    assert s.supply[0] == {**s.supply[0], "white": 1, "blue": 0, "green": 0, "yellow": 0}


# --------------------------------------------------------------------------- refill


def test_refill_and_reload_at_end():
    """Refill: missing demands are drawn (fitting the village), sold llamas take the village colour."""
    s = play(_at_village("red", 11, "RB"), 0, "s1", "end")
    d = s.demands[11]
    assert d is not None and "Y" not in d
    assert P.rules.llama(s, 0, 1).load == "yellow"
    assert demands_all(s) == sorted(D.DEMANDS)


def test_refill_skips_unfit_demands():
    """Refill: a demand of the village's colour goes back; the next fitting one is used."""
    s = _at_village("red", 11, "RB")
    rest = [d for d in s.bag if d not in ("YR", "OP")]
    s.bag = ["YR", "OP"] + rest
    s = play(s, 0, "s1", "end")
    assert s.demands[11] == "OP" and s.bag[0] == "YR"


def test_recycle_when_no_valid_demand_left():
    """Refill: when the bag holds no fitting demand, the used ones go back and are reshuffled."""
    s = _at_village("red", 11, "RB")
    on_board = [d for d in s.demands.values() if d] + ["RB"]
    rest = [d for d in D.DEMANDS if d not in on_board]
    s.bag = [d for d in rest if "Y" in d]
    s.used = [d for d in rest if "Y" not in d]
    assert len(demands_all(s)) == 42
    s = play(s, 0, "s1", "end")
    assert s.recycles == 1 and s.used == []
    assert "Y" not in s.demands[11]
    assert demands_all(s) == sorted(D.DEMANDS)


def test_recycle_when_bag_empty():
    """Refill: an empty bag is refilled from the used demands."""
    s = _at_village("red", 11, "RB")
    s.used = s.used + s.bag
    s.bag = []
    s = play(s, 0, "s1", "end")
    assert s.demands[11] is not None and s.recycles == 1
    assert demands_all(s) == sorted(D.DEMANDS)


def test_used_demands_visible_bag_order_hidden():
    """Views: the drawn (used) demands are shown; the bag only as a count."""
    s = play(_at_village("red", 11, "RB"), 0, "s1")
    for seat in (0, 1, None):
        v = P.view_for(s, seat)
        assert v.used == ("RB",) and v.bag_count == len(s.bag)
        text = json.dumps(jsonable(v))
        assert 'bag"' not in text.replace("bag_count", "")


# --------------------------------------------------------------------------- winning


def test_seven_colours_win_at_once():
    """Win: the first player with all 7 colours wins immediately after the sale."""
    s = _at_village("red", 11, "RB")
    give(s, 0, white=1, orange=1, purple=1, blue=1, green=1, yellow=1)
    s2, events = P.apply_move(s, 0, P.parse_move("s1"))
    assert s2.winner == 0 and s2.phase == "over" and P.to_move(s2) == set()
    assert any(e.kind == "end" for e in events)
    out = P.outcome(s2)
    assert out.winners == (0,) and out.scores == (7.0, 0.0) and out.ranking == ((0,), (1,))
    held = {i: sum(s2.supply[i].values()) for i in (0, 1)}
    assert held[0] >= 8 and out.details == {"colours": {0: 7, 1: 0}, "resources": held}
    assert_round_trip(P, s2)
    with pytest.raises(GameOver):
        play(s2, 0, "end")


def test_the_second_player_can_win_too():
    s = fresh()
    s = play(s, 0, "end")
    put(s, 1, 1, 11, "red")
    set_demand(s, 11, "RB")
    give(s, 1, white=1, orange=1, purple=1, blue=1, green=1, yellow=1)
    s2, events = P.apply_move(s, 1, P.parse_move("s1"))
    assert s2.winner == 1 and events[-1].kind == "end" and "{p1}" in events[-1].text
    out = P.outcome(s2)
    assert out.ranking == ((1,), (0,)) and out.winners == (1,) and out.scores == (0.0, 7.0)
    assert_round_trip(P, s2)


def test_brown_and_loads_do_not_count():
    """Win: brown pieces and loads on llamas do not count."""
    s = _at_village("green", 11, "RB")
    give(s, 0, white=1, orange=1, purple=1, blue=1, yellow=1, brown=3)
    put(s, 0, 2, 15, "red")
    s = play(s, 0, "end")
    assert s.winner is None and P.outcome(s) is None


def test_turn_limit_option():
    """Option max_turns: the game stops; most colours wins, then most resources."""
    s = fresh(max_turns=2)
    give(s, 1, red=1, blue=1)
    give(s, 0, red=5)
    s = play(s, 0, "end")
    s = play(s, 1, "end")
    out = P.outcome(s)
    assert out is not None and out.winners == (1,) and "limit" in out.reason
    held = {i: sum(s.supply[i].values()) for i in (0, 1)}
    assert (
        held[0] >= 5 and out.details == {"colours": {0: 1, 1: 2}, "resources": held} and out.tiebreak is None
    )
    s = fresh(max_turns=2)
    give(s, 0, red=3)
    give(s, 1, blue=1)
    s = play(
        s,
        0,
        "end",
    )
    s = play(s, 1, "end")
    out = P.outcome(s)
    assert out.winners == (0,) and out.tiebreak == "resources"


# --------------------------------------------------------------------------- contract


def test_not_your_turn():
    """Turns alternate; the other seat is refused."""
    with pytest.raises(NotYourTurn, match="White"):
        play(fresh(), 1, "end")
    assert P.legal_moves(fresh(), 1) == []


def test_apply_move_does_not_mutate():
    """Contract: apply_move never changes its input."""
    s = _at_village("red", 11, "RB")
    give(s, 0, white=5)
    before = P.to_dict(s)
    for text in ("r34+1", "s1", "b1", "end"):
        P.apply_move(s, 0, P.parse_move(text))
        assert P.to_dict(s) == before
        s, _ = P.apply_move(s, 0, P.parse_move(text))
        before = P.to_dict(s)


def test_round_trip():
    """Contract: to_dict/from_dict round trip through JSON."""
    s = play(_at_village("red", 11, "RB"), 0, "r34+1", "s1")
    data = json.loads(json.dumps(P.to_dict(s)))
    assert P.to_dict(P.from_dict(data)) == P.to_dict(s)
    with pytest.raises(SetupError):
        P.from_dict({**data, "schema": 99})


def _all_candidates(s: P.State) -> list:
    out: list = [P.End()]
    for c in D.CELLS:
        for k in range(6):
            out.append(P.Rotate(c, k))
        for i in (1, 2, 3):
            out.append(P.MoveLlama(i, c))
    pays = ["w", "r", "b", "y", "wr", "rb", "wb", "wrb", "wrby"]
    for i in (1, 2, 3):
        out += [P.Sell(i), P.Buy(i)] + [P.Buy(i, p.upper()) for p in pays]
    for c in (12, 36, 94):
        out += [P.Rotate(c, 2, p.upper()) for p in pays]
    return out


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_legal_moves_match_apply_move(seed):
    """Contract: every listed move is accepted and unlisted moves are refused."""
    import random

    rng = random.Random(seed)
    s = fresh(seed=seed)
    if seed % 2:
        give(s, 0, white=3, red=2)
    else:
        give(s, 0, white=1, red=1, blue=1, green=1)
        give(s, 1, white=2, red=1, blue=1, brown=1)
    for _ in range(40):
        seat = s.turn
        legal = P.legal_moves(s, seat)
        listed = set(legal)
        for m in _all_candidates(s):
            if m in listed:
                P.apply_move(s, seat, m)
            else:
                with pytest.raises(IllegalMove):
                    P.apply_move(s, seat, m)
        s, _ = P.apply_move(s, seat, P.computer_move(P.view_for(s, seat), legal, rng))
        if P.outcome(s):
            break


def _listed_one_by_one(s: P.State, seat: int) -> list:
    """The legal moves written out rule by rule, one move at a time: each rotatable tile's six
    turns with each payment, then each llama's moves, sale and purchases, then the end."""
    if s.phase == "over" or seat != s.turn:
        return []
    out: list = []
    sup = s.supply[seat]
    if s.phase == "rotate":
        pays = P.rules.pay_options(sup, P.rules.rotation_cost(s))
        out += [P.Rotate(c, k, p) for c in P.rules.rotatable(s) for k in range(6) for p in pays]
    own = P.rules.own_llamas(s, seat)
    for lm in own:
        if not P.rules.can_act(s, lm):
            continue
        if lm.stage == 0:
            out += [P.MoveLlama(lm.id, c) for c in sorted(reachable(s.tiles, lm.cell, seat == 1))]
        if lm.cell in D.VILLAGES:
            if lm.stage <= 1 and P.rules._sell_problem(s, lm) is None:
                out.append(P.Sell(lm.id))
            if lm.stage <= 2 and len(own) < D.MAX_LLAMAS:
                out += [P.Buy(lm.id, p) for p in P.rules.pay_options(sup, D.LLAMA_PRICE)]
    if not any(P.rules.must_move(s, lm) for lm in own):
        out.append(P.End())
    return out


def _hint_of(legal: list):
    """What a refusal allows, read from the whole list of legal moves: its first tile turn that
    turns the tile, then its other moves, ends first, then sales, purchases and llama moves, ten
    at most."""
    turns = [m for m in legal if isinstance(m, P.Rotate) and m.steps]
    rank = {P.End: 0, P.Sell: 1, P.Buy: 2, P.MoveLlama: 3}
    others = [
        str(m) for m in sorted((m for m in legal if not isinstance(m, P.Rotate)), key=lambda m: rank[type(m)])
    ]
    others = others[:10] + ["..."] if len(others) > 10 else others
    moves = ", ".join(others)
    if turns and others:
        return said("Allowed now: tile turns such as {turn}, {moves}", turn=str(turns[0]), moves=moves)
    if turns:
        return said("Allowed now: tile turns such as {turn}", turn=str(turns[0]))
    return said("Allowed now: {moves}", moves=moves)


# supplies whose rotations are paid from loose pieces, or by naming one or two of 1 to 7 colours
SUPPLIES = [
    {},
    {"brown": 1, "red": 1},
    {"white": 1, "red": 1, "blue": 1, "green": 1},
    {"white": 1, "yellow": 1, "orange": 1, "red": 1, "purple": 1, "blue": 1, "green": 1},
    {"white": 2, "red": 1, "blue": 1},
    {"white": 3, "red": 2, "brown": 1},
]


@pytest.mark.parametrize(("board", "seed"), [("A", 41), ("random", 42)])
def test_the_legal_moves_and_a_refusals_hint_are_the_moves_listed_one_by_one(board, seed):
    """Along a seeded game, with supplies that pay for a turn in every way: legal_moves is the
    list written out one move at a time (each turn with each payment), and a refusal names the
    first turn and the other moves of that list, though it does not build it."""
    import random

    rng = random.Random(seed)
    s = fresh(board, seed)
    payments: Counter[int] = Counter()
    for _step in range(90):
        if P.outcome(s) is not None:
            break
        seat = s.turn
        for supply in SUPPLIES:
            other = P.rules._copy(s)
            give(other, seat, **{k: supply.get(k, 0) for k in D.SUPPLY_KINDS})
            legal = P.legal_moves(other, seat)
            assert legal == _listed_one_by_one(other, seat)
            assert P.rules._hint(other, seat) == _hint_of(legal)
            payments[len({m.pay for m in legal if isinstance(m, P.Rotate)})] += 1
        legal = P.legal_moves(s, seat)
        s, _ = P.apply_move(s, seat, P.computer_move(P.view_for(s, seat), legal, rng))
    assert {0, 1, 3, 6, 21} <= set(payments), payments  # no turn; free or loose; one of 3; two of 4 or 7


def test_a_copied_state_has_every_field_and_shares_nothing_that_changes():
    """The copy apply_move works on: every field of the state, equal, and no list, dict or llama
    shared with the state it was copied from."""
    s = play(fresh("B", 3), 0, "r34+1", "m1-" + str(min(reachable(fresh("B", 3).tiles, 55, False))))
    s.recycles, s.winner, s.end_reason, s.used = 1, 0, "why", ["RY"]
    s.prev_log, s.prev_cells, s.prev_routes = ["end"], [12], [[12, 13]]
    s.turn, s.turn_number, s.active, s.last_seat = 1, 7, 2, 1
    copy = P.rules._copy(s)
    for f in dataclasses.fields(P.State):
        value = getattr(s, f.name)
        assert getattr(copy, f.name) == value, f.name
        if f.default is not dataclasses.MISSING:
            assert value != f.default, f.name  # a field the copy left out would show its default
        elif f.default_factory is not dataclasses.MISSING:
            assert value != f.default_factory(), f.name
        if isinstance(value, (list, dict)):
            assert getattr(copy, f.name) is not value, f.name
    assert all(a is not b for a, b in zip(copy.llamas, s.llamas, strict=True))
    assert all(a is not b for a, b in zip(copy.supply, s.supply, strict=True))
    assert all(a is not b for a, b in zip(copy.turn_routes, s.turn_routes, strict=True))
    assert all(a is not b for a, b in zip(copy.prev_routes, s.prev_routes, strict=True))


def test_views_and_help():
    """Contract: views are plain JSON; the help stays under 1800 characters."""
    s = fresh()
    v = P.view_for(s, None)
    json.dumps(jsonable(v))
    assert v.seat is None and v.turn == 0 and v.phase == "rotate"
    assert len(P.RULES_HELP) <= 1800
    assert P.TITLE == "P'achakuna" and P.MIN_PLAYERS == P.MAX_PLAYERS == 2


def test_events_name_seats():
    """Events: sentences naming seats as {p0}/{p1}."""
    _, events = P.apply_move(_at_village("red", 11, "RB"), 0, P.parse_move("s1"))
    assert events[0].text == "{p0} sold red at village 11 and gained 2 red"


def test_computer_move_uses_view_and_prefers_sales():
    """Computer: picks a paying sale over ending the turn."""
    import random

    s = _at_village("red", 11, "RB")
    s.phase = "llamas"
    legal = P.legal_moves(s, 0)
    move = P.computer_move(P.view_for(s, 0), legal, random.Random(1))
    assert move == P.Sell(1)


def test_llama_route_is_public_in_the_view():
    """View: each llama move's road is kept for the turn, then shown for the previous turn."""
    s = all_tiles(fresh(), "M0")
    put(s, 0, 1, 34, "red")
    s.tiles[33] = "F1"
    s.tiles[34] = "F1"
    s1 = play(s, 0, "m1-33")
    assert P.view_for(s1, None).routes == ((34, 33),)
    s2 = play(s1, 0, "end")
    assert P.view_for(s2, 1).routes == ((34, 33),)  # the previous turn's, until the next move
    for a, b in zip(s1.turn_routes[0], s1.turn_routes[0][1:], strict=False):
        assert b in dict(D.NEIGHBOURS[a]).values()
    assert P.from_dict(json.loads(json.dumps(P.to_dict(s2)))).prev_routes == [[34, 33]]


def test_route_follows_open_roads():
    """route() walks only through edges open on both sides and ends where asked."""
    s = fresh()
    for start, black in ((55, False), (34, False), (55, True), (64, True)):
        for end in sorted(reachable(s.tiles, start, black)):
            path = P.rules.route(s.tiles, start, end, black)
            assert path[0] == start and path[-1] == end
            assert all(c not in D.VILLAGES for c in path[1:-1])
            assert all(b in dict(D.NEIGHBOURS[a]).values() for a, b in zip(path, path[1:], strict=False))
            for a, b in zip(path, path[1:], strict=False):
                d = next(d for d, n in D.NEIGHBOURS[a] if n == b)
                assert a in D.VILLAGES or P.rules.open_mask(s.tiles[a], black) >> d & 1
                assert b in D.VILLAGES or P.rules.open_mask(s.tiles[b], black) >> (d + 3) % 6 & 1


def test_end_of_turn_tells_the_new_demands_and_the_reloads():
    s = _at_village("red", 11, "RB")
    give(s, 0, white=9)
    s = play(s, 0, "s1")
    s, ev = P.apply_move(s, 0, P.parse_move("b1"))
    assert [e.kind for e in ev] == ["buy"] and ev[0].text == "{p0} bought llama 2 at village 11"
    s, ev = P.apply_move(s, 0, P.parse_move("end"))
    kinds = [e.kind for e in ev]
    assert kinds[0] == "end_turn" and "refill" in kinds and kinds.index("refill") < kinds.index("reload")
    refill = ev[kinds.index("refill")]
    assert s.demands[11] and refill.text.startswith("new demands: 11 (")
    reload = ev[kinds.index("reload")]
    assert reload.text == "{p0} reloads: llama 1 takes yellow at 11, llama 2 takes yellow at 11"


def test_the_seed_shuffles_the_demands():
    """Each game's seed draws its own demand bag (and the same seed the same one)."""
    bags = {tuple(fresh(seed=seed).bag) for seed in range(6)}
    assert len(bags) == 6 and fresh(seed=3).bag == fresh(seed=3).bag
    assert len({tuple(sorted(fresh(seed=seed).demands.items())) for seed in range(6)}) > 1


def test_end_words():
    assert {P.parse_move(t) for t in ("end", "Done", " PASS ", "e")} == {P.End()}


@pytest.mark.parametrize("free", [20, 21])
def test_rotation_refusal_lists_at_most_twenty_tiles(free):
    """A refused rotation names the tiles that may still turn: all of them up to 20, then the first
    20 and "..." for the rest (the player can pay for another turn)."""
    s = fresh()
    give(s, 0, white=3)
    open_tiles = P.rules.rotatable(s)
    s.rotated = open_tiles[: len(open_tiles) - free]
    left = open_tiles[len(open_tiles) - free :]
    assert P.rules.rotatable(s) == left
    with pytest.raises(IllegalMove) as err:
        play(s, 0, f"r{s.rotated[0]}+1")
    listed = str(err.value).split("tiles you may turn: ")[1].split(" Allowed now")[0]
    assert listed == ", ".join(map(str, left[:20])) + (", ..." if free > 20 else ".")


@pytest.mark.parametrize("why", ["turned", "llama", "rock"])
def test_a_refusal_whose_tile_list_is_cut_ends_in_one_ellipsis(why):
    """A refusal that lists the tiles that may turn, cut after 20, ends its sentence with the
    list's ellipsis alone ("46, ... Allowed now"), never "46 ...." (the ellipsis and then the
    sentence's full stop), in English and in Spanish; an uncut list ends with a full stop."""
    from languages import ENGLISH, language

    for free in (21, 20):
        s = fresh()
        give(s, 0, white=3)
        s = play(s, 0, "r12+1")
        tile = {"turned": 12, "llama": 44, "rock": 13}[why]
        s.rocks = [13]
        put(s, 0, 1, 44)
        open_tiles = P.rules.rotatable(s)
        s.rotated += open_tiles[: len(open_tiles) - free]
        assert len(P.rules.rotatable(s)) == free
        with pytest.raises(IllegalMove) as err:
            play(s, 0, f"r{tile}+1")
        for reader, allowed in ((ENGLISH, "Allowed now"), (language("es"), "Jugadas posibles ahora")):
            text = err.value.said.in_words(reader)
            listed = text.split(": ", 1)[1].split(allowed)[0]
            assert "...." not in text and ". ." not in text, text
            if free > 20:
                assert listed.endswith(", ... ") and listed.count("...") == 1, text
            else:
                assert listed.endswith(". ") and "..." not in listed, text


@pytest.mark.parametrize("steps", range(6))
def test_a_turn_reads_the_same_in_the_menu_and_in_the_post(steps: int):
    """The menu's label and the post's sentence name a rotation with the same words,
    direction included, in English and in Spanish."""
    from engines.core import say
    from languages import ENGLISH, language

    s = fresh()
    move = P.parse_move(f"r36+{steps}")
    words = P.move_words(s, 0, move)
    _, ev = P.apply_move(s, 0, move)
    for reader in (ENGLISH, language("es")):
        turn = words.args["steps"].in_words(reader)
        assert turn in say(P.WORDS, words.text, words.args, reader)
        assert ev[0].said is not None and turn in ev[0].said.in_words(reader)
    english = words.args["steps"].in_words(ENGLISH)
    assert english in ("not at all (it still counts as turned)", "half a turn") or "clockwise" in english
