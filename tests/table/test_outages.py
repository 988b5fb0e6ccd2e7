"""The bot's outages in storage, on both back ends (bot.storage.outages), the heartbeat that keeps
them (bot.time.alive), and their arithmetic in the clocks (bot.time.gameclock.joined)."""

from __future__ import annotations

import logging
from types import SimpleNamespace

from bot.storage.outages import BEAT, LEAST, shard_of
from bot.time import gameclock as gc
from bot.time.alive import Heartbeat

A_GUILD = 1234 << 22  # (a server id carries its time in its high bits: its shard is 1234 % count)
SHARD_1_OF_2 = A_GUILD + (1 << 22)


async def runs(store, clock, count: int, ids: list[int], seconds: float) -> None:
    """Shards ``ids`` of ``count`` run for ``seconds``, beating every minute as a process does."""
    for _ in range(int(seconds // BEAT)):
        clock.advance(BEAT)
        assert await store.outages.back(count, ids) == []


async def test_the_first_start_keeps_no_outage_and_a_stop_longer_than_two_minutes_is_kept(store, clock):
    assert await store.outages.back(1, [0]) == []
    await runs(store, clock, 1, [0], 120)
    clock.advance(LEAST)  # (as long as two missed beats: no outage)
    assert await store.outages.back(1, [0]) == []
    assert await store.outages.of_guild(A_GUILD) == []
    restarted = clock.time()
    clock.advance(3 * 3600)
    assert await store.outages.back(1, [0]) == [(restarted, restarted + 3 * 3600)]
    assert await store.outages.of_guild(A_GUILD) == [(restarted, restarted + 3 * 3600)]
    assert await store.outages.of_guild(None) == [(restarted, restarted + 3 * 3600)]  # direct messages


async def test_each_shard_has_its_own_outages(store, clock):
    await store.outages.back(2, [0, 1])
    stopped = clock.time()  # shard 1's process stops; shard 0's runs on
    await runs(store, clock, 2, [0], 3600)
    (one,) = await store.outages.back(2, [1])
    assert one == (stopped, stopped + 3600)
    assert shard_of(A_GUILD, 2) == 0 and shard_of(SHARD_1_OF_2, 2) == 1
    assert await store.outages.of_guild(A_GUILD) == []
    assert await store.outages.of_guild(SHARD_1_OF_2) == [one]


async def test_a_layout_counted_anew_or_switched_back_starts_from_the_last_one_that_ran(store, clock):
    """One shard, then two (a quick restart), then one again after two hours of two: no outage in
    either switch; a stop of ten minutes before the second counts from the last sign of life."""
    await store.outages.back(1, [0])
    await runs(store, clock, 1, [0], 600)
    clock.advance(30)
    assert await store.outages.back(2, [0, 1]) == []  # counted anew: from the layout before
    await runs(store, clock, 2, [0, 1], 2 * 3600)
    clock.advance(30)
    assert await store.outages.back(1, [0]) == []  # switched back: not from before the first switch
    assert await store.outages.of_guild(A_GUILD) == []
    await runs(store, clock, 1, [0], 300)
    clock.advance(600)
    assert await store.outages.back(1, [0]) == [(clock.time() - 600, clock.time())]


async def test_a_clock_set_back_never_starts_an_outage_inside_the_last_one(store, clock, database):
    """A sign of life dated inside the last outage (the system clock was set back, then the process
    crashed): the next outage starts where the last one ended, so no second is left out twice."""
    await store.outages.back(1, [0])
    clock.advance(3600)
    (first,) = await store.outages.back(1, [0])
    await database.execute("UPDATE shards_seen SET seen = ?", first[1] - 1800)
    clock.advance(3000)
    (second,) = await store.outages.back(1, [0])
    assert second == (first[1], clock.time())


async def test_a_shard_no_process_serves_is_out_of_service_until_now(store, clock):
    """This process serves shard 0 of 2; shard 1's process stopped two hours ago and has not come
    back: a clock in its servers that this process judges (its scheduler fires the deadline) leaves
    those hours out, up to now, and no outage is kept for it until its process starts again."""
    await store.outages.back(2, [0, 1])
    store.outages.serve(2, lambda shard: shard == 0)
    await runs(store, clock, 2, [0], 2 * 3600)
    now = clock.time()
    assert await store.outages.of_guild(SHARD_1_OF_2) == [(now - 2 * 3600, now)]
    assert await store.outages.of_guild(A_GUILD) == []  # its own: running
    (kept,) = await store.outages.back(2, [1])  # shard 1's process starts again
    assert kept == (now - 2 * 3600, now)
    store.outages.serve(2, lambda shard: False)  # this process's connection to Discord down a while
    await runs(store, clock, 2, [1], 180)
    assert await store.outages.of_guild(A_GUILD) == [(now, clock.time())]
    assert await store.outages.of_guild(SHARD_1_OF_2) == [kept]  # kept at its start, none going on


async def test_another_processs_outages_are_read_afresh(pg_cluster, clock):
    """Two processes on one PostgreSQL database: the outage one keeps as it starts again is read by
    the other at once (it may fire that server's deadline)."""
    from bot.storage import open_store

    name = await pg_cluster.create_database()
    try:
        first = await open_store(pg_cluster.url(name), clock=clock)
        second = await open_store(pg_cluster.url(name), clock=clock)
        try:
            await first.outages.back(2, [0])
            await second.outages.back(2, [1])
            assert await first.outages.of_guild(SHARD_1_OF_2) == []
            clock.advance(3600)
            await first.outages.back(2, [0])
            (kept,) = await second.outages.back(2, [1])
            assert await first.outages.of_guild(SHARD_1_OF_2) == [kept]
        finally:
            await first.close()
            await second.close()
    finally:
        await pg_cluster.drop_database(name)


async def test_the_heartbeat_keeps_a_stop_and_a_connection_down_and_logs_them(store, clock, caplog):
    """A process that stopped cleanly: the outage starts at its stop, not its start.  One whose
    connection to Discord was down for five hours while it ran: the next beat keeps the gap."""
    beat = Heartbeat(store, 1, [0], every=3600)
    assert await beat.start() == []
    clock.advance(60)
    await beat.stop()
    stopped = clock.time()
    clock.advance(3 * 3600 + 90)
    live: set[int] = {0}
    again = Heartbeat(store, 1, [0], every=3600, connected=lambda: live)
    with caplog.at_level(logging.WARNING, logger="bot.time.alive"):
        assert await again.start() == [(stopped, stopped + 3 * 3600 + 90)]
        live.clear()
        down = clock.time()
        clock.advance(5 * 3600)
        assert await store.outages.of_guild(A_GUILD) == [(stopped, down), (down, clock.time())]  # going on
        live.add(0)
        assert await again.beat([0]) == [(down, clock.time())]
    await again.stop()
    assert "out of service for 3h1m30s (shards 0 of 1)" in caplog.text
    assert "out of service for 5h (shards 0 of 1)" in caplog.text


def test_periods_of_several_sources_are_joined_so_that_no_time_is_left_out_twice():
    away = [(100.0, 200.0), (500.0, 600.0)]
    down = [(150.0, 300.0), (600.0, 650.0), (900.0, 950.0)]
    joined = gc.joined(away, down)
    assert joined == [(100.0, 300.0), (500.0, 650.0), (900.0, 950.0)]
    assert gc.used(0.0, 1000.0, joined) == 1000 - 200 - 150 - 50
    assert gc.joined() == [] and gc.joined(away) == away
    assert gc.resumes(160.0, joined) == 300.0


async def test_overlapping_outages_are_left_out_once_by_the_clocks_and_the_day_to_answer(service, database):
    """Outages kept under two layouts may overlap (one shard, then two, then one again): the table
    reads them joined, so the clocks and the day to answer a time-out leave each second out once."""
    for count, since, until in ((1, 1000.0, 5000.0), (2, 4000.0, 9000.0)):
        await database.execute(
            "INSERT INTO outages (shard_count, shard_id, since, until) VALUES (?, ?, ?, ?)",
            count,
            shard_of(A_GUILD, count),
            since,
            until,
        )
    game = SimpleNamespace(row=SimpleNamespace(guild_id=A_GUILD))
    assert await service.core.outages(game) == [(1000.0, 9000.0)]
