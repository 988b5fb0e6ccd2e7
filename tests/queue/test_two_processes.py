"""The queue of two processes on one database of each back end (two services, one Discord; two
stores on PostgreSQL): the Confirm message of a table says once that its game started, when the
last two confirmations arrive at once, one in each process, and when the process writing it is
killed meanwhile (the other writes it when the claim's lease is over, or at once when pressed)."""

from __future__ import annotations

import asyncio

import pytest

from bot.queue.service import QueueService
from bot.queue.tables import SETTLE_LEASE, STARTED
from bot.sessions import SessionService
from bot.storage import Store
from languages import ENGLISH
from tests.queue.test_service import CHANNEL, GUILD, Posts, join


@pytest.fixture
async def two(store, database, clock):
    """Two processes' queue services on one database, sharing one Discord, and the table of 1
    and 2 the first formed, waiting for their confirmations.  (SQLite serves one process: there
    the second service, with everything of its own but the store, stands for the second.)"""
    await store.queue.set_channel(GUILD, CHANNEL)
    discord = Posts()
    other = store if database.kind == "sqlite" else await database.open(clock)  # its own connections
    try:
        first = QueueService(store, SessionService(store), discord)
        second = QueueService(other, SessionService(other), discord)
        for uid in (1, 2):
            await join(first, uid, at_once=False)
        (opened,) = await first.match(GUILD)
        yield first, second, opened
    finally:
        if other is not store:
            await other.close()


async def started_lines(queue: QueueService, table_id: int) -> list[str]:
    """The lines posted in the table's thread that say its game started."""
    thread = (await queue.store.queue.table(table_id)).channel_id
    return [text for channel, text, _ in queue.posts.posted if channel == thread and "started" in text]


async def test_the_last_two_confirmations_in_two_processes_say_once_that_the_game_started(two):
    """1 presses Confirm in one process and 2 in the other, at the same moment, and each sees
    everyone confirmed: the first starts the game and is writing on the Confirm message that it
    started when the second finds the game under way.  The message gets that line once (it got
    two: each process saw the message still to settle), the game starts once, with one first
    board, and the table's job is gone."""
    first, second, opened = two
    discord = first.posts
    stored = {"first": asyncio.Event(), "second": asyncio.Event()}
    settling = asyncio.Event()
    pressed: list[asyncio.Task] = []

    def confirming(each: Store) -> None:
        real = each.queue.confirm

        async def confirm(table_id: int, user_id: int):
            mine, after = ("first", None) if user_id == 1 else ("second", "first")
            if after is not None:
                await stored[after].wait()
            answer = await real(table_id, user_id)
            stored[mine].set()
            # the first reads everyone confirmed once the second stored its confirmation; the
            # second goes on to start the game once the first is writing that it started
            await (stored["second"] if mine == "first" else settling).wait()
            return answer

        each.queue.confirm = confirm

    for each in {id(s): s for s in (first.store, second.store)}.values():
        confirming(each)
    settle = discord.settle

    async def settled_last(channel_id, guild_id, message_id, text, **kwargs):
        if not settling.is_set():  # the first process's line waits until the second is done
            settling.set()
            await asyncio.wait(pressed[1:])
        return await settle(channel_id, guild_id, message_id, text, **kwargs)

    discord.settle = settled_last
    pressed += [
        asyncio.create_task(first.confirm(opened.table_id, 1)),
        asyncio.create_task(second.confirm(opened.table_id, 2)),
    ]
    answers = await asyncio.gather(*pressed)
    assert await started_lines(first, opened.table_id) == [STARTED]
    assert [answer.in_words(ENGLISH) for answer in answers] == [STARTED, STARTED]
    game = await first.sessions.core.get(opened.session.id)
    assert game.status == "active" and {s.user_id for s in game.seats} == {1, 2}
    assert discord.boards == [opened.session.id]
    assert await first.store.jobs.pending("queue_confirm") == []
    assert await first.store.queue.entries(GUILD) == []


async def killed_as_it_writes(first: QueueService, opened) -> asyncio.Task:
    """1 confirms, then 2, the last, in the ``first`` process, whose confirmation starts the game
    and is killed while writing on the Confirm message that it started: it holds the message's
    claim and never gives it back.  Its task, which never ends (the test cancels it)."""
    discord = first.posts
    await first.confirm(opened.table_id, 1)
    settle, writing, killed = discord.settle, asyncio.Event(), asyncio.Event()

    async def never_done(*args, **kwargs):
        writing.set()
        await killed.wait()

    discord.settle = never_done
    pressed = asyncio.create_task(first.confirm(opened.table_id, 2))
    await writing.wait()
    discord.settle = settle
    return pressed


async def test_a_process_killed_as_it_says_the_game_started_leaves_the_line_to_another_after_its_lease(
    two, clock
):
    """The last confirmation starts the game and its process is killed while writing on the
    Confirm message that it started (it holds the message's claim, and never gives it back).
    Once the claim's lease is over the table's job is due, and the other process, firing it,
    writes the line, once (it waited for the 12 hours to confirm to run out)."""
    first, second, opened = two
    other = second.store
    pressed = await killed_as_it_writes(first, opened)
    assert await other.jobs.claim_jobs("second", lease=60) == []  # the first holds it
    clock.advance(SETTLE_LEASE)
    (job,) = await other.jobs.claim_jobs("second", lease=60)
    await second.unconfirmed(job)
    thread = (await other.queue.table(opened.table_id)).channel_id
    assert await started_lines(second, opened.table_id) == [f"The game has started: <#{thread}>"]
    assert await other.jobs.pending("queue_confirm") == []
    pressed.cancel()  # the first process is gone: its task comes to nothing
    await asyncio.wait({pressed})
    assert await other.jobs.pending("queue_confirm") == []


async def test_a_press_while_a_killed_process_holds_the_message_writes_it_once_at_once(two, clock):
    """The last confirmation starts the game and its process is killed while writing on the
    Confirm message that it started: it holds the message's claim, and never gives it back.  A
    press of the button in the other process, inside the claim's lease, is answered that the game
    started, and writes so on the message at once (before, the message kept showing the button
    until the lease was over); the claim's end then adds nothing, and the message has the line
    once."""
    first, second, opened = two
    other = second.store
    pressed = await killed_as_it_writes(first, opened)
    thread = (await other.queue.table(opened.table_id)).channel_id
    started = f"The game has started: <#{thread}>"
    assert (await second.confirm(opened.table_id, 1)).in_words(ENGLISH) == started
    assert await started_lines(second, opened.table_id) == [started]
    assert await other.jobs.pending("queue_confirm") == []
    clock.advance(SETTLE_LEASE)
    assert await other.jobs.claim_jobs("second", lease=60) == []  # nothing left to settle
    assert (await second.confirm(opened.table_id, 2)).in_words(ENGLISH) == started
    assert await started_lines(second, opened.table_id) == [started]
    pressed.cancel()  # the first process is gone: its task comes to nothing
    await asyncio.wait({pressed})
