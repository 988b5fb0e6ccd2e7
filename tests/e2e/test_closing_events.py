"""Discord events that reach the bot as it closes never reach a closed database: a handler under
way when the connection closes ends before the store closes, and one dispatched after that finds
nothing to do (what it would have done is done at the next start)."""

from __future__ import annotations

import asyncio

from tests.e2e.conftest import BASE_EXTENSIONS


async def test_a_role_change_handled_as_the_bot_closes_ends_before_the_store_closes(standin, bot_factory):
    order: list[str] = []
    began, release = asyncio.Event(), asyncio.Event()
    async with standin.run_client(bot_factory(BASE_EXTENSIONS)) as bot:
        await standin.wait_synced()
        role = bot.guilds[0].default_role
        unposted = bot.front.boards.unposted
        tried = unposted.permissions_changed

        async def held_back(guild_id: int) -> None:
            order.append("handler began")
            began.set()
            await release.wait()  # (until the connection is closed: the handler outlives it)
            await tried(guild_id)  # reads the jobs: a closed store raises here
            order.append("handler ended")

        unposted.permissions_changed = held_back
        store = bot.store
        closing_store = store.close

        async def close_store() -> None:
            order.append("store closed")
            await closing_store()

        store.close = close_store
        handler = asyncio.create_task(bot.on_guild_role_update(role, role))
        await began.wait()

        async def release_when_disconnected() -> None:
            # discord.py marks the client closed as its close begins (no event says so)
            while not bot.is_closed():  # noqa: ASYNC110
                await asyncio.sleep(0)
            release.set()

        releasing = asyncio.create_task(release_when_disconnected())
    # run_client closed the bot: the connection first, then the handler ended, then the store
    await releasing
    await handler  # raised nothing
    assert order == ["handler began", "handler ended", "store closed"], order


async def test_an_event_dispatched_after_the_bot_closed_does_nothing_and_raises_nothing(standin, bot_factory):
    async with standin.run_client(bot_factory(BASE_EXTENSIONS)) as bot:
        await standin.wait_synced()
        role = bot.guilds[0].default_role
        channel = standin.channel("games")
        games = bot.get_channel(channel.id)
    assert bot.store is None  # closed
    await bot.on_guild_role_update(role, role)
    await bot.on_guild_channel_update(games, games)
    await bot.on_guild_channel_delete(games)
