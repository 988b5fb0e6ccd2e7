"""The answers to a timeout question raced from two processes (two session services on one
database, each with its own locks): the job that lets the computer take a seat nobody answered
for fires in whichever process claims it, while a player's click on the question lands in the
process serving the game's server.  The first answer decides; the other is told the question is
closed, and changes nothing."""

from __future__ import annotations

import pytest

from bot.sessions import SessionService, StaleMove, TimeOut
from bot.storage import DEADLINE
from bot.time.gameclock import DAY
from tests.support import nim

CH = 79


@pytest.fixture
def no_table_moves(monkeypatch):
    """Nim without its table move, so that running out of time asks the others."""
    monkeypatch.setattr(nim, "TABLE_MOVES", False)


async def timed_out(service: SessionService, clock):
    """A three-person game whose first seat to move ran out of time: the question is open."""
    await service.lobby.create(
        "nim", guild_id=1, channel_id=CH, host_id=1, host_name="p1", seed=3, clock="bank:1d+1h"
    )
    for uid in (2, 3):
        await service.lobby.join(CH, uid, f"p{uid}")
    session = (await service.lobby.start(CH, 1)).session
    late = session.waiting_on()[0]
    clock.advance(DAY)
    (job,) = await service.store.jobs.claim_jobs("test", lease=60)
    assert job.kind == DEADLINE
    out = await service.clocks.fire_clock(session.id, job)
    assert isinstance(out, TimeOut)
    voter = next(s for s in session.seats if s.user_id != late.user_id)
    return session, late.seat, int(out.at), voter.user_id


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
    session, seat, at, voter = await timed_out(here, clock)
    decided = unanswered_meanwhile(store, there, session.id, seat, at)
    with pytest.raises(StaleMove, match="question is closed"):
        await here.clocks.answer_timeout(session.id, seat, at, choice, voter)
    assert len(decided) == 1  # the job's answer came first, and stands alone
    now = await here.core.reread(session.id)
    assert now.status == "active" and now.by_seat(seat).computer
    assert seat in now.banks.taken  # the late person may still take the seat back, once
    assert now.banks.pending == {}
