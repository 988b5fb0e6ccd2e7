-- A league's game clock (see migrations/sqlite/017_league_clocks.sql).
ALTER TABLE leagues ADD COLUMN clock TEXT;
