"""A change at the table that moves seats and clocks is stored whole, on both back ends: the
computer taking late seats (a league's deadline), the computer finishing a game (a round's end),
``/game return``, a timeout the others answer with "computer", and a substitute handed a seat.
The database refuses the second of the writes the change used to make one after the other (a
trigger, as a failing disk or a server cut would): nothing of the change is kept, the game stays
as it was and can be acted on again; without the fault the whole change is stored."""

from __future__ import annotations

import pytest

from bot.storage import DEADLINE
from bot.storage.noshows import Substitute
from bot.time.gameclock import DAY
from engines.core import said
from tests.league.test_storage import GUILD, new_league
from tests.support import nim
from tests.table.test_clocks import CH, started
from tests.table.test_clocks import run_out as ran_out


@pytest.fixture
def no_table_moves(monkeypatch):
    """Nim without its table move, so that running out of time asks the others."""
    monkeypatch.setattr(nim, "TABLE_MOVES", False)


async def refuse(database, name: str, table: str, *, column: str | None = None, when: str | None = None):
    """From now on the database refuses an update of ``table`` (of its ``column``; of the rows
    ``when`` holds for) with an integrity error, until :func:`allow`."""
    of = f" OF {column}" if column else ""
    if database.kind == "sqlite":
        where = f" WHEN {when}" if when else ""
        await database.execute(
            f"CREATE TRIGGER {name} BEFORE UPDATE{of} ON {table}{where}"
            " BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
        )
        return
    await database.execute(
        "CREATE OR REPLACE FUNCTION refused_by_the_test() RETURNS trigger LANGUAGE plpgsql AS"
        " $$ BEGIN RAISE EXCEPTION 'refused by the test' USING ERRCODE = 'integrity_constraint_violation';"
        " END $$"
    )
    where = f" WHEN ({when})" if when else ""
    await database.execute(
        f"CREATE TRIGGER {name} BEFORE UPDATE{of} ON {table} FOR EACH ROW{where}"
        " EXECUTE FUNCTION refused_by_the_test()"
    )


async def allow(database, name: str, table: str) -> None:
    if database.kind == "sqlite":
        await database.execute(f"DROP TRIGGER {name}")
    else:
        await database.execute(f"DROP TRIGGER {name} ON {table}")


async def refuse_clocks(database) -> None:
    """The second write the seat changes used to make: the game's running clocks."""
    await refuse(database, "no_clocks", "sessions", column="clock_state")


async def deadline(service, session_id: int) -> float | None:
    job = await service.store.jobs.job(DEADLINE, str(session_id))
    return None if job is None else job.due_at


async def test_the_computer_taking_a_late_seat_stores_the_seat_and_its_stopped_clock_together(
    service, database, clock
):
    """A league's deadline: the computer takes the late person's seat and their clock stops.
    Refused at the clocks, the seat is not the computer's either (it used to be, with its clock
    still running and its deadline still armed); allowed, both are stored."""
    session = await started(service, "bank:1d")
    late = session.waiting_on()[0]
    clock.advance(3600)
    before = await service.core.get(session.id)
    due = await deadline(service, session.id)
    await refuse_clocks(database)
    with pytest.raises(database.integrity_error):
        await service.seats.computer_takes(session.id, [late.user_id], said("late"))
    after = await service.core.get(session.id)
    assert not after.by_seat(late.seat).computer
    assert after.banks == before.banks and after.version == before.version
    assert await deadline(service, session.id) == due

    await allow(database, "no_clocks", "sessions")
    taken = await service.seats.computer_takes(session.id, [late.user_id], said("late"))
    assert taken is not None and taken.played  # the computer moved for the seat
    after = await service.core.get(session.id)
    assert after.by_seat(late.seat).computer and late.seat not in after.banks.since
    assert after.banks.banks[late.seat] == before.banks.banks[late.seat]  # its bank kept as it stood


