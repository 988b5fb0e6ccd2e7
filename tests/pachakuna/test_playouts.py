"""Random playouts with invariants, replay from the move log, and the golden game."""

from __future__ import annotations

import dataclasses
import json
import pathlib
import random
from collections import Counter
from itertools import repeat
from operator import is_

import pytest

from engines import pachakuna as P
from engines.core import jsonable
from engines.pachakuna import data as D
from tests.support.seeds import playout_seeds

GOLDEN = pathlib.Path(__file__).parent / "golden"
KINDS = {"N": 24, "F": 15, "M": 15}
ALL_DEMANDS = sorted(D.DEMANDS)
TILE_CELLS = set(D.TILE_CELLS)


def check_invariants(s: P.State) -> None:
    # demands: all 42 accounted for, each once
    on_board = [d for d in s.demands.values() if d]
    assert sorted(s.bag + s.used + on_board) == ALL_DEMANDS
    for v, d in s.demands.items():
        if d:
            assert D.VILLAGES[v] not in D.demand_colours(d)
    # tiles: the 54 tiles keep their kinds; only rotations change
    assert set(s.tiles) == TILE_CELLS
    assert Counter(code[0] for code in s.tiles.values()) == KINDS
    # llamas: 1..3 per seat, numbered in order, on the board
    for seat in (0, 1):
        ids = sorted(lm.id for lm in s.llamas if lm.seat == seat)
        assert ids == list(range(1, len(ids) + 1)) and 1 <= len(ids) <= D.MAX_LLAMAS
    for lm in s.llamas:
        assert lm.cell in D.CELLS
        if s.phase == "rotate":
            assert lm.load is not None and lm.stage == 0
    # supplies never negative; rocks lie on tiles
    for sup in s.supply:
        assert min(sup.values()) >= 0
    assert set(s.rocks) <= TILE_CELLS


def check_views(s: P.State) -> None:
    # Every seat sees what a spectator sees (nothing in P'achakuna is private): the views are
    # equal but for the seat, so the spectator's JSON with the seat put in is each seat's JSON.
    spectator = P.view_for(s, None)
    public = jsonable(spectator)
    for seat in (None, 0, 1):
        view = P.view_for(s, seat)
        assert view == dataclasses.replace(spectator, seat=seat)
        data = {**public, "seat": seat}
        text = json.dumps(data)
        assert "bag" not in {k for k in data if k != "bag_count"}
        if len(s.bag) >= 3:
            assert json.dumps(s.bag[:3])[1:-1] not in text  # the bag's order never shows


def check_round_trip(s: P.State) -> None:
    data = json.loads(json.dumps(P.to_dict(s)))
    assert P.to_dict(P.from_dict(data)) == data


def random_move(legal, rng):
    # prefer llama actions half of the time so random games do more than turn tiles
    if rng.random() < 0.5:
        other = [m for m in legal if not isinstance(m, P.Rotate)]
        if other:
            return rng.choice(other)
    return rng.choice(legal)


def playout(config: P.Config, seed: int, computer: tuple[bool, bool], full_checks: bool = True):
    s = P.new_game(config, 2, seed)
    rng = random.Random(seed)
    log: list[str] = []
    steps = 0
    check_invariants(s)
    while P.outcome(s) is None:
        seat = s.turn
        assert P.to_move(s) == {seat}
        legal = P.legal_moves(s, seat)
        assert legal
        if computer[seat]:
            move = P.computer_move(P.view_for(s, seat), legal, rng)
        else:
            move = random_move(legal, rng)
        # one of the listed moves: the very object listed (found without comparing each
        # move, the listed tile turns come first), or else one equal to it
        assert any(map(is_, legal, repeat(move))) or move in legal
        before = P.to_dict(s) if full_checks else None
        new, events = P.apply_move(s, seat, move)
        if full_checks:
            assert P.to_dict(s) == before
        assert events
        s = new
        log.append(str(move))
        steps += 1
        assert steps < 4000
        check_invariants(s)
        if full_checks:
            check_views(s)
            check_round_trip(s)
    return s, log


