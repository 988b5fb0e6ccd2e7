"""Fair pairing figures: simulated Swiss seasons paired by today's pairing and by the classic one.

    python bench/pairing.py            # every season below
    python bench/pairing.py --quick    # the small seasons only

Each season (8 to 1,000 players, 2 to 6 per table, 5 to 11 rounds) is played twice from the same
seed: once paired by :func:`bot.league.pairing.swiss_round` (FIDE Dutch for two, the weighted
table optimiser with seat balance for three to six) and once by
:func:`bot.league.pairing.classic_round` (the Swiss pairing leagues used before).  Results are
random places; each round every player misses it with a 5 % chance (a no-show: not paired, no
bye).  Printed per season and pairing:

- ``repeats``: pairs of players who met again (a table of four holding one such pair counts 1);
- ``seat spread``: for each player, the most games in one seat minus the fewest in another
  (0 is perfectly balanced), as the mean over players and the worst player;
- ``byes``: the most byes one player got, and how many players got two or more;
- ``ms/round``: the mean and the slowest time to pair a round.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.league.pairing import (  # noqa: E402
    GameResult,
    Round,
    bye_points,
    classic_round,
    met_pairs,
    standings,
    swiss_round,
)

NO_SHOW = 0.05
SEASONS = [  # players, per table, rounds
    (8, 2, 5),
    (12, 3, 6),
    (20, 4, 7),
    (30, 5, 8),
    (36, 6, 9),
    (65, 2, 9),
    (99, 3, 11),
    (250, 4, 7),
    (1000, 2, 5),
    (1000, 4, 5),
    (1000, 6, 5),
]
QUICK = 6  # the first seasons, with --quick


@dataclass
class Figures:
    repeats: int = 0
    seats: dict[str, Counter[int]] = field(default_factory=dict)
    byes: Counter[str] = field(default_factory=Counter)
    seconds: list[float] = field(default_factory=list)


def play(count: int, size: int, rounds: int, seed: int, pair: Callable[..., Round]) -> Figures:
    """One season; ``pair`` is swiss_round or classic_round."""
    rng = random.Random(seed)
    players = [f"p{i:04d}" for i in range(count)]
    ratings = {p: rng.gauss(1500, 200) for p in players}
    games: list[GameResult] = []
    byes: list[tuple[int, str]] = []
    out = Figures(seats={p: Counter() for p in players})
    for r in range(1, rounds + 1):
        present = [p for p in players if rng.random() >= NO_SHOW]
        if len(present) < size:
            continue
        rows = standings(players, games, byes=byes, bye_score=bye_points(size))
        extra = {"games": games, "byes": byes, "total_rounds": rounds} if pair is swiss_round else {}
        started = time.perf_counter()
        rnd = pair(
            present,
            size,
            points={x.player: x.points for x in rows},
            history=[g.seating for g in games],
            byes_had=Counter(p for _, p in byes),
            ratings=ratings,
            seed=seed * 1000 + r,
            **extra,
        )
        out.seconds.append(time.perf_counter() - started)
        met = met_pairs(g.seating for g in games)
        for g in rnd.groups:
            out.repeats += sum(1 for i, a in enumerate(g) for b in g[i + 1 :] if met[frozenset((a, b))])
            for pos, p in enumerate(g):
                out.seats[p][pos] += 1
            order = list(g)
            rng.shuffle(order)
            places = {p: i + 1 for i, p in enumerate(order)}
            games.append(GameResult(r, places, seats=tuple(g)))
        byes += [(r, b) for b in rnd.byes]
        out.byes.update(rnd.byes)
    return out


def spread(seats: Counter[int], size: int) -> int:
    return max(seats[s] for s in range(size)) - min(seats[s] for s in range(size))


def line(name: str, f: Figures, size: int) -> str:
    spreads = [spread(c, size) for c in f.seats.values() if sum(c.values())]
    most = max(f.byes.values(), default=0)
    twice = sum(1 for n in f.byes.values() if n >= 2)
    return (
        f"  {name:<8} repeats {f.repeats:4d}   seat spread mean {statistics.mean(spreads):4.2f} "
        f"worst {max(spreads):2d}   byes most {most} (2+: {twice:3d})   "
        f"ms/round mean {1000 * statistics.mean(f.seconds):8.1f} slowest {1000 * max(f.seconds):8.1f}"
    )


def main(argv: list[str]) -> int:
    seasons = SEASONS[:QUICK] if "--quick" in argv else SEASONS
    for count, size, rounds in seasons:
        print(f"{count} players, {size} per table, {rounds} rounds:")
        for name, pair in (("fair", swiss_round), ("classic", classic_round)):
            print(line(name, play(count, size, rounds, seed=count + size + rounds, pair=pair), size))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
