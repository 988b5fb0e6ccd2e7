"""A league's season end that Discord took in part just before a stop: the guard its end arms
tells it again within Discord's few minutes, so the channel has each post once and the champion
their direct message once; past those minutes it is told twice.  And a round's warning of a late
game (the thread's line, the player's direct message, the organiser's letter), sent again by its
job after a stop: within those minutes each is there once."""

from __future__ import annotations

import pytest

from bot.league import organiser
from bot.league.review import REVIEW_AGAIN, REVIEW_FIRST, TELL_AFTER
from bot.league.service import ANNOUNCE_AFTER
from bot.storage.leagues import ROUND_JOB
from bot.time.jobs import LEAGUE_NUDGE
from tests.e2e.leagues import DAY, fire, one_round_league, review_cup, started_league
from tests.e2e.leagues import EXTENSIONS as LEAGUE_EXTENSIONS
from tests.e2e.test_notices import settings
from tests.e2e.test_restarts import Stopped, cut, due_after, started, stops_at
from tests.e2e.test_told_once import late_or_not, standin_options, stops_once_taken
from tests.standin.model import CREATE_PUBLIC_THREADS, SEND_MESSAGES

__all__ = ["standin_options"]  # Discord's clock moved by hand only

EXTENSIONS = (*LEAGUE_EXTENSIONS, "cogs.me")
CROWN = "is over. Champion"
STANDINGS = "final standings"
CHAMPION = "You are the champion of **Crown cup**"
LETTER = "game of **Quick** is late"  # the organiser's letter
WARNED = "this game is waiting for you"  # the warning in the game's thread
WRITTEN = "is waiting for you, and the round ends"  # and by direct message
NO_SHOW = "did not play in time: a no-show"
WAITED = "has waited for your review since"  # a round waiting for the organiser's review


async def fired_until_a_stop(standin, bot, table_clock, after: float, taken):
    """``after`` seconds on, the league's jobs then due fire; the first message they create that
    ``taken`` accepts reaches Discord, and the process stops before recording it
    (:func:`stops_once_taken`).  That message."""
    messages = stops_once_taken(standin, bot, taken)
    table_clock.advance(after)
    await cut(bot, fire(bot))
    (message,) = messages
    return message


async def cut_at_the_organisers_letter(bot, step) -> None:
    """Run ``step`` to a stop as it tells a league's organiser anything (:func:`cut`)."""
    tell = organiser.tell
    stops_at(bot, organiser, "tell")
    try:
        await cut(bot, step)
    finally:
        organiser.tell = tell


async def wanting_dms(standin, chan, people) -> None:
    """The bot up, and ``people`` wanting their notices by direct message."""
    await standin.wait_synced()
    for user in people:
        await settings(standin, user, chan, where="dm")


def stops_after_the_crown(standin, bot) -> list:
    """The season's crown post reaches Discord and the process stops there: nothing more is posted
    and nothing recorded (:func:`stops_once_taken`).  The list gets the crown."""
    taken = stops_once_taken(standin, bot, lambda m: CROWN in m.content)
    rounds, post = bot.league_rounds, bot.league_rounds.post

    async def posted(league, text, **options):
        done = await post(league, text, **options)
        if taken:
            raise Stopped
        return done

    rounds.post = posted
    return taken


