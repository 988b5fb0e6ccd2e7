-- Jobs: everything that happens at a time (turn deadlines now; reminders, clocks,
-- league rounds later) is a row here, fired by the scheduler (bot/scheduler.py).
-- One pending job per kind and key.  A process claims a due job by writing its
-- name, a claim token and a lease end; a job whose lease ran out (its process
-- died) is claimed again by another.  Times are seconds since the epoch (UTC)
-- read from the table's clock.
CREATE TABLE jobs (
    id            INTEGER PRIMARY KEY,
    kind          TEXT    NOT NULL,
    key           TEXT    NOT NULL,
    due_at        REAL    NOT NULL,
    payload       TEXT    NOT NULL DEFAULT '{}',  -- JSON
    claimed_by    TEXT,                           -- the process that holds the claim
    claim         TEXT,                           -- the claim's token
    claimed_until REAL,                           -- the claim's lease end
    attempts      INTEGER NOT NULL DEFAULT 0,
    created_at    TEXT    NOT NULL
);
CREATE UNIQUE INDEX jobs_one_per_key ON jobs (kind, key);
CREATE INDEX jobs_by_due ON jobs (due_at);

-- The turn deadlines move from the sessions table to jobs of kind 'deadline'
-- (key: the session id; payload: the version the deadline was set for).
INSERT INTO jobs (kind, key, due_at, payload, created_at)
    SELECT 'deadline', CAST(id AS TEXT), (julianday(deadline_at) - 2440587.5) * 86400.0,
           json_object('version', deadline_version), updated_at
    FROM sessions
    WHERE deadline_at IS NOT NULL AND deadline_version IS NOT NULL AND status = 'active';
DROP INDEX sessions_by_deadline;
ALTER TABLE sessions DROP COLUMN deadline_at;
ALTER TABLE sessions DROP COLUMN deadline_version;
