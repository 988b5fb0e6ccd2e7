"""The count of running games that ``/metrics`` reads at every scrape (``Store.games_running``) is
looked up in an index of the running games on both back ends, not read off every game ever
stored, so a scrape costs the same however long the finished history grows."""

from __future__ import annotations

import sqlite3

COUNT = "SELECT COUNT(*) FROM sessions WHERE status = 'active'"


async def plan(database) -> str:
    """The back end's plan for :data:`COUNT`.  PostgreSQL is told not to read the table whole,
    which it would rather do while the table is as small as a test's: the plan then shows the index
    it can use (or a scan of all, at a cost it was told to avoid)."""
    if database.kind == "sqlite":
        con = sqlite3.connect(database.target)
        try:
            return " ".join(row[3] for row in con.execute(f"EXPLAIN QUERY PLAN {COUNT}"))
        finally:
            con.close()
    import asyncpg

    conn = await asyncpg.connect(database.target)
    try:
        await conn.execute("SET enable_seqscan = off")
        return " ".join(row[0] for row in await conn.fetch(f"EXPLAIN {COUNT}"))
    finally:
        await conn.close()


async def test_the_running_games_are_counted_from_an_index_of_running_games(database, store):
    found = await plan(database)
    if database.kind == "sqlite":
        assert found == "SEARCH sessions USING COVERING INDEX sessions_running (status=?)", found
    else:
        assert "sessions_running" in found, found  # an index (only) scan, or a bitmap of it
    assert await store.games_running() == 0