@pytest.mark.parametrize("late", [False, True], ids=["within", "past"])
async def test_a_season_end_discord_took_just_before_a_stop_is_told_once(
    standin, bot_factory, table_clock, late
):
    """Two players who want direct messages play a one-round league; at its deadline the champion
    is written to and the crown post (with the standings picture) reaches Discord, and the bot
    stops before posting the rest.  Started again, the season's end guard (two minutes on) tells
    the end again: within Discord's window the crown and the DM are the ones sent before the stop,
    and the standings come once; past it, the crown and the DM come twice."""
    chan, people = standin.channel("games"), standin.add_users("ana", "beto")
    make = bot_factory(EXTENSIONS)
    async with standin.run_client(make) as bot:
        await wanting_dms(standin, chan, people)
        await started_league(
            standin,
            chan,
            people,
            name="Crown cup",
            game="pachakuna",
            format="swiss",
            players=2,
            rounds=1,
            days=1,
        )
        await fire(bot)  # round 1 opens
        league = (await bot.store.leagues.of_server(standin.guild.id))[0]
        taken = stops_after_the_crown(standin, bot)
        table_clock.advance(DAY)
        await cut(bot, fire(bot))  # the deadline: the computer finishes the game, the season ends
        (crown,) = taken
    assert not [m for m in standin.messages(chan) if STANDINGS in m.content]
    (champion,) = [u for u in people if f"<@{u.id}>" in crown.content]
    (dm,) = [m for m in standin.messages(standin.dm(champion)) if CHAMPION in m.content]
    late_or_not(standin, late)
    async with standin.run_client(make) as bot:
        await started(standin, bot)
        await due_after(standin, bot, table_clock, ANNOUNCE_AFTER)
        crowns = [m.id for m in standin.messages(chan) if CROWN in m.content]
        dms = [m.id for m in standin.messages(standin.dm(champion)) if CHAMPION in m.content]
        assert len([m for m in standin.messages(chan) if STANDINGS in m.content]) == 1
        assert (await bot.store.jobs.job(ROUND_JOB, str(league.id))) is None  # told: the guard is gone
    if late:
        assert crowns[0] == crown.id and len(crowns) == 2
        assert dms[0] == dm.id and len(dms) == 2
    else:
        assert crowns == [crown.id]
        assert dms == [dm.id]


async def nudged(bot, league, table_clock) -> str:
    """The table's clock moved on to the league's round 1 nudge; its stage (the reminder, the warning)."""
    nudge = await bot.store.jobs.job(LEAGUE_NUDGE, f"{league.id}:1")
    table_clock.advance(nudge.due_at - table_clock.time())
    return nudge.payload["stage"]


async def test_a_round_warning_discord_took_just_before_a_stop_is_sent_once(
    standin, bot_factory, table_clock
):
    """A one-day round whose player to move never plays: the warning before its deadline is written
    to that player (who wants direct messages) and posted in the game's thread, and the organiser's
    letter naming the late game reaches the league's channel; the bot stops before the warning's job
    is recorded done.  Started again, the job (once the stopped process's hold is over) warns again:
    within Discord's window the thread, the player and the channel each have it once."""
    chan, people = standin.channel("games"), standin.add_users("ana", "beto")
    make = bot_factory(EXTENSIONS)
    async with standin.run_client(make) as bot:
        await wanting_dms(standin, chan, people)
        league, session = await one_round_league(standin, bot, chan, people, game="pachakuna", players=2)
        (late,) = [u for u in people if u.id in {s.user_id for s in session.waiting_on()}]
        assert await nudged(bot, league, table_clock) == "remind"
        await bot.scheduler.run_due()
        taken = stops_once_taken(standin, bot, lambda m: LETTER in m.content)
        assert await nudged(bot, league, table_clock) == "warn"
        await cut(bot, bot.scheduler.run_due())
        (letter,) = taken
    thread = standin.channel(session.row.channel_id)
    warned = [m for m in standin.messages(thread) if WARNED in m.content]
    written = [m for m in standin.messages(standin.dm(late)) if WRITTEN in m.content]
    assert len(warned) == len(written) == 1
    async with standin.run_client(make) as bot:
        await started(standin, bot)
        await due_after(standin, bot, table_clock, bot.scheduler.lease)  # the stopped one's hold
        assert await bot.store.jobs.job(LEAGUE_NUDGE, f"{league.id}:1") is None  # warned: done
    assert [m for m in standin.messages(chan) if LETTER in m.content] == [letter]
    assert [m for m in standin.messages(thread) if WARNED in m.content] == warned
    assert [m for m in standin.messages(standin.dm(late)) if WRITTEN in m.content] == written


