"""Two bot processes, two shards, one PostgreSQL: races, deadlines, a kill and a restart.

Each process serves one shard of two (SHARD_COUNT=2, SHARD_IDS=0 or 1) against
the Discord stand-in, which sends each guild's interactions to its shard's
process; both share one PostgreSQL database and both run the scheduler.  Turn
deadlines are made due by moving their time into the past in the database (as
if the hour had passed), while the players move at the same moment: a move and
a deadline racing in two processes are settled by the version check, so each
game moves exactly once.  Then one process is killed with moves in flight and a
deadline it held (a claim whose lease runs out) is fired by the other; it is
restarted and play goes on.  At the end every game replays from its seed and
log to its stored state, its log is numbered without gaps, its version counts
its moves, and its deadline is armed once for its current version.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from bot.sessions import SessionService
from bot.storage import DEADLINE, open_store
from engines.core import TABLE
from tests.conftest import Database
from tests.standin.fixtures import DEFAULT_OPTIONS
from tests.support import nim

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def standin_options() -> dict:
    """Discord's own 3 s to answer; waits long enough for separate processes to start."""
    return {**DEFAULT_OPTIONS, "wait_timeout": 30.0}


class BotProcess:
    """``python -m tests.standin.launch ... tests.e2e.processes:make`` serving one shard of two."""

    def __init__(self, standin, url: str, shard: int, folder: Path):
        self.standin, self.url, self.shard = standin, url, shard
        self.log = folder / f"shard{shard}.log"
        self.proc: subprocess.Popen | None = None
        self.runs = 0

    def start(self) -> None:
        argv, extra = self.standin.child_command("tests.e2e.processes:make")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "DEV_GUILD", "SHARD_"))}
        env |= extra | {
            "PYTHONPATH": str(ROOT),
            "DATABASE_URL": self.url,
            "SHARD_COUNT": "2",
            "SHARD_IDS": str(self.shard),
            "JOB_POLL_SECONDS": "0.2",
            "SYNC_COMMANDS": "yes",
            "LOG_LEVEL": "INFO",
        }
        self.runs += 1
        with self.log.open("a") as out:
            out.write(f"--- run {self.runs}\n")
            out.flush()
            self.proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)

    async def stop(self) -> int | None:
        """SIGTERM, and the process's end awaited (in a thread: the stand-in, in this event loop,
        answers what the process still sends as it closes)."""
        if self.proc is None or self.proc.poll() is not None:
            return None if self.proc is None else self.proc.returncode
        self.proc.send_signal(signal.SIGTERM)
        try:
            return await asyncio.to_thread(self.proc.wait, 30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return await asyncio.to_thread(self.proc.wait, 30)

    def problems(self) -> list[str]:
        text = self.log.read_text()
        return [line for line in text.splitlines() if " ERROR " in line or "Traceback" in line]


async def until(check, what: str, seconds: float = 30.0):
    """Wait until the coroutine function ``check`` returns a true value (the database is polled)."""
    deadline = time.monotonic() + seconds
    while True:
        value = await check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


def is_board(message) -> bool:
    return bool(message.files) and not message.ephemeral


async def open_game(standin, chan, alice, bob):
    lobby = await standin.slash(alice, chan, "nim new", thread=False, piles=5)
    await standin.click(bob, lobby.message, "Join")
    standin.skip_messages(chan)
    await standin.click(alice, lobby.message, "Start")
    await standin.next_message(chan, is_board)
    timer = await standin.slash(alice, chan, "game timer", hours=1)
    assert "Done" in (await timer.original()).content


async def timers_run_out(db, session_ids):
    """The turn timers of these games ran out: their running clocks started at the epoch."""
    for sid in session_ids:
        ((text,),) = await db.fetch("SELECT clock_state FROM sessions WHERE id = ?", sid)
        state = json.loads(text)
        state["since"] = {seat: 0.0 for seat in state["since"]}
        await db.execute("UPDATE sessions SET clock_state = ? WHERE id = ?", json.dumps(state), sid)


async def mover_of(service, chan, users):
    session = await service.core.in_channel(chan.id)
    (seat,) = session.to_move()
    uid = session.by_seat(seat).user_id
    user = next(u for u in users if u.id == uid)
    return session, user, str(nim.legal_moves(session.state, seat)[0])


async def test_two_shard_processes_share_one_database(standin, pg_cluster, pg_template, tmp_path):
    home = standin.shard_of(standin.guild, 2)
    second = standin.add_guild("Second", shard=(1 - home, 2))
    alice, bob = users = standin.add_users("alice", "bob")
    for u in users:
        standin.join(u, second)
    chans = [
        standin.channel("games"),
        standin.channel("general"),
        second.channel("games"),
        second.channel("general"),
    ]
    serving = {chan.id: (home if chan.guild is standin.guild else 1 - home) for chan in chans}

    name = await pg_cluster.create_database(pg_template)
    url = pg_cluster.url(name)
    db = Database("postgres", url)
    store = await open_store(url)  # the test's own view of the shared database
    service = SessionService(store)
    bots = [BotProcess(standin, url, shard, tmp_path) for shard in (0, 1)]
    try:
        for b in bots:
            b.start()
        await standin.wait_shards((0, 2), (1, 2))
        await standin.wait_synced()  # by the process serving shard 0, the only one that syncs
        for chan in chans:
            await open_game(standin, chan, alice, bob)
        sessions = {chan.id: await service.core.in_channel(chan.id) for chan in chans}
        start_version = {cid: s.version for cid, s in sessions.items()}
        assert all(s.status == "active" for s in sessions.values())
        assert len(await store.jobs.pending(DEADLINE)) == len(chans)

        # -- 1. Every deadline comes due while every mover moves: each game moves exactly once.
        before = {cid: len(await store.history.moves(s.id)) for cid, s in sessions.items()}
        moves = [await mover_of(service, chan, users) for chan in chans]
        boards_before = {chan.id: len(standin.messages(chan)) for chan in chans}
        await timers_run_out(db, [s.id for s in sessions.values()])
        await db.execute("UPDATE jobs SET due_at = 0 WHERE kind = ?", DEADLINE)
        results = await asyncio.gather(
            *(
                standin.slash(user, chan, "nim move", move=move)
                for chan, (_, user, move) in zip(chans, moves, strict=True)
            )
        )
        answers = [
            (await r.original()).text for r in results
        ]  # a stale move is answered with its view (components v2)

        async def deadlines_settled():
            for chan in chans:
                session = await service.core.in_channel(chan.id)
                job = await store.jobs.job(DEADLINE, str(session.id))
                if job is None or job.payload["version"] != session.version or job.due_at < 1:
                    return False
            return True

        await until(deadlines_settled, "every deadline to be fired or re-armed")
        for chan, answer in zip(chans, answers, strict=True):
            session = await service.core.in_channel(chan.id)
            log = await store.history.moves(session.id)
            assert len(log) == before[chan.id] + 1, (chan.name, [m.move for m in log])
            accepted = "You played" in answer
            skipped = log[-1].seat == TABLE
            assert accepted != skipped, (answer, log[-1])
            if skipped:
                assert "changed" in answer or "turn" in answer, answer

                def time_is_up(c=chan):
                    return [
                        m for m in standin.messages(c)[boards_before[c.id] :] if "Time is up" in m.content
                    ]

                await standin.wait_for(time_is_up, what=f"the deadline's board in #{chan.name}")
        for chan in chans:
            ups = [m for m in standin.messages(chan) if "Time is up" in m.content]
            skips = [m for m in await store.history.moves(sessions[chan.id].id) if m.seat == TABLE]
            assert len(ups) == len(skips)  # each deadline acted once, and said so once

        # -- 2. Kill the process of the second guild with moves in flight; a deadline it "held" is
        #       fired by the other process once the claim's lease runs out; then restart it.
        victim = bots[1 - home]
        theirs = [c for c in chans if serving[c.id] == 1 - home]
        held = await service.core.in_channel(theirs[0].id)
        held_moves = len(await store.history.moves(held.id))
        standin.skip_messages(theirs[0])
        await timers_run_out(db, [held.id])
        await db.execute(
            "UPDATE jobs SET due_at = 0, claimed_by = 'killed', claim = 'gone', claimed_until = ?"
            " WHERE kind = ? AND key = ?",
            time.time() + 2,
            DEADLINE,
            str(held.id),
        )
        in_flight = [await mover_of(service, chan, users) for chan in theirs[1:]]
        for chan, (_, user, move) in zip(theirs[1:], in_flight, strict=True):
            await standin.slash(user, chan, "nim move", move=move, wait=False)
        victim.kill()
        await standin.wait_for(
            lambda: (1 - home, 2) not in standin.shards_connected(),
            what="the killed process's session to close",
        )

        async def held_fired():
            # a new move by the table (the game may already hold a skip from the deadlines above)
            moves = await store.history.moves(held.id)
            return len(moves) > held_moves and moves[-1].seat == TABLE

        await until(held_fired, "the held deadline to be fired by the other process")
        assert len(await store.history.moves(held.id)) == held_moves + 1
        # ... and that process, which does not serve the game's server, posted its board all the same.
        await standin.next_message(theirs[0], lambda m: is_board(m) and "Time is up" in m.content)
        held_after = await service.core.get(held.id)
        job = await store.jobs.job(DEADLINE, str(held.id))
        assert job.payload["version"] == held_after.version and job.claimed_by is None
        victim.start()
        await standin.wait_shards((1 - home, 2))

        # -- 3. Play goes on in every game, in both processes.
        for chan in chans:
            session, user, move = await mover_of(service, chan, users)
            answer = await (await standin.slash(user, chan, "nim move", move=move)).original()
            assert "You played" in answer.content, answer.content
            assert (await service.core.in_channel(chan.id)).version == session.version + 1
    finally:
        codes = [await b.stop() for b in bots]
    try:
        # -- Afterwards: nothing twice, nothing lost, nothing half done.
        for chan in chans:
            session = await service.core.in_channel(chan.id)
            log = await store.history.moves(session.id)
            assert [m.number for m in log] == list(range(1, len(log) + 1))
            assert session.version == start_version[chan.id] + len(log)
            assert nim.to_dict(await service.logbook.replay(session.id)) == nim.to_dict(session.state)
            (job,) = [j for j in await store.jobs.pending(DEADLINE) if j.key == str(session.id)]
            assert job.payload["version"] == session.version
        assert len(await store.jobs.pending(DEADLINE)) == len(chans)
        assert codes == [0, 0], [b.log.read_text()[-3000:] for b in bots]
        for b in bots:
            assert b.problems() == [], b.log.read_text()[-3000:]
    finally:
        await store.close()
        await pg_cluster.drop_database(name)
