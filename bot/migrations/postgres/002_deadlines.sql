-- Turn timers (see migrations/sqlite/002_deadlines.sql).  The timer may be a
-- fraction of a second in tests, so it is a double here.
ALTER TABLE sessions ADD COLUMN timer_seconds DOUBLE PRECISION;
ALTER TABLE sessions ADD COLUMN deadline_at TEXT;
ALTER TABLE sessions ADD COLUMN deadline_version BIGINT;
CREATE INDEX sessions_by_deadline ON sessions (deadline_at) WHERE deadline_at IS NOT NULL;