async def test_the_computer_finishing_a_game_takes_every_seat_in_one_commit(service, database, clock):
    """A round's deadline: the computer takes every person's seat and plays the game out.
    Refused at the second seat, the first is not the computer's either (it used to be, the game
    left with one seat the computer's and the others their people's); allowed, the game ends."""
    session = await started(service, "bank:1d", people=3)
    await refuse(database, "no_second_seat", "seats", when="NEW.seat = 1")
    with pytest.raises(database.integrity_error):
        await service.seats.finish_by_computer(session.id)
    after = await service.core.get(session.id)
    assert after.status == "active" and after.version == session.version
    assert [s.computer for s in after.seats] == [False, False, False]

    await allow(database, "no_second_seat", "seats")
    result = await service.seats.finish_by_computer(session.id)
    assert result is not None and result.finished
    after = await service.core.get(session.id)
    assert after.status == "finished" and [s.computer for s in after.seats] == [True, True, True]


async def test_a_timeout_answered_computer_stores_the_seat_and_the_closed_question_together(
    service, database, clock, no_table_moves
):
    """Nobody answered in time: the computer takes the seat, and the question and the seat's
    clock end.  Refused at the clocks, the seat stays its person's with the question open (it
    used to be the computer's with the question still open); allowed, both are stored."""
    session, late, at = await ran_out(service, clock, people=2)
    await refuse_clocks(database)
    with pytest.raises(database.integrity_error):
        await service.clocks.answer_timeout(session.id, late.seat, at, "computer", None)
    after = await service.core.get(session.id)
    assert not after.by_seat(late.seat).computer and after.version == session.version
    assert after.banks == session.banks and late.seat in after.banks.pending

    await allow(database, "no_clocks", "sessions")
    after, result = await service.clocks.answer_timeout(session.id, late.seat, at, "computer", None)
    assert result is not None and result.played
    assert after.by_seat(late.seat).computer
    assert after.banks.pending == {} and after.banks.taken == {late.seat: False}


async def test_a_return_stores_the_seat_and_its_full_start_together(service, database, clock, no_table_moves):
    """``/game return``: the person takes their seat back with a full start on their clock.
    Refused at the clocks, the seat stays the computer's with the return still theirs to use (it
    used to be theirs again with no clock and no return left to use); allowed, both are stored."""
    session, late, at = await ran_out(service, clock, people=2)
    session, _ = await service.clocks.answer_timeout(session.id, late.seat, at, "computer", None)
    await refuse_clocks(database)
    with pytest.raises(database.integrity_error):
        await service.seats.return_seat(CH, late.user_id)
    after = await service.core.get(session.id)
    assert after.by_seat(late.seat).computer and after.version == session.version
    assert after.banks == session.banks and after.banks.taken == {late.seat: False}

    await allow(database, "no_clocks", "sessions")
    after = await service.seats.return_seat(CH, late.user_id)
    assert not after.by_seat(late.seat).computer
    assert after.banks.taken == {late.seat: True} and after.banks.banks[late.seat] == DAY