BOARDS = [P.Board.A, P.Board.B, P.Board.RANDOM]


@pytest.mark.slow
@pytest.mark.parametrize("board", BOARDS, ids=lambda b: b.value)
def test_playouts_turn_limit(board):
    """Playouts with a turn limit (a quarter of 200 seeds per board, another as the engines change, tests/support/seeds.py);
    invariants, views, round trip, replay."""
    for seed in playout_seeds(range(200)):
        computer = [(True, True), (True, False), (False, True)][seed % 3]
        full = seed % 5 == 0
        config = P.Config(board=board, max_turns=10)
        s, log = playout(config, seed, computer, full_checks=full)
        out = P.outcome(s)
        assert out is not None and s.turn_number <= 10
        assert out.ranking[0] and set(sum(out.ranking, ())) == {0, 1}
        if seed % 10 == 0:
            replay = P.new_game(config, 2, seed)
            for text in log:
                replay, _ = P.apply_move(replay, replay.turn, P.parse_move(text))
            assert P.to_dict(replay) == P.to_dict(s)


@pytest.mark.slow
@pytest.mark.parametrize("board", BOARDS, ids=lambda b: b.value)
def test_computer_games_reach_a_winner(board):
    """Playouts: computer players finish real games (all seven colours) within 120 turns."""
    wins = Counter()
    for seed in range(12):
        s, log = playout(
            P.Config(board=board, max_turns=120), 1000 + seed, (True, True), full_checks=seed < 2
        )
        assert s.winner is not None, f"seed {1000 + seed} reached the turn limit"
        assert P.rules.colours_held(s.supply[s.winner]) == 7
        wins[s.winner] += 1
        replay = P.new_game(P.Config(board=board, max_turns=120), 2, 1000 + seed)
        for text in log:
            replay, _ = P.apply_move(replay, replay.turn, P.parse_move(text))
        assert P.to_dict(replay) == P.to_dict(s)
    assert len(wins) == 2  # both sides can win


def test_computer_beats_random():
    """Computer: the greedy player beats random legal moves."""
    for seed in range(6):
        me = seed % 2
        computer = (me == 0, me == 1)
        s, _ = playout(P.Config(max_turns=120), 500 + seed, computer, full_checks=False)
        assert s.winner == me


def test_golden_game():
    """Golden: a recorded game replays move by move to the same end and scores."""
    for path in sorted(GOLDEN.glob("*.json")):
        data = json.loads(path.read_text())
        config = P.Config(board=P.Board(data["config"]["board"]), max_turns=data["config"]["max_turns"])
        s = P.new_game(config, 2, data["seed"])
        for text in data["moves"]:
            s, _ = P.apply_move(s, s.turn, P.parse_move(text))
        out = P.outcome(s)
        assert out is not None
        assert list(out.scores) == data["scores"]
        assert [list(g) for g in out.ranking] == data["ranking"]
        assert {k: v for k, v in s.supply[0].items() if v} == data["supply"][0]
        assert {k: v for k, v in s.supply[1].items() if v} == data["supply"][1]


@pytest.mark.slow
@pytest.mark.parametrize("board", BOARDS, ids=lambda b: b.value)
def test_full_games_over_200_seeds(board):
    """Playouts: games played to the win (no turn limit) by computer players, a quarter of 200
    seeds per board, another as the engines change (tests/support/seeds.py)."""
    config = P.Config(board=board)
    for seed in playout_seeds(range(200)):
        s, log = playout(config, 2000 + seed, (True, True), full_checks=seed % 20 == 0)
        assert s.winner is not None and P.rules.colours_held(s.supply[s.winner]) == 7
        check_views(s)
        check_round_trip(s)
        if seed % 10 == 0:
            replay = P.new_game(config, 2, 2000 + seed)
            for text in log:
                replay, _ = P.apply_move(replay, replay.turn, P.parse_move(text))
            assert P.to_dict(replay) == P.to_dict(s)
