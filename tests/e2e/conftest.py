"""End-to-end fixtures: the Discord stand-in and a way to run the real bot against it."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from PIL import Image

from bot.app import PukllayBot
from bot.clock import ManualClock
from bot.settings import Settings
from tests.standin.fixtures import STRICT_OPTIONS, discord_errors, standin  # noqa: F401

BASE_EXTENSIONS = ("cogs.table", "tests.support.nim_cog")


@pytest.fixture
def standin_options() -> dict:
    """Strict mode: every interaction the bot gets must be answered (or deferred) within 1 s, a third
    of Discord's 3 s, so the bot keeps a margin for a loaded server and a slow network."""
    return dict(STRICT_OPTIONS)


@pytest.fixture
def discord_error_loggers() -> tuple[str, ...]:
    """The bot's own unexpected errors fail a test too."""
    return ("discord", "bot", "cogs")


@pytest.fixture
def table_clock() -> ManualClock:
    """The bot's clock: turn timers run out when the test moves it, and the test fires them
    (``await bot.scheduler.run_due()``); the scheduler's own loop is not started."""
    return ManualClock()


@pytest.fixture
def bot_factory(standin, tmp_path, table_clock) -> Callable[..., Callable]:
    """``bot_factory(extensions=...)`` returns a maker for ``standin.run_client`` on one database file."""
    db = tmp_path / "e2e.db"

    def factory(extensions: tuple[str, ...] = BASE_EXTENSIONS):
        settings = Settings(token="standin-token", database_path=str(db), dev_guild_id=standin.guild.id)

        def make(connector):
            return PukllayBot(
                settings,
                extensions=extensions,
                connector=connector,
                guild_ready_timeout=0.01,
                clock=table_clock,
                start_scheduler=False,
            )

        return make

    return factory


def png_of(message) -> Image.Image:
    """The first attachment of a stand-in message, opened and checked as a PNG."""
    assert message.files, f"no image attached to {message.content!r}"
    image = Image.open(io.BytesIO(bytes(message.files[0])))
    image.load()
    assert image.format == "PNG"
    return image


async def pick_from_menu(standin, user, menu, choose=lambda moves: moves[0]):
    """Choose a move on the private Play menu, however it is shown; returns (result, move).

    The menu is a select (narrowed step by step when grouped by prefix), a grid
    of cell buttons, or a row of move buttons.  ``choose`` picks among the
    moves offered at the last step.
    """
    while True:
        if menu.selects:
            values = [o["value"] for o in menu.selects[0]["options"]]
            value = choose(values) if all(v.startswith("m:") for v in values) else values[0]
            result = await standin.select(user, menu, menu.selects[0]["custom_id"], [value])
            if value.startswith("p:"):
                assert result.type == 7, "narrowing a group updates the menu in place"
                menu = result.message
                continue
            return result, value[2:]
        enabled = [b for b in menu.buttons if not b.get("disabled") and b["custom_id"].startswith("pk:mv:")]
        assert enabled, f"the menu offers nothing to choose: {menu.content!r}"
        moves = [b["custom_id"].split(":", 4)[4] for b in enabled]
        move = choose(moves)
        result = await standin.click(user, menu, enabled[moves.index(move)]["custom_id"])
        return result, move
