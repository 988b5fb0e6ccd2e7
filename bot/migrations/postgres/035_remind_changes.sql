-- Each change of a person's reminder interval (/me notify reminders:), with when it was made: in a
-- game without a clock a turn is on time when it took no longer than the interval its person had
-- when it started (bot.profiles), not the one they chose later.  A person's first change also
-- keeps the interval they had before it, from time 0; a person with no row here has never
-- changed theirs since this table was made, and their setting in people holds for every turn.
CREATE TABLE remind_changes (
    user_id BIGINT NOT NULL,
    since   DOUBLE PRECISION NOT NULL,
    hours   INTEGER NOT NULL,
    PRIMARY KEY (user_id, since)
);
