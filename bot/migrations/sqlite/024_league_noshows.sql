-- No-shows in leagues (bot/league/noshows.py).
-- What a league does at a game's deadline (computer, forfeit or score), after how many no-shows
-- a player is dropped (0: never), and whose result a substitute's play is.  A league without a
-- row uses the defaults (computer, 2, original).
CREATE TABLE league_noshow_rules (
    league_id  INTEGER PRIMARY KEY REFERENCES leagues (id),
    action     TEXT    NOT NULL DEFAULT 'computer' CHECK (action IN ('computer', 'forfeit', 'score')),
    drop_after INTEGER NOT NULL DEFAULT 2 CHECK (drop_after BETWEEN 0 AND 30),
    credit     TEXT    NOT NULL DEFAULT 'original' CHECK (credit IN ('original', 'substitute', 'nobody'))
);

-- One no-show: a person whose turn it was when a game's deadline came (or the organiser decided).
CREATE TABLE league_noshows (
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    game_id   INTEGER NOT NULL REFERENCES league_games (id),
    user_id   INTEGER NOT NULL,
    round     INTEGER NOT NULL,
    action    TEXT    NOT NULL,
    at        REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX league_noshows_by_league ON league_noshows (league_id, user_id);

-- The organiser's list of substitutes, in the order they take seats.
CREATE TABLE league_substitutes (
    league_id    INTEGER NOT NULL REFERENCES leagues (id),
    user_id      INTEGER NOT NULL,
    display_name TEXT    NOT NULL,
    added_at     REAL    NOT NULL,
    PRIMARY KEY (league_id, user_id)
);

-- A seat handed to a substitute: whose league result it is (original, substitute or nobody).
CREATE TABLE league_substitutions (
    game_id       INTEGER NOT NULL REFERENCES league_games (id),
    original_id   INTEGER NOT NULL,
    substitute_id INTEGER NOT NULL,
    credit        TEXT    NOT NULL,
    at            REAL    NOT NULL,
    PRIMARY KEY (game_id, original_id)
);
