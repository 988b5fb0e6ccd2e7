-- The turn timer became a kind of game clock (see migrations/sqlite/022_timer_clocks.sql).
UPDATE sessions SET timer_seconds = GREATEST(1, ROUND(timer_seconds))
WHERE clock IS NULL AND timer_seconds > 0 AND status IN ('lobby', 'active');

UPDATE sessions SET clock = 'timer:'
    || CASE WHEN timer_seconds::bigint / 86400 > 0 THEN (timer_seconds::bigint / 86400)::text || 'd' ELSE '' END
    || CASE WHEN timer_seconds::bigint % 86400 / 3600 > 0 THEN (timer_seconds::bigint % 86400 / 3600)::text || 'h' ELSE '' END
    || CASE WHEN timer_seconds::bigint % 3600 / 60 > 0 THEN (timer_seconds::bigint % 3600 / 60)::text || 'm' ELSE '' END
    || CASE WHEN timer_seconds::bigint % 60 > 0 THEN (timer_seconds::bigint % 60)::text || 's' ELSE '' END
WHERE clock IS NULL AND timer_seconds > 0 AND status IN ('lobby', 'active');
