"""The computer players, reading only their seat's view.

``normal`` is a greedy one-ply evaluation; ``easy`` takes a random legal move
now and then; ``strong`` samples what is hidden (covered patches, the pile and
the bag, the card decks, the others' orders: :func:`determinize`) and plays the
normal player's candidates out in those worlds (:mod:`engines.search`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engines import search
from engines.core import DEFAULT_LEVEL, UNKNOWN

from . import data as D
from . import rules
from .rules import (
    CARD,
    ORDER,
    PATCH_NAMES,
    Buy,
    Claim,
    Config,
    Done,
    Keep,
    Mode,
    Place,
    Refresh,
    Return,
    State,
    Stopper,
    Stuck,
    breakdown,
    joined_to_centre,
    outcome,
    patches_per_kind,
    shells_from_lines,
)
from .shapes import CELLS, NEIGHBOURS, PLACEMENTS, cells_of

CENTRE = D.CENTRE


def _attrs(p: str | None) -> tuple[str, str] | None:
    if p is None:
        return None
    return _ATTRS[p]


_ATTRS = {f"{c}/{y}": (c, y) for c in D.COLOURS for y in D.SYMBOLS}
"""A patch's "colour/symbol" split in two, once for all."""

_COLOURS = frozenset(D.COLOURS)

_SIZE = {cid: pls[0].bit_count() for cid, pls in PLACEMENTS.items()}

_VP = {c[0]: c[4] for c in D.CARDS}

_ROWS: dict[tuple[int, int, tuple[str, ...]], tuple[float, ...]] = {}
"""An attribute's row of :func:`_potential` by the cells showing it (a mask), the stoppers (a
mask) and the market cards asking for it, in order: a search's playouts ask again and again
about the same guangas and cards."""

_ROWS_LIMIT = 100_000
"""Entries kept in :data:`_ROWS` before it is emptied (a long-running process stays small)."""


def _row(mask: int, stop: int, cids: tuple[str, ...]) -> tuple[float, ...]:
    """How much a patch with an attribute helps on each cell towards the cards ``cids`` (in
    market order) when ``mask`` shows the attribute and ``stop`` holds stoppers: for every
    placement of a card short of one to ``limit`` cells (none on a stopper), in order, each
    missing cell gains its weight (the card's points over the cube of the cells missing)."""
    key = (mask, stop, cids)
    found = _ROWS.get(key)
    if found is not None:
        return found
    row = [0.0] * CELLS
    inv = ~mask
    for cid in cids:
        limit = 2 + _SIZE[cid] // 5
        vp = _VP[cid]
        if stop:
            near = [m for pl in PLACEMENTS[cid] if not pl & stop and 0 < (m := pl & inv).bit_count() <= limit]
        else:
            near = [m for pl in PLACEMENTS[cid] if 0 < (m := pl & inv).bit_count() <= limit]
        for missing in near:
            k = missing.bit_count()
            w = vp / (k * k * k)
            tenth = w * 0.1
            for i in cells_of(missing):
                r = row[i]
                if w > r:
                    row[i] = w + r * 0.1
                else:
                    row[i] = r + tenth
    if len(_ROWS) >= _ROWS_LIMIT:
        _ROWS.clear()
    found = _ROWS[key] = tuple(row)
    return found


def _potential(view, me) -> dict[str, tuple[float, ...]]:
    """For each colour/symbol, how much a patch showing it on each cell helps towards a card."""
    g = view.guangas[me]
    stop = 0
    for c in g.stoppers:
        stop |= 1 << c
    masks = dict.fromkeys(D.COLOURS + D.SYMBOLS, 0)
    for i, p in enumerate(g.tops):
        if p is not None and not stop >> i & 1:
            colour, symbol = _ATTRS[p]
            masks[colour] |= 1 << i
            masks[symbol] |= 1 << i
    markers = view.markers
    # a grey marker stands for any colour once no colour's marker is left
    grey = markers.get("grey", 0) > 0 and all(markers.get(c, 0) == 0 for c in D.COLOURS)
    # per attribute, the cards asking for it that a claim could take, in market order (each
    # attribute's row depends on its own cards only)
    asking: dict[str, list[str]] = {}
    for cv in view.market:
        if cv is None:
            continue
        size = _SIZE[cv.id]
        limit = 2 + size // 5
        for attr in (cv.colour, cv.symbol):
            if markers.get(attr, 0) <= 0 and not (grey and attr in _COLOURS):
                continue
            if masks[attr].bit_count() + limit < size:
                continue
            asking.setdefault(attr, []).append(cv.id)
    return {attr: _row(masks[attr], stop, tuple(cids)) for attr, cids in asking.items()}


