"""Scenario tests: one per rule of the rulebook and per ruling."""

from __future__ import annotations

import json
import re

import pytest

import engines.tiwanaku as T
import renderers.tiwanaku as render_tiwanaku
from engines.core import (
    GameOver,
    IllegalMove,
    MalformedMove,
    NotYourTurn,
    SetupError,
    config_from_options,
    jsonable,
)
from engines.tiwanaku.rules import DIVINING, FINAL, OVER, BoardSize
from languages import ENGLISH
from tests.support.sentences import ES

from .helpers import cell, cultivate, discover, fixed, play, put, texts

# --------------------------------------------------------------------------- setup


def test_player_counts_and_board_sizes():
    """Setup: 1-4 players; 1-2 play short or long, 3-4 always long (5 x 9)."""
    assert T.Config(players=1).cols == 5 and T.Config(players=2).cols == 5
    assert T.Config(players=2, board=BoardSize.LONG).cols == 9
    assert T.Config(players=3).cols == 9 and T.Config(players=4).cols == 9
    with pytest.raises(SetupError, match="short 5 x 5 board is for 1 or 2"):
        T.Config(players=3, board=BoardSize.SHORT).validate()
    with pytest.raises(SetupError, match="1 to 4 players"):
        T.Config(players=5).validate()
    with pytest.raises(SetupError, match="seats"):
        T.new_game(T.Config(players=2), 3, 1)
    cfg = config_from_options(T.Config, 2, {"board": "long"})
    assert cfg.cols == 9


@pytest.mark.parametrize("players,explorers", [(1, 5), (2, 5), (3, 4), (4, 3)])
def test_explorers_per_player(players, explorers):
    """Ruling: 5 / 5 / 4 / 3 explorers each for 1 / 2 / 3 / 4 players, all starting off the board."""
    s = T.new_game(T.Config(players=players), players, 7)
    assert s.reserve == [explorers] * players
    assert all(e == -1 for e in s.explorer)


@pytest.mark.parametrize("players,revealed", [(1, 3), (2, 3), (3, 6), (4, 6)])
def test_revealed_cells_and_terrain_totals(players, revealed):
    """Ruling: 3 cells revealed (terrain and crop) on 5 x 5, 6 on 5 x 9; terrain totals are public."""
    s = T.new_game(T.Config(players=players), players, 3)
    v = T.view_for(s, None)
    assert sum(c is not None for c in v.crops) == revealed
    assert sum(t is not None for t in v.terrain) == revealed
    assert sum(v.terrain_totals.values()) == 5 * s.cols
    for t, k in v.terrain_totals.items():
        assert k == s.terrain.count(t)


def test_hidden_map_not_in_views():
    """The disc never leaves the engine: views show only discovered terrain and planted crops."""
    s = fixed()
    for seat in (None, 0, 1):
        v = T.view_for(s, seat)
        assert [t for t in v.terrain if t is not None] == ["M", "M", "F"]
        assert sorted(c for c in v.crops if c is not None) == [1, 4, 5]
        data = json.dumps(jsonable(v))
        assert 'crops": [null, null, 5, 1' in data.replace(" ", " ")


# --------------------------------------------------------------------------- explore / move


def test_enter_on_edge_explores_and_takes_cube():
    """Explore: an explorer enters on a free edge cell, discovers its terrain and takes that cube."""
    s = fixed()
    s2, ev = play(s, 0, "+C1")
    assert s2.discovered[cell("C1")] and s2.explorer[cell("C1")] == 0
    assert s2.cubes[0] == [1, 0, 0, 0]  # swamp
    assert s2.reserve[0] == 4
    assert "discovers swamp" in texts(ev)
    assert s2.turn == 1  # one action per turn


def test_enter_refused_off_edge_or_occupied():
    """Entering: only free edge cells; the message lists the allowed ones."""
    s = fixed()
    with pytest.raises(IllegalMove, match="C3 is not on the edge; you may enter on the free edge cells A1"):
        play(s, 0, "+C3")
    put(s, 1, "A1")
    with pytest.raises(IllegalMove, match="A1 is occupied"):
        play(s, 0, "+A1")


def test_enter_refused_without_reserve():
    """Entering needs an explorer off the board."""
    s = fixed()
    put(s, 0, "A1", "A2", "B1", "B2", "C1")
    with pytest.raises(IllegalMove, match="all your explorers are on the board") as refused:
        play(s, 0, "+E5")
    # what is open instead, each with a move of this position (not a fixed B3-C3 or B3-out)
    told = refused.value.said.in_words()
    assert "now you may: move or explore (" in told and "take an explorer off (" in told
    for example in re.findall(r"\(([^()]+)\)", told.split("now you may: ")[1]):
        assert example in {str(m) for m in T.legal_moves(s, 0)}, example


def test_step_one_orthogonal_cell():
    """Movement: one orthogonal step; diagonal or far cells are refused."""
    s = fixed()
    put(s, 0, "C1")
    discover(s, "C1")
    s2, ev = play(s, 0, "C1-C2")
    assert s2.explorer[cell("C2")] == 0 and s2.explorer[cell("C1")] == -1
    assert s2.cubes[0] == [0, 1, 0, 0]
    with pytest.raises(IllegalMove, match="cannot stop on D2; it can reach B1, C2, D1"):
        play(s, 0, "C1-D2")


def test_path_over_own_explorers_and_cultivated_tiles():
    """Movement: own explorers and cultivated tiles form a path of any length."""
    s = fixed()
    put(s, 0, "B1", "B2")
    cultivate(s, "B3")
    # from B1 over own B2 and cultivated B3 (and A3/A4 start tiles) to B4, C3, A5...
    s2, _ = play(s, 0, "B1-B4")
    assert s2.explorer[cell("B4")] == 0
    dests = T.rules.destinations(s, 0, cell("B1"))
    names = {T.board.cell_name(c, 5) for c in dests}
    assert {"A1", "C1", "A2", "C2", "B3", "A3", "A4", "B4", "C3", "A5"} <= names
    assert "B2" not in names  # cannot stop on own explorer


