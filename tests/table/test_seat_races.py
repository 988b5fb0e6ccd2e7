"""A player's change to a running game raced by its deadline firing in another process (two
session services on one database, each with its own locks: the deadline job fires in whichever
process claimed it).  A resignation, a new clock or a seat taken back carries the game's clocks as they were when it
was judged; stored after the deadline's move, it would put them back as they were before that
move (the wrong seat's clock running, the next deadline set from it).  It is refused in words
instead, with nothing written, and the deadline's move and clocks stand."""

from __future__ import annotations

import pytest

from bot.sessions import SessionService, StaleMove, TimeOut
from bot.storage import DEADLINE
from bot.storage.noshows import Substitute
from bot.time.gameclock import DAY, HOUR
from engines.core import said
from tests.league.test_storage import new_league
from tests.support import nim
from tests.table.util import timed_out

CH = 81


async def three_with_a_timer(service: SessionService, clock):
    """Three people play with a one-hour turn timer, which has just run out (its job claimed)."""
    await service.lobby.create("nim", guild_id=1, channel_id=CH, host_id=1, host_name="p1", seed=3)
    for uid in (2, 3):
        await service.lobby.join(CH, uid, f"p{uid}")
    await service.lobby.start(CH, 1)
    session = await service.clocks.set_timer(CH, 1, HOUR, can_manage=False)
    clock.advance(HOUR)
    (job,) = await service.store.jobs.claim_jobs("there", lease=60)
    return session, job


def deadline_meanwhile(store, there: SessionService, session_id: int, job) -> list:
    """While a change is judged here (when it reads the people's times away for the clocks, before
    it writes), the deadline fires in the other process; what it did is kept."""
    fired: list = []
    real = store.people.away_periods

    async def away_periods(*args, **kwargs):
        store.people.away_periods = real  # once
        fired.append(await there.clocks.fire_clock(session_id, job))
        return await real(*args, **kwargs)

    store.people.away_periods = away_periods
    return fired


async def after_deadline(store, session, fired):
    assert fired and fired[0] is not None  # the deadline's move was stored
    now = (await store.games.load(session_id=session.id))[0]
    assert now.version == fired[0].session.version  # and nothing after it
    assert now.clock_state == fired[0].session.row.clock_state
    return now


async def test_a_resignation_racing_a_deadline_elsewhere_is_refused_in_words(store, clock):
    here, there = SessionService(store), SessionService(store)
    session, job = await three_with_a_timer(here, clock)
    resigning = next(s for s in session.seats if s.seat not in session.to_move())
    fired = deadline_meanwhile(store, there, session.id, job)
    with pytest.raises(StaleMove, match="changed just as you asked"):
        await here.seats.resign(CH, resigning.user_id)
    await after_deadline(store, session, fired)
    assert not any(s.resigned for s in await store.games.seats(session.id))


async def test_a_new_clock_racing_a_deadline_elsewhere_is_refused_in_words(store, clock):
    here, there = SessionService(store), SessionService(store)
    session, job = await three_with_a_timer(here, clock)
    fired = deadline_meanwhile(store, there, session.id, job)
    with pytest.raises(StaleMove, match="changed just as you asked"):
        await here.clocks.set_clock(CH, 1, "move:2h", can_manage=False)
    now = await after_deadline(store, session, fired)
    assert now.clock == "timer:1h"


async def test_a_seat_taken_back_racing_a_deadline_elsewhere_is_refused_in_words(store, clock, monkeypatch):
    monkeypatch.setattr(nim, "TABLE_MOVES", False)  # a time running out asks the others
    here, there = SessionService(store), SessionService(store)
    out, _ = await timed_out(here, clock, CH)
    session, late = out.session, out.seats[0]
    session, _ = await here.clocks.answer_timeout(session.id, late.seat, int(out.at), "computer", None)
    assert session.by_seat(late.seat).computer  # the computer took the seat and moved for it
    next_up = session.waiting_on()[0]
    clock.advance(DAY)  # the next person's bank runs out too
    (job,) = [j for j in await store.jobs.claim_jobs("there", lease=60) if j.kind == DEADLINE]
    fired = deadline_meanwhile(store, there, session.id, job)
    with pytest.raises(StaleMove, match="changed just as you asked"):
        await here.seats.return_seat(CH, late.user_id)
    assert isinstance(fired[0], TimeOut) and fired[0].seats == [next_up]
    now = await here.core.reread(session.id)
    assert now.by_seat(late.seat).computer  # nothing written by the return
    assert set(now.banks.pending) == {next_up.seat}  # the question about the next person stays open


