"""Time the real bot against the Discord stand-in: start to READY, and interaction round trips.

    python bench/discord_roundtrip.py [--rounds 30] [--seed 1]

Starts the stand-in on 127.0.0.1, runs PukllayBot (with the table and the Nim
test game) on a temporary database, and prints the median and worst time for:
the client reaching READY, /game status answered, autocomplete answered, and a
move by slash command until its board image is in the channel.  Its games are seeded
``--seed``, ``--seed`` + 1, ... (the piles, and so the moves autocomplete offers, are the same on
every run).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import tests.conftest  # noqa: E402,F401  (registers the Nim test game)
from bot.app import PukllayBot  # noqa: E402
from bot.settings import Settings  # noqa: E402
from tests.standin import StandIn  # noqa: E402


def show(label: str, samples: list[float]) -> None:
    ms = [1000 * s for s in samples]
    print(f"{label:32s} median {statistics.median(ms):7.1f} ms   worst {max(ms):7.1f} ms   (n={len(ms)})")


async def run(rounds: int, seed: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with StandIn(interaction_timeout=3.0, wait_timeout=30.0) as discord_:
            alice, bob = discord_.add_users("alice", "bob")
            chan = discord_.channel("games")
            settings = Settings(
                token="bench", database_path=str(Path(tmp) / "b.db"), dev_guild_id=discord_.guild.id
            )

            def make(connector):
                return PukllayBot(
                    settings,
                    extensions=("cogs.table", "tests.support.nim_cog"),
                    connector=connector,
                    guild_ready_timeout=0.01,
                )

            ready, status, complete, moves = [], [], [], []
            for _ in range(5):
                t = time.perf_counter()
                async with discord_.run_client(make):
                    ready.append(time.perf_counter() - t)
            async with discord_.run_client(make) as bot:
                seeds = itertools.count(seed)
                bot.sessions.new_seed = lambda: next(seeds)
                await discord_.wait_synced()
                for _ in range(rounds):
                    lobby = (await discord_.slash(alice, chan, "nim new", thread=False, piles=5)).message
                    if lobby is None:
                        raise SystemExit("the lobby was not posted")
                    await discord_.click(bob, lobby, "Join")
                    discord_.skip_messages(chan)
                    await discord_.click(alice, lobby, "Start")
                    await discord_.next_message(chan, lambda m: bool(m.files) and not m.ephemeral)
                    session = await bot.sessions.core.in_channel(chan.id)
                    (seat,) = session.to_move()
                    uid = session.by_seat(seat).user_id
                    mover = alice if uid == alice.id else bob
                    t = time.perf_counter()
                    await (await discord_.slash(mover, chan, "game status")).original()
                    status.append(time.perf_counter() - t)
                    t = time.perf_counter()
                    choices = await discord_.autocomplete(mover, chan, "nim move", "move", move="")
                    complete.append(time.perf_counter() - t)
                    t = time.perf_counter()
                    # a whole move: with many, autocomplete offers the start of several first ("A"),
                    # which a person types on from
                    legal = {str(m) for m in await bot.sessions.play.legal_moves(chan.id, mover.id)}
                    while (move := choices[0]["value"]) not in legal:
                        choices = await discord_.autocomplete(mover, chan, "nim move", "move", move=move)
                    r = await discord_.slash(mover, chan, "nim move", move=move)
                    await discord_.next_message(chan, lambda m: bool(m.files) and not m.ephemeral)
                    moves.append(time.perf_counter() - t)
                    await r.original(lambda m: "You played" in m.content)
                    await (await discord_.slash(alice, chan, "game abandon")).original()
    show("start to READY (with sync)", ready)
    show("/game status answered", status)
    show("autocomplete answered", complete)
    show("move -> board in channel", moves)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    args = parser.parse_args()
    asyncio.run(run(args.rounds, args.seed))


if __name__ == "__main__":
    main()
