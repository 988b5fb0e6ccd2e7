"""What a command hears in a channel with no live game, on each back end: the threads where the
games opened there are played, or the game that ended there, or how to open one."""

from __future__ import annotations

import pytest

from bot.sessions import NoGameHere, SessionService

GUILD, PARENT, THREAD, OTHER = 5, 100, 200, 300


async def refusal(service: SessionService, channel_id: int) -> str:
    with pytest.raises(NoGameHere) as refused:
        await service.core.require(channel_id)
    return str(refused.value)


async def test_no_game_here_names_the_games_thread_then_the_game_over(service: SessionService):
    assert (await refusal(service, PARENT)).startswith("there is no game in this channel; start one")
    session = await service.lobby.create(
        "guacamole", guild_id=GUILD, channel_id=THREAD, host_id=1, host_name="Ana", lobby_channel_id=PARENT
    )
    assert await refusal(service, PARENT) == (
        "no game is played in this channel itself: the game opened here is played in its thread, "
        f"<#{THREAD}>; use the commands there"
    )
    await service.lobby.create(
        "tiwanaku",
        guild_id=GUILD,
        channel_id=THREAD + 1,
        host_id=2,
        host_name="Beto",
        lobby_channel_id=PARENT,
    )
    assert f"played in their threads, <#{THREAD + 1}>, <#{THREAD}>;" in await refusal(service, PARENT)
    assert (await refusal(service, OTHER)).startswith("there is no game in this channel")
    await service.seats.abandon(THREAD, 1, can_manage=True)
    assert (await refusal(service, THREAD)).startswith(
        f"the Guacamole game #{session.id} here is over (/game status shows how it ended); to play again"
    )
    assert "in its thread, <#" in await refusal(service, PARENT)  # the other game's thread only
    assert f"<#{THREAD}>" not in await refusal(service, PARENT)
