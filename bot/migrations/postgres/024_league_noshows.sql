-- No-shows in leagues (see migrations/sqlite/024_league_noshows.sql).
CREATE TABLE league_noshow_rules (
    league_id  BIGINT  PRIMARY KEY REFERENCES leagues (id),
    action     TEXT    NOT NULL DEFAULT 'computer' CHECK (action IN ('computer', 'forfeit', 'score')),
    drop_after INTEGER NOT NULL DEFAULT 2 CHECK (drop_after BETWEEN 0 AND 30),
    credit     TEXT    NOT NULL DEFAULT 'original' CHECK (credit IN ('original', 'substitute', 'nobody'))
);

CREATE TABLE league_noshows (
    league_id BIGINT  NOT NULL REFERENCES leagues (id),
    game_id   BIGINT  NOT NULL REFERENCES league_games (id),
    user_id   BIGINT  NOT NULL,
    round     INTEGER NOT NULL,
    action    TEXT    NOT NULL,
    at        DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX league_noshows_by_league ON league_noshows (league_id, user_id);

CREATE TABLE league_substitutes (
    league_id    BIGINT  NOT NULL REFERENCES leagues (id),
    user_id      BIGINT  NOT NULL,
    display_name TEXT    NOT NULL,
    added_at     DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (league_id, user_id)
);

CREATE TABLE league_substitutions (
    game_id       BIGINT  NOT NULL REFERENCES league_games (id),
    original_id   BIGINT  NOT NULL,
    substitute_id BIGINT  NOT NULL,
    credit        TEXT    NOT NULL,
    at            DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, original_id)
);
