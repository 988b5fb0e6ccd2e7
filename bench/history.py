"""What showing an old move costs: the state after move N, with and without snapshots.

    python bench/history.py [--seeds 4] [--every 4,8,16,32,64]

For each title, plays games to the end with the computer player in every seat
(the most seats the game takes, seeds 1..``--seeds``), keeps the longest, and
stores it through the session service on a temporary SQLite file.  Then it
times :meth:`bot.history.History.page` (reading the log and the nearest
snapshot from the database, decoding it, replaying the moves after it):

* without snapshots: the page of the game's last-but-one move (the whole game
  replayed: the worst page);
* with a snapshot every K moves (for each K of ``--every``): the worst pages
  (move ``m*K - 1``, K-1 moves replayed), mean and max over the game, and the
  room the snapshots take (bytes of JSON).

It prints milliseconds and the ratio against no snapshots.  The board image
itself is not included (``bench/render.py`` times the renderers).

K = 16 (``bot.history.SNAPSHOT_EVERY``) was chosen from these figures (seeds 1-4,
the most seats): without snapshots the worst page of the longest games (109 to
190 moves) costs 8-18 ms; with K = 16 the worst page costs at most 1.6 ms
(10-16 times less) for 11-22 KB of snapshots per game; K = 8 saves a further
half millisecond for twice the room, K = 32 and 64 let the worst page grow
back towards the cost of a whole replay in Nowa Gwinea.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engines  # noqa: E402
from bot.history import History  # noqa: E402
from bot.sessions import Played, SessionService  # noqa: E402
from bot.sessions.model import apply, stored  # noqa: E402
from bot.storage import open_store  # noqa: E402
from engines.core import TABLE, config_from_options, rng_for  # noqa: E402

TITLES = ("guanga", "tiwanaku", "pachakuna", "nowa_gwinea", "guacamole")


def whole_game(
    game: str,
    players: int,
    seed: int,
    limit: int = 5000,
    *,
    options: dict[str, Any] | None = None,
    stream: str = "bench-history",
    stop: Callable[[list[Played], Any, Any], bool] | None = None,
) -> tuple[list[Played], Any]:
    """A game played to the end by computer players: (moves as played records, final state).
    ``options``: the game's; ``stream``: the computers' random stream (with the seed); ``stop``:
    called as ``stop(played, state before the move, state after it)`` after each move, ends the
    game there when it says so."""
    module = engines.get(game).load()
    config = config_from_options(module.Config, players, options or {})
    state = module.new_game(config, players, seed)
    played: list[Played] = []
    rng = rng_for(seed, stream)
    while module.outcome(state) is None and len(played) < limit:
        movers = sorted(module.to_move(state))
        if movers:
            seat = movers[0]
            legal = list(module.legal_moves(state, seat))
            move = module.computer_move(module.view_for(state, seat), legal, rng)
        else:
            seat = TABLE
            move = list(module.legal_moves(state, TABLE))[0]
        before = state
        state, record = apply(module, state, seat, move, by_computer=True)
        played.append(record)
        if stop is not None and stop(played, before, state):
            break
    return played, state


async def store_game(
    service: SessionService, game: str, players: int, seed: int, played: list[Played], final: Any
) -> int:
    """``played`` stored as the log of a new session, its board told through the last move.  The
    seats are taken past the server's cap on running games and the tables' gates (as a league seats
    its pairing): every game stored here is running, with the same people."""
    channel = 1000 + TITLES.index(game)
    session = await service.lobby.create(
        game, guild_id=1, channel_id=channel, host_id=1, host_name="p1", seed=seed, capped=False
    )
    for uid in range(2, players + 1):
        await service.lobby.join(channel, uid, f"p{uid}", gated=False)
    module = engines.get(game).load()
    await service.store.games.start(
        session.id,
        {i: i for i in range(players)},
        {},
        module.to_dict(module.new_game(config_from_options(module.Config, players, {}), players, seed)),
    )
    version = (await service.core.reread(session.id)).version
    await service.store.games.record_moves(
        session.id, version, [stored(p) for p in played], module.to_dict(final)
    )
    await service.store.games.set_board_message(session.id, 1, len(played))
    return session.id


async def timed(history: History, session, number: int, repeat: int) -> float:
    """The fastest of ``repeat`` reads of the page of move ``number``, in milliseconds, after one
    read not timed (what a first read of a page costs once, a cache filled, is not the page's),
    with the garbage collector off while a read is timed, as :mod:`timeit` times (a collection of
    what earlier pages left, landing in one read, is not that page's cost either)."""
    await history.page(session, number)
    best = []
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            t = time.perf_counter()
            await history.page(session, number)
            best.append(time.perf_counter() - t)
        finally:
            gc.enable()
    return min(best) * 1000


async def main(seeds: int, everies: list[int], repeat: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(str(Path(tmp) / "bench.db"))
        service = SessionService(store)
        print(
            f"{'game':12} {'moves':>5} {'none ms':>8}  "
            + "  ".join(f"K={k:<3} worst ms (mean) ratio KB" for k in everies)
        )
        for game in TITLES:
            info = engines.get(game)
            longest = max(
                (whole_game(game, info.max_players, seed) + (seed,) for seed in range(1, seeds + 1)),
                key=lambda g: len(g[0]),
            )
            played, final, seed = longest
            sid = await store_game(service, game, info.max_players, seed, played, final)
            session = await service.core.reread(sid)
            total = len(played)
            await store.history.drop_snapshots(sid)
            none = await timed(History(service, every=10**9), session, total - 1, max(1, repeat // 4))
            cells = []
            for k in everies:
                await store.history.drop_snapshots(sid)
                history = History(service, every=k)
                await history.warm(session)
                rows = await store.db.all("SELECT state FROM snapshots WHERE session_id = ?", sid)
                size = sum(len(r[0]) for r in rows)
                worst_pages = [m * k - 1 for m in range(1, total // k + 1) if m * k - 1 < total] or [
                    total - 1
                ]
                sample = worst_pages[:: max(1, len(worst_pages) // 8)]
                times = [await timed(history, session, n, repeat) for n in sample]
                cells.append(
                    f"{max(times):7.2f} ({statistics.mean(times):5.2f}) {none / max(times):5.1f}x {size / 1024:6.0f}"
                )
            print(f"{game:12} {total:>5} {none:8.2f}  " + "  ".join(cells))
            sys.stdout.flush()
        await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--every", default="4,8,16,32,64")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(main(args.seeds, [int(x) for x in args.every.split(",")], args.repeat))
