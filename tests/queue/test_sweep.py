"""The queue's start-up sweep over a real store of each back end: the Confirm messages a stop left
on tables no longer waiting are settled at the scheduler's first round after a start, once."""

from __future__ import annotations

import pytest

from bot.queue.service import QueueService
from bot.queue.tables import NOT_PLAYED
from bot.sessions import SessionService
from tests.queue.test_service import CHANNEL, GUILD, Posts, join


@pytest.fixture
async def queue(store):
    await store.queue.set_channel(GUILD, CHANNEL)
    return QueueService(store, SessionService(store), Posts())


async def test_a_start_brings_forward_the_confirm_messages_a_stop_left_on_tables_no_longer_waiting(
    queue, clock
):
    """2 leaves the queue while the table waits for confirmations, and the process stops as its
    Confirm message was about to say so.  The next start's sweep brings the table's job forward to
    now (on each back end), not a table still waiting; fired, it has the message say the table was
    not played, once: a second sweep finds nothing."""
    for uid in (1, 2):
        await join(queue, uid, at_once=False)
    (gone,) = await queue.match(GUILD)
    settle = queue.posts.settle

    async def stopped(*args, **kwargs):
        raise RuntimeError("the process stopped")

    queue.posts.settle = stopped
    with pytest.raises(RuntimeError):
        await queue.leave(GUILD, 2)
    await queue.settled()
    queue.posts.settle = settle  # after a restart
    await join(queue, 3, at_once=False)
    (waiting,) = await queue.match(GUILD)  # 1 and 3: a table still waiting for confirmations
    restarted = QueueService(queue.store, queue.sessions, queue.posts)
    assert await restarted.sweep() == 1
    due = {j.key: j for j in await queue.store.jobs.pending("queue_confirm")}
    assert due[str(gone.table_id)].due_at == clock.time()
    assert due[str(waiting.table_id)].due_at > clock.time()
    await restarted.unconfirmed(due[str(gone.table_id)])
    thread = (await queue.store.queue.table(gone.table_id)).channel_id
    assert queue.posts.posted[-1] == (thread, NOT_PLAYED, ())
    assert await restarted.sweep() == 0
    assert [j.key for j in await queue.store.jobs.pending("queue_confirm")] == [str(waiting.table_id)]
