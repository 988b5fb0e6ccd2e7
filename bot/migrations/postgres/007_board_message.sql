-- The channel's latest board and how far the channel has been told
-- (see migrations/sqlite/007_board_message.sql).
ALTER TABLE sessions ADD COLUMN board_message_id BIGINT;
ALTER TABLE sessions ADD COLUMN told_through INTEGER NOT NULL DEFAULT 0;
