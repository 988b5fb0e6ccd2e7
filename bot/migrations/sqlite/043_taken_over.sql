-- When the table took a seat over for the rest of its game (a league round's deadline, or the
-- game's thread deleted): the number of moves the log held then, and whether the game was
-- waiting on the seat at that moment.  From there on the computer's moves for the seat are the
-- table's own, not turns its person missed; a seat the game was waiting on keeps one missed
-- turn, the one it was late for.  NULL: the table never took the seat over.
ALTER TABLE seats ADD COLUMN taken_after INTEGER;
ALTER TABLE seats ADD COLUMN taken_late INTEGER NOT NULL DEFAULT 0;
