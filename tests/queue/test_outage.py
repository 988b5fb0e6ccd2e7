"""The queue when PostgreSQL stops answering as a confirmed table starts: the table is not left
marked started with its game a lobby nobody can start."""

from __future__ import annotations

import pytest

from bot.queue.service import QueueService
from bot.sessions import SessionService
from tests.queue.test_service import CHANNEL, GUILD, Posts, join
from tests.support.outage import Outage

pytestmark = pytest.mark.parametrize("database", ["postgres"], indirect=True)


@pytest.fixture
async def outage(request, database):
    down = Outage(request.getfixturevalue("pg_cluster"), database.target)
    yield down
    await down.end()


@pytest.mark.parametrize("recovery", ["confirm again", "time to confirm over"])
async def test_a_start_cut_short_after_the_table_was_marked_started_starts_the_game(
    store, outage, clock, recovery
):
    """The last confirmation marks the table started (its people leave the queue), then the
    database stops answering before the game starts: once it is back, confirming again (the
    Confirm button is still there) or the end of the time to confirm starts the game, instead
    of refusing ("no longer waiting") and leaving the game a lobby for ever."""
    await store.queue.set_channel(GUILD, CHANNEL)
    sessions = SessionService(store)
    queue = QueueService(store, sessions, Posts())
    for uid in (1, 2):
        await join(queue, uid, at_once=False)
    (opened,) = await queue.match(GUILD)
    assert not opened.started
    await queue.confirm(opened.table_id, 1)
    starting = sessions.lobby.start

    async def cut_then_start(*args, **kwargs):
        await outage.begin()
        return await starting(*args, **kwargs)

    sessions.lobby.start = cut_then_start
    with pytest.raises(Exception):  # noqa: B017 - the database's own error, told by the guard
        await queue.confirm(opened.table_id, 2)
    sessions.lobby.start = starting
    await outage.end()
    table = await store.queue.table(opened.table_id)
    assert table is not None and table.status == "started"
    assert (await sessions.core.get(opened.session.id)).status == "lobby"

    if recovery == "confirm again":
        answer = await queue.confirm(opened.table_id, 2)
        assert answer.msg == "Everyone confirmed: the game has started"
    else:
        clock.advance(table.confirm_by - clock.time())
        (due,) = await store.jobs.pending("queue_confirm")
        await queue.unconfirmed(due)
    game = await sessions.core.get(opened.session.id)
    assert game.status == "active" and {s.user_id for s in game.seats} == {1, 2}
    assert queue.posts.boards == [game.id]
    assert await store.queue.entries(GUILD) == []
