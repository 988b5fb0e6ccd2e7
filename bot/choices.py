"""Offering many legal moves in few choices: groups by common prefix, and board-cell grids.

Discord menus hold at most 25 choices; the terminal lists moves the same way,
so one rule groups them for both.  No Discord here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

CHOICE_LIMIT = 25


def group_moves(
    moves: Sequence[str], prefix: str = "", *, limit: int | None = CHOICE_LIMIT
) -> list[tuple[str, list[str]]]:
    """Split moves into at most 25 groups by a common text prefix, for select menus.

    Returns ``(prefix, moves)`` pairs; a group of one move is that move itself.
    When even the shortest longer prefix makes more than 25 groups, a menu shows
    the first 25; with ``limit=None`` (a listing with room) every group is kept.
    """
    moves = [m for m in moves if m.startswith(prefix)]
    if len(moves) <= CHOICE_LIMIT:
        return [(m, [m]) for m in moves]
    longest = max(len(m) for m in moves)
    best: dict[str, list[str]] | None = None
    for k in range(len(prefix) + 1, longest + 1):
        groups: dict[str, list[str]] = {}
        for m in moves:
            groups.setdefault(m[:k], []).append(m)
        if len(groups) > CHOICE_LIMIT:
            break
        best = groups
    if best is None:  # even one more character splits into too many: show the first 25 prefixes
        groups = {}
        for m in moves:
            groups.setdefault(m[: len(prefix) + 1], []).append(m)
        best = dict(list(groups.items())[:limit]) if limit is not None else groups
    return list(best.items())


_CELL = re.compile(r"^(.*?)([A-E][1-5])$")


def cell_grid(moves: Sequence[str]) -> tuple[str, set[str]] | None:
    """If every move is one common text followed by a cell A1..E5, that text and the cells."""
    if len(moves) < 2:
        return None
    stems, cells = set(), set()
    for move in moves:
        m = _CELL.match(move)
        if m is None:
            return None
        stems.add(m.group(1))
        cells.add(m.group(2))
    if len(stems) != 1 or len(cells) != len(moves):
        return None
    return stems.pop(), cells
