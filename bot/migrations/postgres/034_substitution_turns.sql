-- Where in its game's log a seat was handed to a substitute, so that each person's turns there are
-- their own (bot.profiles): ``seat`` is the engine seat handed over, ``moves_before`` how many
-- moves the log held then (the moves up to it were the original player's, the later ones the
-- substitute's), and ``resigned_after`` the original's resignation as the seat held it (NULL: they
-- had not resigned; the computer's moves for the seat after it were nobody's turns).  A handover
-- stored before this migration has none of them: its place in the log is read from its time.
ALTER TABLE league_substitutions ADD COLUMN seat INTEGER;
ALTER TABLE league_substitutions ADD COLUMN moves_before INTEGER;
ALTER TABLE league_substitutions ADD COLUMN resigned_after INTEGER;
