-- The queue that forms games (/queue): each server's queue channel, the people each person
-- avoids (the same in every server), who waits for what, and the tables formed from the queue
-- until they start (or their people are returned to the queue).
CREATE TABLE queue_settings (
    guild_id   INTEGER PRIMARY KEY,
    channel_id INTEGER,                          -- where the queue opens its tables (NULL: not set)
    updated_at TEXT    NOT NULL
);

CREATE TABLE queue_avoid (
    user_id    INTEGER NOT NULL,
    avoided_id INTEGER NOT NULL,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (user_id, avoided_id)
);

CREATE TABLE queue_tables (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    size       INTEGER NOT NULL,
    pace       TEXT    NOT NULL,
    rated      TEXT    NOT NULL,
    channel_id INTEGER,                          -- the game's thread, once opened
    session_id INTEGER REFERENCES sessions (id),
    message_id INTEGER,                          -- the message holding the Confirm button
    confirm_by REAL    NOT NULL,                 -- seconds since the epoch
    status     TEXT    NOT NULL CHECK (status IN ('confirming', 'started', 'returned')),
    created_at TEXT    NOT NULL
);

CREATE TABLE queue_entries (
    id         INTEGER PRIMARY KEY,              -- the order people came in, after joined_at
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    game       TEXT    NOT NULL,
    counts     TEXT    NOT NULL,                 -- the player counts accepted, as "2,3,4"
    pace       TEXT    NOT NULL CHECK (pace IN ('live', 'daily', 'any')),
    computers  INTEGER NOT NULL,
    rated      TEXT    NOT NULL CHECK (rated IN ('rated', 'unrated', 'any')),
    at_once    INTEGER NOT NULL,                 -- 1: start at once; 0: start when all confirm
    joined_at  REAL    NOT NULL,
    expires_at REAL    NOT NULL,
    table_id   INTEGER REFERENCES queue_tables (id), -- the table being confirmed (NULL: waiting)
    confirmed  INTEGER NOT NULL DEFAULT 0,
    UNIQUE (guild_id, user_id)
);
CREATE INDEX queue_entries_by_table ON queue_entries (table_id);

-- A game formed by the queue of people who all chose unrated is not rated.
ALTER TABLE sessions ADD COLUMN unrated INTEGER NOT NULL DEFAULT 0;
