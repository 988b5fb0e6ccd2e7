"""The answers to a timeout question raced from two processes (two session services on one
database, each with its own locks): the job that lets the computer take a seat nobody answered
for fires in whichever process claims it, while a player's click on the question lands in the
process serving the game's server.  The first answer decides; the other is told the question is
closed, and changes nothing."""

from __future__ import annotations

import pytest

from bot.sessions import ASK_AFTER, SessionService, StaleMove
from bot.time.jobs import TIMEOUT
from tests.support import nim
from tests.table.util import timed_out

CH = 79


@pytest.fixture
def no_table_moves(monkeypatch):
    """Nim without its table move, so that running out of time asks the others."""
    monkeypatch.setattr(nim, "TABLE_MOVES", False)


def unanswered_meanwhile(store, there: SessionService, session_id: int, seat: int, at: int) -> list:
    """While the next answer is judged here (after it read the game, before it writes), the other
    process's job answers for nobody: the computer takes the seat.  What it decided is kept."""
    decided: list = []
    real = store.history.moved_since

    async def moved_since(*args, **kwargs):
        store.history.moved_since = real  # once
        moved = await real(*args, **kwargs)  # (the late player had not moved: the question is open)
        decided.append(await there.clocks.answer_timeout(session_id, seat, at, "computer", None))
        return moved

    store.history.moved_since = moved_since
    return decided


@pytest.mark.parametrize("choice", ["more", "abandon"])
async def test_a_click_racing_the_unanswered_job_elsewhere_is_refused_once_the_job_decided(
    store, clock, no_table_moves, choice
):
    here, there = SessionService(store), SessionService(store)
    out, voter = await timed_out(here, clock, CH)
    session, seat, at = out.session, out.seats[0].seat, int(out.at)
    decided = unanswered_meanwhile(store, there, session.id, seat, at)
    with pytest.raises(StaleMove, match="question is closed"):
        await here.clocks.answer_timeout(session.id, seat, at, choice, voter)
    assert len(decided) == 1  # the job's answer came first, and stands alone
    now = await here.core.reread(session.id)
    assert now.status == "active" and now.by_seat(seat).computer
    assert seat in now.banks.taken  # the late person may still take the seat back, once
    assert now.banks.pending == {}


@pytest.mark.parametrize("choice", ["more", "abandon", "computer", "nobody"])
async def test_a_decided_question_s_job_keeps_its_message_for_any_process_to_take_its_buttons_off(
    store, clock, no_table_moves, choice
):
    """The question was posted (its message kept in its ``timeout`` job), and a person answers it
    in one process (or nobody does, and the job decides): the job is armed again a little later,
    marked decided and keeping the question's message and that the channel is still to be told
    what was decided (nobody answering, or who answered what), so that the question loses its buttons even if that process
    stops, or Discord refuses its edit: the next board in any process, or the job's try in
    whichever claims it, takes them off.  Before, an answer dropped the job, and the message with
    it."""
    here = SessionService(store)
    out, voter = await timed_out(here, clock, CH)
    session, seat, at = out.session, out.seats[0].seat, int(out.at)
    key = f"{session.id}:{seat}"
    asked = await store.jobs.job(TIMEOUT, key)
    await store.jobs.schedule(TIMEOUT, key, asked.due_at, {**asked.payload, "message": 555})
    if choice == "nobody":
        await here.clocks.answer_timeout(session.id, seat, at, "computer", None)
    else:
        await here.clocks.answer_timeout(session.id, seat, at, choice, voter)
    clock.advance(ASK_AFTER)
    (job,) = [j for j in await store.jobs.claim_jobs("there", lease=60) if j.kind == TIMEOUT]
    expected = {"at": at, "message": 555, "decided": True, "taken": True}
    if choice == "nobody":
        expected |= {"unanswered": True}
    else:  # who answered what, and the board the channel showed then (none in this test)
        expected |= {"answered": voter, "choice": choice, "board": 0}
    assert job.key == key and job.payload == expected
