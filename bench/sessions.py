"""What a move costs at the table: the commit against the raw driver, and moves/s and latency under load.

    python bench/sessions.py [--backends sqlite,postgres] [--commits 2000] [--moves 12] [--games 1,100,500]

For each back end (PostgreSQL: a throw-away server started from the machine's
installation, on a unix socket, as the tests do), two parts in the same run:

1. The commit.  ``store.games.record_moves`` (version check, log row with events and
   privacy mark, snapshot, version, deadline) timed against the raw driver doing
   the same writes in one transaction.  SQLite: the ``sqlite3`` module run in
   one call on a worker thread (what an asyncio program must do to keep the
   loop free); and both again with each commit synced to the disk
   (``SQLITE_SYNC=full``, the bot's default, against ``synchronous = FULL``),
   with what that sync adds to a commit.  PostgreSQL: asyncpg, statement by statement inside
   ``BEGIN``/``COMMIT`` (the ordinary way), and also as one statement (a CTE,
   the fewest trips the writes can take), and that one statement on a connection
   taken from a pool and given back for each commit (what a program serving many
   games at once does).  Prints the times and the ratios (goal: 1.5x or less).
   PostgreSQL also: the commit a person's move makes (``store.games.play_moves``, which
   hands back the session's row) against that pooled raw statement.
   Then a whole move, ``SessionService.play_in`` (under the session's lock, from
   the copy of the game the service holds, the engine's check, the commit, the
   session handed back to post), timed against its commit alone
   (``store.games.play_moves``; goal: 1.5x or less).
2. The table under load.  Nim (the table's test game) played through the real
   session service on a temporary database by 1, 100 and 500 games at once,
   each game a task that plays ``--moves`` moves (a new game starts when one
   ends).  Prints moves per second and the 50th and 99th percentile of one
   move's latency (the time ``SessionService.play`` takes, waiting included;
   goal at 500 games: p99 under 100 ms).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engines  # noqa: E402
from bot.sessions import Session, SessionService  # noqa: E402
from bot.storage import NewMove, Store, open_store  # noqa: E402
from bot.time.source import stamp_of  # noqa: E402
from tests.support import nim  # noqa: E402
from tests.support.pg import Cluster  # noqa: E402

engines.register(engines.GameInfo("nim", "Nim", "tests.support.nim", None, 1, 4))

STATE = {"piles": [3, 5, 7, 9, 11], "turn": 1, "secrets": [4, 8], "moves": 12, "last": "B2", "seed": 7}
EVENTS = [{"kind": "took", "seat": 0, "args": {"pile": "B", "count": 2}, "to": None}]
PRIVACY = {"public": True}
TURN = 4  # the engine's turn number the log keeps with each move


# ----------------------------------------------------------------------------- the commit


async def new_active(store: Store, channel: int) -> tuple[int, int]:
    sid = await store.games.create_session(
        game="nim",
        guild_id=1,
        channel_id=channel,
        host_id=1,
        host_name="a",
        options={},
        max_players=2,
        seed=1,
    )
    version = (await store.games.start(sid, {0: 0}, {}, STATE)).version
    return sid, version


ROUNDS = 20


async def interleaved(
    committers: dict[str, Callable[[], Awaitable[object]]],
    commits: int,
    prepare: dict[str, Callable[[int], Awaitable[object]]] | None = None,
) -> dict[str, float]:
    """Seconds per commit of each committer, timed in ``ROUNDS`` alternating rounds (the median
    round), so that a change in the machine's load touches them all alike.  ``prepare[name]``,
    when given, runs untimed before each of that committer's rounds, told how many commits
    the round makes."""
    per_round = max(1, commits // ROUNDS)
    times: dict[str, list[float]] = {name: [] for name in committers}
    for _ in range(ROUNDS):
        for name, commit in committers.items():
            if prepare and name in prepare:
                await prepare[name](per_round)
            t0 = time.perf_counter()
            for _ in range(per_round):
                await commit()
            times[name].append((time.perf_counter() - t0) / per_round)
    return {name: statistics.median(values) for name, values in times.items()}


async def store_committer(store: Store):
    sid, version = await new_active(store, 1)
    move = NewMove(0, "B2", False, EVENTS, PRIVACY, TURN)

    async def commit() -> None:
        nonlocal version
        version = await store.games.record_moves(sid, version, [move], STATE)

    return commit


async def play_committer(store: Store, channel: int):
    """The commit a person's move makes (``store.games.play_moves``: the same writes, handing back the
    session's row as committed)."""
    sid, version = await new_active(store, channel)
    move = NewMove(0, "B2", False, EVENTS, PRIVACY, TURN)

    async def commit() -> None:
        nonlocal version
        version = (await store.games.play_moves(sid, version, [move], STATE)).version

    return commit


