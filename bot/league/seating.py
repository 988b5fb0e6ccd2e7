"""Tables of two to six inside score groups, by an optimiser with weighted rules, and fair seats.

Multiplayer organisers do not pair by a Swiss system written for two; they score a seating by
weighted rules and keep the best they find.  krcg's seating for V:TES tables of four and five is
the model: nine rules weighted by powers of ten so that a major rule always prevails over all
the minor ones together (among them: no pair sharing a table more often than necessary, nobody
in the same seat twice when it can be avoided).  Here the rules, heaviest first:

1. **Forbidden pairs** (players who must not meet) never sit at one table while a seating
   without it exists: weight :attr:`Weights.forbidden` per pair.
2. **No repeat opponents**: weight :attr:`Weights.repeat` per earlier meeting of two players now
   at one table.
3. **Score groups**: tables are filled from the standings down, so players meet others of their
   score; weight :attr:`Weights.spread` per league point between the best and the worst player
   of a table.
4. **Seat positions balanced over the season**: inside each table the seats are given so that
   each player sits where they have sat least (weight :attr:`Weights.seat` per earlier game in
   that seat; a forfeit never played sat nobody), and not in the seat they had last time
   (:attr:`Weights.same_seat`); among equally good seatings a seeded draw decides.
5. **Fewest repeated byes**: when the field does not divide, the byes go to those with the
   fewest byes so far, then the fewest points, then the lowest standing.

The search: a depth-first search for tables without any forbidden pair or repeat meeting,
nearest players by standing first (the Swiss search of :mod:`bot.league.pairing`); past its
budget, a greedy seating improved by swaps.  Either is then improved by swapping players between
nearby tables while a swap lowers the weighted cost, and the seats are given last.  Everything is
deterministic for a given ``seed``.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from bot.league.rounds import greedy_groups, improve, search_groups

WINDOW = 4  # tables tried against each table in the swap passes (nearest by standing)
PASSES = 6


@dataclass(frozen=True)
class Weights:
    """The weighted rules (see the module docstring)."""

    forbidden: float = 1_000_000.0
    repeat: float = 1_000.0
    spread: float = 10.0
    seat: float = 1.0
    same_seat: float = 0.5


WEIGHTS = Weights()


def seat_counts(seatings: Sequence[Sequence[str]]) -> dict[str, list[int]]:
    """Each player's seats (0 is the first player) over ``seatings``, in order."""
    seats: dict[str, list[int]] = {}
    for group in seatings:
        for pos, pid in enumerate(group):
            seats.setdefault(pid, []).append(pos)
    return seats


def table_cost(
    group: Sequence[str],
    met: Counter[frozenset[str]],
    forbidden: Collection[frozenset[str]],
    points: Mapping[str, float],
    weights: Weights = WEIGHTS,
) -> float:
    """A table's weight by rules 1-3 (seats are given afterwards)."""
    cost = 0.0
    for a, b in itertools.combinations(group, 2):
        pair = frozenset((a, b))
        if pair in forbidden:
            cost += weights.forbidden
        cost += weights.repeat * met[pair]
    scores = [points.get(p, 0.0) for p in group]
    return cost + weights.spread * (max(scores) - min(scores))


def improve_tables(
    groups: list[list[str]],
    met: Counter[frozenset[str]],
    forbidden: Collection[frozenset[str]],
    points: Mapping[str, float],
    weights: Weights = WEIGHTS,
) -> list[list[str]]:
    """Swap players between tables near in standing while a swap lowers the weighted cost."""
    costs = [table_cost(g, met, forbidden, points, weights) for g in groups]
    for _ in range(PASSES):
        better = False
        for gi in range(len(groups)):
            for hi in range(gi + 1, min(len(groups), gi + 1 + WINDOW)):
                if costs[gi] + costs[hi] == 0:
                    continue  # nothing to gain
                better |= swap_players(groups, costs, gi, hi, met, forbidden, points, weights)
        if not better:
            break
    return groups


