-- Each rated person's shown rating before and after the game, kept with its result, so that a
-- results card posted late (after a restart, say) shows the ratings the game changed; NULL where
-- the game changed no rating (and for games ended before this column).
ALTER TABLE results ADD COLUMN rating_before REAL;
ALTER TABLE results ADD COLUMN rating_after REAL;