async def test_a_substitute_gets_the_seat_the_league_seat_and_a_full_start_together(service, database, clock):
    """A dropped player's seat goes to a substitute, with a full start on its clock.  Refused at
    the clocks, neither the game's seat nor the league's substitution is stored and the substitute
    is still on the list (the seat used to be theirs with the computer's stopped clock: nobody's
    clock ran on their turn, so no deadline came); allowed, all of it is stored."""
    store = service.store
    lid = await new_league(store)
    for uid in (10, 20):
        await store.leagues.join_league(lid, uid, f"u{uid}")
    await store.leagues.start_league(lid, store.clock.time(), 3)
    (gid,) = await store.leagues.open_round(lid, 1, [[10, 20]], [], store.clock.time() + 10)
    session = await service.lobby.create(
        "nim", guild_id=GUILD, channel_id=7, host_id=10, host_name="u10", seed=3, clock="bank:1d"
    )
    await service.lobby.join(7, 20, "u20")
    await store.leagues.attach_session(gid, session.id)
    session = (await service.lobby.start(7, 10)).session
    (first,) = session.waiting_on()
    clock.advance(3600)
    assert await service.seats.computer_takes(session.id, [first.user_id], said("late")) is not None
    await store.leagues.drop_player(lid, first.user_id)
    await store.noshows.add_substitute(lid, 30, "Sub")
    before = await service.core.get(session.id)

    async def change(clocked, version):
        return await store.noshows.hand_seat(
            lid,
            gid,
            session.id,
            first.seat,
            first.user_id,
            Substitute(30, "Sub"),
            "original",
            clocked,
            None,
            version,
        )

    await refuse_clocks(database)
    with pytest.raises(database.integrity_error):
        await service.seats.hand_over(session.id, first.seat, 30, change)
    after = await service.core.get(session.id)
    assert after.by_seat(first.seat).user_id == first.user_id and after.by_seat(first.seat).computer
    assert after.version == before.version and after.banks == before.banks
    assert await store.noshows.substitutions(gid) == []
    assert await store.noshows.substitutes(lid) == [Substitute(30, "Sub")]

    await allow(database, "no_clocks", "sessions")
    handed = await service.seats.hand_over(session.id, first.seat, 30, change)
    assert handed is not None
    seat = handed.by_seat(first.seat)
    assert seat.user_id == 30 and not seat.computer
    assert handed.banks.banks[first.seat] == DAY and first.seat not in handed.banks.taken
    assert await store.noshows.substitutions(gid) == [(first.user_id, 30, "original")]
    assert await store.noshows.substitutes(lid) == []


async def test_the_deadline_after_a_return_is_the_returning_clocks_own(service, clock, no_table_moves):
    """After the one commit, the armed deadline is the one the stored clocks give: when the
    person who came back is to move, it is when their full start runs out."""
    session, late, at = await ran_out(service, clock, people=2)
    await service.clocks.answer_timeout(session.id, late.seat, at, "computer", None)
    session = await service.seats.return_seat(CH, late.user_id)
    while late.seat not in session.to_move():
        (seat,) = session.waiting_on()
        move = next(iter(session.engine.legal_moves(session.state, seat.seat)))
        session = (await service.play.play(CH, seat.user_id, str(move))).session
    assert await deadline(service, session.id) == session.banks.since[late.seat] + DAY


@pytest.mark.parametrize("league", [False, True])
async def test_a_resignation_that_ends_the_game_stores_the_seat_and_the_end_together(
    service, database, clock, league
):
    """One of two people resigns (or their league drops them): the game ends at once.  Refused
    at the end, the resignation is not stored either (it used to be: the game went on with the
    computer in the seat, and the one left had to play it out, or could never leave it, as the
    resignation could not be made again); allowed, both are stored."""
    session = await started(service, "bank:1d")
    leaving = session.waiting_on()[0]
    staying = next(s for s in session.seats if s.seat != leaving.seat)

    async def leave():
        if league:
            return await service.seats.forfeit_seat(session.id, leaving.user_id)
        return await service.seats.resign(CH, leaving.user_id)

    await refuse(database, "no_end", "sessions", column="status")
    with pytest.raises(database.integrity_error):
        await leave()
    after = await service.core.get(session.id)
    assert after.status == "active" and after.version == session.version
    assert not after.by_seat(leaving.seat).resigned and not after.by_seat(leaving.seat).computer
    assert after.banks == session.banks

    await allow(database, "no_end", "sessions")
    result = await leave()
    assert result is not None and result.finished
    after = await service.core.get(session.id)
    assert after.status == "finished" and after.by_seat(leaving.seat).resigned
    places = {r.user_id: (r.place, r.resigned) for r in await service.store.ratings.results(session.id)}
    assert places == {staying.user_id: (1, False), leaving.user_id: (2, True)}
