"""Nowa Gwinea benchmark: full games per second and milliseconds per rendered board.

Run ``python bench/nowa_gwinea.py``.  Prints numbers only.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engines.nowa_gwinea as ng  # noqa: E402
from engines.nowa_gwinea.data import board_side  # noqa: E402
from engines.nowa_gwinea.solver import solve  # noqa: E402
from renderers import nowa_gwinea as R  # noqa: E402


def game(seed: int, players: int, smart: bool, **options) -> ng.State:
    rng = random.Random(seed)
    s = ng.new_game(ng.Config(players=players, **options), players, seed)
    moves = [0] * players
    while not s.over:
        seat = rng.choice(sorted(ng.to_move(s)))
        legal = ng.legal_moves(s, seat)
        if smart:
            move = ng.computer_move(ng.view_for(s, seat), legal, rng)
        else:
            moves[seat] += 1
            move = ng.Done() if moves[seat] % 15 == 0 or rng.random() < 0.08 else rng.choice(legal)
        s, _ = ng.apply_move(s, seat, move)
    return s


def rate(label: str, smart: bool, n: int = 40, **options) -> None:
    start = time.perf_counter()
    for seed in range(n):
        game(seed, 1 + seed % 4, smart, **options)
    took = time.perf_counter() - start
    print(f"{label:<42} {n / took:7.1f} games/s")


def main() -> None:
    rate("computer players, standard, shared board", True)
    rate("computer players, hard, one board each", True, side=ng.Side.HARD, boards=ng.Deal.EACH)
    rate("random legal moves, standard", False)
    s = ng.new_game(ng.Config(players=3), 3, 5)
    rng = random.Random(1)
    for _ in range(12):
        for seat in sorted(ng.to_move(s)):
            s, _ = ng.apply_move(
                s, seat, ng.computer_move(ng.view_for(s, seat), ng.legal_moves(s, seat), rng)
            )
    for label, who in (("spectator", None), ("seat 0", 0)):
        view = ng.view_for(s, who)
        png = R.render(view)
        start = time.perf_counter()
        for _ in range(10):
            png = R.render(view)
        ms = (time.perf_counter() - start) * 100
        print(f"render {label:<35} {ms:7.1f} ms   {len(png) / 1024:.0f} KB")
    png = R.render_huts()
    print(f"render_huts (cached after the first call)  {len(png) / 1024:.0f} KB")
    start = time.perf_counter()
    count = 0
    for b in (1, 7, 13, 19, 25, 31):
        for side in "AB":
            t = board_side(b, side)
            for k in range(6):
                others = [c for i, c in enumerate(t.totems) if i != k]
                solve(t.totems[k], list(t.water), others, max_huts=8)
                count += 1
    print(
        f"solver, smallest village per task          {(time.perf_counter() - start) * 1000 / count:7.1f} ms/task"
    )


if __name__ == "__main__":
    main()
