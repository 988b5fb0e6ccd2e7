"""The table's one clock: everything that reads the time (storage stamps, deadlines, the scheduler) asks it.

Production uses :class:`SystemClock`.  Tests give the store a :class:`ManualClock`
and move time on with :meth:`ManualClock.advance` instead of sleeping, so a
turn timer of a day runs out at once and always in the same way.

Two readings of one instant: :meth:`Clock.time`, seconds since the epoch (what
jobs are due at and leased until), and :meth:`Clock.stamp`, the ISO 8601 text
in UTC that rows are stamped with (text order is time order).
"""

from __future__ import annotations

import time as _time
from datetime import UTC, datetime


def stamp_of(seconds: float) -> str:
    """Seconds since the epoch as the stored text: ``2026-11-30T10:28:34.123+00:00``."""
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds")


def seconds_of(stamp: str) -> float:
    """A stored stamp (:func:`stamp_of`'s text) as seconds since the epoch."""
    return datetime.fromisoformat(stamp).timestamp()


class Clock:
    """What time it is, for the table."""

    def time(self) -> float:
        raise NotImplementedError

    def stamp(self, offset_seconds: float = 0.0) -> str:
        return stamp_of(self.time() + offset_seconds)


class SystemClock(Clock):
    """The machine's clock."""

    def time(self) -> float:
        return _time.time()


class ManualClock(Clock):
    """A clock that moves only when told to (tests)."""

    def __init__(self, start: float = 1_800_000_000.0):
        self._now = float(start)

    def time(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("time does not go backwards")
        self._now += seconds

    def set(self, seconds: float) -> None:
        if seconds < self._now:
            raise ValueError("time does not go backwards")
        self._now = float(seconds)


SYSTEM = SystemClock()
"""The clock used when none is given."""
