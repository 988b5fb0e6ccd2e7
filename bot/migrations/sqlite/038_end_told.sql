-- Whether the channel was told that the game ended: its last board (with the result) was posted.
-- A game can end without a move (a resignation, an abandon, a clock or a league's deadline), so
-- the move log alone cannot say; at its start the table posts the end of a finished game whose
-- end was never told.  A game ended before this column was told of its end, but for one whose
-- last moves were never posted (the table caught those up by its moves already).
ALTER TABLE sessions ADD COLUMN end_told INTEGER NOT NULL DEFAULT 0;
UPDATE sessions SET end_told = 1 WHERE status = 'abandoned' OR (status = 'finished' AND NOT EXISTS (
    SELECT 1 FROM moves m WHERE m.session_id = sessions.id AND m.number > sessions.told_through
));
