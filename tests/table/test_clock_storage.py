"""Game clocks in storage, on both back ends: the spec and running clocks on the session, written
with a move in its transaction, and the deadline armed from them."""

from __future__ import annotations

import pytest

from bot.storage import StaleVersion
from bot.storage.base import DEADLINE


async def new_clocked(store, clock_text="bank:3d+12h", timer=3 * 86400.0):
    sid = await store.games.create_session(
        game="nim",
        guild_id=1,
        channel_id=5,
        host_id=1,
        host_name="a",
        options={},
        max_players=2,
        seed=1,
        clock=clock_text,
        timer_seconds=timer,
    )
    return sid


async def test_a_lobby_carries_its_clock_and_the_start_arms_the_first_deadline(store, clock):
    sid = await new_clocked(store)
    row = await store.games.session(sid)
    assert row.clock == "bank:3d+12h" and row.clock_state is None and row.timer_seconds == 3 * 86400
    v = (await store.games.start(sid, {0: 0}, {}, {"n": 0})).version
    job = await store.jobs.job(DEADLINE, str(sid))
    assert job.due_at == clock.time() + 3 * 86400 and job.payload == {"version": v}


async def test_a_move_writes_its_clocks_and_deadline_in_one_transaction(store, clock):
    sid = await new_clocked(store)
    v = (await store.games.start(sid, {0: 0}, {}, {"n": 0})).version
    clock.advance(3600)
    banks = {"banks": {"0": 1.0}, "since": {"1": clock.time()}, "pending": {}, "taken": {}}
    v2 = await store.games.record_moves(sid, v, [(0, "A1", False)], {"n": 1}, clock=(banks, 7200.0))
    row = await store.games.session(sid)
    assert row.clock_state == banks and row.timer_seconds == 7200.0 and row.version == v2
    job = await store.jobs.job(DEADLINE, str(sid))
    assert job.due_at == clock.time() + 7200 and job.payload == {"version": v2}
    # a stale move writes neither the move nor its clocks
    with pytest.raises(StaleVersion):
        await store.games.record_moves(sid, v, [(0, "A2", False)], {"n": 9}, clock=({"banks": {}}, 5.0))
    row = await store.games.session(sid)
    assert row.clock_state == banks and row.timer_seconds == 7200.0
    # no clock running: no deadline
    await store.games.record_moves(sid, v2, [(0, "A3", False)], {"n": 2}, clock=({"banks": {}}, None))
    assert await store.jobs.job(DEADLINE, str(sid)) is None
    assert (await store.games.session(sid)).timer_seconds is None


async def test_set_clock_checks_the_version_and_rearms(store, clock):
    sid = await new_clocked(store)
    v = (await store.games.start(sid, {0: 0}, {}, {"n": 0})).version
    assert not await store.games.set_clock(sid, "move:1h", {"banks": {}}, 60.0, expected_version=v + 1)
    assert (await store.games.session(sid)).clock == "bank:3d+12h"
    assert await store.games.set_clock(sid, "move:1h", {"banks": {"0": 3600.0}}, 3600.0, expected_version=v)
    row = await store.games.session(sid)
    assert row.clock == "move:1h" and row.clock_state == {"banks": {"0": 3600.0}}
    assert (await store.jobs.job(DEADLINE, str(sid))).due_at == clock.time() + 3600
    assert await store.games.set_clock(sid, None, None, None)  # off: no clock, no deadline
    row = await store.games.session(sid)
    assert row.clock is None and row.clock_state is None and row.timer_seconds is None
    assert await store.jobs.job(DEADLINE, str(sid)) is None


async def test_unreadable_clock_state_marks_the_row_not_the_list(store, database):
    sid = await new_clocked(store)
    await database.execute("UPDATE sessions SET clock_state = '{not json' WHERE id = ?", sid)
    row = await store.games.session(sid)
    assert row.unreadable and "clock" in row.unreadable
