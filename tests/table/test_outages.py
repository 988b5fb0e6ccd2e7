"""The bot's outages in storage, on both back ends (bot.storage.outages), and their arithmetic in
the clocks (bot.time.gameclock.joined)."""

from __future__ import annotations

import logging

from bot.storage.outages import LEAST, shard_of
from bot.time import gameclock as gc
from bot.time.alive import Heartbeat

A_GUILD = 1234 << 22  # (guild ids carry their time in the high bits: this one's shard is 1234 % count)


async def test_the_first_start_keeps_no_outage_and_a_stop_longer_than_two_minutes_is_kept(store, clock):
    assert await store.outages.back(1, [0]) == []
    clock.advance(30)
    await store.outages.alive(1, [0])
    seen = clock.time()
    clock.advance(LEAST)  # (as long as two missed beats: no outage)
    assert await store.outages.back(1, [0]) == []
    assert await store.outages.of_guild(A_GUILD) == []
    restarted = clock.time()
    clock.advance(3 * 3600)
    assert await store.outages.back(1, [0]) == [(restarted, restarted + 3 * 3600)]
    assert await store.outages.of_guild(A_GUILD) == [(restarted, restarted + 3 * 3600)]
    assert await store.outages.of_guild(None) == [(restarted, restarted + 3 * 3600)]  # direct messages
    assert seen < restarted


async def test_each_shard_has_its_own_outages_and_a_new_layout_starts_from_the_old_ones(store, clock):
    await store.outages.back(2, [0])
    await store.outages.back(2, [1])
    clock.advance(3600)
    await store.outages.alive(2, [0])  # shard 0's process runs on; shard 1's stopped an hour ago
    clock.advance(3600)
    (one,) = await store.outages.back(2, [1])
    assert one == (clock.time() - 7200, clock.time())
    mine = A_GUILD  # 1234 % 2 == 0: shard 0
    other = A_GUILD + (1 << 22)  # shard 1
    assert shard_of(mine, 2) == 0 and shard_of(other, 2) == 1
    assert await store.outages.of_guild(mine) == [] and await store.outages.of_guild(other) == [one]
    # counted anew as three shards: each takes the last sign of life of the layout before
    clock.advance(600)
    kept = await store.outages.back(3, [0, 1, 2])
    assert kept == [(clock.time() - 600, clock.time())] * 3
    assert len(await store.outages.of_guild(other)) == 2  # shard 1 of 2 and 1234+1 % 3 == 2 of 3


async def test_a_store_opened_again_reads_the_outages_kept(database, clock):
    store = await database.open(clock)
    try:
        await store.outages.back(1, [0])
        clock.advance(3600)
        kept = await store.outages.back(1, [0])
    finally:
        await store.close()
    again = await database.open(clock)
    try:
        assert kept and await again.outages.of_guild(A_GUILD) == kept
    finally:
        await again.close()


def test_periods_of_several_sources_are_joined_so_that_no_time_is_left_out_twice():
    away = [(100.0, 200.0), (500.0, 600.0)]
    down = [(150.0, 300.0), (600.0, 650.0), (900.0, 950.0)]
    joined = gc.joined(away, down)
    assert joined == [(100.0, 300.0), (500.0, 650.0), (900.0, 950.0)]
    assert gc.used(0.0, 1000.0, joined) == 1000 - 200 - 150 - 50
    assert gc.joined() == [] and gc.joined(away) == away
    assert gc.resumes(160.0, joined) == 300.0


async def test_the_heartbeat_keeps_an_outage_from_the_last_sign_of_life_and_logs_it(store, clock, caplog):
    """A process noted as running until it stopped cleanly: the outage starts at its stop, not at
    its start; the start that ends it says how long the bot was out of service."""
    beat = Heartbeat(store, 1, [0], every=3600)
    assert await beat.start() == []
    clock.advance(600)
    await beat.stop()
    stopped = clock.time()
    clock.advance(3 * 3600 + 90)
    again = Heartbeat(store, 1, [0], every=3600)
    with caplog.at_level(logging.WARNING, logger="bot.time.alive"):
        assert await again.start() == [(stopped, stopped + 3 * 3600 + 90)]
    await again.stop()
    assert "out of service for 3h1m30s (shards 0 of 1)" in caplog.text