def test_path_never_over_opponent():
    """Movement: an opponent's explorer blocks, even on a cultivated tile; one explorer per cell."""
    s = fixed()
    put(s, 0, "B2")
    put(s, 1, "A3")  # cultivated start tile occupied by opponent
    dests = {T.board.cell_name(c, 5) for c in T.rules.destinations(s, 0, cell("B2"))}
    assert "A3" not in dests and "A4" not in dests
    with pytest.raises(IllegalMove, match="cannot stop on A4"):
        play(s, 0, "B2-A4")


def test_move_onto_discovered_tile_takes_no_cube():
    """Move: stopping on a discovered tile discovers nothing and gives no cube."""
    s = fixed()
    put(s, 0, "B2")
    s2, ev = play(s, 0, "B2-A2")
    assert s2.cubes[0] == [0, 0, 1, 0]  # A2 was hidden: explore, mountain
    s3 = fixed()
    put(s3, 0, "B2")
    discover(s3, "A2")
    s4, ev = play(s3, 0, "B2-A2")
    assert s4.cubes[0] == [0, 0, 0, 0]
    assert "moves from B2 to A2" in texts(ev) and "discovers" not in texts(ev)


def test_leave_board_is_an_action():
    """Leaving: any explorer may leave the board, which is the turn's action."""
    s = fixed()
    put(s, 0, "C3")
    s2, ev = play(s, 0, "C3-out")
    assert s2.explorer[cell("C3")] == -1 and s2.reserve[0] == 5 and s2.turn == 1
    with pytest.raises(IllegalMove, match="no explorer on C4"):
        play(s, 0, "C4-out")


# --------------------------------------------------------------------------- cubes and offerings


def test_fifth_cube_refused():
    """Ruling: at most 4 cubes; a 5th is not taken."""
    s = fixed()
    s.cubes[0] = [2, 2, 0, 0]
    s2, ev = play(s, 0, "+C1")
    assert s2.cubes[0] == [2, 2, 0, 0]
    assert "not taken" in texts(ev)


def test_trade_two_for_one():
    """Exchange: 2 cubes for 1 of any terrain, before the action; the turn goes on."""
    s = fixed()
    s.cubes[0] = [2, 1, 0, 0]
    s2, ev = play(s, 0, "ss>f")
    assert s2.cubes[0] == [0, 1, 0, 1] and s2.turn == 0
    with pytest.raises(
        IllegalMove,
        match="you hold two swamp cubes and a desert cube; you cannot give a mountain cube and a forest cube",
    ):
        play(s, 0, "MF>S")
    s3, _ = play(s, 0, "DS>M")
    assert s3.cubes[0] == [1, 0, 1, 0]


def test_offering_extra_action():
    """Offering: 4 different cubes buy one extra action right away."""
    s = fixed()
    s.cubes[0] = [1, 1, 1, 1]
    s2, ev = play(s, 0, "extra")
    assert s2.cubes[0] == [0, 0, 0, 0] and s2.actions_left == 2
    s3, _ = play(s2, 0, "+C1")
    assert s3.turn == 0 and s3.actions_left == 1
    s4, _ = play(s3, 0, "+E1")
    assert s4.turn == 1


def test_offering_needs_four_different_cubes():
    """Offering: refused without one cube of each terrain."""
    s = fixed()
    s.cubes[0] = [2, 1, 1, 0]
    with pytest.raises(IllegalMove, match="one cube of each terrain"):
        play(s, 0, "extra")
    with pytest.raises(IllegalMove, match="one cube of each terrain"):
        play(s, 0, "peek:C3")


def test_peek_terrain_is_private():
    """Offering: a peek shows a hidden space's terrain to that player only, and the view keeps it."""
    s = fixed()
    s.cubes[0] = [1, 1, 1, 1]
    s2, ev = play(s, 0, "peek:C2")
    (e,) = ev
    assert e.visible_to == frozenset({0}) and "desert under C2" in e.text
    assert "C2" not in e.public_text and "desert" not in e.public_text
    assert T.view_for(s2, 0).peeks == {cell("C2"): "D"}
    assert T.view_for(s2, 1).peeks == {} and T.view_for(s2, None).peeks == {}
    # the last move's notation names the cell to the peeker only
    assert T.view_for(s2, 0).last == "peek:C2"
    assert T.view_for(s2, 1).last == "peek" and T.view_for(s2, None).last == "peek"
    assert T.view_for(s2, None).last_cells == ()
    assert s2.turn == 0 and s2.actions_left == 1  # still has the action
    s3, _ = play(s2, 0, "+E1")
    s4, _ = play(s3, 1, "+E5")
    assert T.view_for(s4, 0).peeks == {cell("C2"): "D"}  # kept across turns


def test_peek_crop_of_discovered_tile():
    """Offering: a peek at a discovered tile shows its crop; cultivated tiles are refused."""
    s = fixed()
    discover(s, "C2")
    s.cubes[0] = [1, 1, 1, 1]
    s2, ev = play(s, 0, "peek:C2")
    assert T.view_for(s2, 0).peeks == {cell("C2"): "3"}
    with pytest.raises(IllegalMove, match="already cultivated"):
        play(s, 0, "peek:A3")


def test_every_peek_counts_in_public_a_cell_looked_at_twice_too():
    """Ruling: the others never learn which space was peeked, so the count they see goes up at
    every peek, a second look at the same cell too (its terrain, then its crop); the peeker
    keeps what they saw."""
    s = fixed()
    s.cubes[0] = [1, 1, 1, 1]
    s, _ = play(s, 0, "peek:C1")
    s, _ = play(s, 0, "+C1")
    s, _ = play(s, 1, "+E5")
    s.cubes[0] = [1, 1, 1, 1]
    s, _ = play(s, 0, "peek:C1")
    assert [T.view_for(s, seat).peek_counts for seat in (None, 0, 1)] == [(2, 0)] * 3
    assert T.view_for(s, 0).peeks == {cell("C1"): "2"}
    assert T.view_for(s, 1).peeks == {}
    assert T.from_dict(json.loads(json.dumps(T.to_dict(s)))).peek_counts == [2, 0]


