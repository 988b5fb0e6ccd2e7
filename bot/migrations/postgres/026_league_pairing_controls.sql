-- What an organiser decides about a league's pairing and ranking
-- (see migrations/sqlite/026_league_pairing_controls.sql); ids are BIGINT.
ALTER TABLE leagues ADD COLUMN tiebreaks TEXT;
ALTER TABLE leagues ADD COLUMN review INTEGER NOT NULL DEFAULT 0;

CREATE TABLE league_forbidden (
    league_id BIGINT NOT NULL REFERENCES leagues (id),
    low       BIGINT NOT NULL,
    high      BIGINT NOT NULL,
    CHECK (low < high),
    PRIMARY KEY (league_id, low, high)
);

CREATE TABLE league_fixed (
    league_id BIGINT  NOT NULL REFERENCES leagues (id),
    round     INTEGER NOT NULL,
    user_id   BIGINT  NOT NULL,
    tab       INTEGER NOT NULL,
    position  INTEGER NOT NULL,
    PRIMARY KEY (league_id, round, user_id)
);

CREATE TABLE league_drafts (
    league_id BIGINT  NOT NULL REFERENCES leagues (id),
    round     INTEGER NOT NULL,
    groups    TEXT    NOT NULL,
    byes      TEXT    NOT NULL,
    PRIMARY KEY (league_id, round)
);
