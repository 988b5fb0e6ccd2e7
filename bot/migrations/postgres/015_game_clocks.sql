-- Game clocks (see migrations/sqlite/015_game_clocks.sql).
ALTER TABLE sessions ADD COLUMN clock TEXT;
ALTER TABLE sessions ADD COLUMN clock_state TEXT;
