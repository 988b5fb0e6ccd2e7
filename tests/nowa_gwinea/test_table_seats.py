"""Nowa Gwinea at the session service: seats keep the lobby's order, so that ``hard_seats`` names
the players the lobby lists under those numbers."""

from __future__ import annotations

import pytest

from bot.sessions import SessionService


@pytest.mark.parametrize("seed", range(6))
async def test_hard_seats_name_the_lobbys_numbers(database, clock, seed):
    """The lobby lists 1. ann (host), 2. bob, 3. cy; with ``hard_seats`` 1,3 ann and cy play the
    hard side and bob the standard one, whatever the seed (the table shuffles other games' seats)."""
    store = await database.open(clock)
    try:
        service = SessionService(store)
        await service.lobby.create(
            "nowa_gwinea",
            guild_id=1,
            channel_id=5,
            host_id=1,
            host_name="ann",
            seed=seed,
            options={"hard_seats": "1,3"},
        )
        await service.lobby.join(5, 2, "bob")
        await service.lobby.join(5, 3, "cy")
        session = (await service.lobby.start(5, 1)).session
        sides = {user: session.state.sides[session.seat_of(user).seat] for user in (1, 2, 3)}
        assert sides == {1: "B", 2: "A", 3: "B"}
    finally:
        await store.close()
