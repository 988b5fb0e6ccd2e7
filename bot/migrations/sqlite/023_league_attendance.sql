-- Attendance in Swiss leagues: a check-in window before rounds, byes asked for, pauses and late
-- sign-ups.  league_attendance holds a league's choices (no row: no check-in, a requested bye
-- worth half a bye); league_checkin_windows the window of each round that had one, and
-- league_checkins who checked in for it; league_requests the coming rounds a player asked a bye
-- for or paused.  league_byes says why each bye was given: by the pairing, to a late joiner, on
-- request, for a pause (or time away), or for not checking in.
CREATE TABLE league_attendance (
    league_id       INTEGER PRIMARY KEY REFERENCES leagues (id),
    checkin         TEXT    NOT NULL DEFAULT 'off' CHECK (checkin IN ('off', 'first', 'every')),
    checkin_seconds REAL    NOT NULL,
    requested_bye   TEXT    NOT NULL DEFAULT 'half' CHECK (requested_bye IN ('none', 'half', 'full')),
    updated_at      TEXT    NOT NULL
);

CREATE TABLE league_checkin_windows (
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    round     INTEGER NOT NULL,
    opened_at REAL    NOT NULL,
    closes_at REAL    NOT NULL,
    PRIMARY KEY (league_id, round)
);

CREATE TABLE league_checkins (
    league_id  INTEGER NOT NULL REFERENCES leagues (id),
    round      INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    checked_at REAL    NOT NULL,
    PRIMARY KEY (league_id, round, user_id)
);

CREATE TABLE league_requests (
    league_id  INTEGER NOT NULL REFERENCES leagues (id),
    round      INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('bye', 'pause')),
    created_at TEXT    NOT NULL,
    PRIMARY KEY (league_id, round, user_id)
);

ALTER TABLE league_byes ADD COLUMN kind TEXT NOT NULL DEFAULT 'pairing'
    CHECK (kind IN ('pairing', 'late', 'requested', 'pause', 'absent'));
