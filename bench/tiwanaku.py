"""Tiwanaku benchmark: map generation, full games per second, render time and PNG size.

Run from the repository root: ``python bench/tiwanaku.py``.  Prints numbers only.
"""

from __future__ import annotations

import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import engines.tiwanaku as T  # noqa: E402
from engines.core import rng_for  # noqa: E402
from engines.tiwanaku import board  # noqa: E402
from engines.tiwanaku.rules import BoardSize  # noqa: E402
from renderers import tiwanaku as R  # noqa: E402


def generation(cols: int, seeds: range) -> list[float]:
    times = []
    for seed in seeds:
        t = time.perf_counter()
        board._generate.__wrapped__(seed, cols)
        times.append((time.perf_counter() - t) * 1000)
    return times


def play(config: T.Config, seed: int, computer: bool) -> tuple[T.State, int]:
    state = T.new_game(config, config.players, seed)
    rng = rng_for(seed, "bench")
    moves = 0
    while T.to_move(state) and moves < 5000:
        (seat,) = T.to_move(state)
        legal = T.legal_moves(state, seat)
        move = T.computer_move(T.view_for(state, seat), legal, rng) if computer else rng.choice(legal)
        state, _ = T.apply_move(state, seat, move)
        moves += 1
    return state, moves


def main() -> None:
    for cols, name in ((5, "5 x 5"), (9, "5 x 9")):
        times = generation(cols, range(5000, 5060))
        print(
            f"map generation {name}: median {statistics.median(times):.1f} ms, "
            f"p90 {sorted(times)[int(len(times) * 0.9)]:.1f} ms, max {max(times):.1f} ms"
        )
    for players, size in (
        (1, BoardSize.SHORT),
        (2, BoardSize.SHORT),
        (2, BoardSize.LONG),
        (3, BoardSize.LONG),
        (4, BoardSize.LONG),
    ):
        config = T.Config(players=players, board=size)
        seeds = range(40)
        for s in seeds:  # maps are cached per seed: time the games, not the generation
            board.generate(s, config.cols)
        for computer in (True, False):
            t = time.perf_counter()
            total = 0
            for s in seeds:
                total += play(config, s, computer)[1]
            dt = time.perf_counter() - t
            who = "computer players" if computer else "random legal moves"
            print(
                f"{players} players {size.value:5s} {who:18s}: {len(seeds) / dt:6.1f} games/s, "
                f"{total / len(seeds):6.1f} moves/game, {dt / total * 1000:.2f} ms/move"
            )
    for players in (2, 4):
        state, _ = play(T.Config(players=players), 3, True)
        views = [T.view_for(state, None), T.view_for(state, 0)]
        R.render(views[0])
        t = time.perf_counter()
        sizes = []
        for _ in range(10):
            for v in views:
                sizes.append(len(R.render(v, names=["Ana", "Bruno", "Carla", "Diego"])))
        dt = (time.perf_counter() - t) / (10 * len(views))
        print(
            f"render {players} players: {dt * 1000:.1f} ms per board, {statistics.mean(sizes) / 1024:.0f} KB"
        )


if __name__ == "__main__":
    main()
