"""A timeout question and a stop (a crash, a deploy): a person's answer, stored, and the stop
before the channel was told what it decided: the restart tells it, once within Discord's few
minutes; with more time, with the board that calls on the late player again.  And the question's
direct messages, which a stop just after the question was posted left unsent: the restart sends
them, once within those minutes."""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e import test_restarts, test_told_once
from tests.e2e.leagues import DAY
from tests.e2e.test_clocks import is_question
from tests.e2e.test_notices import is_board
from tests.e2e.test_restarts import asked, closing, cut, day_bank_game, stops_at
from tests.e2e.test_told_once import stops_once_taken, wanting
from tests.e2e.test_told_once_more import a_day_on_until_a_stop, back

# the bot on SQLite and on PostgreSQL, the same across restarts; Discord's clock moved by hand only
make_bot, standin_options = test_restarts.make_bot, test_told_once.standin_options
day_bank_table = test_restarts.day_bank_table

BUTTONS = {"more": "Give more time", "computer": "Computer plays the seat", "abandon": "Abandon the game"}


def answers(thread_messages, person) -> list:
    """The channel's lines saying what ``person`` answered (not their own private reply)."""
    return [
        m for m in thread_messages if m.content.startswith(f"<@{person.id}> answered:") and not m.ephemeral
    ]


async def question_asked(standin, bot, table_clock, day_bank_table):
    """Alice and Bob's game under a one-day bank, the late player's time run out and the question
    asked: the thread, the question, the late player and the other."""
    alice, bob, chan = day_bank_table
    thread, late, _ = await day_bank_game(standin, bot, alice, bob, chan)
    question = await asked(standin, bot, table_clock, thread)
    return thread, question, late, bob if late is alice else alice


async def answered_until_the_stop(standin, bot, other, question, choice: str = "more") -> None:
    """``other`` answers ``choice``, and the click's handling goes on until the stop ends it; then
    the database answers again, for the stopped bot to close."""
    desk, ended = bot.front.clocks, asyncio.Event()
    answer = desk.answer

    async def answering(*args, **kwargs):
        try:
            return await answer(*args, **kwargs)
        finally:
            ended.set()

    desk.answer = answering
    await standin.click(other, question, BUTTONS[choice])
    await ended.wait()
    closing(bot)


@pytest.mark.parametrize("choice", ["more", "computer"])
async def test_an_answer_stored_just_before_a_stop_is_told_after_the_restart(
    standin, make_bot, table_clock, day_bank_table, choice
):
    """The other player answers the question; the answer is stored and the bot stops before the
    channel is told of it.  Started again, the question's job says who answered what, once, with
    the board that follows: with more time, the board that calls on the late player again; with
    the computer, the board of its move (the start's).  Before, neither the line nor (with more
    time) the board came: the late player was never called on again."""
    async with standin.run_client(make_bot) as bot:
        thread, question, late, other = await question_asked(standin, bot, table_clock, day_bank_table)
        stops_at(bot, bot.front.clocks, "say")
        await answered_until_the_stop(standin, bot, other, question, choice)
        assert not answers(standin.messages(thread), other)
    async with back(standin, make_bot, table_clock, late=False) as bot:
        said = answers(standin.messages(thread), other)
        assert len(said) == 1, [m.content for m in standin.messages(thread)]
        boards = [m for m in standin.messages(thread) if is_board(m) and m.id > question.id]
        assert boards, [m.content for m in standin.messages(thread)]
        if choice == "more":  # the board after the line, calling on the late player again
            assert boards[-1].id > said[0].id and late.id in boards[-1].pinged, boards[-1].pinged
        assert not standin.message(question.id).components
        assert not await bot.store.jobs.pending("timeout")


@pytest.mark.parametrize("late", [False, True], ids=["within", "past"])
async def test_more_time_said_just_before_a_stop_is_said_once_and_its_board_follows(
    standin, make_bot, table_clock, day_bank_table, late
):
    """The other player gives more time; the line saying so reaches Discord and the bot stops
    before the board that follows.  Started again, the line is said again, which within Discord's
    window is the same post (past it, a second), and the board calling on the late player follows,
    once.  Before, the line was recorded told as it was posted, and the board never came."""
    async with standin.run_client(make_bot) as bot:
        thread, question, late_player, other = await question_asked(standin, bot, table_clock, day_bank_table)
        taken = stops_once_taken(standin, bot, lambda m: m.content.startswith(f"<@{other.id}> answered:"))
        await answered_until_the_stop(standin, bot, other, question)
        (line,) = taken
    async with back(standin, make_bot, table_clock, late) as bot:
        said = answers(standin.messages(thread), other)
        assert said[0] is line and len(said) == (2 if late else 1), [m.content for m in said]
        boards = [m for m in standin.messages(thread) if is_board(m) and m.id > line.id]
        assert len(boards) == 1 and late_player.id in boards[0].pinged, [m.content for m in boards]


async def test_more_time_whose_board_was_posted_before_a_stop_is_not_told_again(
    standin, make_bot, table_clock, day_bank_table
):
    """The other player gives more time; the line and the board calling on the late player reach
    Discord, and the bot stops before recording that board.  Started again within Discord's
    window, nothing is posted twice: the line once, the board once (the same post)."""
    async with standin.run_client(make_bot) as bot:
        thread, question, late_player, other = await question_asked(standin, bot, table_clock, day_bank_table)
        taken = stops_once_taken(standin, bot, lambda m: is_board(m) and m.id > question.id)
        await answered_until_the_stop(standin, bot, other, question)
        (board,) = taken
    async with back(standin, make_bot, table_clock, late=False) as bot:
        assert len(answers(standin.messages(thread), other)) == 1
        boards = [m for m in standin.messages(thread) if is_board(m) and m.id > question.id]
        assert boards == [board] and late_player.id in board.pinged
        assert not await bot.store.jobs.pending("timeout")


