"""Posts other than the ``board`` job's that Discord took just before a stop, and that the restart
makes again (a timeout question, the line saying nobody answered it, a league's check-in call): within
Discord's few minutes the channel has each once; and posts that must both stand (two questions for
the same seat) are not taken for one."""

from __future__ import annotations

from contextlib import asynccontextmanager

import pytest

from bot.sessions import ASK_AFTER
from bot.surface import nonces
from tests.e2e import test_restarts, test_told_once
from tests.e2e.leagues import DAY, fire
from tests.e2e.leagues import EXTENSIONS as LEAGUE_EXTENSIONS
from tests.e2e.test_clocks import is_question
from tests.e2e.test_notices import is_board
from tests.e2e.test_restarts import (
    asked,
    cut,
    day_bank_game,
    due_after,
    no_answer,
    started,
)
from tests.e2e.test_told_once import late_or_not, stops_once_taken, wanting

# the bot on SQLite and on PostgreSQL, the same across restarts; Discord's clock moved by hand only
make_bot, standin_options = test_restarts.make_bot, test_told_once.standin_options
day_bank_table = test_restarts.day_bank_table

HOLD = 2  # the question's tries after a restart: its ``ask`` or ``timeout`` job, then one more


async def a_day_on_until_a_stop(standin, bot, table_clock, taken, after: float = DAY):
    """A day (or ``after`` seconds) on, the jobs then due fire; the first message they create that
    ``taken`` accepts reaches Discord, and the process stops before recording it
    (:func:`stops_once_taken`).  That message."""
    messages = stops_once_taken(standin, bot, taken)
    table_clock.advance(after)
    await cut(bot, bot.scheduler.run_due())
    (message,) = messages
    return message


@asynccontextmanager
async def back(standin, make_bot, table_clock, late: bool):
    """The bot started again, within Discord's window or (``late``) past it, and the jobs the stop
    left (a question to ask, a line to say) come due and fire, twice."""
    late_or_not(standin, late)
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        for _ in range(HOLD):
            await due_after(standin, bot, table_clock, ASK_AFTER)
            await bot.front.catchup.computers_settled()
        yield bot


@pytest.mark.parametrize("late", [False, True], ids=["within", "past"])
async def test_a_timeout_question_discord_took_just_before_a_stop_is_asked_once(
    standin, make_bot, table_clock, day_bank_table, late
):
    """A player's bank runs out; the question what now reaches Discord and the bot stops before
    recording it (its ``ask`` job not cancelled, its message not kept).  Started again, the ``ask``
    job asks it again: within Discord's window that is the same post, kept as the question's
    message, and its buttons work; past it, the question is asked twice."""
    alice, bob, chan = day_bank_table
    async with standin.run_client(make_bot) as bot:
        thread, late_player, session = await day_bank_game(standin, bot, alice, bob, chan)
        seat = session.seat_of(late_player.id).seat
        question = await a_day_on_until_a_stop(standin, bot, table_clock, is_question)
    async with back(standin, make_bot, table_clock, late) as bot:
        questions = [m for m in standin.messages(thread) if is_question(m)]
        assert questions[0] is question and len(questions) == (2 if late else 1)
        job = await bot.store.jobs.job("timeout", f"{session.id}:{seat}")
        assert job.payload["message"] == questions[-1].id
        assert not await bot.store.jobs.pending("ask")
        other = bob if late_player is alice else alice
        await standin.click(other, questions[-1], "Give more time")
        await standin.next_message(thread, lambda m: "answered: " in m.content and not m.ephemeral)


