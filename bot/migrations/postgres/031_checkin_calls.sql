-- Whether each check-in window's call (the post with its Check in button, and the direct messages)
-- has gone out: a window is stored before its call, and a process that stops in between leaves
-- called = 0, so the call is made when the round's job fires again instead of never.  Windows
-- stored before this migration were called when they opened.
ALTER TABLE league_checkin_windows ADD COLUMN called INTEGER NOT NULL DEFAULT 1;
