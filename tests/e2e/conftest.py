"""End-to-end fixtures: the Discord stand-in and a way to run the real bot against it."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from PIL import Image

from bot.app import PukllayBot
from bot.settings import Settings
from tests.standin.fixtures import discord_errors, standin, standin_options  # noqa: F401

BASE_EXTENSIONS = ("cogs.table", "tests.support.nim_cog")


@pytest.fixture
def discord_error_loggers() -> tuple[str, ...]:
    """The bot's own unexpected errors fail a test too."""
    return ("discord", "bot", "cogs")


@pytest.fixture
def bot_factory(standin, tmp_path) -> Callable[..., Callable]:
    """``bot_factory(extensions=...)`` returns a maker for ``standin.run_client`` on one database file."""
    db = tmp_path / "e2e.db"

    def factory(extensions: tuple[str, ...] = BASE_EXTENSIONS):
        settings = Settings(token="standin-token", database_path=str(db), dev_guild_id=standin.guild.id)

        def make(connector):
            return PukllayBot(settings, extensions=extensions, connector=connector, guild_ready_timeout=0.01)

        return make

    return factory


def png_of(message) -> Image.Image:
    """The first attachment of a stand-in message, opened and checked as a PNG."""
    assert message.files, f"no image attached to {message.content!r}"
    image = Image.open(io.BytesIO(bytes(message.files[0])))
    image.load()
    assert image.format == "PNG"
    return image
