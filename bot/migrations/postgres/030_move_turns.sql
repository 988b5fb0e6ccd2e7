-- Each move's turn (see migrations/sqlite/030_move_turns.sql): NULL on rows written before.
ALTER TABLE moves ADD COLUMN turn INTEGER;

-- The move commit of migrations/postgres/006_jobs.sql, with each move's turn (p_turns) written
-- into the log with it; still one statement per commit.
DROP FUNCTION pukllay_record_moves(
    BIGINT, BIGINT, INTEGER[], TEXT[], INTEGER[], TEXT[], TEXT[], TEXT, TEXT, DOUBLE PRECISION, BIGINT, TEXT
);
CREATE FUNCTION pukllay_record_moves(
    p_session BIGINT, p_expected BIGINT,
    p_seats INTEGER[], p_moves TEXT[], p_by_computer INTEGER[], p_events TEXT[], p_privacy TEXT[],
    p_turns INTEGER[],
    p_state TEXT, p_stamp TEXT, p_now DOUBLE PRECISION, p_job BIGINT, p_claim TEXT,
    OUT o_accepted BOOLEAN, OUT o_version BIGINT
) LANGUAGE plpgsql AS $$
DECLARE
    timer DOUBLE PRECISION;
BEGIN
    o_accepted := FALSE;
    o_version := p_expected + cardinality(p_moves);
    UPDATE sessions s SET state = p_state, version = o_version, updated_at = p_stamp
        WHERE s.id = p_session AND s.version = p_expected AND s.status = 'active'
        RETURNING s.timer_seconds INTO timer;
    IF NOT FOUND THEN
        SELECT s.version INTO o_version FROM sessions s WHERE s.id = p_session;
        o_version := COALESCE(o_version, -1);
        RETURN;
    END IF;
    IF p_job IS NOT NULL THEN
        DELETE FROM jobs j WHERE j.id = p_job AND j.claim = p_claim;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'stale deadline' USING ERRCODE = 'P0001';
        END IF;
    END IF;
    INSERT INTO moves (session_id, number, seat, move, by_computer, created_at, events, privacy, turn)
        SELECT p_session, COALESCE((SELECT MAX(m.number) FROM moves m WHERE m.session_id = p_session), 0) + i,
               p_seats[i], p_moves[i], p_by_computer[i], p_stamp, p_events[i], p_privacy[i], p_turns[i]
        FROM generate_subscripts(p_moves, 1) AS i;
    IF timer IS NOT NULL THEN
        INSERT INTO jobs (kind, key, due_at, payload, created_at)
            VALUES ('deadline', p_session::text, p_now + timer, json_build_object('version', o_version)::text, p_stamp)
            ON CONFLICT (kind, key) DO UPDATE SET due_at = excluded.due_at, payload = excluded.payload,
                claimed_by = NULL, claim = NULL, claimed_until = NULL, attempts = 0;
    END IF;
    o_accepted := TRUE;
END
$$;
