"""Jobs: work due at a time (turn deadlines, reminders, league rounds...), each claimed by one
process.  A claim carries a token and a lease; completing or releasing a job checks the token,
and a claim whose lease ran out (its process died) is taken over.  Claiming is the back end's own
statement (:meth:`bot.storage.base.Backend.claim_jobs`).
"""

from __future__ import annotations

import enum
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from bot.storage.base import (
    ARM_SQL,
    Backend,
    Body,
    Concern,
    Conflict,
    Job,
    JobPayload,
    Row,
    job_json,
    job_of,
    one,
    run,
)

GIVE_BACK = "UPDATE jobs SET claimed_by = NULL, claim = NULL, claimed_until = NULL WHERE id = ? AND claim = ?"
"""Drop a claim on a job (its id, the claim), leaving it due as it was armed."""


class Unread(enum.Enum):
    """:meth:`Jobs.arm_keeping` told nothing of how the caller read the job: armed whatever it is."""

    UNREAD = "unread"


UNREAD = Unread.UNREAD
REARM_TRIES = 8  # reads of a job changed meanwhile, before it is armed all the same (Jobs.rearm)

GIVE_BACK_NOW = (
    "UPDATE jobs SET claimed_by = NULL, claim = NULL, claimed_until = NULL,"
    " due_at = CASE WHEN due_at > ? THEN ? ELSE due_at END WHERE id = ? AND claim = ?"
)
"""Drop a claim on a job (now twice, its id, the claim), leaving it due now at the latest."""


RELEASE = "UPDATE jobs SET due_at = ?, claimed_by = NULL, claim = NULL, claimed_until = NULL WHERE id = ? AND claim = ?"
"""Give a claimed job back (the new due time, its id, the claim), to be tried again then."""


async def moved_with(db: Backend, job: Job, due_at: float, sql: str, *values: object) -> bool:
    """``sql`` (a change of one row: the time a claimed ``job`` fires for) and the job given back
    for ``due_at``, in one transaction; False, nothing written, when ``sql`` changed no row (what
    it moves was settled meanwhile) or the job's claim was gone."""

    def body() -> Body[bool]:
        changed = yield from run(sql, *values)
        given = yield from run(RELEASE, float(due_at), job.id, job.claim)
        if changed != 1 or given != 1:
            raise Conflict("settled, or the job taken, meanwhile")
        return True

    try:
        return await db.transact(body())
    except Conflict:
        return False


