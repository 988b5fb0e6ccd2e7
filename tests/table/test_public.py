"""What each reader may see, table side: the log, status and channel texts on real SQLite files."""

from __future__ import annotations

import pytest

from bot import movetexts, public, texts
from bot.sessions import SessionService

G = 1


async def nowa_gwinea_pair(service, channel=7, seed=8):
    await service.lobby.create(
        "nowa_gwinea", guild_id=G, channel_id=channel, host_id=1, host_name="ann", seed=seed
    )
    await service.lobby.join(channel, 2, "bob")
    return (await service.lobby.start(channel, 1)).session


def first_hut(moves):
    return next(m for m in moves if m not in ("done", "gwinea"))


async def texts_for(service, session):
    """The log as each seat and a spectator read it."""
    records = await service.logbook.log(session)
    return {reader: movetexts.log_text(session, records, reader) for reader in (0, 1, None)}


async def test_log_hides_a_hut_until_the_round_ends(service):
    """Mid-round the others read "ann built a hut"; the builder reads the notation; after the round, all do."""
    session = await nowa_gwinea_pair(service)
    ann = session.seat_of(1).seat
    hut = first_hut(await service.play.legal_moves(7, 1))
    result = await service.play.play(7, 1, hut)
    assert not public.has_public_news(result.session, result)  # a hut is confirmed privately, no board post
    assert hut not in texts.channel_text(result.session, result)
    logs = await texts_for(service, result.session)
    assert f"`{hut}`" in logs[ann]
    for reader in (1 - ann, None):
        assert hut not in logs[reader] and "ann built a hut" in logs[reader]
    status = texts.status_text(result.session, 1, (await service.logbook.log(result.session))[-1], None)
    assert hut not in status and "ann built a hut" in status
    await service.play.play(7, 1, "done")
    result = await service.play.play(7, 2, "done")
    assert result.session.state.round == 2
    logs = await texts_for(service, result.session)
    assert all(f"ann: `{hut}`" in text for text in logs.values())


async def test_log_of_rows_written_before_marks_replays_the_game(service):
    """Rows without events and marks (older databases) get them back by replaying the game."""
    session = await nowa_gwinea_pair(service)
    ann = session.seat_of(1).seat
    hut = first_hut(await service.play.legal_moves(7, 1))
    state = session.engine.apply_move(session.state, ann, session.engine.parse_move(hut))[0]
    await service.store.games.record_moves(
        session.id, session.version, [(ann, hut, False)], session.engine.to_dict(state)
    )
    session = await service.core.in_channel(7)
    (row,) = await service.store.history.moves(session.id)
    assert row.events is None and row.privacy is None
    logs = await texts_for(service, session)
    assert f"`{hut}`" in logs[ann] and hut not in logs[1 - ann] and "ann built a hut" in logs[None]


async def test_log_falls_back_safely_when_replay_fails(service):
    """If an old log cannot be replayed, others never see a row's notation; its mover does."""
    session = await nowa_gwinea_pair(service)
    ann = session.seat_of(1).seat
    state = session.state
    # A notation the rules refuse: the replay fails, so the row keeps no mark.
    await service.store.games.record_moves(
        session.id, session.version, [(ann, "Z9Z9", False)], session.engine.to_dict(state)
    )
    session = await service.core.in_channel(7)
    logs = await texts_for(service, session)
    assert "Z9Z9" in logs[ann]
    assert "Z9Z9" not in logs[1 - ann] and "Z9Z9" not in logs[None]
    assert "only they can see" in logs[None]


async def test_stored_marks_are_used_without_replay(service, monkeypatch):
    """A move's events and mark are stored with its row; the log reads them, it does not replay."""
    session = await nowa_gwinea_pair(service)
    hut = first_hut(await service.play.legal_moves(7, 1))
    await service.play.play(7, 1, hut)
    session = await service.core.in_channel(7)
    (row,) = await service.store.history.moves(session.id)
    assert row.privacy["owner"] == session.seat_of(1).seat and row.privacy["until"] == "round:1"
    assert row.events and row.events[0]["public_text"] == f"{{p{session.seat_of(1).seat}}} built a hut"

    def no_replay(*args, **kwargs):
        raise AssertionError("the log replayed the game")

    monkeypatch.setattr(type(service.logbook), "replayed", no_replay)
    assert "ann built a hut" in (await texts_for(service, session))[None]


async def test_log_is_append_only_with_marks(database):
    """The new columns do not open the log to updates."""
    store = await database.open()
    service = SessionService(store)
    await nowa_gwinea_pair(service)
    await service.play.play(7, 1, first_hut(await service.play.legal_moves(7, 1)))
    await store.close()
    with pytest.raises(database.integrity_error, match="append-only"):
        await database.execute("UPDATE moves SET privacy = NULL")


async def test_guanga_order_in_log_and_status(service):
    """Guanga (apprentice): a kept order reads 'kept a secret order' to everyone but its keeper."""
    await service.lobby.create(
        "guanga", guild_id=G, channel_id=9, host_id=1, host_name="ann", options={"mode": "apprentice"}, seed=2
    )
    await service.lobby.join(9, 2, "bob")
    session = (await service.lobby.start(9, 1)).session
    ann = session.seat_of(1).seat
    order = session.state.orders_dealt[ann][0]
    result = await service.play.play(9, 1, f"keep {order}")
    assert order not in texts.channel_text(result.session, result)
    logs = await texts_for(service, result.session)
    assert f"keep {order}" in logs[ann]
    assert order not in logs[1 - ann] and order not in logs[None] and "kept a secret order" in logs[None]
    last = (await service.logbook.log(result.session))[-1]
    assert order not in texts.status_text(result.session, 1, last, None)
    assert order in texts.status_text(result.session, 1, last, ann)
