"""The PostgreSQL server refusing the bot in the middle of play: a change that was stored is told
as stored (never "unchanged"), and what could not follow it (the computers' turns, the end of the
game) is played once the database answers again, or at the next start."""

from __future__ import annotations

import pytest

from bot.replaying import undo_target
from bot.sessions import Refusal, SessionService
from bot.sessions.model import HELD_UP
from bot.time.jobs import DEADLINE
from tests.support import nim
from tests.support.outage import Outage

G = 1


pytestmark = pytest.mark.parametrize("database", ["postgres"], indirect=True)


def cut_after(outage: Outage, owner: object, name: str) -> None:
    """``owner.name`` does its work, then the database stops answering."""
    method = getattr(owner, name)

    async def then_cut(*args, **kwargs):
        done = await method(*args, **kwargs)
        await outage.begin()
        return done

    setattr(owner, name, then_cut)


@pytest.fixture
async def outage(request, database):
    down = Outage(request.getfixturevalue("pg_cluster"), database.target)
    yield down
    await down.end()


async def test_a_move_stored_before_the_computers_turn_failed_is_told_as_played(store, outage):
    """The person's move is committed, then the database stops answering while the computer
    thinks: the move is handed back as played (with a note), not raised as a failure; once the
    database is back the computer's turn is played."""
    service = SessionService(store)
    await service.lobby.create("nim", guild_id=G, channel_id=5, host_id=1, host_name="ann", seed=3)
    await service.lobby.add_computer(5, 1)
    session = (await service.lobby.start(5, 1)).session
    assert session.to_move() == {0} and session.by_seat(0).user_id == 1
    thinks = service.core.computers.move

    async def cut_then_think(*args, **kwargs):
        await outage.begin()
        return await thinks(*args, **kwargs)

    service.core.computers.move = cut_then_think
    result = await service.play.play(5, 1, "A1")
    assert result.unsettled and result.note is not None and result.note.msg == HELD_UP
    assert [p.move for p in result.played] == ["A1"] and not result.finished
    assert result.session.to_move() == {1}  # the board as stored: the computer's turn
    service.core.computers.move = thinks
    why = await store.ping()  # /healthz's reason: one line naming the server, no class name
    assert why is not None and why.startswith(f"PostgreSQL at {store.where} stopped answering ("), why
    assert why.endswith("check that the server runs")

    await outage.end()
    assert [m.move for m in await store.history.moves(session.id)] == ["A1"]
    follow = await service.play.computers_play(session.id)
    assert follow is not None and [p.seat for p in follow.played] == [1]
    moves = await store.history.moves(session.id)
    assert [(m.seat, m.by_computer) for m in moves] == [(0, False), (1, True)]


async def test_a_last_move_whose_end_was_not_stored_ends_the_game_at_the_next_start(
    store, outage, database, clock
):
    """The winning move is committed, then the database stops answering before the results are
    stored: the move is told as played; the game is not left running for ever: at the next start
    it is listed with the games to play on, and its end (results, ratings) is recorded."""
    service = SessionService(store)
    await service.lobby.create(
        "nim", guild_id=G, channel_id=5, host_id=1, host_name="ann", seed=3, options={"piles": 1}
    )
    await service.lobby.join(5, 2, "bob")
    session = (await service.lobby.start(5, 1)).session
    (first,) = session.to_move()
    mover = session.by_seat(first).user_id
    winning = (await service.play.legal_moves(5, mover))[-1]  # the whole pile
    finish = store.games.finish

    async def cut_then_finish(*args, **kwargs):
        await outage.begin()
        return await finish(*args, **kwargs)

    store.games.finish = cut_then_finish
    result = await service.play.play(5, mover, winning)
    assert result.unsettled and result.note is not None and result.note.msg == HELD_UP
    assert [p.move for p in result.played] == [winning]
    await outage.end()
    await store.close()

    again = await database.open(clock)  # the bot restarted
    try:
        restarted = SessionService(again)
        assert await restarted.play.computers_waiting([G]) == [session.id]
        ended = await restarted.play.computers_play(session.id)
        assert ended is not None and ended.finished and ended.outcome is not None
        row = (await restarted.core.get(session.id)).row
        assert row.status == "finished" and row.outcome is not None
        results = await again.ratings.results(session.id)
        assert sorted(r.place for r in results) == [1, 2]
        assert await restarted.play.computers_waiting([G]) == []
    finally:
        await again.close()


async def undo_asked(service):
    """A game of Ann and Bob where Ann played, and asks to take her move back."""
    from bot.history import History
    from bot.undo import UndoService

    await service.lobby.create("nim", guild_id=G, channel_id=7, host_id=1, host_name="ann", seed=7)
    await service.lobby.join(7, 2, "bob")
    session = (await service.lobby.start(7, 1)).session
    for _ in range(3):  # until Ann has a move of her own to take back
        (seat,) = session.to_move()
        who = session.by_seat(seat).user_id
        session = (await service.play.play(7, who, (await service.play.legal_moves(7, who))[0])).session
        if who == 1:
            break
    undo = UndoService(service, History(service, every=3))
    asked = await undo.ask(7, 1)
    return undo, asked.session, asked.request


