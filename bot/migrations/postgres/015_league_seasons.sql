-- League rating seasons and the Swiss final stage (see migrations/sqlite/015_league_seasons.sql).
CREATE TABLE season_ratings (
    league_id    BIGINT  NOT NULL REFERENCES leagues (id),
    user_id      BIGINT  NOT NULL,
    display_name TEXT    NOT NULL,
    mu           DOUBLE PRECISION NOT NULL,
    sigma        DOUBLE PRECISION NOT NULL,
    games        INTEGER NOT NULL DEFAULT 0,
    wins         INTEGER NOT NULL DEFAULT 0,
    updated_at   TEXT    NOT NULL,
    PRIMARY KEY (league_id, user_id)
);
CREATE INDEX season_ratings_board ON season_ratings (league_id, mu);

ALTER TABLE leagues ADD COLUMN final_top INTEGER;
ALTER TABLE leagues ADD COLUMN final_round INTEGER;
ALTER TABLE league_players ADD COLUMN final_seed INTEGER;
