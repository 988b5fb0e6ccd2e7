-- A pending request to take back moves by consent (at most one per game).
-- version: the game's version when it was asked; any move since voids it.
-- target: the first move to take back (the asker's last move); seat: the asker.
-- waiting: a JSON array of the seats still to answer.  The undo itself is an
-- entry appended to the move log, never a deleted row.
CREATE TABLE undo_requests (
    session_id INTEGER PRIMARY KEY REFERENCES sessions (id),
    version    INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    target     INTEGER NOT NULL,
    waiting    TEXT    NOT NULL,
    message_id INTEGER,
    created_at TEXT    NOT NULL
);