def _after_a_right_guess(cubes):
    """Seat 0 guessed C2 right and may go on with its explorer on C3."""
    s = fixed()
    put(s, 0, "C2", "C3")
    discover(s, "C2", "C3")
    s.cubes[0] = cubes
    s2, _ = play(s, 0, "C2=3")
    return s2


def test_peek_between_divinations_guides_the_next_guess():
    """Ruling: after a right guess, while more guesses may follow, an offering may buy a peek;
    the run of divinations goes on and the turn ends after the last guess."""
    s2 = _after_a_right_guess([1, 1, 1, 1])
    assert s2.phase == DIVINING
    legal = {str(m) for m in T.legal_moves(s2, 0)}
    assert {"extra", "peek:C3", "SD>M", "done", "C3=1"} <= legal
    s3, ev = play(s2, 0, "peek:C3")
    assert (
        ev[0].kind == "peek" and ev[0].text == "{p0} makes an offering and sees crop 1 under C3 on the disc"
    )
    assert T.view_for(s3, 0).peeks == {cell("C3"): "1"} and s3.cubes[0] == [0, 0, 0, 0]
    assert s3.phase == DIVINING and s3.turn == 0
    s4, _ = play(s3, 0, "C3=1")
    assert s4.correct[0] == 2 and s4.turn == 1 and s4.phase == "action"


def test_extra_action_bought_between_divinations():
    """Ruling: an extra action bought during a run of divinations follows it."""
    s2 = _after_a_right_guess([1, 1, 1, 1])
    s3, ev = play(s2, 0, "extra")
    assert ev[0].kind == "offering" and s3.actions_left == 2 and s3.phase == DIVINING
    s4, ev = play(s3, 0, "done")
    assert [(e.kind, e.text) for e in ev] == [("move", "{p0} stops divining")]
    assert (s4.turn, s4.phase, s4.actions_left) == (0, "action", 1)
    with pytest.raises(
        IllegalMove, match="pass is only for the final divinations; say done to stop divining"
    ):
        play(s3, 0, "pass")
    s5, _ = play(s4, 0, "+E1")
    assert s5.turn == 1


def test_trade_after_a_right_guess():
    """Ruling: trades are open after a right guess too; the run of divinations goes on."""
    s2 = _after_a_right_guess([2, 1, 0, 0])
    s3, ev = play(s2, 0, "SS>F")
    assert s3.cubes[0] == [0, 1, 0, 1] and s3.phase == DIVINING and s3.turn == 0
    assert ev[0].kind == "cubes"
    assert "done" in {str(m) for m in T.legal_moves(s3, 0)}


def test_trades_and_peeks_in_the_final_round():
    """Ruling: on one's turn in the final divinations a player may trade and peek, but an extra
    action has nothing to buy."""
    s = fixed()
    s.discovered = [True] * 25
    put(s, 0, "C2")
    s.phase, s.turn, s.actions_left, s.final_starter = FINAL, 0, 0, 0
    s.cubes[0] = [1, 1, 1, 2]
    legal = {str(m) for m in T.legal_moves(s, 0)}
    assert {"peek:C2", "FF>S", "pass", "C2=3"} <= legal and "extra" not in legal
    with pytest.raises(IllegalMove, match="no actions to buy"):
        play(s, 0, "extra")
    s2, _ = play(s, 0, "peek:C2")
    assert T.view_for(s2, 0).peeks == {cell("C2"): "3"} and s2.phase == FINAL and s2.turn == 0
    s3, _ = play(s2, 0, "C2=3")
    assert s3.correct[0] == 1


# --------------------------------------------------------------------------- divination


def test_correct_divination_scores_and_continues():
    """Divination: a right guess plants the crop, scores its value plus diversity, and may go on."""
    s = fixed()
    put(s, 0, "C2", "C3", "E1")
    discover(s, "C2", "C3", "E1")
    s2, ev = play(s, 0, "C2=3")
    assert s2.cultivated[cell("C2")] and s2.scores[0] == 3 + 1
    assert s2.scales[0] == [0, 0, 1, 0, 0]
    assert s2.phase == DIVINING and s2.turn == 0
    legal = {str(m) for m in T.legal_moves(s2, 0)}
    assert "done" in legal and "C3=1" in legal and "C2=3" not in legal
    s3, _ = play(s2, 0, "C3=1")
    assert s3.scores[0] == 4 + 1 + 2  # second stone at level 1
    s4, _ = play(s3, 0, "done")
    assert s4.turn == 1 and s4.correct[0] == 2


def test_divination_run_ends_when_no_explorer_left():
    """Divination: after right guesses on every explorer the action ends by itself."""
    s = fixed()
    put(s, 0, "C2")
    discover(s, "C2")
    s2, _ = play(s, 0, "C2=3")
    assert s2.turn == 1 and s2.phase == "action"


def test_after_the_last_right_guess_an_offering_may_still_buy_an_action():
    """Ruling: offerings are open after a right guess, the last one too.  With nothing left to
    divine on the turn's last action, a player holding one cube of each terrain may buy an action
    (and play it), peek, trade or say done; the turn lasts until one of them leaves nothing to buy
    with.  Without such cubes the turn passes at once (the test above)."""
    s = fixed()
    put(s, 0, "C2")
    discover(s, "C2")
    s.cubes[0] = [1, 1, 1, 1]
    s2, _ = play(s, 0, "C2=3")
    assert (s2.turn, s2.phase, s2.correct[0]) == (0, DIVINING, 1)
    legal = {str(m) for m in T.legal_moves(s2, 0)}
    assert {"extra", "done", "SD>M"} <= legal and not any("=" in m for m in legal), legal
    # the picture and the words say what is left: not "guess again"
    view = T.view_for(s2, None)
    assert not view.may_divine_again and T.view_for(_after_a_right_guess([0] * 4), None).may_divine_again
    header = render_tiwanaku._header(view, ["Ana", "Bo"], None)
    assert "".join(text for text, _ in header.status).endswith("guessed right: an offering, a trade or done")
    turn = T.describe(view)[0].lines[0].in_words()
    assert turn == "{p0} to play after a right guess: an offering, a trade, or stop", turn
    bought, ev = play(s2, 0, "extra")
    assert ev[0].kind == "offering" and (bought.turn, bought.phase, bought.actions_left) == (0, "action", 1)
    assert (play(bought, 0, "+E1")[0]).turn == 1
    assert play(s2, 0, "done")[0].turn == 1
    peek = next(m for m in legal if m.startswith("peek:"))
    peeked, _ = play(s2, 0, peek)  # the cubes spent: nothing left to buy with, the turn passes
    assert peeked.turn == 1 and peeked.cubes[0] == [0, 0, 0, 0]
    traded, _ = play(s2, 0, "SD>M")
    assert traded.turn == 1 and traded.cubes[0] == [0, 0, 2, 1]


