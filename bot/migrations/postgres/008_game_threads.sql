-- A game's thread and the parent channel holding its lobby message
-- (see migrations/sqlite/008_game_threads.sql).
ALTER TABLE sessions ADD COLUMN lobby_channel_id BIGINT;
