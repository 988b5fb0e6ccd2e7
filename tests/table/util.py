"""Small helpers shared by the table's tests."""

from __future__ import annotations

from bot.storage import Store


async def open_lobbies(store: Store, count: int, first_channel: int = 1000) -> list[int]:
    """Open ``count`` Nim lobbies straight in storage, one per channel; their ids."""
    return [
        await store.games.create_session(
            game="nim",
            guild_id=1,
            channel_id=first_channel + i,
            host_id=1,
            host_name="a",
            options={},
            max_players=2,
            seed=i,
        )
        for i in range(count)
    ]
