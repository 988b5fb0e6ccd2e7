"""The bot registers every job kind of bot.time.jobs at start-up, whichever cogs it loads."""

from __future__ import annotations

from bot.time import jobs
from tests.e2e.conftest import BASE_EXTENSIONS


async def test_the_bot_registers_every_kind_at_start_up_even_without_the_league_cog(standin, bot_factory):
    async with standin.run_client(bot_factory(BASE_EXTENSIONS)) as bot:
        assert sorted(bot.scheduler.kinds) == sorted(k.name for k in jobs.KINDS)
