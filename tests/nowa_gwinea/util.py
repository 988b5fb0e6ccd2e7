"""Helpers for the Nowa Gwinea tests: rigged states and quick moves."""

from __future__ import annotations

import dataclasses

import engines.nowa_gwinea as ng
from engines.nowa_gwinea.data import board_side, boards
from engines.nowa_gwinea.geometry import cell_name, placement_from_text
from engines.nowa_gwinea.rules import copy_state


def rigged(players: int = 2, board: int = 1, side: str = "A", totem: int = 0, seed: int = 7, **options):
    """A new game whose current round is ``board``/``side`` with ``totem`` rolled."""
    config = ng.Config(players=players, **options)
    state = ng.new_game(config, players, seed)
    state = copy_state(state)
    state.boards = [board] * players
    state.sides = [side] * players
    state.totem = totem
    return state


def play(state, seat, text):
    new, _events = ng.apply_move(state, seat, ng.parse_move(text))
    return new


def build(state, seat, texts):
    for t in texts:
        state = play(state, seat, t)
    return state


def witness(board: int = 1, side: str = "A", totem: int = 0) -> list[str]:
    return list(board_side(board, side).witnesses[totem])


def task(board: int = 1, side: str = "A"):
    return board_side(board, side)


def fruit_of(texts, board=1, side="A") -> int:
    t = board_side(board, side)
    occ = 0
    for x in texts:
        occ |= placement_from_text(x).mask
    return (occ & t.fruit_mask).bit_count()


def find_witness_with_fruit():
    """A (board, side, totem) whose witness village covers at least one fruit bush."""
    for (b, s), t in sorted(boards().items()):
        for k, w in enumerate(t.witnesses):
            if fruit_of(w, b, s) >= 1:
                return b, s, k
    raise AssertionError("no witness covers fruit")


__all__ = ["rigged", "play", "build", "witness", "task", "cell_name", "dataclasses", "fruit_of"]
