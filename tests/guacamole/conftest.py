"""The end-to-end fixtures (the Discord stand-in and the real bot), shared with tests/e2e."""

from tests.e2e.conftest import (
    bot_factory,
    discord_error_loggers,
    discord_errors,
    standin,
    standin_options,
    table_clock,
)

__all__ = [
    "bot_factory",
    "discord_error_loggers",
    "discord_errors",
    "standin",
    "standin_options",
    "table_clock",
]
