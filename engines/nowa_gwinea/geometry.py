"""Board cells, the 12 pentomino huts, their 8 orientations and every placement.

Cells are numbered ``row * 8 + col`` (row 0 = A, col 0 = column 1) and named
like ``C4``.  A placement is a hut letter, an orientation index 0-7 and an
anchor cell; the anchor is the hut's first square in reading order (the
leftmost square of its top row).  Orientation ``k``: the hut as drawn in the
hut chart, mirrored left-right first when ``k >= 4``, then turned ``k % 4``
quarter turns clockwise.  Orientations that give the same shape share the
smallest index (the canonical one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from engines.core import Said, said, said_n

SIZE = 8
ROWS = "ABCDEFGH"
PIECES = "FILNPTUVWXYZ"

# The huts as drawn in the hut chart (orientation 0), as (row, col) squares.
BASE: dict[str, tuple[tuple[int, int], ...]] = {
    "F": ((0, 1), (0, 2), (1, 0), (1, 1), (2, 1)),
    "I": ((0, 0), (1, 0), (2, 0), (3, 0), (4, 0)),
    "L": ((0, 0), (1, 0), (2, 0), (3, 0), (3, 1)),
    "N": ((0, 1), (1, 1), (2, 0), (2, 1), (3, 0)),
    "P": ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0)),
    "T": ((0, 0), (0, 1), (0, 2), (1, 1), (2, 1)),
    "U": ((0, 0), (0, 2), (1, 0), (1, 1), (1, 2)),
    "V": ((0, 0), (1, 0), (2, 0), (2, 1), (2, 2)),
    "W": ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2)),
    "X": ((0, 1), (1, 0), (1, 1), (1, 2), (2, 1)),
    "Y": ((0, 1), (1, 0), (1, 1), (2, 1), (3, 1)),
    "Z": ((0, 0), (0, 1), (1, 1), (2, 1), (2, 2)),
}


def cell_name(cell: int) -> str:
    return f"{ROWS[cell // SIZE]}{cell % SIZE + 1}"


def parse_cell(text: str) -> int | None:
    text = text.strip().upper()
    if len(text) != 2 or text[0] not in ROWS or text[1] not in "12345678":
        return None
    return ROWS.index(text[0]) * SIZE + int(text[1]) - 1


def cell_of(text: str) -> int:
    """The index of a cell name that is known to be on the board (the boards' data, our own texts);
    ``parse_cell`` is for what a player typed."""
    cell = parse_cell(text)
    if cell is None:
        raise ValueError(f"{text!r} is not a cell of the board")
    return cell


def _normalise(cells) -> tuple[tuple[int, int], ...]:
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def shape(piece: str, orient: int) -> tuple[tuple[int, int], ...]:
    """The squares of ``piece`` in orientation ``orient`` (normalised, sorted;
    the first square is the anchor)."""
    cells = list(BASE[piece])
    if orient >= 4:
        cells = [(r, -c) for r, c in cells]
    for _ in range(orient % 4):
        cells = [(c, -r) for r, c in cells]
    return _normalise(cells)


SHAPES: dict[str, tuple[tuple[tuple[int, int], ...], ...]] = {
    p: tuple(shape(p, k) for k in range(8)) for p in PIECES
}
CANONICAL: dict[str, tuple[int, ...]] = {
    p: tuple(SHAPES[p].index(SHAPES[p][k]) for k in range(8)) for p in PIECES
}
DISTINCT: dict[str, tuple[int, ...]] = {p: tuple(sorted(set(CANONICAL[p]))) for p in PIECES}


def cells_of(piece: str, orient: int, anchor: int) -> tuple[int, ...] | None:
    """The board cells a hut covers, or ``None`` if part of it is off the board."""
    sq = SHAPES[piece][orient]
    ar, ac = sq[0]
    r0, c0 = divmod(anchor, SIZE)
    out = []
    for r, c in sq:
        rr, cc = r0 + r - ar, c0 + c - ac
        if not (0 <= rr < SIZE and 0 <= cc < SIZE):
            return None
        out.append(rr * SIZE + cc)
    return tuple(sorted(out))


def _neighbours(cell: int, diagonal: bool) -> list[int]:
    r, c = divmod(cell, SIZE)
    steps = ((1, 1), (1, -1), (-1, 1), (-1, -1)) if diagonal else ((1, 0), (-1, 0), (0, 1), (0, -1))
    out = []
    for dr, dc in steps:
        rr, cc = r + dr, c + dc
        if 0 <= rr < SIZE and 0 <= cc < SIZE:
            out.append(rr * SIZE + cc)
    return out


def mask_of(cells) -> int:
    m = 0
    for c in cells:
        m |= 1 << c
    return m


def cells_in(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True)
class Placement:
    """One way to put one hut on the board."""

    index: int
    piece: str
    orient: int
    anchor: int
    cells: tuple[int, ...]
    mask: int  # the squares it covers
    edge: int  # squares sharing a side with it (outside it)
    corner: int  # squares touching it only at a corner

    @property
    def text(self) -> str:
        return f"{self.piece}{self.orient}{cell_name(self.anchor)}"


def _build() -> tuple[list[Placement], dict[tuple[str, int, int], Placement]]:
    out: list[Placement] = []
    lookup: dict[tuple[str, int, int], Placement] = {}
    for p in PIECES:
        for k in DISTINCT[p]:
            for anchor in range(SIZE * SIZE):
                cells = cells_of(p, k, anchor)
                if cells is None:
                    continue
                mask = mask_of(cells)
                edge = 0
                diag = 0
                for c in cells:
                    edge |= mask_of(_neighbours(c, False))
                    diag |= mask_of(_neighbours(c, True))
                edge &= ~mask
                corner = diag & ~mask & ~edge
                pl = Placement(len(out), p, k, anchor, cells, mask, edge, corner)
                out.append(pl)
                lookup[(p, k, anchor)] = pl
    return out, lookup


PLACEMENTS, LOOKUP = _build()
BY_PIECE: dict[str, list[Placement]] = {p: [pl for pl in PLACEMENTS if pl.piece == p] for p in PIECES}
COVERING: list[list[Placement]] = [[pl for pl in PLACEMENTS if pl.mask >> c & 1] for c in range(SIZE * SIZE)]
# the same as sets of placements, one bit per placement index: those covering each cell, and
# those of each hut
COVERING_BITS: tuple[int, ...] = tuple(sum(1 << pl.index for pl in COVERING[c]) for c in range(SIZE * SIZE))
PIECE_BITS: dict[str, int] = {p: sum(1 << pl.index for pl in BY_PIECE[p]) for p in PIECES}


def covering_any(mask: int) -> int:
    """The placements (as bits of their index) covering at least one cell of ``mask``."""
    out = 0
    while mask:
        low = mask & -mask
        out |= COVERING_BITS[low.bit_length() - 1]
        mask ^= low
    return out


def placements_in(bits: int) -> list[Placement]:
    """The placements whose index bits are set, in index order."""
    out = []
    while bits:
        low = bits & -bits
        out.append(PLACEMENTS[low.bit_length() - 1])
        bits ^= low
    return out


def placement(piece: str, orient: int, anchor: int) -> Placement | None:
    return LOOKUP.get((piece, CANONICAL[piece][orient], anchor))


@lru_cache(maxsize=4096)
def placement_from_text(text: str) -> Placement:
    """``F3C4`` -> its Placement (raises KeyError/ValueError when off the board)."""
    piece, orient, anchor = text[0].upper(), int(text[1]), parse_cell(text[2:])
    if anchor is None:
        raise ValueError(text)
    pl = placement(piece, orient, anchor)
    if pl is None:
        raise KeyError(text)
    return pl


def linked_to(placed: Sequence[Placement], first: Placement) -> list[Placement]:
    """The huts of ``placed`` linked to ``first`` corner to corner, directly or
    through other huts (``first`` included), in the order they are reached."""
    group = [first]
    for hut in group:
        group.extend(o for o in placed if o not in group and hut.corner & o.mask)
    return group


def village_problems(placed: list[Placement], rolled: int, other_totems: int) -> Said | None:
    """Why a village breaks the placement rules (``None`` if it is legal), as a sentence.

    ``rolled`` is the cell of the rolled totem, ``other_totems`` a mask of the
    other totems' cells.  A legal village is one group: every hut is linked,
    corner to corner, to the hut on the rolled totem.  (Cached: the same villages are
    judged again and again, and the answer is a frozen sentence.)
    """
    return _village_problems(tuple(placed), rolled, other_totems)


@lru_cache(maxsize=8192)
def _village_problems(placed: tuple[Placement, ...], rolled: int, other_totems: int) -> Said | None:
    if not placed:
        return None
    if len({a.piece for a in placed}) != len(placed):
        return said("a hut is used twice")
    occupied = 0
    for i, a in enumerate(placed):
        if a.mask & occupied:
            return said("hut {hut} overlaps another hut", hut=a.piece)
        occupied |= a.mask
        if a.mask & other_totems:
            return said("hut {hut} covers a totem other than the rolled one", hut=a.piece)
        for b in placed[i + 1 :]:
            if a.mask & b.edge:
                return said("huts {hut} and {other} touch along an edge", hut=a.piece, other=b.piece)
    totem_hut = next((a for a in placed if a.mask >> rolled & 1), None)
    if totem_hut is None:
        return said("no hut covers the rolled totem at {cell}", cell=cell_name(rolled))
    group = linked_to(placed, totem_hut)
    apart = [a.piece for a in placed if a not in group]
    if apart:
        return said_n(
            len(apart),
            "hut {huts} is not linked corner to corner to the hut on the rolled totem "
            "(hut {root}); a village is one group",
            "huts {huts} are not linked corner to corner to the hut on the rolled totem "
            "(hut {root}); a village is one group",
            huts=", ".join(apart),
            root=totem_hut.piece,
        )
    return None
