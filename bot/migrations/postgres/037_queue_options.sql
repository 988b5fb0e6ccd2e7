-- The game options a person waits for in the queue (Guanga's mode, a Tiwanaku board...), as the
-- JSON of every option of the game (defaults included), so that equal wishes read the same: the
-- queue seats together only people who wait for the same options.  Entries stored before this
-- column wait for the game's defaults.
ALTER TABLE queue_entries ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
