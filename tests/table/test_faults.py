"""Faults and odd values at the session service: each refused cleanly, each damaged game on its own."""

from __future__ import annotations

import gc
import logging
import math

import pytest

from bot import texts
from bot.sessions import Damaged, Refusal, SessionService
from tests.support import nim

G = 1


async def started(service, channel, seed=3):
    await service.lobby.create("nim", guild_id=G, channel_id=channel, host_id=1, host_name="ann", seed=seed)
    await service.lobby.join(channel, 2, "bob")
    return (await service.lobby.start(channel, 1)).session


@pytest.mark.parametrize("hours", [math.nan, math.inf, -math.inf, -1.0, 721.0])
async def test_odd_timer_values_are_refused_and_change_nothing(service, hours):
    """NaN, infinite, negative or too long timers are refused with what is allowed; nothing is stored."""
    session = await started(service, 5)
    with pytest.raises(Refusal, match=r"from 0 \(off\) to 720, not"):
        await service.clocks.set_timer(5, 1, hours * 3600, can_manage=True)
    after = await service.core.in_channel(5)
    assert after.row.timer_seconds is None and await service.store.jobs.pending() == []
    assert after.version == session.version


async def test_zero_players_and_missing_server_are_refused(service):
    """players=0 is not 'the most the game seats'; a game needs a server."""
    with pytest.raises(Refusal, match="seats 1 to 4 players, not 0"):
        await service.lobby.create("nim", guild_id=G, channel_id=5, host_id=1, host_name="a", max_players=0)
    with pytest.raises(Refusal, match="server"):
        await service.lobby.create("nim", guild_id=None, channel_id=5, host_id=1, host_name="a")
    with pytest.raises(Refusal, match="server"):
        await service.core.live(None)
    assert await service.core.in_channel(5) is None


async def test_server_scoped_queries_refuse_a_missing_server(store):
    """Storage never lists every server's games (or ratings) for a missing server id."""
    await store.games.create_session(
        game="nim", guild_id=G, channel_id=5, host_id=1, host_name="a", options={}, max_players=2, seed=1
    )
    with pytest.raises(ValueError, match="server id"):
        await store.games.live_sessions(None)
    with pytest.raises(ValueError, match="server id"):
        await store.ratings.leaderboard(None, "nim")
    with pytest.raises(ValueError, match="server id"):
        await store.ratings.ratings_of(None, 1)
    with pytest.raises(ValueError, match="server id"):
        await store.games.create_session(
            game="nim",
            guild_id=None,
            channel_id=6,
            host_id=1,
            host_name="a",
            options={},
            max_players=2,
            seed=1,
        )
    assert len(await store.games.live_sessions(G)) == 1


async def test_ids_beyond_sqlite_integers_name_nothing(service):
    """A session id of 2**63 or more (from a forged custom_id) is simply no session."""
    await started(service, 5)
    for sid in (2**63, 2**64, 10**30, -(2**63) - 1):
        assert await service.core.get(sid) is None
        with pytest.raises(Refusal, match="no such game"):
            await service.play.play_in(sid, 1, "A1")


async def test_unreadable_state_is_isolated_logged_once_and_listed(database, caplog):
    """One game with unreadable saved state: marked damaged (stored), logged once, listed as
    damaged; the other games are served; /game abandon frees the channel."""
    store = await database.open()
    service = SessionService(store)
    try:
        bad = await started(service, 5)
        await started(service, 6, seed=4)
        await database.execute("UPDATE sessions SET state = '{not json' WHERE id = ?", bad.id)
        service.core.states.clear()  # as after a restart
        with caplog.at_level(logging.ERROR, logger="bot.sessions"):
            for _ in range(3):
                listed = await service.core.live(G)
                assert [s.damaged is not None for s in listed] == [True, False]
        damaged_logs = [r for r in caplog.records if "is damaged" in r.getMessage()]
        assert len(damaged_logs) == 1
        assert (await store.games.session(bad.id)).damaged  # stored, so a restart does not log it again
        with pytest.raises(Damaged, match="abandon"):
            await service.core.require(5)
        with pytest.raises(Refusal):
            await service.play.play(5, 1, "A1")
        assert await service.play.legal_moves(5, 1) == []
        # The healthy game goes on.
        other = await service.core.in_channel(6)
        (seat,) = other.to_move()
        mover = other.by_seat(seat).user_id
        move = str(nim.legal_moves(other.state, seat)[0])
        assert (await service.play.play(6, mover, move)).session.version == other.version + 1
        # The damaged one can be abandoned, which frees its channel.
        await service.seats.abandon(5, 1, can_manage=False)
        assert await service.core.in_channel(5) is None
    finally:
        await store.close()


