"""The computer player: a greedy one-ply evaluation of what its seat's view shows."""

from __future__ import annotations

import random

from engines.core import UNKNOWN

from . import data as D
from .rules import CARD, ORDER, Buy, Claim, Done, Keep, Place, Refresh, Return, Stopper, joined_to_centre
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
    return (
        attr in D.COLOURS
        and view.markers.get("grey", 0) > 0
        and all(view.markers.get(c, 0) == 0 for c in D.COLOURS)
    )


def _potential(view, me) -> dict[str, list[float]]:
    """For each colour/symbol, how much a patch showing it on each cell helps towards a card."""
    g = view.guangas[me]
    stop = 0
    for c in g.stoppers:
        stop |= 1 << c
    masks = dict.fromkeys(D.COLOURS + D.SYMBOLS, 0)
    for i, p in enumerate(g.tops):
        if p is not None and not stop >> i & 1:
            colour, symbol = p.split("/")
            masks[colour] |= 1 << i
            masks[symbol] |= 1 << i
    pot: dict[str, list[float]] = {}
    for cv in view.market:
        if cv is None:
            continue
        pls = PLACEMENTS[cv.id]
        size = pls[0].bit_count()
        limit = 2 + size // 5
        for attr in (cv.colour, cv.symbol):
            if not _marker_ok(view, attr):
                continue
            mask = masks[attr]
            if mask.bit_count() + limit < size:
                continue
            row = pot.setdefault(attr, [0.0] * CELLS)
            inv = ~mask
            for pl in pls:
                if pl & stop:
                    continue
                missing = pl & inv
                k = missing.bit_count()
                if k == 0 or k > limit:
                    continue
                w = cv.vp / (k * k * k)
                while missing:
                    low = missing & -missing
                    i = low.bit_length() - 1
                    missing ^= low
                    if w > row[i]:
                        row[i] = w + row[i] * 0.1
                    else:
                        row[i] += w * 0.1
    return pot


def _cell_base(view, me) -> list[float]:
    g = view.guangas[me]
    tops = [_attrs(p) for p in g.tops]
    paired = view.mode != "beginner"
    out = []
    for cell in range(CELLS):
        if g.heights[cell] == 0:
            v = 2.5
        else:
            # covering a patch costs something, more when it sits among its like
            t = tops[cell]
            same = sum(
                1
                for j in NEIGHBOURS[cell]
                if (n := tops[j]) is not None and t is not None and (n[0] == t[0] or n[1] == t[1])
            )
            v = -1.0 - 0.5 * same
        if paired:
            v += 0.05 * sum(1 for j in NEIGHBOURS[cell] if g.heights[j] == 0)
        out.append(v)
    return out


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
        cost += 2.5 * (occ & ~joined_to_centre(occ)).bit_count()
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
        base = _cell_base(view, me)
        zero = [0.0] * CELLS
        attrs = {slot: p.split("/") for slot, p in enumerate(view.basket) if p is not None}

        def score(m: Place) -> float:
            colour, symbol = attrs[m.slot - 1]
            c = m.cell
            return pot.get(colour, zero)[c] + pot.get(symbol, zero)[c] + base[c]

        scores = [score(m) for m in places]
        top = max(scores)
        best = rng.choice([m for m, v in zip(places, scores, strict=True) if v >= top - 1e-9])
        if phase != "extra" or top > 0:
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
