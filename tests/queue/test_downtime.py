"""The queue's time to confirm and the bot out of service: no Confirm button works while it is
stopped, so that time is not part of anyone's time to confirm (bot.storage.outages)."""

from __future__ import annotations

from bot.queue.service import QueueService
from bot.sessions import SessionService
from tests.queue.test_service import CHANNEL, GUILD, Posts, join

HOUR = 3600.0


async def claimed_confirm_job(store):
    (job,) = [j for j in await store.jobs.claim_jobs("here", lease=60) if j.kind == "queue_confirm"]
    return job


async def test_the_time_to_confirm_leaves_out_the_time_the_bot_was_stopped(store, clock):
    """A daily table gives 12 hours to confirm; the bot ran 1 of them and was then stopped for
    11 and a half: at the restart the one who has not confirmed keeps their seat for the 11 hours
    left, told so in the table's thread, and only then leaves the queue."""
    await store.queue.set_channel(GUILD, CHANNEL)
    queue = QueueService(store, SessionService(store), Posts())
    await store.outages.back(1, [0])  # the bot runs (its first sign of life)
    for uid in (1, 2):
        await join(queue, uid, at_once=False, pace="daily")
    (opened,) = await queue.match(GUILD)
    table = await store.queue.table(opened.table_id)
    await queue.confirm(opened.table_id, 1)
    clock.advance(HOUR)
    await store.outages.alive(1, [0])  # it ran until now (its last sign of life), then stops
    clock.advance(11.5 * HOUR)
    await store.outages.back(1, [0])  # started again: the outage is kept
    assert clock.time() > table.confirm_by
    await queue.unconfirmed(await claimed_confirm_job(store))
    assert {e.user_id for e in await store.queue.entries(GUILD)} == {1, 2}
    table = await store.queue.table(opened.table_id)
    assert table.status == "confirming" and table.confirm_by == clock.time() + 11 * HOUR
    (job,) = await store.jobs.pending("queue_confirm")
    assert job.due_at == table.confirm_by and job.claim is None
    channel, text, pings = queue.posts.posted[-1]
    assert channel == table.channel_id and pings == (2,)
    assert "out of service for 11 h 30 min" in text and f"<t:{int(table.confirm_by)}:R>" in text
    assert queue.posts.dms == []
    clock.advance(11 * HOUR)  # the whole time to confirm is over now, the bot in service
    await store.outages.alive(1, [0])
    await queue.unconfirmed(await claimed_confirm_job(store))
    assert [e.user_id for e in await store.queue.entries(GUILD)] == [1]
    assert [uid for uid, _ in queue.posts.dms] == [2]
