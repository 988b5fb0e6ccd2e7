"""The animated summary of a finished game: frames, time to make it, and its size.

    python bench/summary.py [--seeds 3]

For each title, plays games to the end with the computer player in every seat
(the most seats the game takes, seeds 1..``--seeds``), keeps the longest, and
times :func:`bot.results.frames` (rendering the public board after every turn)
and :func:`renderers.animation.animate` (the GIF), printing the frame count,
seconds and megabytes against Discord's 8 MB upload limit.
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
from bench.history import TITLES, store_game, whole_game  # noqa: E402
from bot import results  # noqa: E402
from bot.sessions import SessionService  # noqa: E402
from bot.storage import open_store  # noqa: E402
from renderers import animation  # noqa: E402


async def main(seeds: int) -> None:
    print(
        f"{'game':12} {'moves':>5} {'frames':>6} {'render s':>8} {'gif s':>6} {'MB':>5}  of {animation.LIMIT / 2**20:.0f} MB"
    )
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(str(Path(tmp) / "bench.db"))
        service = SessionService(store)
        for game in TITLES:
            info = engines.get(game)
            played, final, seed = max(
                (whole_game(game, info.max_players, s) + (s,) for s in range(1, seeds + 1)),
                key=lambda g: len(g[0]),
            )
            sid = await store_game(service, game, info.max_players, seed, played, final)
            session = await service.core.reread(sid)
            rows = await store.history.moves(sid)
            t = time.perf_counter()
            frames = results.frames(session, rows)
            rendered = time.perf_counter() - t
            t = time.perf_counter()
            gif = animation.animate(frames)
            made = time.perf_counter() - t
            print(
                f"{game:12} {len(rows):>5} {len(frames):>6} {rendered:8.2f} {made:6.2f} {len(gif) / 2**20:5.2f}"
            )
            sys.stdout.flush()
        await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=3)
    asyncio.run(main(parser.parse_args().seeds))
