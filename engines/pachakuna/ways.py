"""The computer's ways over the board: what it costs, in tile turns, to go from a field to
another, and which tiles to turn on the way (:class:`Search`), for one side's llamas (white
walks valleys, black climbs mountains), memoised per board (:func:`board`)."""

from __future__ import annotations

from collections import deque

from . import data as D
from .rules import open_mask


def masks(tiles: dict[int, str], black: bool) -> dict[int, int]:
    """Each tile's open edges (bit d: edge d) for the side's llamas (``black``: Black's)."""
    return {c: open_mask(code, black) for c, code in tiles.items()}


class Board:
    """A board's open edges for one side, and the ways found on it from each source field
    (:class:`Search`, a pure function of the board and the source); callers only read them."""

    __slots__ = ("masks", "ways")

    def __init__(self, tiles: tuple[tuple[int, str], ...], black: bool):
        self.masks = masks(dict(tiles), black)
        self.ways: dict[int, Search] = {}

    def way(self, source: int) -> Search:
        found = self.ways.get(source)
        if found is None:
            found = self.ways[source] = Search(self.masks, source)
        return found


CACHE_SIZE = 64
"""Boards kept in memory with their ways (each way about 2 kB, 15 kB once its ways are
followed); with more, the board met first is let go."""


_BOARDS: dict[tuple, Board] = {}


def board(tiles: tuple[tuple[int, str], ...], black: bool) -> Board:
    """The :class:`Board` of a view's tiles for one side, memoised (the greedy player asks
    several times a move, playouts many times on the same board)."""
    key = (tiles, black)
    found = _BOARDS.get(key)
    if found is None:
        if len(_BOARDS) >= CACHE_SIZE:
            del _BOARDS[next(iter(_BOARDS))]  # the board met first goes first
        found = _BOARDS[key] = Board(tiles, black)
    return found


def board_masks(tiles: tuple[tuple[int, str], ...], black: bool) -> dict[int, int]:
    """:func:`masks` of a view's tiles, memoised (see :func:`board`)."""
    return board(tiles, black).masks


_IS_VILLAGE = [c in D.VILLAGES for c in range(100)]
_POP = [bin(m).count("1") for m in range(64)]
_CIRC = [[min(abs(a - b), 6 - abs(a - b)) for b in range(6)] for a in range(6)]
NONE = 6  # "entered from nowhere": the start field
_FROM_NOWHERE = 1 << NONE

_STEP = [
    [tuple((n, 1 << ((d + 3) % 6)) for d, n in D.NEIGHBOURS.get(c, ()) if x >> d & 1) for x in range(64)]
    for c in range(100)
]
"""For each field and set of its edges (bit d: edge d), the fields beyond those edges, each
with the bit of the edge it is entered by."""

_ONE_TURN = [
    [
        (63 if entries & _FROM_NOWHERE else 0)
        | sum(1 << d for d in range(6) if any(entries >> e & 1 and _CIRC[e][d] < arc for e in range(6)))
        for entries in range(128)
    ]
    for arc in range(7)
]
"""For a tile whose open arc is ``arc`` edges long and a set of edges it is entered by (bit 6:
the start), the edges it can be left by with at most one turn of it (one turn opens any two
edges the arc can span)."""

_CROSSINGS: dict[tuple[int, int, bool], tuple[tuple[tuple[int, int], ...], ...]] = {}