def piles(session: Session) -> list[int]:
    """A Nim game's piles (the table holds a game's state without looking inside; this bench
    knows its game)."""
    assert isinstance(session.state, nim.State)
    return session.state.piles


class MoveCommitter:
    """Moves played through ``SessionService.play_in`` (Nim games between two people, a stone at a
    time), the whole of what the table does for a move: the read under the session's lock, the
    engine's check, the commit and the session handed back to post.  Enough games for a round
    are opened before it (untimed), and each is left one stone before its end, so no round pays
    for a game's start or results."""

    def __init__(self, store: Store, channel: int):
        self.service = SessionService(store)
        self.channel = channel
        self.ready: list = []  # games with moves left, the one being played first

    async def prepare(self, moves: int) -> None:
        while sum(sum(piles(s)) - 1 for s in self.ready) < moves:
            self.channel += 1
            self.ready.append(await fresh(self.service, self.channel, self.channel))

    async def __call__(self) -> None:
        session = self.ready[0]
        (seat,) = session.to_move()
        pile = next(i for i, n in enumerate(piles(session)) if n)
        text = "ABCDE"[pile] + "1"
        session = (await self.service.play.play_in(session.id, session.by_seat(seat).user_id, text)).session
        if sum(piles(session)) > 1:
            self.ready[0] = session
        else:
            self.ready.pop(0)


def raw_sqlite_commit(con: sqlite3.Connection, sid: int, version: int) -> int:
    """The same writes with the bare driver: version check, log row, snapshot and version, one transaction."""
    stamp = stamp_of(time.time())
    con.execute("BEGIN IMMEDIATE")
    try:
        cur = con.execute(
            "UPDATE sessions SET state = ?, version = version + 1, updated_at = ?"
            " WHERE id = ? AND version = ? AND status = 'active'",
            (json.dumps(STATE), stamp, sid, version),
        )
        if cur.rowcount != 1:
            raise RuntimeError("stale")
        con.execute(
            "INSERT INTO moves (session_id, number, seat, move, by_computer, created_at, events, privacy, turn)"
            " SELECT ?, COALESCE(MAX(number), 0) + 1, ?, ?, ?, ?, ?, ?, ? FROM moves WHERE session_id = ?",
            (sid, 0, "B2", 0, stamp, json.dumps(EVENTS), json.dumps(PRIVACY), TURN, sid),
        )
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return version + 1


@contextlib.asynccontextmanager
async def raw_sqlite_committer(path: Path, synchronous: str = "NORMAL"):
    store = await open_store(path)
    try:
        sid, version = await new_active(store, 2)
    finally:
        await store.close()
    con = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    con.execute("PRAGMA journal_mode = WAL")
    con.execute(f"PRAGMA synchronous = {synchronous}")
    con.execute("PRAGMA foreign_keys = ON")
    loop = asyncio.get_running_loop()

    with ThreadPoolExecutor(1) as worker:

        async def commit() -> None:
            nonlocal version
            version = await loop.run_in_executor(worker, raw_sqlite_commit, con, sid, version)

        try:
            yield commit
        finally:
            con.close()


# ----------------------------------------------------------------------------- the table under load


async def fresh(service: SessionService, channel: int, seed: int):
    await service.lobby.create(
        "nim",
        guild_id=1,
        channel_id=channel,
        host_id=channel * 10,
        host_name="a",
        options={"piles": 5},
        seed=seed,
    )
    await service.lobby.join(channel, channel * 10 + 1, "b")
    return (await service.lobby.start(channel, channel * 10)).session


async def one_game(
    service: SessionService, session, moves: int, latencies: list[float], pace: random.Random | None
) -> int:
    """Play ``moves`` moves in one channel (a new game when one ends); with ``pace``, think 1-3 s first."""
    channel = session.row.channel_id
    done = 0
    while done < moves:
        if pace is not None:
            await asyncio.sleep(pace.uniform(1.0, 3.0))
        if session.status != "active":
            session = await fresh(service, channel, channel + done)
        (seat,) = session.to_move()
        uid = session.by_seat(seat).user_id
        move = str(session.engine.legal_moves(session.state, seat)[0])
        t0 = time.perf_counter()
        session = (await service.play.play(channel, uid, move)).session
        latencies.append(time.perf_counter() - t0)
        done += 1
    return done


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