def _cell_base(view, me) -> list[float]:
    g = view.guangas[me]
    tops = [_attrs(p) for p in g.tops]
    heights = g.heights
    paired = view.mode != "beginner"
    out = []
    for cell in range(CELLS):
        around = NEIGHBOURS[cell]
        if heights[cell] == 0:
            v = 2.5
        else:
            # covering a patch costs something, more when it sits among its like
            t = tops[cell]
            same = 0
            if t is not None:
                colour, symbol = t
                for j in around:
                    n = tops[j]
                    if n is not None and (n[0] == colour or n[1] == symbol):
                        same += 1
            v = -1.0 - 0.5 * same
        if paired:
            empty = 0
            for j in around:
                if heights[j] == 0:
                    empty += 1
            v += 0.05 * empty
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


def _place_scores(view, me, places: list[Place]) -> list[float]:
    pot = _potential(view, me)
    base = _cell_base(view, me)
    # per basket slot (1-8), the score of its patch on each cell: colour + symbol + cell, where
    # a missing potential adds nothing (x + 0.0 is x: the potentials are never -0.0)
    rows: dict[int, Sequence[float]] = {}
    for slot, p in enumerate(view.basket, 1):
        if p is not None:
            colour, symbol = _ATTRS[p]
            pc, ps = pot.get(colour), pot.get(symbol)
            if pc is None:
                rows[slot] = base if ps is None else [b + c for b, c in zip(ps, base, strict=True)]
            elif ps is None:
                rows[slot] = [a + c for a, c in zip(pc, base, strict=True)]
            else:
                rows[slot] = [a + b + c for a, b, c in zip(pc, ps, base, strict=True)]
    return [rows[m.slot][m.cell] for m in places]


def normal_move(view, legal, rng: random.Random):
    """The greedy player: the best claim, the patch placements nearest to cards, cheap returns."""
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
        scores = _place_scores(view, me, places)
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


# --------------------------------------------------------------------------- levels

EASY_RANDOM = 0.3
"""How often the easy player takes a random legal move instead of the normal one."""

SIMULATIONS_PER_SECOND = 150
"""Simulations the strong player plans its search rounds for, per second of thinking (by count
it runs exactly these; by the clock, as at the table, it runs until its deadline): the playouts
per CPU second measured on the development machine (2 cores), ``python bench/strength.py --parts
calibrate``."""

HORIZON = None
"""Guanga games are short: candidates are played out to the end."""


def computer_move(
    view,
    legal,
    rng: random.Random,
    level: str = DEFAULT_LEVEL,
    seconds: float | None = None,
    deadline: search.Deadline | None = None,
):
    """The ``level`` player's move (see :data:`engines.core.LEVELS`), from ``view`` alone."""
    return search.by_level(
        view,
        legal,
        rng,
        level,
        seconds,
        normal=normal_move,
        strong=strong_move,
        easy_chance=EASY_RANDOM,
        deadline=deadline,
    )


_KIND = {f"{D.COLOURS[k // 5]}/{D.SYMBOLS[k % 5]}": k for k in range(D.KINDS)}


