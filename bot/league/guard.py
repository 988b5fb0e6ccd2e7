"""A round's guard, held while the round opens.

:meth:`bot.league.service.LeagueService.open_round` stores a round and, in the same transaction,
arms the round's job again :data:`~bot.league.service.RESUME_AFTER` (two minutes) on, as a guard:
should the process opening its games stop, the guard fires and the round's opening resumes
(:meth:`bot.league.season.Rounds.resume`).  An opening takes as long as Discord does, a table at a
time, so it holds the guard for its work (:func:`holding`, on :meth:`bot.storage.jobs.Jobs.holding`),
renewing the hold as each table is opened (:meth:`Hold.renew`): no process fires the guard while
the opening runs, however many tables it opens, and a stop leaves it to fire two minutes after
the last renewal, within Discord's few minutes (so what the resumed opening tells again, sent with
a nonce naming it, is received once: :mod:`bot.surface.nonces`).  This works alike for the
opening the round's job made (the scheduler's claim on that job is gone: the guard is armed over
it), for one the organiser's publishing made (holding no claim), and for the guard's own resumed
opening (``held``: the scheduler's claim on the guard, taken over).

Imports the league service's figure, storage rows, the scheduler's process name and the keyed locks;
never Discord.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.league.service import RESUME_AFTER
from bot.locks import KeyedLocks
from bot.storage import Job, Store
from bot.storage.leagues import ROUND_JOB
from bot.time.scheduler import process_name

log = logging.getLogger(__name__)


class Lost(Exception):
    """The hold on the round's guard is no longer the opening's (it stalled past a lease, and
    another process fired the guard; or the guard was dropped): the opening stops there."""


class Hold:
    """An opening's hold on its round's guard (``job``: as held; None, there was no guard to hold:
    nothing armed one, the opening runs unguarded as it would have)."""

    def __init__(self, store: Store, job: Job | None):
        self.store, self.job = store, job

    async def renew(self) -> None:
        """Hold the guard two more minutes from now (a table is about to be opened); :class:`Lost`
        when it is held no more."""
        if self.job is not None and not await self.store.jobs.renew(self.job, RESUME_AFTER):
            raise Lost


class Guards:
    """The openings of a process's rounds: one at a time a round in the process, each holding its
    round's guard across processes."""

    def __init__(self, store: Store):
        self.store, self.owner = store, process_name()  # (whose claim it is, for a reader of the jobs)
        self._locks: KeyedLocks[tuple[int, int]] = KeyedLocks()
        """One lock per round being opened here, so that its guard, firing here should the opening
        have stalled past its hold (a table that Discord took over two minutes on), waits for it
        and then finds nothing left to open."""

    @asynccontextmanager
    async def holding(
        self, league_id: int, number: int, held: Job | None = None
    ) -> AsyncIterator[Hold | None]:
        """Open round ``number`` of the league in the block: this process's lock on it taken, then
        its guard held (``held``: the guard as the scheduler firing it claimed it).  None: another
        process holds the guard (resuming the round), which opens what is left.  A block that loses
        the hold (:class:`Lost`) ends there, quietly: what it left is the holder's to do.  A block
        that raises gives the guard back as it was, to fire then; one that ends drops it (unless it
        was armed over meanwhile: the next round's check-in)."""
        async with self._locks((league_id, number)):
            key, jobs = str(league_id), self.store.jobs
            job = held if held is not None else await jobs.job(ROUND_JOB, key)
            if job is None or job.payload != {"round": number}:  # (no guard: opened unguarded)
                yield Hold(self.store, None)
                return
            try:
                async with jobs.holding(ROUND_JOB, key, self.owner, lease=RESUME_AFTER, held=held) as mine:
                    if mine is None:
                        log.info("league %s: round %s's guard is held elsewhere, which opens it", key, number)
                    yield None if mine is None else Hold(self.store, mine)
            except Lost:
                log.warning(
                    "league %s: round %s's guard was taken over, and its opening with it", key, number
                )
