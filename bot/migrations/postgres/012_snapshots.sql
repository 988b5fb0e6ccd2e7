-- Saved states of a game after some of its moves, for the history browser
-- (see migrations/sqlite/008_snapshots.sql).
CREATE TABLE snapshots (
    session_id BIGINT  NOT NULL REFERENCES sessions (id),
    number     INTEGER NOT NULL,
    state      TEXT    NOT NULL,
    PRIMARY KEY (session_id, number)
);