async def load(store: Store, games: int, moves: int, *, paced: bool) -> tuple[int, float, list[float]]:
    """``games`` games opened first, then all playing at once; (moves, seconds, latencies)."""
    service = SessionService(store)
    sessions = await asyncio.gather(*(fresh(service, 1000 + i, i) for i in range(games)))
    latencies: list[float] = []
    t0 = time.perf_counter()
    counts = await asyncio.gather(
        *(
            one_game(service, s, moves, latencies, random.Random(i) if paced else None)
            for i, s in enumerate(sessions)
        )
    )
    return sum(counts), time.perf_counter() - t0, latencies


RAW_PG_UPDATE = (
    "UPDATE sessions SET state = $1, version = version + 1, updated_at = $2"
    " WHERE id = $3 AND version = $4 AND status = 'active'"
)
RAW_PG_INSERT = (
    "INSERT INTO moves (session_id, number, seat, move, by_computer, created_at, events, privacy, turn)"
    " SELECT $1, COALESCE(MAX(number), 0) + 1, 0, 'B2', 0, $2, $3, $4, $5 FROM moves WHERE session_id = $1"
)
RAW_PG_ONE = (
    "WITH up AS (UPDATE sessions SET state = $1, version = version + 1, updated_at = $2"
    " WHERE id = $3 AND version = $4 AND status = 'active' RETURNING id)"
    " INSERT INTO moves (session_id, number, seat, move, by_computer, created_at, events, privacy, turn)"
    " SELECT up.id, (SELECT COALESCE(MAX(number), 0) + 1 FROM moves WHERE session_id = up.id), 0, 'B2', 0,"
    " $2, $5, $6, $7 FROM up"
)


@contextlib.asynccontextmanager
async def raw_postgres_committer(url: str, *, one_statement: bool):
    """asyncpg doing the same writes: in a transaction statement by statement, or as one statement."""
    import asyncpg

    store = await open_store(url)
    try:
        sid, version = await new_active(store, 3 if one_statement else 2)
    finally:
        await store.close()
    conn = await asyncpg.connect(url)
    events, privacy = json.dumps(EVENTS), json.dumps(PRIVACY)

    async def commit() -> None:
        nonlocal version
        stamp = stamp_of(time.time())
        if one_statement:
            status = await conn.execute(
                RAW_PG_ONE, json.dumps(STATE), stamp, sid, version, events, privacy, TURN
            )
            if status != "INSERT 0 1":
                raise RuntimeError("stale")
        else:
            async with conn.transaction():
                status = await conn.execute(RAW_PG_UPDATE, json.dumps(STATE), stamp, sid, version)
                if status != "UPDATE 1":
                    raise RuntimeError("stale")
                await conn.execute(RAW_PG_INSERT, sid, stamp, events, privacy, TURN)
        version += 1

    try:
        yield commit
    finally:
        await conn.close()


@contextlib.asynccontextmanager
async def pooled_postgres_committer(url: str):
    """The same writes as one statement on a connection taken from an asyncpg pool and given back
    (as the store's pool: no reset on release), per commit."""
    import asyncpg

    from bot.storage.postgres import POOL_SIZE, _keep_session

    store = await open_store(url)
    try:
        sid, version = await new_active(store, 4)
    finally:
        await store.close()
    pool = await asyncpg.create_pool(url, min_size=1, max_size=POOL_SIZE, reset=_keep_session)
    events, privacy = json.dumps(EVENTS), json.dumps(PRIVACY)

    async def commit() -> None:
        nonlocal version
        stamp = stamp_of(time.time())
        status = await pool.execute(RAW_PG_ONE, json.dumps(STATE), stamp, sid, version, events, privacy, TURN)
        if status != "INSERT 0 1":
            raise RuntimeError("stale")
        version += 1

    try:
        yield commit
    finally:
        await pool.close()


class Databases:
    """Fresh databases of one back end: files in a folder, or databases on a throw-away server."""

    def __init__(self, backend: str, folder: Path):
        self.backend = backend
        self.folder = folder
        self.cluster = Cluster().start() if backend == "postgres" else None
        self.count = 0

    async def new(self) -> str:
        self.count += 1
        if self.cluster is None:
            return str(self.folder / f"bench{self.count}.db")
        return self.cluster.url(await self.cluster.create_database())

    def close(self) -> None:
        if self.cluster is not None:
            self.cluster.stop()


