"""Storage on real SQLite files: migrations, refusals, the append-only log."""

from __future__ import annotations

import sqlite3

import pytest

from bot.storage import SCHEMA_VERSION, StaleVersion, StorageError, Store
from tests.table.util import open_lobbies


async def test_migrations_from_an_empty_database(db_path):
    """An empty file gets every migration, recorded, in WAL mode with foreign keys on."""
    store = await Store.open(db_path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
    finally:
        await store.close()
    con = sqlite3.connect(db_path)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"sessions", "seats", "moves", "results", "schema_migrations"} <= tables
    applied = [r[0] for r in con.execute("SELECT version FROM schema_migrations ORDER BY version")]
    assert applied == list(range(1, SCHEMA_VERSION + 1))
    con.close()


async def test_reopening_applies_nothing_twice(db_path):
    """Opening an up-to-date database changes nothing."""
    for _ in range(3):
        store = await Store.open(db_path)
        await store.close()
    con = sqlite3.connect(db_path)
    assert con.execute("SELECT COUNT(*) FROM schema_migrations").fetchone()[0] == SCHEMA_VERSION
    con.close()


async def test_newer_database_is_refused(db_path):
    """A database written by newer code is refused with a clear message."""
    store = await Store.open(db_path)
    await store.close()
    con = sqlite3.connect(db_path)
    con.execute("INSERT INTO schema_migrations VALUES (?, 'future', 'x')", (SCHEMA_VERSION + 1,))
    con.commit()
    con.close()
    with pytest.raises(StorageError, match="newer Pukllay"):
        await Store.open(db_path)


async def test_corrupted_file_is_refused(db_path):
    """A file that is not a database is refused with a message naming the file."""
    db_path.write_bytes(b"this is not sqlite at all" * 200)
    with pytest.raises(StorageError, match="not a Pukllay database or is damaged") as info:
        await Store.open(db_path)
    assert str(db_path) in str(info.value)


async def test_damaged_database_is_refused(db_path):
    """A database whose pages were overwritten fails the check and is refused."""
    store = await Store.open(db_path)
    await open_lobbies(store, 40)
    await store.close()
    con = sqlite3.connect(db_path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    data = bytearray(db_path.read_bytes())
    page = 4096
    for p in range(1, len(data) // page):
        data[p * page + 8 : p * page + 400] = b"\xff" * 392
    db_path.write_bytes(bytes(data))
    with pytest.raises(StorageError):
        await Store.open(db_path)


async def test_move_log_is_append_only(db_path):
    """Moves cannot be updated or deleted, even by hand."""
    store = await Store.open(db_path)
    sid = await store.create_session(
        game="nim", guild_id=1, channel_id=5, host_id=1, host_name="a", options={}, max_players=2, seed=1
    )
    version = await store.start(sid, {0: 0}, {}, {"x": 1})
    await store.record_moves(sid, version, [(0, "A1", False)], {"x": 2})
    await store.close()
    con = sqlite3.connect(db_path)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        con.execute("UPDATE moves SET move = 'B2'")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        con.execute("DELETE FROM moves")
    con.close()


async def test_stale_version_writes_nothing(db_path):
    """A write at an old version is refused and leaves log and snapshot as they were."""
    store = await Store.open(db_path)
    try:
        sid = await store.create_session(
            game="nim", guild_id=1, channel_id=5, host_id=1, host_name="a", options={}, max_players=2, seed=1
        )
        v = await store.start(sid, {0: 0}, {}, {"n": 0})
        v2 = await store.record_moves(sid, v, [(0, "A1", False)], {"n": 1})
        with pytest.raises(StaleVersion):
            await store.record_moves(sid, v, [(0, "A2", False)], {"n": 99})
        row = await store.session(sid)
        assert row.version == v2 and row.state == {"n": 1}
        assert [m.move for m in await store.moves(sid)] == ["A1"]
    finally:
        await store.close()
