-- Time away (see migrations/sqlite/010_time_away.sql).
ALTER TABLE people ADD COLUMN away_since DOUBLE PRECISION;
ALTER TABLE people ADD COLUMN away_until DOUBLE PRECISION;
ALTER TABLE people ADD COLUMN away_reason TEXT;
ALTER TABLE people ADD COLUMN away_year INTEGER;
ALTER TABLE people ADD COLUMN away_days_used INTEGER NOT NULL DEFAULT 0;