async def run_backend(backend: str, folder: Path, commits: int, moves: int, sizes: list[int]) -> None:
    databases = Databases(backend, folder)
    try:
        store = await open_store(await databases.new())
        try:
            mine = await store_committer(store)
            played = await play_committer(store, 5)
            if backend == "sqlite":
                async with raw_sqlite_committer(Path(await databases.new())) as raw:
                    t = await interleaved({"store": mine, "raw": raw}, commits)
                print(
                    f"{backend}: commit {1000 * t['store']:.3f} ms, raw driver {1000 * t['raw']:.3f} ms: "
                    f"ratio {t['store'] / t['raw']:.2f}x (goal 1.5x or less)"
                )
                await durable_sqlite(databases, commits, t["store"])
            else:
                url = await databases.new()
                async with (
                    raw_postgres_committer(url, one_statement=False) as raw,
                    raw_postgres_committer(url, one_statement=True) as single,
                    pooled_postgres_committer(url) as pooled,
                ):
                    t = await interleaved(
                        {"store": mine, "play": played, "raw": raw, "single": single, "pooled": pooled},
                        commits,
                    )
                print(
                    f"{backend}: commit {1000 * t['store']:.3f} ms, raw driver {1000 * t['raw']:.3f} ms in a"
                    f" transaction ({1000 * t['single']:.3f} ms as one statement): ratio"
                    f" {t['store'] / t['raw']:.2f}x ({t['store'] / t['single']:.2f}x) (goal 1.5x or less)"
                )
                print(
                    f"{backend}: commit {1000 * t['store']:.3f} ms, one raw statement on a pooled connection"
                    f" {1000 * t['pooled']:.3f} ms: ratio {t['store'] / t['pooled']:.2f}x (goal 1.5x or less)"
                )
                print(
                    f"{backend}: a move's commit (store.games.play_moves) {1000 * t['play']:.3f} ms, one raw statement"
                    f" on a pooled connection {1000 * t['pooled']:.3f} ms: ratio {t['play'] / t['pooled']:.2f}x"
                    " (goal 1.5x or less)"
                )
            move = MoveCommitter(store, 100)
            t = await interleaved({"move": move, "commit": played}, commits, prepare={"move": move.prepare})
            print(
                f"{backend}: a move (SessionService.play_in) {1000 * t['move']:.3f} ms, its commit alone"
                f" (store.games.play_moves) {1000 * t['commit']:.3f} ms: ratio {t['move'] / t['commit']:.2f}x"
                " (goal 1.5x or less)",
                flush=True,
            )
        finally:
            await store.close()
        for games in sizes:
            for paced in (False, True):
                store = await open_store(await databases.new())
                try:
                    total, seconds, latencies = await load(store, games, moves, paced=paced)
                finally:
                    await store.close()
                how = "at a player's pace" if paced else "as fast as they can"
                print(
                    f"{backend}: {games:>3} game(s) {how}: {total} moves in {seconds:.2f} s"
                    f" = {total / seconds:,.1f} moves/s; latency p50 {1000 * statistics.median(latencies):.1f} ms,"
                    f" p99 {1000 * percentile(latencies, 99):.1f} ms",
                    flush=True,
                )
    finally:
        databases.close()


async def durable_sqlite(databases: Databases, commits: int, normal: float) -> None:
    """The commit with each one synced to the disk (``SQLITE_SYNC=full``, the bot's default)
    against the raw driver doing the same (``synchronous = FULL``), and what the sync adds."""
    store = await open_store(await databases.new(), durable=True)
    try:
        mine = await store_committer(store)
        async with raw_sqlite_committer(Path(await databases.new()), "FULL") as raw:
            t = await interleaved({"store": mine, "raw": raw}, commits)
    finally:
        await store.close()
    print(
        f"sqlite, SQLITE_SYNC=full (the default): commit {1000 * t['store']:.3f} ms, raw driver syncing too"
        f" {1000 * t['raw']:.3f} ms: ratio {t['store'] / t['raw']:.2f}x (goal 1.5x or less); the sync"
        f" adds {1000 * (t['store'] - normal):.3f} ms a commit to normal's {1000 * normal:.3f} ms"
    )


async def run(backends: list[str], commits: int, moves: int, sizes: list[int]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for backend in backends:
            await run_backend(backend, Path(tmp), commits, moves, sizes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commits", type=int, default=2000, help="commits timed for the ratio")
    parser.add_argument("--moves", type=int, default=12, help="moves each game plays in the load test")
    parser.add_argument(
        "--games", default="1,100,500", help="games at once, comma-separated (empty: no load test)"
    )
    parser.add_argument("--backends", default="sqlite,postgres", help="sqlite, postgres or both")
    args = parser.parse_args()
    backends = [b.strip() for b in args.backends.split(",")]
    asyncio.run(run(backends, args.commits, args.moves, [int(g) for g in args.games.split(",") if g]))


if __name__ == "__main__":
    main()
