"""A complete solver for Nowa Gwinea tasks.

A task is a board side and a rolled totem: find a legal village that covers
every water hole.  Legal: huts touch only at corners, each hut at most once,
the rolled totem covered, no other totem covered, and the huts form ONE group
linked corner to corner from the hut on the rolled totem (the ruling; a
village split into groups that each touch something does not count).

The search is exact.  It branches on the uncovered target (the rolled totem or
a water hole) with the fewest huts that can still cover it, so every village is
reached through the huts that cover targets; then, while the huts are not one
group, it adds a "connector" hut touching the group of the first hut (some hut
of any connected village containing them does).  With a hut budget ``k`` it
finds a village of at most ``k`` huts whenever one exists, so iterative
deepening gives the smallest village.  Placements are kept as bitsets (Python
ints) of placement indices.
"""

from __future__ import annotations

from functools import lru_cache

from .geometry import PIECES, PLACEMENTS, SIZE, Placement, cells_in

N = len(PLACEMENTS)
ALL = (1 << N) - 1


@lru_cache(maxsize=1)
def _tables():
    cover = [0] * (SIZE * SIZE)
    for pl in PLACEMENTS:
        for c in pl.cells:
            cover[c] |= 1 << pl.index
    piece_bits = {p: 0 for p in PIECES}
    for pl in PLACEMENTS:
        piece_bits[pl.piece] |= 1 << pl.index
    compat = []
    touch = []
    for pl in PLACEMENTS:
        bad = 0
        for c in cells_in(pl.mask | pl.edge):
            bad |= cover[c]
        ok = ALL & ~bad
        near = 0
        for c in cells_in(pl.corner):
            near |= cover[c]
        compat.append(ok)
        touch.append(near & ok)
    return cover, piece_bits, compat, touch


def _bits(x: int):
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


def _dist(a: int, b: int) -> int:
    return abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE)


def independent(cells: list[int]) -> int:
    """Size of a set of cells pairwise too far apart for one hut (a lower bound
    on the huts needed to cover them all)."""
    return _independent(tuple(cells))


@lru_cache(maxsize=8192)
def _independent(cells: tuple[int, ...]) -> int:
    chosen: list[int] = []
    for c in cells:
        if all(_dist(c, d) > 4 for d in chosen):
            chosen.append(c)
    return len(chosen)


class Search:
    def __init__(
        self,
        rolled: int,
        water: list[int],
        other_totems: list[int],
        limit: int | None,
    ):
        self.cover, self.piece_bits, self.compat, self.touch = _tables()
        forbidden = 0
        for c in other_totems:
            forbidden |= self.cover[c]
        self.start = ALL & ~forbidden
        self.targets = [rolled, *water]
        self.nodes = 0
        self.limit = limit

    def run(self, budget: int) -> list[int] | None:
        return self._cover([], 0, self.start, budget)

    def _count(self) -> None:
        self.nodes += 1
        if self.limit is not None and self.nodes > self.limit:
            raise TimeoutError

    def _cover(self, placed: list[int], occupied: int, avail: int, budget: int) -> list[int] | None:
        self.nodes += 1  # self._count(), inline: this runs at every node
        if self.limit is not None and self.nodes > self.limit:
            raise TimeoutError
        todo = [t for t in self.targets if not occupied >> t & 1]
        if not todo:
            return self._fix(placed, avail, budget)
        need = _independent(tuple(todo))
        if need > budget:
            return None
        # every hut that touches no other yet must still be touchable
        touch = self.touch
        reach = 0
        if need == budget:
            for t in todo:
                reach |= self.cover[t]
            reach &= avail
        pool = reach if need == budget else avail
        placed_bits = 0
        for o in placed:
            placed_bits |= 1 << o
        for h in placed:
            if len(placed) > 1 and touch[h] & placed_bits & ~(1 << h):
                continue
            if not touch[h] & pool:
                return None
        best = 0
        best_n = 1 << 30
        for t in todo:
            cand = self.cover[t] & avail
            n = cand.bit_count()
            if n < best_n:
                best, best_n = cand, n
                if n == 0:
                    return None
        for j in _bits(best):
            pl = PLACEMENTS[j]
            got = self._cover(
                [*placed, j],
                occupied | pl.mask,
                avail & self.compat[j] & ~self.piece_bits[pl.piece],
                budget - 1,
            )
            if got is not None:
                return got
        return None

    def _fix(self, placed: list[int], avail: int, budget: int) -> list[int] | None:
        self._count()
        if len(placed) <= 1:
            return placed
        group = self._component(placed)
        if not group:
            return placed
        if budget <= 0:
            return None
        reach = 0
        for h in group:
            reach |= self.touch[h]
        for j in _bits(reach & avail):
            pl = PLACEMENTS[j]
            got = self._fix([*placed, j], avail & self.compat[j] & ~self.piece_bits[pl.piece], budget - 1)
            if got is not None:
                return got
        return None

    def _component(self, placed: list[int]) -> list[int]:
        """The huts joined to the first one, or [] when all are joined."""
        touch = self.touch
        everyone = 0
        for o in placed:
            everyone |= 1 << o
        seen = 1 << placed[0]
        todo = [placed[0]]
        while todo:
            joined = touch[todo.pop()] & everyone & ~seen
            if joined:
                seen |= joined
                todo.extend(_bits(joined))
        return [] if seen == everyone else list(_bits(seen))


def solve(
    rolled: int,
    water: list[int],
    other_totems: list[int],
    max_huts: int = 12,
    min_huts: int = 1,
    node_limit: int | None = None,
) -> list[Placement] | None:
    """The smallest legal village (at least ``min_huts`` deep in the search)
    covering the rolled totem and every water hole, or ``None`` if none has
    at most ``max_huts`` huts.  Raises ``TimeoutError`` past ``node_limit``
    search nodes."""
    search = Search(rolled, water, other_totems, node_limit)
    start = max(min_huts, independent([rolled, *water]))
    for k in range(start, max_huts + 1):
        got = search.run(k)
        if got is not None:
            return [PLACEMENTS[j] for j in got]
    return None


def exists(
    rolled: int,
    water: list[int],
    other_totems: list[int],
    huts: int,
    node_limit: int | None = None,
) -> bool:
    """Whether a legal village of at most ``huts`` huts solves the task."""
    search = Search(rolled, water, other_totems, node_limit)
    return search.run(huts) is not None
