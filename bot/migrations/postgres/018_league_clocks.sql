-- A league's game clock (see migrations/sqlite/018_league_clocks.sql).
ALTER TABLE leagues ADD COLUMN clock TEXT;
