"""Benchmark for P'achakuna: full games per second and board rendering time.

Run as ``python bench/pachakuna.py``; prints numbers only.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines import pachakuna as P  # noqa: E402
from renderers import pachakuna as R  # noqa: E402


def game(seed: int, computer: bool, max_turns: int) -> tuple[P.State, int]:
    s = P.new_game(P.Config(board=P.Board.A, max_turns=max_turns), 2, seed)
    rng = random.Random(seed)
    n = 0
    while P.outcome(s) is None:
        legal = P.legal_moves(s, s.turn)
        if computer:
            move = P.computer_move(P.view_for(s, s.turn), legal, rng)
        else:
            move = rng.choice(legal)
        s, _ = P.apply_move(s, s.turn, move)
        n += 1
    return s, n


def bench_games(computer: bool, count: int, max_turns: int) -> None:
    t = time.perf_counter()
    moves = 0
    states = []
    for seed in range(count):
        s, n = game(seed, computer, max_turns)
        moves += n
        states.append(s)
    dt = time.perf_counter() - t
    label = "computer players" if computer else "random legal moves"
    limit = f"to the win (limit {max_turns} turns)" if max_turns > 60 else f"{max_turns}-turn games"
    won = sum(1 for s in states if s.winner is not None)
    print(
        f"{label:20s} {limit:32s} {count / dt:7.2f} games/s  {moves / dt:8.0f} moves/s  "
        f"({moves / count:.0f} moves/game, {won}/{count} won)"
    )


def bench_render(count: int = 20) -> None:
    s, _ = game(3, True, 200)
    views = [P.view_for(s, None), P.view_for(s, 0)]
    R.render(views[0])  # warm the static art
    t = time.perf_counter()
    size = 0
    for i in range(count):
        size = len(R.render(views[i % 2], names=["Ana", "Bob"]))
    dt = (time.perf_counter() - t) / count
    print(f"render: {dt * 1000:.1f} ms per board, {size / 1024:.0f} KB PNG")


if __name__ == "__main__":
    bench_games(True, 20, 200)
    bench_games(False, 20, 200)
    bench_games(True, 40, 10)
    bench_games(False, 40, 10)
    bench_render()
