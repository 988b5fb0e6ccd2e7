"""What /game log costs: each move's stored events and mark, against replaying the game.

    python bench/log.py [--moves 400] [--repeat 20]

Plays a Guacamole game of ``--moves`` moves through the session service on a
temporary SQLite file, twice: once as the table records moves now (events and
privacy mark stored with each row), once with bare rows as older databases
hold them (the log then replays the game from its seed).  Prints the time to
build one reader's /game log of the last 50 moves both ways, and the ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import movetexts  # noqa: E402
from bot.sessions import SessionService  # noqa: E402
from bot.storage import open_store  # noqa: E402


async def game(service: SessionService, channel: int, moves: int, *, bare: bool) -> int:
    await service.lobby.create("guacamole", guild_id=1, channel_id=channel, host_id=1, host_name="a", seed=7)
    await service.lobby.join(channel, 2, "b")
    session = (await service.lobby.start(channel, 1)).session
    module, state = session.engine, session.state
    rng = random.Random(7)
    rows = []
    for _ in range(moves):
        if module.outcome(state) is not None:
            break
        (seat,) = module.to_move(state)
        move = module.computer_move(module.view_for(state, seat), list(module.legal_moves(state, seat)), rng)
        if bare:
            state, _ = module.apply_move(state, seat, move)
            rows.append((seat, str(move), False))
        else:
            user = session.by_seat(seat).user_id
            if user is None:
                raise ValueError(f"seat {seat} of the bench's game has no person")
            session = (await service.play.play(channel, user, str(move))).session
            state = session.state
    if bare:
        await service.store.games.record_moves(session.id, session.version, rows, module.to_dict(state))
    return session.id


async def timed_log(service: SessionService, session_id: int, repeat: int) -> float:
    session = await service.core.reread(session_id)
    t0 = time.perf_counter()
    for _ in range(repeat):
        records = await service.logbook.log(session, last=50)
        movetexts.log_text(session, records, None)
    return (time.perf_counter() - t0) / repeat


async def run(moves: int, repeat: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(Path(tmp) / "bench.db")
        try:
            service = SessionService(store)
            played = await game(service, 1, moves, bare=False)
            bare = await game(service, 2, moves, bare=True)
            n = await store.history.move_count(played)
            stored = await timed_log(service, played, repeat)
            replayed = await timed_log(service, bare, repeat)
        finally:
            await store.close()
    print(f"/game log of the last 50 of {n} moves, stored marks: {1000 * stored:.2f} ms")
    print(f"/game log of the last 50 of {n} moves, replayed:     {1000 * replayed:.2f} ms")
    print(f"ratio replayed/stored: {replayed / stored:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    asyncio.run(run(args.moves, args.repeat))


if __name__ == "__main__":
    main()
