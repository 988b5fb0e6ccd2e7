"""What follows a board once it is recorded: the turn notices of those whose turn it began (and
their reminders), or a game's end told to its players.  The board's record arms the board's
``after_board`` job, dropped once they are told; a stop between the two leaves it, and the restart
tells them once the stopped process's hold is over: a turn notice Discord took before the stop
carries the same nonce, so within Discord's few minutes it is received once; past them, again (at
least once)."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager

import pytest

from bot.surface import nonces
from bot.surface.boards import POST_LEASE
from bot.waits import AUTOPLAY_DELAY
from tests.e2e import test_restarts, test_told_once
from tests.e2e.players import settled
from tests.e2e.test_restarts import Stopped, closing, cut, due_after, started, stops_at
from tests.e2e.test_told_once import late_or_not, stops_once_taken
from tests.e2e.test_told_once_dms import is_end, is_turn_notice, wanting_dms
from tests.e2e.test_undo import nim_game

# the bot on SQLite and on PostgreSQL, the same across restarts; Discord's clock moved by hand only
make_bot, standin_options = test_restarts.make_bot, test_told_once.standin_options

HOUR = 3600.0


def turn_notices(standin, user) -> list:
    return [m for m in standin.messages(standin.dm(user)) if is_turn_notice(m)]


def repeats_answered(standin) -> list:
    """The messages the stand-in answers a repeated nonce with (Discord creating none): the list
    gets each."""
    repeat, answered = standin._nonce_repeat, []

    def spied(author, data):
        message = repeat(author, data)
        if message is not None:
            answered.append(message)
        return message

    standin._nonce_repeat = spied
    return answered


@asynccontextmanager
async def told_again(standin, make_bot, table_clock, late: bool):
    """The bot started again within Discord's window (or, ``late``, past it), and what the stopped
    process left told once its hold is over: the bot, and the messages Discord answered a repeated
    nonce with (creating none)."""
    late_or_not(standin, late)
    answered = repeats_answered(standin)
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        await due_after(standin, bot, table_clock, POST_LEASE)
        yield bot, answered


async def moved_until(standin, bot, chan, mover, stop) -> object:
    """``mover`` moves and the board is posted and recorded; the process stops where ``stop`` arranged
    (:func:`stops_at`, or :func:`stops_once_taken` arranged before).  The move's board."""
    legal = await bot.sessions.play.legal_moves(chan.id, mover.id)
    result = await bot.sessions.play.play(chan.id, mover.id, legal[-1])
    stop()
    try:
        await bot.front.boards.announce(result)
    except Stopped:
        pass  # (whether the rest of the board's work used the database after the stop)
    closing(bot)
    return (await bot.sessions.core.get(result.session.id)).row.board_message_id


async def moved_in_turn(standin, bot, chan, movers) -> None:
    """Each of ``movers`` in turn moves (``/nim move``), and the board is posted."""
    for mover in movers:
        legal = await bot.sessions.play.legal_moves(chan.id, mover.id)
        await (await standin.slash(mover, chan, "nim move", move=legal[0])).original()
        await bot.front.catchup.drain()
        await settled(standin)


async def test_a_stop_after_a_board_s_record_and_before_its_turn_notice_leaves_it_to_the_restart(
    standin, make_bot, table_clock
):
    """Alice and Bob want DMs and a reminder every 6 hours.  The first player moves; the board is
    posted and recorded, and the bot stops before telling the other player it is their turn.
    Started again, once the stopped process's hold is over, the other player gets the turn notice,
    once, linking to that board, and their reminder is armed for 6 hours after the turn began."""
    chan = standin.channel("games")
    async with standin.run_client(make_bot) as bot:
        session, first, other = await wanting_dms(standin, bot, chan, remind_hours=6)
        began = table_clock.time()
        board = await moved_until(
            standin, bot, chan, first, lambda: stops_at(bot, bot.front.notifier, "after_board")
        )
        assert board is not None and turn_notices(standin, other) == []
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        assert turn_notices(standin, other) == []  # (not before the stopped process's hold is over)
        await due_after(standin, bot, table_clock, POST_LEASE)
        (notice,) = turn_notices(standin, other)
        assert f"/{chan.id}/{board}" in notice.content and f"#{session.id}" in notice.content
        assert notice.extra["nonce"] == nonces.post_nonce(session, nonces.TURN, other.id, board)
        reminder = await bot.store.jobs.job("remind", str(other.id))
        assert reminder is not None and reminder.due_at == began + 6 * HOUR
        assert not await bot.store.jobs.pending("after_board")
        await due_after(standin, bot, table_clock, POST_LEASE)  # nothing more: told once
        assert turn_notices(standin, other) == [notice]


