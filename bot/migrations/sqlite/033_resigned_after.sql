-- When a seat resigned: the number of moves its game's log held then.  The computer's moves for
-- that seat up to it were turns its person missed (their clock or turn timer ran out, or the
-- computer took the seat after a timeout) and stay counted in their profile; those after it are
-- the computer's own.  A resignation stored before this column has none: every computer move of
-- its seat reads as the computer's own, as before.
ALTER TABLE seats ADD COLUMN resigned_after INTEGER;
