-- A league's game clock (a spec of bot/gameclock.py, e.g. move:24h or bank:3d+12h) that every
-- game of the league starts with.  NULL: no clock, or, for a league created before clocks, the
-- per-move clock of its old timer_seconds (read as move:<timer>).
ALTER TABLE leagues ADD COLUMN clock TEXT;
