"""Component data: the totem animals and the 32 double-sided task boards.

The boards live in ``tasks.json`` next to this module, written by
``python -m engines.nowa_gwinea.generate``.  Each side lists its 6 totems (in
die order), 5 water holes, 5 fruit bushes and, for each totem, a witness
village (placement texts) proving that task solvable, with its size.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from engines.core import Said, term

from .geometry import cell_of, mask_of

ANIMAL_TERMS: tuple[Said, ...] = (  # the totems in die order, as words of the game put into sentences
    term("nowa_gwinea term", "parrot"),
    term("nowa_gwinea term", "cassowary"),
    term("nowa_gwinea term", "tree kangaroo"),
    term("nowa_gwinea term", "crocodile"),
    term("nowa_gwinea term", "lizard"),
    term("nowa_gwinea term", "butterfly"),
)
ANIMALS = tuple(t.msg for t in ANIMAL_TERMS)
SIDES = {"A": "standard", "B": "hard"}
BOARDS = 32
ROUNDS = 9
FRUIT_BONUS = (0, 1, 3, 6, 10, 15)
DATA_FILE = Path(__file__).with_name("tasks.json")


@dataclass(frozen=True)
class BoardSide:
    board: int  # 1..32
    side: str  # "A" standard, "B" hard
    totems: tuple[int, ...]  # cell of each animal, in ANIMALS order
    water: tuple[int, ...]
    fruit: tuple[int, ...]
    witnesses: tuple[tuple[str, ...], ...]  # one village per totem
    sizes: tuple[int, ...]  # smallest village size the solver found, per totem

    @property
    def water_mask(self) -> int:
        return mask_of(self.water)

    @property
    def fruit_mask(self) -> int:
        return mask_of(self.fruit)

    def other_totems(self, totem: int) -> int:
        return mask_of(c for i, c in enumerate(self.totems) if i != totem)


def _side(board: int, side: str, raw: dict) -> BoardSide:
    def cells(names: list[str]) -> tuple[int, ...]:
        return tuple(cell_of(n) for n in names)

    return BoardSide(
        board=board,
        side=side,
        totems=cells(raw["totems"]),
        water=cells(raw["water"]),
        fruit=cells(raw["fruit"]),
        witnesses=tuple(tuple(v) for v in raw["witnesses"]),
        sizes=tuple(raw["sizes"]),
    )


@lru_cache(maxsize=1)
def boards() -> dict[tuple[int, str], BoardSide]:
    """Every board side, keyed by ``(board number 1..32, "A" | "B")``."""
    raw = json.loads(DATA_FILE.read_text())
    out = {}
    for entry in raw["boards"]:
        for side in SIDES:
            out[(entry["board"], side)] = _side(entry["board"], side, entry[side])
    return out


def board_side(board: int, side: str) -> BoardSide:
    return boards()[(board, side)]
