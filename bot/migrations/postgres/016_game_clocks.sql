-- Game clocks (see migrations/sqlite/016_game_clocks.sql).
ALTER TABLE sessions ADD COLUMN clock TEXT;
ALTER TABLE sessions ADD COLUMN clock_state TEXT;
