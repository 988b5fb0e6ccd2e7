"""A process killed in the middle of committing moves loses no acknowledged move and leaves nothing
half done, on both back ends."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from tests.table.util import open_lobbies

ROOT = Path(__file__).resolve().parents[2]

WRITER = """
import asyncio, sys
from bot.storage import Store, open_store

async def main(target, sid, version):
    store = await open_store(target)
    n = 0
    while True:
        n += 1
        version = await store.games.record_moves(sid, version, [(0, f"A{n}", False)], {"n": n, "pad": "x" * 2000})
        print(version, flush=True)  # acknowledged only once committed

asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
"""


async def test_a_killed_writer_leaves_every_acknowledged_move_and_a_whole_state(database):
    store = await database.open()
    (sid,) = await open_lobbies(store, 1)
    start = (await store.games.start(sid, {0: 0}, {}, {"n": 0})).version
    await store.close()
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        WRITER,
        database.target,
        str(sid),
        str(start),
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=asyncio.subprocess.PIPE,
    )
    acknowledged = [int(await child.stdout.readline()) for _ in range(200)]
    child.send_signal(signal.SIGKILL)  # in the middle of the next commits
    await child.wait()
    assert acknowledged == list(range(start + 1, start + 201))

    store = await database.open()  # the killed process's lock on an SQLite file is gone with it
    try:
        row = await store.games.session(sid)
        log = await store.history.moves(sid)
        assert len(log) >= 200  # every acknowledged move is there (a later one may be too)
        assert [m.number for m in log] == list(range(1, len(log) + 1))
        assert [m.move for m in log] == [f"A{i}" for i in range(1, len(log) + 1)]
        assert row.version == start + len(log) and row.state["n"] == len(log)  # snapshot and log agree
        assert await store.check_integrity() == []
    finally:
        await store.close()
