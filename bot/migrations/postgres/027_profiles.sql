-- Reliability and pace profiles (the PostgreSQL twin of migrations/sqlite/027_profiles.sql).
-- started_at: when the game left its lobby (the first turn's time counts from it).
ALTER TABLE sessions ADD COLUMN started_at TEXT;

-- One row per turn a person had: a run of moves by one seat, from its first move (number).
-- seconds: from the turn's start (the move before, or the game's start) to that first move
-- (NULL when the start is not known); on_time: within the allowed time; missed: the computer
-- played the turn for them (their clock or timer ran out).
CREATE TABLE turns (
    session_id BIGINT  NOT NULL REFERENCES sessions (id),
    number     INTEGER NOT NULL,
    user_id    BIGINT  NOT NULL,
    game       TEXT    NOT NULL,
    seconds    DOUBLE PRECISION,
    on_time    INTEGER NOT NULL,
    missed     INTEGER NOT NULL,
    PRIMARY KEY (session_id, number)
);
-- A person's counts and medians per game, and over all games, are read from these two indexes
-- alone (a median by its position in the index's order).
CREATE INDEX turns_by_user ON turns (user_id, game, missed, seconds, on_time);
CREATE INDEX turns_by_pace ON turns (user_id, missed, seconds, session_id);

-- The session version the turns above were read at: a session whose version moved on is read again.
CREATE TABLE turns_read (
    session_id BIGINT PRIMARY KEY REFERENCES sessions (id),
    version    BIGINT  NOT NULL
);

-- A table's own gate, set by its host (NULL: no requirement of that kind).
CREATE TABLE table_gates (
    session_id  BIGINT PRIMARY KEY REFERENCES sessions (id),
    reliability INTEGER,
    pace        TEXT
);

-- A server's cap on running games per person (NULL: finished games plus 3; 0: none) and its
-- default gate for tables that set none.
CREATE TABLE server_gates (
    guild_id    BIGINT PRIMARY KEY,
    cap         INTEGER,
    reliability INTEGER,
    pace        TEXT,
    updated_at  TEXT NOT NULL
);

-- A league's minimum reliability to sign up.
CREATE TABLE league_gates (
    league_id   BIGINT PRIMARY KEY REFERENCES leagues (id),
    reliability INTEGER NOT NULL
);