def test_wrong_divination_plants_truth_loses_points_ends_turn():
    """Divination: a wrong guess plants the true crop, loses its value (below 0 allowed), ends the turn."""
    s = fixed()
    put(s, 0, "C2", "C3")
    discover(s, "C2", "C3")
    s.actions_left = 2  # even an extra action from an offering is lost
    s2, ev = play(s, 0, "C2=1")
    assert s2.cultivated[cell("C2")] and T.view_for(s2, 1).crops[cell("C2")] == 3
    assert s2.scores[0] == -3 and s2.wrong[0] == 1
    assert s2.turn == 1
    assert "disc shows 3" in texts(ev)


def test_divination_needs_own_explorer_on_uncultivated_tile():
    """Divination: only under one's own explorers, on discovered uncultivated tiles."""
    s = fixed()
    put(s, 0, "C2")
    discover(s, "C2")
    put(s, 1, "C3")
    discover(s, "C3")
    with pytest.raises(IllegalMove, match="no explorer on C3; you may divine on C2"):
        play(s, 0, "C3=1")
    with pytest.raises(MalformedMove, match="crop is 1 to 5"):
        T.parse_move("C2=7")


@pytest.mark.parametrize(
    "scales,crop,bonus,after",
    [
        ([0, 0, 0, 0, 0], 2, 1, [0, 1, 0, 0, 0]),
        ([1, 1, 0, 0, 0], 3, 3, [1, 1, 1, 0, 0]),
        ([2, 1, 1, 0, 0], 2, 2, [2, 2, 1, 0, 0]),
        ([5, 0, 0, 0, 0], 1, 1, [5, 0, 0, 0, 0]),
        ([4, 5, 5, 0, 0], 1, 3, [5, 5, 5, 0, 0]),
    ],
)
def test_diversity_scale_scoring(scales, crop, bonus, after):
    """Ruling: advance the stone, score own stones at that level; at the top score 1 and stay."""
    s = fixed()
    s.scales[0] = list(scales)
    c = {1: "C3", 2: "D3", 3: "C2", 5: "D2"}[crop]
    put(s, 0, c)
    discover(s, c)
    s2, ev = play(s, 0, f"{c}={crop}")
    assert s2.scores[0] == crop + bonus
    assert s2.scales[0] == after
    assert f"{bonus} for diversity" in texts(ev)


# --------------------------------------------------------------------------- the end


def _nearly_done(players=2):
    s = fixed(players)
    for c in range(25):
        s.discovered[c] = True
    s.discovered[cell("E5")] = False
    return s


def test_last_discovery_starts_final_round():
    """End: discovering the last space starts the final divinations with that player."""
    s = _nearly_done()
    put(s, 0, "C2")
    put(s, 1, "C3")
    s.turn = 1
    s2, ev = play(s, 1, "+E5")
    assert s2.phase == FINAL and s2.turn == 1 and s2.final_starter == 1
    assert "Final divinations" in texts(ev)
    legal = {str(m) for m in T.legal_moves(s2, 1)}
    assert legal == {"C3=1", "C3=2", "C3=3", "C3=4", "C3=5", "E5=1", "E5=2", "E5=3", "E5=4", "E5=5", "pass"}
    with pytest.raises(IllegalMove, match="not allowed in the final divinations"):
        play(s2, 1, "C3-out")


def test_final_round_one_guess_each_in_turn_order():
    """End: one divination per turn in order; a pass or a wrong guess puts the player out."""
    s = _nearly_done()
    put(s, 0, "C2", "D2")
    put(s, 1, "C3")
    s.turn = 1
    s, _ = play(s, 1, "+E5")  # p1 discovers the last space, starts
    s, _ = play(s, 1, "E5=1")  # right
    assert s.turn == 0 and s.phase == FINAL
    s, _ = play(s, 0, "C2=3")  # right
    assert s.turn == 1
    s, _ = play(s, 1, "C3=2")  # wrong: p1 out
    assert s.final_out[1] and s.turn == 0
    s, _ = play(s, 0, "pass")  # p0 out: game over
    assert s.phase == OVER and T.to_move(s) == set()
    with pytest.raises(GameOver):
        play(s, 0, "pass")


def test_cubes_score_one_each_and_tiebreak():
    """End: leftover cubes are worth 1 each; ties go to more right guesses, then shared."""
    s = _nearly_done()
    put(s, 0, "C2")
    put(s, 1, "C3")
    s.scores = [5, 6]
    s.correct = [3, 1]
    s.cubes = [[1, 1, 0, 0], [0, 0, 0, 0]]
    s.turn = 1
    s, _ = play(s, 1, "+E5")  # p1 takes a forest... E5 is desert: cube
    assert s.cubes[1] == [0, 1, 0, 0]
    s, _ = play(s, 1, "pass")
    s, _ = play(s, 0, "pass")
    assert s.phase == OVER
    o = T.outcome(s)
    assert o.scores == (7.0, 7.0)
    assert o.ranking == ((0,), (1,)) and o.tiebreak == "more correct divinations ({p0} 3, {p1} 1)"
    assert o.details["cube_points"] == [2, 1]


def test_full_tie_is_shared():
    """End: equal score and equal right guesses share the place."""
    s = _nearly_done()
    put(s, 0, "C2")
    s.turn = 1
    s, _ = play(s, 1, "+E5")
    s.cubes = [[0] * 4, [0] * 4]
    s, _ = play(s, 1, "pass")
    s, _ = play(s, 0, "pass")
    o = T.outcome(s)
    assert o.ranking == ((0, 1),) and o.tiebreak is None


