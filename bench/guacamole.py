"""Guacamole benchmark: full games per second and milliseconds per rendered board.

Run: python bench/guacamole.py
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engines.guacamole as g  # noqa: E402
from renderers.guacamole import render  # noqa: E402


def play(players: int, seed: int, computer: bool):
    state = g.new_game(g.Config(players=players), players, seed)
    rng = random.Random(seed)
    states = []
    while not state.over:
        seat = state.turn
        legal = g.legal_moves(state, seat)
        move = g.computer_move(g.view_for(state, seat), legal, rng) if computer else rng.choice(legal)
        state, _ = g.apply_move(state, seat, move)
        states.append(state)
    return state, states


def games_per_second(computer: bool, games: int = 60) -> tuple[float, float]:
    start, cpu = time.perf_counter(), time.process_time()
    for seed in range(games):
        play(2 + seed % 5, seed, computer)
    return games / (time.perf_counter() - start), games / (time.process_time() - cpu)


def main() -> None:
    for label, computer in (("computer players", True), ("random legal moves", False)):
        wall, per_cpu = games_per_second(computer)
        print(f"games/s, {label}: {wall:.1f} wall clock, {per_cpu:.1f} per CPU second")
    wins = 0
    for seed in range(40):
        rng = random.Random(seed)
        s = g.new_game(g.Config(players=2), 2, seed)
        while not s.over:
            seat = s.turn
            legal = g.legal_moves(s, seat)
            m = g.computer_move(g.view_for(s, seat), legal, rng) if seat == seed % 2 else rng.choice(legal)
            s, _ = g.apply_move(s, seat, m)
        result = g.outcome(s)
        wins += result is not None and (seed % 2) in result.winners
    print(f"computer vs random (2 players): won {wins}/40")
    for players in (2, 4, 6):
        _, states = play(players, 99, True)
        sample = states[:: max(1, len(states) // 20)]
        times: list[float] = []
        cpu: list[float] = []
        sizes: list[float] = []
        for st in sample:
            for who in (None, 0):
                t, c = time.perf_counter(), time.process_time()
                png = render(g.view_for(st, who))
                times.append((time.perf_counter() - t) * 1000)
                cpu.append((time.process_time() - c) * 1000)
                sizes.append(len(png) / 1024)
        print(
            f"render, {players} players: {sum(times) / len(times):.0f} ms/board wall "
            f"({sum(cpu) / len(cpu):.0f} ms CPU, max {max(times):.0f} wall), {sum(sizes) / len(sizes):.0f} KB average"
        )


if __name__ == "__main__":
    main()
