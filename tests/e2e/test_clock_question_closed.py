"""A timeout question that was decided loses its buttons, however it was decided: a click whose
answer's line the thread refuses (the line comes later with the board), nobody answering in time,
and after an edit Discord refused (the question's ``timeout`` job takes them off on its next try,
after a restart too).  A second click on a decided question is never possible.  Its job, armed
again, is armed one way by all."""

from __future__ import annotations

import pytest

from bot.sessions import ASK_AFTER
from bot.time.jobs import ASK
from tests.e2e.conftest import BASE_EXTENSIONS
from tests.e2e.leagues import posts_with
from tests.e2e.players import settled
from tests.e2e.test_unposted import more_time_refused
from tests.e2e.test_unposted_told import DAY, asked_in_a_thread, try_again
from tests.standin.model import SEND_MESSAGES_IN_THREADS

EXTENSIONS = (*BASE_EXTENSIONS,)
TIMEOUT = "timeout"  # the question's job, kept until its buttons are off


async def asked(standin, bot, table_clock, monkeypatch):
    """:func:`asked_in_a_thread`, the question with its three buttons, and what it says (the
    stand-in's message changes as it is edited)."""
    thread, late, other, session, question = await asked_in_a_thread(standin, bot, table_clock, monkeypatch)
    assert len(standin.message(question.id).custom_ids) == 3
    return thread, late, other, session, question, question.content


@pytest.mark.parametrize("label", ["Give more time", "Computer plays the seat", "Abandon the game"])
async def test_an_answer_whose_line_the_thread_refuses_takes_the_buttons_off(
    standin, bot_factory, table_clock, monkeypatch, label
):
    """The other player answers while the thread refuses every message: the answer stands, and is
    told with what follows once the thread takes posts again; the question loses its buttons at
    once, as after an answer the thread took (before, it kept them, and a second click was told
    only that the question was closed).  Its job is gone: nothing is left to take off."""
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, late, other, session, question, said = await asked(standin, bot, table_clock, monkeypatch)
        games = standin.channel("games")
        refused = await more_time_refused(
            standin, bot, games, thread, other, question, SEND_MESSAGES_IN_THREADS, label
        )
        assert "Discord refused" in refused.content, refused.content
        assert not posts_with(standin, thread, "answered:")
        shown = standin.message(question.id)
        assert not shown.components, shown.custom_ids
        assert shown.content == said  # no line under it: the answer's line says it
        assert await bot.store.jobs.job(TIMEOUT, f"{session.id}:{late_seat(session, late)}") is None

        standin.set_permissions(games, standin.bot_user)
        await settled(standin)
        await try_again(standin, bot, table_clock)
        assert len(posts_with(standin, thread, "answered:")) == 1


async def test_an_answer_whose_edit_discord_refuses_loses_its_buttons_at_the_job_s_try_after_a_restart(
    standin, bot_factory, table_clock, monkeypatch
):
    """The other player gives more time, and Discord refuses the edit that takes the question's
    buttons off: the answer stands and is told; the question's job stays.  The bot stops; after
    the restart the job's try takes the buttons off, once, and adds nothing under the question."""
    make = bot_factory(EXTENSIONS)
    async with standin.run_client(make) as bot:
        await standin.wait_synced()
        thread, late, other, session, question, said = await asked(standin, bot, table_clock, monkeypatch)
        standin.inject(edit_of(thread, question), status=503, times=1)
        await (await standin.click(other, question, "Give more time")).original()
        await bot.front.catchup.drain()
        assert len(posts_with(standin, thread, "answered:")) == 1
        assert len(standin.message(question.id).custom_ids) == 3  # the edit was refused
        assert (await bot.sessions.core.get(session.id)).banks.pending == {}  # the answer stands
        kept = await bot.store.jobs.job(TIMEOUT, f"{session.id}:{late_seat(session, late)}")
        assert kept is not None and kept.payload.get("message") == question.id

    async with standin.run_client(make) as bot:
        await standin.wait_synced()
        await bot.taken_up.wait()
        table_clock.advance(ASK_AFTER)
        await bot.scheduler.run_due()
        await settled(standin)
        shown = standin.message(question.id)
        assert not shown.components and shown.content == said
        assert await bot.store.jobs.job(TIMEOUT, kept.key) is None
        assert len(posts_with(standin, thread, "answered:")) == 1


async def test_nobody_answering_with_the_edit_refused_loses_the_buttons_at_the_job_s_next_try(
    standin, bot_factory, table_clock, monkeypatch
):
    """Nobody answers in time, and Discord refuses the edit that closes the question: the computer
    takes the seat and the channel is told; the question's job stays, and its next try closes the
    question (its line and no buttons), once (before, the question kept its buttons for good)."""
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, late, other, session, question, said = await asked(standin, bot, table_clock, monkeypatch)
        standin.inject(edit_of(thread, question), status=503, times=1)
        table_clock.advance(DAY)
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        await settled(standin)
        assert (await bot.sessions.core.get(session.id)).seat_of(late.id).computer
        assert len(posts_with(standin, thread, "No answer in time")) == 1
        assert len(standin.message(question.id).custom_ids) == 3  # the edit was refused

        table_clock.advance(ASK_AFTER)
        await bot.scheduler.run_due()
        await settled(standin)
        shown = standin.message(question.id)
        assert not shown.components
        assert shown.content == said + "\nClosed: nobody answered in time."
        assert len(posts_with(standin, thread, "No answer in time")) == 1
        key = f"{session.id}:{late_seat(session, late)}"
        assert await bot.store.jobs.job(TIMEOUT, key) is None
        table_clock.advance(ASK_AFTER)
        await bot.scheduler.run_due()
        assert standin.message(question.id).content == shown.content


def edit_of(thread, question) -> str:
    """The pattern of an edit of ``question`` (for the stand-in to refuse it)."""
    return f"PATCH /channels/{thread.id}/messages/{question.id}"


def late_seat(session, late) -> int:
    return session.seat_of(late.id).seat


async def test_a_question_s_job_is_armed_again_one_way(standin, bot_factory, table_clock):
    """Whoever arms a question's job again (the buttons' edit refused, the channel told that
    nobody answered, a question still being posted when its ``ask`` job came due) arms it
    :data:`ASK_AFTER` from now, its payload kept but for ``taken``, marked ``later`` when asked."""
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        desk, jobs = bot.front.clocks, bot.store.jobs
        taken = {"at": 5, "message": 7, "decided": True, "unanswered": True, "taken": True}
        await jobs.schedule(TIMEOUT, "9:1", table_clock.time() + 60, taken)
        await jobs.schedule(ASK, "9:1", table_clock.time() + 60, {"at": 5})
        table_clock.advance(30)
        due = table_clock.time() + ASK_AFTER

        await desk.again(await jobs.job(TIMEOUT, "9:1"), later=True)  # (Discord refused the edit)
        again = await jobs.job(TIMEOUT, "9:1")
        assert again.due_at == due
        assert again.payload == {"at": 5, "message": 7, "decided": True, "unanswered": True, "later": True}

        await jobs.schedule(TIMEOUT, "9:1", table_clock.time() + 60, taken)
        await desk.told_taken(await jobs.job(TIMEOUT, "9:1"))()  # (the channel was told)
        told = await jobs.job(TIMEOUT, "9:1")
        assert told.due_at == due
        assert told.payload == {"at": 5, "message": 7, "decided": True, "unanswered": True}

        await desk.again(await jobs.job(ASK, "9:1"))  # (the question is being posted)
        ask = await jobs.job(ASK, "9:1")
        assert ask.due_at == due and ask.payload == {"at": 5}
