-- What an organiser decides about a league's pairing and ranking.
--   leagues.tiebreaks: the tiebreak order after points (a JSON list of names from
--     bot/league/tiebreaks.py); NULL: the default order (Buchholz, head to head, rating).
--   leagues.review: 1 when each Swiss round is shown to the organiser before it is published.
ALTER TABLE leagues ADD COLUMN tiebreaks TEXT;
ALTER TABLE leagues ADD COLUMN review INTEGER NOT NULL DEFAULT 0;

-- Pairs of players who must never be paired together (low < high: one row per pair).
CREATE TABLE league_forbidden (
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    low       INTEGER NOT NULL,
    high      INTEGER NOT NULL,
    CHECK (low < high),
    PRIMARY KEY (league_id, low, high)
);

-- Tables the organiser fixed for a coming round: each player once per round; ``tab`` groups a
-- table's players, ``position`` is their seat (0 moves first).
CREATE TABLE league_fixed (
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    round     INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    tab       INTEGER NOT NULL,
    position  INTEGER NOT NULL,
    PRIMARY KEY (league_id, round, user_id)
);

-- A round paired and waiting for the organiser's review (groups and byes as JSON lists of user
-- ids); removed when the round is published.
CREATE TABLE league_drafts (
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    round     INTEGER NOT NULL,
    groups    TEXT    NOT NULL,
    byes      TEXT    NOT NULL,
    PRIMARY KEY (league_id, round)
);
