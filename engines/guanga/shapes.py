"""Cells, neighbours and the placements of every market card's shape.

A cell is an index ``row * 5 + col`` (A1 = 0, C3 = 12, E5 = 24).  A placement
is a bit mask of cells: one of the card's shapes, turned or mirrored in any
of the 8 ways, moved anywhere it fits in the 5 x 5 guanga.  Matching a card
is then one AND: ``placement & ~mask == 0`` where ``mask`` holds the cells
whose top patch shows the claimed colour or symbol.
"""

from __future__ import annotations

import re

from .data import CARDS, ROWS, SIZE

CELLS = SIZE * SIZE
CELL_NAMES = tuple(f"{ROWS[r]}{c + 1}" for r in range(SIZE) for c in range(SIZE))
CELL_INDEX = {name: i for i, name in enumerate(CELL_NAMES)}
_CELL_RE = re.compile(r"([A-Ea-e])\s*([1-5])")


def neighbours(cell: int) -> tuple[int, ...]:
    r, c = divmod(cell, SIZE)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < SIZE and 0 <= cc < SIZE:
            out.append(rr * SIZE + cc)
    return tuple(out)


NEIGHBOURS = tuple(neighbours(i) for i in range(CELLS))
ROW_MASKS = tuple(sum(1 << (r * SIZE + c) for c in range(SIZE)) for r in range(SIZE))
COL_MASKS = tuple(sum(1 << (r * SIZE + c) for r in range(SIZE)) for c in range(SIZE))
LINE_MASKS = ROW_MASKS + COL_MASKS


def cells_of(mask: int) -> tuple[int, ...]:
    return tuple(i for i in range(CELLS) if mask >> i & 1)


def mask_of(cells) -> int:
    m = 0
    for c in cells:
        m |= 1 << c
    return m


def parse_cells(text: str) -> list[int]:
    """All cell names in ``text`` (``B2,C3 D4`` or ``B2C3D4``), in order."""
    return [CELL_INDEX[f"{m.group(1).upper()}{m.group(2)}"] for m in _CELL_RE.finditer(text)]


def _shape_cells(rows: str) -> list[tuple[int, int]]:
    return [(r, c) for r, line in enumerate(rows.split("/")) for c, ch in enumerate(line) if ch == "#"]


def _variants(cells: list[tuple[int, int]]) -> set[tuple[tuple[int, int], ...]]:
    out = set()
    pts = cells
    for _ in range(4):
        pts = [(c, -r) for r, c in pts]  # rotate a quarter turn
        for variant in (pts, [(r, -c) for r, c in pts]):  # and its mirror image
            r0 = min(r for r, _ in variant)
            c0 = min(c for _, c in variant)
            out.add(tuple(sorted((r - r0, c - c0) for r, c in variant)))
    return out


def _placements(rows: str) -> tuple[int, ...]:
    masks = set()
    for variant in _variants(_shape_cells(rows)):
        h = max(r for r, _ in variant) + 1
        w = max(c for _, c in variant) + 1
        for dr in range(SIZE - h + 1):
            for dc in range(SIZE - w + 1):
                masks.add(mask_of((r + dr) * SIZE + c + dc for r, c in variant))
    return tuple(sorted(masks))


PLACEMENTS: dict[str, tuple[int, ...]] = {card[0]: _placements(card[5]) for card in CARDS}
PLACEMENT_SETS: dict[str, frozenset[int]] = {k: frozenset(v) for k, v in PLACEMENTS.items()}
SHAPE_SIZE: dict[str, int] = {card[0]: card[5].count("#") for card in CARDS}
PLACEMENT_CELLS: dict[int, tuple[int, ...]] = {pl: cells_of(pl) for pls in PLACEMENTS.values() for pl in pls}
