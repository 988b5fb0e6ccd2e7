"""The one scheduler: everything that happens at a time.

Jobs are rows in the database (``jobs``: kind, key, due time, JSON payload,
claim), so they survive restarts and are shared by every process of the bot.
A process *claims* due jobs for a lease (``store.jobs.claim_jobs``: on PostgreSQL
with ``FOR UPDATE SKIP LOCKED``, on SQLite in one write transaction), so no
two processes hold the same job; it fires each through the handler registered
for its kind, then completes it (drops the row, if the claim is still its
own).  A process killed while holding a claim leaves the job to be claimed
again by another once the lease has run out.  A handler that fails is retried
later, a few times, then the job is dropped and logged.

What "fires exactly once" needs from a handler: do its effect in one
transaction that also consumes the claimed job (as ``record_moves(..., job=)``
does for turn deadlines), or make the effect idempotent (a version check),
because a process may die between the effect and the completion.

Every kind is declared in :mod:`bot.time.jobs`, and the bot registers a handler for each
there at start-up (a test may register its own kinds)::

    scheduler.register("reminder", send_reminder)      # async def send_reminder(job: Job) -> None
    await scheduler.schedule("reminder", key, due_at, {"version": 7})  # payload: a JobPayload

Turn deadlines are the kind ``"deadline"`` (key: the session id; payload: the
version they were set for), armed by the storage itself in each move's
transaction.  Time is read from the store's clock, so tests move time instead
of sleeping and then call :meth:`Scheduler.run_due`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Awaitable, Callable

from bot.storage import Job, JobPayload, Store
from bot.web.metrics import Metrics

log = logging.getLogger(__name__)

Handler = Callable[[Job], Awaitable[object]]


def process_name(label: str = "") -> str:
    """A name for this process in job claims: host, process id and an optional label (its shards)."""
    name = f"{socket.gethostname()}:{os.getpid()}"
    return f"{name}:{label}" if label else name


class Scheduler:
    """Claims due jobs and fires them through the handlers registered for their kinds."""

    def __init__(
        self,
        store: Store,
        *,
        owner: str | None = None,
        lease: float = 120.0,
        poll: float = 30.0,
        batch: int = 20,
        retry_after: float = 60.0,
        max_attempts: int = 5,
        metrics: Metrics | None = None,
    ):
        self.store = store
        self.metrics = metrics if metrics is not None else Metrics()  # jobs fired, their lateness, failures
        self.clock = store.clock
        self.owner = owner or process_name()
        self.lease = lease
        self.poll = poll
        self.batch = batch
        self.retry_after = retry_after
        self.max_attempts = max_attempts
        self._handlers: dict[str, Handler] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._unknown: set[str] = set()

    def register(self, kind: str, handler: Handler) -> None:
        """Fire jobs of ``kind`` through ``handler`` (one handler per kind)."""
        if kind in self._handlers:
            raise ValueError(f"a handler for {kind!r} jobs is already registered")
        self._handlers[kind] = handler

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(self._handlers)

    async def schedule(self, kind: str, key: str, due_at: float, payload: JobPayload | None = None) -> None:
        """Set the job ``kind``/``key`` for ``due_at`` (seconds since the epoch, the store's clock)."""
        await self.store.jobs.schedule(kind, key, due_at, payload)
        self.wake()

    async def cancel(self, kind: str, key: str) -> bool:
        return await self.store.jobs.cancel(kind, key)

    def wake(self) -> None:
        """Look for due jobs now rather than at the next poll."""
        self._wake.set()

    async def run_due(self) -> int:
        """Claim the jobs due now and fire them; how many were fired without error."""
        fired = 0
        while True:
            jobs = await self.store.jobs.claim_jobs(self.owner, lease=self.lease, limit=self.batch)
            if not jobs:
                return fired
            outcomes = await asyncio.gather(*(self._fire(job) for job in jobs))
            fired += sum(outcomes)
            if len(jobs) < self.batch:
                return fired

    async def _fire(self, job: Job) -> bool:
        handler = self._handlers.get(job.kind)
        if handler is None:
            # A kind this process does not know (a newer one added it): the claim lapses and
            # a process that knows it takes the job.
            if job.kind not in self._unknown:
                self._unknown.add(job.kind)
                log.warning("no handler for %r jobs in this process; leaving them to others", job.kind)
            return False
        late_by = self.clock.time() - job.due_at
        try:
            await handler(job)
        except Exception:
            self.metrics.job_fired(job.kind, late_by, ok=False)
            self.metrics.error("job")
            if job.attempts >= self.max_attempts:
                log.exception("the %s job %s failed %d times; it is dropped", job.kind, job.key, job.attempts)
                await self.store.jobs.complete_job(job)
            else:
                log.exception("the %s job %s failed; it will be tried again", job.kind, job.key)
                await self.store.jobs.release_job(job, self.clock.time() + self.retry_after * job.attempts)
            return False
        self.metrics.job_fired(job.kind, late_by, ok=True)
        await self.store.jobs.complete_job(job)
        return True

    async def run(self) -> None:
        """Fire jobs as they come due, until cancelled."""
        while True:
            self._wake.clear()
            try:
                await self.run_due()
                due = await self.store.jobs.next_due()
            except Exception:
                log.exception("the scheduler could not look for due jobs")
                due = None
            delay = self.poll if due is None else min(self.poll, max(0.0, due - self.clock.time()))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=max(delay, 0.01))

    def start(self) -> asyncio.Task:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self.run(), name="pukllay-scheduler")
        return self._task

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
