-- Ratings per server and game (OpenSkill, Plackett-Luce), updated in the
-- transaction that records a finished game's results.
CREATE TABLE ratings (
    guild_id     INTEGER NOT NULL,
    game         TEXT    NOT NULL,
    user_id      INTEGER NOT NULL,
    display_name TEXT    NOT NULL,
    mu           REAL    NOT NULL,
    sigma        REAL    NOT NULL,
    games        INTEGER NOT NULL DEFAULT 0,
    wins         INTEGER NOT NULL DEFAULT 0,
    updated_at   TEXT    NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
);
CREATE INDEX ratings_board ON ratings (guild_id, game, mu);
ALTER TABLE sessions ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
