"""The computer player: a greedy builder that reads only its own view."""

from __future__ import annotations

import random
from functools import lru_cache

from .geometry import PLACEMENTS, SIZE, cell_of, placement, placement_from_text


def _dist(a: int, b: int) -> int:
    return abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE)


@lru_cache(maxsize=1)
def _reach() -> list[list[int]]:
    """For each placement, its distance to every board square (computed once)."""
    return [[min(_dist(w, c) for c in pl.cells) for w in range(SIZE * SIZE)] for pl in PLACEMENTS]


def computer_move(view, legal, rng: random.Random):
    """Call Gwinea as soon as the village allows it; otherwise build the hut that
    covers the most water (then fruit) and brings the village closest to the
    water holes still open; say 'done' when nothing gets closer."""
    from .rules import Done, Gwinea, Place

    if not legal:
        raise ValueError("no legal move to choose from")
    for m in legal:
        if isinstance(m, Gwinea):
            return m
    seat = view.seat
    places = [m for m in legal if isinstance(m, Place)]
    done = next((m for m in legal if isinstance(m, Done)), None)
    if seat is None or not places:
        return done if done is not None else rng.choice(legal)
    board = view.boards[seat]
    water = [cell_of(c) for c in board.water]
    fruit = 0
    for c in board.fruit:
        fruit |= 1 << cell_of(c)
    occ_cells: list[int] = []
    occ = 0
    for text in view.villages[seat]:
        pl = placement_from_text(text)
        occ |= pl.mask
        occ_cells.extend(pl.cells)
    if not occ_cells:
        occ_cells = [cell_of(board.totems[view.totem])]
    open_water = [w for w in water if not occ >> w & 1]
    base = {w: min(_dist(w, c) for c in occ_cells) for w in open_water}
    base_total = sum(base.values())
    best = None
    best_score = None
    reach = _reach()
    for m in places:
        fit = placement(m.piece, m.orient, m.anchor)
        if fit is None:  # a legal Place always fits the board
            continue
        row = reach[fit.index]
        total = 0
        new_water = 0
        for w in open_water:
            d = row[w]
            if d == 0:
                new_water += 1
                continue
            total += d if d < base[w] else base[w]
        new_fruit = (fit.mask & fruit & ~occ).bit_count()
        gain = base_total - total
        score = 100 * new_water + 12 * new_fruit + 4 * gain + rng.random()
        if new_water == 0 and gain <= 0 and new_fruit == 0:
            continue
        if best_score is None or score > best_score:
            best, best_score = m, score
    if best is None:
        return done if done is not None else rng.choice(legal)
    return best
