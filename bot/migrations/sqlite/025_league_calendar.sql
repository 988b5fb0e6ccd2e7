-- Leagues on Discord's calendar: each round's scheduled event, a league's forum (one post per
-- table, tagged waiting / playing / done), and the permission notices the organiser got once.
CREATE TABLE league_events (
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    round     INTEGER NOT NULL,
    event_id  INTEGER NOT NULL,                  -- the guild scheduled event of the round
    PRIMARY KEY (league_id, round)
);

CREATE TABLE league_forums (
    league_id  INTEGER PRIMARY KEY REFERENCES leagues (id),
    forum_id   INTEGER NOT NULL,                 -- the forum channel its tables are posted in
    updated_at TEXT   NOT NULL
);

CREATE TABLE league_posts (
    post_id   INTEGER PRIMARY KEY,               -- the forum post (a thread) of one table's game
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    forum_id  INTEGER NOT NULL,                 -- the forum it is in
    tag       TEXT    NOT NULL CHECK (tag IN ('waiting', 'playing', 'done'))
);

CREATE TABLE league_told (
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    what      TEXT    NOT NULL,              -- e.g. 'events:Create Events'
    told_at   TEXT    NOT NULL,
    PRIMARY KEY (league_id, what)
);
