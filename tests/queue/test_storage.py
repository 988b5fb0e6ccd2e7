"""The queue's storage on both back ends: places, holding and returning a table's people, the
avoid list's limit, the queue channel, expiry, and an unrated game left out of the ratings."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.queue.match import MAX_AVOID
from bot.storage import ResultRow
from tests.support.polling import until

GUILD = 7


async def join(store, uid: int, game: str = "guacamole", **kw):
    values = dict(
        guild_id=GUILD,
        user_id=uid,
        name=f"u{uid}",
        game=game,
        counts=(2, 3),
        pace="any",
        computers=0,
        rated="any",
        at_once=False,
        expires_at=store.clock.time() + 3600,
    )
    values.update(kw)
    return await store.queue.join(**values)


async def test_holding_confirming_and_returning_keep_places(store, clock):
    for uid in (1, 2, 3):
        await join(store, uid, at_once=uid == 3)
        clock.advance(10)
    places = [(e.user_id, e.joined_at) for e in await store.queue.entries(GUILD)]
    table = await store.queue.hold(
        guild_id=GUILD, game="guacamole", size=3, pace="any", rated="any", confirm_by=99.0, user_ids=[1, 2, 3]
    )
    assert table is not None
    # Held people cannot be held twice, nor join again meanwhile.
    again = await store.queue.hold(
        guild_id=GUILD, game="guacamole", size=2, pace="any", rated="any", confirm_by=99.0, user_ids=[1, 2]
    )
    assert again is None
    assert await join(store, 1) is None
    held = await store.queue.seated(table)
    assert [(e.user_id, e.confirmed) for e in held] == [(1, False), (2, False), (3, True)]  # 3: at once
    assert await store.queue.confirm(table, 1) == (True, False)
    assert await store.queue.confirm(table, 1) == (False, False)
    gone = await store.queue.return_table(table, [2])
    assert [e.user_id for e in gone] == [2]
    assert await store.queue.return_table(table, [1]) is None  # returned once only
    after = await store.queue.entries(GUILD)
    assert [(e.user_id, e.joined_at) for e in after] == [p for p in places if p[0] != 2]
    assert all(e.table_id is None and not e.confirmed for e in after)
    assert (await store.queue.table(table)).status == "returned"


async def test_a_started_table_takes_its_people_out_of_the_queue(store):
    for uid in (1, 2, 4):
        await join(store, uid)
    table = await store.queue.hold(
        guild_id=GUILD, game="guacamole", size=2, pace="any", rated="any", confirm_by=9.0, user_ids=[1, 2]
    )
    assert await store.queue.start_table(table)
    assert not await store.queue.start_table(table)
    assert [e.user_id for e in await store.queue.entries(GUILD)] == [4]


async def test_joining_again_replaces_the_wishes_and_the_place(store, clock):
    await join(store, 1)
    clock.advance(5)
    await join(store, 2)
    clock.advance(5)
    again = await join(store, 1, game="pachakuna", counts=(2,), pace="live")
    assert (again.game, again.counts, again.pace) == ("pachakuna", (2,), "live")
    assert [e.user_id for e in await store.queue.entries(GUILD)] == [2, 1]
    assert (await store.queue.leave(GUILD, 1)).user_id == 1
    assert await store.queue.leave(GUILD, 1) is None


async def test_an_entry_expires_only_once_its_time_has_come(store, clock):
    await join(store, 1, expires_at=clock.time() + 100)
    assert await store.queue.expire(GUILD, 1) is None
    clock.advance(100)
    assert (await store.queue.expire(GUILD, 1)).user_id == 1
    assert await store.queue.entries(GUILD) == []


async def test_an_avoid_list_holds_at_most_25_people(store):
    for other in range(100, 100 + MAX_AVOID):
        assert await store.queue.avoid(1, other, MAX_AVOID) == "added"
    assert await store.queue.avoid(1, 999, MAX_AVOID) == "full"
    assert await store.queue.avoid(1, 100, MAX_AVOID) == "already"
    assert len(await store.queue.avoided(1)) == MAX_AVOID
    assert await store.queue.unavoid(1, 100) and not await store.queue.unavoid(1, 100)
    assert await store.queue.avoid(1, 999, MAX_AVOID) == "added"
    lists = await store.queue.avoid_lists([1, 2])
    assert 999 in lists[1] and 100 not in lists[1] and lists[2] == frozenset()


async def test_the_queue_channel_is_a_server_setting(store):
    assert await store.queue.channel(GUILD) is None
    await store.queue.set_channel(GUILD, 55)
    await store.queue.set_channel(GUILD + 1, 66)
    assert await store.queue.channel(GUILD) == 55 and await store.queue.channel(GUILD + 1) == 66


async def test_a_game_its_people_chose_unrated_is_not_rated(store):
    async def finished(unrated: bool) -> None:
        sid = await store.games.create_session(
            game="nim",
            guild_id=GUILD,
            channel_id=5 + unrated,
            host_id=10,
            host_name="u10",
            options={},
            max_players=2,
            seed=1,
        )
        assert await store.games.add_seat(sid, 20, "u20", limit=2)
        await store.games.start(sid, {0: 0, 1: 1}, {}, {"n": 0})
        if unrated:
            await store.queue.set_unrated(sid)
        results = [ResultRow(0, 10, None, 1, False), ResultRow(1, 20, None, 2, False)]
        await store.games.finish(
            sid, status="finished", reason="done", outcome=None, results=results, rated=True, names={}
        )

    await finished(True)
    assert await store.ratings.leaderboard(GUILD, "nim") == []
    await finished(False)
    assert [r.games for r in await store.ratings.leaderboard(GUILD, "nim")] == [1, 1]


@pytest.mark.parametrize("database", ["postgres"], indirect=True)
async def test_two_processes_holding_the_same_people_at_once_form_one_table(store, database, clock):
    """Two processes form the same table from the server's queue at the same moment (one after a
    game's end it handled, the other after a join): the first has counted the people free when the
    second holds them.  Only the second's table holds them; the first is told they are taken
    (None), and leaves no table behind that holds nobody."""
    for uid in (1, 2):
        await join(store, uid)
    other = await database.open(clock)  # the second process, its own connections
    taker = await asyncpg.connect(database.target)
    try:
        await taker.execute("SELECT pg_advisory_lock(4242)")  # where the first process will wait
        real = store.queue.db.transact

        async def paused_after_its_count(body):
            def counted_then_waits():
                op = next(body)
                result = yield op
                yield ("one", "SELECT pg_advisory_xact_lock(4242)", ())
                while True:
                    try:
                        op = body.send(result)
                    except StopIteration as stop:
                        return stop.value
                    result = yield op

            return await real(counted_then_waits())

        store.queue.db.transact = paused_after_its_count
        hold = dict(guild_id=GUILD, game="guacamole", size=2, pace="any", rated="any", confirm_by=99.0)
        first = asyncio.create_task(store.queue.hold(**hold, user_ids=[1, 2]))
        waiting = await until(  # the first process waits, having counted them free
            lambda: taker.fetchval(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
            ),
            "the first hold waiting for the lock",
            tries=10_000,
            pause=0,
        )
        assert waiting == 1
        second = await other.queue.hold(**hold, user_ids=[1, 2])
        await taker.execute("SELECT pg_advisory_unlock(4242)")
        assert await first is None and second is not None
        assert {e.table_id for e in await store.queue.entries(GUILD)} == {second}
        assert [t.id for t in await store.queue.tables("confirming")] == [second]
    finally:
        await taker.close()
        await other.close()


@pytest.mark.parametrize("database", ["postgres"], indirect=True)
async def test_a_hold_caught_in_a_deadlock_holds_its_people_when_run_again(store, database, clock):
    """Another transaction has locked the second person's entry when a process holds both for a
    table; the hold locks the first and waits on the second, and the other then wants the
    first: PostgreSQL cancels the hold to end the circle.  The hold runs again once the other
    is done and forms the table, which holds both; the cancelled attempt leaves nothing."""
    for uid in (1, 2):
        await join(store, uid)
    other = await asyncpg.connect(database.target)
    try:
        # Only the hold's side looks for the circle, so PostgreSQL always cancels the hold.
        await other.execute("SET deadlock_timeout = '1h'")
        done = other.transaction()
        await done.start()
        await other.execute("SELECT 1 FROM queue_entries WHERE user_id = 2 FOR UPDATE")
        hold = dict(guild_id=GUILD, game="guacamole", size=2, pace="any", rated="any", confirm_by=99.0)
        holding = asyncio.create_task(store.queue.hold(**hold, user_ids=[2, 1]))
        waiting = await until(
            lambda: database_waits(other),
            "the hold waiting for the second person's entry",
            tries=100_000,
            pause=0,
        )
        assert waiting == 1
        # The other transaction now wants the first person: the hold is cancelled, it goes on.
        await other.execute("SELECT 1 FROM queue_entries WHERE user_id = 1 FOR UPDATE")
        await done.rollback()
        table = await holding
    finally:
        await other.close()
    assert table is not None
    assert {e.user_id: e.table_id for e in await store.queue.entries(GUILD)} == {1: table, 2: table}
    assert [t.id for t in await store.queue.tables("confirming")] == [table]


async def database_waits(conn) -> int:
    """How many transactions wait for a row another holds."""
    return await conn.fetchval(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'transactionid' AND NOT granted"
    )
