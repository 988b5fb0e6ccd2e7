"""Undo under game clocks, at the session service on both back ends (real SQLite files, and a
PostgreSQL database): taking moves back never gives a clock time.  The time each clock ran stays
spent, the undo itself earns nobody an increment, and what the moves taken back gave back (an
increment, a per-move clock's fresh turn) goes with them."""

from __future__ import annotations

import pytest

from bot.history import History
from bot.sessions import Refusal
from bot.storage import DEADLINE
from bot.time.gameclock import DAY, HOUR, MINUTE
from bot.undo import Asked, Undone, UndoService
from tests.support import nim

CH = 79


@pytest.fixture(autouse=True)
def no_table_moves(monkeypatch):
    """Nim without its table move (a deadline asks the others, as in the games without one)."""
    monkeypatch.setattr(nim, "TABLE_MOVES", False)


async def started(service, clock_text, *, computer=False):
    """A Nim game of p1 (user 1, first) against p2 (user 2), or with ``computer`` against a
    computer player, with ``clock_text``."""
    await service.lobby.create(
        "nim",
        guild_id=1,
        channel_id=CH,
        host_id=1,
        host_name="p1",
        seed=7,
        clock=clock_text,
        options={"piles": 5},
    )
    if computer:
        await service.lobby.add_computer(CH, 1)
    else:
        await service.lobby.join(CH, 2, "p2")
    session = (await service.lobby.start(CH, 1, keep_order=True)).session
    assert session.to_move() == {session.seat_of(1).seat}
    return session


async def take_one(service, user_id):
    """``user_id`` takes one stone from the first pile that has some."""
    session = await service.core.require(CH)
    seat = session.seat_of(user_id).seat
    first = next(m for m in session.engine.legal_moves(session.state, seat) if m.count == 1)
    return (await service.play.play(CH, user_id, str(first))).session


async def deadline_in(service, session, clock) -> float:
    return (await service.store.jobs.job(DEADLINE, str(session.id))).due_at - clock.time()


async def test_moving_and_taking_back_again_and_again_never_grows_the_bank(service, clock):
    """p1 spends 20 h of a day, moves (12 h back: 16 h) and the computer answers; p1 takes the move
    back at once.  The increment goes with the move: 4 h, not the full day the undo used to give.
    Each further hour of thinking, move and undo leaves an hour less, never more."""
    session = await started(service, "bank:1d+12h", computer=True)
    mine = session.seat_of(1).seat
    undo = UndoService(service, History(service))
    clock.advance(20 * HOUR)
    session = await take_one(service, 1)
    assert session.banks.banks[mine] == 16 * HOUR and session.to_move() == {mine}  # the computer answered
    for tries in range(1, 5):
        assert isinstance(await undo.ask(CH, 1), Undone)
        session = await service.core.require(CH)
        assert session.banks.banks[mine] == (5 - tries) * HOUR  # 4 h, then an hour less each time
        assert session.banks.since == {mine: clock.time()}
        assert await deadline_in(service, session, clock) == (5 - tries) * HOUR
        clock.advance(HOUR)
        session = await take_one(service, 1)
        assert session.banks.banks[mine] == (4 - tries + 12) * HOUR  # the increment is earned again
    rows = await service.store.history.moves(session.id)
    assert [r.move for r in rows if r.move.startswith("!undo")] == [
        "!undo 1",
        "!undo 4",
        "!undo 7",
        "!undo 10",
    ]


