"""Undo by consent raced from two processes (two session services on one database, each with its
own locks): the last agreement is clicked in the process serving the game's server while the
game's deadline fires in whichever process claimed it.  The first change stored stands; the other
is refused in words, with nothing written, never answered as a failure."""

from __future__ import annotations

import pytest

from bot.history import History
from bot.sessions import SessionService, StaleMove
from bot.time.gameclock import HOUR
from bot.undo import Asked, UndoService
from tests.support import nim

CH = 303
GUILD = 1


def mover(session) -> int:
    (seat,) = session.to_move()
    return session.by_seat(seat).user_id


async def test_the_last_agreement_racing_a_deadline_elsewhere_is_refused_in_words(store, clock):
    here, there = SessionService(store), SessionService(store)
    history = History(here)
    undo = UndoService(here, history)
    await here.lobby.create("nim", guild_id=GUILD, channel_id=CH, host_id=1, host_name="ann", seed=7)
    await here.lobby.join(CH, 2, "bob")
    session = (await here.lobby.start(CH, 1)).session
    await here.clocks.set_timer(CH, 1, HOUR, can_manage=False)
    first = mover(session)
    other = 3 - first
    await here.play.play(CH, first, (await here.play.legal_moves(CH, first))[0])
    asked = await undo.ask(CH, first)
    assert isinstance(asked, Asked)
    clock.advance(HOUR)  # the other's turn timer runs out: the deadline is due
    (job,) = await store.jobs.claim_jobs("there", lease=60)
    fired: list = []
    real = history.state_at

    async def state_at(*args, **kwargs):  # the moves to take back were checked; not yet stored
        history.state_at = real  # once
        fired.append(await there.clocks.fire_clock(session.id, job))
        return await real(*args, **kwargs)

    history.state_at = state_at
    with pytest.raises(StaleMove, match="moved on before"):
        await undo.answer(session.id, asked.request.version, other, True)
    assert fired and fired[0] is not None  # the deadline's move stands
    now = await here.core.reread(session.id)
    assert now.version == asked.request.version + 1  # and nothing else was written
    moves = await store.history.moves(session.id)
    assert [m.move for m in moves][-1] == str(fired[0].played[-1].move)
    assert nim.to_dict(await here.logbook.replay(session.id)) == nim.to_dict(now.state)
