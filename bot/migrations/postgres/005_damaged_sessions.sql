-- Damaged sessions (see migrations/sqlite/005_damaged_sessions.sql).
ALTER TABLE sessions ADD COLUMN damaged TEXT;
ALTER TABLE sessions ADD COLUMN damaged_at TEXT;
