-- The computer player's level per seat: 'easy', 'normal' or 'strong' for a seat
-- the computer was given from the start; NULL for a person (and for a seat the
-- computer took over from a person, which plays at the normal level).
ALTER TABLE seats ADD COLUMN computer_level TEXT;
