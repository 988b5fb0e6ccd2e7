-- Fewer waits and following (bot/storage/waits.py).
-- A person's choices: their only legal move played for them after a short delay (/me autoplay),
-- and the hour of the day, in their time zone, when their reminder digest comes (/me digest;
-- NULL: every remind_hours hours, as /me notify says).
CREATE TABLE wait_settings (
    user_id     INTEGER PRIMARY KEY,
    autoplay    INTEGER NOT NULL DEFAULT 0,
    digest_hour INTEGER CHECK (digest_hour BETWEEN 0 AND 23),
    updated_at  TEXT NOT NULL
);

-- A pass declared ahead (/play pass-ahead): played when the seat's next turn comes straight after
-- the turn being played when it was declared; dropped when any other turn changes the board.
CREATE TABLE passes_ahead (
    session_id INTEGER NOT NULL REFERENCES sessions (id),
    seat       INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    version    INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (session_id, seat)
);

-- People who get a game's public turn posts by direct message (/play watch).
CREATE TABLE watchers (
    session_id INTEGER NOT NULL REFERENCES sessions (id),
    user_id    INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (session_id, user_id)
);

-- Who follows whom (/me follow): told when the person followed starts a game in a shared server.
CREATE TABLE follows (
    follower_id INTEGER NOT NULL,
    followed_id INTEGER NOT NULL,
    created_at  TEXT NOT NULL,
    PRIMARY KEY (follower_id, followed_id)
);
CREATE INDEX follows_by_followed ON follows (followed_id);

-- The games whose start the followers were told of (each once).
CREATE TABLE starts_told (
    session_id INTEGER PRIMARY KEY REFERENCES sessions (id),
    told_at    TEXT NOT NULL
);

-- A league that lets its players' only legal moves be played for them (off when no row).
CREATE TABLE league_autoplay (
    league_id  INTEGER PRIMARY KEY REFERENCES leagues (id),
    allowed    INTEGER NOT NULL,
    updated_at TEXT NOT NULL
);

-- The turn each seat was last warned of at 80 % of its clock (the turn's start, as the running
-- clocks keep it), so a turn is warned of once.
CREATE TABLE clock_warnings (
    session_id INTEGER NOT NULL REFERENCES sessions (id),
    seat       INTEGER NOT NULL,
    since      REAL    NOT NULL,
    PRIMARY KEY (session_id, seat)
);
