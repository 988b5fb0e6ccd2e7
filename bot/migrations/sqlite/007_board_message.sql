-- The channel's latest board for a game, and how far the channel has been told.
-- board_message_id: the message holding the live board (its buttons are removed
-- when the next board is posted, so the channel shows one live board).
-- told_through: the number of the last move whose public lines were posted; the
-- next board post tells every move after it, read from the move log, so a turn
-- half done when the bot restarts is still told in full.
ALTER TABLE sessions ADD COLUMN board_message_id INTEGER;
ALTER TABLE sessions ADD COLUMN told_through INTEGER NOT NULL DEFAULT 0;
