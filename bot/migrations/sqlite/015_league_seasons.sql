-- A league is a rating season: every rated game of a league also counts into a table of its
-- own that starts fresh (the all-time table in ratings keeps counting everything).  A Swiss
-- league can end in a knockout final stage of its top players.
CREATE TABLE season_ratings (
    league_id    INTEGER NOT NULL REFERENCES leagues (id),
    user_id      INTEGER NOT NULL,
    display_name TEXT    NOT NULL,
    mu           REAL    NOT NULL,
    sigma        REAL    NOT NULL,
    games        INTEGER NOT NULL DEFAULT 0,
    wins         INTEGER NOT NULL DEFAULT 0,
    updated_at   TEXT    NOT NULL,
    PRIMARY KEY (league_id, user_id)
);
CREATE INDEX season_ratings_board ON season_ratings (league_id, mu);

ALTER TABLE leagues ADD COLUMN final_top INTEGER;      -- how many players the final stage takes
ALTER TABLE leagues ADD COLUMN final_round INTEGER;    -- the final stage's first round
ALTER TABLE league_players ADD COLUMN final_seed INTEGER; -- 1 = best, fixed when the final opens
