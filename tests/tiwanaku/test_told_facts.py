"""The values Tiwanaku's kept sentences carry (where a player may enter, which cell a peek is
refused on) and the bookkeeping behind the view and the final round (who divines next with
three players, a peeked terrain once discovered, the right guesses, the scores now, the order
trades are offered in).  The tests read the sentences' values and the English line's facts."""

from __future__ import annotations

import pytest

import engines.tiwanaku as T
from engines.core import IllegalMove
from engines.tiwanaku.data import TERRAINS
from engines.tiwanaku.moves import Trade
from engines.tiwanaku.rules import FINAL

from .helpers import cell, discover, fixed, play, put

EDGE = "A1, A2, A3, A4, A5, B1, B5, C1, C5, D1, D5, E1, E2, E3, E4, E5"


def _refused(s, seat, text) -> IllegalMove:
    with pytest.raises(IllegalMove) as info:
        play(s, seat, text)
    return info.value


def test_entering_off_the_edge_lists_the_free_edge_cells():
    s = fixed()
    exc = _refused(s, 0, "+C3")
    assert exc.said.args == {"cell": "C3", "cells": EDGE}
    assert str(exc).endswith(EDGE)


def test_entering_on_an_occupied_cell_lists_the_others():
    s = fixed()
    put(s, 1, "A1")
    exc = _refused(s, 0, "+A1")
    assert exc.said.args == {"cell": "A1", "cells": EDGE.removeprefix("A1, ")}


def test_a_peek_at_a_cultivated_tile_names_it():
    s = fixed()
    s.cubes[0] = [1, 1, 1, 1]
    exc = _refused(s, 0, "peek:A3")
    assert exc.said.args == {"cell": "A3"}
    assert str(exc).startswith("A3 ")


def test_the_final_round_goes_on_clockwise_with_three_players():
    """Three players (long board): after the starter (player 2) divines, player 3 goes next,
    then player 1."""
    s = T.new_game(T.Config(players=3), 3, 1)
    s.discovered = [True] * len(s.discovered)
    s.discovered[0] = False  # A1, the last hidden space
    for seat, name in enumerate(("B2", "B3", "B4")):
        c = cell(name, s.cols)
        assert not s.cultivated[c]
        s.explorer[c] = seat
        s.reserve[seat] -= 1
    s.turn = 1
    s, _ = play(s, 1, "+A1")
    assert s.phase == FINAL and s.turn == 1
    s, _ = play(s, 1, f"A1={s.crops[0]}")  # right
    assert s.turn == 2 and T.to_move(s) == {2}
    s, _ = play(s, 2, "pass")
    assert s.turn == 0 and s.final_out == [False, False, True]


def test_a_peeked_terrain_leaves_the_view_once_the_tile_is_discovered():
    """A peeked terrain is kept only while the space is hidden; once discovered (and not yet
    cultivated) the board shows it and the peek is gone."""
    s = fixed()
    s.cubes[0] = [1, 1, 1, 1]
    s, _ = play(s, 0, "peek:C2")
    assert T.view_for(s, 0).peeks == {cell("C2"): "D"}
    discover(s, "C2")
    assert T.view_for(s, 0).peeks == {}


def test_the_view_counts_each_players_right_guesses():
    s = fixed()
    s.correct = [2, 1]
    assert T.view_for(s, 0).correct == (2, 1) == T.view_for(s, None).correct


def test_scores_now_are_the_points_so_far():
    s = fixed()
    assert T.scores_now(s) == (0.0, 0.0)
    s.scores = [3, -1]
    assert T.scores_now(s) == (3.0, -1.0)


def test_trades_are_offered_in_the_games_terrain_order():
    """Trades are listed by the cubes given, in the game's order of terrains (swamp, desert,
    mountain, forest), then by the cube taken in the same order."""
    s = fixed()
    s.cubes[0] = [2, 1, 1, 1]
    trades = [m for m in T.legal_moves(s, 0) if isinstance(m, Trade)]
    gives = list(dict.fromkeys(m.give for m in trades))
    assert gives == ["SS", "SD", "SM", "SF", "DM", "DF", "MF"]
    assert [m.get for m in trades[:4]] == list(TERRAINS)
