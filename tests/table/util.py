"""Small helpers shared by the table's tests."""

from __future__ import annotations

from bot.sessions import SessionService, TimeOut
from bot.storage import DEADLINE, Store
from bot.time.gameclock import DAY
from bot.time.source import ManualClock


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


async def timed_out(service: SessionService, clock: ManualClock, channel: int) -> tuple[TimeOut, int]:
    """A three-person Nim game on a bank clock whose first seat to move ran out of time (the game's
    table moves turned off, so the others are asked): the time-out, and a person asked."""
    await service.lobby.create(
        "nim", guild_id=1, channel_id=channel, host_id=1, host_name="p1", seed=3, clock="bank:1d+1h"
    )
    for uid in (2, 3):
        await service.lobby.join(channel, uid, f"p{uid}")
    session = (await service.lobby.start(channel, 1)).session
    late = session.waiting_on()[0]
    clock.advance(DAY)
    (job,) = await service.store.jobs.claim_jobs("test", lease=60)
    assert job.kind == DEADLINE
    out = await service.clocks.fire_clock(session.id, job)
    assert isinstance(out, TimeOut) and out.seats == [late]
    return out, next(s.user_id for s in session.seats if s.user_id != late.user_id)
