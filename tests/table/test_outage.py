"""The PostgreSQL server refusing the bot in the middle of play: a change that was stored is told
as stored (never "unchanged"), and what could not follow it (the computers' turns, the end of the
game) is played once the database answers again, or at the next start."""

from __future__ import annotations

import pytest

from bot.sessions import SessionService
from bot.sessions.model import HELD_UP
from tests.support.outage import Outage

G = 1


pytestmark = pytest.mark.parametrize("database", ["postgres"], indirect=True)


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