async def test_an_undo_across_the_others_turn_takes_back_both_increments_not_their_time(service, clock):
    """p1 spends 20 h and moves (16 h left), p2 spends 2 h and moves (22 h, 2 h back: the full day),
    p1 thinks an hour and asks to take both moves back, and p2 agrees half an hour later.  p1 has
    what they had before their move less the 1.5 h their clock ran since (2.5 h), p2 keeps the 2 h
    they spent thinking (22 h): neither increment stays, and the undo gives nobody one."""
    session = await started(service, "bank:1d+12h")
    one, two = session.seat_of(1).seat, session.seat_of(2).seat
    clock.advance(20 * HOUR)
    await take_one(service, 1)
    clock.advance(2 * HOUR)
    session = await take_one(service, 2)
    assert session.banks.banks == {one: 16 * HOUR, two: DAY}
    clock.advance(HOUR)
    undo = UndoService(service, History(service))
    asked = await undo.ask(CH, 1)
    assert isinstance(asked, Asked) and asked.target == 1 and len(asked.moves) == 2
    clock.advance(30 * MINUTE)
    answered = await undo.answer(session.id, asked.request.version, 2, True)
    assert answered.result is not None
    session = await service.core.require(CH)
    assert session.to_move() == {one}
    assert session.banks.banks == {one: 2.5 * HOUR, two: 22 * HOUR}
    assert session.banks.since == {one: clock.time()} and session.banks.pending == {}
    assert await deadline_in(service, session, clock) == 2.5 * HOUR
    # The moves that follow earn their increments as before.
    clock.advance(HOUR)
    session = await take_one(service, 1)
    assert session.banks.banks == {one: 13.5 * HOUR, two: 22 * HOUR}


async def test_an_undo_while_the_others_clock_runs_gives_them_no_increment(service, clock):
    """p1 moves after 20 h (16 h); p2's clock runs 3 h while p1 asks to take the move back and p2
    agrees.  p1 is back to 4 h; p2 paid the 3 h their clock ran and got nothing for the undo (it was
    no move of theirs)."""
    session = await started(service, "bank:1d+12h")
    one, two = session.seat_of(1).seat, session.seat_of(2).seat
    clock.advance(20 * HOUR)
    await take_one(service, 1)
    clock.advance(3 * HOUR)
    undo = UndoService(service, History(service))
    asked = await undo.ask(CH, 1)
    assert isinstance(asked, Asked) and len(asked.moves) == 1
    await undo.answer(session.id, asked.request.version, 2, True)
    session = await service.core.require(CH)
    assert session.banks.banks == {one: 4 * HOUR, two: 21 * HOUR}
    assert session.banks.since == {one: clock.time()}


@pytest.mark.parametrize("kind", ["move", "timer"])
async def test_a_per_move_clock_goes_on_with_the_turn_taken_back_not_a_fresh_one(service, clock, kind):
    """A per-move clock (and the turn timer, a per-move clock whose end has the computer move) of
    2 h: p1 moves after 90 min, the computer answers, and p1 takes the move back 10 min later.  The
    turn goes on with the 20 min its clock has left, as it would have without the move; a fresh
    2 h turn per undo would let a player stretch a turn for ever."""
    if kind == "move":
        session = await started(service, "move:2h", computer=True)
    else:
        session = await started(service, None, computer=True)
        session = await service.clocks.set_timer(CH, 1, 2 * HOUR, can_manage=False)
    mine = session.seat_of(1).seat
    clock.advance(90 * MINUTE)
    session = await take_one(service, 1)
    assert session.banks.banks[mine] == 2 * HOUR  # a fresh turn after the computer's move
    clock.advance(10 * MINUTE)
    assert isinstance(await UndoService(service, History(service)).ask(CH, 1), Undone)
    session = await service.core.require(CH)
    assert session.to_move() == {mine} and session.banks.since == {mine: clock.time()}
    assert session.banks.banks[mine] == 20 * MINUTE
    assert await deadline_in(service, session, clock) == 20 * MINUTE


