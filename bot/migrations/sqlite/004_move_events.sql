-- Each move's events (a JSON array of Event.to_dict) and its privacy mark (a
-- JSON object of Privacy.to_dict), written with the move, so that the log can
-- show each reader what that reader may see without replaying the game.
-- Rows written before this migration have NULL in both; the table replays
-- those games, or shows such rows safely (never their notation to others).
ALTER TABLE moves ADD COLUMN events TEXT;
ALTER TABLE moves ADD COLUMN privacy TEXT;