def determinize(view, rng: random.Random) -> State:
    """A full state agreeing with ``view``.

    Unseen are the covered patches under every top, the pile and the bag (and
    in master and artisan the patches turned into shells): the patches not in
    sight are dealt to them at random.  The card decks hold the cards of their
    level neither in the market nor claimed, shuffled.  Another player's kept
    order is any order this seat does not hold.
    """
    mode = Mode(view.mode)
    config = Config(
        players=view.players,
        mode=mode,
        stoppers=view.stoppers_variant,
        cannot_place=Stuck(view.cannot_place),
    )
    left = [patches_per_kind(config)] * D.KINDS
    basket = [None if p is None else _KIND[p] for p in view.basket]
    for k in basket:
        if k is not None:
            left[k] -= 1
    for g in view.guangas:
        for p in g.tops:
            if p is not None:
                left[_KIND[p]] -= 1
    unseen = [k for k in range(D.KINDS) for _ in range(left[k])]
    rng.shuffle(unseen)
    guangas = []
    for g in view.guangas:
        cells = []
        for top, h in zip(g.tops, g.heights, strict=True):
            cells.append([] if top is None else [unseen.pop() for _ in range(h - 1)] + [_KIND[top]])
        guangas.append(cells)
    lines = shells_from_lines(config)
    shell_patches = [[unseen.pop() for _ in range(g.shells)] if lines else [] for g in view.guangas]
    bag = [unseen.pop() for _ in range(view.bag)]
    pile = list(unseen)
    assert len(pile) == view.pile, "the view's patch counts do not add up"

    layout = [level for level, count in D.MARKET_LAYOUT[mode.value] for _ in range(count)]
    market = [None if c is None else c.id for c in view.market]
    claimed = {c for g in view.guangas for c in g.claimed}
    decks = {}
    for level, size in view.decks.items():
        deck = [c[0] for c in D.CARDS if c[0][0] == level and c[0] not in market and c[0] not in claimed]
        rng.shuffle(deck)
        decks[level] = deck[:size]

    me = view.seat
    mine = view.guangas[me].order if me is not None else None
    pool = [o[0] for o in D.ORDERS if o[0] not in (mine, *view.dealt_orders)]
    rng.shuffle(pool)
    orders: list[str | None] = []
    dealt: list[list[str]] = []
    for g in view.guangas:
        if g.seat == me:
            orders.append(g.order)
            dealt.append(list(view.dealt_orders) or ([g.order] if g.order else []))
        elif g.order is None:
            orders.append(None)
            dealt.append([pool.pop(), pool.pop()] if view.phase == "order" else [])
        else:
            got = pool.pop()
            orders.append(got)
            dealt.append([got])
    first = view.first_patch
    last = view.last
    if last is not None and view.last_seat is not None and view.last_seat != me:
        try:
            rules.parse_move(last)
        except rules.MalformedMove:  # masked: another player's secret keep, of the order sampled for them
            last = str(rules.Keep(orders[view.last_seat]))
    return State(
        config=config,
        seed=rng.getrandbits(48),
        pile=pile,
        bag=bag,
        basket=basket,
        market=market,
        market_levels=layout,
        decks=decks,
        guangas=guangas,
        stoppers=[list(g.stoppers) for g in view.guangas],
        stoppers_left=[g.stoppers_left for g in view.guangas],
        claimed=[list(g.claimed) for g in view.guangas],
        shells=[g.shells for g in view.guangas],
        shell_patches=shell_patches,
        shells_spent=0,
        markers=dict(view.markers),
        orders_dealt=dealt,
        orders=orders,
        tile=view.tile,
        turn=view.turn,
        phase=view.phase,
        placed=list(view.placed),
        first_kind=None if first is None else _KIND[first],
        pending=None
        if view.pending is None
        else {
            "card": view.pending["card"],
            "attr": view.pending["attr"],
            "cells": list(view.pending["cells"]),
        },
        claimed_this_turn=view.phase in ("return", "extra"),
        end_triggered=view.end_triggered,
        stuck=view.stuck,
        finished=view.finished,
        end_reason=view.end_reason,
        recycles=0,
        turns=view.turns,
        last=last,
        last_seat=view.last_seat,
        highlight=[list(x) for x in view.highlight],
        lit_slot=view.lit_slot,
    )


