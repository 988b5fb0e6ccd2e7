-- Community leagues: a season of one game on one server.  Players sign up, rounds
-- are opened by the scheduler (jobs of kind 'league_round'), each round's games
-- are sessions, and each finished game's places and league points are written in
-- the transaction that records the game's result.
CREATE TABLE leagues (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,              -- where the league posts
    organiser_id  INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    game          TEXT    NOT NULL,
    format        TEXT    NOT NULL CHECK (format IN ('swiss', 'round_robin', 'elimination')),
    group_size    INTEGER NOT NULL CHECK (group_size BETWEEN 2 AND 6),
    options       TEXT    NOT NULL DEFAULT '{}', -- the games' options (JSON)
    points        TEXT    NOT NULL,              -- league points per place (JSON list)
    bye_points    REAL    NOT NULL,
    round_seconds REAL    NOT NULL,
    rounds        INTEGER NOT NULL,              -- planned rounds (0: as many as the format needs)
    timer_seconds REAL,                          -- the per-move timer of the games
    starts_at     REAL    NOT NULL,              -- seconds since the epoch
    status        TEXT    NOT NULL CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    current_round INTEGER NOT NULL DEFAULT 0,
    seed          INTEGER NOT NULL,
    signup_message_id INTEGER,
    champion_id   INTEGER,
    created_at    TEXT    NOT NULL,
    finished_at   TEXT
);
CREATE UNIQUE INDEX leagues_live_name ON leagues (guild_id, name) WHERE status IN ('signup', 'running');
CREATE INDEX leagues_by_guild ON leagues (guild_id, status);

CREATE TABLE league_players (
    league_id     INTEGER NOT NULL REFERENCES leagues (id),
    user_id       INTEGER NOT NULL,
    display_name  TEXT    NOT NULL,
    joined_at     TEXT    NOT NULL,
    dropped_round INTEGER,                       -- the round in which the organiser dropped them
    seed          INTEGER,                       -- 1 = best, fixed at the start (rating, then sign-up order)
    PRIMARY KEY (league_id, user_id)
);

CREATE TABLE league_rounds (
    league_id   INTEGER NOT NULL REFERENCES leagues (id),
    number      INTEGER NOT NULL,
    opened_at   TEXT    NOT NULL,
    deadline_at REAL    NOT NULL,
    closed_at   TEXT,
    PRIMARY KEY (league_id, number)
);

-- One game of a round: its table number, the session that plays it (once opened)
-- and its state.  A game whose session ended records each player's place in
-- league_seats.
CREATE TABLE league_games (
    id         INTEGER PRIMARY KEY,
    league_id  INTEGER NOT NULL REFERENCES leagues (id),
    round      INTEGER NOT NULL,
    table_no   INTEGER NOT NULL,
    session_id INTEGER REFERENCES sessions (id),
    status     TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'playing', 'finished')),
    UNIQUE (league_id, round, table_no)
);
CREATE UNIQUE INDEX league_games_by_session ON league_games (session_id) WHERE session_id IS NOT NULL;

CREATE TABLE league_seats (
    game_id  INTEGER NOT NULL REFERENCES league_games (id),
    user_id  INTEGER NOT NULL,
    position INTEGER NOT NULL,                   -- order in the pairing (best standing first)
    place    INTEGER,
    points   REAL,
    forfeit  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, user_id)
);

CREATE TABLE league_byes (
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    round     INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    points    REAL    NOT NULL,
    PRIMARY KEY (league_id, round, user_id)
);

-- Per server: the role that may run leagues besides those with Manage Server.
CREATE TABLE league_settings (
    guild_id         INTEGER PRIMARY KEY,
    organiser_role_id INTEGER,
    updated_at       TEXT NOT NULL
);