def test_players_without_divination_are_out_at_once():
    """Choice: in the final round a player with no explorer on an uncultivated tile is out at once."""
    s = _nearly_done()
    put(s, 0, "C2")
    s.turn = 1
    s, _ = play(s, 1, "+E5")  # p1 on E5 can divine there
    assert s.turn == 1
    s, _ = play(s, 1, "E5=1")
    assert s.turn == 0
    s, _ = play(s, 0, "C2=3")
    assert s.phase == OVER  # nobody has anything left to divine


# --------------------------------------------------------------------------- contract


def test_turn_order_and_errors():
    """Turns go round; acting out of turn is refused; bad notation explains itself."""
    s = fixed()
    with pytest.raises(NotYourTurn):
        play(s, 1, "+A1")
    with pytest.raises(MalformedMove, match="like"):
        T.parse_move("hello")
    with pytest.raises(IllegalMove, match="off the board"):
        play(s, 0, "+A9")
    with pytest.raises(IllegalMove, match="done only ends"):
        play(s, 0, "done")
    with pytest.raises(IllegalMove, match="pass is only for the final"):
        play(s, 0, "pass")


def test_apply_never_mutates_input():
    """Contract: apply_move copies the state."""
    s = fixed()
    s.cubes[0] = [1, 1, 1, 1]
    before = json.dumps(T.to_dict(s))
    for text in ("+A1", "peek:C3", "extra", "SD>M"):
        play(s, 0, text)
        assert json.dumps(T.to_dict(s)) == before


def test_notation_round_trip_and_tolerance():
    """Notation: str(move) parses back; case and spaces do not matter."""
    s = fixed()
    put(s, 0, "C2", "B2")
    discover(s, "C2", "B2")
    s.cubes[0] = [1, 1, 1, 1]
    for m in T.legal_moves(s, 0):
        assert T.parse_move(str(m)) == m
        assert T.parse_move(" " + str(m).lower() + " ") == m
        assert len(str(m)) <= 100
    assert T.parse_move("b 2 - c 2") == T.parse_move("B2-C2")
    assert T.parse_move("ds>m") == T.parse_move("SD>M")


def test_legal_moves_match_apply():
    """Contract: every listed move is accepted; every unlisted candidate is refused."""
    s = fixed()
    put(s, 0, "C2", "B2")
    put(s, 1, "C3")
    discover(s, "C2", "B2", "C3")
    s.cubes[0] = [1, 1, 1, 1]
    legal = {str(m) for m in T.legal_moves(s, 0)}
    cells = [f"{r}{c}" for r in "ABCDE" for c in range(1, 6)]
    candidates = {f"+{a}" for a in cells} | {f"{a}-{b}" for a in cells for b in cells}
    candidates |= {f"{a}-out" for a in cells} | {f"{a}={v}" for a in cells for v in range(1, 6)}
    candidates |= {f"peek:{a}" for a in cells} | {"extra", "done", "pass", "SS>D", "SD>F", "MF>S"}
    for text in candidates:
        move = T.parse_move(text)
        if str(move) in legal:
            T.apply_move(s, 0, move)
        else:
            with pytest.raises(IllegalMove):
                T.apply_move(s, 0, move)
    assert T.legal_moves(s, 1) == []


def test_round_trip_dict():
    """Contract: to_dict is JSON and from_dict restores it."""
    s = fixed()
    s.peeks[0][3] = "M"
    put(s, 1, "C3")
    d = T.to_dict(s)
    assert T.to_dict(T.from_dict(json.loads(json.dumps(d)))) == d


def test_view_is_plain_json_and_keeps_peeks_private():
    """Views: jsonable gives plain JSON; another seat's peeks never appear."""
    s = fixed()
    s.peeks[1][cell("C2")] = "D"
    s.peek_counts[1] = 1
    for seat in (None, 0):
        data = jsonable(T.view_for(s, seat))
        json.dumps(data)
        assert data["peeks"] == {}
        assert data["peek_counts"] == [0, 1]
    assert jsonable(T.view_for(s, 1))["peeks"] == {str(cell("C2")): "D"}


def test_rules_help_is_short():
    """RULES_HELP fits in a Discord message (as shown: its {option ...} and {choice ...} filled in)."""
    assert len(ENGLISH.gettext(T.RULES_HELP)) <= 1800


def test_enter_on_discovered_edge_tile_is_a_move():
    """Entering on a discovered edge tile is a plain move: nothing discovered, no cube."""
    s = fixed()
    s2, ev = play(s, 0, "+A3")  # A3 is a revealed (cultivated) start tile
    assert s2.explorer[cell("A3")] == 0 and s2.cubes[0] == [0, 0, 0, 0]
    assert "enters on A3" in texts(ev) and "discovers" not in texts(ev)


def test_last_discovery_cancels_pending_extra_action():
    """Choice: discovering the last space starts the final round at once; a bought extra action lapses."""
    s = _nearly_done()
    put(s, 0, "C2")
    s.actions_left = 2
    s2, _ = play(s, 0, "+E5")
    assert s2.phase == FINAL and s2.turn == 0 and s2.actions_left == 0


def test_extra_action_then_divination_run():
    """Offering then divining: the run of divinations uses the extra action, then the turn ends."""
    s = fixed()
    put(s, 0, "C2")
    discover(s, "C2")
    s.cubes[0] = [1, 1, 1, 1]
    s, _ = play(s, 0, "extra")
    s, _ = play(s, 0, "+E1")
    assert s.turn == 0 and s.actions_left == 1
    s, _ = play(s, 0, "C2=3")  # E1 is now discovered and uncultivated too: the run goes on
    assert s.phase == DIVINING
    s, _ = play(s, 0, "done")
    assert s.turn == 1


# --------------------------------------------------------------------------- bookkeeping


