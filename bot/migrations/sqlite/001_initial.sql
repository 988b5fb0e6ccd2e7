-- Sessions: one game in one channel or thread.
CREATE TABLE sessions (
    id            INTEGER PRIMARY KEY,
    game          TEXT    NOT NULL,
    guild_id      INTEGER,
    channel_id    INTEGER NOT NULL,
    host_id       INTEGER NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    options       TEXT    NOT NULL,            -- JSON of the game's Config options
    max_players   INTEGER NOT NULL,
    seed          INTEGER NOT NULL,
    state         TEXT,                         -- JSON snapshot of the engine state
    version       INTEGER NOT NULL DEFAULT 0,   -- bumped by every accepted change
    lobby_message_id INTEGER,
    outcome       TEXT,                         -- JSON of the engine's Outcome, or the table's
    end_reason    TEXT,
    created_at    TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL,
    finished_at   TEXT
);

-- At most one live game per channel or thread.
CREATE UNIQUE INDEX sessions_one_live_per_channel
    ON sessions (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX sessions_by_guild ON sessions (guild_id, status);

CREATE TABLE seats (
    session_id   INTEGER NOT NULL REFERENCES sessions (id),
    join_order   INTEGER NOT NULL,
    seat         INTEGER,                       -- engine seat, set at start
    user_id      INTEGER,                       -- NULL for a computer player
    display_name TEXT    NOT NULL,
    is_computer  INTEGER NOT NULL DEFAULT 0,    -- 1 while the computer plays this seat
    resigned     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (session_id, join_order)
);
CREATE UNIQUE INDEX seats_one_per_user ON seats (session_id, user_id) WHERE user_id IS NOT NULL;

-- The append-only move log: replaying it from the seed reproduces the state.
CREATE TABLE moves (
    session_id  INTEGER NOT NULL REFERENCES sessions (id),
    number      INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    move        TEXT    NOT NULL,
    by_computer INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (session_id, number)
);
CREATE TRIGGER moves_are_not_updated BEFORE UPDATE ON moves
BEGIN
    SELECT RAISE(ABORT, 'the move log is append-only');
END;
CREATE TRIGGER moves_are_not_deleted BEFORE DELETE ON moves
BEGIN
    SELECT RAISE(ABORT, 'the move log is append-only');
END;

CREATE TABLE results (
    session_id INTEGER NOT NULL REFERENCES sessions (id),
    seat       INTEGER NOT NULL,
    user_id    INTEGER,
    score      REAL,
    place      INTEGER NOT NULL,
    resigned   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (session_id, seat)
);
CREATE INDEX results_by_user ON results (user_id);