def _crossings(c: int, mc: int, fixed: bool) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each edge field ``c`` is entered by (6: the start), the (state beyond, cost) of each way
    out of it, in the order of its neighbours: the moves :meth:`Search.ways` relaxes."""
    key = (c, mc, fixed)
    found = _CROSSINGS.get(key)
    if found is None:
        rows = []
        for e in range(7):
            row = []
            for d, n in D.NEIGHBOURS.get(c, ()):
                if _IS_VILLAGE[c] or (mc >> d) & 1 and (e == NONE or (mc >> e) & 1):
                    cost = 0
                elif not fixed and (e == NONE or _CIRC[e][d] < _POP[mc]):
                    cost = 1
                else:
                    continue
                row.append(((n << 3) | ((d + 3) % 6), cost))
            rows.append(tuple(row))
        found = _CROSSINGS[key] = tuple(rows)
    return found


class Search:
    """Cheapest ways over (field, entry edge) states, counting tile turns needed.

    Crossing a tile from edge e to edge d costs 0 when both are open for the llama, 1 when one
    turn of that tile could open both (the open arc is long enough), and is impossible
    otherwise.  The start tile needs only its exit open; a village stops the way.  Tiles in
    ``fixed`` (marked with a rock) cannot be turned.

    The costs are found level by level (all states a level's turns reach, then one turn
    more), field by field: a field entered by an open edge is left for free by all its open
    edges, whichever it was entered by, so its free ways are followed once.  Levels are
    searched only as far as the costs asked for need.  The ways themselves (:meth:`steps_to`)
    come from a search over single states, followed only as far as the way asked for needs."""

    __slots__ = ("m", "source", "fixed", "_ways", "_entered", "_reach", "_opened", "_free", "_now", "_level")

    def __init__(self, masks: dict[int, int], source: int, fixed: frozenset[int] = frozenset()):
        m = [63] * 100
        for c, v in masks.items():
            m[c] = v
        self.m = m
        self.source = source
        self.fixed = fixed
        self._ways: tuple[list[int], list[int], deque[int], list] | None = None
        self._entered = [0] * 100  # the edges (bit 6: the start) each field is entered by so far
        self._reach = [99] * 100  # the level each field is first entered at
        self._opened = [99] * 100  # and first entered by an open edge
        self._free = [False] * 100  # whether its free ways are followed
        self._now = [(source, _FROM_NOWHERE)]  # the states (field, entry bits) of the next level
        self._level = 0  # the levels before this one are complete

    def _advance(self) -> None:
        """Find the states of the next level: those its entries reach for free, and the states
        beyond one more turn (the level after)."""
        m, source, fixed = self.m, self.source, self.fixed
        isv = _IS_VILLAGE
        step = _STEP
        one_turn = _ONE_TURN
        pop = _POP
        entered, reach, opened, free = self._entered, self._reach, self._opened, self._free
        level = self._level
        now = self._now
        later: list[tuple[int, int]] = []
        while now:
            c, bits = now.pop()
            had = entered[c]
            new = bits & ~had
            if not new:
                continue
            entered[c] = had | new
            if not had & 63 and new & 63:
                reach[c] = level
            if isv[c]:
                if c == source and not free[c]:
                    free[c] = True
                    now.extend(step[c][63])
                continue
            mc = m[c]
            if new & mc and opened[c] == 99:
                opened[c] = level
            if not free[c] and new & (mc | _FROM_NOWHERE):
                free[c] = True
                now.extend(step[c][mc])
            if c not in fixed:
                turned = one_turn[pop[mc]][new]
                later.extend(step[c][turned & ~mc if free[c] else turned])
        self._level = level + 1
        self._now = later

    def _reach_of(self, c: int) -> int:
        """The level field ``c`` is first entered at (99: never), the levels searched so far
        being enough when it has been entered (whole levels are searched at a time)."""
        reach = self._reach
        while reach[c] == 99 and self._now:
            self._advance()
        return reach[c]

    def cost(self, c: int) -> int:
        """:meth:`to_field`, 99 for no way."""
        return self._standing(c, self._reach_of(c))

    def _standing(self, c: int, r: int) -> int:
        """The cost of standing on field ``c`` first entered at level ``r`` (99: never): one
        turn more when it was first entered only by a closed edge (a village needs none)."""
        if r >= 99 or _IS_VILLAGE[c] or self._opened[c] == r:
            return r
        return r + 1

    def cost_worth(self, c: int, val: float, decay: float, best: float) -> int:
        """:meth:`cost`, or 99 as soon as a way costing as many turns as the levels searched
        (or more) could not be worth more than ``best`` (``val * decay ** turns``, with a
        ``decay`` from 0 to 1: the worth only falls with the turns)."""
        reach = self._reach
        while reach[c] == 99 and self._now and val * decay**self._level > best:
            self._advance()
        return self._standing(c, reach[c])

    def ways(self) -> tuple[list[int], list[int]]:
        """The cost and the state it is reached from, for each (field << 3 | entry edge) state:
        a 0-1 breadth-first search over single states (its ties decide :meth:`steps_to`)."""
        return self._follow(99)

    def _follow(self, cost: int) -> tuple[list[int], list[int]]:
        """:meth:`ways`, followed (at least) until every state costing ``cost`` or less has its
        final cost and the state it is reached from (the breadth-first search takes states in
        the order of their costs, and a state's cost and origin change only when its cost goes
        down); a later call goes on from there."""
        if self._ways is None:
            dist = [99] * 800
            parent = [-1] * 800
            s0 = (self.source << 3) | NONE
            dist[s0] = 0
            self._ways = (dist, parent, deque([s0]), [None] * 100)
        dist, parent, dq, moves = self._ways
        if not dq or dist[dq[0]] > cost:
            return dist, parent
        m, source, fixed = self.m, self.source, self.fixed
        isv = _IS_VILLAGE
        popleft, appendleft, append = dq.popleft, dq.appendleft, dq.append
        while dq and dist[dq[0]] <= cost:
            st = popleft()
            c = st >> 3
            if isv[c] and c != source:
                continue
            out = moves[c]
            if out is None:
                out = moves[c] = _crossings(c, m[c], c in fixed)
            ds = dist[st]
            for ns, step in out[st & 7]:
                nd = ds + step
                if nd < dist[ns]:
                    dist[ns] = nd
                    parent[ns] = st
                    if step:
                        append(ns)
                    else:
                        appendleft(ns)
        return dist, parent

    def to_village(self, v: int) -> int | None:
        best = self._reach_of(v)
        return None if best >= 99 else best

    def to_field(self, c: int) -> int | None:
        """Cost to come to stand on field ``c`` (its entry edge must be open)."""
        best = self.cost(c)
        return None if best >= 99 else best

    def steps_to(self, v: int) -> list[tuple[int, int, int]]:
        """(tile, entry edge or 6, exit edge) for each tile on a cheapest way to village ``v``."""
        cost = self._reach_of(v)
        if cost >= 99:
            return []
        dist, parent = self._follow(cost)
        ends = [(v << 3) | e for e in range(6)]
        st = min(ends, key=lambda s: dist[s])
        if dist[st] >= 99:
            return []
        out = []
        while parent[st] >= 0:
            prev = parent[st]
            pc, pe = divmod(prev, 8)
            c, e = divmod(st, 8)
            exit_edge = (e + 3) % 6
            if not _IS_VILLAGE[pc]:
                out.append((pc, pe, exit_edge))
            st = prev
        out.reverse()
        return out


def search(tiles_key: tuple, black: bool, masks: dict[int, int], source: int) -> Search:
    """A :class:`Search` from ``source`` on the board ``tiles_key`` (whose open edges are
    ``masks``), memoised on the board (see :func:`board`)."""
    return board(tiles_key, black).way(source)
