"""Guanga benchmark: full games per second (computer players, random legal moves) and render time.

Run as ``python bench/guanga.py``.  Prints numbers only.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines import guanga as G  # noqa: E402
from engines.guanga.rules import Mode  # noqa: E402
from renderers.guanga import render  # noqa: E402

MODES = ("beginner", "apprentice", "master", "artisan")


def play(mode: str, players: int, seed: int, computer: bool):
    s = G.new_game(G.Config(players=players, mode=Mode(mode)), players, seed)
    rng = random.Random(seed)
    states = [s]
    while not s.finished:
        seat = min(G.to_move(s))
        legal = G.legal_moves(s, seat)
        move = G.computer_move(G.view_for(s, seat), legal, rng) if computer else rng.choice(legal)
        s, _ = G.apply_move(s, seat, move)
        states.append(s)
    return states


def main() -> None:
    for computer in (True, False):
        label = "computer players" if computer else "random legal moves"
        for mode in MODES:
            games = 0
            moves = 0
            start = time.perf_counter()
            seed = 0
            while time.perf_counter() - start < 2.0:
                states = play(mode, seed % 4 + 1, seed, computer)
                games += 1
                moves += len(states) - 1
                seed += 1
            dt = time.perf_counter() - start
            print(f"{label:20s} {mode:10s} {games / dt:7.1f} games/s  {moves / dt:8.0f} moves/s")
    states = play("apprentice", 4, 7, True)
    picks = [states[len(states) * k // 6] for k in range(6)]
    times = []
    sizes = []
    for s in picks:
        for seat in (None, 0):
            view = G.view_for(s, seat)
            t = time.perf_counter()
            png = render(view, names=["Ana", "Beto", "Cusi", "Dora"])
            times.append(time.perf_counter() - t)
            sizes.append(len(png))
    print(
        f"render (4 players): {1000 * sum(times) / len(times):.1f} ms/board, "
        f"{sum(sizes) / len(sizes) / 1024:.0f} KB per PNG"
    )
    for phase in ("place1", "claim"):
        s = next(x for x in states[20:] if x.phase == phase)
        view = G.view_for(s, s.turn)
        legal = G.legal_moves(s, s.turn)
        t = time.perf_counter()
        for k in range(50):
            G.computer_move(view, legal, random.Random(k))
        print(
            f"computer_move ({phase}, {len(legal)} legal moves): "
            f"{1000 * (time.perf_counter() - t) / 50:.2f} ms per call"
        )


if __name__ == "__main__":
    main()
