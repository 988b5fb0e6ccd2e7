"""How many moves per second the session service commits to a file database.

    python bench/sessions.py [--moves 2000] [--sessions 1]

Plays Nim (the table's test game) through the real service on a temporary
SQLite file: each move is parsed, checked by the engine, appended to the log
with a new snapshot and version in one transaction, then read back.  Prints
moves per second and milliseconds per move, for one session and for several
sessions moving concurrently.
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
from bot.sessions import SessionService  # noqa: E402
from bot.storage import Store  # noqa: E402

engines.register(engines.GameInfo("nim", "Nim", "tests.support.nim", None, 1, 4))


async def play_session(service: SessionService, channel: int, moves: int) -> int:
    await service.create(
        "nim",
        guild_id=1,
        channel_id=channel,
        host_id=channel * 10,
        host_name="a",
        options={"piles": 5},
        seed=channel,
    )
    await service.join(channel, channel * 10 + 1, "b")
    session = (await service.start(channel, channel * 10)).session
    done = 0
    while done < moves:
        if session.status != "active":
            await service.create(
                "nim",
                guild_id=1,
                channel_id=channel,
                host_id=channel * 10,
                host_name="a",
                options={"piles": 5},
                seed=channel + done,
            )
            await service.join(channel, channel * 10 + 1, "b")
            session = (await service.start(channel, channel * 10)).session
        (seat,) = session.to_move()
        uid = session.by_seat(seat).user_id
        legal = await service.legal_moves(channel, uid)
        session = (await service.play(channel, uid, legal[0])).session
        done += 1
    return done


async def run(moves: int, sessions: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "bench.db")
        try:
            service = SessionService(store)
            t0 = time.perf_counter()
            n = await play_session(service, 1, moves)
            single = time.perf_counter() - t0
            t0 = time.perf_counter()
            counts = await asyncio.gather(
                *(play_session(service, 100 + i, moves // sessions) for i in range(sessions))
            )
            many = time.perf_counter() - t0
        finally:
            await store.close()
    total = sum(counts)
    print(
        f"one session:        {n} moves in {single:.2f} s = {n / single:,.0f} moves/s ({1000 * single / n:.2f} ms/move)"
    )
    print(
        f"{sessions} sessions at once: {total} moves in {many:.2f} s = {total / many:,.0f} moves/s "
        f"({1000 * many / total:.2f} ms/move)"
    )
    print(f"ratio concurrent/single throughput: {(total / many) / (n / single):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--sessions", type=int, default=8)
    args = parser.parse_args()
    asyncio.run(run(args.moves, args.sessions))


if __name__ == "__main__":
    main()