async def test_clocks_stored_before_they_counted_moves_take_nothing_back_and_give_nothing(service, clock):
    """A game whose clocks were stored before they counted the moves (no notes of what each turn
    gave back): an undo cannot take an increment back it knows nothing of, and still gives none
    for itself; the clocks count the moves from then on."""
    session = await started(service, "bank:1d+12h")
    one, two = session.seat_of(1).seat, session.seat_of(2).seat
    clock.advance(20 * HOUR)
    session = await take_one(service, 1)
    old = {k: v for k, v in session.row.clock_state.items() if k not in ("moves", "earned")}
    await service.store.games.set_clock(session.id, session.row.clock, old, 3 * DAY)
    session = await service.core.require(CH)
    assert session.banks.moves is None and session.banks.earned == {}
    clock.advance(HOUR)
    undo = UndoService(service, History(service))
    asked = await undo.ask(CH, 1)
    await undo.answer(session.id, asked.request.version, 2, True)
    session = await service.core.require(CH)
    assert session.banks.banks == {one: 16 * HOUR, two: 23 * HOUR}  # nothing given for the undo
    assert session.banks.moves == 2


async def test_nowa_gwinea_taking_back_done_takes_back_its_early_increment(service, clock):
    """Everyone builds at once: seat 0 says `done` after 5 h and its clock stops with its increment
    (1 d less 5 h, 2 h back: 21 h) while seat 1 builds on.  Seat 0 takes `done` back an hour later:
    its clock runs again with the 19 h it had, not the increment, and seat 1's clock, which ran
    all along, has 18 h."""
    await service.lobby.create(
        "nowa_gwinea", guild_id=1, channel_id=CH, host_id=1, host_name="p1", seed=5, clock="bank:1d+2h"
    )
    await service.lobby.join(CH, 2, "p2")
    session = (await service.lobby.start(CH, 1)).session
    assert session.to_move() == {0, 1}
    quick, slow = session.by_seat(0), session.by_seat(1)
    clock.advance(5 * HOUR)
    session = (await service.play.play(CH, quick.user_id, "done")).session
    assert session.to_move() == {1} and session.banks.banks[0] == 21 * HOUR
    clock.advance(HOUR)
    undo = UndoService(service, History(service))
    asked = await undo.ask(CH, quick.user_id)
    assert isinstance(asked, Asked) and [m.move for m in asked.moves] == ["done"]
    await undo.answer(session.id, asked.request.version, slow.user_id, True)
    session = await service.core.require(CH)
    assert session.to_move() == {0, 1}
    assert session.banks.banks == {0: 19 * HOUR, 1: 18 * HOUR}
    assert session.banks.since == {0: clock.time(), 1: clock.time()}
    # the round waits for the last clock: seat 0's 19 h
    assert await deadline_in(service, session, clock) == 19 * HOUR


async def test_the_turn_timers_move_for_a_late_player_cannot_be_taken_back(service, clock):
    """Under a 2 h turn timer p1 moves and p2 lets the timer run out: the computer makes p2's move.
    Taking that move back would give p2 no time (an undo never does), so the timer would only play
    again at once, a move the computer chose afresh.  The undo is refused, saying so, whether p2 or
    p1 (whose own move came before it) asks, and the game is unchanged."""
    session = await started(service, None)
    session = await service.clocks.set_timer(CH, 1, 2 * HOUR, can_manage=False)
    first = session.to_move()
    session = await take_one(service, 1)
    late = session.seat_of(2).seat
    assert session.to_move() == {late} and first != {late}
    clock.advance(2 * HOUR)
    (job,) = await service.store.jobs.claim_jobs("test", lease=60)  # as the scheduler does
    assert job.kind == DEADLINE
    await service.clocks.fire_clock(session.id, job)
    session = await service.core.require(CH)
    (forced,) = [r for r in await service.store.history.moves(session.id) if r.seat == late]
    assert forced.by_computer and not session.by_seat(late).computer
    undo = UndoService(service, History(service))
    for asker in (2, 1):
        with pytest.raises(
            Refusal, match=rf"move {forced.number} was played for p2 when their turn timer ran out"
        ):
            await undo.ask(CH, asker)
    after = await service.core.require(CH)
    assert after.version == session.version and await service.store.history.undo_request(session.id) is None
