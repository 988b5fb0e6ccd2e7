"""/gate table asks Manage Channels where it is used (the lobby thread's channel), as /game abandon,
timer and clock do: a permission overwrite on the channel grants or denies it there."""

from __future__ import annotations

from tests.e2e.conftest import BASE_EXTENSIONS
from tests.e2e.test_profiles import open_lobby
from tests.standin.model import MANAGE_CHANNELS

EXTENSIONS = (*BASE_EXTENSIONS, "cogs.me", "cogs.gates")


async def test_manage_channels_for_the_gate_is_the_channels_own(standin, bot_factory):
    crew = standin.add_role("crew", MANAGE_CHANNELS)  # Manage Channels everywhere...
    host, keeper, denied = standin.add_users("host", "keeper", "denied")
    (crewed,) = standin.add_users("crewed", roles=[crew])
    games = standin.channel("games")
    standin.set_permissions(games, keeper, allow=MANAGE_CHANNELS)  # ...only in #games
    standin.set_permissions(games, crewed, deny=MANAGE_CHANNELS)  # ...but not in #games
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, lobby = await open_lobby(standin, host)
        for who in (crewed, denied):
            refused = await (await standin.slash(who, thread, "gate table", reliability=70)).original()
            assert refused.ephemeral and "Only the host" in refused.content
        session = await bot.sessions.core.in_channel(thread.id)
        assert await bot.sessions.store.profiles.table_gate(session.id) is None
        allowed = await (await standin.slash(keeper, thread, "gate table", reliability=70)).original()
        assert "This table asks for reliability 70 % or more of who joins" in allowed.content
        assert "reliability 70 %" in standin.message(lobby.id).content