class Jobs(Concern):
    """Pending jobs: set, read, claimed, completed or given back."""

    async def schedule(self, kind: str, key: str, due_at: float, payload: JobPayload | None = None) -> None:
        """Set the job ``kind``/``key`` to fire at ``due_at`` (seconds since the epoch), replacing
        a pending one of the same kind and key (and any claim on it)."""
        stamp = self.clock.stamp()
        await self.db.change(ARM_SQL, kind, str(key), float(due_at), job_json(payload or {}), stamp)

    async def arm_keeping(
        self,
        kind: str,
        key: str,
        due_at: float,
        payload: JobPayload,
        *,
        holder: str,
        read: Job | None | Unread = UNREAD,
    ) -> bool:
        """Set the job ``kind``/``key`` to fire at ``due_at`` with ``payload``, as :meth:`schedule`
        does, but a live claim that ``holder`` holds on it (a block in :meth:`holding`) stays: no
        one else takes the job before that block ends, which then gives it back armed so (its
        payload changed: it is not dropped) rather than dropping it.  ``read``: the job as the
        caller read it, ``payload`` made from it (None: there was none); the job is armed only if
        it is still so (its stored payload and its claim unchanged, or still none), else nothing
        changes and the answer is False: two processes changing the job at once each read it again
        rather than one writing over what the other added (:meth:`rearm`)."""
        now = self.clock.time()
        live = "jobs.claimed_by = ? AND jobs.claimed_until > ?"
        keep = (
            f"attempts = 0, claimed_by = CASE WHEN {live} THEN jobs.claimed_by END,"
            f" claim = CASE WHEN {live} THEN jobs.claim END,"
            f" claimed_until = CASE WHEN {live} THEN jobs.claimed_until END"
        )
        text = job_json(payload)
        insert = "INSERT INTO jobs (kind, key, due_at, payload, created_at) VALUES (?, ?, ?, ?, ?)"
        values = (kind, str(key), float(due_at), text, self.clock.stamp())
        if read is None:  # there was none: armed only if there is none still
            return await self.db.change(insert + " ON CONFLICT (kind, key) DO NOTHING", *values) > 0
        if isinstance(read, Job):  # armed only if it is as it was read
            changed = await self.db.change(
                f"UPDATE jobs SET due_at = ?, payload = ?, {keep}"
                " WHERE jobs.id = ? AND jobs.payload = ? AND COALESCE(jobs.claim, '') = ?",
                float(due_at),
                text,
                *(holder, now) * 3,
                read.id,
                read.text,
                read.claim or "",
            )
            return changed > 0
        await self.db.change(
            insert + " ON CONFLICT (kind, key) DO UPDATE SET due_at = excluded.due_at,"
            f" payload = excluded.payload, {keep}",
            *values,
            *(holder, now) * 3,
        )
        return True

    async def rearm(
        self,
        kind: str,
        key: str,
        made: Callable[[Job | None], tuple[float, JobPayload] | None],
        *,
        holder: str,
        tries: int = REARM_TRIES,
    ) -> Job | None:
        """Read the job ``kind``/``key``, make its time and payload from it (``made``; None: leave it
        as it is) and arm it so as :meth:`arm_keeping` does, if nobody changed it meanwhile; else
        read it again and make them anew.  Should it keep changing ``tries`` times, the last made is
        armed all the same.  The job as it was read last (None: there was none)."""
        for _ in range(tries):
            job = await self.job(kind, key)
            plan = made(job)
            if plan is None or await self.arm_keeping(kind, key, *plan, holder=holder, read=job):
                return job
        job = await self.job(kind, key)
        plan = made(job)
        if plan is not None:
            await self.arm_keeping(kind, key, *plan, holder=holder)
        return job

    def arming(self, kind: str, key: str, due_at: float, payload: JobPayload) -> Body[int]:
        """The statement of :meth:`schedule`, for a transaction of another's (the one that records
        what the job is to follow up: a board posted)."""
        return run(ARM_SQL, kind, str(key), float(due_at), job_json(payload), self.clock.stamp())

    async def arm_unless_armed(self, kind: str, key: str, due_at: float, payload: JobPayload) -> None:
        """Set the job ``kind``/``key`` to fire at ``due_at``, unless it is pending already (then
        it stays as it is, its claim too)."""
        await self.db.change(
            "INSERT INTO jobs (kind, key, due_at, payload, created_at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (kind, key) DO NOTHING",
            kind,
            str(key),
            float(due_at),
            job_json(payload),
            self.clock.stamp(),
        )

    async def cancel(self, kind: str, key: str) -> bool:
        """Drop the pending job ``kind``/``key``; False when there was none."""
        changed = await self.db.change("DELETE FROM jobs WHERE kind = ? AND key = ?", kind, str(key))
        return changed == 1

    async def job(self, kind: str, key: str) -> Job | None:
        row = await self.db.one("SELECT * FROM jobs WHERE kind = ? AND key = ?", kind, str(key))
        return job_of(row) if row else None

    async def pending(self, kind: str | None = None) -> list[Job]:
        """Pending jobs (of one kind), soonest first."""
        if kind is None:
            rows = await self.db.all("SELECT * FROM jobs ORDER BY due_at, id")
        else:
            rows = await self.db.all("SELECT * FROM jobs WHERE kind = ? ORDER BY due_at, id", kind)
        return [job_of(r) for r in rows]

    async def next_due(self) -> float | None:
        """When the soonest job is due (or its claim's lease ends), or None without jobs."""
        row = await self.db.one(
            "SELECT MIN(CASE WHEN claimed_until IS NOT NULL AND claimed_until > due_at"
            " THEN claimed_until ELSE due_at END) FROM jobs"
        )
        return None if row is None or row[0] is None else float(row[0])

    async def claim_jobs(self, owner: str, *, lease: float, limit: int = 20) -> list[Job]:
        """Claim up to ``limit`` due jobs for ``owner`` until now + ``lease`` seconds.

        A job is due when its time has come and nobody holds a live claim on it (a claim whose
        lease ran out, because its process died, is taken over).  Claims never overlap, across
        processes too.
        """
        now = self.clock.time()
        rows = await self.db.claim_jobs(owner, now, now + lease, limit)
        return sorted((job_of(r) for r in rows), key=lambda j: (j.due_at, j.id))

    @asynccontextmanager
    async def holding(
        self,
        kind: str,
        key: str,
        owner: str,
        *,
        lease: float,
        held: Job | None = None,
        also: Body[object] | None = None,
        given_back: Callable[[], object] | None = None,
    ) -> AsyncIterator[Job | None]:
        """Hold the pending job ``kind``/``key`` for a block, due or not: claimed for ``owner`` at
        its start until now + ``lease`` seconds (and due then), dropped at its end; a block that
        raises gives it back as it was.  The block gets None (and nothing changed) when there is
        no such job, or someone else holds a live claim on it: of processes taking it at once, the
        database gives it to one.  ``held``: the job as the caller claimed it already (the job it
        fires), whose claim it may take.  A process that stops in the block leaves the job to be
        fired when the lease is over.  A job armed again meanwhile keeping the claim
        (:meth:`arm_keeping`: its payload changed) is given back at the block's end, as armed but
        due at once: what was handed to it meanwhile is not what the block did, and waits for no
        lease; ``given_back`` is called then (to wake the scheduler).  A block that raises gives
        it back due as armed.  ``also``: statements of the block's end, run in the transaction that drops the job (or
        gives it back) when the block ends without raising (what the block did, recorded in the
        step that ends the claim); not run when the block gets None, or raises."""
        now = self.clock.time()
        until = now + lease

        def take() -> Body[tuple[Row, Row] | None]:
            was = yield from one("SELECT * FROM jobs WHERE kind = ? AND key = ?", kind, str(key))
            if was is None:
                return None
            row = yield from one(
                "UPDATE jobs SET claimed_by = ?, claim = ?, claimed_until = ?, due_at = ?"
                " WHERE id = ? AND (claimed_until IS NULL OR claimed_until <= ? OR claim = ?) RETURNING *",
                owner,
                secrets.token_hex(8),
                until,
                until,
                was["id"],
                now,
                None if held is None else held.claim,
            )
            return None if row is None else (was, row)

        taken = await self.db.transact(take())
        if taken is None:
            yield None
            return
        was, mine, kept = job_of(taken[0]), job_of(taken[1]), taken[1]["payload"]
        try:
            yield mine
        except BaseException:
            restored = await self.db.change(
                "UPDATE jobs SET due_at = ?, claimed_by = ?, claim = ?, claimed_until = ?"
                " WHERE id = ? AND claim = ? AND payload = ?",
                was.due_at,
                was.claimed_by,
                was.claim,
                was.claimed_until,
                mine.id,
                mine.claim,
                kept,
            )
            if not restored:
                await self.give_back(mine)
            raise

        def end() -> Body[bool]:
            done = yield from run(
                "DELETE FROM jobs WHERE id = ? AND claim = ? AND payload = ?", mine.id, mine.claim, kept
            )
            back = 0
            if not done:  # armed again meanwhile: due now
                back = yield from run(GIVE_BACK_NOW, now_end, now_end, mine.id, mine.claim)
            if also is not None:
                yield from also
            return back > 0

        now_end = self.clock.time()
        if await self.db.transact(end()) and given_back is not None:
            given_back()

    async def renew(self, job: Job, lease: float) -> bool:
        """Hold ``job``, claimed in a :meth:`holding` block, for ``lease`` seconds from now (and due
        then): a block that works longer than one lease keeps the job from firing by renewing it as
        it goes, and a process stopped in it leaves the job to fire ``lease`` after its last renewal.
        False (nothing changed) when the claim is no longer ours: the job was armed over, dropped,
        or taken by another process once the lease was over."""
        until = self.clock.time() + lease
        changed = await self.db.change(
            "UPDATE jobs SET claimed_until = ?, due_at = ? WHERE id = ? AND claim = ?",
            until,
            until,
            job.id,
            job.claim,
        )
        return changed == 1

    async def give_back(self, job: Job) -> bool:
        """Drop our claim on ``job`` (armed again meanwhile), leaving it due as it was armed."""
        changed = await self.db.change(GIVE_BACK, job.id, job.claim)
        return changed == 1

    async def complete_job(self, job: Job) -> bool:
        """Drop a fired job, if the claim is still ours (a job re-armed meanwhile stays)."""
        changed = await self.db.change("DELETE FROM jobs WHERE id = ? AND claim = ?", job.id, job.claim)
        return changed == 1

    async def release_job(self, job: Job, due_at: float) -> bool:
        """Give a claimed job back, to be tried again at ``due_at``."""
        return await self.db.change(RELEASE, float(due_at), job.id, job.claim) == 1

    async def hasten(self, job: Job, due_at: float) -> bool:
        """Bring the pending, unclaimed ``job`` forward to ``due_at``; False (nothing changed) if it
        fired meanwhile, is being fired, or is due sooner already: a job done is not armed again."""
        changed = await self.db.change(
            "UPDATE jobs SET due_at = ? WHERE id = ? AND claim IS NULL AND due_at > ?",
            float(due_at),
            job.id,
            float(due_at),
        )
        return changed == 1
