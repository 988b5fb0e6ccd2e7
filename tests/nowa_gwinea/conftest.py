"""The hand-made board 99 (side A) that the scenario tests play on, registered while a test runs:

    parrot C3, cassowary A8, tree kangaroo H1, crocodile H8, lizard F6, butterfly A1
    water C2 D3 E2 E5 G5     fruit C4 H3 H5 A3 B6

``X0B3`` (B3 C2 C3 C4 D3) covers the parrot, ``I0D5`` (D5-H5) and ``L0E2``
(E2 F2 G2 H2 H3) touch it at corners; the three cover all 5 water holes and
3 fruit bushes (C4 H3 H5).
"""

from __future__ import annotations

import pytest

import engines.nowa_gwinea as ng
from engines.nowa_gwinea.data import BoardSide, boards
from engines.nowa_gwinea.geometry import parse_cell
from engines.nowa_gwinea.rules import copy_state

FULL = ["X0B3", "I0D5", "L0E2"]
PARTIAL = ["X0B3", "I0D5"]


def _cells(*names):
    return tuple(parse_cell(n) for n in names)


@pytest.fixture
def board99():
    table = boards()
    table[(99, "A")] = BoardSide(
        board=99,
        side="A",
        totems=_cells("C3", "A8", "H1", "H8", "F6", "A1"),
        water=_cells("C2", "D3", "E2", "E5", "G5"),
        fruit=_cells("C4", "H3", "H5", "A3", "B6"),
        witnesses=(tuple(FULL),) + ((),) * 5,
        sizes=(3, 0, 0, 0, 0, 0),
    )
    yield
    del table[(99, "A")]


def rig(players=2, **options):
    """A new game (seed 11) whose round is played on board 99 with the parrot rolled."""
    state = copy_state(ng.new_game(ng.Config(players=players, **options), players, 11))
    state.boards = [99] * players
    state.sides = ["A"] * players
    state.totem = 0  # parrot
    return state
