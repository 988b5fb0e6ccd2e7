"""Component data and board geometry for P'achakuna.

Everything the rulings in ``DECISIONS.md`` invent lives here as plain data so
it can be corrected in one place: the board shape and numbering, the villages
and their colours, the tile kinds, the two assembly plans and the demands.

Geometry.  The board is a hexagon of side 5 made of pointy-top hexes, rows
1..9 of 5-6-7-8-9-8-7-6-5 cells; cell ``rc`` is row ``r``, ``c``-th from the
left (11..95).  Edges are numbered clockwise from east: 0 E, 1 SE, 2 SW,
3 W, 4 NW, 5 NE.  A tile is written kind + rotation (``N3``): its mountain
edges are rot, rot+1, ... (3 for N, 2 for F, 4 for M); the rest are valley.
"""

from __future__ import annotations

from itertools import permutations

ROW_LEN = {1: 5, 2: 6, 3: 7, 4: 8, 5: 9, 6: 8, 7: 7, 8: 6, 9: 5}
CELLS: tuple[int, ...] = tuple(r * 10 + c for r in range(1, 10) for c in range(1, ROW_LEN[r] + 1))

DIR_NAMES = ("E", "SE", "SW", "W", "NW", "NE")
# (row step, doubled-x step) for each edge direction
_DIR_STEP = ((0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1))

# The seven resource colours that count for the win, in a fixed order, with letters.
COLOURS: tuple[str, ...] = ("white", "yellow", "orange", "red", "purple", "blue", "green")
LETTER = {"white": "W", "yellow": "Y", "orange": "O", "red": "R", "purple": "P", "blue": "B", "green": "G"}
FROM_LETTER = {v: k for k, v in LETTER.items()}
BROWN = "brown"
SUPPLY_KINDS: tuple[str, ...] = COLOURS + (BROWN,)

# The villages and their colours (centre white, corners as the rulings say).
VILLAGES: dict[int, str] = {
    11: "yellow",
    15: "orange",
    51: "green",
    55: "white",
    59: "red",
    91: "blue",
    95: "purple",
}
VILLAGE_ORDER: tuple[int, ...] = tuple(sorted(VILLAGES))
TILE_CELLS: tuple[int, ...] = tuple(c for c in CELLS if c not in VILLAGES)

# Tile kinds: number of mountain edges, and how many of each exist.
KIND_MOUNTAINS = {"N": 3, "F": 2, "M": 4}
KIND_COUNTS = {"N": 24, "F": 15, "M": 15}

MAX_LLAMAS = 3
LLAMA_PRICE = 4
ROTATION_PRICE = 2
SEAT_NAMES = ("White", "Black")  # seat 0 plays the white llamas (valleys), seat 1 the black (mountains)


def _x2(r: int, c: int) -> int:
    return 2 * (c - 1) + abs(r - 5)


def _cell_at(r: int, x2: int) -> int | None:
    if r not in ROW_LEN:
        return None
    off = abs(r - 5)
    if (x2 - off) % 2:
        return None
    c = (x2 - off) // 2 + 1
    if 1 <= c <= ROW_LEN[r]:
        return r * 10 + c
    return None


def _neighbours() -> dict[int, tuple[tuple[int, int], ...]]:
    out = {}
    for cell in CELLS:
        r, c = divmod(cell, 10)
        x = _x2(r, c)
        lst = []
        for d, (dr, dx) in enumerate(_DIR_STEP):
            n = _cell_at(r + dr, x + dx)
            if n is not None:
                lst.append((d, n))
        out[cell] = tuple(lst)
    return out


NEIGHBOURS: dict[int, tuple[tuple[int, int], ...]] = _neighbours()
"""cell -> ((direction, neighbour cell), ...) for the neighbours on the board."""


def mirror(cell: int) -> int:
    """The cell the board's 180-degree turn sends ``cell`` to."""
    r, c = divmod(cell, 10)
    return (10 - r) * 10 + (ROW_LEN[r] + 1 - c)


def mountain_mask(code: str) -> int:
    """Bit d set when edge d of the tile ``code`` (e.g. ``"N3"``) is mountain."""
    return _MMASK[code]


_MMASK = {
    f"{k}{rot}": sum(1 << ((rot + i) % 6) for i in range(n))
    for k, n in KIND_MOUNTAINS.items()
    for rot in range(6)
}


def _parse_plan(text: str) -> dict[int, str]:
    rows = [line.split() for line in text.strip().splitlines()]
    assert [len(r) for r in rows] == [ROW_LEN[i] for i in range(1, 10)], "plan has the wrong shape"
    tiles = {}
    for r, row in enumerate(rows, start=1):
        for c, code in enumerate(row, start=1):
            cell = r * 10 + c
            if code.endswith("*"):
                assert cell in VILLAGES, f"village marker at {cell}"
                continue
            assert code in _MMASK, code
            tiles[cell] = code
    return tiles


PLAN_A_TEXT = """
         Y*  M5  F3  M4  O*
       F4  N5  N1  N1  N5  F3
     M1  N1  M1  F5  M0  N0  M1
   F1  N4  F3  N0  N3  F1  N5  F4
 G*  N0  F1  N0  W*  N0  M0  N0  R*
   M3  N5  M0  N3  N0  M2  N4  M0
     F2  N0  F1  M4  F2  N1  F2
       M2  N5  N1  N1  N5  M3
         B*  F5  M2  F0  P*
"""

PLAN_B_TEXT = """
         Y*  N4  F2  M5  O*
       M2  M0  F0  N0  M2  N0
     F4  N4  N4  N1  N5  F5  F3
   N1  F4  N4  F0  M3  N4  N0  M5
 G*  F1  N1  M5  W*  F0  N1  M0  R*
   F0  N0  N4  F4  M5  N4  M3  N1
     M2  M4  N5  N1  N4  N4  M3
       N0  F3  N0  M5  F1  F3
         B*  F0  M1  N4  P*
"""

PLANS: dict[str, dict[int, str]] = {"A": _parse_plan(PLAN_A_TEXT), "B": _parse_plan(PLAN_B_TEXT)}

# The 42 demands: every ordered pair (big colour, small colour) of two different
# colours, written by their letters, big first ("RY": red big, yellow small).
DEMANDS: tuple[str, ...] = tuple(LETTER[a] + LETTER[b] for a, b in permutations(COLOURS, 2))


def demand_colours(demand: str) -> tuple[str, str]:
    """(big colour, small colour) of a demand such as ``"RY"``."""
    return FROM_LETTER[demand[0]], FROM_LETTER[demand[1]]


def demand_fits(demand: str, village: int, setup: bool = False) -> bool:
    """A demand fits a village when neither colour is the village's (and, at setup, neither is white)."""
    big, small = demand_colours(demand)
    colour = VILLAGES[village]
    if big == colour or small == colour:
        return False
    if setup and "white" in (big, small):
        return False
    return True


def complement(code: str) -> str:
    """The tile that the fair 180-degree turn with valley/mountain swapped puts opposite ``code``."""
    kind, rot = code[0], int(code[1])
    if kind == "N":
        return f"N{rot}"
    if kind == "F":
        return f"M{(rot - 1) % 6}"
    return f"F{(rot + 1) % 6}"


def is_fair(tiles: dict[int, str]) -> bool:
    return all(tiles[mirror(c)] == complement(tiles[c]) for c in TILE_CELLS)
