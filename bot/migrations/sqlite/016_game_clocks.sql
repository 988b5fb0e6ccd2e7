-- Game clocks (bot/gameclock.py): clock is the spec (move:24h, bank:3d+12h; NULL
-- for none, or the older turn timer alone), clock_state the running clocks as
-- JSON (each seat's bank, whose clock runs since when, timeouts being voted on,
-- seats the computer took).  timer_seconds stays the delay the turn deadline is
-- armed with on each move; a clocked game keeps it at "until the first running
-- clock runs out".
ALTER TABLE sessions ADD COLUMN clock TEXT;
ALTER TABLE sessions ADD COLUMN clock_state TEXT;
