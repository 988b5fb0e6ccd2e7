"""Operating the bot: backups taken while it plays, upgrades with a copy kept and rolled back,
``--check-database`` changing nothing, another program's SQLite file left alone, and what the
bot says about itself at start."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import shutil
import sqlite3
import sys
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from bot.settings import Settings
from bot.storage import SCHEMA_VERSION, StorageError, Store, migrations, open_store
from tests.table.test_database_start import ROOT, one_line, run_bot, shared_dir, unprivileged  # noqa: F401
from tests.table.util import open_lobbies

OLD = 16  # the schema of the "older Pukllay" these tests upgrade


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def listing(folder: Path) -> dict[str, str]:
    """Every file of ``folder`` with its hash: what "changing nothing" is checked against."""
    return {p.name: digest(p) for p in sorted(folder.iterdir()) if p.is_file()}


def old_sqlite(path: Path, schema: int = OLD) -> None:
    """An SQLite database as a Pukllay of ``schema`` left it: migrations 1..schema, one game."""
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA journal_mode = WAL")
    con.execute(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    for number, name, sql in migrations("sqlite")[:schema]:
        con.executescript(
            f"BEGIN;\n{sql}\nINSERT INTO schema_migrations VALUES ({number}, '{name}', 'then');\nCOMMIT;"
        )
    con.execute(
        "INSERT INTO sessions (game, guild_id, channel_id, host_id, status, options, max_players, seed,"
        " created_at, updated_at) VALUES ('nim', 1, 77, 5, 'lobby', '{}', 2, 3, 'then', 'then')"
    )
    con.close()  # the last connection checkpoints: one file, no -wal left


def schema_of(path: Path) -> int:
    con = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    try:
        return con.execute("SELECT MAX(version) FROM schema_migrations").fetchone()[0]
    finally:
        con.close()


def dump(path: Path) -> list[str]:
    con = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    try:
        return list(con.iterdump())
    finally:
        con.close()


# ----------------------------------------------------------------------------- backups


async def play(
    store: Store,
    sessions: list[int],
    acked: list[tuple[int, int]],
    started: dict[int, int],
    enough: asyncio.Event,
    stop: asyncio.Event,
) -> None:
    """Play moves round the ``sessions`` until ``stop``; each move goes into ``acked`` once its commit
    has returned (the bot's acknowledgement); ``enough`` is set after 40 of them.  ``started``: each
    game's version at its start."""
    versions = {}
    for sid in sessions:
        await store.games.add_seat(sid, 5, "a", limit=2)
        versions[sid] = started[sid] = (await store.games.start(sid, {0: 0}, {}, {"n": 0})).version
    numbers = dict.fromkeys(sessions, 0)
    while not stop.is_set():
        for sid in sessions:
            numbers[sid] += 1
            versions[sid] = await store.games.record_moves(
                sid, versions[sid], [(0, f"take {numbers[sid]}", False)], {"n": numbers[sid]}
            )
            acked.append((sid, numbers[sid]))
        if len(acked) >= 40:
            enough.set()


async def test_a_backup_taken_while_moves_are_played_holds_every_acknowledged_move(tmp_path):
    """``python -m bot --backup`` runs while the bot holds the file and moves go on being committed:
    every move acknowledged before the backup began is in the copy, nothing in it was not
    acknowledged, each game's log is whole (1..n, its version counting its moves), and the copy,
    put in place as the database, opens and plays on."""
    db = tmp_path / "pukllay.db"
    store = await open_store(db)
    sessions = await open_lobbies(store, 4)
    acked: list[tuple[int, int]] = []
    started: dict[int, int] = {}
    enough, stop = asyncio.Event(), asyncio.Event()
    player = asyncio.create_task(play(store, sessions, acked, started, enough, stop))
    try:
        await enough.wait()
        before = set(acked)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "--backup", str(tmp_path / "copy.db"),
            cwd=tmp_path, env=env | {"PYTHONPATH": str(ROOT), "DATABASE_PATH": str(db)},
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await proc.communicate()
        after = set(acked)
    finally:
        stop.set()
        await player
        await store.close()
    assert proc.returncode == 0, err.decode()
    assert f"backed up into {tmp_path / 'copy.db'} (schema {SCHEMA_VERSION}; integrity ok)" in out.decode()
    assert not (tmp_path / "copy.db-wal").exists()  # one self-contained file

    restored = tmp_path / "restored" / "pukllay.db"
    restored.parent.mkdir()
    shutil.copyfile(tmp_path / "copy.db", restored)
    con = sqlite3.connect(restored)
    in_copy = set(con.execute("SELECT session_id, number FROM moves").fetchall())
    logs = con.execute("SELECT session_id, MAX(number), COUNT(*) FROM moves GROUP BY session_id").fetchall()
    versions = dict(con.execute("SELECT id, version FROM sessions").fetchall())
    con.close()
    assert before <= in_copy <= after
    for sid, top, count in logs:
        assert top == count and versions[sid] == started[sid] + count  # one version per move
    store = await open_store(restored)
    try:
        sid = sessions[0]
        version = (await store.games.session(sid)).version
        moves = len([m for m in in_copy if m[0] == sid])
        assert (
            await store.games.record_moves(sid, version, [(0, "after the restore", False)], {}) == version + 1
        )
        assert len(await store.history.moves(sid)) == moves + 1
    finally:
        await store.close()


def test_backup_refuses_what_it_cannot_do(tmp_path):
    """No database, an existing target, and PostgreSQL (pg_dump's job) are each one line."""
    proc = run_bot(
        {"DATABASE_PATH": str(tmp_path / "none.db")}, "--backup", str(tmp_path / "b.db"), cwd=tmp_path
    )
    assert proc.returncode == 2 and "no such database file" in one_line(proc)
    assert not (tmp_path / "none.db").exists() and not (tmp_path / "b.db").exists()
    old_sqlite(tmp_path / "p.db")
    (tmp_path / "b.db").write_text("keep me")
    proc = run_bot(
        {"DATABASE_PATH": str(tmp_path / "p.db")}, "--backup", str(tmp_path / "b.db"), cwd=tmp_path
    )
    assert proc.returncode == 2 and "exists already" in one_line(proc)
    assert (tmp_path / "b.db").read_text() == "keep me"
    proc = run_bot({"DATABASE_URL": "postgresql://u:secret@h/db"}, "--backup", "x.dump", cwd=tmp_path)
    line = one_line(proc)
    assert proc.returncode == 2 and "pg_dump" in line and "pg_restore" in line and "secret" not in line


# ----------------------------------------------------------------------------- upgrades


def roll_back(kept: Path, db: Path) -> None:
    """The README's rollback: with the bot stopped, the kept copy replaces the file (and its -wal and -shm)."""
    for extra in ("-wal", "-shm"):
        Path(f"{db}{extra}").unlink(missing_ok=True)
    os.replace(kept, db)


async def test_an_upgrade_keeps_a_copy_that_rolls_it_back(tmp_path):
    """An older SQLite file is copied to pukllay.db.before-017 before it is migrated; the copy holds
    the database exactly as it was; putting it back is the rollback (and the check calls it older)."""
    db = tmp_path / "pukllay.db"
    old_sqlite(db)
    was = dump(db)
    proc = run_bot({"DATABASE_PATH": str(db)}, "--migrate", cwd=tmp_path)
    kept = tmp_path / f"pukllay.db.before-{OLD + 1:03d}"
    assert proc.returncode == 0, proc.stderr
    assert f"upgraded from schema {OLD} to {SCHEMA_VERSION}" in proc.stdout and str(kept) in proc.stdout
    assert schema_of(db) == SCHEMA_VERSION and kept.is_file()
    assert dump(kept) == was and schema_of(kept) == OLD

    roll_back(kept, db)
    assert dump(db) == was
    proc = run_bot({"DATABASE_PATH": str(db)}, "--check-database", cwd=tmp_path)
    assert proc.returncode == 0 and f"schema {OLD}, older than this Pukllay's {SCHEMA_VERSION}" in proc.stdout

    # Upgrading again keeps a new copy; an earlier copy is never overwritten.
    kept.write_text("an earlier copy")
    store = await open_store(db)
    await store.close()
    assert store.upgraded_from == OLD and store.kept_copy == f"{kept}.1"
    assert kept.read_text() == "an earlier copy" and dump(Path(store.kept_copy)) == was


def test_migrate_on_a_missing_file_creates_nothing(tmp_path):
    """``--migrate`` with DATABASE_PATH mistyped (or the file not put back yet) says there is no
    such file and creates nothing, as ``--check-database`` does: it does not report a new, empty
    database as "current; nothing to do"."""
    before = listing(tmp_path)
    for path in (tmp_path / "pukllay.bd", tmp_path / "no-such-folder" / "pukllay.db"):
        proc = run_bot({"DATABASE_PATH": str(path)}, "--migrate", cwd=tmp_path)
        line = one_line(proc)
        assert proc.returncode == 2 and "no such file" in line and str(path) in line, line
    assert listing(tmp_path) == before and not (tmp_path / "no-such-folder").exists()


async def test_a_current_database_is_not_copied(db_path):
    await (await open_store(db_path)).close()
    store = await open_store(db_path)
    await store.close()
    assert store.kept_copy is None and store.upgraded_from is None
    assert [p.name for p in db_path.parent.iterdir() if ".before-" in p.name] == []


@contextlib.asynccontextmanager
async def old_database(
    kind: str, request: pytest.FixtureRequest, tmp_path: Path, schema: int, rows: Sequence[str]
) -> AsyncIterator[str]:
    """A database of ``kind`` ("sqlite" or "postgres") as a Pukllay of ``schema`` left it, with
    ``rows`` written into it by hand: what ``open_store`` takes (a PostgreSQL database is dropped
    afterwards).  The SQLite file holds :func:`old_sqlite`'s game too."""
    import asyncpg

    if kind == "sqlite":
        old_sqlite(tmp_path / "old.db", schema)
        con = sqlite3.connect(tmp_path / "old.db")
        for sql in rows:
            con.execute(sql)
        con.commit()
        con.close()
        yield str(tmp_path / "old.db")
        return
    cluster = request.getfixturevalue("pg_cluster")
    name = await cluster.create_database()
    try:
        target = cluster.url(name)
        await apply_postgres(target, schema)
        conn = await asyncpg.connect(target)
        try:
            for sql in rows:
                await conn.execute(sql)
        finally:
            await conn.close()
        yield target
    finally:
        await cluster.drop_database(name)


async def apply_postgres(url: str, schema: int) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(
            "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
        for number, name, sql in migrations("postgres")[:schema]:
            async with conn.transaction():
                await conn.execute(sql)
                await conn.execute("INSERT INTO schema_migrations VALUES ($1, $2, 'then')", number, name)
    finally:
        await conn.close()


async def postgres_schema(url: str) -> int:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval("SELECT MAX(version) FROM schema_migrations")
    finally:
        await conn.close()


async def test_an_older_postgres_database_is_upgraded_only_with_migrate(pg_cluster, tmp_path):
    """PostgreSQL from an older Pukllay: the check says older and what the upgrade would apply,
    changing nothing; the bot refuses to start on it (one line naming --migrate and pg_dump);
    ``--migrate`` upgrades it."""
    name = await pg_cluster.create_database()
    url = pg_cluster.url(name)
    try:
        await apply_postgres(url, OLD)
        proc = run_bot({"DATABASE_URL": url}, "--check-database", cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        assert (
            f"schema {OLD}, older than this Pukllay's {SCHEMA_VERSION}: the upgrade would apply 017"
            in proc.stdout
        )
        assert await postgres_schema(url) == OLD
        proc = run_bot({"DATABASE_URL": url}, cwd=tmp_path)
        line = one_line(proc)
        assert proc.returncode == 2 and "--migrate" in line and "pg_dump" in line and f"schema {OLD}" in line
        assert await postgres_schema(url) == OLD
        with pytest.raises(StorageError, match="--migrate"):
            await open_store(url, upgrade=False)
        proc = run_bot({"DATABASE_URL": url}, "--migrate", cwd=tmp_path)
        assert proc.returncode == 0 and f"upgraded from schema {OLD} to {SCHEMA_VERSION}" in proc.stdout
        assert await postgres_schema(url) == SCHEMA_VERSION
        store = await open_store(url, upgrade=False)  # current: nothing to confirm
        await store.close()
    finally:
        await pg_cluster.drop_database(name)


# ----------------------------------------------------------------------------- the check changes nothing


def test_check_database_reports_a_missing_file_and_creates_nothing(tmp_path):
    before = listing(tmp_path)
    for path in (tmp_path / "pukllay.bd", tmp_path / "no-such-folder" / "pukllay.db"):
        proc = run_bot({"DATABASE_PATH": str(path)}, "--check-database", cwd=tmp_path)
        line = one_line(proc)
        assert proc.returncode == 2 and "no such file" in line and str(path) in line
    assert listing(tmp_path) == before and not (tmp_path / "no-such-folder").exists()


def test_check_database_reports_an_older_schema_and_changes_nothing(tmp_path):
    db = tmp_path / "pukllay.db"
    old_sqlite(db)
    before = listing(tmp_path)
    proc = run_bot({"DATABASE_PATH": str(db)}, "--check-database", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (
        f"integrity check found no problem (ok); schema {OLD}, older than this Pukllay's {SCHEMA_VERSION}: "
        "the upgrade would apply 017 server_language, 018 league_clocks, 019 person_locale"
    ) in proc.stdout
    assert listing(tmp_path) == before and schema_of(db) == OLD  # no -wal, -shm or copy either


async def test_check_database_checks_a_read_only_copy(shared_dir):  # noqa: F811
    """A backup copy, read-only in a read-only folder, is checked (as a user who cannot write it)."""
    user = unprivileged()
    db = shared_dir / "pukllay.db"
    await (await open_store(db)).close()
    folder = shared_dir / "copies"
    folder.mkdir()
    proc = run_bot({"DATABASE_PATH": str(db)}, "--backup", str(folder / "copy.db"), cwd=shared_dir)
    assert proc.returncode == 0, proc.stderr
    (folder / "copy.db").chmod(0o444)
    folder.chmod(0o555)
    before = listing(folder)
    proc = run_bot({"DATABASE_PATH": str(folder / "copy.db")}, "--check-database", cwd=shared_dir, user=user)
    assert proc.returncode == 0, proc.stderr
    assert f"integrity check found no problem (ok); schema {SCHEMA_VERSION}, current" in proc.stdout
    assert listing(folder) == before
    folder.chmod(0o755)


def foreign(path: Path) -> None:
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE contacts (id INTEGER PRIMARY KEY, name TEXT)")
    con.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    con.execute("INSERT INTO contacts (name) VALUES ('Ana')")
    con.commit()
    con.close()


async def test_another_programs_sqlite_file_is_refused_and_left_as_it_was(tmp_path):
    """DATABASE_PATH on another program's database: the bot refuses to start, in one line naming its
    tables, and the check says so too; the file (and its folder) are as they were."""
    db = tmp_path / "contacts.db"
    foreign(db)
    before = listing(tmp_path)
    proc = run_bot({"DATABASE_PATH": str(db)}, cwd=tmp_path)
    line = one_line(proc)
    assert proc.returncode == 2 and "not Pukllay's (contacts, notes)" in line and "left as it is" in line
    assert listing(tmp_path) == before
    proc = run_bot({"DATABASE_PATH": str(db)}, "--check-database", cwd=tmp_path)
    assert proc.returncode == 2 and "not Pukllay's (contacts, notes)" in one_line(proc)
    with pytest.raises(StorageError, match="not Pukllay's"):
        await open_store(db)
    assert listing(tmp_path) == before


# ----------------------------------------------------------------------------- who the bot is


def test_version_flag_prints_the_version(tmp_path):
    from importlib import metadata

    proc = run_bot({}, "--version", cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout.strip() == f"pukllay {metadata.version('pukllay')}"


async def test_the_start_line_names_version_database_schema_and_shards(tmp_path, monkeypatch):
    """The default path is logged as a full path; ~ in DATABASE_PATH is the home folder; a PostgreSQL
    URL is named by database, host and user, never its password."""
    from importlib import metadata

    from bot.__main__ import identity, shards
    from bot.storage import describe_target

    monkeypatch.chdir(tmp_path)
    settings = Settings.from_env({}, dotenv=None)
    store = await open_store(settings.database_path)
    try:
        line = await identity(settings, store)
    finally:
        await store.close()
    assert line == (
        f"Pukllay {metadata.version('pukllay')}; database SQLite {tmp_path / 'pukllay.db'}, "
        f"schema {SCHEMA_VERSION}; no sharding (one gateway connection)"
    )
    monkeypatch.setenv("HOME", str(tmp_path))
    home = Settings.from_env({"DATABASE_PATH": "~/data/p.db"}, dotenv=None)
    assert home.database_path == str(tmp_path / "data" / "p.db")

    assert (
        shards(Settings.from_env({"SHARD_COUNT": "4", "SHARD_IDS": "2-3"}, dotenv=None)) == "shards 2,3 of 4"
    )
    assert describe_target("postgresql://bot:s3cret@db.example:5433/pukllay") == (
        "PostgreSQL pukllay on db.example:5433 as bot"
    )
    assert describe_target("postgresql:///pukllay?host=/run/postgresql&password=s3cret") == (
        "PostgreSQL pukllay on /run/postgresql"
    )


def test_env_example_lists_every_setting():
    """.env.example has a line for each setting of the README's settings table, and names every
    setting bot/settings.py reads (found in its source, so a new one cannot be forgotten)."""
    import re

    example = (ROOT / ".env.example").read_text()
    table = (ROOT / "README.md").read_text().split("\n## Settings\n")[1].split("\n## ")[0]
    listed = re.findall(r"^\| `([A-Z_]+)`", table, re.MULTILINE)
    read = set(re.findall(r"""get\(["']([A-Z_]+)["']\)""", (ROOT / "bot" / "settings.py").read_text()))
    assert len(listed) >= 13 and set(listed) <= read
    assert [n for n in listed if not re.search(rf"^{n}=", example, re.MULTILINE)] == []
    assert [n for n in sorted(read) if n not in example] == []


async def test_postgres_backup_and_restore_as_the_readme_says(pg_cluster, tmp_path):
    """pg_dump while moves are being committed, pg_restore into an empty database, then
    --check-database: the restored database passes the check (tables, the log's triggers, the commit
    function), holds every move acknowledged before the dump began, and each game's log is whole."""
    from tests.support.pg import bindir

    source, target = await pg_cluster.create_database(), await pg_cluster.create_database()
    dump_file = tmp_path / "pukllay.dump"
    try:
        store = await open_store(pg_cluster.url(source))
        acked: list[tuple[int, int]] = []
        started: dict[int, int] = {}
        enough, stop = asyncio.Event(), asyncio.Event()
        player = asyncio.create_task(play(store, await open_lobbies(store, 3), acked, started, enough, stop))
        try:
            await enough.wait()
            before = set(acked)
            dump = await asyncio.create_subprocess_exec(
                bindir() / "pg_dump", "--format=custom", "--file", dump_file, pg_cluster.url(source),
                stderr=asyncio.subprocess.PIPE,
            )  # fmt: skip
            _, err = await dump.communicate()
            after = set(acked)
        finally:
            stop.set()
            await player
            await store.close()
        assert dump.returncode == 0, err.decode()
        restore = await asyncio.create_subprocess_exec(
            bindir() / "pg_restore", "--no-owner", "--dbname", pg_cluster.url(target), dump_file,
            stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        _, err = await restore.communicate()
        assert restore.returncode == 0, err.decode()
        proc = run_bot({"DATABASE_URL": pg_cluster.url(target)}, "--check-database", cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        assert f"PostgreSQL check found no problem (ok); schema {SCHEMA_VERSION}, current" in proc.stdout
        store = await open_store(pg_cluster.url(target))
        try:
            held: set[tuple[int, int]] = set()
            for sid in started:
                moves = await store.history.moves(sid)
                assert [m.number for m in moves] == list(range(1, len(moves) + 1))
                assert (await store.games.session(sid)).version == started[sid] + len(moves)
                held |= {(sid, m.number) for m in moves}
        finally:
            await store.close()
        assert before <= held <= after
    finally:
        await pg_cluster.drop_database(source)
        await pg_cluster.drop_database(target)