def test_counters_and_public_view_follow_the_game():
    """The move and round counters move on, the last move's cells are kept for the picture, and
    the view shows every public number of the state."""
    s = fixed()
    assert (s.moves, s.round, s.cube_points) == (0, 1, [0, 0])
    s1, _ = play(s, 0, "+C1")
    assert (s1.moves, s1.round, s1.last, s1.last_seat, s1.last_cells) == (1, 1, "+C1", 0, [cell("C1")])
    s2, _ = play(s1, 1, "+E1")
    assert (s2.moves, s2.round, s2.turn) == (2, 2, 0)
    s3, _ = play(s2, 0, "C1-C2")
    assert s3.last_cells == [cell("C1"), cell("C2")] and s3.round == 2
    s3.scores, s3.wrong, s3.final_out = [3, -1], [0, 2], [False, True]
    v = T.view_for(s3, None)
    assert (v.players, v.scores, v.wrong, v.final_out, v.round) == (2, (3, -1), (0, 2), (False, True), 2)
    assert v.empty_left == 25 - 3 - 3 and v.last_cells == (cell("C1"), cell("C2"))


def test_the_highlight_holds_every_cell_of_the_turn():
    """The picture's "changed in the last turn" holds every cell a turn changed: trades,
    offerings and peeks between them drop none; the next turn's first change starts it over."""
    s = fixed()
    put(s, 0, "C3", "C2", "B3")
    discover(s, "C3", "C2", "B3")
    s.cubes[0] = [2, 0, 0, 0]
    s, _ = play(s, 0, "C3=1")
    s, _ = play(s, 0, "SS>D")
    s, _ = play(s, 0, "C2=3")
    s, _ = play(s, 0, "done")
    assert s.turn == 1 and s.last_cells == [cell("C3"), cell("C2")]
    s.cubes[1] = [1, 1, 1, 1]
    s, _ = play(s, 1, "extra")  # changes no cell: the last turn's cells stay
    assert s.last_cells == [cell("C3"), cell("C2")]
    s, _ = play(s, 1, "+C1")
    s, _ = play(s, 1, "+E3")
    assert s.turn == 0 and s.last_cells == [cell("C1"), cell("E3")]
    assert T.from_dict(T.to_dict(s)).cells_turn == s.cells_turn


def test_divination_event_names_cell_crop_and_points():
    """A divination tells who, where, which crop and the points; the divined cell is kept as
    the last move's cell."""
    s = fixed()
    put(s, 0, "C2")
    discover(s, "C2")
    s2, ev = play(s, 0, "C2=3")
    assert ev[0].kind == "divine" and ev[0].text == (
        "{p0} divines crop 3 on C2 correctly: 3 points and 1 for diversity"
    )
    assert s2.last_cells == [cell("C2")]
    s3, ev = play(s, 0, "C2=1")
    assert ev[0].kind == "divine" and "{p0} guesses 1 on C2 but the disc shows 3" in ev[0].text


def test_divining_on_a_cultivated_tile_is_refused():
    """An explorer standing on a cultivated tile cannot divine there; the refusal says so."""
    s = fixed()
    put(s, 0, "A3", "C2")
    discover(s, "C2")
    with pytest.raises(IllegalMove, match="A3 is already cultivated; you may divine on C2"):
        play(s, 0, "A3=2")


def test_trades_listed_with_exactly_two_cubes():
    """Two cubes are enough to trade: the trades are listed; with none, a trade is refused
    saying the player holds none and how cubes are had."""
    s = fixed()
    s.cubes[0] = [1, 1, 0, 0]
    legal = {str(m) for m in T.legal_moves(s, 0)}
    assert {"SD>S", "SD>D", "SD>M", "SD>F"} <= legal and "SS>D" not in legal
    s.cubes[0] = [0, 0, 0, 0]
    with pytest.raises(
        IllegalMove,
        match="you hold no cubes, so you cannot give a swamp cube and a desert cube; stopping an explorer "
        "on a hidden space gives you a cube of its terrain",
    ):
        play(s, 0, "SD>M")


def test_end_events_and_cube_points():
    """At the end each player with cubes left hears their points; the last event gives every
    score."""
    s = fixed()
    s.discovered = [True] * 25
    put(s, 0, "C2")
    s.phase, s.turn, s.actions_left, s.final_starter = FINAL, 0, 0, 0
    s.final_out = [False, True]
    s.cubes = [[1, 0, 0, 1], [0, 0, 0, 0]]
    s2, ev = play(s, 0, "pass")
    assert s2.phase == OVER and s2.cube_points == [2, 0] and s2.scores == [2, 0]
    assert [e.kind for e in ev] == ["move", "score", "end"]
    assert ev[0].text == "{p0} passes and leaves the final divinations"
    assert ev[1].text == "{p0} scores 2 points for the offering cubes left over"
    assert ev[2].text == "The game is over. Final scores: {p0} 2, {p1} 0."


def test_crop_six_is_not_a_crop():
    """Notation: crops are 1 to 5; the refusal quotes the text."""
    for text in ("C3=6", "C3=0"):
        with pytest.raises(MalformedMove, match=f'"{text}": a crop is 1 to 5'):
            T.parse_move(text)
    with pytest.raises(MalformedMove, match='"hello" is not a Tiwanaku move'):
        T.parse_move("hello")


def test_wrong_seat_is_told_whose_turn_it_is():
    """A move out of turn names the player to move and the one who tried."""
    with pytest.raises(NotYourTurn, match=r"it is \{p0\}'s turn, not yours"):
        play(fixed(), 1, "+C1")


def test_peek_at_a_hidden_space_is_told_privately():
    """A peek at a hidden space names the player, the space and the terrain, to that player."""
    s = fixed()
    s.cubes[0] = [1, 1, 1, 1]
    _, ev = play(s, 0, "peek:C2")
    assert ev[0].text == "{p0} makes an offering and sees desert under C2 on the disc"


def test_final_round_is_announced_with_its_first_player():
    """Discovering the last space announces the final divinations, naming who starts."""
    s = fixed()
    s.discovered = [True] * 25
    s.discovered[cell("C1")] = False
    put(s, 1, "B1")
    discover(s, "B1")
    s.turn = 1
    s2, ev = play(s, 1, "B1-C1")
    (final,) = [e for e in ev if e.kind == "final"]
    assert "starting with {p1}" in final.text and s2.phase == FINAL and s2.final_starter == 1


