"""The hidden map (the Pachamama disc): geometry, the crop solver and the generator.

Cells are numbered ``row * cols + col``; rows are A-E and columns 1-5 or 1-9.
A map is a terrain per cell (regions are the maximal orthogonally connected
areas of one terrain, 1 to 5 cells, and two regions of one terrain never
touch, not even diagonally) and a crop per cell (a region of size n holds the
crops 1..n once each; equal crops never touch, not even diagonally).

The solver works on regions given as a region id per cell, plus fixed crops.
It propagates (a placed crop removes itself from its region mates and its
eight neighbours; a crop with one possible cell in a region goes there) and
branches on the cell with the fewest candidates.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from engines.core import rng_for
from engines.tiwanaku.data import MAX_REGION, REVEALED_CELLS, ROWS, TERRAINS

# --------------------------------------------------------------------------- geometry


def cell_name(cell: int, cols: int) -> str:
    return f"{'ABCDE'[cell // cols]}{cell % cols + 1}"


@lru_cache(maxsize=8)
def neighbours4(cols: int) -> tuple[tuple[int, ...], ...]:
    out = []
    for i in range(ROWS * cols):
        r, c = divmod(i, cols)
        out.append(
            tuple(
                rr * cols + cc
                for rr, cc in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c))
                if 0 <= rr < ROWS and 0 <= cc < cols
            )
        )
    return tuple(out)


@lru_cache(maxsize=8)
def neighbours8(cols: int) -> tuple[tuple[int, ...], ...]:
    out = []
    for i in range(ROWS * cols):
        r, c = divmod(i, cols)
        out.append(
            tuple(
                rr * cols + cc
                for rr in (r - 1, r, r + 1)
                for cc in (c - 1, c, c + 1)
                if (rr, cc) != (r, c) and 0 <= rr < ROWS and 0 <= cc < cols
            )
        )
    return tuple(out)


@lru_cache(maxsize=8)
def edge_cells(cols: int) -> frozenset[int]:
    return frozenset(i for i in range(ROWS * cols) if i // cols in (0, ROWS - 1) or i % cols in (0, cols - 1))


def regions_of(terrain: Sequence[object], cols: int) -> list[int]:
    """Region id per cell: orthogonally connected cells of one terrain (None cells get -1)."""
    return list(_regions(tuple(terrain), cols))


@lru_cache(maxsize=1024)
def _regions(terrain: tuple[object, ...], cols: int) -> tuple[int, ...]:
    n4 = neighbours4(cols)
    rid = [-1] * len(terrain)
    nxt = 0
    for start in range(len(terrain)):
        if rid[start] != -1 or terrain[start] is None:
            continue
        rid[start] = nxt
        stack = [start]
        while stack:
            i = stack.pop()
            for j in n4[i]:
                if rid[j] == -1 and terrain[j] == terrain[start]:
                    rid[j] = nxt
                    stack.append(j)
        nxt += 1
    return tuple(rid)


# --------------------------------------------------------------------------- solver


def _bits(mask: int) -> list[int]:
    return [v for v in range(1, MAX_REGION + 1) if mask >> v & 1]


class SearchTooLong(Exception):
    """The solver gave up (only used with a node budget)."""


@lru_cache(maxsize=1024)
def _layout(
    region_id: tuple[int, ...], cols: int
) -> tuple[
    tuple[tuple[int, ...], ...],
    tuple[int, ...],
    tuple[tuple[int, ...], ...],
    tuple[int, ...],
    tuple[int, ...],
    tuple[int, ...],
]:
    """What a puzzle's regions fix, whatever the known crops: the regions (cells in order),
    the cells taking part, each cell's peers (region mates and neighbours taking part), each
    cell's region, each region's full set of crops, and each cell's crops before any is known.
    Immutable, so puzzles on the same regions share it."""
    n = len(region_id)
    groups: dict[int, list[int]] = {}
    for i, r in enumerate(region_id):
        if r >= 0:
            groups.setdefault(r, []).append(i)
    regions = tuple(tuple(g) for g in groups.values())
    active = tuple(i for i in range(n) if region_id[i] >= 0)
    n8 = neighbours8(cols)
    region_index = {}
    for k, g in enumerate(regions):
        for i in g:
            region_index[i] = k
    region_of = tuple(region_index.get(i, -1) for i in range(n))
    full = tuple(sum(1 << v for v in range(1, len(g) + 1)) for g in regions)
    peers: list[tuple[int, ...]] = [()] * n
    for i in active:
        mates = set(regions[region_index[i]]) | {j for j in n8[i] if region_id[j] >= 0}
        mates.discard(i)
        peers[i] = tuple(sorted(mates))
    start = [0] * n
    for k, g in enumerate(regions):
        for i in g:
            start[i] = full[k]
    return regions, active, tuple(peers), region_of, full, tuple(start)


class Puzzle:
    """A crop puzzle: regions (a region id per cell, -1 for cells left out) and fixed crops.

    Cells left out take no part (used by the computer player, which only knows
    part of the map).  ``fixed`` crops of left-out cells still forbid their
    value to the neighbours.
    """

    def __init__(self, region_id: Sequence[int], cols: int, fixed: Mapping[int, int] | None = None) -> None:
        self.cols = cols
        n = len(region_id)
        self.n = n
        self.regions, self.active, self.peers, self.region_of, self.full, start = _layout(
            tuple(region_id), cols
        )
        self.ok = True
        dom = list(start)
        n8 = neighbours8(cols)
        for i, v in (fixed or {}).items():
            if region_id[i] >= 0:
                if not dom[i] >> v & 1:
                    self.ok = False
                dom[i] &= 1 << v
            else:
                for j in n8[i]:
                    if region_id[j] >= 0:
                        dom[j] &= ~(1 << v)
        self.start = dom

    # propagation -------------------------------------------------------
    def _propagate(self, dom: list[int], stack: list[int], done: list[bool], dirty: set[int]) -> bool:
        """Remove placed crops from their peers; place a crop with one home left in its region."""
        peers = self.peers
        region_of = self.region_of
        regions = self.regions
        full = self.full
        while True:
            while stack:
                i = stack.pop()
                if done[i]:
                    continue
                done[i] = True
                bit = dom[i]
                for j in peers[i]:
                    d = dom[j]
                    if d & bit:
                        d ^= bit
                        if not d:
                            return False
                        dom[j] = d
                        dirty.add(region_of[j])
                        if not d & (d - 1):
                            stack.append(j)
            if not dirty:
                return True
            r = dirty.pop()
            once = twice = 0
            for i in regions[r]:
                d = dom[i]
                twice |= once & d
                once |= d
            if once != full[r]:
                return False
            singles = once & ~twice
            if singles:
                for i in regions[r]:
                    d = dom[i] & singles
                    if d and dom[i] != d:
                        if d & (d - 1):
                            return False
                        dom[i] = d
                        stack.append(i)

    def _initial(self) -> tuple[list[int], list[bool]] | None:
        if not self.ok:
            return None
        dom = list(self.start)
        if any(dom[i] == 0 for i in self.active):
            return None
        done = [True] * self.n
        for i in self.active:
            done[i] = False
        stack = [i for i in self.active if not dom[i] & (dom[i] - 1)]
        if not self._propagate(dom, stack, done, set(range(len(self.regions)))):
            return None
        return dom, done

    def solutions(
        self, limit: int = 2, order: Sequence[int] | None = None, max_nodes: int | None = None
    ) -> list[list[int]]:
        """Up to ``limit`` solutions (crop per cell, 0 for cells left out).

        ``order`` gives the order values are tried.  With ``max_nodes``, a
        search that branches more often than that raises :class:`SearchTooLong`.
        """
        init = self._initial()
        if init is None:
            return []
        out: list[list[int]] = []
        active = self.active
        value_order = list(order) if order is not None else list(range(1, MAX_REGION + 1))

        nodes = [0]

        def rec(dom: list[int], done: list[bool]) -> None:
            nodes[0] += 1
            if max_nodes is not None and nodes[0] > max_nodes:
                raise SearchTooLong
            best = -1
            best_count = 99
            for i in active:
                d = dom[i]
                if d & (d - 1):
                    c = d.bit_count()
                    if c < best_count:
                        best, best_count = i, c
                        if c == 2:
                            break
            if best < 0:
                out.append([(dom[i].bit_length() - 1) if dom[i] else 0 for i in range(self.n)])
                return
            for v in value_order:
                if len(out) >= limit:
                    return
                bit = 1 << v
                if dom[best] & bit:
                    d2 = list(dom)
                    dn2 = list(done)
                    d2[best] = bit
                    if self._propagate(d2, [best], dn2, {self.region_of[best]}):
                        rec(d2, dn2)

        rec(init[0], init[1])
        return out

    def count(self, limit: int = 2) -> int:
        return len(self.solutions(limit))

    def candidates(self) -> list[int] | None:
        """Candidate bitmasks after propagation only (None: contradiction)."""
        init = self._initial()
        return None if init is None else init[0]


def count_solutions(
    terrain: Sequence[object], cols: int, fixed: Mapping[int, int] | None = None, limit: int = 2
) -> int:
    return Puzzle(regions_of(terrain, cols), cols, fixed).count(limit)


# --------------------------------------------------------------------------- generator


SIZE_WEIGHTS = (2, 4, 4, 3, 2)  # how often the generator aims at regions of 1..5 cells
FILL_COMPACT = 0.5
_SIZE_TABLE = [size for size, w in zip((1, 2, 3, 4, 5), SIZE_WEIGHTS, strict=True) for _ in range(w)]
_PERMS = {n: list(itertools.permutations(range(1, n + 1))) for n in range(1, MAX_REGION + 1)}
# per size and per value v at position k (key 8 * k + v): the permutations, as bits of their index,
# that put v at k; the permutations that fit what is forbidden are those left after removing these
_PERM_BITS = {
    n: {
        8 * k + v: sum(1 << at for at, p in enumerate(ps) if p[k] == v)
        for k in range(n)
        for v in range(1, n + 1)
    }
    for n, ps in _PERMS.items()
}
_ALL_PERMS = {n: (1 << len(ps)) - 1 for n, ps in _PERMS.items()}
ALL_TERRAINS = (1 << len(TERRAINS)) - 1
_STRIDES = (1, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 49, 53)  # coprime with 120, 24, 6 and 2


def _fill(rng, cols: int, cells: list[int], rid: list[int], val: list[int], ter: list[int]) -> bool:
    """Cut ``cells`` into regions with terrains and crops, fitting what is already placed.

    Works in place on ``rid`` (region id per cell, -1 free), ``val`` (crop) and
    ``ter`` (terrain index per region id).  Returns False when it gives up.
    """
    n8 = neighbours8(cols)
    inside = set(cells)
    # the neighbours inside the block, in the same order as neighbours4 / neighbours8 give them
    n4in = [tuple(j for j in ns if j in inside) for ns in neighbours4(cols)]
    n8in = [tuple(j for j in ns if j in inside) for ns in n8]
    budget = [0]

    def values_for(members: list[int], fits: int) -> tuple[int, ...] | None:
        """Crops for the members: the first permutation that ``fits`` (bits of the permutations
        giving no member a crop its neighbours show) holds, from a random start and stride."""
        perms = _PERMS[len(members)]
        count = len(perms)
        at = int(rng.random() * count)
        stride = _STRIDES[int(rng.random() * len(_STRIDES))]
        if not fits:
            return None
        for _ in range(count):
            if fits >> at & 1:
                return perms[at]
            at = (at + stride) % count
        return None

    def _room(j: int, size: int) -> bool:
        """Are there ``size`` free cells connected to free cell ``j`` (itself included)?"""
        if size <= 1:
            return True
        seen_cells = {j}
        stack = [j]
        while stack:
            i = stack.pop()
            for x in n4in[i]:
                if x not in seen_cells and rid[x] == -1:
                    seen_cells.add(x)
                    if len(seen_cells) >= size:
                        return True
                    stack.append(x)
        return False

    def rec(pos: int) -> bool:
        budget[0] += 1
        if budget[0] > 300:
            return False
        while pos < len(cells) and rid[cells[pos]] != -1:
            pos += 1
        if pos == len(cells):
            return True
        start = cells[pos]
        # the start cell needs a crop its neighbours do not show: the region must be at least that big
        seen = 0
        for j in n8[start]:
            if rid[j] >= 0:
                seen |= 1 << val[j]
        need = (~seen >> 1 & -(~seen >> 1)).bit_length()  # the smallest crop not seen
        if need > MAX_REGION:
            return False
        for _ in range(4):
            target = max(need, _SIZE_TABLE[int(rng.random() * len(_SIZE_TABLE))])
            members = [start]
            taken = {start}
            # the free cells next to the members, member by member in order (a cell next to two
            # members is there twice): kept up to date as members join
            frontier = [j for j in n4in[start] if rid[j] == -1]
            while len(members) < target:
                if not frontier:
                    break
                # mostly take the earliest free cell, so the fill leaves few holes behind
                j = min(frontier) if rng.random() < FILL_COMPACT else rng.choice(frontier)
                members.append(j)
                taken.add(j)
                frontier = [x for x in frontier if x != j]
                frontier += [x for x in n4in[j] if rid[x] == -1 and x not in taken]
            # the terrains next to the members, and the crop permutations their neighbours allow
            used = 0
            fits = _ALL_PERMS[len(members)]
            bits = _PERM_BITS[len(members)]
            for k, i in enumerate(members):
                for j in n8[i]:
                    r = rid[j]
                    if r >= 0:
                        used |= 1 << ter[r]
                        fits &= ~bits.get(8 * k + val[j], 0)
            if used == ALL_TERRAINS:
                continue
            values = values_for(members, fits)
            if values is None:
                continue
            region = len(ter)
            ter.append(rng.choice([c for c in range(len(TERRAINS)) if not used >> c & 1]))
            for i, v in zip(members, values, strict=True):
                rid[i] = region
                val[i] = v
            # a free cell next to this region must still have a terrain left for it,
            # and a free cell now walled in must still be able to hold a lone 1
            stuck = False
            for j in {j for i in members for j in n8in[i] if rid[j] == -1}:
                terrains = 0
                near = 0
                for x in n8[j]:
                    r = rid[x]
                    if r >= 0:
                        terrains |= 1 << ter[r]
                        near |= 1 << val[x]
                if terrains == ALL_TERRAINS:
                    stuck = True
                    break
                # j's own region must be able to reach the size of the smallest crop j can take
                need_j = (~near >> 1 & -(~near >> 1)).bit_length()  # the smallest crop not near
                if need_j > MAX_REGION or not _room(j, need_j):
                    stuck = True
                    break
            if not stuck and rec(pos + 1):
                return True
            for i in members:
                rid[i] = -1
                val[i] = 0
            ter.pop()
        return False

    return rec(0)


def _cover(rng, truth: list[int], others: list[list[int]], cells: list[int], k: int) -> list[int] | None:
    """At most k cells on which every other solution disagrees with the truth somewhere."""
    full = (1 << len(others)) - 1
    masks = {}
    for c in cells:
        m = 0
        for s, sol in enumerate(others):
            if sol[c] != truth[c]:
                m |= 1 << s
        masks[c] = m
    order = list(cells)
    rng.shuffle(order)
    order.sort(key=lambda c: -bin(masks[c]).count("1"))
    steps = [0]

    def rec(chosen: list[int], covered: int) -> list[int] | None:
        if covered == full:
            return chosen
        if len(chosen) == k:
            return None
        steps[0] += 1
        if steps[0] > 3000:
            return None
        left = ~covered & full
        low = left & -left  # some chosen cell must rule out this solution
        for c in order:
            if masks[c] & low and c not in chosen:
                got = rec(chosen + [c], covered | masks[c])
                if got is not None:
                    return got
        return None

    return rec([], 0)


def _pick(
    rng,
    region_id: list[int],
    cols: int,
    cells: list[int],
    truth: list[int],
    fixed: dict[int, int],
    k: int,
    sample: int = 64,
) -> list[int] | None:
    """k cells of ``cells`` whose crops make the truth the only solution there.

    ``fixed`` holds crops already known outside ``cells`` (they constrain the
    neighbours).  Greedy: look at up to ``sample`` solutions, reveal the cell
    that rules most of them out; once they are few, solve the cover exactly.
    """
    givens: dict[int, int] = {}
    active = [r if i in set(cells) else -1 for i, r in enumerate(region_id)]
    for _ in range(k + 1):
        try:
            sols = Puzzle(active, cols, {**fixed, **givens}).solutions(sample, max_nodes=400)
        except SearchTooLong:
            return None
        others = [s for s in sols if any(s[c] != truth[c] for c in cells)]
        if not others:
            rest = [c for c in cells if c not in givens]
            rng.shuffle(rest)
            return sorted(list(givens) + rest[: k - len(givens)])
        if len(givens) == k:
            return None
        free = [c for c in cells if c not in givens]
        if len(sols) < sample:
            cover = _cover(rng, truth, others, free, k - len(givens))
            if cover is None:
                return None
            rest = [c for c in free if c not in cover]
            rng.shuffle(rest)
            return sorted(list(givens) + cover + rest[: k - len(givens) - len(cover)])
        best = max(free, key=lambda c: (sum(s[c] != truth[c] for s in others), rng.random()))
        givens[best] = truth[best]
    return None


def _block(
    seed,
    cols: int,
    block: list[int],
    rid: list[int],
    val: list[int],
    ter: list[int],
    k: int,
    tag,
    tries: int | None = None,
) -> list[int] | None:
    """Fill one block of columns (in place) until k revealed cells make it unique.

    Gives up (returns None, nothing changed) after ``tries`` attempts if given.
    """
    attempt = 0
    while tries is None or attempt < tries:
        rng = rng_for(seed, "map", tag, attempt)
        attempt += 1
        rid2, val2, ter2 = list(rid), list(val), list(ter)
        if not _fill(rng, cols, block, rid2, val2, ter2):
            continue
        fixed = {i: val2[i] for i in range(len(rid2)) if rid2[i] >= 0 and i not in block}
        revealed = _pick(rng, rid2, cols, block, val2, fixed, k)
        if revealed is None:
            continue
        rid[:], val[:], ter[:] = rid2, val2, ter2
        return revealed
    return None


@lru_cache(maxsize=512)
def _generate(seed: int | str, cols: int) -> tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]]:
    """A hidden map: terrain letter per cell, crop per cell, and the revealed cells.

    The revealed cells (3 on 5 x 5, 6 on 5 x 9) are chosen so that, given the
    full terrain and the crops on them, exactly one crop layout fits.
    """
    n = ROWS * cols
    rid = [-1] * n
    val = [0] * n
    ter: list[int] = []
    revealed = _block(seed, cols, list(range(n)), rid, val, ter, REVEALED_CELLS[cols], "board")
    assert revealed is not None  # _block without a limit on tries always ends with a map
    return tuple(TERRAINS[ter[r]] for r in rid), tuple(val), tuple(sorted(revealed))


def generate(seed: int | str, cols: int) -> tuple[list[str], list[int], list[int]]:
    """See :func:`_generate` (results are cached: a seed always gives the same map)."""
    terrain, crops, revealed = _generate(seed, cols)
    return list(terrain), list(crops), list(revealed)


def terrain_counts(terrain: Iterable[str]) -> dict[str, int]:
    out = {t: 0 for t in TERRAINS}
    for t in terrain:
        out[t] += 1
    return out


__all__ = [
    "Puzzle",
    "cell_name",
    "count_solutions",
    "edge_cells",
    "generate",
    "neighbours4",
    "neighbours8",
    "regions_of",
    "terrain_counts",
    "_bits",
]
