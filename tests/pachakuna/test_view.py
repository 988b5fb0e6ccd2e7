"""What the view tells each reader, read against the state at every step of seeded games (the
tiles, demands, llamas, supplies and colour counts as they are, the bag only as a count), the
seat's own summary, the turn number, and every move public."""

from __future__ import annotations

import random

import pytest

import engines.pachakuna as P
from bot import alt
from engines.core import Said
from engines.pachakuna import data as D
from languages import ENGLISH, language
from tests.support.contract import playout

KINDS = D.COLOURS + (D.BROWN,)


def check_view(s, seat):
    v = P.view_for(s, seat)
    assert (v.seat, v.players, v.board) == (seat, 2, s.config.board.value)
    assert v.tiles == tuple(sorted(s.tiles.items())) and v.demands == tuple(sorted(s.demands.items()))
    assert v.villages == tuple(sorted(D.VILLAGES.items()))
    assert [(lm.seat, lm.id, lm.cell, lm.load, lm.stage, lm.new) for lm in v.llamas] == [
        (lm.seat, lm.id, lm.cell, lm.load, lm.stage, lm.new) for lm in s.llamas
    ]
    assert len(v.supply) == len(v.colours) == len(v.loose) == len(s.supply) == 2
    for i in (0, 1):
        sup = s.supply[i]
        assert v.supply[i] == tuple((k, sup[k]) for k in KINDS)
        assert v.colours[i] == len([c for c in D.COLOURS if sup[c]])
        assert v.loose[i] == sup[D.BROWN] + sum(sup[c] - 1 for c in D.COLOURS if sup[c])
    assert (v.rocks, v.rotated) == (tuple(s.rocks), tuple(s.rotated))
    assert v.rotation_cost == (D.ROTATION_PRICE if s.phase == "rotate" and s.rotated else 0)
    assert (v.phase, v.turn, v.turn_number, v.active) == (s.phase, s.turn, s.turn_number, s.active)
    assert v.max_turns == s.config.max_turns and v.bag_count == len(s.bag) and v.used == tuple(s.used)
    assert (v.winner, v.end_reason, v.last, v.last_seat) == (s.winner, s.end_reason, s.last, s.last_seat)
    assert v.turn_log == tuple(s.turn_log) and v.turn_cells == tuple(s.turn_cells)
    assert v.prev_log == tuple(s.prev_log) and v.prev_cells == tuple(s.prev_cells)
    routes = s.turn_routes if s.turn_log else s.prev_routes
    assert v.routes == tuple(tuple(r) for r in routes)
    return v


def check_summary(v, s):
    told = P.summary(v)
    if v.seat is None:
        assert told == ""
        return
    assert isinstance(told, Said)  # kept for translation; its English is checked below
    text = told.in_words()
    held, llamas = text.split("\n")
    sup = s.supply[v.seat]
    parts = [f"{k} {sup[k]}" for k in KINDS if sup[k]]
    total = sum(sup[k] for k in KINDS)
    counts = f"{v.colours[v.seat]} of 7 colours, " + (
        f"{total} resource{'s' * (total != 1)}, " if parts else ""
    )
    assert held == f"You hold: {', '.join(parts) or 'nothing'} ({counts}{v.loose[v.seat]} loose)"
    mine = [lm for lm in s.llamas if lm.seat == v.seat]
    told = [f"llama {lm.id} on {lm.cell}" + (f" carrying {lm.load}" if lm.load else "") for lm in mine]
    assert llamas == "Your llamas: " + (", ".join(told) or "none")


@pytest.mark.parametrize("board,seed", [("A", 2), ("B", 5), ("random", 7)])
def test_view_tells_the_state(board, seed):
    config = P.Config(board=P.Board(board))
    steps = playout(P, config, 2, seed, random.Random(seed), max_moves=250)
    loads = rotated = moved = 0
    for step in steps:
        for s in (step.state, step.after):
            for seat in (None, 0, 1):
                check_summary(check_view(s, seat), s)
                assert P.move_privacy(s, 0, step.move) == P.move_privacy(s, 1, step.move)
                assert P.readable(s, P.move_privacy(s, step.seat, step.move), seat)
            loads += any(lm.load for lm in s.llamas)
            rotated += bool(s.rotated and s.phase == "rotate")
        after = step.after
        assert (after.last, after.last_seat) == (str(step.move), step.seat)
        assert after.phase in ("rotate", "llamas", "over")
        if isinstance(step.move, P.MoveLlama):
            moved += 1
            assert after.phase == "llamas" and after.active == step.move.llama
            black = step.seat == 1
            road = after.turn_routes[-1]
            assert road[0] != road[-1] and road[-1] == step.move.to
            for a, b in zip(road, road[1:], strict=False):  # the llama's own roads, open on both sides
                d = next(d for d, n in D.NEIGHBOURS[a] if n == b)
                assert a in D.VILLAGES or P.rules.open_mask(step.state.tiles[a], black) >> d & 1
                assert b in D.VILLAGES or P.rules.open_mask(step.state.tiles[b], black) >> (d + 3) % 6 & 1
            before = step.state.active
            if before is not None and before != step.move.llama:
                assert P.rules.llama(after, step.seat, before).stage == 3  # the llama before it is done
    assert loads and rotated and moved


def test_turn_number_goes_up_with_each_end():
    config = P.Config(board=P.Board("A"))
    steps = playout(P, config, 2, 3, random.Random(3), max_moves=200)
    number = 1
    for step in steps:
        assert P.turn_number(step.state) == number == step.state.turn_number
        if isinstance(step.move, P.End) or step.after.turn != step.state.turn:
            number += 1
    assert number > 5


def test_the_alt_text_tells_the_colours_each_seat_holds():
    """The view's scores are the colours held (as the outcome scores them), so a board's alt text
    says them as the picture's "4/7" does."""
    s = P.new_game(P.Config(), 2, 1)
    s.supply[1].update(white=2, red=1)
    view = P.view_for(s, None)
    assert view.scores == view.colours == (0, 2)
    assert alt._scores(view, ["Ana", "Bob"], ENGLISH) == "Scores: Ana 0, Bob 2."
    assert alt._scores(view, ["Ana", "Bob"], language("es")) == "Puntos: Ana 0, Bob 2."
