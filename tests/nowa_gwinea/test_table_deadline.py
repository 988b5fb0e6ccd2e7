"""Nowa Gwinea through the session service: a round's deadline ends it, by a table move in the log."""

from __future__ import annotations

import engines.nowa_gwinea as ng
from bot.sessions import SessionService
from engines.core import TABLE


async def test_deadline_ends_the_round_and_replays(database, clock):
    """When the turn timer runs out mid-round the table plays 'timeout': round 2 begins, the log replays."""
    store = await database.open(clock)
    try:
        service = SessionService(store)
        await service.lobby.create(
            "nowa_gwinea", guild_id=1, channel_id=5, host_id=1, host_name="ann", seed=8
        )
        await service.lobby.join(5, 2, "bob")
        session = (await service.lobby.start(5, 1)).session
        assert session.to_move() == {0, 1} and session.state.round == 1
        seat = session.seat_of(1).seat
        first = next(m for m in await service.play.legal_moves(5, 1) if m not in ("done", "gwinea"))
        session = (await service.play.play(5, 1, first)).session
        await service.clocks.set_timer(5, 1, 3600, can_manage=False)
        clock.advance(3600)
        (job,) = await store.jobs.claim_jobs("test", lease=60)
        sid = int(job.key)
        result = await service.clocks.fire_clock(sid, job)
        assert result is not None and result.played[0].seat == TABLE and result.played[0].move == "timeout"
        session = result.session
        assert session.state.round == 2 and session.to_move() == {0, 1}
        assert any("Time is up" in (e.text_for(None) or "") for e in result.played[0].events)
        log = await store.history.moves(sid)
        assert [(m.seat, m.move) for m in log] == [(seat, first), (TABLE, "timeout")]
        assert ng.to_dict(await service.logbook.replay(sid)) == ng.to_dict(session.state)
    finally:
        await store.close()


async def test_computer_keeps_the_pace_of_people(database):
    """In a simultaneous round a computer seat makes one move per move a person makes."""
    store = await database.open()
    try:
        service = SessionService(store)
        await service.lobby.create(
            "nowa_gwinea", guild_id=1, channel_id=6, host_id=1, host_name="ann", seed=3
        )
        await service.lobby.add_computer(6, 1)
        result = await service.lobby.start(6, 1)
        assert len(result.played) <= 1  # at the start the computer has not raced ahead
        session = result.session
        for _ in range(3):
            if session.state.round != 1:
                break
            move = next(m for m in await service.play.legal_moves(6, 1) if m not in ("done", "gwinea"))
            result = await service.play.play(6, 1, move)
            computer_moves = [p for p in result.played if p.by_computer]
            assert len(computer_moves) <= 1
            session = result.session
        log = await store.history.moves(session.id)
        assert sum(m.by_computer for m in log) <= sum(not m.by_computer for m in log) + 1
    finally:
        await store.close()