async def test_a_no_show_line_discord_took_just_before_a_stop_is_posted_once(
    standin, bot_factory, table_clock
):
    """At a one-day round's deadline the player to move gets a no-show, said in the game's thread;
    the bot stops as Discord takes that line.  Started again, the deadline's job (once the stopped
    process's hold is over) counts nobody twice and says it again: within Discord's window that is
    the same line, and the computer finishes the game."""
    chan, people = standin.channel("games"), standin.add_users("ana", "beto")
    make = bot_factory(EXTENSIONS)
    async with standin.run_client(make) as bot:
        await standin.wait_synced()
        league, session = await one_round_league(standin, bot, chan, people, game="pachakuna", players=2)
        (late,) = [s.user_id for s in session.waiting_on()]
        line = await fired_until_a_stop(standin, bot, table_clock, DAY, lambda m: NO_SHOW in m.content)
    thread = standin.channel(session.row.channel_id)
    async with standin.run_client(make) as bot:
        await started(standin, bot)
        await due_after(standin, bot, table_clock, bot.scheduler.lease)  # the stopped one's hold
        await fire(bot)
        assert await bot.store.noshows.counts(league.id) == {late: 1}
        assert (await bot.sessions.core.get(session.id)).status == "finished"
    assert [m for m in standin.messages(thread) if NO_SHOW in m.content] == [line]


@pytest.mark.parametrize("late", [False, True], ids=["within", "past"])
async def test_a_review_reminder_discord_took_just_before_a_stop_is_sent_once(
    standin, bot_factory, table_clock, late
):
    """A round waits for the organiser's review, who wants direct messages; twelve hours on its
    reminder is written to them and the bot stops before the next reminder is armed.  Started
    again, the round's job (once the stopped process's hold is over) reminds them again: within
    Discord's window that is the same direct message; past it, a second one.  The next reminder,
    a day on, is its own message."""
    chan, people = standin.channel("games"), standin.add_users("ana", "beto")
    owner, make = standin.owner, bot_factory(EXTENSIONS)
    async with standin.run_client(make) as bot:
        await wanting_dms(standin, chan, [owner])
        await review_cup(standin, chan, people)
        await fire(bot)  # round 1 is paired and waits for review
        reminder = await fired_until_a_stop(
            standin, bot, table_clock, REVIEW_FIRST, lambda m: WAITED in m.content
        )
    late_or_not(standin, late)
    async with standin.run_client(make) as bot:
        await started(standin, bot)
        await due_after(standin, bot, table_clock, bot.scheduler.lease)  # the stopped one's hold
        reminders = [m.id for m in standin.messages(standin.dm(owner)) if WAITED in m.content]
        assert reminders == ([reminder.id, reminders[-1]] if late else [reminder.id]), reminders
        assert len(set(reminders)) == len(reminders)
        await due_after(standin, bot, table_clock, REVIEW_AGAIN)  # the next reminder: another message
        after = [m.id for m in standin.messages(standin.dm(owner)) if WAITED in m.content]
        assert after[: len(reminders)] == reminders and len(after) == len(reminders) + 1


def waits_letters(standin, owner) -> list:
    return [
        m for m in standin.messages(standin.dm(owner)) if "to swap players and publish round" in m.content
    ]


@pytest.mark.parametrize("late", [False, True], ids=["within", "past"])
async def test_a_round_paired_for_review_just_before_a_stop_is_told_to_the_organiser_once(
    standin, bot_factory, table_clock, late
):
    """A round waits for the review of an organiser who wants direct messages; the letter saying so
    reaches Discord and the bot stops before arming the reminder.  Started again, the round's job
    tells it again two minutes on: within Discord's window the same message, past it a second; then
    the reminder comes twelve hours after the draft.  Before, the job was the reminder already, and
    a stop before the letter left the organiser untold for twelve hours."""
    chan, people = standin.channel("games"), standin.add_users("ana", "beto")
    owner, make = standin.owner, bot_factory(EXTENSIONS)
    async with standin.run_client(make) as bot:
        await wanting_dms(standin, chan, [owner])
        await review_cup(standin, chan, people)
        paired = table_clock.time()
        letter = await fired_until_a_stop(
            standin, bot, table_clock, 0, lambda m: "to swap players and publish round" in m.content
        )
    late_or_not(standin, late)
    async with standin.run_client(make) as bot:
        await started(standin, bot)
        await due_after(standin, bot, table_clock, TELL_AFTER)
        told = waits_letters(standin, owner)
        assert told[0].id == letter.id and len(told) == (2 if late else 1), [m.content for m in told]
        league = (await bot.store.leagues.of_server(standin.guild.id))[0]
        job = await bot.store.jobs.job(ROUND_JOB, str(league.id))
        assert job.due_at == paired + REVIEW_FIRST and "first" not in job.payload


