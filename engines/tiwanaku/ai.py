"""The computer player: reads only its seat's view.

It works out which crops are certain from what it can see (discovered
terrain, planted crops, its own peeks): a region whose cells and whole border
are known is a closed region, and the crop puzzle restricted to the closed
regions (planted crops elsewhere still forbid their neighbours) has every
true layout among its solutions, so a cell with one value across all of
them is certain.  It divines certain crops, walks explorers onto tiles whose
crop it knows, explores for cubes (preferring the terrains it lacks for an
offering), and trades or offers when that helps.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from engines.tiwanaku.board import Puzzle, SearchTooLong, neighbours4, regions_of
from engines.tiwanaku.data import TERRAINS
from engines.tiwanaku.moves import Divine, Done, Enter, Extra, Leave, Move, Pass, Peek, Step, Trade

if TYPE_CHECKING:
    from engines.tiwanaku.rules import View


def knowledge(view: View) -> tuple[list[str | None], dict[int, int]]:
    """Terrain known per cell and crops known per cell, for the view's seat."""
    terrain = list(view.terrain)
    crops = {c: v for c, v in enumerate(view.crops) if v is not None}
    for c, seen in view.peeks.items():
        c = int(c)
        if seen.isdigit():
            crops[c] = int(seen)
        elif terrain[c] is None:
            terrain[c] = seen
    return terrain, crops


def crop_candidates(view: View, cells: Sequence[int] | None = None) -> dict[int, set[int]]:
    """Possible crops per cell of a closed region (only ``cells`` if given)."""
    terrain, crops = knowledge(view)
    cols = view.cols
    rid = regions_of(terrain, cols)
    n4 = neighbours4(cols)
    closed: dict[int, bool] = {}
    for c, r in enumerate(rid):
        if r < 0:
            continue
        ok = all(terrain[j] is not None for j in n4[c])
        closed[r] = closed.get(r, True) and ok
    for r in list(closed):
        if closed[r] and sum(1 for x in rid if x == r) > 5:
            closed[r] = False
    active = [r if r >= 0 and closed.get(r) else -1 for r in rid]
    puzzle = Puzzle(active, cols, crops)
    want = [c for c in (cells if cells is not None else range(len(rid))) if active[c] >= 0]
    if not want:
        return {}
    doms = puzzle.candidates()
    if doms is None:
        return {}
    out = {c: {v for v in range(1, 6) if doms[c] >> v & 1} for c in want}
    unsure = [c for c in want if len(out[c]) > 1]
    if unsure:
        try:
            sols = puzzle.solutions(40, max_nodes=200)
        except SearchTooLong:
            sols = []
        if sols and len(sols) < 40:
            for c in unsure:
                out[c] = {s[c] for s in sols}
    return out


def _cell(view: View, move: Divine | Peek) -> int:
    return move.row * view.cols + move.col


def computer_move(view: View, legal: list[Move], rng: random.Random) -> Move:
    if not legal:
        raise ValueError("no legal move to choose from")
    seat = view.seat
    if seat is None:
        raise ValueError("a computer player chooses from its own seat's view")
    divines = [m for m in legal if isinstance(m, Divine)]
    cand: dict[int, set[int]] = {}
    if divines:
        cells = sorted({_cell(view, m) for m in divines})
        cand = crop_candidates(view, cells)
        for c in cells:  # a crop seen on the disc is certain
            seen = view.peeks.get(c)
            if seen is not None and seen.isdigit():
                cand[c] = {int(seen)}
        sure = [(c, next(iter(v))) for c, v in cand.items() if len(v) == 1]
        if sure:
            c, v = max(sure, key=lambda cv: cv[1])
            for m in divines:
                if _cell(view, m) == c and m.crop == v:
                    return m
    if view.phase == "final":
        options = [(c, v) for c, v in cand.items() if len(v) == 2]
        if options:
            c, vals = options[0]
            v = max(vals)
            for m in divines:
                if _cell(view, m) == c and m.crop == v:
                    return m
        return next(m for m in legal if isinstance(m, Pass))
    if view.phase == "divining":
        return next(m for m in legal if isinstance(m, Done))

    held = list(view.cubes[seat])
    if any(isinstance(m, Extra) for m in legal):
        # an offering: look under one of our explorers whose crop is unsure (then divine it),
        # otherwise take the extra action
        unsure = [c for c in sorted({_cell(view, m) for m in divines}) if len(cand.get(c, ())) != 1]
        peeks = {_cell(view, m): m for m in legal if isinstance(m, Peek)}
        for c in unsure:
            if c in peeks:
                return peeks[c]
        return next(m for m in legal if isinstance(m, Extra))
    if sum(held) >= 4:
        trade = _useful_trade(held, legal)
        if trade is not None:
            return trade

    moves = [m for m in legal if isinstance(m, (Enter, Step))]
    terrain, crops = knowledge(view)
    # walk onto a tile whose crop is certain
    targets = {}
    free_tiles = [
        c
        for c in range(len(terrain))
        if view.terrain[c] is not None and view.crops[c] is None and view.explorer[c] < 0
    ]
    if free_tiles:
        for c, crops_here in crop_candidates(view, free_tiles).items():
            if len(crops_here) == 1:
                targets[c] = next(iter(crops_here))
        for c in free_tiles:
            seen = view.peeks.get(c)
            if seen is not None and seen.isdigit():
                targets[c] = int(seen)
    if targets:
        best = [m for m in moves if _dest(view, m) in targets]
        if best:
            return max(best, key=lambda m: (targets[_dest(view, m)], rng.random()))
    explore = [m for m in moves if view.terrain[_dest(view, m)] is None]
    if explore:
        lacking = {TERRAINS[i] for i, k in enumerate(held) if k == 0}

        def score(m) -> tuple[float, float]:
            d = _dest(view, m)
            seen = view.peeks.get(d)
            bonus = 1.0 if (seen in lacking) else 0.0
            return (bonus, rng.random())

        return max(explore, key=score)
    others = [m for m in legal if not isinstance(m, (Divine, Trade, Peek))]
    pool = others or legal
    # avoid pointless leaving when something else exists
    non_leave = [m for m in pool if not isinstance(m, Leave)]
    return rng.choice(non_leave or pool)


def _dest(view: View, m: Enter | Step) -> int:
    if isinstance(m, Enter):
        return m.row * view.cols + m.col
    return m.to_row * view.cols + m.to_col


def _useful_trade(held: list[int], legal: list[Move]) -> Trade | None:
    """With 4 cubes and duplicates, trade a duplicate pair for a missing terrain."""
    missing = [TERRAINS[i] for i, k in enumerate(held) if k == 0]
    if not missing:
        return None
    dup = [TERRAINS[i] for i, k in enumerate(held) if k >= 2]
    if not dup:
        return None
    give = dup[0] * 2
    for m in legal:
        if isinstance(m, Trade) and m.give == give and m.get == missing[0]:
            return m
    return None