def far_repeats(
    groups: list[list[str]],
    met: Counter[frozenset[str]],
    forbidden: Collection[frozenset[str]],
    points: Mapping[str, float],
    weights: Weights = WEIGHTS,
) -> list[list[str]]:
    """Tables still holding a forbidden pair or a repeat meeting try a swap with every table (not
    only the near ones): such a table is rare, and rules 1-2 outweigh the score groups."""
    costs = [table_cost(g, met, forbidden, points, weights) for g in groups]
    for gi in range(len(groups)):
        if costs[gi] < weights.repeat:
            continue
        for hi in range(len(groups)):
            if hi == gi or costs[gi] < weights.repeat:
                continue
            swap_players(groups, costs, gi, hi, met, forbidden, points, weights)
    return groups


def swap_players(
    groups: list[list[str]],
    costs: list[float],
    gi: int,
    hi: int,
    met: Counter[frozenset[str]],
    forbidden: Collection[frozenset[str]],
    points: Mapping[str, float],
    weights: Weights,
) -> bool:
    """Swap players between tables ``gi`` and ``hi`` while a swap lowers their summed cost
    (``groups`` and ``costs`` are updated in place); True if any swap was made."""
    g, h = groups[gi], groups[hi]
    improved = False
    for i, j in itertools.product(range(len(g)), range(len(h))):
        ng = [*g[:i], h[j], *g[i + 1 :]]
        nh = [*h[:j], g[i], *h[j + 1 :]]
        cg = table_cost(ng, met, forbidden, points, weights)
        ch = table_cost(nh, met, forbidden, points, weights)
        if cg + ch < costs[gi] + costs[hi] - 1e-9:
            groups[gi], groups[hi], costs[gi], costs[hi] = ng, nh, cg, ch
            g, h = ng, nh
            improved = True
    return improved


def give_seats(
    group: Sequence[str],
    seats: Mapping[str, Sequence[int]],
    rng: random.Random,
    weights: Weights = WEIGHTS,
) -> tuple[str, ...]:
    """``group`` in seat order: each player where they have sat least, not where they sat last;
    a seeded draw among the equally good orders."""
    counts = {p: Counter(seats.get(p, ())) for p in group}
    last = {p: seats[p][-1] for p in group if seats.get(p)}

    size = len(group)
    each = {
        p: [
            weights.seat * counts[p][s] + (weights.same_seat if last.get(p) == s else 0.0)
            for s in range(size)
        ]
        for p in group
    }

    def cost(order: Sequence[str]) -> float:
        return sum(each[p][s] for s, p in enumerate(order))

    costs = [(cost(o), o) for o in itertools.permutations(group)]
    best = min(c for c, _ in costs)
    return rng.choice([o for c, o in costs if c <= best + 1e-9])


def tables(
    playing: Sequence[str],
    size: int,
    *,
    points: Mapping[str, float],
    met: Counter[frozenset[str]],
    forbidden: Collection[frozenset[str]],
    seats: Mapping[str, Sequence[int]],
    seed: int,
    budget: int,
    weights: Weights = WEIGHTS,
    sizes: Sequence[int] | None = None,
) -> list[tuple[str, ...]]:
    """``playing`` (best first, a multiple of ``size``, or as many as ``sizes`` adds up to: the
    tables' sizes, the larger first) at tables, each in seat order."""
    blocked = Counter(met)
    for pair in forbidden:
        blocked[pair] += 1
    found = search_groups(playing, size, blocked, budget, sizes)
    if found is not None:
        groups = [list(g) for g in found]
    else:
        heavy = Counter(met)
        for pair in forbidden:
            heavy[pair] += int(weights.forbidden / weights.repeat)
        groups = improve(greedy_groups(playing, size, heavy, sizes), heavy)
    groups = improve_tables(groups, met, forbidden, points, weights)
    groups = far_repeats(groups, met, forbidden, points, weights)
    rng = random.Random(seed)
    return [give_seats(g, seats, rng, weights) for g in groups]


def lobby_seats(paired: Sequence[int], lobby: Sequence[tuple[int, int | None]]) -> dict[int, int]:
    """The game seat of each seat of a paired table's lobby (``lobby``: each seat's join order and
    person, None for a computer): a person sits where the pairing put them, and the computers
    standing in for players dropped since the pairing (seated after the people in the lobby) take
    those players' seats, in order, so that nobody else's seat moves."""
    ordered = sorted(lobby)
    people = {u for _, u in ordered if u is not None}
    free = iter(i for i, u in enumerate(paired) if u not in people)
    return {
        order: paired.index(u) if u is not None and u in paired else next(free, len(paired))
        for order, u in ordered
    }