@pytest.mark.parametrize("how", ["computer_takes", "forfeit"])
async def test_a_league_taking_a_seat_while_a_deadline_fires_elsewhere_keeps_the_deadlines_clocks(
    store, clock, how
):
    """A league's job (the computer takes a no-show's seat, or a dropped player's seat resigns) and
    the game's deadline fire at once in two processes: the league's change is judged again on the
    game as the deadline left it, so the clocks it stores are those the deadline's move started,
    not those from before it."""
    here, there = SessionService(store), SessionService(store)
    session, job = await three_with_a_timer(here, clock)
    taken = next(s for s in session.seats if s.seat not in session.to_move())
    fired = deadline_meanwhile(store, there, session.id, job)
    if how == "forfeit":
        result = await here.seats.forfeit_seat(session.id, taken.user_id)
    else:
        result = await here.seats.computer_takes(session.id, [taken.user_id], said("no-show"))
    assert result is not None and fired and fired[0] is not None  # both stood
    now = await here.core.reread(session.id)
    assert now.by_seat(taken.seat).computer
    # The clocks that run are those of the people to move, each since its turn began (the
    # deadline's time, the clock standing still since), none from before the deadline's move.
    assert set(now.banks.since) == {s.seat for s in now.waiting_on() if not s.computer}
    assert all(since == clock.time() for since in now.banks.since.values())


async def test_a_seat_handed_to_a_substitute_while_a_deadline_fires_elsewhere_keeps_the_deadlines_clocks(
    store, clock
):
    """A league hands a seat to a substitute while the game's deadline fires in another process:
    the handover is judged again on the game as the deadline left it (the seat, its clock's full
    start and the league's record in one commit), so the clocks it stores are those the
    deadline's move started, not those from before it."""
    here, there = SessionService(store), SessionService(store)
    session, job = await three_with_a_timer(here, clock)
    lid = await new_league(store, size=3)
    for uid in (1, 2, 3):
        await store.leagues.join_league(lid, uid, f"p{uid}")
    await store.leagues.start_league(lid, clock.time(), 3)
    (gid,) = await store.leagues.open_round(lid, 1, [[1, 2, 3]], [], clock.time() + DAY)
    await store.leagues.attach_session(gid, session.id)
    await store.noshows.add_substitute(lid, 30, "Sub")
    handed = next(s for s in session.seats if s.seat not in session.to_move())
    assert handed.seat is not None and handed.user_id is not None
    seat, original = handed.seat, handed.user_id

    async def change(clocked, version):
        return await store.noshows.hand_seat(
            lid, gid, session.id, seat, original, Substitute(30, "Sub"), "original", clocked, noshow, version
        )

    noshow = store.noshows.recording(lid, gid, 1, [original], "substitute")  # the league's record
    fired = deadline_meanwhile(store, there, session.id, job)
    assert await here.seats.hand_over(session.id, seat, 30, change) is not None
    assert fired and fired[0] is not None  # both stood
    now = await here.core.reread(session.id)
    assert now.by_seat(seat).user_id == 30 and not now.by_seat(seat).computer
    assert await store.noshows.substitutions(gid) == [(original, 30, "original")]  # once
    assert await store.noshows.counts(lid) == {original: 1}  # in the same commit
    assert set(now.banks.since) == {s.seat for s in now.waiting_on() if not s.computer}
    assert all(since == clock.time() for since in now.banks.since.values())
