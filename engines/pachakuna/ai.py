"""The computer player: a greedy one-ply trader that reads only its view."""

from __future__ import annotations

import random
from collections import deque

from . import data as D
from .rules import Buy, End, Move, MoveLlama, Rotate, Sell, View


def _masks(tiles: dict[int, str], black: bool) -> dict[int, int]:
    out = {}
    for c, code in tiles.items():
        m = D.mountain_mask(code)
        out[c] = m if black else 63 ^ m
    return out


def _reach(masks: dict[int, int], start: int) -> set[int]:
    villages = D.VILLAGES
    nbrs = D.NEIGHBOURS
    seen = {start}
    stack = [start]
    while stack:
        c = stack.pop()
        if c in villages and c != start:
            continue
        mc = 63 if c in villages else masks[c]
        for d, n in nbrs[c]:
            if n in seen or not (mc >> d) & 1:
                continue
            if n not in villages and not (masks[n] >> ((d + 3) % 6)) & 1:
                continue
            seen.add(n)
            stack.append(n)
    seen.discard(start)
    return seen


class _Eval:
    def __init__(self, view: View, me: int):
        self.me = me
        self.sup = dict(view.supply[me])
        self.demands = dict(view.demands)

    def lack(self, colour: str) -> bool:
        return self.sup.get(colour, 0) == 0

    def hold(self, colour: str | None) -> float:
        if colour is None:
            return 0.0
        return 3.0 if self.lack(colour) else 0.5

    def reload(self, village: int) -> float:
        return 4.0 if self.lack(D.VILLAGES[village]) else 1.0

    def sale(self, load: str | None, village: int) -> float | None:
        """Value of selling ``load`` at ``village`` now (None if no sale is possible)."""
        demand = self.demands.get(village)
        if load is None or demand is None or load == D.VILLAGES[village]:
            return None
        big, small = D.demand_colours(demand)
        if load == big:
            gain = (10.0 if self.lack(load) else 2.0) + 2.0
        elif load == small:
            gain = 10.0 if self.lack(load) else 1.5
        else:
            gain = 0.0
        return gain + self.reload(village) - self.hold(load)

    def best_from(self, masks: dict[int, int], start: int, load: str | None) -> float:
        best = 0.0
        for c in _reach(masks, start):
            if c in D.VILLAGES:
                v = self.sale(load, c)
                if v is not None and v > best:
                    best = v
        return best


_IS_VILLAGE = [c in D.VILLAGES for c in range(100)]
_NBR = [tuple((d, n, (d + 3) % 6) for d, n in D.NEIGHBOURS.get(c, ())) for c in range(100)]


def _dist(masks: dict[int, int], source: int, parents: dict[int, int] | None = None) -> dict[int, int]:
    """0-1 search: how many closed tile edges lie on the cheapest way from ``source`` to each cell.

    Villages other than the source are reached but never crossed.  Each closed edge on the
    way counts one (roughly, one more rotation needed)."""
    isv = _IS_VILLAGE
    nbr = _NBR
    m = [63] * 100
    for c, v in masks.items():
        m[c] = v
    dist = [99] * 100
    dist[source] = 0
    dq = deque([source])
    while dq:
        c = dq.popleft()
        if isv[c] and c != source:
            continue
        dc = dist[c]
        mc = m[c]
        for d, n, o in nbr[c]:
            cost = 0 if (mc >> d) & 1 else 1
            if not (m[n] >> o) & 1:
                cost += 1
            nd = dc + cost
            if nd < dist[n]:
                dist[n] = nd
                if parents is not None:
                    parents[n] = c
                if cost == 0:
                    dq.appendleft(n)
                else:
                    dq.append(n)
    return {c: dist[c] for c in D.CELLS if dist[c] < 99}


def _path(masks: dict[int, int], source: int, target: int) -> list[int]:
    """Cells of a cheapest way (as in :func:`_dist`) from ``source`` to ``target``, both included."""
    parents: dict[int, int] = {}
    dist = _dist(masks, source, parents)
    if target not in dist:
        return []
    out = [target]
    while out[-1] != source:
        out.append(parents[out[-1]])
    out.reverse()
    return out


