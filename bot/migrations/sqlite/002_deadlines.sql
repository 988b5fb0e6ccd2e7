-- Turn timers for slow games: when the players to move have not moved by
-- deadline_at, the table acts (a table move such as a round's end, or the
-- computer moving for whoever is late).  deadline_version pins the deadline
-- to the state it was set for, so a move made meanwhile cancels it.
ALTER TABLE sessions ADD COLUMN timer_seconds INTEGER;
ALTER TABLE sessions ADD COLUMN deadline_at TEXT;
ALTER TABLE sessions ADD COLUMN deadline_version INTEGER;
CREATE INDEX sessions_by_deadline ON sessions (deadline_at) WHERE deadline_at IS NOT NULL;
