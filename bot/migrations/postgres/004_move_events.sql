-- Each move's events and privacy mark, as JSON text (see migrations/sqlite/004_move_events.sql).
ALTER TABLE moves ADD COLUMN events TEXT;
ALTER TABLE moves ADD COLUMN privacy TEXT;
