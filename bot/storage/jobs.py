"""Jobs: work due at a time (turn deadlines, reminders, league rounds...), each claimed by one
process.  A claim carries a token and a lease; completing or releasing a job checks the token,
and a claim whose lease ran out (its process died) is taken over.  Claiming is the back end's own
statement (:meth:`bot.storage.base.Backend.claim_jobs`).
"""

from __future__ import annotations

from bot.storage.base import ARM_SQL, Concern, Job, JobPayload, job_json, job_of


class Jobs(Concern):
    """Pending jobs: set, read, claimed, completed or given back."""

    async def schedule(self, kind: str, key: str, due_at: float, payload: JobPayload | None = None) -> None:
        """Set the job ``kind``/``key`` to fire at ``due_at`` (seconds since the epoch), replacing
        a pending one of the same kind and key (and any claim on it)."""
        stamp = self.clock.stamp()
        await self.db.change(ARM_SQL, kind, str(key), float(due_at), job_json(payload or {}), stamp)

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

    async def complete_job(self, job: Job) -> bool:
        """Drop a fired job, if the claim is still ours (a job re-armed meanwhile stays)."""
        changed = await self.db.change("DELETE FROM jobs WHERE id = ? AND claim = ?", job.id, job.claim)
        return changed == 1

    async def release_job(self, job: Job, due_at: float) -> bool:
        """Give a claimed job back, to be tried again at ``due_at``."""
        changed = await self.db.change(
            "UPDATE jobs SET due_at = ?, claimed_by = NULL, claim = NULL, claimed_until = NULL"
            " WHERE id = ? AND claim = ?",
            float(due_at),
            job.id,
            job.claim,
        )
        return changed == 1

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
