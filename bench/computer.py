"""What strong computer players cost the table: other games' moves, their own time, the person's post.

    python bench/computer.py [--seconds 1] [--workers 2] [--moves 150] [--positions 6]

Three parts, side by side in one run, through the real session service on a
temporary SQLite database and the real worker pool (``COMPUTER_WORKERS``):

1. Another game's move while strong players think.  A Guanga game (a person
   against a normal computer) is played move after move through
   ``SessionService.play``; the 50th and 99th percentile of one move's latency,
   and how late the event loop wakes from a 1 ms sleep, idle and while 1, 2 and
   4 strong players think (each a loop of strong Tiwanaku searches of
   ``--seconds``), in the worker pool and, for comparison, in a thread of the
   bot's process (``COMPUTER_WORKERS=0``).  Goal in the pool: p50 <= 1.5x and
   p99 <= 3x idle.
2. The strong player's think time per move against its budget, for every game:
   strong moves at positions of 2-player games played by the normal level, one
   at a time through the pool, timed from the ask to the answer, with the
   simulations each search managed, and beside them the normal level's time per move (p50 and
   max, in milliseconds, at 60 positions).  Goal: p99 <= budget + 10 %.
3. A person's move to its post with three strong computers at the table
   (Tiwanaku, four seats): the time to the person's board (the move recorded
   and the board drawn), then to each computer's board; and the same move in
   the way computers were played before (all of them before the person's post).
   Goal: the person's post under 1 s.

Figures only: nothing here is asserted.  The machine's load shows in them.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engines  # noqa: E402
from bot.computers import Computers  # noqa: E402
from bot.sessions import Session, SessionService  # noqa: E402
from bot.storage import Store, open_store  # noqa: E402
from engines.core import config_from_options, rng_for  # noqa: E402

GAMES = ("guacamole", "guanga", "tiwanaku", "pachakuna", "nowa_gwinea")


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def positions(game: str, count: int, seed: int = 1, players: int = 2) -> list[tuple]:
    """(module, view, legal, k) at ``count`` positions of seeded games played by the normal level."""
    module = engines.get(game).load()
    found: list[tuple] = []
    while len(found) < count:
        state = module.new_game(config_from_options(module.Config, players, {}), players, seed)
        k = 0
        while module.outcome(state) is None and len(found) < count:
            seat = min(module.to_move(state))
            legal = list(module.legal_moves(state, seat))
            view = module.view_for(state, seat)
            if k % 9 == 4 and len(legal) > 1:
                found.append((module, view, legal, k))
            state, _ = module.apply_move(state, seat, module.computer_move(view, legal, rng_for(seed, k)))
            k += 1
        seed += 1
    return found


class Simulations(logging.Handler):
    """Collects the simulation counts the pool logs at DEBUG."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.counts: list[int] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.msg.startswith("strong ") and record.args:
            args = record.args if isinstance(record.args, tuple) else ()
            self.counts.append(int(str(args[-1])))


def mine(session: Session, user_id: int) -> int:
    seat = session.seat_of(user_id)
    assert seat is not None and seat.seat is not None
    return seat.seat


async def new_game(service: SessionService, channel: int, game: str, computers: dict[str, int]) -> int:
    service.new_seed = lambda: channel
    await service.lobby.create(game, guild_id=1, channel_id=channel, host_id=channel, host_name="p")
    for level, n in computers.items():
        for _ in range(n):
            await service.lobby.add_computer(channel, channel, level)
    result = await service.lobby.start(channel, channel)
    return result.session.id


async def person_moves(service: SessionService, channel: int, game: str, moves: int, lag: list[float]):
    """``moves`` moves of a person in a game against a normal computer: the latency of each."""
    times: list[float] = []
    sid = await new_game(service, channel, game, {"normal": 1})
    k = 0
    while len(times) < moves:
        session = await service.core.get(sid)
        if session is None or session.status != "active":
            channel += 1000
            sid = await new_game(service, channel, game, {"normal": 1})
            continue
        seat = mine(session, channel)
        module = session.engine
        legal = list(module.legal_moves(session.state, seat))
        text = str(module.computer_move(module.view_for(session.state, seat), legal, rng_for(channel, k)))
        k += 1
        start = time.perf_counter()
        await service.play.play_in(sid, channel, text)
        times.append(time.perf_counter() - start)
        slept = time.perf_counter()
        await asyncio.sleep(0.001)
        lag.append(time.perf_counter() - slept - 0.001)
    return times


async def thinker(computers: Computers, spots: list[tuple], seconds: float, stop: asyncio.Event) -> None:
    k = 0
    while not stop.is_set():
        module, view, legal, n = spots[k % len(spots)]
        await computers.move(module, view, legal, rng_for(n, k), "strong", seconds)
        k += 1


async def part_latency(store: Store, args: argparse.Namespace) -> None:
    print(f"\n1. Another game's move (Guanga, a person against a normal computer), {args.moves} moves each")
    print(
        f"{'strong players thinking':<34} {'p50 ms':>8} {'p99 ms':>8} {'x idle':>11} {'loop lag p50/max ms':>20}"
    )
    spots = positions("tiwanaku", 8)
    pool = Computers(args.workers)
    thread = Computers(0)
    await pool.start()
    idle: tuple[float, float] | None = None
    try:
        cases = [("idle", pool, 0), *[(f"{n} in the pool", pool, n) for n in (1, 2, 4)]]
        cases.append(("1 in a thread (COMPUTER_WORKERS=0)", thread, 1))
        for channel, (label, computers, n) in enumerate(cases, start=10):
            service = SessionService(store, computers=computers)
            stop = asyncio.Event()
            tasks = [asyncio.create_task(thinker(computers, spots, args.seconds, stop)) for _ in range(n)]
            await asyncio.sleep(0.2 if n else 0)  # the searches are under way
            lag: list[float] = []
            times = await person_moves(service, channel, "guanga", args.moves, lag)
            stop.set()
            await asyncio.gather(*tasks)
            p50, p99 = pct(times, 50), pct(times, 99)
            if idle is None:
                idle = (p50, p99)
            ratio = f"{p50 / idle[0]:.1f}x/{p99 / idle[1]:.1f}x"
            print(
                f"{label:<34} {1000 * p50:8.1f} {1000 * p99:8.1f} {ratio:>11} "
                f"{1000 * pct(lag, 50):9.2f}/{1000 * max(lag):.1f}",
                flush=True,
            )
    finally:
        await pool.close()