@pytest.mark.parametrize("late", [False, True], ids=["within", "past"])
async def test_a_turn_notice_discord_took_just_before_a_stop_is_told_again_by_the_restart_and_received_once(
    standin, make_bot, table_clock, late
):
    """The first player moves; the board is posted and recorded, and the other player's turn
    notice reaches Discord just before the bot stops, its ``after_board`` job not dropped.  Started
    again, once the stopped process's hold is over, the job tells the notice again with the same
    nonce: within Discord's window Discord answers with the first message, and the other player has
    the notice once; past it, twice.  The next turn's notice, the first player's, comes when the
    other moves."""
    chan = standin.channel("games")
    async with standin.run_client(make_bot) as bot:
        session, first, other = await wanting_dms(standin, bot, chan, remind_hours=0)
        taken = stops_once_taken(standin, bot, is_turn_notice)  # (the move itself creates no message)
        board = await moved_until(standin, bot, chan, first, lambda: None)
        (notice,) = taken
        assert notice.channel is standin.dm(other)
    async with told_again(standin, make_bot, table_clock, late) as (bot, answered):
        notices = turn_notices(standin, other)
        assert notices[0] is notice and len(notices) == (2 if late else 1)
        assert answered == ([] if late else [notice])  # told again: Discord's first message
        assert {m.extra["nonce"] for m in notices} == {
            nonces.post_nonce(session, nonces.TURN, other.id, board)
        }
        assert not await bot.store.jobs.pending("after_board")
        before = len(standin.messages(standin.dm(first)))
        legal = await bot.sessions.play.legal_moves(chan.id, other.id)
        await (await standin.slash(other, chan, "nim move", move=legal[0])).original()
        await bot.front.catchup.drain()
        await settled(standin)
        assert [is_turn_notice(m) for m in standin.messages(standin.dm(first))[before:]] == [True]


async def test_a_stop_after_a_game_s_last_board_and_before_its_end_is_told_leaves_it_to_the_restart(
    standin, make_bot, table_clock
):
    """Alice and Bob want DMs; the last move of their one-pile game is posted and recorded, and the
    bot stops before telling them the game is over.  Started again, once the stopped process's
    hold is over, each has the game's end by direct message, once."""
    chan = standin.channel("games")
    async with standin.run_client(make_bot) as bot:
        session, first, other = await wanting_dms(standin, bot, chan, piles=1, remind_hours=0)
        await moved_until(standin, bot, chan, first, lambda: stops_at(bot, bot.front.notifier, "game_ended"))
        assert (await bot.sessions.core.get(session.id)).status == "finished"
        assert [m for u in (first, other) for m in standin.messages(standin.dm(u)) if is_end(m)] == []
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        for _ in range(2):  # (a second lease: nothing more)
            await due_after(standin, bot, table_clock, POST_LEASE)
            for user in (first, other):
                ends = [m for m in standin.messages(standin.dm(user)) if is_end(m)]
                assert len(ends) == 1 and f"#{session.id} on" in ends[0].content, [m.content for m in ends]
        assert not await bot.store.jobs.pending("after_board")


