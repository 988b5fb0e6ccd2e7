-- The turn timer became a kind of game clock (`timer:<time>`, see bot/time/gameclock.py): a
-- lobby or running game that has a timer and no clock gets the timer's clock, in whole seconds
-- (at least one).  Its deadline job stays as it is; when it falls, the computer moves once for
-- whoever the game waits on, as the timer did, and the clock runs from that move on.
UPDATE sessions SET timer_seconds = MAX(1, ROUND(timer_seconds))
WHERE clock IS NULL AND timer_seconds > 0 AND status IN ('lobby', 'active');

UPDATE sessions SET clock = 'timer:'
    || CASE WHEN CAST(timer_seconds AS INTEGER) / 86400 > 0 THEN (CAST(timer_seconds AS INTEGER) / 86400) || 'd' ELSE '' END
    || CASE WHEN CAST(timer_seconds AS INTEGER) % 86400 / 3600 > 0 THEN (CAST(timer_seconds AS INTEGER) % 86400 / 3600) || 'h' ELSE '' END
    || CASE WHEN CAST(timer_seconds AS INTEGER) % 3600 / 60 > 0 THEN (CAST(timer_seconds AS INTEGER) % 3600 / 60) || 'm' ELSE '' END
    || CASE WHEN CAST(timer_seconds AS INTEGER) % 60 > 0 THEN (CAST(timer_seconds AS INTEGER) % 60) || 's' ELSE '' END
WHERE clock IS NULL AND timer_seconds > 0 AND status IN ('lobby', 'active');
