"""What checking the database costs: the quick check at every start against the full check.

    python bench/database_check.py [--sessions 3000] [--moves 100]

Fills a temporary SQLite file through the storage layer (sessions, each with
a log of moves carrying events and privacy marks), then times opening it (the
start-up path: migrations and ``PRAGMA quick_check``) and the full
``PRAGMA integrity_check`` that ``python -m bot --check-database`` runs.
Prints the file size, both times and their ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.storage import NewMove, open_store  # noqa: E402

EVENT = [
    {"text": "{p0} drew a card from the draw pile.", "visible_to": None, "public_text": None, "kind": "draw"}
]


async def fill(path: Path, sessions: int, moves: int) -> None:
    store = await open_store(path)
    try:
        for i in range(sessions):
            sid = await store.games.create_session(
                game="nim", guild_id=1, channel_id=10_000 + i, host_id=1, host_name="a",
                options={}, max_players=2, seed=i,
            )  # fmt: skip
            version = (
                await store.games.start(sid, {0: 0}, {}, {"piles": [3, 4, 5], "filler": "x" * 400})
            ).version
            rows = [NewMove(k % 2, f"A{k % 9 + 1}", False, EVENT, {"owner": None}) for k in range(moves)]
            await store.games.record_moves(sid, version, rows, {"piles": [1], "filler": "y" * 400})
    finally:
        await store.close()


def megabytes(folder: str) -> float:
    return sum(p.stat().st_size for p in Path(folder).iterdir()) / 2**20


async def run(sessions: int, moves: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.db"
        await fill(path, sessions, moves)
        size = megabytes(tmp)
        t0 = time.perf_counter()
        store = await open_store(path)
        opened = time.perf_counter() - t0
        t0 = time.perf_counter()
        await store.db.all("PRAGMA quick_check")
        quick = time.perf_counter() - t0
        t0 = time.perf_counter()
        problems = await store.check_integrity()
        full = time.perf_counter() - t0
        await store.close()
    assert problems == [], problems
    print(f"database: {sessions} sessions x {moves} moves, {size:.1f} MB")
    print(f"open at start (connections, migrations, quick_check): {1000 * opened:.1f} ms")
    print(f"quick_check alone:                                    {1000 * quick:.1f} ms")
    print(f"full integrity_check (--check-database):              {1000 * full:.1f} ms")
    print(f"ratio integrity_check / quick_check: {full / quick:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=3000)
    parser.add_argument("--moves", type=int, default=100)
    args = parser.parse_args()
    asyncio.run(run(args.sessions, args.moves))


if __name__ == "__main__":
    main()
