"""Waiting for what the bot does out of sight of an event the tests can wait on (a row written
once Discord has answered, a job dropped, a server's lock queue): ask again until it holds.

Bounded by a number of looks, never by a time, so a slow machine takes longer but never fails
for being slow; a look may itself take time (a database read, a request)."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")


async def until(
    check: Callable[[], T | Awaitable[T]], what: str, *, tries: int = 400, pause: float = 0.01
) -> T:
    """The first true value ``check()`` gives (awaited when it is a coroutine), looking at most
    ``tries`` times with ``pause`` seconds between looks; an assertion naming ``what`` when it never
    holds.  ``pause=0`` only lets the event loop run the other tasks between looks."""
    for _ in range(tries):
        found = check()
        if inspect.isawaitable(found):
            found = await found
        if found:
            return found  # type: ignore[return-value]
        await asyncio.sleep(pause)
    raise AssertionError(f"never saw {what} ({tries} looks)")