@pytest.mark.parametrize("late", [False, True], ids=["within", "past"])
async def test_no_answer_in_time_discord_took_just_before_a_stop_is_said_once(
    standin, make_bot, table_clock, day_bank_table, late
):
    """Nobody answers the question for a day: the computer takes the seat, the line saying so
    reaches Discord, and the bot stops before recording it told (the ``timeout`` job keeps its
    ``taken`` mark).  Started again, the job says it again: within Discord's window that is the same
    post, and the board with the computer's move follows; past it, the line is said twice."""
    alice, bob, chan = day_bank_table
    async with standin.run_client(make_bot) as bot:
        thread, _, _ = await day_bank_game(standin, bot, alice, bob, chan)
        question = await asked(standin, bot, table_clock, thread)
        line = await a_day_on_until_a_stop(standin, bot, table_clock, no_answer)
    async with back(standin, make_bot, table_clock, late) as bot:
        said = [m for m in standin.messages(thread) if no_answer(m)]
        assert said[0] is line and len(said) == (2 if late else 1), [m.content for m in said]
        assert any(is_board(m) and m.id > line.id for m in standin.messages(thread))
        assert not standin.message(question.id).components
        assert not await bot.store.jobs.pending("timeout")


async def test_a_second_timeout_question_for_the_same_seat_is_asked_too(
    standin, make_bot, table_clock, day_bank_table
):
    """The late player's time runs out, the other gives more time, and it runs out again: the
    second question (another time-out of the same seat) is its own post within Discord's window,
    not taken for the first."""
    alice, bob, chan = day_bank_table
    async with standin.run_client(make_bot) as bot:
        thread, late_player, session = await day_bank_game(standin, bot, alice, bob, chan)
        other = bob if late_player is alice else alice
        first = await asked(standin, bot, table_clock, thread)
        await standin.click(other, first, "Give more time")
        await standin.next_message(thread, lambda m: is_board(m) and m.id > first.id)
        second = await asked(standin, bot, table_clock, thread)
        assert second.id != first.id and second.extra["nonce"] != first.extra["nonce"]
        asking = [m.id for m in standin.messages(thread) if "time ran out" in m.content and not m.ephemeral]
        assert asking == [first.id, second.id]
        seat = session.seat_of(late_player.id).seat
        banks = (await bot.sessions.core.get(session.id)).banks
        assert second.extra["nonce"] == nonces.post_nonce(
            session, nonces.QUESTION, seat, int(banks.pending[seat])
        )


async def test_a_check_in_call_discord_took_just_before_a_stop_is_made_once(
    standin, bot_factory, table_clock
):
    """A league whose players check in before each round starts: the call to check in for round 1
    reaches Discord and the bot stops before marking it made.  Started again, the round's job (once
    the stopped process's hold on it is over) makes the call again: within Discord's window that is
    the same post, marked made, and its button works; and the direct message each player asked for
    about it, sent before the call, is received once."""
    chan, owner = standin.channel("games"), standin.owner
    make, people = bot_factory(LEAGUE_EXTENSIONS), standin.add_users("ana", "beto")
    async with standin.run_client(make) as bot:
        await standin.wait_synced()
        await (
            await standin.slash(
                owner,
                chan,
                "league create",
                name="Quick",
                game="pachakuna",
                format="swiss",
                players=2,
                rounds=1,
            )
        ).original()
        for user in people:
            await (await standin.slash(user, chan, "league join")).original()
        await wanting(bot, people)  # (as ``/me notify`` sets it)
        await (
            await standin.slash(owner, chan, "league organiser attendance", checkin="every", hours=24.0)
        ).original()
        await (await standin.slash(owner, chan, "league start")).original()
        taken = stops_once_taken(standin, bot, lambda m: "check in for" in m.content)
        await cut(bot, fire(bot))
        (call,) = taken
        league = (await bot.store.leagues.of_server(standin.guild.id))[0]
    async with standin.run_client(make) as bot:
        await started(standin, bot)
        await due_after(standin, bot, table_clock, bot.scheduler.lease)  # the stopped one's hold
        await fire(bot)
        assert [m for m in standin.messages(chan) if "check in for" in m.content] == [call]
        assert (await bot.store.attendance.window(league.id, 1)).called
        for user in people:
            dms = [m for m in standin.messages(standin.dm(user)) if "Check in for round 1" in m.content]
            assert len(dms) == 1, [m.content for m in dms]
        click = await standin.click(people[0], call, "Check in")
        assert "You are checked in for round 1" in (await click.original()).content
