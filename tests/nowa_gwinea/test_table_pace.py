"""Nowa Gwinea at the session service: computers building alone take turns."""

from __future__ import annotations

from bot.sessions import SessionService


async def test_computers_left_building_alone_take_turns(database, clock):
    """When the only person says 'done', the two computers still building move in turns, one hut
    each, until one calls or both stop: the first seat does not build its whole village first
    (it used to, and so won every race)."""
    store = await database.open(clock)
    try:
        service = SessionService(store)
        await service.lobby.create(
            "nowa_gwinea", guild_id=1, channel_id=7, host_id=1, host_name="ann", seed=4
        )
        await service.lobby.add_computer(7, 1)
        await service.lobby.add_computer(7, 1)
        session = (await service.lobby.start(7, 1)).session
        assert session.seat_of(1).seat == 0
        result = await service.play.play(7, 1, "done")
        played = [(p.seat, p.move) for p in result.played if p.by_computer]
        ends = next(i for i, (_, move) in enumerate(played) if move in ("gwinea", "done"))
        building = [seat for seat, _ in played[:ends]]  # the huts built before the first call or stop
        assert len(building) >= 4 and set(building) == {1, 2}, played
        assert all(a != b for a, b in zip(building, building[1:], strict=False)), played
    finally:
        await store.close()
