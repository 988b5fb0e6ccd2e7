-- The game a lobby was opened to play again (its results card's Rematch button); NULL for any
-- other.  The lobby message names it ("rematch of game #N") for the lobby's whole life.
ALTER TABLE sessions ADD COLUMN rematch_of BIGINT;