async def test_a_turn_notice_left_by_a_stop_is_not_told_once_later_boards_told_the_turns_since(
    standin, make_bot, table_clock
):
    """The first player moves and the bot stops after recording the board, before telling the other
    player.  Started again, the other player and then the first move before the stopped process's
    hold is over, each board telling the next to move.  When the left ``after_board`` job fires,
    its board is no longer the game's last: the other player, to move again, has the notice of the
    last board only."""
    chan = standin.channel("games")
    async with standin.run_client(make_bot) as bot:
        session, first, other = await wanting_dms(standin, bot, chan, remind_hours=0)
        board = await moved_until(
            standin, bot, chan, first, lambda: stops_at(bot, bot.front.notifier, "after_board")
        )
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        await moved_in_turn(standin, bot, chan, (other, first))
        last = (await bot.sessions.core.get(session.id)).row.board_message_id
        assert last != board and await bot.store.jobs.job("after_board", f"{session.id}:{board}") is not None
        await due_after(standin, bot, table_clock, POST_LEASE)
        (notice,) = turn_notices(standin, other)
        assert f"/{chan.id}/{last}" in notice.content
        assert not await bot.store.jobs.pending("after_board")


async def test_a_forced_move_a_stop_left_unarmed_after_its_board_is_played_after_the_restart(
    standin, make_bot, table_clock
):
    """Alice and Bob allow autoplay in one-pile Nim; the first player leaves one stone, so the
    other has one legal move.  The board is posted and recorded, and the bot stops before arming
    the forced move's job.  Started again, once the stopped process's hold is over, the job is
    armed, and the move is played for them after the autoplay delay.  Before, the game waited on
    them as if they had not allowed it."""
    chan = standin.channel("games")
    alice, bob = standin.add_users("alice", "bob")
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        for user in (alice, bob):
            await bot.store.waits.set_autoplay(user.id, True)
        boards, first_board = bot.front.boards, asyncio.Event()
        waits_after = boards.waits_after

        async def first_done(*args, **kwargs):  # (the first board's own, before the stop is arranged)
            try:
                return await waits_after(*args, **kwargs)
            finally:
                first_board.set()

        boards.waits_after = first_done
        session, first, second = await nim_game(standin, bot, chan, alice, bob, piles=1)
        await first_board.wait()
        legal = await bot.sessions.play.legal_moves(chan.id, first.id)
        leaving_one = next(m for m in legal if str(m) == f"A{session.state.piles[0] - 1}")
        result = await bot.sessions.play.play(chan.id, first.id, leaving_one)
        stops_at(bot, bot.front.boards, "waits_after")
        await cut(bot, bot.front.boards.announce(result))
        seat = session.seat_of(second.id).seat
        assert await bot.store.jobs.job("autoplay", f"{session.id}:{seat}") is None
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        await due_after(standin, bot, table_clock, POST_LEASE)
        assert await bot.store.jobs.job("autoplay", f"{session.id}:{seat}") is not None
        await due_after(standin, bot, table_clock, AUTOPLAY_DELAY)
        ended = await bot.sessions.core.get(session.id)
        assert ended.status == "finished" and ended.state.winner == seat


async def test_a_turn_notice_a_stop_left_untold_is_told_though_a_board_was_asked_for_since(
    standin, make_bot, table_clock
):
    """The first player moves; the board is posted and recorded, and the bot stops before telling
    the other player it is their turn.  Started again, the first player asks for the board
    (``/game board``), which begins no turn and calls on nobody; once the stopped process's hold
    is over, the other player, still on the turn the stopped board began, gets its notice, once."""
    chan = standin.channel("games")
    async with standin.run_client(make_bot) as bot:
        session, first, other = await wanting_dms(standin, bot, chan)
        board = await moved_until(
            standin, bot, chan, first, lambda: stops_at(bot, bot.front.notifier, "after_board")
        )
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        await (await standin.slash(first, chan, "game board")).original()
        await settled(standin)
        assert (await bot.sessions.core.get(session.id)).row.board_message_id != board
        assert turn_notices(standin, other) == []
        await due_after(standin, bot, table_clock, POST_LEASE)
        (notice,) = turn_notices(standin, other)
        assert notice.extra["nonce"] == nonces.post_nonce(session, nonces.TURN, other.id, board)
        await due_after(standin, bot, table_clock, POST_LEASE)
        assert turn_notices(standin, other) == [notice]
