-- The computer level per seat (see migrations/sqlite/007_computer_levels.sql).
ALTER TABLE seats ADD COLUMN computer_level TEXT;
