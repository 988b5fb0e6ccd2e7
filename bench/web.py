"""What a web page costs: pages per second and time to first byte for a long game's page, against
serving a PNG file from disk on the same aiohttp server.

    python bench/web.py [--seconds 3] [--seeds 3]

Plays games of every title to the end with computer players (the most seats, seeds
1..``--seeds``), keeps the longest, stores it on a temporary SQLite file with its web link, and
serves :class:`bot.web.pages.Pages` on 127.0.0.1.  Then one client, one request at a time, for
``--seconds`` each:

* the game page at its last move (the move list, the players, the chart, the board's alt text
  and the board in words);
* the game page at moves spread over the game (each a replay from the nearest snapshot);
* the same, each page built afresh (the server's cache of built pages emptied before each);
* a board PNG already drawn (the server's cache);
* a Swiss league of 64 players after 6 rounds of 2-player games (seeded random places, each
  game a finished session of its own): its standings, rounds, links and season table;
* the same PNG bytes as a file from disk (``web.FileResponse``): the floor.

It prints requests per second, the median time to first byte, and the ratio against the file.
No computer game of these seeds reaches the 300 moves the figure was asked for (the longest of
the first 40 seeds of every title is 227 moves), so the longest one found stands in.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import aiohttp
from aiohttp import web

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engines  # noqa: E402
from bench.history import TITLES, store_game, whole_game  # noqa: E402
from bot.history import History  # noqa: E402
from bot.sessions import SessionService  # noqa: E402
from bot.storage import ResultRow, open_store  # noqa: E402
from bot.web.pages import Pages  # noqa: E402
from tests.league.sim import simulate  # noqa: E402

LEAGUE_PLAYERS = 64
LEAGUE_ROUNDS = 6


async def league_of_64(service: SessionService) -> int:
    """A Swiss league of 64 players, 6 rounds of 2-player P'achakuna played out (each game a
    session finished with the simulated places); returns its id."""
    store = service.store
    lid = await store.leagues.create_league(
        guild_id=1,
        channel_id=5000,
        organiser_id=1,
        name="Bench league",
        game="pachakuna",
        format="swiss",
        group_size=2,
        options={},
        points=(1.0, 0.0),
        bye_points=1.0,
        round_seconds=86400.0,
        rounds=LEAGUE_ROUNDS,
        timer_seconds=None,
        starts_at=0.0,
        seed=1,
    )
    users = {f"p{i}": 100 + i for i in range(LEAGUE_PLAYERS)}
    for name, uid in users.items():
        await store.leagues.join_league(lid, uid, name)
    await store.leagues.start_league(lid, store.clock.time(), LEAGUE_ROUNDS)
    season = simulate(list(users), 2, LEAGUE_ROUNDS, seed=2)
    channel = 6000
    for number, rnd in enumerate(season.rounds, 1):
        groups = [[users[p] for p in g] for g in rnd.groups]
        ids = await store.leagues.open_round(
            lid, number, groups, [users[p] for p in rnd.byes], store.clock.time() + 10
        )
        assert ids is not None
        results = [r for r in season.results if r.round == number]
        for gid, group, result in zip(ids, rnd.groups, results, strict=True):
            channel += 1
            first, second = group
            session = await service.lobby.create(
                "pachakuna", guild_id=1, channel_id=channel, host_id=users[first], host_name=first, seed=1
            )
            await service.lobby.join(channel, users[second], second)
            await store.leagues.attach_session(gid, session.id)
            await store.games.finish(
                session.id,
                status="finished",
                reason="bench",
                outcome=None,
                results=[
                    ResultRow(seat, users[p], 0.0, result.places[p], False) for seat, p in enumerate(group)
                ],
            )
        await store.leagues.close_round(lid, number)
    return lid


async def measure(
    http: aiohttp.ClientSession, urls: list[str], seconds: float, before: Callable[[], None] = lambda: None
) -> tuple[float, float]:
    """(requests per second, median milliseconds to the first byte) over ``urls`` in turn,
    ``before`` called before each request."""
    firsts: list[float] = []
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        before()
        url = urls[done % len(urls)]
        t = time.perf_counter()
        async with http.get(url) as reply:
            await reply.content.readany()
            firsts.append(time.perf_counter() - t)
            await reply.read()
            if reply.status != 200:
                raise SystemExit(f"{url} answered {reply.status}")
        done += 1
    return done / (time.perf_counter() - start), statistics.median(firsts) * 1000


async def main(seconds: float, seeds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(str(Path(tmp) / "bench.db"))
        service = SessionService(store)
        best = None
        for game in TITLES:
            info = engines.get(game)
            for seed in range(1, seeds + 1):
                played, final = whole_game(game, info.max_players, seed)
                if best is None or len(played) > len(best[2]):
                    best = (game, info.max_players, played, final, seed)
        assert best is not None
        game, players, played, final, seed = best
        sid = await store_game(service, game, players, seed, played, final)
        lid = await league_of_64(service)
        pages = Pages(service, History(service))
        token = await pages.links.token("game", sid)
        league = await pages.links.token("league", lid)
        app = web.Application()
        pages.add_routes(app)
        png_file = Path(tmp) / "board.png"

        async def from_disk(request: web.Request) -> web.FileResponse:
            return web.FileResponse(png_file)

        app.router.add_get("/file.png", from_disk)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        base = f"http://127.0.0.1:{port}"
        total = len(played)
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{base}/g/{token}/board/{total}.png") as reply:
                png_file.write_bytes(await reply.read())
            for n in range(0, total + 1, 16):  # every snapshot written once, as a reader would
                async with http.get(f"{base}/g/{token}?move={n}") as reply:
                    await reply.read()
            spread = [f"{base}/g/{token}?move={n}" for n in range(1, total, max(1, total // 20))]
            rows: list[tuple[str, list[str], Callable[[], None]]] = [
                ("game page, last move", [f"{base}/g/{token}"], lambda: None),
                ("game page, moves spread", spread, lambda: None),
                ("game page, built afresh", spread, pages.games.forget),
                ("board PNG (drawn once)", [f"{base}/g/{token}/board/{total}.png"], lambda: None),
                (f"league of {LEAGUE_PLAYERS} players", [f"{base}/l/{league}"], lambda: None),
                ("PNG file from disk", [f"{base}/file.png"], lambda: None),
            ]
            results = [(name, *await measure(http, urls, seconds, before)) for name, urls, before in rows]
        floor = results[-1][1]
        print(f"{game}, {players} players, {total} moves (the longest of seeds 1-{seeds})")
        print(f"{'what':26} {'per s':>8} {'TTFB ms':>8} {'file / this':>11}")
        for name, rate, first in results:
            print(f"{name:26} {rate:8.1f} {first:8.2f} {floor / rate:10.1f}x")
        await runner.cleanup()
        await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(main(args.seconds, args.seeds))
