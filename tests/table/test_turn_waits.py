"""When a person's turn began, as reminders, digests and ``/game mine`` count their wait, read
from the move log and the game's start on both back ends: others acting in the same turn (a
round everyone builds at once) do not restart it; the person's own move does, and so does the
move that brings a new turn."""

from __future__ import annotations

from datetime import datetime

from bot.notices import turn_began
from bot.replaying import undo_text
from bot.storage import NewMove
from tests.table.util import open_lobbies


async def three_builders(store, clock) -> tuple[int, int, float]:
    """A game started straight in storage, its log standing for three seats building at once in
    turn 1: its id, version and start."""
    (sid,) = await open_lobbies(store, 1)
    version = (await store.games.start(sid, {0: 0}, {}, {"n": 0})).version
    return sid, version, clock.time()


async def began(store, sid: int, seat: int, turn: int) -> float | None:
    started = await store.history.started_at(sid)
    assert started is not None
    return turn_began(await store.history.moves(sid), seat, turn, datetime.fromisoformat(started).timestamp())


async def test_others_moving_in_the_same_turn_keep_the_wait_and_her_own_move_restarts_it(store, clock):
    sid, v, start = await three_builders(store, clock)
    assert await began(store, sid, 0, 1) == start  # no move yet: waiting since the start
    clock.advance(20 * 3600)
    v = await store.games.record_moves(sid, v, [NewMove(1, "done", turn=1)], {"n": 1})
    clock.advance(300)
    assert await began(store, sid, 0, 1) == start  # seat 1 built meanwhile: still since the start
    mark = clock.time()
    v = await store.games.record_moves(sid, v, [NewMove(0, "A0B1", turn=1)], {"n": 2})
    clock.advance(600)
    assert await began(store, sid, 0, 1) == mark  # her own step: her wait starts again
    clock.advance(3600)
    v = await store.games.record_moves(sid, v, [NewMove(0, "done", turn=1)], {"n": 3})
    clock.advance(3600)
    round_two = clock.time()
    await store.games.record_moves(sid, v, [NewMove(2, "done", turn=1)], {"n": 4})  # the round ends
    clock.advance(7200)
    assert await began(store, sid, 0, 2) == round_two  # the new round began her new turn
    assert await began(store, sid, 1, 2) == round_two
    # a row kept without its turn number (written before they were) restarts every wait, as before
    assert turn_began(await store.history.moves(sid), 1, None, start) == round_two


async def test_a_move_taken_back_inside_the_turn_restarts_only_the_askers_wait(store, clock):
    """Seat 1 builds, then takes it back with everyone's agreement, in the same turn: the undo is
    seat 1's own move (its wait starts again), and neither it nor the move it took back restarts
    seat 0's; an undo that takes the game back to an earlier turn begins that turn for everyone."""
    sid, v, start = await three_builders(store, clock)
    clock.advance(3600)
    v = await store.games.record_moves(sid, v, [NewMove(1, "A0B1", turn=1)], {"n": 1})
    clock.advance(600)
    asked = clock.time()
    v = await store.games.record_moves(sid, v, [NewMove(1, undo_text(1), turn=1)], {"n": 2})
    clock.advance(600)
    assert await began(store, sid, 0, 1) == start
    assert await began(store, sid, 1, 1) == asked
    assert await began(store, sid, 2, 1) == start
    # agreed in turn 2, it took the game back to turn 1: a turn brought back, for everyone
    await store.games.record_moves(sid, v, [NewMove(2, undo_text(1), turn=2)], {"n": 3})
    back = clock.time()
    assert await began(store, sid, 0, 1) == back
