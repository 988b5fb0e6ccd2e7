"""The computer players, reading only their seat's view.

``normal`` is a greedy builder that asks the solver for the huts still
missing when its greedy hut would leave the village impossible to finish
(within a small node budget, never for the smallest village); ``easy`` takes
a random legal move now and then; ``strong`` plans: the exact solver (:mod:`.solver`) looks for the
smallest village for the task, within a node budget (racing, the one of that
size with the most fruit bushes, since only the caller scores them; alone, the
most fruit of any size), and the player builds it hut by hut, each hut touching the ones already built, then calls Gwinea.  The
task (board, water holes, totems, the die) is public, so the plan reads only
the view.  Other players' villages are hidden; :func:`determinize` samples them.
"""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import combinations

from engines import search
from engines.core import DEFAULT_LEVEL, UNKNOWN

from . import rules
from .geometry import PIECES, PLACEMENTS, SIZE, cell_of, placement, placement_from_text
from .solver import Search, independent, solve


def _dist(a: int, b: int) -> int:
    return abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE)


@lru_cache(maxsize=1)
def _reach() -> list[list[int]]:
    """For each placement, its distance to every board square (computed once)."""
    return [[min(_dist(w, c) for c in pl.cells) for w in range(SIZE * SIZE)] for pl in PLACEMENTS]


def normal_move(view, legal, rng: random.Random):
    """Call Gwinea as soon as the village allows it; otherwise build the greedy hut
    (:func:`_greedy_hut`) while the village can still be completed after it, and
    when it cannot, or when no hut gets closer, the next hut of the smallest
    completion of the village as built (:func:`completion`); say 'done' when
    the solver finds none within its small budget.

    Only the huts still to add are planned, never the whole village, so the
    village is often larger than the strong player's."""
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
    greedy = _greedy_hut(view, places, rng)
    board = view.boards[seat]
    rolled = cell_of(board.totems[view.totem])
    others = tuple(cell_of(c) for i, c in enumerate(board.totems) if i != view.totem)
    water = tuple(cell_of(c) for c in board.water)
    built = tuple(view.villages[seat])
    if greedy is not None:
        after = completion(rolled, water, others, view.water_target, (*built, str(greedy)), NORMAL_NODES)
        if after is not None:
            return greedy
    rest = completion(rolled, water, others, view.water_target, built, NORMAL_NODES)
    if rest:
        by_text = {str(m): m for m in places}
        if rest[0] in by_text:
            return by_text[rest[0]]
    if greedy is not None:
        return greedy
    return done if done is not None else rng.choice(legal)


def _greedy_hut(view, places: list, rng: random.Random):
    """The hut that covers the most water (then fruit) and brings the village
    closest to the water holes still open, or None when no hut gets closer."""
    seat = view.seat
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
    return best


NORMAL_NODES = 3000
"""Solver nodes the normal player may search for one completion of its village."""

NORMAL_EXTRA_HUTS = 4
"""At most this many huts more than the fewest the open targets need, in a completion."""


