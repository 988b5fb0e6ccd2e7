-- Per-server settings of the table: the language of its public messages and board images,
-- chosen with /game language (NULL: the server's own Discord language).
CREATE TABLE server_settings (
    guild_id   BIGINT PRIMARY KEY,
    language   TEXT,
    updated_at TEXT NOT NULL
);
