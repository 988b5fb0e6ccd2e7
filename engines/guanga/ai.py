"""The computer player: a greedy one-ply evaluation of what its seat's view shows."""

from __future__ import annotations

import random

from engines.core import UNKNOWN

from . import data as D
from .rules import CARD, ORDER, Buy, Claim, Done, Keep, Place, Refresh, Return, Stopper
from .shapes import CELLS, NEIGHBOURS, PLACEMENTS

CENTRE = D.CENTRE


def _attrs(p: str | None) -> tuple[str, str] | None:
    if p is None:
        return None
    c, s = p.split("/")
    return c, s


def _marker_ok(view, attr: str) -> bool:
    if view.markers.get(attr, 0) > 0:
        return True
    return (attr in D.COLOURS and view.markers.get("grey", 0) > 0
            and all(view.markers.get(c, 0) == 0 for c in D.COLOURS))


def _potential(view, me) -> dict[str, list[float]]:
    """For each colour/symbol, how much a patch showing it on each cell helps towards a card."""
    g = view.guangas[me]
    stop = 0
    for c in g.stoppers:
        stop |= 1 << c
    tops = [_attrs(p) for p in g.tops]
    pot: dict[str, list[float]] = {}
    for cv in view.market:
        if cv is None:
            continue
        for attr in (cv.colour, cv.symbol):
            if not _marker_ok(view, attr):
                continue
            mask = 0
            for i, t in enumerate(tops):
                if t is not None and attr in t and not stop >> i & 1:
                    mask |= 1 << i
            row = pot.setdefault(attr, [0.0] * CELLS)
            size = PLACEMENTS[cv.id][0].bit_count()
            for pl in PLACEMENTS[cv.id]:
                if pl & stop:
                    continue
                missing = pl & ~mask
                k = missing.bit_count()
                if k == 0 or k > 3 + size // 4:
                    continue
                w = cv.vp / (k * k * k)
                for i in range(CELLS):
                    if missing >> i & 1:
                        if w > row[i]:
                            row[i] = w * 1.0 + row[i] * 0.1
                        else:
                            row[i] += w * 0.1
    return pot


def _place_value(view, me, pot, patch: str, cell: int) -> float:
    g = view.guangas[me]
    colour, symbol = patch.split("/")
    v = pot.get(colour, [0.0] * CELLS)[cell] + pot.get(symbol, [0.0] * CELLS)[cell]
    if g.heights[cell] == 0:
        v += 2.5
    else:
        v -= 1.0
        # covering a patch that already helps a shape costs what it was doing
        v -= 0.5 * _support(view, me, cell)
    if view.mode != "beginner":
        # keep some room next to the patch for the paired placement
        v += 0.05 * sum(1 for j in NEIGHBOURS[cell] if g.heights[j] == 0)
    return v


def _support(view, me, cell: int) -> float:
    g = view.guangas[me]
    t = _attrs(g.tops[cell])
    if t is None:
        return 0.0
    same = 0
    for j in NEIGHBOURS[cell]:
        u = _attrs(g.tops[j])
        if u is not None and (u[0] == t[0] or u[1] == t[1]):
            same += 1
    return float(same)


def _claim_value(view, me, m: Claim) -> float:
    card = CARD[m.card]
    v = float(card[4])
    g = view.guangas[me]
    if g.order not in (None, UNKNOWN):
        _, flag, fpts, typ, tpts = ORDER[g.order]
        mine = [CARD[c] for c in g.claimed]
        if card[2] == flag:
            have = sum(1 for c in mine if c[2] == flag)
            v += fpts if have == 1 else (fpts / 2 if have == 0 else 0)
        if card[3] == typ:
            have = sum(1 for c in mine if c[3] == typ)
            v += tpts if have == 1 else (tpts / 2 if have == 0 else 0)
    # prefer shapes whose cells are stacked (returning them leaves no hole)
    v += 0.1 * sum(1 for c in m.cells if g.heights[c] > 1)
    return v


def _return_cost(view, me, m: Return) -> float:
    g = view.guangas[me]
    cost = 0.0
    occ = 0
    for i in range(CELLS):
        h = g.heights[i] - (1 if i in m.cells else 0)
        if h > 0:
            occ |= 1 << i
    for c in m.cells:
        if g.heights[c] == 1:
            cost += 2.0
    if view.mode == "artisan" and occ >> CENTRE & 1:
        seen = 1 << CENTRE
        todo = [CENTRE]
        while todo:
            i = todo.pop()
            for j in NEIGHBOURS[i]:
                if occ >> j & 1 and not seen >> j & 1:
                    seen |= 1 << j
                    todo.append(j)
        cost += 2.5 * (occ & ~seen).bit_count()
    return cost


def computer_move(view, legal, rng: random.Random):
    legal = list(legal)
    if not legal:
        raise ValueError("no legal move to choose from")
    me = view.seat if view.seat is not None else view.turn
    phase = view.phase
    if phase == "order":
        keeps = [m for m in legal if isinstance(m, Keep)]
        return max(keeps, key=lambda m: (ORDER[m.order][2] + ORDER[m.order][4], rng.random()))
    if phase == "return":
        rets = [m for m in legal if isinstance(m, Return)]
        return min(rets, key=lambda m: (_return_cost(view, me, m), rng.random()))
    claims = [m for m in legal if isinstance(m, Claim)]
    if claims:
        return max(claims, key=lambda m: (_claim_value(view, me, m), rng.random()))
    places = [m for m in legal if isinstance(m, Place)]
    if places:
        pot = _potential(view, me)
        cache: dict[tuple[int, int], float] = {}

        def score(m: Place) -> float:
            key = (m.slot, m.cell)
            if key not in cache:
                cache[key] = _place_value(view, me, pot, view.basket[m.slot - 1], m.cell)
            return cache[key]

        best = max(places, key=lambda m: (score(m), rng.random()))
        if phase != "extra" or score(best) > 0:
            return best
    g = view.guangas[me]
    late = view.end_triggered or view.pile < 12
    if late:
        stoppers = [m for m in legal if isinstance(m, Stopper) and m.target == me and g.heights[m.cell] == 0]
        if stoppers:
            return stoppers[0]
    for m in legal:
        if isinstance(m, Done):
            return m
    # before the take: nothing worth buying, so place or spend as little as possible
    for kind in (Place, Stopper, Refresh, Buy):
        options = [m for m in legal if isinstance(m, kind)]
        if options:
            return rng.choice(options)
    return rng.choice(legal)
