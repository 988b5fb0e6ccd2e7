-- Ratings per server and game (see migrations/sqlite/003_ratings.sql).
CREATE TABLE ratings (
    guild_id     BIGINT  NOT NULL,
    game         TEXT    NOT NULL,
    user_id      BIGINT  NOT NULL,
    display_name TEXT    NOT NULL,
    mu           DOUBLE PRECISION NOT NULL,
    sigma        DOUBLE PRECISION NOT NULL,
    games        INTEGER NOT NULL DEFAULT 0,
    wins         INTEGER NOT NULL DEFAULT 0,
    updated_at   TEXT    NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
);
CREATE INDEX ratings_board ON ratings (guild_id, game, mu);
ALTER TABLE sessions ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
