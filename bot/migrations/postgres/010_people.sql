-- Per-person settings (see migrations/sqlite/009_people.sql).
CREATE TABLE people (
    user_id      BIGINT  PRIMARY KEY,
    notify       TEXT    NOT NULL DEFAULT 'thread' CHECK (notify IN ('thread', 'dm', 'both', 'none')),
    remind_hours INTEGER NOT NULL DEFAULT 12,
    time_zone    TEXT    NOT NULL DEFAULT 'UTC',
    quiet_start  INTEGER,
    quiet_end    INTEGER,
    dm_failed    INTEGER NOT NULL DEFAULT 0,
    updated_at   TEXT    NOT NULL
);
CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;
