"""Direct messages that Discord took just before a stop: a reminder (and the turn notice quiet hours
held, which a reminder carries), whose ``remind`` job the restart fires again, is received once
within Discord's few minutes; the next reminder, and the next turn's notice, are received all the
same.  A turn notice sent after its board: see :mod:`tests.e2e.test_told_once_after_board`."""

from __future__ import annotations

from contextlib import asynccontextmanager

import pytest

from bot.surface import nonces
from bot.time.jobs import AFTER_BOARD
from tests.e2e import test_restarts, test_told_once
from tests.e2e.players import settled
from tests.e2e.test_restarts import asked, day_bank_game, due_after, started
from tests.e2e.test_told_once import late_or_not, wanting
from tests.e2e.test_told_once_more import a_day_on_until_a_stop
from tests.e2e.test_undo import nim_game
from tests.support.polling import until

# the bot on SQLite and on PostgreSQL, the same across restarts; Discord's clock moved by hand only
make_bot, standin_options = test_restarts.make_bot, test_told_once.standin_options
day_bank_table = test_restarts.day_bank_table

HOUR = 3600.0
LIMA_SEVEN = 4 * HOUR  # from the table clock's start (03:00 in Lima) to 07:00 there
QUIET = {"remind_hours": 0, "time_zone": "America/Lima", "quiet_start": 22, "quiet_end": 7}
"""DMs, no reminders, quiet hours 22-7 in Lima (the table clock starts at 03:00 there)."""


def is_reminder(message) -> bool:
    return message.content.startswith("Reminder")


def is_turn_notice(message) -> bool:
    return message.content.startswith("It is your turn in")


def is_end(message) -> bool:
    return "is over." in message.content


def is_time_ran_out(message) -> bool:
    return message.content.startswith("⏰") and "ran out" in message.content


async def wanting_dms(standin, bot, chan, piles: int = 3, **settings):
    """Alice and Bob want their notices by direct message (with ``settings`` more), and their Nim
    game of ``piles`` piles in ``chan`` has begun: its session, who is to move, the other."""
    alice, bob = standin.add_users("alice", "bob")
    await started(standin, bot)
    await wanting(bot, (alice, bob), **settings)
    session, first, other = await nim_game(standin, bot, chan, alice, bob, piles)
    await bot.front.catchup.drain()
    await settled(standin)
    await boards_settled(bot)
    return session, first, other


async def boards_settled(bot) -> None:
    """What follows the boards posted so far is done (their ``after_board`` jobs dropped), so that
    a stop a test arranges next cuts its own board's, not one still running for an earlier board."""

    async def done() -> bool:  # (a row to wait for, no event; the board's own task goes on meanwhile)
        return not await bot.store.jobs.pending(AFTER_BOARD)

    await until(done, "what follows the boards done (no after_board job pending)", tries=3000)


@asynccontextmanager
async def fired_again(standin, make_bot, table_clock):
    """The bot started again, and the ``remind`` job the stopped process held fired once its hold
    (the scheduler's lease) is over."""
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        await due_after(standin, bot, table_clock, bot.scheduler.lease)
        yield bot


@pytest.mark.parametrize("late", [False, True], ids=["within", "past"])
async def test_a_reminder_discord_took_just_before_a_stop_is_received_once_and_the_next_one_too(
    standin, make_bot, table_clock, late
):
    """Alice and Bob want a reminder every 6 hours.  Six hours into a turn the reminder reaches
    Discord and the bot stops before arming the next.  Started again, the job fires again: within
    Discord's window that is the same message, and the person has it once; past it, twice.  The
    next reminder, 6 hours on (Discord's clock standing still), is a message of its own."""
    chan = standin.channel("games")
    async with standin.run_client(make_bot) as bot:
        _, first, _ = await wanting_dms(standin, bot, chan, remind_hours=6)
        assert [m for m in standin.messages(standin.dm(first)) if is_reminder(m)] == []
        reminder = await a_day_on_until_a_stop(standin, bot, table_clock, is_reminder, 6 * HOUR)
        due = table_clock.time()
    late_or_not(standin, late)
    async with fired_again(standin, make_bot, table_clock) as bot:
        reminders = [m for m in standin.messages(standin.dm(first)) if is_reminder(m)]
        assert reminders[0] is reminder and len(reminders) == (2 if late else 1)
        job = await bot.store.jobs.job("remind", str(first.id))
        assert job is not None and job.due_at > table_clock.time()
        await due_after(standin, bot, table_clock, job.due_at - table_clock.time())
        after = [m for m in standin.messages(standin.dm(first)) if is_reminder(m)]
        assert len(after) == len(reminders) + 1 and "your turn in 1 game" in after[-1].content
        # the person and which reminder: the one due then (the next one's is another)
        assert reminder.extra["nonce"] == nonces.told_nonce(nonces.REMINDER, first.id, due, False)
        assert after[-1].extra["nonce"] != reminder.extra["nonce"]