async def part_think(args: argparse.Namespace) -> None:
    print(
        f"\n2. The strong player's think time per move, budget {args.seconds:g} s (goal: p99 <= budget + 10 %)"
    )
    print(
        f"{'game':<12} {'moves':>5} {'p50 s':>7} {'p99 s':>7} {'max s':>7} {'p99/budget':>10} {'simulations p50':>16} "
        f"{'normal ms p50/max':>20}"
    )
    counts = Simulations()
    logger = logging.getLogger("bot.computers")
    logger.addHandler(counts)
    logger.setLevel(logging.DEBUG)
    pool = Computers(args.workers)
    await pool.start()
    try:
        for game in GAMES:
            counts.counts.clear()
            times, normal = [], []
            for module, view, legal, k in positions(game, args.positions):
                start = time.perf_counter()
                await pool.move(module, view, legal, rng_for(7, k), "strong", args.seconds)
                times.append(time.perf_counter() - start)
            for module, view, legal, k in positions(game, 60):  # the normal level, in this process
                start = time.perf_counter()
                await pool.move(module, view, legal, rng_for(7, k), "normal", args.seconds)
                normal.append(time.perf_counter() - start)
            # Nowa Gwinea's strong level plans with a solver's node budget, not simulations
            # (moves with a single candidate search nothing and are left out)
            searched = [c for c in counts.counts if c]
            sims = "(by nodes)" if game == "nowa_gwinea" else f"{statistics.median(searched or [0]):.0f}"
            print(
                f"{game:<12} {len(times):5d} {pct(times, 50):7.2f} {pct(times, 99):7.2f} {max(times):7.2f} "
                f"{pct(times, 99) / args.seconds:10.2f} {sims:>16} "
                f"{1000 * pct(normal, 50):>15.2f}/{1000 * max(normal):.2f}",
                flush=True,
            )
    finally:
        logger.removeHandler(counts)
        await pool.close()


async def render(session) -> None:
    renderer = session.info.load_renderer()
    view = session.engine.view_for(session.state, None)
    await asyncio.to_thread(renderer.render, view, names=session.names(), last_action=None, language="en")


async def part_post(store: Store, args: argparse.Namespace) -> None:
    print("\n3. A person's move to its post, three strong computers at a Tiwanaku table (goal: under 1 s)")
    print(f"{'way':<44} {'person s':>9} {'computers s (each post)':>26}")
    pool = Computers(args.workers)
    await pool.start()
    try:
        for label, wait in (
            ("now: the person's post first", True),
            ("before: after all the computers", False),
        ):
            service = SessionService(store, computer_seconds=args.seconds, computers=pool)
            service.computers_wait = wait
            channel = 5000 if wait else 6000
            await new_game(service, channel, "tiwanaku", {"strong": 3})
            people, others = [], []
            for k in range(args.person_moves):
                session = await service.core.require(channel)
                while session.status == "active" and mine(session, channel) not in session.to_move():
                    await service.play.computers_play(session.id)  # computers from the start, or left waiting
                    session = await service.core.require(channel)
                if session.status != "active":
                    break
                seat = mine(session, channel)
                module = session.engine
                legal = list(module.legal_moves(session.state, seat))
                text = str(module.computer_move(module.view_for(session.state, seat), legal, rng_for(3, k)))
                start = time.perf_counter()
                played = await service.play.play(channel, channel, text)
                await render(played.session)
                people.append(time.perf_counter() - start)
                posts = []
                follows = played.computers_next
                while follows:
                    more = await service.play.computers_play(session.id)
                    if more is None:
                        break
                    await render(more.session)
                    posts.append(time.perf_counter() - start)
                    follows = more.computers_next
                others.append(posts)
            shown = "; ".join("/".join(f"{t:.1f}" for t in p) or "-" for p in others)
            print(f"{label:<44} {' '.join(f'{t:.2f}' for t in people):>9}   {shown}", flush=True)
    finally:
        await pool.close()


async def main(args: argparse.Namespace) -> None:
    print(
        f"strong level {args.seconds:g} s by the clock; {args.workers} worker process(es); "
        f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}"
    )
    with tempfile.TemporaryDirectory() as folder:
        store = await open_store(str(Path(folder) / "bench.db"))
        try:
            if "latency" in args.parts:
                await part_latency(store, args)
            if "think" in args.parts:
                await part_think(args)
            if "post" in args.parts:
                await part_post(store, args)
        finally:
            await store.close()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="the strong level's thinking time per move")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="worker processes")
    ap.add_argument("--moves", type=int, default=150, help="another game's moves measured per case")
    ap.add_argument("--positions", type=int, default=6, help="strong moves timed per game")
    ap.add_argument("--person-moves", type=int, default=3, help="person's moves timed at the Tiwanaku table")
    ap.add_argument("--parts", default="latency,think,post", help="which parts: latency, think, post")
    asyncio.run(main(ap.parse_args()))