@lru_cache(maxsize=1024)
def completion(
    rolled: int,
    water: tuple[int, ...],
    others: tuple[int, ...],
    need: int,
    built: tuple[str, ...],
    node_limit: int,
) -> tuple[str, ...] | None:
    """The fewest huts the solver finds to add to ``built`` (kept as it is) so that
    the village is legal and covers ``need`` of the water holes, in building
    order; ``()`` when it already does; None when the solver finds none within
    ``node_limit`` nodes (shared by every hut count and set of water holes).

    The water holes already covered are kept among the ``need`` (the sets of
    holes are tried with the fewest still open first)."""
    huts = [placement_from_text(text) for text in built]
    occupied = 0
    for pl in huts:
        occupied |= pl.mask
    covered = [w for w in water if occupied >> w & 1]
    open_ = [w for w in water if not occupied >> w & 1]
    subsets = [tuple(covered) + rest for rest in combinations(open_, max(0, need - len(covered)))]
    left = len(PIECES) - len(huts)
    searches = []
    for subset in subsets:
        s = Search(rolled, list(subset), list(others), None)
        avail = s.start
        for pl in huts:
            avail &= s.compat[pl.index] & ~s.piece_bits[pl.piece]
        todo = [t for t in s.targets if not occupied >> t & 1]
        searches.append((independent(todo), s, avail))
    if not searches:
        return None
    nodes = 0
    low = min(n for n, _, _ in searches)
    for k in range(low, min(left, low + NORMAL_EXTRA_HUTS) + 1):
        for lower, s, avail in searches:
            if lower > k:
                continue
            s.nodes, s.limit = 0, node_limit - nodes
            try:
                got = s._cover([pl.index for pl in huts], occupied, avail, k)
            except TimeoutError:
                return None
            nodes += s.nodes
            if got is not None:
                return _added_in_order(huts, [PLACEMENTS[j] for j in got[len(huts) :]], rolled)
    return None


def _added_in_order(built: list, added: list, rolled: int) -> tuple[str, ...]:
    """The ``added`` huts in an order they can be built after ``built``: each touching
    one before it, the first of all on the rolled totem."""
    if not built:
        return tuple(pl.text for pl in _building_order(added, rolled))
    order = list(built)
    left = list(added)
    while left:
        nxt = next(pl for pl in left if any(pl.mask & h.corner for h in order))
        order.append(nxt)
        left.remove(nxt)
    return tuple(pl.text for pl in order[len(built) :])


# --------------------------------------------------------------------------- levels

EASY_RANDOM = 0.3
"""How often the easy player takes a random legal move instead of the normal one."""

NODES_PER_SECOND = 150_000
"""Solver nodes the strong player may search per second of thinking (measured on
the development machine: the solver visits about this many nodes a second)."""

SOLVER_MAX_HUTS = 9
"""The largest village the strong player's plan looks for."""


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


@lru_cache(maxsize=256)
def plan(
    rolled: int, water: tuple[int, ...], others: tuple[int, ...], need: int, node_limit: int
) -> tuple[str, ...] | None:
    """The smallest village the solver finds covering ``need`` of the water holes, in
    building order (each hut touches one before it), or None past the node budget.

    The budget is shared by the subsets of water holes tried when fewer than all
    are needed; the search is deterministic, so the plan is too."""
    best = None
    nodes = node_limit
    for subset in combinations(water, need):
        try:
            got = solve(rolled, list(subset), list(others), max_huts=SOLVER_MAX_HUTS, node_limit=nodes)
        except TimeoutError:
            break
        if got is not None and (best is None or len(got) < len(best)):
            best = got
    if best is None:
        return None
    return tuple(pl.text for pl in _building_order(best, rolled))


