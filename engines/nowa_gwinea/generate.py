"""Generate the 32 double-sided task boards into ``tasks.json``.

Run ``python -m engines.nowa_gwinea.generate`` (add ``--jobs 2`` to use two
processes).  The output depends only on the fixed seed below, so running it
again rewrites the same file.

Side A (standard): the water holes lie in a 6x6 corner of the board; for every
one of the 6 totems the exact solver finds a village of at most 4 huts (so at
most 5, as the ruling asks).
Side B (hard): the water holes lie pairwise at least 5 squares apart, so no hut
covers two of them and every village needs at least 5 huts; the solver
(iterative deepening, exact) proves the minimum for every totem and a short
climb moves totems to make more tasks need 6 huts (the shipped data: 95 tasks
need 5 huts, 96 need 6, 1 needs 7; every board has at least one task of 6+).

Why not all six totems of a hard side need 6: a 5-hut village is one hut per
water hole, so it fails only if no hut covering the rolled totem and a water
hole fits into a corner-touching tree of five.  Searched exhaustively, every
one of the 7,056 water layouts 5 apart has such a tree for the water alone, and
almost every square is then reachable by one of its huts: a totem needs 6 huts
only if it lies 5 or more squares from every water hole (at most 5 squares on
any layout, and they lie together in one corner, where totems box each other
in) or the other totems block its huts, which tends to wall in a water hole or
the totem itself.  Hill climbs over tens of thousands of totem layouts (more than
an hour of CPU) found no side whose 6 tasks all need 6 huts and stay solvable;
the best had 5.  The engine keeps the ruling in play instead:
with ``hard_reroll`` the die is rolled again until it shows a totem whose
recorded task needs 6 huts or more (see ``rules._roll``).

Each task's witness is the smallest *connected* village the solver found (so
it can be built hut by hut, each touching one already built), listed in build
order.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor

from engines.core import rng_for

from .data import ANIMALS, BOARDS, DATA_FILE
from .geometry import SIZE, cell_name
from .solver import solve

SEED = "nowa-gwinea-boards-v1"
NODE_LIMIT = 200_000
CLIMB = 500


def _dist(a: int, b: int) -> int:
    return abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE)


def _fruit(rng, taken: set[int], water: list[int]) -> list[int]:
    # fruit bushes near the water, so that the caller's bonus is reachable
    free = [c for c in range(SIZE * SIZE) if c not in taken]
    free.sort(key=lambda c: (min(_dist(c, w) for w in water), rng.random()))
    near = free[:16]
    rng.shuffle(near)
    return near[:5]


def _witnesses(totems, water, lo, hi):
    out = []
    for i, t in enumerate(totems):
        others = [c for j, c in enumerate(totems) if j != i]
        try:
            village = solve(t, water, others, max_huts=hi, min_huts=lo, node_limit=NODE_LIMIT)
        except TimeoutError:
            return None
        if village is None:
            return None
        out.append(village)
    return out


def standard_side(board: int) -> dict:
    rng = rng_for(SEED, "A", board)
    attempt = 0
    while True:
        attempt += 1
        r0, c0 = rng.randint(0, 2), rng.randint(0, 2)
        window = [(r0 + r) * SIZE + c0 + c for r in range(6) for c in range(6)]
        water = rng.sample(window, 5)
        free = [c for c in range(SIZE * SIZE) if c not in water]
        totems = rng.sample(free, 6)
        villages = _witnesses(totems, water, 1, 4)
        if villages is None:
            continue
        sizes = [len(v) for v in villages]
        # keep the standard side worth a few huts: at least 3 on average
        if sum(sizes) < 18:
            continue
        fruit = _fruit(rng, set(water) | set(totems), water)
        return _side(totems, water, fruit, villages)


def _hard_task(totems, water, i):
    """The smallest village the solver finds for totem ``i`` (5 to 8 huts), or None."""
    t = totems[i]
    others = [c for j, c in enumerate(totems) if j != i]
    try:
        return solve(t, water, others, max_huts=8, min_huts=1, node_limit=NODE_LIMIT)
    except TimeoutError:
        return None


def _spread_water(rng) -> list[int]:
    while True:
        water: list[int] = []
        cells = list(range(SIZE * SIZE))
        rng.shuffle(cells)
        for c in cells:
            if all(_dist(c, w) >= 5 for w in water):
                water.append(c)
            if len(water) == 5:
                break
        if len(water) == 5:
            return water


def hard_side(board: int) -> dict:
    """Water holes pairwise at least 5 squares apart (so no hut covers two and
    every village needs at least 5 huts); then a short climb moving one totem
    (or water hole, keeping them 5 apart) at a time towards more tasks that
    need 6 huts or more."""
    rng = rng_for(SEED, "B", board)
    while True:
        water = _spread_water(rng)
        free = [c for c in range(SIZE * SIZE) if c not in water]
        totems = rng.sample(free, 6)
        villages = [_hard_task(totems, water, i) for i in range(6)]
        if any(v is None for v in villages):
            continue
        score = sum(len(v) for v in villages)
        for _step in range(CLIMB):
            taken = set(totems) | set(water)
            spot = rng.choice([c for c in range(SIZE * SIZE) if c not in taken])
            new_t, new_w = list(totems), list(water)
            if rng.random() < 0.75:
                new_t[rng.randrange(6)] = spot
            else:
                new_w[rng.randrange(5)] = spot
                if any(_dist(a, b) < 5 for i, a in enumerate(new_w) for b in new_w[i + 1 :]):
                    continue
            new_v = []
            for k in range(6):
                v = _hard_task(new_t, new_w, k)
                if v is None:
                    break
                new_v.append(v)
            if len(new_v) < 6:
                continue
            new_score = sum(len(v) for v in new_v)
            if new_score >= score:
                totems, water, villages, score = new_t, new_w, new_v, new_score
        fruit = _fruit(rng, set(water) | set(totems), water)
        return _side(totems, water, fruit, villages)


def build_order(village, rolled: int):
    """The huts in an order a player can build them: the totem hut first, then
    each hut touching one already built."""
    first = next(pl for pl in village if pl.mask >> rolled & 1)
    order = [first]
    rest = [pl for pl in village if pl is not first]
    while rest:
        nxt = next(pl for pl in rest if any(pl.mask & o.corner for o in order))
        order.append(nxt)
        rest.remove(nxt)
    return order


def _side(totems, water, fruit, villages) -> dict:
    return {
        "totems": [cell_name(c) for c in totems],
        "water": [cell_name(c) for c in water],
        "fruit": [cell_name(c) for c in fruit],
        "witnesses": [[pl.text for pl in build_order(v, totems[i])] for i, v in enumerate(villages)],
        "sizes": [len(v) for v in villages],
    }


def make_board(board: int) -> dict:
    return {"board": board, "A": standard_side(board), "B": hard_side(board)}


def generate(jobs: int = 1) -> dict:
    numbers = range(1, BOARDS + 1)
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            entries = list(pool.map(make_board, numbers))
    else:
        entries = []
        for n in numbers:
            entries.append(make_board(n))
            print(f"board {n} done", file=sys.stderr, flush=True)
    return {
        "schema": 1,
        "seed": SEED,
        "animals": list(ANIMALS),
        "note": "written by python -m engines.nowa_gwinea.generate; do not edit by hand",
        "boards": entries,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", default=str(DATA_FILE))
    args = parser.parse_args(argv)
    data = generate(args.jobs)
    with open(args.out, "w") as fh:
        json.dump(data, fh, indent=1)
        fh.write("\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
