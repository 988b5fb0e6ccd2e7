-- A game opened in a text channel lives in its own thread: channel_id is the
-- thread, and lobby_channel_id the parent channel holding the lobby message
-- (which links to the thread and shows the result at the end).  NULL when the
-- lobby message is in the game's own channel or thread.
ALTER TABLE sessions ADD COLUMN lobby_channel_id INTEGER;
