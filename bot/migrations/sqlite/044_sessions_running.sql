-- The games running (started, not ended), found without reading every game ever stored: the
-- count /metrics reads at each scrape (pukllay_games_running).  Only running games are in the
-- index.  Its condition is status = 'active' itself, as SQLite uses a partial index only for a
-- query whose WHERE implies the index's condition (status IN ('lobby', 'active') would not do).
CREATE INDEX sessions_running ON sessions (status) WHERE status = 'active';
