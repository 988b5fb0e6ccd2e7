"""The animated summary of a finished game: frames, time to make it, and its size.

    python bench/summary.py [--seeds 3]

For each title, plays games to the end with the computer player in every seat
(the most seats the game takes, seeds 1..``--seeds``), keeps the longest, and
times :func:`bot.results.frames` (rendering the public board after every turn)
and :func:`renderers.animation.animate` (the GIF), printing the frame count,
seconds and megabytes against Discord's 8 MB upload limit.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engines  # noqa: E402
from bench.history import TITLES, whole_game  # noqa: E402
from bot import results  # noqa: E402
from renderers import animation  # noqa: E402


class Log(SimpleNamespace):
    pass


def main(seeds: int) -> None:
    print(
        f"{'game':12} {'moves':>5} {'frames':>6} {'render s':>8} {'gif s':>6} {'MB':>5}  of {animation.LIMIT / 2**20:.0f} MB"
    )
    for game in TITLES:
        info = engines.get(game)
        played, final, seed = max(
            (whole_game(game, info.max_players, s) + (s,) for s in range(1, seeds + 1)),
            key=lambda g: len(g[0]),
        )
        session = SimpleNamespace(
            info=info,
            engine=info.load(),
            seats=[SimpleNamespace(seat=i) for i in range(info.max_players)],
            row=SimpleNamespace(options={}, seed=seed),
            names=lambda n=info.max_players: [f"P{i + 1}" for i in range(n)],
        )
        rows = [Log(number=i + 1, seat=p.seat, move=p.move) for i, p in enumerate(played)]
        t = time.perf_counter()
        frames = results.frames(session, rows)
        rendered = time.perf_counter() - t
        t = time.perf_counter()
        gif = animation.animate(frames)
        made = time.perf_counter() - t
        print(
            f"{game:12} {len(rows):>5} {len(frames):>6} {rendered:8.2f} {made:6.2f} {len(gif) / 2**20:5.2f}"
        )
        sys.stdout.flush()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=3)
    main(parser.parse_args().seeds)
