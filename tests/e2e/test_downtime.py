"""The bot out of service in the middle of clocked games: no button works and no command answers,
so the time it is stopped is nobody's (bot.time.alive, bot.storage.outages).  A player's clock
leaves it out, and so does the others' day to answer a time-out; a quick restart is not one."""

from __future__ import annotations

import pytest

from bot.storage.outages import LEAST
from bot.time import gameclock as gc
from tests.e2e.players import to_move
from tests.e2e.test_clocks import DAY, GUACAMOLE, HOUR, is_question, open_clocked, step_after_timeout
from tests.e2e.test_notices import EXTENSIONS
from tests.support import nim


@pytest.fixture(autouse=True)
def no_table_moves(monkeypatch):
    monkeypatch.setattr(nim, "TABLE_MOVES", False)


async def day_bank(standin, bot, games):
    """A started two-player game with a day's bank each, in its own thread: the thread, the
    person to move and the session."""
    await standin.wait_synced()
    people = standin.add_users("alice", "bob")
    thread, _ = await open_clocked(standin, bot, games, *people, clock="bank:1d")
    late, session = await to_move(bot, thread, people)
    return thread, late, session


async def stopped_here(out):
    return None  # the process stopped as the question was to be asked


def questions(standin, thread) -> list:
    return [m for m in standin.messages(thread) if is_question(m)]


async def test_a_stop_is_not_charged_to_the_player_to_move(standin, bot_factory, table_clock):
    """A day's bank, two hours of it used, then the bot is stopped for 23 hours: at the start the
    player still has their 22 hours, and the question comes only once they are spent."""
    games = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        thread, late, session = await day_bank(standin, bot, games)
        table_clock.advance(2 * HOUR)
    stopped = table_clock.time()
    table_clock.advance(23 * HOUR)
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        assert await bot.store.outages.of_guild(games.guild.id) == [(stopped, stopped + 23 * HOUR)]
        await bot.scheduler.run_due()
        await standin.settle()
        assert not questions(standin, thread)
        after = await bot.sessions.core.get(session.id)
        seat = after.seat_of(late.id).seat
        assert not after.banks.pending
        away = await bot.sessions.core.away_of(after)
        assert after.clock is not None
        assert gc.left(after.clock, after.banks, seat, table_clock.time(), away(seat)) == 22 * HOUR
        table_clock.advance(22 * HOUR - 60)
        await bot.scheduler.run_due()
        await standin.settle()
        assert not questions(standin, thread)
        table_clock.advance(60)
        await bot.scheduler.run_due()
        question = await standin.next_message(thread, is_question)
        assert f"<@{late.id}>'s time ran out" in question.content


async def test_the_others_get_their_whole_day_to_answer_after_a_stop(standin, bot_factory, table_clock):
    """The question is posted, the bot runs two more hours, then stops for a day and an hour:
    no button worked meanwhile, so the computer takes the seat 22 hours after the start, not at it."""
    games = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        thread, late, session = await day_bank(standin, bot, games)
        table_clock.advance(DAY)
        await bot.scheduler.run_due()
        await standin.next_message(thread, is_question)
        table_clock.advance(2 * HOUR)
    table_clock.advance(DAY + HOUR)
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await bot.scheduler.run_due()
        await standin.settle()
        await bot.front.catchup.drain()
        assert not (await bot.sessions.core.get(session.id)).seat_of(late.id).computer
        assert not [m for m in standin.messages(thread) if m.content.startswith("No answer in time")]
        table_clock.advance(22 * HOUR - 60)
        await bot.scheduler.run_due()
        assert not (await bot.sessions.core.get(session.id)).seat_of(late.id).computer
        table_clock.advance(60)
        await bot.scheduler.run_due()
        said = await standin.next_message(thread, lambda m: m.content.startswith("No answer in time"))
        assert "the computer plays the seat from now on" in said.content
        await bot.front.catchup.drain()
        assert (await bot.sessions.core.get(session.id)).seat_of(late.id).computer


