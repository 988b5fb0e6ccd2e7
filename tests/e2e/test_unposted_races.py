"""A refused board tried again (the ``board`` job, which any process of the bot may fire) while a
board of the same game is posted by another process (the one serving its channel): the turn is
posted once.  The second process is a second :class:`Boards` on the same database, with locks of
its own, as another process's would be."""

from __future__ import annotations

import pytest

from bot.surface.boards import Boards
from tests.e2e.test_notices import EXTENSIONS, is_board
from tests.e2e.test_unposted import BOARD, RETRY, refused_by_clock
from tests.standin.model import ATTACH_FILES


@pytest.mark.parametrize("first", ["the try", "a post"])
async def test_a_refused_board_tried_again_while_another_process_posts_is_posted_once(
    standin, bot_factory, table_clock, first
):
    """The board after Alice's time ran out was refused; the permission is back.  The board job's
    try (in one process) and a post of the game's board (in the other) land at once, the second
    between the first's reading of what the channel was not told and its post: the turn's board
    is posted once, calling on Bob, and the board job, fired when due, posts nothing more."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, session = await refused_by_clock(standin, bot, chan, alice, bob, table_clock, ATTACH_FILES)
        boards = len([m for m in standin.messages(thread) if is_board(m)])
        standin.set_permissions(chan, standin.bot_user)
        await standin.settle()
        front = bot.front
        here = front.boards  # the process serving the channel
        there = Boards(front.look, front.notifier, front.replies, front.history)  # the one firing the job
        table_clock.advance(RETRY)
        (job,) = await bot.store.jobs.claim_jobs("there", lease=120)
        assert job.kind == BOARD

        async def post() -> None:
            await here.post_board(await bot.sessions.core.get(session.id))

        async def retry() -> None:
            await there.retry(job)

        one, other = (retry, post) if first == "the try" else (post, retry)
        real = front.look.render

        async def render(*args, **kwargs):  # the first post, between its reading and its post
            front.look.render = real  # once
            await other()
            return await real(*args, **kwargs)

        front.look.render = render
        await one()
        await here.drain()
        await there.drain()
        table_clock.advance(RETRY)
        await bot.scheduler.run_due()
        await here.drain()
        posted = [m for m in standin.messages(thread) if is_board(m)][boards:]
        assert len(posted) == 1, [m.content for m in posted]
        assert bob.id in posted[0].pinged
        assert await bot.store.jobs.job(BOARD, str(session.id)) is None