async def test_a_turn_notice_quiet_hours_held_discord_took_just_before_a_stop_is_received_once(
    standin, make_bot, table_clock
):
    """Alice and Bob want DMs, no reminders, and quiet hours 22-7 in Lima; their game begins at
    03:00 there, so the first to move is told at 07:00, by the ``remind`` job holding the notice.
    That message reaches Discord and the bot stops before the job is done.  Started again, the job
    tells it again: the same message, received once.  The next turn's notice, the other player's,
    is received all the same, and so is the first player's after it."""
    chan = standin.channel("games")
    async with standin.run_client(make_bot) as bot:
        session, first, other = await wanting_dms(standin, bot, chan, **QUIET)
        assert standin.messages(standin.dm(first)) == []
        told = await a_day_on_until_a_stop(standin, bot, table_clock, is_reminder, LIMA_SEVEN)
        assert "your turn in 1 game" in told.content
    async with fired_again(standin, make_bot, table_clock) as bot:
        assert standin.messages(standin.dm(first)) == [told]
        assert await bot.store.jobs.job("remind", str(first.id)) is None
        for mover, told_now in ((first, other), (other, first)):
            before = len(standin.messages(standin.dm(told_now)))
            legal = await bot.sessions.play.legal_moves(chan.id, mover.id)
            await (await standin.slash(mover, chan, "nim move", move=legal[0])).original()
            await bot.front.catchup.drain()
            await settled(standin)
            notices = standin.messages(standin.dm(told_now))[before:]
            assert len(notices) == 1 and is_turn_notice(notices[0]), [m.content for m in notices]
            assert f"#{session.id}" in notices[0].content


async def test_a_game_s_end_quiet_hours_held_discord_took_just_before_a_stop_is_received_once(
    standin, make_bot, table_clock
):
    """Alice and Bob's one-pile game ends at 03:00 in Lima, in their quiet hours: each is told the
    result at 07:00, by an ``end_notice`` job.  The first of those messages reaches Discord and the
    bot stops before its job is done.  Started again, the job tells it again: the same message,
    received once; the other player's comes all the same."""
    chan = standin.channel("games")
    async with standin.run_client(make_bot) as bot:
        session, first, other = await wanting_dms(standin, bot, chan, piles=1, **QUIET)
        legal = await bot.sessions.play.legal_moves(chan.id, first.id)
        await (await standin.slash(first, chan, "nim move", move=legal[-1])).original()
        await bot.front.catchup.drain()
        await settled(standin)
        assert (await bot.sessions.core.get(session.id)).status == "finished"
        assert standin.messages(standin.dm(first)) == standin.messages(standin.dm(other)) == []
        told = await a_day_on_until_a_stop(standin, bot, table_clock, is_end, LIMA_SEVEN)
    async with fired_again(standin, make_bot, table_clock) as bot:
        for user in (first, other):
            ends = [m for m in standin.messages(standin.dm(user)) if is_end(m)]
            assert len(ends) == 1 and f"#{session.id} on" in ends[0].content, [m.content for m in ends]
        assert told in standin.messages(told.channel)
        assert not await bot.store.jobs.pending("end_notice")


async def test_a_timeout_question_s_dm_quiet_hours_held_discord_took_just_before_a_stop_is_received_once(
    standin, make_bot, table_clock, day_bank_table
):
    """Alice and Bob want DMs, no reminders, and quiet hours 22-7 in Lima; a one-day bank runs out
    at 03:00 there, so the question what now is told to each by direct message at 07:00 (a
    ``timeout_notice`` job each).  The first of those messages reaches Discord and the bot stops
    before its job is done.  Started again, the jobs tell them again: each player has the message
    once, linking to the question."""
    alice, bob, chan = day_bank_table
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        await wanting(bot, (alice, bob), **QUIET)
        thread, _, _ = await day_bank_game(standin, bot, alice, bob, chan)
        question = await asked(standin, bot, table_clock, thread)
        dms = (standin.dm(alice), standin.dm(bob))
        assert [m for dm in dms for m in standin.messages(dm)] == []
        told = await a_day_on_until_a_stop(
            standin, bot, table_clock, lambda m: m.channel in dms and is_time_ran_out(m), LIMA_SEVEN
        )
    async with fired_again(standin, make_bot, table_clock) as bot:
        for dm in dms:
            (once,) = [m for m in standin.messages(dm) if is_time_ran_out(m)]
            assert f"/{thread.id}/{question.id}" in once.content
        assert told in standin.messages(told.channel)
        assert not await bot.store.jobs.pending("timeout_notice")
