-- Every time away a person took (/me away; /me back moves its end to when they came back), kept
-- after their settings move on to the next one: a turn's time to move in the profiles leaves it
-- out, as the game clocks do.  The time away in people's settings now is the first of them.
CREATE TABLE away_periods (
    user_id BIGINT NOT NULL,
    since   DOUBLE PRECISION NOT NULL,
    until   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, since)
);
INSERT INTO away_periods (user_id, since, until)
    SELECT user_id, away_since, away_until FROM people
    WHERE away_since IS NOT NULL AND away_until IS NOT NULL;
-- The games of those people are read again for their turns, without the time away.
DELETE FROM turns_read WHERE session_id IN (
    SELECT session_id FROM seats WHERE user_id IN (SELECT user_id FROM away_periods)
);