async def test_a_question_asked_after_a_stop_names_the_end_of_the_whole_day(
    standin, bot_factory, table_clock
):
    """The bot stops as a bank runs out, before the question is posted (its part does nothing
    here), and starts again a day later: the question asked then gives the others until a day
    after the start, and says so."""
    games = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        thread, late, session = await day_bank(standin, bot, games)

        bot.front.clocks.ask = stopped_here
        table_clock.advance(DAY)
        await bot.scheduler.run_due()
        assert (await bot.sessions.core.get(session.id)).banks.pending
    table_clock.advance(DAY)
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        start = table_clock.time()
        await bot.scheduler.run_due()
        question = await standin.next_message(thread, is_question)
        assert f"<t:{int(start + DAY)}:R>" in question.content, question.content
        await bot.front.catchup.drain()
        assert not (await bot.sessions.core.get(session.id)).seat_of(late.id).computer


async def test_a_quick_restart_is_no_outage(standin, bot_factory, table_clock):
    """A restart within two minutes of the last sign of life keeps no outage: the clocks run on."""
    (games,) = (standin.channel("games"),)
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
    table_clock.advance(LEAST)
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        assert await bot.store.outages.of_guild(games.guild.id) == []
    table_clock.advance(LEAST + 1)
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        assert len(await bot.store.outages.of_guild(games.guild.id)) == 1


async def test_a_step_then_a_stop_leaves_the_table_its_whole_day_before_it_answers(
    standin, bot_factory, table_clock
):
    """Guacamole: the late player makes a step of the turn an hour after the question and goes
    silent; the bot is then stopped for a day.  The table's own answer (the computer finishes the
    turn) comes when 24 hours of the bot in service are over since the question, not at the start."""
    async with standin.run_client(bot_factory(GUACAMOLE)) as bot:
        thread, late, _, session, _ = await step_after_timeout(standin, bot, table_clock)
        seat = session.seat_of(late.id).seat
    table_clock.advance(DAY)
    async with standin.run_client(bot_factory(GUACAMOLE)) as bot:
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        assert not (await bot.sessions.core.get(session.id)).by_seat(seat).computer
        table_clock.advance(23 * HOUR - 60)
        await bot.scheduler.run_due()
        assert not (await bot.sessions.core.get(session.id)).by_seat(seat).computer
        table_clock.advance(60)
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        await standin.next_message(thread, lambda m: "did not finish the turn in time" in m.content)
        assert (await bot.sessions.core.get(session.id)).by_seat(seat).computer


async def test_a_league_rounds_deadline_spent_while_the_bot_was_stopped_moves_on_by_the_outage(
    standin, bot_factory, table_clock
):
    """Nobody could move while the bot was stopped, so a round's deadline that passed then is no
    no-show at the restart: the round ends as much later as the outage took of it, its game's
    thread says when, and at that time the late player has their no-show."""
    from tests.e2e.conftest import BASE_EXTENSIONS
    from tests.e2e.leagues import fire, late_in_a_round

    chan = standin.channel("games")
    users = standin.add_users("ana", "beto")
    extensions = (*BASE_EXTENSIONS, "cogs.pachakuna", "cogs.league")
    async with standin.run_client(bot_factory(extensions)) as bot:
        league, session, late = await late_in_a_round(standin, bot, chan, users)
        table_clock.advance(HOUR)
        await fire(bot)
    stopped = table_clock.time()
    table_clock.advance(DAY)  # stopped over the rest of the round and its deadline
    async with standin.run_client(bot_factory(extensions)) as bot:
        await fire(bot)
        assert await bot.store.noshows.counts(league.id) == {}
        (round_,) = await bot.store.leagues.league_rounds(league.id)
        assert round_.closed_at is None and round_.deadline_at == stopped + DAY + (DAY - HOUR)
        thread = standin.channel(session.row.channel_id)
        (told,) = [m for m in standin.messages(thread) if "out of service" in m.content]
        assert "for 1 d" in told.content and f"<t:{int(round_.deadline_at)}:f>" in told.content
        (event,) = standin.events()  # the round on the server's calendar ends later too
        assert event.end == round_.deadline_at + 3600
        table_clock.advance(DAY - HOUR - 60)
        await fire(bot)
        assert await bot.store.noshows.counts(league.id) == {}  # a minute of the round is left
        table_clock.advance(60)
        await fire(bot)
        assert await bot.store.noshows.counts(league.id) == {late: 1}
        assert [
            p.dropped for p in await bot.store.leagues.league_players(league.id) if p.user_id == late
        ] == [True]
