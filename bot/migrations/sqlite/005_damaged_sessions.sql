-- A session the table could not load or run (its saved state is unreadable,
-- or the engine failed on it) is marked damaged with the reason and the time,
-- once; the table then skips it (deadlines, menus) and lists it as damaged
-- until someone abandons it.  Every other game keeps being served.
ALTER TABLE sessions ADD COLUMN damaged TEXT;
ALTER TABLE sessions ADD COLUMN damaged_at TEXT;
