"""One reminder sweep over many live games: its time and the SQL statements it makes.

    python bench/reminders.py [--games 10000] [--due 100]

Builds a temporary SQLite database with ``--games`` running Nim games (two
people each, every person in five games) and one reminder job per person, of
which ``--due`` are due; then runs one sweep of the scheduler with the
reminder's data path (the person's settings, their live games loaded with
their seats, the games where it is their turn, the digest text, the job
re-armed for the next interval; the Discord message itself is not sent).
Prints the sweep's time, the SQL statements it ran (counted by SQLite's trace
hook), and the same for a database with a tenth of the games, so the ratio
shows whether the cost grows with games that are not due (it should not).
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
from bot import notices  # noqa: E402
from bot.sessions import SessionService  # noqa: E402
from bot.storage import Store, open_store  # noqa: E402
from bot.time.scheduler import Scheduler  # noqa: E402
from bot.time.source import ManualClock  # noqa: E402
from tests.support import nim  # noqa: E402

engines.register(engines.GameInfo("nim", "Nim", "tests.support.nim", None, 1, 4))
GAMES_EACH = 5


async def build(path: str, games: int, due: int, clock: ManualClock) -> tuple[Store, SessionService]:
    store = await open_store(path, clock=clock)
    service = SessionService(store)
    people = max(2, games * 2 // GAMES_EACH)
    state = nim.to_dict(nim.new_game(nim.Config(piles=3, players=2), 2, 1))
    for g in range(games):
        a, b = 1 + (2 * g) % people, 1 + (2 * g + 1) % people
        sid = await store.games.create_session(
            game="nim", guild_id=1, channel_id=10_000 + g, host_id=a, host_name=f"p{a}",
            options={"piles": 3}, max_players=2, seed=g,
        )  # fmt: skip
        await store.games.add_seat(sid, b, f"p{b}", limit=2)
        await store.games.start(sid, {0: 0, 1: 1}, {"piles": 3, "players": 2}, state)
    now = clock.time()
    for person in range(1, people + 1):
        await store.jobs.schedule("remind", str(person), now - 1 if person <= due else now + 86400)
    return store, service


async def sweep(games: int, due: int) -> tuple[float, int, int]:
    clock = ManualClock()
    with tempfile.TemporaryDirectory() as folder:
        store, service = await build(str(Path(folder) / "bench.db"), games, due, clock)
        statements = Statements()
        await statements.follow(store)
        sent = 0

        async def remind(job) -> None:
            nonlocal sent
            uid = int(job.key)
            person = await store.people.person(uid)
            waiting = [
                notices.Waiting(s, "bench", 0.0)
                for s in await service.core.sessions_of(uid)
                if (seat := s.seat_of(uid)) is not None and seat.seat in s.to_move()
            ]
            if waiting:
                notices.digest(waiting, lambda s: f"https://discord.com/channels/1/{s.row.channel_id}")
                sent += 1
            await store.jobs.schedule("remind", job.key, clock.time() + person.remind_hours * 3600)

        scheduler = Scheduler(store, owner="bench")
        scheduler.register("remind", remind)
        start = time.perf_counter()
        fired = 0
        while True:
            n = await scheduler.run_due()
            fired += n
            if not n:
                break
        took = time.perf_counter() - start
        await store.close()
        assert fired == due, (fired, due)
        return took, statements.count, sent


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--due", type=int, default=100)
    args = parser.parse_args()
    small = max(args.games // 10, args.due * GAMES_EACH // 2)
    rows = []
    for games in (small, args.games):
        took, statements, sent = await sweep(games, args.due)
        rows.append((games, took, statements))
        print(
            f"{games:>6} live games, {args.due} reminders due: one sweep {took * 1000:.0f} ms, "
            f"{statements} SQL statements ({statements / args.due:.1f} per reminder), {sent} digests"
        )
    (g1, t1, q1), (g2, t2, q2) = rows
    print(f"{g2 / g1:.0f}x the games: {t2 / t1:.2f}x the time, {q2 / q1:.2f}x the SQL statements")


if __name__ == "__main__":
    asyncio.run(main())
