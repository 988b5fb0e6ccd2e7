"""The Pukllay bot as a separate process in the tests: ``python -m tests.standin.launch PORT CA
tests.e2e.processes:make`` (see ``StandIn.child_command``).  Settings come from the environment
(DATABASE_URL, SHARD_COUNT, SHARD_IDS, JOB_POLL_SECONDS...); the Nim test game is registered."""

from __future__ import annotations

import engines
from bot.app import create_bot
from bot.settings import Settings

engines.register(engines.GameInfo("nim", "Nim", "tests.support.nim", "tests.support.nim_render", 1, 4))


def make(connector):
    settings = Settings.from_env(dotenv=None)
    return create_bot(
        settings,
        extensions=("cogs.table", "tests.support.nim_cog"),
        connector=connector,
        guild_ready_timeout=0.01,
    )