async def test_engine_crash_in_a_timer_move_damages_only_that_game(service, clock, monkeypatch, caplog):
    """A computer move that crashes when a deadline fires marks that game damaged; others still fire."""
    one = await started(service, 5)
    two = await started(service, 6, seed=4)
    monkeypatch.setattr(nim, "TABLE_MOVES", False)  # the computer moves for the late player
    real = nim.computer_move

    def crashing(view, legal, rng, level="normal", seconds=None):
        if view.piles == tuple(one.state.piles):
            raise RuntimeError("the engine broke")
        return real(view, legal, rng, level, seconds)

    monkeypatch.setattr(nim, "computer_move", crashing)
    one, two = [await service.clocks.set_timer(channel, 1, 3600, can_manage=False) for channel in (5, 6)]
    clock.advance(3600)  # the hour has passed
    due = {int(j.key): j.payload["version"] for j in await service.store.jobs.pending("deadline")}
    assert set(due) == {one.id, two.id}
    with caplog.at_level(logging.ERROR, logger="bot.sessions"):
        assert await service.clocks.fire_clock(one.id, None) is None
        assert await service.clocks.fire_clock(one.id, None) is None
    assert len([r for r in caplog.records if "is damaged" in r.getMessage()]) == 1
    assert (await service.store.games.session(one.id)).damaged.startswith("the engine failed")
    assert [int(j.key) for j in await service.store.jobs.pending("deadline")] == [two.id]  # damage drops it
    result = await service.clocks.fire_clock(two.id, None)
    assert result is not None and result.played and result.session.version == two.version + 1


async def test_memory_does_not_grow_with_finished_games(service):
    """Finished, abandoned and closed games leave nothing in the service's cache or locks."""
    for channel in range(100, 130):
        session = await started(service, channel, seed=channel)
        if channel % 3 == 0:
            await service.seats.abandon(channel, 1, can_manage=False)
            continue
        while session.status == "active":
            (seat,) = session.to_move()
            uid = session.by_seat(seat).user_id
            move = str(nim.legal_moves(session.state, seat)[-1])
            session = (await service.play.play(channel, uid, move)).session
    await service.lobby.create("nim", guild_id=G, channel_id=999, host_id=1, host_name="a")
    await service.lobby.leave(999, 1)
    gc.collect()
    assert len(service.core.states) == 0 and len(service.core.lock) == 0
    live = await started(service, 500)
    assert set(service.core.states) == {live.id}


async def test_a_damaged_lobby_is_described_not_crashed_on(database):
    """A lobby whose saved options are unreadable: listed and described as damaged."""
    store = await database.open()
    service = SessionService(store)
    try:
        lobby = await service.lobby.create("nim", guild_id=G, channel_id=8, host_id=1, host_name="ann")
        await database.execute("UPDATE sessions SET options = '[' WHERE id = ?", lobby.id)
        (listed,) = await service.core.live(G)
        assert listed.damaged and "options" in listed.damaged
        assert "damaged" in texts.status_text(listed, 0) and "1. ann" in texts.status_text(listed, 0)
        assert "damaged" in texts.list_text([listed])
    finally:
        await store.close()


async def test_saved_json_of_the_wrong_kind_is_damage_not_a_crash(database):
    """Saved options, state or clocks that are readable JSON but not an object (a list, a number)
    make the game damaged, named by its part, like JSON that cannot be read: the list of games
    and the status still answer."""
    store = await database.open()
    service = SessionService(store)
    try:
        lobby = await service.lobby.create("nim", guild_id=G, channel_id=8, host_id=1, host_name="ann")
        await database.execute("UPDATE sessions SET options = '[1, 2]' WHERE id = ?", lobby.id)
        game = await started(service, 9)
        await database.execute("UPDATE sessions SET state = '7', clock_state = '\"x\"' WHERE id = ?", game.id)
        service.core.states.clear()  # as after a restart
        listed = await service.core.live(G)
        assert [s.id for s in listed] == [lobby.id, game.id]
        wrong = "its saved options is not readable JSON (an object was expected, not list)"
        assert listed[0].damaged == wrong
        assert "state" in listed[1].damaged and "int" in listed[1].damaged
        assert "clock" in listed[1].damaged and "str" in listed[1].damaged
        assert "damaged" in texts.status_text(listed[0], 0) and "damaged" in texts.list_text(listed)
    finally:
        await store.close()