def test_turn_numbers_through_the_final_round():
    """The turn number goes up by one when a turn ends: at the last discovery (the final round is a
    new turn), after each final divination or pass, and not at the game's end."""
    s = _nearly_done()
    put(s, 0, "C2", "D2")
    put(s, 1, "C3")
    s.turn = 1
    assert T.turn_number(s) == 1
    numbers = []
    for seat, text in ((1, "+E5"), (1, "E5=1"), (0, "C2=3"), (1, "C3=2"), (0, "pass")):
        s, _ = play(s, seat, text)
        numbers.append(T.turn_number(s))
    assert numbers == [2, 3, 4, 5, 5] and s.phase == OVER
    oc = T.outcome(s)
    assert oc.details["correct"] == list(s.correct) and oc.details["wrong"] == list(s.wrong)
    assert sum(oc.details["correct"]) == 2 and sum(oc.details["wrong"]) == 1


def test_turn_number_goes_up_with_each_turn():
    s = fixed()
    s, _ = play(s, 0, "+E1")
    assert T.turn_number(s) == 2
    s, _ = play(s, 1, "+E5")
    assert T.turn_number(s) == 3


def test_an_old_save_without_turns_counts_them_from_the_moves():
    s, _ = play(fixed(), 0, "+E1")
    data = json.loads(json.dumps(T.to_dict(s)))
    del data["turns"]
    assert T.from_dict(data).turns == data["moves"] + 1
    data["schema"] = 99
    with pytest.raises(SetupError, match="schema 99"):
        T.from_dict(data)


def test_a_second_peek_at_the_same_space_is_refused_by_name():
    s = fixed()
    s.cubes[0] = [2, 2, 2, 2]
    s2, _ = play(s, 0, "peek:C2")
    with pytest.raises(IllegalMove, match="you have already looked at C2"):
        play(s2, 0, "peek:C2")


def test_a_space_off_the_board_is_refused_with_the_board_size():
    s = fixed()
    for text, name in (("+A6", "A6"), ("E6-out", "E6")):
        with pytest.raises(IllegalMove, match=f"{name} is off the board; rows are A-E and columns 1-5"):
            play(s, 0, text)
    assert T.view_for(s, 0).cols == 5
    long = T.new_game(T.Config(players=2, board=BoardSize.LONG), 2, 1)
    assert T.view_for(long, None).cols == long.cols != 5


def _refused(s, seat, text):
    with pytest.raises(IllegalMove) as refused:
        play(s, seat, text)
    return str(refused.value), refused.value.said.in_words(ES)


def test_an_action_in_the_middle_of_divining_says_what_is_allowed():
    """The refusal names the player's own explorer as the example and only the kinds of move
    open: no trade or offering without the cubes for it."""
    s = _after_a_right_guess([0, 0, 0, 0])  # C2 planted, the explorer on C3 may guess
    assert s.phase == DIVINING
    for text in ("+E1", "C3-C4", "C3-out"):
        english, spanish = _refused(s, 0, text)
        assert (
            english
            == "you are in the middle of divining; now you may: divine a crop (C3=1); stop divining (done)"
        )
        assert spanish.startswith("estás en plena adivinación; ahora puedes: hacer una adivinación (C3=1); ")
    s = _after_a_right_guess([2, 1, 1, 0])
    english, _ = _refused(s, 0, "+E1")
    assert english.endswith("; trade cubes (SS>S)")


def test_a_refusal_in_the_final_divinations_gives_the_players_own_moves():
    """In the final divinations a move, done or an extra action is refused with the player's own
    divinations as examples, never another player's explorer; a peek is offered when it can be
    bought."""
    s = _nearly_done()
    put(s, 0, "C3")
    put(s, 1, "B3")
    s.turn = 1
    s, _ = play(s, 1, "+E5")
    assert s.phase == FINAL and s.turn == 1
    open_now = "now you may: divine a crop (B3=1); leave the final divinations (pass)"
    assert _refused(s, 1, "B3-out")[0] == "B3-out is not allowed in the final divinations; " + open_now
    assert _refused(s, 1, "done")[0] == "done only ends a run of divinations; " + open_now
    s.cubes[1] = [1, 1, 1, 1]
    english, spanish = _refused(s, 1, "extra")
    assert english.startswith("the final divinations have no actions to buy; " + open_now + "; trade cubes (")
    assert english.endswith("; offer for a look at a disc (peek:A1)")
    assert spanish.startswith("en las adivinaciones finales no hay acciones que comprar; ahora puedes: ")


def test_a_cell_no_board_has_is_told_the_rows_and_columns():
    """A row after E or a column 0 or 10 is refused by saying which cells there are, whatever the
    move (enter, move, leave, divine, peek); real cells still parse."""
    for text in ("+F1", "F1-A1", "a0-out", "A10=2", "peek:G2"):
        with pytest.raises(MalformedMove) as refused:
            T.parse_move(text)
        assert str(refused.value) == (
            f'"{text}": cells are rows A-E and columns 1-5 (short board) or 1-9 (long board), like C3'
        )
    assert [str(T.parse_move(t)) for t in ("+e9", "E9-out", "peek:A1")] == ["+E9", "E9-out", "peek:A1"]


def test_refusals_with_nothing_to_offer_say_what_to_do_instead():
    """A refusal never ends on an empty list ("yours are on none"): with no explorer on the board
    it says to bring one in, with none on an unplanted tile that there is nothing to divine, and
    an explorer boxed in by opponents and the edge is told to leave or let another move."""
    s = fixed()
    for text in ("A1-A2", "A1-out"):
        with pytest.raises(IllegalMove) as refused:
            play(s, 0, text)
        assert str(refused.value) == (
            "you have no explorer on A1, nor anywhere on the board; bring one in on a free edge cell, like +A1"
        )
    put(s, 0, "A3")  # a start cell: cultivated
    with pytest.raises(IllegalMove) as refused:
        play(s, 0, "A3=2")
    assert str(refused.value) == (
        "you cannot divine on A3: none of your explorers stands on a discovered tile without a crop, "
        "so there is nothing to divine now"
    )
    put(s, 0, "A1")
    put(s, 1, "A2", "B1")
    discover(s, "A1", "A2", "B1")
    with pytest.raises(IllegalMove) as refused:
        play(s, 0, "A1-B2")
    assert str(refused.value) == (
        "the explorer on A1 is hemmed in and cannot move; take it off the board (A1-out) or use another explorer"
    )
    assert T.legal_moves(s, 0).count(T.parse_move("A1-out")) == 1


