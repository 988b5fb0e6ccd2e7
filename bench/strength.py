"""How strong are the computer levels?  Tournaments between easy, normal and strong.

Run: python bench/strength.py [--games 200] [--seconds 0.1] [--workers 2] [--only guacamole,...]

* Two players (Guacamole, Guanga, Tiwanaku, P'achakuna, Nowa Gwinea): strong against
  normal and normal against easy, seats swapped every game; the first level's win rate
  (a shared win counts half) with its 95 % Wilson interval.
* ``--pairings sharp-normal`` (P'achakuna): the sharp heuristic the strong player starts
  from, against normal, in cheap duels (no search).
* Three players: one seat of each level, seats rotated through all six orders; the
  average place of each level (1 = first).
* Nowa Gwinea tasks: on every task of both sides, whether the strong player's village
  has the smallest size the solver finds, and the huts each level builds before it can
  call Gwinea, building alone.
* Solo: the average score of each level over the seeds (Guanga also its rank).

The strong level thinks ``--seconds`` per move (1 s at the table); the bench uses less
to finish in reasonable time and prints the figure used.  Every game is seeded: the
same command prints the same figures.  With ``--clock`` the strong level searches by
the clock until ``--seconds`` after it was asked, as at the table: the figures then
depend on the machine's speed and load (print the counts beside them).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engines  # noqa: E402
from bot.computers import Clock  # noqa: E402
from engines.core import LEVELS, config_from_options, rng_for  # noqa: E402

TWO_PLAYER = ("guacamole", "guanga", "tiwanaku", "pachakuna", "nowa_gwinea")
THREE_PLAYER = ("guacamole", "guanga", "tiwanaku", "nowa_gwinea")
SOLO = ("guanga", "tiwanaku", "nowa_gwinea")
NG_SECONDS = 1.0
"""Nowa Gwinea's strong level plans once per round (the solver), so the bench affords the table's time."""
ORDERS = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))


EXTRA_PLAYERS = ("sharp",)
"""Players that are not table levels but may sit in a duel: a game's ``ai.<name>_move`` (P'achakuna's
sharp heuristic, the default move of its strong player), for the games whose ``ai`` has one."""


def extra_player(game: str, name: str):
    """The ``ai.<name>_move`` function of ``game``, or None when the game has no such player."""
    ai = __import__(f"engines.{game}.ai", fromlist=["ai"])
    return getattr(ai, f"{name}_move", None)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion (wins may include halves)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


BY_CLOCK = False
"""Whether the strong level searches by the clock (``--clock``; set in each worker process)."""


def by_clock(on: bool) -> None:
    global BY_CLOCK
    BY_CLOCK = on


def play(game: str, levels: tuple[str, ...], seed: int, seconds: float, options: dict | None = None):
    """One game; returns (outcome, seconds spent per level, moves per level)."""
    module = engines.get(game).load()
    n = len(levels)
    config = config_from_options(module.Config, n, options or {})
    state = module.new_game(config, n, seed)
    made = [0] * n
    spent: dict[str, float] = {}
    count: Counter[str] = Counter()
    number = 0
    while module.outcome(state) is None:
        acting = sorted(module.to_move(state))
        # players acting at once keep the same pace: one move each in turn
        seat = min(acting, key=lambda s: (made[s], s))
        legal = list(module.legal_moves(state, seat))
        rng = rng_for(seed, "bench", number)
        start = time.process_time()
        if levels[seat] in EXTRA_PLAYERS:
            move = extra_player(game, levels[seat])(module.view_for(state, seat), legal, rng)
        else:
            view = module.view_for(state, seat)
            if BY_CLOCK and levels[seat] == "strong":
                deadline = Clock(time.monotonic() + seconds)
                move = module.computer_move(view, legal, rng, levels[seat], seconds, deadline=deadline)
            else:
                move = module.computer_move(view, legal, rng, levels[seat], seconds)
        spent[levels[seat]] = spent.get(levels[seat], 0.0) + time.process_time() - start
        count[levels[seat]] += 1
        state, _ = module.apply_move(state, seat, move)
        made[seat] += 1
        number += 1
    return module.outcome(state), spent, count


def duel(args: tuple) -> tuple:
    game, a, b, seed, seconds = args
    if game == "nowa_gwinea":
        seconds = NG_SECONDS
    levels = (a, b) if seed % 2 == 0 else (b, a)
    result, spent, count = play(game, levels, seed, seconds)
    seat_a = levels.index(a)
    place = result.place_of(seat_a)
    other = result.place_of(1 - seat_a)
    score = 1.0 if place < other else 0.5 if place == other else 0.0
    return score, spent, count


def trio(args: tuple) -> tuple:
    game, seed, seconds = args
    if game == "nowa_gwinea":
        seconds = NG_SECONDS
    order = ORDERS[seed % 6]
    levels = tuple(LEVELS[i] for i in order)
    result, spent, count = play(game, levels, seed, seconds)
    return {levels[s]: result.place_of(s) for s in range(3)}, spent, count


def solo(args: tuple) -> tuple:
    game, level, seed, seconds = args
    if game == "nowa_gwinea":
        seconds = NG_SECONDS
    result, spent, count = play(game, (level,), seed, seconds)
    return result.scores[0], result.details.get("rank"), spent, count


def task_run(args: tuple) -> tuple:
    """Build on one Nowa Gwinea task until the village can call (the other seat waits); returns (huts, moves)."""
    board, side, totem, level, seconds = args
    from engines.nowa_gwinea import ai as nai
    from engines.nowa_gwinea import rules as R

    # two seats, so that the strong player races (alone it would spend huts on fruit); only seat 0 builds
    config = R.Config(players=2, side=R.Side.HARD if side == "B" else R.Side.STANDARD, hard_reroll=False)
    state = R.new_game(config, 2, 1)
    state.boards = [board, board]
    state.totem = totem
    moves = 0
    while moves < 60:
        legal = R.legal_moves(state, 0)
        if any(isinstance(m, R.Gwinea) for m in legal):
            return len(state.villages[0]), moves
        move = nai.computer_move(
            R.view_for(state, 0), legal, rng_for(board, side, totem, moves), level, seconds
        )
        if isinstance(move, R.Done):
            return None, moves
        state, _ = R.apply_move(state, 0, move)
        moves += 1
    return None, moves


def calibrate(game: str) -> tuple[int, float, int]:
    """Searches at positions of seeded 2-player games: (searches, CPU seconds, playouts)."""
    import random

    from engines import search

    module = engines.get(game).load()
    ai = __import__(f"engines.{game}.ai", fromlist=["ai"])
    played = [0]
    real = search.playout

    def counted(*args, **kwargs):
        played[0] += 1
        return real(*args, **kwargs)

    search.playout = counted
    searches, spent = 0, 0.0
    for seed in range(3):
        state = module.new_game(module.Config(players=2), 2, seed)
        k = 0
        while module.outcome(state) is None:
            seat = min(module.to_move(state))
            view = module.view_for(state, seat)
            legal = list(module.legal_moves(state, seat))
            if seat == 0 and k % 3 == 0 and len(ai.candidates(view, legal, random.Random(1))) > 1:
                start = time.process_time()
                ai.strong_move(view, legal, rng_for(seed, k), 0.2)
                spent += time.process_time() - start
                searches += 1
            move = module.computer_move(view, legal, rng_for(seed, "x", k))
            state, _ = module.apply_move(state, seat, move)
            k += 1
    search.playout = real
    return searches, spent, played[0]


def timing(parts) -> str:
    spent: Counter[str] = Counter()
    count: Counter[str] = Counter()
    for s, c in parts:
        spent.update(s)
        count.update(c)
    return ", ".join(
        f"{lv} {1000 * spent[lv] / count[lv]:.1f} ms/move" for lv in (*LEVELS, *EXTRA_PLAYERS) if count[lv]
    )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games per pairing (and seeds for solo)")
    ap.add_argument(
        "--strong-games", type=int, default=None, help="games (or seeds) for anything the strong level plays"
    )
    ap.add_argument(
        "--limit", action="append", default=[], metavar="GAME=N", help="at most N strong games for GAME"
    )
    ap.add_argument("--seconds", type=float, default=0.1, help="the strong level's thinking time per move")
    ap.add_argument(
        "--clock", action="store_true", help="the strong level searches by the clock, as at the table"
    )
    ap.add_argument("--workers", type=int, default=2, help="processes (at most 2 on a shared machine)")
    ap.add_argument("--only", default="", help="comma-separated games to run (default: all)")
    ap.add_argument(
        "--pairings",
        default="strong-normal,normal-easy",
        help="which two-player pairings the duel table plays (first level's win rate)",
    )
    ap.add_argument(
        "--first-seed",
        type=int,
        default=0,
        help="the first game seed (runs with different first seeds add up to a larger sample)",
    )
    ap.add_argument(
        "--progress",
        type=int,
        default=0,
        metavar="N",
        help="print the duel's running win rate every N games (for long runs that may be stopped)",
    )
    ap.add_argument(
        "--parts",
        default="duel,trio,tasks,solo",
        help="which tables to print: duel, trio, tasks, solo, and calibrate (playouts per CPU second)",
    )
    ap.add_argument(
        "--levels",
        default="strong,normal,easy",
        help="which levels the tasks and solo tables play (default: all three)",
    )
    args = ap.parse_args(argv)
    levels = [lv for lv in ("strong", "normal", "easy") if lv in args.levels.split(",")]
    if not levels or set(args.levels.split(",")) - set(levels):
        ap.error(f"--levels takes strong, normal and easy separated by commas, not {args.levels!r}")
    only = set(filter(None, args.only.split(",")))
    parts = set(args.parts.split(","))
    n, sec = args.games, args.seconds
    limits = {k: int(v) for k, v in (item.split("=") for item in args.limit)}
    pairings = [tuple(p.split("-")) for p in args.pairings.split(",") if p]
    for pair in pairings:
        if len(pair) != 2 or not set(pair) <= {*LEVELS, *EXTRA_PLAYERS}:
            ap.error(
                f"--pairings takes LEVEL-LEVEL items such as strong-normal (levels easy, normal, strong, "
                f"and {', '.join(EXTRA_PLAYERS)} where a game has it), not {'-'.join(pair)!r}"
            )

    def count(game: str, strong: bool) -> int:
        if not strong:
            return int(n)
        return int(min(args.strong_games or n, limits.get(game, n)))

    begin = time.perf_counter()
    print(
        f"strong level: {sec:g} s of thinking per move (the table uses 1 s; Nowa Gwinea {NG_SECONDS:g} s); "
        f"{args.workers} worker(s); {'by the clock' if args.clock else 'by count'}"
    )
    with multiprocessing.Pool(args.workers, initializer=by_clock, initargs=(args.clock,)) as pool:
        if "calibrate" in parts:
            print("\nCalibration: strong searches of 0.2 s at positions of 2-player games")
            for game in ("guacamole", "guanga", "tiwanaku", "pachakuna"):
                if only and game not in only:
                    continue
                searches, spent, played = pool.apply(calibrate, (game,))
                constant = __import__(f"engines.{game}.ai", fromlist=["ai"]).SIMULATIONS_PER_SECOND
                print(
                    f"{game:<12} {searches} searches, {1000 * spent / searches:.0f} ms CPU each, "
                    f"{played / spent:.0f} playouts per CPU second (SIMULATIONS_PER_SECOND = {constant})",
                    flush=True,
                )
        if "duel" in parts:
            print("\nTwo players, seats swapped each game")
            print(
                f"{'game':<12} {'pairing':<17} {'games':>5} {'win rate':>8}  {'95% interval':<15} time per move"
            )
            for game in TWO_PLAYER:
                if only and game not in only:
                    continue
                for a, b in pairings:
                    if any(p in EXTRA_PLAYERS and extra_player(game, p) is None for p in (a, b)):
                        continue
                    t = time.perf_counter()
                    g = count(game, "strong" in (a, b))
                    rows = []
                    for row in pool.imap(
                        duel,
                        [(game, a, b, seed, sec) for seed in range(args.first_seed, args.first_seed + g)],
                    ):
                        rows.append(row)
                        if args.progress and len(rows) % args.progress == 0 and len(rows) < g:
                            w = sum(r[0] for r in rows)
                            lo, hi = wilson(w, len(rows))
                            print(
                                f"{'':<12} {'(so far)':<17} {len(rows):5d} {w / len(rows):8.1%}  "
                                f"[{lo:.1%}, {hi:.1%}] ({time.perf_counter() - t:.0f} s)",
                                flush=True,
                            )
                    wins = sum(r[0] for r in rows)
                    ties = sum(1 for r in rows if r[0] == 0.5)
                    lo, hi = wilson(wins, g)
                    print(
                        f"{game:<12} {a + ' v ' + b:<17} {g:5d} {wins / g:8.1%}  [{lo:.1%}, {hi:.1%}]"
                        f"{'':<2}{timing((r[1], r[2]) for r in rows)}"
                        f"{f', {ties} shared' if ties else ''} ({time.perf_counter() - t:.0f} s)",
                        flush=True,
                    )
        if "trio" in parts:
            print("\nThree players, one seat per level, seats rotated; average place (1 = first)")
            for game in THREE_PLAYER:
                if only and game not in only:
                    continue
                t = time.perf_counter()
                g = count(game, True)
                rows = pool.map(
                    trio, [(game, seed, sec) for seed in range(args.first_seed, args.first_seed + g)]
                )
                avg = {lv: sum(r[0][lv] for r in rows) / g for lv in LEVELS}
                first = {lv: sum(1 for r in rows if r[0][lv] == 1) for lv in avg}
                print(
                    f"{game:<12} {g:4d} games  "
                    + "  ".join(
                        f"{lv} {avg[lv]:.2f} (first {first[lv]})" for lv in ("strong", "normal", "easy")
                    )
                    + f"  ({time.perf_counter() - t:.0f} s)",
                    flush=True,
                )
        if "tasks" in parts and (not only or "nowa_gwinea" in only):
            from engines.nowa_gwinea.data import BOARDS, board_side

            tasks = [(b, side, k) for side in "AB" for b in range(1, BOARDS + 1) for k in range(6)]
            t = time.perf_counter()
            print(
                f"\nNowa Gwinea, every task of both sides ({len(tasks)} tasks), racing (one seat builds), "
                f"strong at {NG_SECONDS:g} s"
            )
            runs = {}
            for level in levels:
                runs[level] = pool.map(task_run, [(b, s, k, level, NG_SECONDS) for b, s, k in tasks])
                done = [(r, task) for r, task in zip(runs[level], tasks, strict=True) if r[0] is not None]
                smallest = sum(1 for r, (b, s, k) in done if r[0] == board_side(b, s).sizes[k])
                print(
                    f"{level:<7} complete villages {len(done)}/{len(tasks)}, the solver's smallest size "
                    f"{smallest}/{len(tasks)} ({smallest / len(tasks):.1%})",
                    flush=True,
                )
            both = [
                (a[1], b[1])
                for a, b in zip(runs.get("strong", []), runs.get("normal", []), strict=True)
                if a[0] is not None and b[0] is not None
            ]
            earlier = sum(1 for a, b in both if a < b)
            later = sum(1 for a, b in both if a > b)
            if {"strong", "normal"} <= set(runs):
                print(
                    f"tasks both strong and normal complete: {len(both)}; huts before the call: strong "
                    f"{sum(a for a, _ in both) / max(1, len(both)):.2f}, normal {sum(b for _, b in both) / max(1, len(both)):.2f}"
                    f" on average; strong earlier on {earlier}, later on {later}"
                )
            print(f"({time.perf_counter() - t:.0f} s)")
        if "solo" in parts:
            print("\nSolo: average score (and standard deviation) over the seeds")
            for game in SOLO:
                if only and game not in only:
                    continue
                cells = []
                for level in levels:
                    g = count(game, level == "strong")
                    rows = pool.map(
                        solo,
                        [(game, level, seed, sec) for seed in range(args.first_seed, args.first_seed + g)],
                    )
                    avg = sum(r[0] for r in rows) / g
                    sd = math.sqrt(sum((r[0] - avg) ** 2 for r in rows) / max(1, g - 1))
                    ranks = Counter(r[1] for r in rows if r[1])
                    rank = f", ranks {dict(ranks.most_common(3))}" if ranks else ""
                    cells.append(f"{level} {avg:.1f} over {g} (sd {sd:.1f}{rank})")
                print(f"{game:<12} " + "; ".join(cells), flush=True)
    print(f"\ntotal {time.perf_counter() - begin:.0f} s")


if __name__ == "__main__":
    main()
