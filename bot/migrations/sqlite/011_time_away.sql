-- Time away (/me away): while away_since <= now < away_until the person's turn
-- clocks are paused in every game and reminders stop.  away_days_used counts
-- the days taken in away_year (a yearly allowance: the AWAY_DAYS_PER_YEAR setting).
ALTER TABLE people ADD COLUMN away_since REAL;
ALTER TABLE people ADD COLUMN away_until REAL;
ALTER TABLE people ADD COLUMN away_reason TEXT;
ALTER TABLE people ADD COLUMN away_year INTEGER;
ALTER TABLE people ADD COLUMN away_days_used INTEGER NOT NULL DEFAULT 0;
