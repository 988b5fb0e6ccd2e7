"""The computer players: they read only their seat's view.

The ``normal`` player works out which crops are certain from what it can see (discovered
terrain, planted crops, its own peeks): a region whose cells and whole border
are known is a closed region, and the crop puzzle restricted to the closed
regions (planted crops elsewhere still forbid their neighbours) has every
true layout among its solutions, so a cell with one value across all of
them is certain.  It divines certain crops, walks explorers onto tiles whose
crop it knows, explores for cubes (preferring the terrains it lacks for an
offering), and trades or offers when that helps.

The ``easy`` level takes a random legal move now and then.  The ``strong``
level samples hidden maps that agree with everything its seat knows
(:func:`determinize`) and plays the normal player's candidates out in them
(:mod:`engines.search`); in those worlds a crop it is unsure of has the odds
the sampled maps give it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from engines import search
from engines.core import DEFAULT_LEVEL
from engines.tiwanaku import rules
from engines.tiwanaku.board import Puzzle, SearchTooLong, neighbours4, neighbours8, regions_of
from engines.tiwanaku.data import LONG_COLS, MAX_REGION, ROWS, SHORT_COLS, TERRAINS
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


_CANDIDATES: dict[tuple, dict[int, frozenset[int]]] = {}
"""The possible crops of every cell of a closed region, by what :func:`crop_candidates` reads of
the view (the seat's knowledge): a search's playouts ask again and again about the same
knowledge.  The cells asked for take no part in working them out (the puzzle and its solutions
are the same), so an answer for some cells is the whole answer cut down to them."""

_CANDIDATES_LIMIT = 20_000
"""Entries kept in :data:`_CANDIDATES` before it is emptied (a long-running process stays small)."""


def crop_candidates(view: View, cells: Sequence[int] | None = None) -> dict[int, set[int]]:
    """Possible crops per cell of a closed region (only ``cells`` if given)."""
    key = (view.cols, view.terrain, view.crops, tuple(view.peeks.items()))
    found = _CANDIDATES.get(key)
    if found is None:
        if len(_CANDIDATES) >= _CANDIDATES_LIMIT:
            _CANDIDATES.clear()
        found = _CANDIDATES[key] = {c: frozenset(v) for c, v in _crop_candidates(view).items()}
    if cells is None:
        return {c: set(v) for c, v in found.items()}
    return {c: set(found[c]) for c in cells if c in found}


def _crop_candidates(view: View) -> dict[int, set[int]]:
    """Possible crops per cell of every closed region."""
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
    want = [c for c in range(len(rid)) if active[c] >= 0]
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


def normal_move(view: View, legal: list[Move], rng: random.Random) -> Move:
    """The deducing player: certain crops first, then known tiles, then exploring."""
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
        # nothing sure to divine: an action bought now, else done
        return next((m for m in legal if isinstance(m, Extra) and not divines), None) or next(
            m for m in legal if isinstance(m, Done)
        )

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


# --------------------------------------------------------------------------- levels

EASY_RANDOM = 0.3
"""How often the easy player takes a random legal move instead of the normal one."""

SIMULATIONS_PER_SECOND = 140
"""Simulations the strong player plans its search rounds for, per second of thinking (by count
it runs exactly these; by the clock, as at the table, it runs until its deadline): the playouts
per CPU second measured on the development machine (2 cores), ``python bench/strength.py --parts
calibrate``."""

HORIZON = 30
"""Moves played after a candidate before the position is scored."""

CHECK_NODES = 1
"""Search nodes for the crop check made whenever the terrain sampler closes a region: in
effect the puzzle's propagation alone (what it cannot refute at once counts as a fit),
which catches most dead ends at a fraction of a full search's cost."""

MAP_TRIES = 1
"""Fresh starts of the hidden-map sampler before :func:`approximate_map` stands in."""


def computer_move(
    view,
    legal: list,
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


def known_crops(view) -> dict[int, int]:
    """The crops the seat knows: planted ones and those it saw on the disc."""
    fixed = {c: v for c, v in enumerate(view.crops) if v is not None}
    for c, seen in view.peeks.items():
        if seen.isdigit():
            fixed[int(c)] = int(seen)
    return fixed


@lru_cache(maxsize=4096)
def shut_regions_fit(cols: int, shut: tuple[int, ...], fixed: tuple[tuple[int, int], ...]) -> bool:
    """Whether the crop puzzle on the regions that can grow no more (a region id per cell, -1
    for the others) has a solution with the ``fixed`` crops (cell, crop); a search longer than
    :data:`CHECK_NODES` counts as a fit.  A function of its arguments alone, so it is kept: the
    sampler asks it again and again about the same regions while it fills in the other cells,
    and every world a search samples from one view asks it about the same known crops."""
    try:
        return bool(Puzzle(shut, cols, dict(fixed)).solutions(1, max_nodes=CHECK_NODES))
    except SearchTooLong:
        return True


def sample_terrain(view, rng: random.Random) -> list[str] | None:
    """A terrain for every cell that agrees with what the seat knows, or None.

    Known: discovered cells, terrains seen on the disc, and how many cells of
    each terrain the map holds.  The rules of a map: an orthogonally connected
    area of one terrain (a region) has at most 5 cells, and two regions of one
    terrain never touch, not even at a corner.  With regions that small, two
    cells of a terrain touching at a corner are one region only if one of the
    two cells beside both has that terrain too; that local rule and the region
    sizes are checked as cells are filled in, in reading order, with random
    choices weighted by the terrains still to place.
    """
    cols = view.cols
    n = ROWS * cols
    known: list[str | None] = list(view.terrain)
    for c, seen in view.peeks.items():
        if not seen.isdigit():
            known[int(c)] = seen
    left = dict(view.terrain_totals)
    for t in known:
        if t is not None:
            left[t] -= 1
    if any(v < 0 for v in left.values()):
        return None
    free = [c for c in range(n) if known[c] is None]
    n4 = neighbours4(cols)
    n8 = neighbours8(cols)
    budget = [400]

    def blocks_ok(grid: list[str | None], c: int) -> bool:
        r, k = divmod(c, cols)
        for dr in (-1, 0):
            for dk in (-1, 0):
                r0, k0 = r + dr, k + dk
                if not (0 <= r0 < ROWS - 1 and 0 <= k0 < cols - 1):
                    continue
                a, b = r0 * cols + k0, r0 * cols + k0 + 1
                d, e = a + cols, b + cols
                ta, tb, td, te = grid[a], grid[b], grid[d], grid[e]
                if ta is None or tb is None or td is None or te is None:
                    continue
                if ta == te and tb != ta and td != ta:
                    return False
                if tb == td and ta != tb and te != tb:
                    return False
        return True

    fixed = known_crops(view)
    fixed_key = tuple(fixed.items())

    def region_ok(grid: list[str | None], c: int) -> bool:
        """The region of ``c`` has at most 5 cells and no known crop twice (crops 1..n, once each)."""
        t = grid[c]
        seen = {c}
        stack = [c]
        crops = {fixed[c]} if c in fixed else set()
        while stack:
            i = stack.pop()
            for j in n4[i]:
                if j not in seen and grid[j] == t:
                    seen.add(j)
                    if len(seen) > MAX_REGION:
                        return False
                    v = fixed.get(j)
                    if v is not None:
                        if v in crops:
                            return False
                        crops.add(v)
                    stack.append(j)
        return True

    # the regions that can grow no more (every cell around them known), each as its cells in
    # reading order: a region shut stays shut while the cells are filled in, so the list only
    # grows with them (and is cut back when the sampler backtracks)
    shut: list[tuple[int, ...]] = []

    def closed_ok(grid: list[str | None], c: int) -> bool:
        """A region next to ``c`` that can grow no more must still hold its crops 1..n.

        The regions ``c`` shut go into ``shut`` when they pass (the caller cuts ``shut``
        back to what it was when it takes ``c`` back)."""
        checked: set[int] = set()
        found = []
        for start in (c, *n4[c]):
            t = grid[start]
            if t is None or start in checked:
                continue
            cells = {start}
            stack = [start]
            closed = True
            while stack and closed:
                for j in n4[stack.pop()]:
                    u = grid[j]
                    if u is None:
                        # open: the rest of it need not be walked (another start in it finds
                        # it open all the same)
                        closed = False
                        break
                    if u == t and j not in cells:
                        cells.add(j)
                        stack.append(j)
            checked |= cells
            if not closed:
                continue
            # crops 1..size, each once: a known crop above the size, or twice, cannot be;
            # a lone cell grows a 1, which may not touch another 1
            known = [fixed[i] for i in cells if i in fixed]
            if known and (max(known) > len(cells) or len(set(known)) < len(known)):
                return False
            if len(cells) == 1:
                (i,) = cells
                for j in n8[i]:
                    if fixed.get(j) == 1 and j != i:
                        return False
                    if grid[j] is not None and lone(grid, j):
                        return False
            found.append(tuple(sorted(cells)))
        if not found:
            return True
        shut.extend(found)
        return crops_fit()

    def crops_fit() -> bool:
        """The regions that can grow no more still have crops that fit together (the crop
        puzzle on those regions alone, bounded; a search too long counts as a fit)."""
        # a region id per cell of the shut regions (numbered in reading order, -1 elsewhere):
        # the same regions give the same key
        key = [-1] * n
        for number, cells in enumerate(sorted(shut)):
            for i in cells:
                key[i] = number
        return shut_regions_fit(cols, tuple(key), fixed_key)

    def shut_regions(grid: list[str | None]) -> list[tuple[int, ...]]:
        """Every region of ``grid`` that can grow no more, in reading order."""
        out = []
        seen = [False] * n
        for start in range(n):
            t = grid[start]
            if t is None or seen[start]:
                continue
            seen[start] = True
            cells = [start]
            stack = [start]
            closed = True
            while stack:
                for j in n4[stack.pop()]:
                    u = grid[j]
                    if u is None:
                        closed = False
                    elif u == t and not seen[j]:
                        seen[j] = True
                        cells.append(j)
                        stack.append(j)
            if closed:
                out.append(tuple(sorted(cells)))
        return out

    def lone(grid: list[str | None], j: int) -> bool:
        """Whether ``j`` is a finished region of one cell (all its neighbours known, none alike)."""
        return all(grid[x] is not None and grid[x] != grid[j] for x in n4[j])

    def rec(grid: list[str | None], pos: int) -> bool:
        budget[0] -= 1
        if budget[0] < 0:
            return False
        if pos == len(free):
            return True
        c = free[pos]
        options = [t for t in TERRAINS if left[t] > 0]
        weights = [left[t] * rng.random() for t in options]
        for t in [t for _, t in sorted(zip(weights, options, strict=True), reverse=True)]:
            grid[c] = t
            left[t] -= 1
            mark = len(shut)
            if blocks_ok(grid, c) and region_ok(grid, c) and closed_ok(grid, c) and rec(grid, pos + 1):
                return True
            del shut[mark:]
            left[t] += 1
            grid[c] = None
        return False

    grid = list(known)
    # the cells already known must obey the rules on their own; check every one once
    for c in range(n):
        if grid[c] is not None and not region_ok(grid, c):
            return None
    shut.extend(shut_regions(grid))
    if not rec(grid, 0):
        return None
    filled = [t for t in grid if t is not None]
    return filled if len(filled) == n else None  # a success fills every cell


def approximate_map(view, rng: random.Random, terrain: list[str] | None) -> tuple[list[str], list[int]]:
    """The fallback when no legal hidden map turned up: a map that agrees with the view
    but may break a map rule where the view cannot tell.

    ``terrain`` is the last terrain the sampler completed (None: the cells nobody has
    seen take the terrains still unplaced, shuffled).  Every region keeps its known
    crops and its other cells take the missing values 1..n in a random order (a region
    of more than 5 cells, or one whose known crops leave too few values, takes random
    crops 1..5 there).  Discovered terrains, planted crops, the seat's looks at the disc
    and the terrain counts all match the view, so the view of the world is the view.
    """
    cols = view.cols
    n = ROWS * cols
    fixed = known_crops(view)
    known: list[str | None] = list(view.terrain)
    for c, seen in view.peeks.items():
        if not seen.isdigit():
            known[int(c)] = seen
    if terrain is None:
        pool = []
        for t, k in view.terrain_totals.items():
            pool += [t] * (k - sum(1 for x in known if x == t))
        rng.shuffle(pool)
        terrain = [t if t is not None else pool.pop() for t in known]
    crops = [0] * n
    rid = regions_of(terrain, cols)
    groups: dict[int, list[int]] = {}
    for c in range(n):
        groups.setdefault(rid[c], []).append(c)
    for cells in groups.values():
        missing = [v for v in range(1, len(cells) + 1) if v not in {fixed.get(c) for c in cells}]
        rng.shuffle(missing)
        for c in cells:
            if c in fixed:
                crops[c] = fixed[c]
            elif missing:
                crops[c] = missing.pop()
            else:
                crops[c] = rng.randint(1, MAX_REGION)
    return terrain, crops


def determinize(view, rng: random.Random):
    """A full state agreeing with ``view``: a hidden map sampled to fit everything the
    seat has seen (terrains, planted crops, its looks at the disc, the terrain counts).

    Up to :data:`MAP_TRIES` terrains are sampled (:func:`sample_terrain`) and the crops
    solved on each; the first legal map is taken.  When none turns up (late in a game
    the known crops leave few layouts and most sampled terrains have no crops that
    fit), :func:`approximate_map` stands in: bounded work, a world that still shows the
    seat exactly its view, only the hidden cells may break a map rule.
    """
    cols = view.cols
    n = ROWS * cols
    fixed = known_crops(view)
    terrain = crops = last = None
    for _ in range(MAP_TRIES):
        terrain = sample_terrain(view, rng)
        if terrain is None:
            continue
        last = terrain
        order = list(range(1, MAX_REGION + 1))
        rng.shuffle(order)
        try:
            sols = Puzzle(regions_of(terrain, cols), cols, fixed).solutions(1, order=order, max_nodes=300)
        except SearchTooLong:
            sols = []
        if sols:
            crops = sols[0]
            break
    if terrain is None or crops is None:
        terrain, crops = approximate_map(view, rng, last)
    me = view.seat
    players = view.players
    discovered = [t is not None for t in view.terrain]
    cultivated = [v is not None for v in view.crops]
    peeks: list[dict[int, str]] = []
    for s in range(players):
        if s == me:
            mine = {int(c): v for c, v in view.peeks.items()}
            # looks that no longer show (the tile was discovered or planted since) still count
            stale = [c for c in range(n) if discovered[c] and c not in mine]
            for c in stale[: view.peek_counts[s] - len(mine)]:
                mine[c] = terrain[c]
            peeks.append(mine)
        else:
            cells = [c for c in range(n) if not cultivated[c]]
            rng.shuffle(cells)
            peeks.append(
                {c: (str(crops[c]) if discovered[c] else terrain[c]) for c in cells[: view.peek_counts[s]]}
            )
    board = rules.BoardSize.SHORT if cols == SHORT_COLS else rules.BoardSize.LONG
    if players > 2 and cols == LONG_COLS:
        board = rules.BoardSize.AUTO
    return rules.State(
        config=rules.Config(players=players, board=board),
        seed=rng.getrandbits(48),
        cols=cols,
        terrain=terrain,
        crops=crops,
        start_cells=list(view.start_cells),
        discovered=discovered,
        cultivated=cultivated,
        explorer=list(view.explorer),
        reserve=list(view.reserve),
        cubes=[list(c) for c in view.cubes],
        scores=list(view.scores),
        scales=[list(x) for x in view.scales],
        correct=list(view.correct),
        wrong=list(view.wrong),
        peeks=peeks,
        peek_counts=list(view.peek_counts),
        turn=view.turn,
        phase=view.phase,
        actions_left=view.actions_left,
        final_out=list(view.final_out),
        final_starter=view.turn,
        cube_points=list(view.cube_points),
        last=view.last,
        last_seat=view.last_seat,
        last_cells=list(view.last_cells),
        round=view.round,
    )


def _evaluate(state, seat: int) -> float:
    result = rules.outcome(state)
    if result is not None:
        return search.outcome_reward(result, seat, 50.0 if state.config.players == 1 else 8.0)
    worth = [state.scores[p] + sum(state.cubes[p]) for p in range(state.config.players)]
    if state.config.players == 1:
        return max(0.0, min(1.0, float(worth[0]) / 50.0))
    best_other = max(v for p, v in enumerate(worth) if p != seat)
    return search.margin_value(worth[seat] - best_other, 8.0)


class _Seen:
    """The part of a view the normal player reads (:func:`normal_move`, :func:`knowledge` and
    :func:`crop_candidates`), built from a state as :func:`rules.view_for` builds those fields;
    the search's playouts hand it to the policy at every move instead of the whole view."""

    __slots__ = ("seat", "cols", "phase", "terrain", "crops", "peeks", "explorer", "cubes")

    def __init__(self, state: rules.State, seat: int | None) -> None:
        discovered, cultivated = state.discovered, state.cultivated
        self.seat = seat
        self.cols = state.cols
        self.phase = state.phase
        self.terrain = tuple([t if d else None for t, d in zip(state.terrain, discovered, strict=True)])
        self.crops = tuple([v if c else None for v, c in zip(state.crops, cultivated, strict=True)])
        self.peeks = rules.live_peeks(state, seat)
        self.explorer = tuple(state.explorer)
        self.cubes = tuple(tuple(c) for c in state.cubes)


def _game() -> search.Game:
    return search.Game(search.Viewed(rules, _Seen), determinize, normal_move, _evaluate, HORIZON)


CANDIDATES = 8
"""At most this many moves are compared by the strong player."""


def candidates(view, legal: list, rng: random.Random) -> list:
    """The normal player's pick, guesses on uncertain crops, exploring, and stopping."""
    out = [normal_move(view, legal, rng)]
    divines = [m for m in legal if isinstance(m, Divine)]
    if divines:
        cells = sorted({_cell(view, m) for m in divines})
        cand = crop_candidates(view, cells)
        for m in divines:
            c = _cell(view, m)
            if m.crop in cand.get(c, range(1, 6)):
                out.append(m)
    out += [m for m in legal if isinstance(m, (Done, Pass, Extra))]
    moves = [m for m in legal if isinstance(m, (Enter, Step)) and view.terrain[_dest(view, m)] is None]
    rng.shuffle(moves)
    out += moves[:3]
    return list(dict.fromkeys(out))[:CANDIDATES]


def strong_move(
    view, legal: list, rng: random.Random, seconds: float | None, deadline: search.Deadline | None = None
):
    """Search the best candidates in sampled hidden maps."""
    return search.choose(
        _game(),
        view,
        candidates(view, legal, rng),
        rng,
        simulations=search.simulations_for(seconds, SIMULATIONS_PER_SECOND),
        deadline=deadline,
    )
