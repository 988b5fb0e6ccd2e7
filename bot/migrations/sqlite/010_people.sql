-- Per-person settings, the same in every server: where turn notices go
-- ('thread': a mention in the game's thread, 'dm', 'both' or 'none'), the
-- reminder interval while it is their turn (hours; 0: no reminders), quiet
-- hours in their time zone (no DMs from quiet_start to quiet_end, local
-- hours 0-23; NULL: none), and whether a DM to them failed since they were
-- last told (they are told once, privately, at their next command).
CREATE TABLE people (
    user_id      INTEGER PRIMARY KEY,
    notify       TEXT    NOT NULL DEFAULT 'thread' CHECK (notify IN ('thread', 'dm', 'both', 'none')),
    remind_hours INTEGER NOT NULL DEFAULT 12,
    time_zone    TEXT    NOT NULL DEFAULT 'UTC',
    quiet_start  INTEGER,
    quiet_end    INTEGER,
    dm_failed    INTEGER NOT NULL DEFAULT 0,
    updated_at   TEXT    NOT NULL
);
CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;
