"""A refused board tried again (the ``board`` job, which any process of the bot may fire) while a
board of the same game is posted by another process (the one serving its channel): the turn is
posted once.  The second process is a second :class:`Boards` on the same database, with locks of
its own, and its :class:`CatchUp`, as another process's would be."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import discord
import pytest

from bot.surface.boards import POST_LEASE, Boards
from bot.surface.catchup import CatchUp
from bot.surface.unposted import HANDED, Inside
from engines.core import Said
from tests.e2e.players import to_move
from tests.e2e.test_notices import EXTENSIONS, is_board, play_one, start_game
from tests.e2e.test_unposted import BOARD, RETRY, refused_by_clock
from tests.e2e.test_unposted_told import asked_in_a_thread
from tests.standin.model import ATTACH_FILES, SEND_MESSAGES_IN_THREADS
from tests.support import nim


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
        there, up_there = another_process(front)  # the one firing the job
        table_clock.advance(RETRY)
        (job,) = await bot.store.jobs.claim_jobs("there", lease=120)
        assert job.kind == BOARD

        async def post() -> None:
            await here.post_board(await bot.sessions.core.get(session.id))

        async def retry() -> None:
            await up_there.retry(job)

        one, other = (retry, post) if first == "the try" else (post, retry)
        between_read_and_post(front, other)  # (the first post's)
        await one()
        await bot.front.catchup.drain()
        await up_there.drain()
        table_clock.advance(RETRY)
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        posted = [m for m in standin.messages(thread) if is_board(m)][boards:]
        assert len(posted) == 1, [m.content for m in posted]
        assert bob.id in posted[0].pinged
        assert await bot.store.jobs.job(BOARD, str(session.id)) is None


def between_read_and_post(front, act) -> None:
    """Run ``act`` once, inside the next board post: after it read what the channel was not told
    and before it posts (at the board's render)."""
    real = front.look.render

    async def render(*args, **kwargs):
        front.look.render = real  # once
        await act()
        return await real(*args, **kwargs)

    front.look.render = render


def another_process(front) -> tuple[Boards, CatchUp]:
    """A second :class:`Boards` on the same database, and its :class:`CatchUp`, wired as its own
    front wires them (another process's)."""
    boards = Boards(front.look, front.notifier, front.replies, front.history)
    catchup = CatchUp(boards)
    boards.follow = catchup.computers_follow
    return boards, catchup


async def fired(standin, bot, thread, seen: int, *processes: CatchUp) -> list:
    """The jobs due fire; once the ``processes`` are done and the stand-in settled, the messages
    posted in ``thread`` after its first ``seen`` for all to see."""
    await bot.scheduler.run_due()
    for catchup in processes:
        await catchup.drain()
    await standin.settle()
    return [m for m in standin.messages(thread)[seen:] if not m.ephemeral]


async def two_processes(standin, bot, chan, alice, bob):
    """A Nim game of Alice and Bob begun; its thread and session, the bot's boards (one process)
    and a second :class:`Boards` on the same database with its :class:`CatchUp` (another
    process's)."""
    await standin.wait_synced()
    thread, _ = await start_game(standin, bot, chan, alice, bob)
    session = await bot.sessions.core.in_channel(thread.id)
    return thread, session, bot.front.boards, *another_process(bot.front)


@pytest.mark.parametrize("owed", [False, True], ids=["", "lines owed"])
@pytest.mark.parametrize("then", ["the try", "the next board", "a refusal", "the first post over first"])
async def test_a_post_that_finds_another_process_posting_hands_its_sentences_to_the_next_board(
    standin, bot_factory, table_clock, then, owed
):
    """One process posts a board of the game (its header: "A's board"); while it holds the game's
    board job, between its reading and its post, the other process posts a board with a header,
    a line above it (a seat handed over) and a note (a resignation), and finds the job held: it
    posts nothing.  Its header, line and note come once with the board posted next: the job's try
    when the first post's lease is over, or the board after the next move, which the try then
    leaves alone; or, the first post refused, its try (under the header of the later board, as
    for two boards refused); or, the first post over before the other hands its sentences to the
    job, the try at once.  With ``owed``, the job kept a line refused before (a clock's answer),
    which the first post tells, or its try when it is refused: once too."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        thread, session, here, there, up_there = await two_processes(standin, bot, chan, alice, bob)
        seen, front = len(standin.messages(thread)), bot.front
        line, note = Said("🔁 Sub takes Beto's seat."), Said("Beto resigned.")
        earlier = Said("⏱️ Alice has a day more.")
        if owed:
            await here.unposted.again(session, Inside(session.row.board_message_id or 0, lines=(earlier,)))
        real, lost, over = front.look.render, asyncio.Event(), asyncio.Event()
        others: list[asyncio.Task] = []  # the other process's post
        elsewhere = there._posted_elsewhere

        async def posted_elsewhere(*args):
            lost.set()
            if then == "the first post over first":
                await over.wait()
            await elsewhere(*args)

        there._posted_elsewhere = posted_elsewhere  # type: ignore[method-assign]

        async def render(*args, **kwargs):  # the first post, between its reading and its post
            front.look.render = real  # once
            others.append(
                asyncio.create_task(
                    there.post_board(
                        await bot.sessions.core.get(session.id),
                        header=Said("**Nim**: the board now"),
                        lines=[line],
                        pings=[bob.id],
                        note=note,
                        ping=False,
                    )
                )
            )
            await lost.wait()  # the job is held: the first post tells the moves
            if then != "the first post over first":
                assert await others[0] is None
            if then == "a refusal":
                standin.set_permissions(chan, standin.bot_user, deny=ATTACH_FILES)
                await standin.settle()
            return await real(*args, **kwargs)

        front.look.render = render
        post = here.post_board(session, header=Said("A's board"), ping=False)
        if then == "a refusal":
            with pytest.raises(discord.HTTPException):
                await post
            standin.set_permissions(chan, standin.bot_user)
            await standin.settle()
            table_clock.advance(RETRY)
        else:
            await post
        over.set()
        assert await others[0] is None
        if then == "the next board":
            await play_one(standin, bot, thread, [alice, bob])
        if then != "the first post over first":  # (its try is due at once)
            table_clock.advance(POST_LEASE)
        said = [m.content for m in await fired(standin, bot, thread, seen, bot.front.catchup, up_there)]
        assert sum("A's board" in text for text in said) == (then != "a refusal"), said
        for sentence in (line, note, *([earlier] if owed else [])):
            assert sum(str(sentence) in text for text in said) == 1, said
        carried = next(m for m in standin.messages(thread)[seen:] if str(line) in m.content)
        assert is_board(carried) and str(note) in carried.content
        assert carried is standin.messages(thread)[-1] or then == "the next board"
        assert ("**Nim**: the board now" in carried.content) == (then != "the next board"), carried.content
        assert "A's board" not in carried.content
        assert await bot.store.jobs.job(BOARD, str(session.id)) is None


async def test_what_a_post_tells_is_not_handed_over_again_by_a_post_with_nothing_to_say(
    standin, bot_factory, table_clock
):
    """The job keeps a line an earlier post handed over; the next post carries it, and while it
    holds the job the other process posts a board with nothing of its own to say, finding the job
    held: the line is told once, by the first post, and the job's try posts nothing more."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        thread, session, here, there, up_there = await two_processes(standin, bot, chan, alice, bob)
        seen, front = len(standin.messages(thread)), bot.front
        line = Said("🔁 Sub takes Beto's seat.")
        await here.unposted.again(session, Inside(HANDED, lines=(line,)))

        async def other() -> None:
            assert await there.post_board(await bot.sessions.core.get(session.id), ping=False) is None

        between_read_and_post(front, other)
        await here.post_board(session, ping=False)
        table_clock.advance(RETRY)
        posted = [m.content for m in await fired(standin, bot, thread, seen, bot.front.catchup, up_there)]
        assert len(posted) == 1 and str(line) in posted[0], posted
        assert await bot.store.jobs.job(BOARD, str(session.id)) is None


async def test_a_line_handed_over_while_a_post_holds_the_job_is_told_as_soon_as_that_post_is_over(
    standin, bot_factory, table_clock
):
    """One process posts the game's board; between its reading and its post, the other process
    posts a board with a line above it (a seat handed over), finds the job held and hands the line
    to the job.  The first post does not carry it; once that post is over the job is due at once
    and this process's scheduler is woken: the scheduler's next run of its due jobs tells the line,
    once, without waiting for the post's lease to run out."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        thread, session, here, there, up_there = await two_processes(standin, bot, chan, alice, bob)
        seen, front, scheduler = len(standin.messages(thread)), bot.front, bot.scheduler
        line = Said("🔁 Sub takes Beto's seat.")
        woken, wake = [], scheduler.wake

        def waking() -> None:
            woken.append(True)
            wake()

        scheduler.wake = waking

        async def other() -> None:
            now = await bot.sessions.core.get(session.id)
            assert await there.post_board(now, lines=[line], ping=False) is None  # the job is held

        between_read_and_post(front, other)
        assert await here.post_board(session, ping=False) is not None
        assert not any(str(line) in m.content for m in standin.messages(thread)[seen:])
        await scheduler.run_due()  # the clock not moved on
        await bot.front.catchup.drain()
        said = [m.content for m in standin.messages(thread)[seen:] if not m.ephemeral]
        assert len(said) == 2 and str(line) in said[1], said
        assert woken
        table_clock.advance(POST_LEASE + RETRY)
        await scheduler.run_due()
        await bot.front.catchup.drain()
        assert len([m for m in standin.messages(thread)[seen:] if not m.ephemeral]) == 2
        assert await bot.store.jobs.job(BOARD, str(session.id)) is None


def is_card(message) -> bool:
    return message.content.startswith("**Results** of") and not message.ephemeral


@pytest.mark.parametrize("when", ["posting", "over", "caught up first"])
async def test_a_game_s_end_caught_up_by_another_process_gets_one_last_board_and_one_results_card(
    standin, bot_factory, when
):
    """Bob's move ends the game; the other process reads the game as it stands, over and its end
    not told (its start's catch-up, or the board job's try), and tells that end too: while this
    process posts the last board (``posting``), once it posted it and the card (``over``), or
    first, this process's post finding the job held (``caught up first``).  The channel gets one
    last board and one results card."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        thread, session, here, there, up_there = await two_processes(standin, bot, chan, alice, bob)
        there.finished, there.controls = here.finished, here.controls  # (as its own front sets them)
        seen, front, core = len(standin.messages(thread)), bot.front, bot.sessions.core
        real_render, real_post, real_get = front.look.render, here.post_board, core.get

        async def render(now, *args, **kwargs):  # this process, posting the game's last board
            if now.status == "finished":
                front.look.render = real_render  # once
                await up_there._catch_up(session.id)
            return await real_render(now, *args, **kwargs)

        async def post_board(now, **kwargs):  # the other process takes the job first
            if now.status != "finished":
                return await real_post(now, **kwargs)
            here.post_board = real_post  # once
            mine: list[discord.Message | None] = []

            async def render_there(*args, **more):  # the other process, holding the job
                front.look.render = real_render
                mine.append(await real_post(now, **kwargs))  # finds the job held
                return await real_render(*args, **more)

            front.look.render = render_there
            await up_there._catch_up(session.id)
            assert mine == [None]
            return None

        if when == "posting":
            front.look.render = render
        elif when == "caught up first":
            here.post_board = post_board  # type: ignore[method-assign]
        while (now := await core.get(session.id)).status == "active":
            (seat,) = now.to_move()
            user = alice if now.by_seat(seat).user_id == alice.id else bob
            legal = await bot.sessions.play.legal_moves(thread.id, user.id)
            await (await standin.slash(user, thread, "nim move", move=legal[0])).original()
            await bot.front.catchup.drain()
        if when == "over":  # the other process read the game over before this one told its end
            stale = replace(now, row=replace(now.row, end_told=False))

            async def get(session_id):
                core.get = real_get  # once
                return stale

            core.get = get  # type: ignore[method-assign]
            await up_there._catch_up(session.id)
        await up_there.drain()
        await bot.front.catchup.drain()
        await standin.settle()
        new = standin.messages(thread)[seen:]
        finals = [m for m in new if is_board(m) and "**Game over**" in m.content]
        assert len(finals) == 1, [m.content for m in new]
        assert len([m for m in new if is_card(m)]) == 1, [m.content for m in new]


@pytest.mark.parametrize("arms", ["a line kept", "a refusal", "a post handed over"])
async def test_the_board_job_armed_while_a_post_holds_it_stays_held_and_a_third_post_tells_nothing_twice(
    standin, bot_factory, table_clock, arms
):
    """Alice's move is stored and not posted yet.  One process posts its board; while it holds the
    game's board job, between its reading and its post, the job is armed again elsewhere: a clock
    answer's line the channel refused kept for the board (``Unposted.again``), a board refused
    after a computer's turn (``Unposted.failed``), or a post that found the job held handing its
    sentences over.  A third post of the game's board, in another process, comes then: it finds
    the job held still and leaves the turn to the first post (handing nothing over).  Alice's move
    is told once, and the board job, armed so, is given back when the first post is over: its try
    posts the line the first post did not carry, once (not lost to the third post's hand-over, nor
    to the first post's board, which it was kept to follow)."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        thread, session, here, there, up_there = await two_processes(standin, bot, chan, alice, bob)
        third, up_third = another_process(bot.front)
        seen, front, core = len(standin.messages(thread)), bot.front, bot.sessions.core
        user, now = await to_move(bot, thread, (alice, bob))
        legal = await bot.sessions.play.legal_moves(thread.id, user.id)
        await bot.sessions.play.play(thread.id, user.id, legal[0])  # stored; its post comes next
        line = Said("⏱️ Bob answered: Alice has a day more.")
        real, thirds, claims = front.look.render, [], []

        async def render(*args, **kwargs):  # the first post, between its reading and its post
            front.look.render = real  # once
            held = await bot.store.jobs.job(BOARD, str(session.id))
            if arms == "a line kept":
                await there.unposted.again(now, Inside(now.row.board_message_id or 0, lines=(line,)))
            elif arms == "a refusal":
                refused = discord.Forbidden(type("R", (), {"status": 403, "reason": "Forbidden"})(), "no")
                await there.unposted.failed(now, refused, "after a computer's turn")
            else:
                assert await there.post_board(await core.get(session.id), lines=[line], ping=False) is None
            job = await bot.store.jobs.job(BOARD, str(session.id))
            claims.append((job.claim, job.claimed_until) == (held.claim, held.claimed_until))
            thirds.append(await third.post_board(await core.get(session.id)))
            return await real(*args, **kwargs)

        front.look.render = render
        await here.post_board(await core.get(session.id))
        given = await bot.store.jobs.job(BOARD, str(session.id))  # given back, armed, to its try
        table_clock.advance(RETRY)
        said = [
            m.content for m in await fired(standin, bot, thread, seen, bot.front.catchup, up_there, up_third)
        ]
        told = [text for text in said if " took " in text]
        assert len(told) == 1, said
        if arms != "a refusal":  # the line, which the first post did not carry, comes with its try
            assert sum(str(line) in text for text in said) == 1, said
        assert claims == [True] and thirds == [None]  # held by the first post still, when the third came
        assert given is not None and given.claim is None
        assert await bot.store.jobs.job(BOARD, str(session.id)) is None


async def test_a_post_calling_on_a_seat_again_that_finds_another_process_posting_calls_on_it_with_the_try(
    standin, bot_factory, table_clock
):
    """More time is given to the player to move (their turn starts again), and its board, with no
    line of its own (the channel took the answer's), finds the other process posting a board that
    does not call on them: the job's try, when that post is over, posts a board that does, once."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        thread, session, here, there, up_there = await two_processes(standin, bot, chan, alice, bob)
        seen, front = len(standin.messages(thread)), bot.front
        user, now = await to_move(bot, thread, (alice, bob))

        async def other() -> None:
            seat = now.seat_of(user.id).seat
            assert await there.post_board(now, ping=True, restarted=[seat]) is None

        between_read_and_post(front, other)
        await here.post_board(now, ping=False)
        table_clock.advance(POST_LEASE)
        posted = [
            m for m in await fired(standin, bot, thread, seen, bot.front.catchup, up_there) if is_board(m)
        ]
        assert [user.id in m.pinged for m in posted] == [False, True], [m.content for m in posted]
        table_clock.advance(RETRY)
        await bot.scheduler.run_due()
        assert len([m for m in standin.messages(thread)[seen:] if is_board(m)]) == 2


def abandon_told(standin, thread) -> list:
    """The messages in ``thread`` telling all that its game was abandoned."""
    return [m for m in standin.messages(thread) if "This game was abandoned" in m.content and not m.ephemeral]


@pytest.mark.parametrize("other", ["a catch-up", "an answer"])
async def test_an_abandon_told_by_two_processes_at_once_is_told_once(
    standin, bot_factory, table_clock, other
):
    """The game is abandoned and not told yet.  One process tells it (the answer to a clock); while
    it holds the game's board job, between its reading and its post, the other tells it too (its
    start's catch-up or the board job's try, or an answer there): the channel is told once, and
    the board job, fired when the first post's lease is over, tells nothing more."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        thread, session, here, there, up_there = await two_processes(standin, bot, chan, alice, bob)
        ended = await bot.sessions.seats.abandon(thread.id, alice.id, can_manage=True)  # stored, not told
        look = bot.front.look
        real = look.language

        async def language(*args, **kwargs):  # the first teller, between its reading and its post
            look.language = real  # once
            if other == "a catch-up":
                await up_there._catch_up(session.id)
            else:
                await there.tell_abandoned(await bot.sessions.core.get(session.id))
            return await real(*args, **kwargs)

        look.language = language  # type: ignore[method-assign]
        await here.tell_abandoned(ended)
        table_clock.advance(POST_LEASE)
        await fired(standin, bot, thread, 0, bot.front.catchup, up_there)
        told = abandon_told(standin, thread)
        assert len(told) == 1, [m.content for m in told]
        assert (await bot.sessions.core.get(session.id)).row.end_told
        assert await bot.store.jobs.job(BOARD, str(session.id)) is None


@pytest.mark.parametrize("owed", [False, True], ids=["", "a line owed"])
async def test_an_abandon_while_another_process_posts_a_board_is_told_once_after_that_board(
    standin, bot_factory, table_clock, owed
):
    """The other process posts the game's board; while it holds the board job, between its reading
    and its post, the game is abandoned here and its abandon told (with ``owed``, the answer that
    abandoned it refused first, kept for what follows, as a clock's answer is): the abandon finds
    the job held and is not told before that board, which would come after it with live buttons.
    The job's try, when that post is over, tells it once, under the refused line, and takes the
    buttons off that board."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        thread, session, here, there, up_there = await two_processes(standin, bot, chan, alice, bob)
        there.controls = here.controls  # (as its own front sets them)
        seen, front = len(standin.messages(thread)), bot.front
        line = Said("⏱️ Bob answered: the game is abandoned.")

        async def abandon() -> None:  # while the other process posts
            now = await bot.sessions.core.get(session.id)
            if owed:  # refused, and kept for what follows (ClockDesk.say)
                await here.unposted.again(now, Inside(now.row.board_message_id or 0, lines=(line,)))
            ended = await bot.sessions.seats.abandon(thread.id, alice.id, can_manage=True)
            await here.tell_abandoned(ended)

        between_read_and_post(front, abandon)
        board = await there.post_board(await bot.sessions.core.get(session.id), ping=False)
        assert board is not None
        table_clock.advance(POST_LEASE)
        posted = await fired(standin, bot, thread, seen, bot.front.catchup, up_there)
        assert [m.id for m in posted][0] == board.id, [m.content for m in posted]
        (told,) = abandon_told(standin, thread)
        assert told is posted[-1] and told.content.startswith(str(line)) == owed, told.content
        assert sum(str(line) in m.content for m in posted) == owed
        assert standin.message(board.id).custom_ids == []
        assert await bot.store.jobs.job(BOARD, str(session.id)) is None
        table_clock.advance(RETRY)
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        assert len(abandon_told(standin, thread)) == 1


async def test_a_move_stored_while_another_process_posts_the_board_gets_its_own_board(
    standin, bot_factory, table_clock
):
    """Process A posts Nim's board and, between reading what the channel was not told and its post,
    the next player's move is stored and process B's post of its board finds the job held (nothing
    of its own to say): A's board does not tell that move, so the job's try, once A's lease is
    over, posts the board that does, calling on whom it would have."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        thread, session, here, there, up_there = await two_processes(standin, bot, chan, alice, bob)
        seen, front = len([m for m in standin.messages(thread) if is_board(m)]), bot.front
        user, now = await to_move(bot, thread, (alice, bob))
        move = min(nim.legal_moves(now.state, now.seat_of(user.id).seat), key=lambda m: m.count)

        async def other() -> None:  # A has read the log and not posted yet
            played = await bot.sessions.play.play(thread.id, user.id, str(move))
            assert await there.post_board(played.session) is None  # B finds the job held

        between_read_and_post(front, other)
        await here.post_board(await bot.sessions.core.get(session.id), ping=False)
        table_clock.advance(POST_LEASE + RETRY)
        await fired(standin, bot, thread, seen, bot.front.catchup, up_there)
        boards = [m for m in standin.messages(thread) if is_board(m)][seen:]
        assert len(boards) == 2, [m.content for m in boards]
        after = await bot.sessions.core.get(session.id)
        assert after.row.board_message_id == boards[-1].id and after.row.told_through >= 1
        other = bob if user is alice else alice  # to move after that move: called by its board
        assert other.id in boards[-1].pinged and user.id not in boards[-1].pinged, boards[-1].content
        assert await bot.store.jobs.job(BOARD, str(session.id)) is None


def after_the_post(front, act, words: str) -> None:
    """Run ``act`` once, just after the channel took the next message the table posts with
    ``words`` in it, before what follows that post (recording it told, closing the game)."""
    look = front.look
    real = look.channel

    class Taking:  # the channel, whose next such post is followed by ``act``
        def __init__(self, channel):
            self.channel = channel

        def __getattr__(self, name):
            return getattr(self.channel, name)

        async def send(self, *args, **kwargs):
            message = await self.channel.send(*args, **kwargs)
            if words in (message.content or ""):
                look.channel = real  # once
                await act()
            return message

    look.channel = lambda session: Taking(real(session))


def told_abandoned(standin, thread, seen: int) -> list:
    """The messages in ``thread``, after its first ``seen``, saying to all that the game was abandoned."""
    return [m for m in standin.messages(thread)[seen:] if "abandoned" in m.content and not m.ephemeral]


@pytest.mark.parametrize("by", ["/game abandon", "a clock's answer", "/game abandon refused"])
async def test_an_abandon_told_by_its_own_line_is_told_once_across_processes(
    standin, bot_factory, table_clock, monkeypatch, by
):
    """The host abandons the game (``/game abandon``), or Bob answers Alice's timeout question
    "Abandon the game": the message saying so, its first line the answer's words, is posted, and
    just after the channel took it (before the abandon is recorded told) the other process catches
    the game up (its start's catch-up, or the board job's try), reading the abandon untold: it finds
    the abandon being told and tells nothing.  The channel hears of the abandon once, and the board
    job, fired when that post's lease is over, tells nothing more.  Refused (the thread takes no
    posts), the abandon's own line is kept for the board job's try, which tells it with the abandon,
    once, when the thread takes posts again."""
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        front = bot.front
        await standin.wait_synced()
        if by == "a clock's answer":  # Bob answers Alice's
            thread, alice, bob, session, question = await asked_in_a_thread(
                standin, bot, table_clock, monkeypatch
            )
        else:
            alice, bob = standin.add_users("alice", "bob")
            thread, _ = await start_game(standin, bot, chan, alice, bob)
            session = await bot.sessions.core.in_channel(thread.id)
        there, up_there = another_process(front)
        seen, board = len(standin.messages(thread)), session.row.board_message_id

        async def catch_up() -> None:  # the other process reads the abandon stored and not told
            assert (await bot.sessions.core.get(session.id)).row.end_told is False
            await up_there._catch_up(session.id)

        after_the_post(front, catch_up, "abandoned")
        if by == "/game abandon refused":
            standin.set_permissions(chan, standin.bot_user, deny=SEND_MESSAGES_IN_THREADS)
            await standin.settle()
        if by == "a clock's answer":
            answer = await standin.click(bob, question, "Abandon the game")
        else:
            answer = await standin.slash(alice, thread, "game abandon")
        assert "bandoned" in (await answer.original()).content
        await front.catchup.drain()
        if by == "/game abandon refused":
            assert told_abandoned(standin, thread, seen) == []
            standin.set_permissions(chan, standin.bot_user)
            await standin.settle()
            table_clock.advance(RETRY)
            await bot.scheduler.run_due()
            await front.catchup.drain()
        table_clock.advance(POST_LEASE)
        await fired(standin, bot, thread, seen, front.catchup, up_there)
        (told,) = told_abandoned(standin, thread, seen)
        first, second = told.content.splitlines()
        if by == "a clock's answer":
            assert first == f"<@{bob.id}> answered: the game is abandoned.", told.content
            assert second.startswith("This game was abandoned when a player's time ran out."), told.content
        else:
            assert first == f"The Nim game was abandoned by <@{alice.id}>.", told.content
            # the line says it was abandoned, and by whom: what follows says only what to do next
            assert second.startswith("Play again with `/nim new`"), told.content
        assert told.pinged == frozenset(), told.content
        assert (await bot.sessions.core.get(session.id)).row.end_told
        assert standin.message(board).custom_ids == []  # the game's board closed
        assert await bot.store.jobs.job(BOARD, str(session.id)) is None
        table_clock.advance(RETRY)
        await bot.scheduler.run_due()
        await front.catchup.drain()
        assert len(told_abandoned(standin, thread, seen)) == 1


@pytest.mark.parametrize("refused", [False, True], ids=["", "refused"])
async def test_lines_handed_to_an_abandon_being_told_are_told_once_after_it(
    standin, bot_factory, table_clock, refused
):
    """The game is abandoned here and its abandon told; while that holds the game's board job,
    between its reading and its post, the other process posts a board of the game as it read it
    before the abandon (a header, a line above it pinging Bob, a note), finds the job held and
    hands its sentences to the job.  The abandon is told without them; the job's try, when that
    post's lease is over, tells the line and the note, once, after it, pinging Bob (no header: no
    board follows an abandon), and nothing more.  With ``refused``, the abandon's post is refused
    (after the hand-over): the try tells the abandon with the line and the note, once."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        thread, session, here, there, up_there = await two_processes(standin, bot, chan, alice, bob)
        seen, look = len(standin.messages(thread)), bot.front.look
        line, note = Said(f"🔁 <@{bob.id}> takes Beto's seat."), Said("Beto resigned.")
        header = Said("**Nim**: the board now")
        real = look.language

        async def language(*args, **kwargs):  # the abandon's telling, between its reading and its post
            look.language = real  # once
            handed = await there.post_board(
                session, header=header, lines=[line], pings=[bob.id], note=note, ping=False
            )
            assert handed is None  # the job is held
            if refused:
                standin.set_permissions(chan, standin.bot_user, deny=SEND_MESSAGES_IN_THREADS)
                await standin.settle()
            return await real(*args, **kwargs)

        ended = await bot.sessions.seats.abandon(thread.id, alice.id, can_manage=True)  # stored, not told
        look.language = language  # type: ignore[method-assign]
        if refused:
            with pytest.raises(discord.HTTPException):
                await here.tell_abandoned(ended)
            standin.set_permissions(chan, standin.bot_user)
            await standin.settle()
            table_clock.advance(RETRY)
        else:
            await here.tell_abandoned(ended)
            assert [m.content for m in standin.messages(thread)[seen:]] == [
                m.content for m in abandon_told(standin, thread)
            ]
            table_clock.advance(POST_LEASE)
        posted = await fired(standin, bot, thread, seen, bot.front.catchup, up_there)
        (told,) = abandon_told(standin, thread)
        for sentence in (line, note):
            assert sum(str(sentence) in m.content for m in posted) == 1, [m.content for m in posted]
        assert not any(str(header) in m.content or is_board(m) for m in posted), [m.content for m in posted]
        carried = next(m for m in posted if str(line) in m.content)
        assert str(note) in carried.content and bob.id in carried.pinged, carried.content
        assert (carried is told) == refused and posted[-1] is carried, [m.content for m in posted]
        assert await bot.store.jobs.job(BOARD, str(session.id)) is None
        table_clock.advance(RETRY)
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        assert len(standin.messages(thread)) == seen + len(posted)


async def test_a_refusal_armed_while_an_abandon_is_told_does_not_tell_its_lines_again(
    standin, bot_factory, table_clock
):
    """The board job keeps a line refused before (a clock's answer); the game is abandoned and its
    abandon told, under that line.  While the telling holds the job, between its reading and its
    post, the other process arms the job for a board refused there (after a computer's turn): the
    line, which the telling carries, is not kept for the job's try, which tells nothing more."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        thread, session, here, there, up_there = await two_processes(standin, bot, chan, alice, bob)
        seen, look = len(standin.messages(thread)), bot.front.look
        line = Said("⏱️ Bob answered: Alice has a day more.")
        await here.unposted.again(session, Inside(session.row.board_message_id or 0, lines=(line,)))
        real = look.language

        async def language(*args, **kwargs):  # the abandon's telling, between its reading and its post
            look.language = real  # once
            refused = discord.Forbidden(type("R", (), {"status": 403, "reason": "Forbidden"})(), "no")
            await there.unposted.failed(session, refused, "after a computer's turn")
            return await real(*args, **kwargs)

        ended = await bot.sessions.seats.abandon(thread.id, alice.id, can_manage=True)  # stored, not told
        look.language = language  # type: ignore[method-assign]
        await here.tell_abandoned(ended)
        table_clock.advance(RETRY)
        posted = await fired(standin, bot, thread, seen, bot.front.catchup, up_there)
        (told,) = abandon_told(standin, thread)
        assert [m.id for m in posted] == [told.id] and told.content.startswith(str(line)), told.content
        assert await bot.store.jobs.job(BOARD, str(session.id)) is None
