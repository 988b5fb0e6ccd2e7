"""Several seats whose time ran out at once, and a stop (a crash, a deploy) before their questions
were told: after the restart their ``ask`` jobs ask them together, as the time-out would have, so
each person gets one direct message about them all, and one Discord took before the stop is not
received again within Discord's few minutes."""

from __future__ import annotations

import asyncio
import copy

import pytest

from bot.locks import KeyedLocks
from bot.sessions import ASK_AFTER
from tests.e2e import test_told_once
from tests.e2e.leagues import DAY
from tests.e2e.players import settled
from tests.e2e.test_clocks import is_question
from tests.e2e.test_notices import EXTENSIONS
from tests.e2e.test_restarts import cut, on_either_back_end, started, stops_at
from tests.e2e.test_told_once import wanting
from tests.e2e.test_told_once_after_board import repeats_answered
from tests.e2e.test_told_once_answers import ran_out_dms
from tests.e2e.test_told_once_more import a_day_on_until_a_stop, back
from tests.e2e.test_unasked import carol_kept

# Discord's clock moved by hand only
standin_options = test_told_once.standin_options


@pytest.fixture(params=["sqlite", "postgres"])
async def make_bot(request, bot_factory):
    """A maker of the bot with Guanga, on SQLite or PostgreSQL, the same across restarts."""
    async for make in on_either_back_end(request, bot_factory, (*EXTENSIONS, "cogs.guanga")):
        yield make


def questions(standin, thread) -> list:
    return [m for m in standin.messages(thread) if is_question(m)]


async def two_late(standin, bot):
    """Alice, Bob and Carol, all wanting direct messages, start a Guanga game whose first phase has
    them all to move, and Carol moves (:func:`carol_kept`).  The thread, the session, the users."""
    users = standin.add_users("alice", "bob", "carol")
    await started(standin, bot)
    await wanting(bot, users)
    return (*await carol_kept(standin, bot, standin.channel("games"), users), users)


async def stopped_before_asking(standin, bot, table_clock) -> None:
    """A day on, Alice's and Bob's banks run out together; the time-out is stored and the bot
    stops before posting either question."""
    stops_at(bot, bot.front.clocks, "ask")
    table_clock.advance(DAY)
    await cut(bot, bot.scheduler.run_due())


def told_about_both(standin, session, users) -> None:
    """Each of ``users`` has one direct message about the time-out: Alice and Bob about their own,
    Carol about both."""
    for user in users:
        (dm,) = ran_out_dms(standin, user)
        assert ("Your time ran out" in dm.content) == (user is not users[2]), dm.content
    names = sorted((session.seat_of(u.id) for u in users[:2]), key=lambda seat: seat.seat)
    (dm,) = ran_out_dms(standin, users[2])
    assert f"Time ran out for {names[0].name} and {names[1].name} in" in dm.content, dm.content


async def test_questions_stored_and_never_posted_are_told_in_one_direct_message_each(
    standin, make_bot, table_clock
):
    """Alice's and Bob's banks run out together; the time-out is stored and the bot stops before
    either question is posted.  Started again, the two ``ask`` jobs fire together: both questions
    are posted once, each person gets one direct message (Carol's naming both late players), and
    neither job repeats what the other posted.  Before, each job told its question alone: two
    direct messages a person."""
    async with standin.run_client(make_bot) as bot:
        thread, session, users = await two_late(standin, bot)
        await stopped_before_asking(standin, bot, table_clock)
        assert not questions(standin, thread)
        assert not any(ran_out_dms(standin, user) for user in users)
    seen = repeats_answered(standin)
    async with back(standin, make_bot, table_clock, late=False) as bot:
        asked = questions(standin, thread)
        assert len(asked) == 2
        told_about_both(standin, session, users)
        assert seen == []  # (one job asked both; the other found its job gone)
        assert not await bot.store.jobs.pending("ask")
        late = {session.seat_of(user.id).seat for user in users[:2]}
        kept = [await bot.store.jobs.job("timeout", f"{session.id}:{seat}") for seat in late]
        assert {job.payload["message"] for job in kept} == {m.id for m in asked}


async def test_a_direct_message_about_both_questions_discord_took_before_a_stop_is_received_once(
    standin, make_bot, table_clock
):
    """Alice's and Bob's banks run out together and both questions are posted; Carol's direct
    message naming both reaches Discord and the bot stops before recording the questions told.
    Started again within Discord's window, the two ``ask`` jobs ask both again: the same posts, and
    Carol's the same message, received once; Alice and Bob have one each.  Before, each job wrote
    to Carol about its question alone: three messages."""
    async with standin.run_client(make_bot) as bot:
        thread, session, users = await two_late(standin, bot)
        carol = users[2]
        dm = await a_day_on_until_a_stop(
            standin,
            bot,
            table_clock,
            lambda m: m.channel.id == standin.dm(carol).id and "ran out" in m.content,
        )
        asked = questions(standin, thread)
        assert len(asked) == 2
    async with back(standin, make_bot, table_clock, late=False) as bot:
        assert questions(standin, thread) == asked
        told_about_both(standin, session, users)
        assert ran_out_dms(standin, carol) == [dm]
        assert not await bot.store.jobs.pending("ask")


async def claimed_asks(bot, table_clock, owners: tuple[str, ...]) -> list:
    """Two minutes on, the two ``ask`` jobs come due and are claimed, the first by ``owners[0]``,
    the second by the last of ``owners``; any other job due is given back to the scheduler."""
    table_clock.advance(ASK_AFTER)
    jobs, now = bot.store.jobs, table_clock.time()
    first = await jobs.claim_jobs(owners[0], lease=60)
    asks = [job for job in first if job.kind == "ask"]
    assert len(asks) == 2, first
    if owners[-1] != owners[0]:
        await jobs.release_job(asks[1], now)
        asks[1:] = await jobs.claim_jobs(owners[-1], lease=60, limit=1)
        assert asks[1].kind == "ask", asks
    for job in first:
        if job.kind != "ask":
            await jobs.release_job(job, now)
    return asks


@pytest.mark.parametrize("owners", [("one",), ("one", "two")], ids=["one-process", "two-processes"])
async def test_two_ask_jobs_fired_at_once_tell_their_questions_once(standin, make_bot, table_clock, owners):
    """Alice's and Bob's banks run out together and the bot stops before posting either question.
    Started again, both ``ask`` jobs fire at the same moment (a batch the scheduler runs together,
    or one job in each of two processes): each question is posted once and each person written to
    once.  In one process the jobs take turns (the second finds its job gone and repeats nothing);
    two processes both ask, and Discord answers the second's posts with the first's (their
    nonces)."""
    async with standin.run_client(make_bot) as bot:
        thread, session, users = await two_late(standin, bot)
        await stopped_before_asking(standin, bot, table_clock)
    seen = repeats_answered(standin)
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        desk = bot.front.clocks
        other = copy.copy(desk)  # another process: the same database and Discord, its own locks
        other.asking, other.asking_lock = set(), KeyedLocks()
        first, second = await claimed_asks(bot, table_clock, owners)
        await asyncio.gather(desk.ask_again(first), (desk if len(owners) == 1 else other).ask_again(second))
        for job in (first, second):
            await bot.store.jobs.complete_job(job)
        await bot.scheduler.run_due()
        await settled(standin)
        assert len(questions(standin, thread)) == 2
        told_about_both(standin, session, users)
        assert not await bot.store.jobs.pending("ask")
        if len(owners) == 1:
            assert seen == []
