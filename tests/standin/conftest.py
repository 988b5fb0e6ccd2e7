"""Fixtures for the stand-in's own tests: the stand-in, the tiny test bot, a user and a channel."""

import pytest

from tests.standin.fixtures import discord_error_loggers, discord_errors, standin, standin_options  # noqa: F401
from tests.standin.tinybot import TinyBot


@pytest.fixture
async def bot(standin):
    """TinyBot, connected and with its commands synced."""
    async with standin.run_client(TinyBot) as client:
        await standin.wait_synced()
        yield client


@pytest.fixture
def alice(standin):
    return standin.add_user("alice")


@pytest.fixture
def chan(standin):
    """The first text channel (a test module may override it)."""
    return standin.guild.text_channels[0]
