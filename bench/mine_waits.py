"""What ``/game mine`` pays to say how long each game has waited, for one person in many games.

    python bench/mine_waits.py [--games 20]

Builds a temporary SQLite database with ``--games`` running Nim games of one person, each with a
log of 200 or 1,000 moves, and times :func:`bot.surface.reminders.waited_since` for all of them (the
log's last 60 rows, the seat's handovers, the whole log and the game's start only when those
rows do not tell), beside loading the person's games, which ``/game mine`` does anyway.  Three
logs: each move a turn of its own (the usual case: the last rows tell), and every move in the
turn being played by the other seat, 200 and 1,000 of them (the worst case: the whole log is read).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engines  # noqa: E402
from bench.statements import Statements  # noqa: E402
from bot.sessions import SessionService  # noqa: E402
from bot.storage import NewMove, Store, open_store  # noqa: E402
from bot.surface.reminders import waited_since  # noqa: E402
from bot.time.source import ManualClock  # noqa: E402
from tests.support import nim  # noqa: E402

engines.register(engines.GameInfo("nim", "Nim", "tests.support.nim", None, 1, 4))
ME = 1


async def build(path: str, games: int, rows: int, same_turn: bool, clock: ManualClock) -> Store:
    store = await open_store(path, clock=clock)
    state = nim.new_game(nim.Config(piles=3, players=2), 2, 1)
    turn = nim.turn_number(state)
    for g in range(games):
        sid = await store.games.create_session(
            game="nim", guild_id=1, channel_id=10_000 + g, host_id=ME, host_name="me",
            options={"piles": 3}, max_players=2, seed=g,
        )  # fmt: skip
        await store.games.add_seat(sid, 2 + g, f"p{g}", limit=2)
        version = (await store.games.start(sid, {0: 0, 1: 1}, {"piles": 3}, nim.to_dict(state))).version
        for i in range(rows):
            clock.advance(60)
            number = turn if same_turn else turn - rows + i
            version = await store.games.record_moves(
                sid, version, [NewMove(1, "x", turn=number)], nim.to_dict(state)
            )
    return store


async def measure(games: int, rows: int, same_turn: bool) -> None:
    clock = ManualClock()
    with tempfile.TemporaryDirectory() as folder:
        store = await build(str(Path(folder) / "bench.db"), games, rows, same_turn, clock)
        service = SessionService(store)
        statements = Statements()
        await statements.follow(store)
        load = wait = float("inf")
        loaded = waited = 0
        for _ in range(5):  # the best of five
            statements.count = 0
            start = time.perf_counter()
            sessions = await service.core.sessions_of(ME)
            load, loaded = min(load, time.perf_counter() - start), statements.count
            statements.count = 0
            start = time.perf_counter()
            for session in sessions:
                await waited_since(store, session, ME)
            wait, waited = min(wait, time.perf_counter() - start), statements.count
        await store.close()
    kind = "whole log read" if same_turn else "the last rows tell"
    print(
        f"{games} games of {rows} moves ({kind}): loading them {load * 1000:.1f} ms ({loaded} statements), "
        f"their waits {wait * 1000:.1f} ms ({waited} statements, {wait * 1000 / games:.2f} ms a game)"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    for rows, same_turn in ((200, False), (200, True), (1000, True)):
        await measure(args.games, rows, same_turn)


if __name__ == "__main__":
    asyncio.run(main())