@lru_cache(maxsize=256)
def fruit_plan(
    rolled: int,
    water: tuple[int, ...],
    fruit: tuple[int, ...],
    others: tuple[int, ...],
    need: int,
    node_limit: int,
) -> tuple[str, ...] | None:
    """A village covering the water holes and as many fruit bushes as the solver finds
    within the node budget (most fruit first), in building order; None if none."""
    left = node_limit
    for k in range(len(fruit), 0, -1):
        for targets in _targets(water, fruit, need, k):
            if left <= 0:
                return None
            search_ = None
            try:
                search_ = solve(
                    rolled, targets, list(others), max_huts=12, node_limit=min(left, node_limit // 8)
                )
            except TimeoutError:
                pass
            left -= node_limit // 8
            if search_:
                return tuple(pl.text for pl in _building_order(search_, rolled))
    return None


def _targets(water: tuple[int, ...], fruit: tuple[int, ...], need: int, bushes: int):
    """Every choice of ``need`` water holes and ``bushes`` fruit bushes, as one list of squares."""
    for chosen in combinations(fruit, bushes):
        for subset in combinations(water, need):
            yield [*subset, *chosen]


@lru_cache(maxsize=256)
def race_plan(
    rolled: int,
    water: tuple[int, ...],
    fruit: tuple[int, ...],
    others: tuple[int, ...],
    need: int,
    node_limit: int,
) -> tuple[str, ...] | None:
    """A village of the size of :func:`plan`'s (the smallest the solver finds)
    covering as many fruit bushes as the solver finds within the node budget (one
    more bush at a time, so only the last count searched fails), in building
    order; None when :func:`plan` finds none.  The fruit search has half the
    plan's node budget on top of it (both run once a round: the plans are cached)."""
    best = plan(rolled, water, others, need, node_limit)
    if best is None:
        return None
    huts = [placement_from_text(text) for text in best]
    size = len(huts)
    mask = 0
    for pl in huts:
        mask |= pl.mask
    left = node_limit // 2
    for k in range(sum(1 for f in fruit if mask >> f & 1) + 1, len(fruit) + 1):
        found = None
        for targets in _targets(water, fruit, need, k):
            if left <= 0:
                return best
            search_ = Search(rolled, targets, list(others), left)
            try:
                got = search_.run(size)
            except TimeoutError:
                return best
            left -= search_.nodes
            if got is not None:
                found = tuple(pl.text for pl in _building_order([PLACEMENTS[j] for j in got], rolled))
                break
        if found is None:
            return best
        best = found
    return best


def _building_order(village: list, rolled: int) -> list:
    """The huts from the one on the rolled totem outwards, each touching an earlier one."""
    left = list(village)
    first = next(pl for pl in left if pl.mask >> rolled & 1)
    order = [first]
    left.remove(first)
    while left:
        nxt = next(pl for pl in left if any(pl.mask & h.corner for h in order))
        order.append(nxt)
        left.remove(nxt)
    return order


def strong_move(
    view, legal: list, rng: random.Random, seconds: float | None, deadline: search.Deadline | None = None
):
    """Build the planned smallest village (racing, the richest in fruit of that size)
    hut by hut, then call Gwinea (alone, after adding the huts that cover more fruit
    bushes).  The solver's budget is a node count (:data:`NODES_PER_SECOND`); it plans
    once a round and its plans are cached, so ``deadline`` is not needed and not asked."""
    from .rules import Gwinea, Place

    seat = view.seat
    board = view.boards[seat]
    if any(isinstance(m, Gwinea) for m in legal):
        if view.players == 1:
            # alone there is no race: a hut that covers one more fruit bush raises the bonus
            fruit = _fruit_hut(view, board, [m for m in legal if isinstance(m, Place)])
            if fruit is not None:
                return fruit
        return Gwinea()
    rolled = cell_of(board.totems[view.totem])
    others = tuple(cell_of(c) for i, c in enumerate(board.totems) if i != view.totem)
    water = tuple(cell_of(c) for c in board.water)
    nodes = search.simulations_for(seconds, NODES_PER_SECOND, minimum=1000)
    village = None
    if view.players == 1:
        # alone there is no race: the most fruit bushes the solver can add to the water holes
        fruit = tuple(cell_of(c) for c in board.fruit)
        village = fruit_plan(rolled, water, fruit, others, view.water_target, nodes)
    else:
        # racing: the caller alone scores its fruit bushes, so the smallest village with the most fruit
        fruit = tuple(cell_of(c) for c in board.fruit)
        village = race_plan(rolled, water, fruit, others, view.water_target, nodes)
    if village is None:
        village = plan(rolled, water, others, view.water_target, nodes)
    built = set(view.villages[seat])
    if village is None or not built <= set(village):
        return normal_move(view, legal, rng)
    places = {str(m): m for m in legal if isinstance(m, Place)}
    for text in village:
        if text not in built and text in places:
            return places[text]
    return normal_move(view, legal, rng)


def _fruit_hut(view, board, places: list):
    """The first placement (in the order given) that covers a fruit bush not yet covered."""
    fruit = 0
    for c in board.fruit:
        fruit |= 1 << cell_of(c)
    for text in view.villages[view.seat]:
        built = placement_from_text(text)
        assert built is not None, "the view's village holds a placement the game wrote"
        fruit &= ~built.mask
    for m in places:
        pl = placement(m.piece, m.orient, m.anchor)
        if pl is not None and pl.mask & fruit:
            return m
    return None


def determinize(view, rng: random.Random):
    """A full state agreeing with ``view``.

    Hidden are the other players' villages (only their hut counts show), the
    order of the boards still in the stack and the die: each other village is
    that many huts laid at random (touching where they can, as people build),
    the unseen boards are shuffled and the generator's seed is new.  Rounds
    already played appear only with their points (and the last one whole).
    """
    n = view.players
    sides = [b.side for b in view.boards]
    boards = [b.board for b in view.boards]
    hard = tuple(s for s in range(n) if sides[s] == "B")
    if len(hard) == n:
        side, hard_seats = rules.Side.HARD, ""
    else:
        side, hard_seats = rules.Side.STANDARD, ",".join(str(s + 1) for s in hard)
    deal = rules.Deal.EACH if n > 1 and len(set(boards)) > 1 else rules.Deal.SHARED
    config = rules.Config(
        players=n,
        side=side,
        hard_seats=hard_seats,
        boards=deal,
        water_target=view.water_target,
        fruit_for_all=view.fruit_for_all,
    )
    current = boards if deal is rules.Deal.EACH else boards[:1]
    drawn = view.round * len(current)
    future = [b for b in range(1, 33) if b not in current] * (1 + view.deck_left // 28)
    rng.shuffle(future)
    deck = [0] * (drawn - len(current)) + list(current) + future[: view.deck_left]
    history = [
        {
            "round": r + 1,
            "boards": [],
            "sides": [],
            "totem": 0,
            "villages": [],
            "caller": None,
            "how": "deadline",
        }
        | {"rows": [{"water": 0, "fruit": 0, "broken": None, "points": p} for p in points]}
        for r, points in enumerate(view.per_round[:-1])
    ]
    if view.last_round is not None:
        history.append(dict(view.last_round))
    state = rules.State(
        config=config,
        seed=rng.getrandbits(48),
        deck=deck,
        drawn=drawn,
        round=view.round,
        boards=boards,
        sides=sides,
        totem=view.totem,
        villages=[[] for _ in range(n)],
        done=list(view.done),
        since=[0] * n,
        complete_at=[None] * n,
        scores=list(view.scores),
        history=history,
        last=[None] * n,
        over=view.over,
    )
    for s in range(n):
        if view.villages[s] != UNKNOWN:
            state.villages[s] = list(view.villages[s])
            state.last[s] = view.last_move
        else:
            state.villages[s] = _random_village(state, s, view.huts[s], rng)
        if rules.status(state, s).complete:
            state.complete_at[s] = 0
    return state


def _random_village(state, seat: int, huts: int, rng: random.Random) -> list[str]:
    """``huts`` huts on ``seat``'s board, each touching an earlier one while that is possible."""
    state.villages[seat] = []
    for _ in range(huts):
        options = rules._legal_placements(state, seat)
        if not options:
            # nothing touches any more: any free spot off the other totems will do (it is hidden)
            task = rules.task_of(state, seat)
            taken = task.other_totems(state.totem)
            used = set()
            for text in state.villages[seat]:
                pl = placement_from_text(text)
                taken |= pl.mask
                used.add(pl.piece)
            options = [pl for pl in PLACEMENTS if pl.piece not in used and not pl.mask & taken]
        state.villages[seat].append(rng.choice(options).text)
    return list(state.villages[seat])