async def test_an_abandon_stored_just_before_a_stop_is_told_once_after_the_restart(
    standin, make_bot, table_clock, day_bank_table
):
    """The other player abandons the game as the late player's time ran out; the end is stored
    and the bot stops before telling it.  Started again, the channel is told the game was
    abandoned, once, its question loses its buttons and its job goes: the answer's own line is not
    said after that message (the message says the game ended as a time ran out)."""
    async with standin.run_client(make_bot) as bot:
        thread, question, _, other = await question_asked(standin, bot, table_clock, day_bank_table)
        stops_at(bot, bot.front.boards, "tell_abandoned")
        await answered_until_the_stop(standin, bot, other, question, "abandon")
        assert not [m for m in standin.messages(thread) if "abandoned" in m.content and not m.ephemeral]
    async with back(standin, make_bot, table_clock, late=False) as bot:
        told = [m for m in standin.messages(thread) if "abandoned" in m.content and not m.ephemeral]
        assert len(told) == 1, [m.content for m in standin.messages(thread)]
        assert not answers([m for m in standin.messages(thread) if m.id > told[0].id], other)
        assert not standin.message(question.id).components
        assert not await bot.store.jobs.pending("timeout")


def ran_out_dms(standin, user) -> list:
    """The direct messages telling ``user`` that a time ran out (theirs, or another's)."""
    return [m for m in standin.messages(standin.dm(user)) if "time ran out" in m.content.lower()]


async def test_a_question_posted_just_before_a_stop_is_told_by_direct_message_after_the_restart(
    standin, make_bot, table_clock, day_bank_table
):
    """Both players want direct messages.  A day on, the late player's bank runs out and the
    question reaches the thread; the bot stops before writing to them.  Started again, the
    question's ``ask`` job asks it again, which within Discord's window is the same post, and each
    player gets the direct message about it, once.  Before, the job went as the question was posted,
    and nobody was written to: the late player never learnt that they could still move."""
    alice, bob, chan = day_bank_table
    async with standin.run_client(make_bot) as bot:
        thread, late, _ = await day_bank_game(standin, bot, alice, bob, chan)
        await wanting(bot, (alice, bob))
        stops_at(bot, bot.front.clocks, "tell_asked")
        table_clock.advance(DAY)
        await cut(bot, bot.scheduler.run_due())
        assert [m for m in standin.messages(thread) if is_question(m)]
        assert ran_out_dms(standin, alice) == ran_out_dms(standin, bob) == []
    async with back(standin, make_bot, table_clock, late=False) as bot:
        assert len([m for m in standin.messages(thread) if is_question(m)]) == 1
        for user in (alice, bob):
            (dm,) = ran_out_dms(standin, user)
            assert ("Your time ran out" in dm.content) == (user is late), dm.content
        assert not await bot.store.jobs.pending("ask")


@pytest.mark.parametrize("late", [False, True], ids=["within", "past"])
async def test_a_time_out_s_direct_message_discord_took_just_before_a_stop_is_received_once(
    standin, make_bot, table_clock, day_bank_table, late
):
    """Both players want direct messages; the late player's is sent and the bot stops before
    recording the question asked.  Started again, the question and its direct messages are told
    again: within Discord's window the late player has theirs once (the other, never written to
    before the stop, once too); past it, the late player has two."""
    alice, bob, chan = day_bank_table
    async with standin.run_client(make_bot) as bot:
        thread, late_player, _ = await day_bank_game(standin, bot, alice, bob, chan)
        await wanting(bot, (alice, bob))
        other = bob if late_player is alice else alice
        mine = lambda m: m.channel.id == standin.dm(late_player).id and "time ran out" in m.content  # noqa: E731
        dm = await a_day_on_until_a_stop(standin, bot, table_clock, mine)
    async with back(standin, make_bot, table_clock, late) as bot:
        assert len([m for m in standin.messages(thread) if is_question(m)]) == (2 if late else 1)
        assert ran_out_dms(standin, late_player)[0] is dm
        assert len(ran_out_dms(standin, late_player)) == (2 if late else 1)
        assert len(ran_out_dms(standin, other)) == (2 if late else 1)


async def test_the_mention_in_place_of_a_refused_direct_message_said_just_before_a_stop_is_said_once(
    standin, make_bot, table_clock, day_bank_table
):
    """Both players want direct messages, and the late player's are closed: under the question
    they are mentioned instead, that mention reaches Discord and the bot stops.  Started again
    within Discord's window, the question and the mention are the same posts: once each."""
    alice, bob, chan = day_bank_table
    async with standin.run_client(make_bot) as bot:
        thread, late_player, _ = await day_bank_game(standin, bot, alice, bob, chan)
        await wanting(bot, (alice, bob))
        standin.close_dms(late_player)
        mention = await a_day_on_until_a_stop(standin, bot, table_clock, lambda m: "is above" in m.content)
        assert late_player.id in mention.pinged
    async with back(standin, make_bot, table_clock, late=False) as bot:
        assert [m for m in standin.messages(thread) if "is above" in m.content] == [mention]
        assert len([m for m in standin.messages(thread) if is_question(m)]) == 1
