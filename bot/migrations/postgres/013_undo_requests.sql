-- A pending request to take back moves by consent
-- (see migrations/sqlite/009_undo_requests.sql).
CREATE TABLE undo_requests (
    session_id BIGINT  PRIMARY KEY REFERENCES sessions (id),
    version    INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    target     INTEGER NOT NULL,
    waiting    TEXT    NOT NULL,
    message_id BIGINT,
    created_at TEXT    NOT NULL
);
