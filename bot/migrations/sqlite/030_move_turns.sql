-- Each move's turn: the engine's turn_number before the move, written with the move, so that the
-- channel's post tells a seat's turns apart (a solo player's, or a seat's two turns in a row)
-- without replaying the game.  An undo entry has the turn it was agreed in.  Rows written before
-- this migration have NULL (not known): their moves are told grouped by seat, as they were.
ALTER TABLE moves ADD COLUMN turn INTEGER;
