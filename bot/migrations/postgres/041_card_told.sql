-- A finished game's results card is marked posted (end_told 2) once Discord took it, and a card
-- not marked is posted by the board job's try or at the next start.  A game whose end was told
-- before this upgrade had its card posted (or given up) then: it is not posted again.
UPDATE sessions SET end_told = 2 WHERE status = 'finished' AND end_told = 1;
