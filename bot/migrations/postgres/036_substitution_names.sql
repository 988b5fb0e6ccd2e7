-- The name the seat had when it was handed to a substitute, so that the moves before the
-- handover are named after whoever made them (bot.holders) even when that person is not one of
-- the league's players (a substitute replaced in turn).  A handover stored before this column
-- takes the name its league knows the original player by.
ALTER TABLE league_substitutions ADD COLUMN original_name TEXT;
UPDATE league_substitutions SET original_name = (
    SELECT p.display_name FROM league_games g JOIN league_players p
    ON p.league_id = g.league_id AND p.user_id = league_substitutions.original_id
    WHERE g.id = league_substitutions.game_id
);