async def test_an_undo_everyone_agreed_to_is_taken_back_when_the_last_agreement_is_pressed_again(
    store, outage
):
    """Bob agrees (the last to), the agreement is stored, then the database stops answering
    before the moves are taken back: pressing Agree again once it is back takes them back,
    instead of "you have already agreed; waiting for the others" with nobody left to wait for."""
    service = SessionService(store)
    undo, session, request = await undo_asked(service)
    agree = store.history.agree_undo
    cut_after(outage, store.history, "agree_undo")
    with pytest.raises(Exception):  # noqa: B017 - the database's own error, told by the guard
        await undo.answer(session.id, request.version, 2, True)
    store.history.agree_undo = agree
    await outage.end()
    assert (await store.history.undo_request(session.id)).waiting == frozenset()
    with pytest.raises(Refusal, match="everyone has agreed already"):
        await undo.answer(session.id, request.version, 2, False)
    answered = await undo.answer(session.id, request.version, 2, True)
    assert answered.agreed and answered.result is not None
    rows = await store.history.moves(session.id)
    assert undo_target(rows[-1].move) is not None and await store.history.undo_request(session.id) is None


async def test_an_undo_stored_just_before_the_database_stopped_is_told_as_done(store, outage):
    """The moves are taken back, then the database stops answering: the answer is the undo done
    (the game as committed), not a failure that would be told as "the game is unchanged"."""
    service = SessionService(store)
    undo, session, request = await undo_asked(service)
    drop = store.history.drop_undo

    async def cut_then_drop(*args, **kwargs):  # the moves were just taken back
        await outage.begin()
        return await drop(*args, **kwargs)

    store.history.drop_undo = cut_then_drop
    answered = await undo.answer(session.id, request.version, 2, True)
    assert answered.result is not None and answered.result.session.version == session.version + 1
    await outage.end()
    rows = await store.history.moves(session.id)
    assert undo_target(rows[-1].move) is not None
    fresh = await service.core.get(session.id)
    assert fresh.version == answered.result.session.version
    assert nim.to_dict(fresh.state) == nim.to_dict(answered.result.session.state)


async def test_a_start_stored_just_before_the_database_stopped_is_told_as_started(store, outage):
    """The start is committed, then the database stops answering before the computer's first turn:
    the answer is the game started (as stored: seats drawn, the person's clock waiting), not "may or
    may not be recorded"; once the database is back the computer plays and the person's clock runs
    with its deadline."""
    service = SessionService(store)
    await service.lobby.create(
        "nim", guild_id=G, channel_id=5, host_id=1, host_name="ann", seed=6, clock="bank:2h+1h"
    )
    await service.lobby.add_computer(5, 1)
    cut_after(outage, store.games, "start")
    result = await service.lobby.start(5, 1)
    session = result.session
    person = session.seat_of(1).seat
    assert session.status == "active" and sorted(s.seat for s in session.seats) == [0, 1]
    assert session.to_move() == {1 - person}  # the computer's turn: the person's clock waits
    assert session.banks.banks == {person: 7200.0} and session.row.timer_seconds is None
    assert result.unsettled and result.note is not None and result.note.msg == HELD_UP

    await outage.end()
    fresh = await service.core.get(session.id)
    assert fresh.status == "active" and fresh.version == session.version
    assert [(s.user_id, s.seat) for s in fresh.seats] == [(s.user_id, s.seat) for s in session.seats]
    assert fresh.banks == session.banks
    follow = await service.play.computers_play(session.id)
    assert follow is not None and [p.seat for p in follow.played] == [1 - person]
    assert follow.session.to_move() == {person}
    deadline = await store.jobs.job(DEADLINE, str(session.id))
    assert deadline is not None and deadline.payload == {"version": follow.session.version}


async def test_a_resignation_stored_just_before_the_database_stopped_is_told_as_done(store, outage):
    """Three people; the one to move resigns, then the database stops answering before the
    computer (now in the seat) can move: the answer is the resignation (its seat the computer's,
    its clock stopped), not "may or may not be recorded"; the seat's flags and clocks were one
    commit."""
    service = SessionService(store)
    await service.lobby.create(
        "nim", guild_id=G, channel_id=5, host_id=1, host_name="ann", seed=3, clock="bank:2h+1h"
    )
    await service.lobby.join(5, 2, "bo")
    await service.lobby.join(5, 3, "cy")
    session = (await service.lobby.start(5, 1)).session
    first = next(s for s in session.seats if s.seat in session.to_move())
    cut_after(outage, store.games, "set_seats")
    result = await service.seats.resign(5, first.user_id)
    assert result.unsettled and result.note is not None and result.note.msg == HELD_UP
    told = result.session.by_seat(first.seat)
    assert told.resigned and told.computer
    assert first.seat not in result.session.banks.since  # its clock stopped

    await outage.end()
    fresh = await service.core.get(session.id)
    assert fresh.version == result.session.version and fresh.by_seat(first.seat).resigned
    assert fresh.banks == result.session.banks
    follow = await service.play.computers_play(session.id)
    assert follow is not None and [p.seat for p in follow.played] == [first.seat]