async def test_a_round_paired_for_review_and_untold_at_a_stop_is_told_after_the_restart(
    standin, bot_factory, table_clock
):
    """The round is paired and kept for review, and the bot stops before telling the organiser.
    Started again, the round's job tells them two minutes on, once."""
    chan, people = standin.channel("games"), standin.add_users("ana", "beto")
    owner, make = standin.owner, bot_factory(EXTENSIONS)
    async with standin.run_client(make) as bot:
        await wanting_dms(standin, chan, [owner])
        await review_cup(standin, chan, people)
        await cut_at_the_organisers_letter(bot, fire(bot))
        assert waits_letters(standin, owner) == []
    async with standin.run_client(make) as bot:
        await started(standin, bot)
        await due_after(standin, bot, table_clock, TELL_AFTER)
        assert len(waits_letters(standin, owner)) == 1
        await due_after(standin, bot, table_clock, TELL_AFTER)
        assert len(waits_letters(standin, owner)) == 1


MISSING = "cannot open: I am missing"  # a round waiting for permissions in the league's channel


async def waiting_for_permissions(standin, bot, chan, people) -> None:
    """A one-round league of ``people`` started in ``chan``, where the bot then lacks Send Messages
    and Create Public Threads: its round, due, cannot open."""
    await started_league(
        standin, chan, people, name="Duel", game="pachakuna", format="swiss", players=2, rounds=1
    )
    standin.set_permissions(chan, standin.bot_role, deny=SEND_MESSAGES | CREATE_PUBLIC_THREADS)
    await standin.settle()


def missing_letters(standin, owner) -> list:
    return [m for m in standin.messages(standin.dm(owner)) if MISSING in m.content]


@pytest.mark.parametrize("late", [False, True], ids=["within", "past"])
async def test_a_missing_permission_letter_discord_took_just_before_a_stop_is_sent_once(
    standin, bot_factory, table_clock, late
):
    """The organiser's letter that a round waits for permissions reaches Discord, and the bot
    stops before its job records that it was told.  Started again, the job (its lease over) tells
    it again: within Discord's window the same message, past it a second; the retries after that
    tell nothing more."""
    chan, people = standin.channel("games"), standin.add_users("ana", "beto")
    owner, make = standin.owner, bot_factory(EXTENSIONS)
    async with standin.run_client(make) as bot:
        await wanting_dms(standin, chan, [owner])
        await waiting_for_permissions(standin, bot, chan, people)
        letter = await fired_until_a_stop(standin, bot, table_clock, 0, lambda m: MISSING in m.content)
    late_or_not(standin, late)
    async with standin.run_client(make) as bot:
        await started(standin, bot)
        await due_after(standin, bot, table_clock, 120)  # the stopped process's lease
        await due_after(standin, bot, table_clock, 600)  # a retry
        told = missing_letters(standin, owner)
        assert told[0].id == letter.id and len(told) == (2 if late else 1), [m.content for m in told]
        league = (await bot.store.leagues.of_server(standin.guild.id))[0]
        assert (await bot.store.jobs.job(ROUND_JOB, str(league.id))).payload["missing"]


async def test_a_missing_permission_letter_untold_at_a_stop_is_told_after_the_restart(
    standin, bot_factory, table_clock
):
    """The round cannot open and the bot stops as it tells the organiser: started again, the
    round's job tells them once its lease is over, once.  (The job recorded the permissions before
    the letter: a stop between left the organiser never told.)"""
    chan, people = standin.channel("games"), standin.add_users("ana", "beto")
    owner, make = standin.owner, bot_factory(EXTENSIONS)
    async with standin.run_client(make) as bot:
        await wanting_dms(standin, chan, [owner])
        await waiting_for_permissions(standin, bot, chan, people)
        await cut_at_the_organisers_letter(bot, fire(bot))
        assert missing_letters(standin, owner) == []
    async with standin.run_client(make) as bot:
        await started(standin, bot)
        for _ in range(3):
            await due_after(standin, bot, table_clock, 600)
        assert len(missing_letters(standin, owner)) == 1
