-- Saved states of a game after some of its moves, so that showing the board
-- at an old move (the history browser) replays a few moves, not the whole
-- game.  number: the move the state follows (0: the start).  A snapshot is a
-- cache derived from the seed, options and move log: it may be dropped at any
-- time and is rebuilt from the log.
CREATE TABLE snapshots (
    session_id INTEGER NOT NULL REFERENCES sessions (id),
    number     INTEGER NOT NULL,
    state      TEXT    NOT NULL,
    PRIMARY KEY (session_id, number)
);