def _evaluate(state: State, seat: int) -> float:
    result = outcome(state)
    if result is not None:
        return search.outcome_reward(result, seat, 120.0 if state.n == 1 else 12.0)
    totals = [breakdown(state, p)["total"] for p in range(state.n)]
    if state.n == 1:
        return max(0.0, min(1.0, totals[0] / 120.0))
    best_other = max(v for p, v in enumerate(totals) if p != seat)
    return search.margin_value(totals[seat] - best_other, 12.0)


class _Seen:
    """The part of a view the normal player reads (:func:`normal_move` and its helpers), built
    from a state as :func:`rules.view_for` builds those fields; the search's playouts hand it to
    the policy at every move instead of the whole view (every score, the public texts), which
    costs more than the move.  Only the guanga the policy reads is there (the seat's own, or
    the player's to move without a seat)."""

    __slots__ = (
        "seat",
        "turn",
        "phase",
        "mode",
        "market",
        "markers",
        "basket",
        "pile",
        "end_triggered",
        "guangas",
    )

    def __init__(self, s: State, seat: int | None) -> None:
        self.seat = seat
        self.turn = s.turn
        self.phase = s.phase
        self.mode = s.config.mode.value
        self.market = tuple(None if c is None else _CARD_VIEW[c] for c in s.market)
        self.markers = dict(s.markers)
        self.basket = tuple(None if k is None else PATCH_NAMES[k] for k in s.basket)
        self.pile = len(s.pile)
        self.end_triggered = s.end_triggered
        guangas: list[_SeenGuanga | None] = [None] * s.n
        me = s.turn if seat is None else seat  # whose guanga the normal player reads
        guangas[me] = _SeenGuanga(s, me, visible=seat == me or s.finished)
        self.guangas = guangas


class _SeenGuanga:
    """A guanga as :class:`_Seen` holds it (the fields of :class:`rules.PlayerView` the normal
    player reads; the order hidden, as in the view, unless ``visible``)."""

    __slots__ = ("tops", "heights", "stoppers", "claimed", "order")

    def __init__(self, s: State, seat: int, visible: bool) -> None:
        g = s.guangas[seat]
        self.tops = tuple([PATCH_NAMES[st[-1]] if st else None for st in g])
        self.heights = tuple([len(st) for st in g])
        self.stoppers = tuple(sorted(s.stoppers[seat]))
        self.claimed = tuple(s.claimed[seat])
        order = s.orders[seat]
        self.order = UNKNOWN if order is not None and not visible else order


_CARD_VIEW = {c[0]: rules.card_view(c[0]) for c in D.CARDS}


def _game() -> search.Game:
    return search.Game(search.Viewed(rules, _Seen), determinize, normal_move, _evaluate, HORIZON)


CANDIDATES = 6
"""At most this many moves are compared by the strong player."""


def candidates(view, legal: list, rng: random.Random) -> list:
    """The normal player's pick and its next favourites of the same kind."""
    me = view.seat
    first = normal_move(view, legal, rng)
    out = [first]
    places = [m for m in legal if isinstance(m, Place)]
    if places and isinstance(first, Place):
        scores = _place_scores(view, me, places)
        out += [m for _, m in sorted(zip(scores, places, strict=True), key=lambda t: -t[0])]
    claims = [m for m in legal if isinstance(m, Claim)]
    if claims:
        out += sorted(claims, key=lambda m: -_claim_value(view, me, m))
    rets = [m for m in legal if isinstance(m, Return)]
    if rets:
        out += sorted(rets, key=lambda m: _return_cost(view, me, m))
    out += [m for m in legal if isinstance(m, (Keep, Done))]
    return list(dict.fromkeys(out))[:CANDIDATES]


def strong_move(
    view, legal: list, rng: random.Random, seconds: float | None, deadline: search.Deadline | None = None
):
    """Search the best candidates in sampled deals of what is hidden."""
    return search.choose(
        _game(),
        view,
        candidates(view, legal, rng),
        rng,
        simulations=search.simulations_for(seconds, SIMULATIONS_PER_SECOND),
        deadline=deadline,
    )
