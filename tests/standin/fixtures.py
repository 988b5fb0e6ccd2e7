"""Pytest fixtures for end-to-end tests against the Discord stand-in.

Import them from a conftest::

    from tests.standin.fixtures import discord_errors, standin  # noqa: F401

``standin`` yields a started :class:`StandIn` (Discord's 3 s to answer an interaction, waits of 30 s;
``STRICT_OPTIONS`` for a 1 s limit) and, at teardown,
fails the test on any violation or discord.py error the test did not already see raised.
``discord_errors`` fails the test on ERROR records from the ``discord`` logger (discord.py only logs
exceptions raised inside event, command and view handlers); ``discord_errors.allow(regex)`` lets an
expected one through.  Override ``discord_error_loggers`` to watch more loggers, and
``standin_options`` (or parametrize it) to change the stand-in's settings.
"""

from __future__ import annotations

import logging
import re
import traceback

import pytest
import pytest_asyncio

from .server import WAIT_SECONDS, StandIn, violation_number

__all__ = [
    "DEFAULT_OPTIONS",
    "STRICT_OPTIONS",
    "DiscordErrorGuard",
    "discord_error_loggers",
    "discord_errors",
    "standin",
    "standin_options",
    "started_standin",
]

# Discord's deadline: an interaction must be answered within 3 s.
DEFAULT_OPTIONS = {"interaction_timeout": 3.0, "wait_timeout": WAIT_SECONDS}
# Strict mode: answers must come within 1 s, a third of Discord's time, so that a bot that passes here
# still answers in time on a loaded server (the end-to-end tests of the real bot use it).
STRICT_OPTIONS = {**DEFAULT_OPTIONS, "interaction_timeout": 1.0}


class DiscordErrorGuard(logging.Handler):
    """Collects ERROR records from the watched loggers; the fixture fails the test on unexpected ones."""

    def __init__(self, loggers: tuple[str, ...] = ("discord",)):
        super().__init__(logging.ERROR)
        self.loggers = loggers
        self.records: list[logging.LogRecord] = []
        self.allowed: list[re.Pattern] = []
        self.standins: list[StandIn] = []  # records caused by violations these reported are not news

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def allow(self, pattern: str) -> None:
        """Tolerate ERROR records whose message or exception matches ``pattern``."""
        self.allowed.append(re.compile(pattern))

    @staticmethod
    def describe(record: logging.LogRecord) -> str:
        text = f"{record.name}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            text += "\n" + "".join(traceback.format_exception(*record.exc_info))
        return text

    def unexpected(self) -> list[logging.LogRecord]:
        out = []
        for r in self.records:
            if getattr(r, "standin_reported", False):
                continue  # already raised to the test by the stand-in (and handled there)
            number = violation_number(r)
            if number is not None and any(s.violation_reported(number) for s in self.standins):
                continue
            text = self.describe(r)
            if any(p.search(text) for p in self.allowed):
                continue
            out.append(r)
        return out

    def __enter__(self) -> DiscordErrorGuard:
        for name in self.loggers:
            logging.getLogger(name).addHandler(self)
        return self

    def __exit__(self, *exc) -> None:
        for name in self.loggers:
            logging.getLogger(name).removeHandler(self)


@pytest.fixture
def discord_error_loggers() -> tuple[str, ...]:
    """The loggers whose ERROR records fail a test; override to add the bot's own (e.g. ``"bot"``)."""
    return ("discord",)


@pytest.fixture
def discord_errors(discord_error_loggers):
    """Fail the test if discord.py logs an ERROR the test did not expect."""
    with DiscordErrorGuard(tuple(discord_error_loggers)) as guard:
        yield guard
    bad = guard.unexpected()
    if bad:
        pytest.fail("discord.py logged errors:\n" + "\n".join(guard.describe(r) for r in bad), pytrace=False)


@pytest.fixture
def standin_options() -> dict:
    """Override in a module or conftest to configure the ``standin`` fixture (e.g. ``STRICT_OPTIONS``)."""
    return dict(DEFAULT_OPTIONS)


@pytest_asyncio.fixture
async def standin(discord_errors, discord_error_loggers, standin_options):
    """A started Discord stand-in; fails the test on violations and client errors it did not see."""
    async for stand_in in started_standin(discord_errors, discord_error_loggers, standin_options):
        yield stand_in


async def started_standin(discord_errors, discord_error_loggers, standin_options):
    """The body of the ``standin`` fixture, for a module that declares it in another event loop
    (``pytest_asyncio.fixture(loop_scope=...)``: tests/e2e/test_web.py, in the shared browser's)."""
    stand_in = StandIn(**{"watch_loggers": tuple(discord_error_loggers), **standin_options})
    discord_errors.standins.append(stand_in)
    async with stand_in:
        yield stand_in
        failures = stand_in.unreported_failures()
    if failures:
        for f in failures:
            f.reported = True
            if getattr(f, "record", None) is not None:
                f.record.standin_reported = True  # reported here; the log guard need not repeat it
        pytest.fail("the Discord stand-in saw:\n" + "\n".join(f"- {f}" for f in failures), pytrace=False)
