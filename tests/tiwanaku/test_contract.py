"""The engine contract on seeded random games: legal_moves is complete (compared with every
move the notation can write that apply_move accepts, for every seat and phase), the saved state
comes back field by field at every step, and the seed plus the log replay the game exactly."""

from __future__ import annotations

import random

import pytest

import engines.tiwanaku as T
from engines.tiwanaku.data import ROW_LETTERS, TERRAINS
from engines.tiwanaku.moves import Divine, Trade
from engines.tiwanaku.rules import ACTION, DIVINING, FINAL
from tests.support.contract import assert_events_tell, assert_replays, check_steps, playout


def candidates(state, seat):
    """Every move text of the notation on this board (a superset of the legal moves)."""
    cells = [f"{r}{c + 1}" for r in ROW_LETTERS for c in range(state.cols)]
    out = ["done", "pass", "extra"]
    out += [f"+{a}" for a in cells] + [f"{a}-out" for a in cells] + [f"peek:{a}" for a in cells]
    out += [f"{a}={v}" for a in cells for v in range(1, 6)]
    out += [f"{a}-{b}" for a in cells for b in cells if a != b]
    out += [f"{x}{y}>{z}" for x in TERRAINS for y in TERRAINS for z in TERRAINS]
    return out


KINDS = {
    "Enter": {"explore", "move"},
    "Step": {"explore", "move"},
    "Leave": {"move"},
    "Divine": {"divine"},
    "Done": {"move"},
    "Pass": {"move"},
    "Trade": {"cubes"},
    "Extra": {"offering"},
    "Peek": {"peek"},
}


def choose(state, seat, legal, rng):
    """Random moves, but mostly not the cube trades (so that the land gets discovered), and
    guesses that are often right (so that runs of divinations happen)."""
    right = [m for m in legal if isinstance(m, Divine) and state.crops[m.row * state.cols + m.col] == m.crop]
    if right and rng.random() < 0.6:
        return rng.choice(right)
    plain = [m for m in legal if not isinstance(m, Trade)]
    return rng.choice(plain if plain and rng.random() < 0.9 else legal)


@pytest.mark.parametrize("players,seed,board", [(2, 4, T.BoardSize.SHORT), (3, 9, T.BoardSize.LONG)])
def test_contract_on_random_games(players, seed, board):
    """legal_moves equals the accepted candidates for every seat in every phase; the round trip
    holds at every step; the log replays; the game reaches its end."""
    config = T.Config(players=players, board=board)
    steps = playout(T, config, players, seed, random.Random(seed), max_moves=3000, choose=choose)
    assert T.outcome(steps[-1].after) is not None
    seen = check_steps(T, steps, range(players), candidates, key=lambda s: s.phase, first=4, every=20)
    assert {ACTION, DIVINING, FINAL} <= set(seen)
    assert_replays(T, config, players, seed, steps)
    assert_events_tell(steps, KINDS)
