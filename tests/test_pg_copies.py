"""The tests' PostgreSQL databases (tests/support/pg.py, ``Copies``): a copy handed back is the
template's again for the next test, or dropped when its make-up changed."""

from __future__ import annotations

import asyncpg
import pytest

from tests.support.pg import Copies

SESSION = (
    "INSERT INTO sessions (game, channel_id, host_id, status, options, max_players, seed, "
    "created_at, updated_at) VALUES ('nim', 7, 1, 'active', '{}', 2, 3, 'now', 'now') RETURNING id"
)
MOVE = "INSERT INTO moves (session_id, number, seat, move, created_at) VALUES ($1, 1, 0, 'take', 'now')"


async def contents(url: str) -> dict[str, object]:
    """Every row of every table, and the id the next game would get."""
    conn = await asyncpg.connect(url)
    try:
        tables = [
            t for (t,) in await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        ]
        out: dict[str, object] = {
            t: sorted(map(tuple, await conn.fetch(f'SELECT * FROM "{t}"'))) for t in tables
        }
        transaction = conn.transaction()
        await transaction.start()
        out["next session id"] = await conn.fetchval(SESSION)  # the identity moves on all the same
        await transaction.rollback()
        return out
    finally:
        await conn.close()


@pytest.fixture
async def copies(pg_cluster, pg_template):
    return Copies(pg_cluster, pg_template)


async def write(url: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        session = await conn.fetchval(SESSION)
        await conn.execute(MOVE, session)
        await conn.fetchval(SESSION.replace("7, 1, 'active'", "8, 1, 'lobby'"))
    finally:
        await conn.close()


async def test_a_copy_handed_back_is_the_templates_again(copies):
    first = await copies.take()
    fresh = await contents(copies.cluster.url(first))
    await write(copies.cluster.url(first))
    leaked = await asyncpg.connect(copies.cluster.url(first))  # a test that forgot to close one
    await copies.give_back(first)
    assert leaked.is_closed() or not await _alive(leaked)
    again = await copies.take()
    assert again == first  # the same database, made the template's again
    assert await contents(copies.cluster.url(again)) == fresh
    assert await _refuses_to_delete_a_move(copies.cluster.url(again))  # the move log's triggers are on
    await copies.give_back(again)


async def _alive(conn) -> bool:
    try:
        await conn.fetchval("SELECT 1")
        return True
    except (asyncpg.PostgresError, asyncpg.InterfaceError, ConnectionError):
        return False


async def _refuses_to_delete_a_move(url: str) -> bool:
    conn = await asyncpg.connect(url)
    try:
        session = await conn.fetchval(SESSION)
        await conn.execute(MOVE, session)
        try:
            await conn.execute("DELETE FROM moves")
        except asyncpg.IntegrityConstraintViolationError:
            return True
        return False
    finally:
        await conn.close()


@pytest.mark.parametrize(
    "change",
    [
        "ALTER TABLE moves DISABLE TRIGGER moves_are_not_deleted",
        "ALTER TABLE sessions ADD COLUMN extra TEXT",
        "ALTER TABLE sessions ALTER COLUMN version SET DEFAULT 5",
        "DROP INDEX sessions_by_guild",
        "CREATE TABLE extra (id INTEGER)",
        "CREATE SCHEMA other",
        "CREATE FUNCTION extra() RETURNS integer LANGUAGE sql AS 'SELECT 1'",
        "ALTER DATABASE {name} SET work_mem = '8MB'",
    ],
)
async def test_a_copy_whose_make_up_changed_is_dropped(copies, change):
    name = await copies.take()
    conn = await asyncpg.connect(copies.cluster.url(name))
    try:
        await conn.execute(change.format(name=name))
    finally:
        await conn.close()
    await copies.give_back(name)
    assert copies.spare == []
    other = await copies.take()
    assert other != name
    conn = await asyncpg.connect(copies.cluster.url())
    try:
        assert await conn.fetchval("SELECT count(*) FROM pg_database WHERE datname = $1", name) == 0
    finally:
        await conn.close()
    await copies.give_back(other)
