"""The computer's ways (engines/pachakuna/ways.py ``Search``) against a plain 0-1 search.

The player's search finds its costs level by level and only as far as asked, and follows the
state-by-state search for a way only as far as that way needs; the plain search below does
all of it at once, the way the player's choices were first written.  Both must give the same
costs, the same ways (ties included) and the same worth of every field, whatever is asked first.
"""

from __future__ import annotations

import random
from collections import deque

import pytest

from engines import pachakuna as P
from engines.pachakuna import ai, ways
from engines.pachakuna import data as D

CIRC = [[min(abs(a - b), 6 - abs(a - b)) for b in range(6)] for a in range(6)]


def plain_search(masks: dict[int, int], source: int, fixed: frozenset[int]) -> tuple[list[int], list[int]]:
    """Cost and origin of every (field << 3 | entry edge) state, 6 being the start's entry."""
    m = [63] * 100  # villages: every edge open
    for c, v in masks.items():
        m[c] = v
    dist = [99] * 800
    parent = [-1] * 800
    s0 = (source << 3) | 6
    dist[s0] = 0
    dq = deque([s0])
    while dq:
        st = dq.popleft()
        c, e = st >> 3, st & 7
        village = c in D.VILLAGES
        if village and c != source:
            continue
        mc = m[c]
        for d, n in D.NEIGHBOURS[c]:
            if village:
                cost = 0
            elif e == 6:
                if (mc >> d) & 1:
                    cost = 0
                elif c in fixed:
                    continue
                else:
                    cost = 1
            elif (mc >> d) & 1 and (mc >> e) & 1:
                cost = 0
            elif CIRC[e][d] <= bin(mc).count("1") - 1 and c not in fixed:
                cost = 1
            else:
                continue
            ns = (n << 3) | ((d + 3) % 6)
            if dist[st] + cost < dist[ns]:
                dist[ns] = dist[st] + cost
                parent[ns] = st
                if cost == 0:
                    dq.appendleft(ns)
                else:
                    dq.append(ns)
    return dist, parent


def plain_way(dist: list[int], parent: list[int], v: int) -> list[tuple[int, int, int]]:
    st = min(((v << 3) | e for e in range(6)), key=lambda s: dist[s])
    if dist[st] >= 99:
        return []
    out = []
    while parent[st] >= 0:
        prev = parent[st]
        if prev >> 3 not in D.VILLAGES:
            out.append((prev >> 3, prev & 7, ((st & 7) + 3) % 6))
        st = prev
    return out[::-1]


def boards(seed: int, count: int = 6):
    """Boards of a seeded game between normal players, a few moves apart: (state, seat to move)."""
    state = P.new_game(P.Config(board=[P.Board.A, P.Board.B, P.Board.RANDOM][seed % 3]), 2, seed)
    rng = random.Random(seed)
    step = 0
    while P.outcome(state) is None and count:
        seat = state.turn
        if step % 9 == 0:
            yield state, seat
            count -= 1
        legal = P.legal_moves(state, seat)
        state, _ = P.apply_move(state, seat, ai.normal_move(P.view_for(state, seat), legal, rng))
        step += 1


@pytest.mark.parametrize("seed", range(3))
def test_the_ways_are_those_of_the_plain_search(seed):
    rng = random.Random(seed)
    for state, _ in boards(seed):
        tiles = tuple(sorted(state.tiles.items()))
        for black in (False, True):
            masks = ways.masks(dict(tiles), black)
            for source in rng.sample(D.CELLS, 8) + list(D.VILLAGE_ORDER[:2]):
                fixed = frozenset(rng.sample(D.TILE_CELLS, rng.choice([0, 2, 6])))
                dist, parent = plain_search(masks, source, fixed)
                asked = list(D.VILLAGE_ORDER) + rng.sample(D.CELLS, 10)
                rng.shuffle(asked)
                way = ways.Search(masks, source, fixed)
                for cell in asked:  # ways, costs and fields asked in any order
                    ends = [dist[(cell << 3) | e] for e in range(6)]
                    to_village = min(ends)
                    assert way.steps_to(cell) == plain_way(dist, parent, cell)
                    assert way.to_village(cell) == (None if to_village >= 99 else to_village)
                    if cell in D.VILLAGES:
                        field = to_village
                    else:
                        field = min(d + (0 if (masks[cell] >> e) & 1 else 1) for e, d in enumerate(ends))
                    assert way.to_field(cell) == (None if field >= 99 else field)
                assert way.ways() == (dist, parent)


@pytest.mark.parametrize("seed", range(3))
def test_a_fields_worth_is_the_best_over_every_village(seed):
    """The potential of a field stops early (worthiest villages first, ways no longer than could
    still do better): it is the best over every village all the same, for any decay."""
    tunes = [ai.NORMAL, ai.SHARP, ai.Tune(decay=1.0), ai.Tune(decay=0.0), ai.Tune(decay=1.3)]
    for state, seat in boards(seed, 3):
        for me in (seat, 1 - seat):
            view = P.view_for(state, me)
            masks = ways.masks(dict(view.tiles), me == 1)
            costs = {}  # each village's cost to each field, by the plain search
            for v in D.VILLAGE_ORDER:
                dist, _ = plain_search(masks, v, frozenset())
                ends = {c: [dist[(c << 3) | e] for e in range(6)] for c in D.CELLS}
                costs[v] = {
                    c: min(ends[c])
                    if c in D.VILLAGES
                    else min(d + (0 if (masks[c] >> e) & 1 else 1) for e, d in enumerate(ends[c]))
                    for c in D.CELLS
                }
            for tune in tunes:
                plan = ai._Plan(view, me, tune)
                for load in [*D.COLOURS, None]:
                    targets = plan.targets(load)
                    for cell in D.CELLS:
                        best = 0.0
                        for val, v in targets:
                            if costs[v][cell] < 99:
                                best = max(best, val * tune.decay ** costs[v][cell])
                        assert plan.potential(cell, load) == best
