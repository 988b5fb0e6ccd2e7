"""The queue that forms games, simulated: 10,000 people arriving over a day in one server, each
with seeded random wishes, matched by the queue's own matcher (:func:`bot.queue.match.form`)
after every arrival, as ``/queue join`` does.

    .venv/bin/python bench/queue_day.py [--people 10000] [--seed 1]

prints the median and 95th-percentile wait to a table, the share of people seated (the others'
maximum wait ran out), the tables formed per minute, and the time to match per arrival (the
matcher over the whole waiting queue; the bot adds one read of the queue and the writes of a
formed table).  Everyone confirms at once: the wait is from joining to the table being formed.

The wishes: a game (Guacamole 35 %, Tiwanaku 20 %, Guanga 15 %, Nowa Gwinea 15 %, P'achakuna 15 %),
a range of player counts within the game's (two or more), a pace (live 40 %, daily 30 %, either
30 %), up to two computer seats (none for 60 %), rated, unrated or either (60 % either), a maximum
wait of 1 to 12 hours, and for 10 % of people an avoid list of 1 to 5 earlier arrivals.
"""

from __future__ import annotations

import argparse
import random
import time
from statistics import median, quantiles

import engines
from bot.queue.match import ANY, Want, form

DAY = 86400.0
GAMES = [("guacamole", 35), ("tiwanaku", 20), ("guanga", 15), ("nowa_gwinea", 15), ("pachakuna", 15)]


def arrivals(people: int, seed: int) -> list[tuple[Want, float]]:
    """(wishes, when their wait ends) of each person, in the order they arrive."""
    rng = random.Random(seed)
    times = sorted(rng.uniform(0, DAY) for _ in range(people))
    names, weights = zip(*GAMES, strict=True)
    out = []
    for uid, at in enumerate(times, 1):
        game = rng.choices(names, weights)[0]
        info = engines.get(game)
        low = rng.randint(max(2, info.min_players), info.max_players)
        high = rng.randint(low, info.max_players)
        avoid = (
            frozenset(rng.sample(range(1, uid), min(uid - 1, rng.randint(1, 5))))
            if rng.random() < 0.1
            else frozenset()
        )
        want = Want(
            user_id=uid,
            game=game,
            counts=frozenset(range(low, high + 1)),
            pace=rng.choices(["live", "daily", ANY], [40, 30, 30])[0],
            computers=rng.choices([0, 1, 2], [60, 25, 15])[0],
            rated=rng.choices(["rated", "unrated", ANY], [25, 15, 60])[0],
            avoid=avoid,
            since=at,
            order=uid,
        )
        out.append((want, at + rng.randint(1, 12) * 3600.0))
    return out


def simulate(people: int, seed: int) -> dict[str, float]:
    waiting: dict[int, tuple[Want, float]] = {}
    waits: list[float] = []
    match_times: list[float] = []
    tables = 0
    longest_queue = 0
    for want, ends in arrivals(people, seed):
        now = want.since
        for uid in [u for u, (_, end) in waiting.items() if end <= now]:
            del waiting[uid]
        waiting[want.user_id] = (want, ends)
        longest_queue = max(longest_queue, len(waiting))
        start = time.perf_counter()
        formed = form([w for w, _ in waiting.values()])
        match_times.append(time.perf_counter() - start)
        for table in formed:
            tables += 1
            for w in table.people:
                waits.append(now - w.since)
                del waiting[w.user_id]
    p95_wait = quantiles(waits, n=20)[-1]
    p95_match = quantiles(match_times, n=20)[-1]
    return {
        "seated": len(waits) / people,
        "median_wait": median(waits),
        "p95_wait": p95_wait,
        "tables_per_minute": tables / (DAY / 60),
        "tables": tables,
        "median_match": median(match_times),
        "p95_match": p95_match,
        "max_match": max(match_times),
        "longest_queue": longest_queue,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    r = simulate(args.people, args.seed)
    print(
        f"{args.people:,} people over a day (seed {args.seed}); the longest queue held {r['longest_queue']}"
    )
    print(f"seated: {r['seated']:.1%} (the others' maximum wait ran out)")
    print(
        f"wait to a table: median {r['median_wait'] / 60:.1f} min, 95th percentile {r['p95_wait'] / 60:.1f} min"
    )
    print(f"tables formed: {r['tables']:,}, {r['tables_per_minute']:.2f} per minute")
    print(
        f"time to match per arrival: median {r['median_match'] * 1e3:.2f} ms,"
        f" 95th percentile {r['p95_match'] * 1e3:.2f} ms, longest {r['max_match'] * 1e3:.2f} ms"
    )


if __name__ == "__main__":
    main()
