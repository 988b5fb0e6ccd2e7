"""League pairing figures: a Swiss round of 1,000 players in 4-player groups, and a whole season.

    python bench/league.py

Prints the time to pair each of five Swiss rounds of 1,000 players into 4-player groups (with
the repeat meetings each round could not avoid), then plays simulated Swiss seasons of 64 and 65
players (the odd field gets a bye each round) in 2-player games with seeded random results and
checks their totals: every round seats everyone once, the points handed out equal what the games
and byes are worth, and the games counted equal the games played.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.league.pairing import bye_points, place_points, repeats  # noqa: E402
from tests.league.sim import simulate  # noqa: E402


def show(season) -> None:
    seen: list[tuple[str, ...]] = []
    for r, (rnd, took) in enumerate(zip(season.rounds, season.pairing_seconds, strict=True), 1):
        print(f"  round {r}: paired in {took * 1000:.1f} ms, {repeats(rnd.groups, seen)} repeat meetings")
        seen += rnd.groups


def main() -> int:
    print("Swiss, 1,000 players in 4-player groups:")
    show(simulate([f"p{i}" for i in range(1000)], 4, 5, seed=1))
    ok = True
    for count in (64, 65):
        print(f"Swiss season, {count} players in 2-player games, 6 rounds:")
        season = simulate([f"p{i}" for i in range(count)], 2, 6, seed=2)
        show(season)
        rows = season.table()
        handed = sum(r.points for r in rows)
        worth = len(season.results) * sum(place_points(2)) + len(season.byes) * bye_points(2)
        games = sum(r.games for r in rows)
        seated = all(sorted(r.players) == sorted(season.players) for r in season.rounds)
        print(
            f"  points handed out {handed:g}, worth {worth:g}; games counted {games}, played {2 * len(season.results)}"
        )
        print(f"  byes: {len(season.byes)} to {len({p for _, p in season.byes})} different players")
        good = seated and handed == worth and games == 2 * len(season.results)
        print("  totals correct" if good else "  WRONG totals")
        ok = ok and good
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