def computer_move(view: View, legal: list[Move], rng: random.Random) -> Move:
    """Greedy: sell where it pays, buy llamas with spare pieces, turn tiles toward good villages."""
    if not legal:
        raise ValueError("no legal move to choose from")
    me = view.seat if view.seat is not None else view.turn
    black = me == 1
    tiles = dict(view.tiles)
    ev = _Eval(view, me)
    mine = [lm for lm in view.llamas if lm.seat == me]
    by_id = {lm.id: lm for lm in mine}
    masks = _masks(tiles, black)

    tcache: dict[str | None, list[tuple[float, int]]] = {}

    def targets(load: str | None) -> list[tuple[float, int]]:
        if load in tcache:
            return tcache[load]
        out = []
        for v in D.VILLAGE_ORDER:
            val = ev.sale(load, v)
            if val is not None and val > 0:
                out.append((val, v))
        tcache[load] = out
        return out

    rotations = [m for m in legal if isinstance(m, Rotate)]
    if rotations and view.phase == "rotate":
        cost = view.rotation_cost
        if cost == 0 or view.loose[me] >= cost + 2:
            move = _choose_rotation(view, me, masks, mine, rotations, targets, cost, rng, ev)
            if move is not None:
                return move

    # Llama actions: score each and take the best.
    dist_cache: dict[int, dict[int, int]] = {}

    def potential(cell: int, load: str | None) -> float:
        best = 0.0
        for val, v in targets(load):
            if v not in dist_cache:
                dist_cache[v] = _dist(masks, v)
            d = dist_cache[v].get(cell)
            if d is not None:
                best = max(best, val * 0.5 ** (d / 2))
        return best

    scored: list[tuple[float, Move]] = []
    for mv in legal:
        if isinstance(mv, Rotate):
            continue
        if isinstance(mv, MoveLlama):
            lm = by_id[mv.llama]
            if mv.to in D.VILLAGES:
                v = ev.sale(lm.load, mv.to)
                score = v if v is not None else 0.2
            else:
                score = 0.45 * potential(mv.to, lm.load) + 0.1
            if lm.cell in D.VILLAGES:
                here = ev.sale(lm.load, lm.cell)
                if here is not None and here >= score:
                    score -= 1.0  # better to sell where it stands
        elif isinstance(mv, Sell):
            lm = by_id[mv.llama]
            v = ev.sale(lm.load, lm.cell)
            score = v if v is not None and v > 0 else -1.0
        elif isinstance(mv, Buy):
            lm = by_id[mv.llama]
            here = ev.sale(lm.load, lm.cell) if lm.stage <= 1 else None
            if mv.pay or len(mine) >= D.MAX_LLAMAS:
                score = -5.0
            elif here is not None and here > 0:
                score = -2.0  # sell first
            else:
                score = 3.0
        elif isinstance(mv, End):
            score = 0.0
        else:  # pragma: no cover
            score = -10.0
        scored.append((score + rng.random() * 0.01, mv))
    if not scored:
        return rng.choice(legal)
    scored.sort(key=lambda t: t[0], reverse=True)
    return scored[0][1]


def _choose_rotation(view, me, masks, mine, rotations, targets, cost, rng, ev) -> Move | None:
    black = me == 1
    allowed = {m.cell for m in rotations if m.pay == ""}
    if not allowed:
        return None
    best_plan = None  # (score, llama cell, village, dist)
    for lm in mine:
        if lm.stage != 0:
            continue
        dist = _dist(masks, lm.cell)
        reach_best = 0.0
        for val, v in targets(lm.load):
            d = dist.get(v)
            if d == 0:
                reach_best = max(reach_best, val)
        for val, v in targets(lm.load):
            d = dist.get(v)
            if d is None or d == 0 or val <= reach_best:
                continue
            score = (val - reach_best) * 0.5 ** (d / 2)
            if best_plan is None or score > best_plan[0]:
                best_plan = (score, lm.cell, v, d)
    if best_plan is None:
        return None
    _, start, village, d0 = best_plan
    path = _path(masks, start, village)
    if not path:
        return None
    threshold = 0 if cost == 0 else 6.0
    if best_plan[0] <= threshold:
        return None
    tried = 0
    for cell in path:
        if cell in D.VILLAGES or cell not in allowed:
            continue
        # only tiles on a closed step of the path are worth turning
        tried += 1
        if tried > 3:
            break
        saved = masks[cell]
        code = dict(view.tiles)[cell]
        best_d, best_steps = _dist(masks, start).get(village, 99), []
        for k in range(1, 6):
            m2 = D.mountain_mask(f"{code[0]}{(int(code[1]) + k) % 6}")
            masks[cell] = m2 if black else 63 ^ m2
            nd = _dist(masks, start).get(village, 99)
            if nd < best_d:
                best_d, best_steps = nd, [k]
            elif nd == best_d and best_steps:
                best_steps.append(k)
        masks[cell] = saved
        if best_steps and best_d < d0:
            return Rotate(cell, rng.choice(best_steps))
    return None
