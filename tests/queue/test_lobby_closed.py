"""A table the queue formed whose lobby ends before everyone confirmed (its host abandons it, a
moderator deletes its thread, everyone leaves it): the table is given back, never "started"."""

from __future__ import annotations

import pytest

from bot.queue.service import QueueService
from bot.sessions import Refusal, SessionService
from languages import ENGLISH
from tests.queue.test_service import CHANNEL, GUILD, Posts, join


@pytest.fixture
async def queue(store):
    await store.queue.set_channel(GUILD, CHANNEL)
    return QueueService(store, SessionService(store), Posts())


async def formed(queue):
    for uid in (1, 2):
        await join(queue, uid, at_once=False, max_wait_hours=24)
    (opened,) = await queue.match(GUILD)
    return opened, opened.session.row.channel_id


async def test_a_lobby_its_host_abandons_gives_the_table_back_and_the_host_leaves_the_queue(queue):
    opened, thread = await formed(queue)
    await queue.sessions.seats.abandon(thread, 1, can_manage=False)  # the host closes the lobby
    await queue.settled()
    assert (await queue.store.queue.table(opened.table_id)).status == "returned"
    assert [e.user_id for e in await queue.store.queue.entries(GUILD)] == [2]  # Bo waits again
    said = [text for channel, text, _ in queue.posts.posted if channel == thread]  # the Confirm message:
    assert said[-1] == (
        "This table's lobby was closed before the game started; the others wait in the queue again, at their places."
    )
    with pytest.raises(Refusal, match="this table was not played; you wait in the queue again"):
        await queue.confirm(opened.table_id, 2)


async def test_a_thread_a_moderator_deletes_gives_the_table_back_to_everyone(queue):
    opened, thread = await formed(queue)
    await queue.sessions.seats.channel_gone(GUILD, thread)
    await queue.settled()
    assert (await queue.store.queue.table(opened.table_id)).status == "returned"
    waiting = await queue.store.queue.entries(GUILD)
    assert [e.user_id for e in waiting] == [1, 2]  # both wait again, at their places:
    assert {e.table_id for e in waiting} != {opened.table_id}  # (the queue formed them a new table)


async def test_a_last_confirm_that_comes_before_the_lobbys_end_is_told_gives_no_start(queue):
    """The last Confirm arrives before the queue heard of the lobby's end (its task not run yet):
    the start finds the lobby closed and gives the table back; the press is told where it stands."""
    opened, thread = await formed(queue)
    queue.sessions.core.on_end.remove(queue.game_ended)  # the end not heard of yet (its task not run)
    await queue.sessions.seats.abandon(thread, 1, can_manage=False)
    assert (await queue.confirm(opened.table_id, 2)).in_words(ENGLISH).startswith("Confirmed")
    with pytest.raises(Refusal, match="this table was not played, and you are not in the queue"):
        await queue.confirm(opened.table_id, 1)  # (1 closed it: they left the queue)
    assert (await queue.store.queue.table(opened.table_id)).status == "returned"
    assert [e.user_id for e in await queue.store.queue.entries(GUILD)] == [2]
