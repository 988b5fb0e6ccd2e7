"""A lobby's start raced by a seat taken or given up in another process (two session services on
one database, each with its own locks: a queue's table is started by whichever process holds its
job, while its players' Join and Leave land in the process serving their server).  The start
numbers the seats it read; stored after such a change, it would leave a joined person without a
seat in the game, or a seat in the game without its player.  It is refused in words instead, with
nothing started, and the lobby keeps the change."""

from __future__ import annotations

import pytest

from bot.sessions import SessionService, StaleMove

CH = 82


async def lobby_of_three(service: SessionService) -> None:
    await service.lobby.create("nim", guild_id=1, channel_id=CH, host_id=1, host_name="p1", seed=3)
    for uid in (2, 3):
        await service.lobby.join(CH, uid, f"p{uid}")


def meanwhile(store, change) -> list:
    """Run ``change`` (the other process's) just before the start's commit; what it gave is kept."""
    done: list = []
    real = store.games.start

    async def start(*args, **kwargs):
        store.games.start = real  # once
        done.append(await change())
        return await real(*args, **kwargs)

    store.games.start = start
    return done


@pytest.mark.parametrize("change", ["leave", "join"])
async def test_a_start_racing_a_seat_change_elsewhere_is_refused_in_words(store, change):
    here, there = SessionService(store), SessionService(store)
    await lobby_of_three(here)
    if change == "leave":
        done = meanwhile(store, lambda: there.lobby.leave(CH, 3))
    else:
        done = meanwhile(store, lambda: there.lobby.join(CH, 4, "p4"))
    with pytest.raises(StaleMove, match="lobby changed"):
        await here.lobby.start(CH, 1)
    assert done  # the other process's change was stored
    now = await here.core.require(CH)
    assert now.status == "lobby"
    expected = [1, 2] if change == "leave" else [1, 2, 3, 4]
    assert [s.user_id for s in now.seats] == expected and all(s.seat is None for s in now.seats)
    started = (await here.lobby.start(CH, 1)).session  # started again, everyone seated has a seat
    assert sorted(s.seat for s in started.seats) == list(range(len(expected)))
