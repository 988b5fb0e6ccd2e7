"""What one step of the Play menu costs the table: the busiest positions of seeded games, every
step of their menus planned as the bot plans it on a click.

    python bench/menus.py [--games pachakuna,guanga] [--positions 3] [--repeat 3]

For each game, takes the positions with the most legal moves from one seeded game played by
the computer (the menu tests' own, ``tests/table/test_menu_steps.busiest``), and walks every step of each one's menu (the whole menu, then every step a
choice opens), timing ``plan_menu`` in CPU time.  Prints per game: the positions, their moves,
the steps walked, and the median, p90 and largest CPU milliseconds of one step (the best of
``--repeat`` runs of each step).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import choices  # noqa: E402
from tests.table.test_menu_steps import NAMES, busiest, opened_by  # noqa: E402

GAMES = {"pachakuna": 2, "guanga": 2, "nowa_gwinea": 2, "tiwanaku": 2, "guacamole": 3}


def walk(m, state, seat, moves, *, repeat: int) -> list[float]:
    """CPU seconds of each step of one position's menu (the best of ``repeat``)."""
    found = choices.entries(m, state, seat, moves, NAMES)
    titles = lambda kind: choices.kind_label(m, kind)  # noqa: E731
    times: list[float] = []
    todo: list[tuple[str, ...] | None] = [None]
    seen: set[tuple[str, ...]] = set()
    while todo:
        step = todo.pop()
        best = float("inf")
        plans: list[choices.Control] = []
        for _ in range(repeat):
            start = time.process_time()
            plans = choices.plan_menu(m.KINDS, titles, found, opened=step)
            best = min(best, time.process_time() - start)
        times.append(best)
        for control in plans:
            for pick in control.picks:
                if pick.value.startswith("g:") and opened_by(pick.value) not in seen:
                    seen.add(opened_by(pick.value))
                    todo.append(opened_by(pick.value))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--positions", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(
        f"{'game':<12} {'positions':>9} {'moves':>6} {'steps':>6} {'median ms':>10} {'p90 ms':>7} {'most ms':>8}"
    )
    for game in args.games.split(","):
        positions = busiest(game, GAMES[game], 5, args.positions)
        times = [
            t for m, state, seat, moves in positions for t in walk(m, state, seat, moves, repeat=args.repeat)
        ]
        ms = sorted(t * 1000 for t in times)
        p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))]
        moves = sum(len(p[3]) for p in positions)
        print(
            f"{game:<12} {len(positions):>9} {moves:>6} {len(ms):>6} "
            f"{statistics.median(ms):>10.2f} {p90:>7.2f} {ms[-1]:>8.2f}"
        )


if __name__ == "__main__":
    main()
