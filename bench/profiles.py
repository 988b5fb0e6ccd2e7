"""What a reliability and pace profile costs on SQLite, for a person whose games hold 100,000 moves.

    python bench/profiles.py [--moves 100000] [--per-game 50] [--seed 1]

Builds a temporary SQLite database (migrated by the store, then filled directly, seeded): games
of 2 to 4 seats with ``--per-game`` moves each, one person (the one profiled) seated in every
game, with the other seats drawn from 200 people; clocks of every kind (none, ``move:``,
``bank:``, ``timer:``), waits drawn from a log-normal spread, a few turns played by the computer,
games finished, abandoned and running.  Then it times :func:`bot.profiles.profile` for that
person:

* cold: the first profile, which reads every game of theirs once from the log and stores its
  turns (what happens once, or after :func:`bot.profiles.rebuild`);
* warm: nothing changed since (the figures come from the stored turns by index);
* after one move: one game changed, and only that game is read again.

It prints the times, how many games each call read again, and the query plan of every statement
the warm profile ran (SQLite's EXPLAIN QUERY PLAN): each is a SEARCH by an index or key, none a
SCAN of ``moves`` or ``turns``.  It exits 1 when the warm profile takes a second or more or a
statement scans the log.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import profiles  # noqa: E402
from bot.storage import NewMove, open_store  # noqa: E402
from bot.time.source import stamp_of  # noqa: E402

PERSON = 1
START = 1_800_000_000.0
CLOCKS = (None, "move:24h", "bank:3d+12h", "timer:12h", "move:2h")


def fill(path: str, moves: int, per_game: int, seed: int) -> int:
    """The games, seats and moves, written directly; the number of games."""
    rng = random.Random(seed)
    con = sqlite3.connect(path)
    games = moves // per_game
    sessions: list[tuple] = []
    seats: list[tuple] = []
    log: list[tuple] = []
    for gid in range(1, games + 1):
        n = rng.randint(2, 4)
        people = [PERSON, *rng.sample(range(2, 202), n - 1)]
        rng.shuffle(people)
        clock = rng.choice(CLOCKS)
        started = START + gid * 3600.0
        status = rng.choices(("finished", "abandoned", "active"), (8, 1, 1))[0]
        at = started
        for number in range(1, per_game + 1):
            seat = (number - 1) % n
            at += rng.lognormvariate(8.5, 1.4)  # a median of about 80 minutes, a long tail
            computer = rng.random() < 0.01
            log.append((gid, number, seat, "x", int(computer), stamp_of(at)))
        stamp = stamp_of(started)
        sessions.append(
            (
                gid,
                "nim",
                1,
                10_000 + gid,
                people[0],
                status,
                "{}",
                n,
                gid,
                per_game + 1,
                stamp,
                stamp,
                stamp,
                clock,
            )
        )
        seats.extend((gid, i, i, uid, str(uid), 0, 0) for i, uid in enumerate(people))
    con.executemany(
        "INSERT INTO sessions (id, game, guild_id, channel_id, host_id, status, options, max_players, seed,"
        " version, created_at, updated_at, started_at, clock) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        sessions,
    )
    con.executemany(
        "INSERT INTO seats (session_id, join_order, seat, user_id, display_name, is_computer, resigned)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        seats,
    )
    con.executemany(
        "INSERT INTO moves (session_id, number, seat, move, by_computer, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        log,
    )
    con.commit()
    con.close()
    return games


def recorded(body: Generator, seen: list[tuple[str, tuple]]) -> Generator[Any, Any, Any]:
    """``body``, noting each statement it runs."""
    result: Any = None
    try:
        op = body.send(None)
        while True:
            if op[0] != "many":
                seen.append((op[1], op[2]))
            result = yield op
            op = body.send(result)
    except StopIteration as stop:
        return stop.value


async def main(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "profile.db")
        store = await open_store(path)
        await store.close()
        games = fill(path, args.moves, args.per_game, args.seed)
        store = await open_store(path)
        try:
            print(f"{args.moves:,} moves in {games:,} games, person {PERSON} seated in every one")
            started = time.perf_counter()
            cold = await profiles.profile(store, PERSON, 1)
            print(f"cold profile (every game read once from the log): {time.perf_counter() - started:.3f} s")
            f = cold.figures
            print(
                f"  {f.turns:,} turns, reliability {f.reliability} %, on time {f.on_time_percent:.1f} %,"
                f" median {f.median or 0:.0f} s, {f.finished} finished, {f.abandoned} abandoned,"
                f" {f.timed_out} timed out, {f.running} running"
            )
            seen: list[tuple[str, tuple]] = []
            real_read = store.db.read

            async def read(body):
                return await real_read(recorded(body, seen))

            store.db.read = read  # type: ignore[method-assign]  # noting the statements the profile runs
            runs = []
            again, warm = -1, cold
            for _ in range(5):
                started = time.perf_counter()
                again = await profiles.refresh(store, [PERSON])
                warm = await profiles.profile(store, PERSON, 1)
                runs.append(time.perf_counter() - started)
            store.db.read = real_read  # type: ignore[method-assign]  # the back end's own reader again
            assert warm.figures == f
            print(
                f"warm profile: best {min(runs):.3f} s, worst {max(runs):.3f} s of 5; games read again: {again}"
            )
            session = next(s for s in await store.games.live_sessions(1) if s.status == "active")
            if session is not None:
                await store.games.record_moves(session.id, session.version, [NewMove(0, "x")], {})
                started = time.perf_counter()
                again = await profiles.refresh(store, [PERSON])
                await profiles.profile(store, PERSON, 1)
                print(f"after one move: {time.perf_counter() - started:.3f} s; games read again: {again}")
        finally:
            await store.close()
        con = sqlite3.connect(path)
        scans = 0
        print("query plans of the warm profile's statements:")
        for sql, params in dict.fromkeys(seen):
            plan = [row[3] for row in con.execute("EXPLAIN QUERY PLAN " + sql, params)]
            bad = [p for p in plan if p.startswith("SCAN") and ("moves" in p or "turns" in p)]
            scans += len(bad)
            print(f"  {' '.join(sql.split())[:90]}")
            for p in plan:
                print(f"      {p}")
        con.close()
    ok = min(runs) < 1.0 and scans == 0
    print("ok: under a second, no scan of the log" if ok else "NOT ok")
    return 0 if ok else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=100_000)
    parser.add_argument("--per-game", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    sys.exit(asyncio.run(main(parser.parse_args())))
