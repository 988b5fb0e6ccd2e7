"""Turn timers: deadlines stored in SQLite, the table's own moves, the computer standing in."""

from __future__ import annotations

import asyncio

import pytest

import engines
from bot.sessions import SessionService, TableError
from bot.storage import Store
from engines.core import TABLE
from tests.support import nim

CH = 77


async def started(service, seed=3):
    await service.create("nim", guild_id=1, channel_id=CH, host_id=1, host_name="ann", seed=seed)
    await service.join(CH, 2, "bob")
    return (await service.start(CH, 1)).session


async def wait_due(store, count=1):
    for _ in range(200):
        due = await store.due_deadlines()
        if len(due) >= count:
            return due
        await asyncio.sleep(0.005)
    raise AssertionError("no deadline came due")


async def test_timer_only_for_host_or_manager(service):
    """Only the host or someone with Manage Channels sets the timer."""
    await started(service)
    with pytest.raises(TableError, match="only the host"):
        await service.set_timer(CH, 2, 3600, can_manage=False)
    session = await service.set_timer(CH, 2, 3600, can_manage=True)
    assert session.row.timer_seconds == 3600 and session.row.deadline_at is not None
    session = await service.set_timer(CH, 1, 0, can_manage=False)
    assert session.row.deadline_at is None


async def test_table_move_when_the_deadline_passes(service):
    """A game with table moves gets the table's move (Nim skips the late player)."""
    session = await started(service)
    late = session.by_seat(session.state.turn)
    await service.set_timer(CH, 1, 0.01, can_manage=False)
    [(sid, version)] = await wait_due(service.store)
    result = await service.fire_deadline(sid, version)
    assert result is not None and "Time is up" in result.note
    assert result.played[0].seat == TABLE and result.played[0].move == "skip"
    assert result.session.state.turn != late.seat
    log = await service.store.moves(sid)
    assert [(m.seat, m.move) for m in log] == [(TABLE, "skip")]
    assert nim.to_dict(await service.replay(sid)) == nim.to_dict(result.session.state)
    assert result.session.row.deadline_version == result.session.version  # re-armed for the next turn


async def test_computer_moves_for_the_late_player(service, monkeypatch):
    """Without table moves the computer moves once for whoever is late."""
    monkeypatch.setattr(nim, "TABLE_MOVES", False)
    session = await started(service)
    late = session.by_seat(session.state.turn)
    await service.set_timer(CH, 1, 0.01, can_manage=False)
    [(sid, version)] = await wait_due(service.store)
    result = await service.fire_deadline(sid, version)
    assert late.name in result.note and result.played[0].seat == late.seat and result.played[0].by_computer
    assert not result.session.seat_of(late.user_id).computer  # the seat stays the player's


async def test_a_move_in_time_cancels_the_deadline(service):
    """A deadline found stale (someone moved meanwhile) does nothing."""
    session = await started(service)
    await service.set_timer(CH, 1, 0.01, can_manage=False)
    [(sid, version)] = await wait_due(service.store)
    mover = session.by_seat(session.state.turn).user_id
    await service.play(CH, mover, (await service.legal_moves(CH, mover))[0])
    assert await service.fire_deadline(sid, version) is None
    assert len(await service.store.moves(sid)) == 1


async def test_deadlines_survive_a_restart(db_path):
    """A pending deadline is in the database: a new process finds it and acts."""
    store = await Store.open(db_path)
    service = SessionService(store)
    await started(service)
    await service.set_timer(CH, 1, 0.01, can_manage=False)
    await store.close()
    store = await Store.open(db_path)
    try:
        service = SessionService(store)
        [(sid, version)] = await wait_due(store)
        assert await service.fire_deadline(sid, version) is not None
    finally:
        await store.close()


async def test_finished_games_have_no_deadline(service):
    """Ending a game clears its deadline."""
    await started(service)
    await service.set_timer(CH, 1, 3600, can_manage=False)
    session = await service.abandon(CH, 1, can_manage=False)
    assert session.row.deadline_at is None
    assert await service.store.due_deadlines() == []


def test_nim_refuses_table_moves_from_players():
    """A player cannot make the table's move."""
    state = nim.new_game(nim.Config(), 2, 1)
    with pytest.raises(engines.core.IllegalMove, match="only the table"):
        nim.apply_move(state, 0, nim.parse_move("skip"))