def test_a_refused_trade_lists_three_kinds_of_cube():
    s = fixed()
    s.cubes[0] = [1, 1, 1, 0]
    with pytest.raises(
        IllegalMove, match="you hold a swamp cube, a desert cube and a mountain cube; you cannot give"
    ):
        play(s, 0, "FF>S")


def test_summary_tells_cubes_reserve_score_and_peeks():
    s = fixed()
    s.cubes[0] = [2, 1, 1, 1]
    s2, _ = play(s, 0, "peek:C2")
    view = T.view_for(s2, 0)
    assert str(T.summary(view)) == (
        f"You: score 0; cubes: swamp 1; explorers off the board: "
        f"{view.reserve[0]}\nWhat you saw on the disc: C2 desert"
    )
    assert T.summary(T.view_for(s2, None)) == ""


def test_a_walk_over_discovered_land_is_undoable_a_discovery_is_not():
    s = fixed()
    discover(s, "E1", "E2")
    put(s, 0, "E1")
    assert T.undoable(s, 0, T.parse_move("E1-E2")) is True
    assert T.undoable(s, 0, "E1-out") is True
    assert T.undoable(s, 0, T.parse_move("E1-D1")) is False  # D1 is hidden


def test_a_wrong_final_guess_puts_the_player_out_even_with_explorers_left():
    s = _nearly_done()
    put(s, 0, "C2", "D2")
    put(s, 1, "C3", "D3")
    s.turn = 1
    for seat, text in ((1, "+E5"), (1, "E5=1"), (0, "C2=3"), (1, "C3=2")):
        s, _ = play(s, seat, text)
    assert s.final_out == [False, True] and s.turn == 0  # D3 could still be divined, but p1 is out
    s, _ = play(s, 0, "pass")
    assert s.phase == OVER


def test_summary_tells_a_crop_seen_on_the_disc():
    s = fixed()
    discover(s, "C2")
    s.cubes[0] = [1, 1, 1, 1]
    s2, _ = play(s, 0, "peek:C2")
    assert str(T.summary(T.view_for(s2, 0))).splitlines()[-1] == "What you saw on the disc: C2 crop 3"


def test_trades_that_only_throw_a_cube_away_stay_legal_but_are_not_offered():
    """``FF>F`` and ``SF>F`` give back a terrain they take: legal when typed, but the menu,
    autocomplete and the terminal's move list leave them out; every other trade is offered."""
    from bot import choices

    s = fixed()
    s.cubes[0] = [1, 0, 0, 2]  # a swamp cube and two forest cubes
    legal = {str(m) for m in T.legal_moves(s, 0)}
    offered = {str(m) for m in choices.offered(T, s, 0)}
    assert {"FF>F", "SF>F", "SF>S"} <= legal
    assert not {"FF>F", "SF>F", "SF>S"} & offered
    assert {"FF>S", "FF>D", "FF>M", "SF>D", "SF>M"} <= offered
    assert legal - offered == {m for m in legal if ">" in m and m[3] in m[:2]}
    after, _ = play(s, 0, "FF>F")  # still a legal move
    assert after.cubes[0] == [1, 0, 0, 1]


def test_summary_at_the_end_says_the_cubes_left_were_scored():
    """At the end the cubes left are offered for a point each (already in the score): the
    player's own line says so rather than listing them as cubes still to be used."""
    s = fixed()
    s.cubes[0] = [3, 0, 0, 1]
    s.phase = FINAL
    s.final_out = [False, True]
    s.turn = 0
    s, _ = play(s, 0, "pass")
    assert s.phase == OVER and s.scores[0] == 4
    line = T.summary(T.view_for(s, 0))
    assert (
        str(line)
        == f"You: score 4; cubes: swamp 3, forest 1, scored for 4 points; explorers off the board: {s.reserve[0]}"
    )
    assert line.in_words(ES).startswith("Tú: puntos 4; cubos: pantano 3, bosque 1, que suman 4 puntos")


def test_done_or_pass_in_an_action_says_what_may_be_done_with_moves_that_are_legal():
    """``done`` or ``pass`` when an action is due said only "choose an action now": the refusal
    now names each kind of move the player has (bring in an explorer, move or explore, take one
    off, divine, trade, the offerings), each with one of their legal moves, in both languages."""
    import random
    import re

    from engines.tiwanaku.rules import ACTION

    state, rng, seen, kinds_seen = T.new_game(T.Config(players=2), 2, 5), random.Random(5), 0, set()
    for _ in range(120):
        if T.outcome(state) is not None:
            break
        (seat,) = T.to_move(state)
        legal = T.legal_moves(state, seat)
        if state.phase == ACTION:
            for word in ("done", "pass"):
                with pytest.raises(IllegalMove) as refused:
                    T.apply_move(state, seat, T.parse_move(word))
                text = str(refused.value)
                assert "now you may: " in text and "choose an action" not in text, text
                examples = re.findall(r"\(([^()]+)\)", text.split("now you may: ", 1)[1])
                assert {str(m) for m in legal} >= set(examples), (examples, text)
                kinds = {type(m).__name__ for m in legal} - {"Done", "Pass"}
                assert len(examples) == len(kinds), (kinds, text)
                kinds_seen |= kinds
                assert "ahora puedes: " in refused.value.said.in_words(ES), refused.value.said.in_words(ES)
            seen += 1
        state, _ = T.apply_move(state, seat, T.computer_move(T.view_for(state, seat), legal, rng))
    assert seen > 10 and {"Enter", "Step", "Leave", "Trade"} <= kinds_seen, kinds_seen
