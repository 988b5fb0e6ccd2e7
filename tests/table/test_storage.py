"""Storage on both back ends: migrations, refusals, the append-only log, versions, jobs."""

from __future__ import annotations

import re
import sqlite3

import pytest

from bot.ratings import Standing, rate, shown, shown_or_start
from bot.storage import SCHEMA_VERSION, ResultRow, StaleVersion, StorageError, migrations, open_store
from tests.table.util import open_lobbies


async def test_both_back_ends_have_the_same_migrations():
    """Each migration number exists for both back ends, with the same name."""
    sqlite_set = [(n, name) for n, name, _ in migrations("sqlite")]
    postgres_set = [(n, name) for n, name, _ in migrations("postgres")]
    assert sqlite_set == postgres_set and len(sqlite_set) == SCHEMA_VERSION


def schema_sqlite(path) -> dict[str, set[str]]:
    con = sqlite3.connect(path)
    try:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {t: {r[1] for r in con.execute(f"PRAGMA table_info({t})")} for t in tables}
    finally:
        con.close()


async def schema_postgres(database) -> dict[str, set[str]]:
    rows = await database.fetch(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'"
    )
    out: dict[str, set[str]] = {}
    for table, column in rows:
        out.setdefault(table, set()).add(column)
    return out


async def test_the_schemas_agree_in_tables_and_columns(tmp_path, pg_cluster):
    """Migrated from empty, both back ends have the same tables with the same columns."""
    path = tmp_path / "schema.db"
    await (await open_store(path)).close()
    name = await pg_cluster.create_database()
    try:
        await (await open_store(pg_cluster.url(name))).close()
        from tests.conftest import Database

        postgres = await schema_postgres(Database("postgres", pg_cluster.url(name)))
    finally:
        await pg_cluster.drop_database(name)
    lite = schema_sqlite(path)
    assert lite == postgres
    assert {"sessions", "seats", "moves", "results", "ratings", "jobs", "schema_migrations"} <= set(lite)


async def test_migrations_from_an_empty_database(database):
    """An empty database gets every migration, recorded once, however often it is opened."""
    for _ in range(3):
        store = await database.open()
        try:
            assert await store.schema_version() == SCHEMA_VERSION
        finally:
            await store.close()
    applied = [r[0] for r in await database.fetch("SELECT version FROM schema_migrations ORDER BY version")]
    assert applied == list(range(1, SCHEMA_VERSION + 1))


async def test_sqlite_runs_in_wal_mode(db_path):
    await (await open_store(db_path)).close()
    con = sqlite3.connect(db_path)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()


async def test_newer_database_is_refused(database):
    """A database written by newer code is refused with a clear message."""
    await (await database.open()).close()
    await database.execute("INSERT INTO schema_migrations VALUES (?, 'future', 'x')", SCHEMA_VERSION + 1)
    with pytest.raises(StorageError, match="newer Pukllay") as info:
        await database.open()
    assert "\n" not in str(info.value)


async def test_corrupted_file_is_refused(db_path):
    """A file that is not a database is refused with a message naming the file."""
    db_path.write_bytes(b"this is not sqlite at all" * 200)
    with pytest.raises(StorageError, match="not a Pukllay database or is damaged") as info:
        await open_store(db_path)
    assert str(db_path) in str(info.value)


async def test_damaged_database_is_refused(db_path):
    """A database whose pages were overwritten fails the check and is refused."""
    store = await open_store(db_path)
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
        await open_store(db_path)


async def test_damaged_postgres_schema_is_refused_one_line_per_problem(pg_cluster):
    """A PostgreSQL database that lost the log's triggers and tables is refused, naming each problem."""
    name = await pg_cluster.create_database()
    url = pg_cluster.url(name)
    try:
        await (await open_store(url)).close()
        import asyncpg

        conn = await asyncpg.connect(url)
        await conn.execute(
            "DROP TRIGGER moves_are_not_updated ON moves; DROP TABLE ratings; DROP TABLE outages"
        )
        await conn.close()
        with pytest.raises(StorageError, match="is damaged") as info:
            await open_store(url)
        text = str(info.value)
        assert "moves_are_not_updated" in text and "ratings" in text and "\n" not in text
        assert "the table outages is missing" in text  # (every table the migrations make is looked for)
    finally:
        await pg_cluster.drop_database(name)


async def test_a_database_of_something_else_is_refused(pg_cluster):
    """A PostgreSQL database holding other tables is not taken over."""
    name = await pg_cluster.create_database()
    url = pg_cluster.url(name)
    try:
        import asyncpg

        conn = await asyncpg.connect(url)
        await conn.execute("CREATE TABLE invoices (id INTEGER)")
        await conn.close()
        with pytest.raises(StorageError, match="not Pukllay's"):
            await open_store(url)
    finally:
        await pg_cluster.drop_database(name)


async def test_postgres_problems_are_one_line_without_the_password(pg_cluster, tmp_path):
    """No server, no such database: one line each, and the password never shown."""
    nowhere = f"postgresql://ann:s3cret@/pukllay?host={tmp_path}"
    with pytest.raises(StorageError, match="cannot reach PostgreSQL") as info:
        await open_store(nowhere)
    assert "s3cret" not in str(info.value) and "\n" not in str(info.value)
    missing = pg_cluster.url("no_such_database").replace("pukllay@", "pukllay:s3cret@")
    with pytest.raises(StorageError, match="does not exist") as info:
        await open_store(missing)
    assert "s3cret" not in str(info.value)


async def test_move_log_is_append_only(database):
    """Moves cannot be updated or deleted, even by hand."""
    store = await database.open()
    sid = await store.games.create_session(
        game="nim", guild_id=1, channel_id=5, host_id=1, host_name="a", options={}, max_players=2, seed=1
    )
    version = (await store.games.start(sid, {0: 0}, {}, {"x": 1})).version
    await store.games.record_moves(sid, version, [(0, "A1", False)], {"x": 2})
    await store.close()
    with pytest.raises(database.integrity_error, match="append-only"):
        await database.execute("UPDATE moves SET move = 'B2'")
    with pytest.raises(database.integrity_error, match="append-only"):
        await database.execute("DELETE FROM moves")
    assert [r[0] for r in await database.fetch("SELECT move FROM moves")] == ["A1"]


async def test_one_live_game_per_channel_in_the_database(database):
    """The database itself refuses a second live game in a channel (the partial unique index)."""
    store = await database.open()
    try:
        await open_lobbies(store, 1, first_channel=5)
        with pytest.raises(database.integrity_error):
            await database.execute(
                "INSERT INTO sessions (game, guild_id, channel_id, host_id, status, options, max_players, seed,"
                " created_at, updated_at) VALUES ('nim', 1, 5, 1, 'lobby', '{}', 2, 1, 'x', 'x')"
            )
    finally:
        await store.close()


async def test_stale_version_writes_nothing(store):
    """A write at an old version is refused and leaves log and snapshot as they were."""
    sid = await store.games.create_session(
        game="nim", guild_id=1, channel_id=5, host_id=1, host_name="a", options={}, max_players=2, seed=1
    )
    v = (await store.games.start(sid, {0: 0}, {}, {"n": 0})).version
    v2 = await store.games.record_moves(sid, v, [(0, "A1", False)], {"n": 1})
    with pytest.raises(StaleVersion) as info:
        await store.games.record_moves(sid, v, [(0, "A2", False)], {"n": 99})
    assert info.value.current == v2
    row = await store.games.session(sid)
    assert row.version == v2 and row.state == {"n": 1}
    assert [m.move for m in await store.history.moves(sid)] == ["A1"]
    assert [m.number for m in await store.history.moves(sid)] == [1]


async def test_moves_keep_events_and_marks(store):
    """Several moves in one commit are numbered in order with their events and marks."""
    from bot.storage import NewMove

    sid = await store.games.create_session(
        game="nim", guild_id=1, channel_id=5, host_id=1, host_name="a", options={}, max_players=2, seed=1
    )
    v = (await store.games.start(sid, {0: 0}, {}, {"n": 0})).version
    moves = [NewMove(0, "A1", False, [{"kind": "took"}], {"public": True}), NewMove(1, "B2", True)]
    assert await store.games.record_moves(sid, v, moves, {"n": 2}) == v + 2
    rows = await store.history.moves(sid)
    assert [(m.number, m.seat, m.move, m.by_computer) for m in rows] == [
        (1, 0, "A1", False),
        (2, 1, "B2", True),
    ]
    assert rows[0].events == [{"kind": "took"}] and rows[0].privacy == {"public": True}
    assert rows[1].events is None and rows[1].privacy is None
    assert [m.move for m in await store.history.moves(sid, last=1)] == ["B2"]


async def test_jobs_are_claimed_once_and_leases_run_out(store, clock):
    """A due job is claimed by one owner; its lease running out lets another take it; completing drops it."""
    await store.jobs.schedule("reminder", "a", clock.time() + 60, {"user": 7})
    assert await store.jobs.claim_jobs("one", lease=30) == []  # not due yet
    clock.advance(60)
    (job,) = await store.jobs.claim_jobs("one", lease=30)
    assert job.kind == "reminder" and job.payload == {"user": 7} and job.claimed_by == "one"
    assert await store.jobs.claim_jobs("two", lease=30) == []  # held by one
    clock.advance(31)  # one died: its lease ran out
    (again,) = await store.jobs.claim_jobs("two", lease=30)
    assert again.id == job.id and again.claim != job.claim and again.attempts == 2
    assert not await store.jobs.complete_job(job)  # the old claim no longer counts
    assert await store.jobs.complete_job(again)
    assert await store.jobs.pending() == []


async def test_hastening_a_job_moves_only_one_still_pending_and_unclaimed(store, clock):
    """A job brought forward fires sooner; one claimed, done, or due sooner already is left as it is
    (a job done is not armed again)."""
    await store.jobs.schedule("reminder", "a", clock.time() + 600, {"n": 1})
    (job,) = await store.jobs.pending("reminder")
    assert await store.jobs.hasten(job, clock.time())
    assert (await store.jobs.job("reminder", "a")).due_at == clock.time()
    assert not await store.jobs.hasten(job, clock.time() + 60)  # due sooner already
    (claimed,) = await store.jobs.claim_jobs("one", lease=30)
    assert not await store.jobs.hasten(job, clock.time() - 1)  # being fired
    assert await store.jobs.complete_job(claimed)
    assert not await store.jobs.hasten(job, clock.time() - 1)  # done
    assert await store.jobs.pending() == []


async def test_a_job_held_for_a_block_is_one_holder_s_and_goes_at_its_end_or_back_as_it_was(store, clock):
    """A pending job, due or not, is held for a block by one holder at a time: another gets
    nothing (None) while the lease lasts; a block that raises gives the job back as it was (its
    time, its scheduler's claim, which the scheduler still completes); a block that ends drops
    it.  A holder killed in its block leaves the job due when its lease is over."""
    await store.jobs.schedule("reminder", "a", clock.time() + 600, {"n": 1})
    async with store.jobs.holding("reminder", "nothing", "one", lease=30) as none:
        assert none is None
    with pytest.raises(RuntimeError):
        async with store.jobs.holding("reminder", "a", "one", lease=30) as held:
            assert held is not None and held.claimed_by == "one" and held.due_at == clock.time() + 30
            async with store.jobs.holding("reminder", "a", "two", lease=30) as other:
                assert other is None
            raise RuntimeError("the block failed")
    (back,) = await store.jobs.pending("reminder")
    assert back.due_at == clock.time() + 600 and back.claim is None
    clock.advance(600)
    (fired,) = await store.jobs.claim_jobs("scheduler", lease=30)
    async with store.jobs.holding("reminder", "a", "two", lease=30) as other:
        assert other is None  # the scheduler's claim is live
    with pytest.raises(RuntimeError):
        async with store.jobs.holding("reminder", "a", "one", lease=30, held=fired) as mine:
            assert mine is not None
            raise RuntimeError("the block failed")
    assert await store.jobs.complete_job(fired)  # given back with the scheduler's claim
    await store.jobs.schedule("reminder", "a", clock.time() + 600, {"n": 2})
    killed = store.jobs.holding("reminder", "a", "one", lease=30)
    assert await killed.__aenter__() is not None  # and its process dies in the block
    assert await store.jobs.claim_jobs("scheduler", lease=30) == []
    clock.advance(30)
    (taken,) = await store.jobs.claim_jobs("scheduler", lease=30)
    async with store.jobs.holding("reminder", "a", "one", lease=30, held=taken) as mine:
        assert mine is not None
    assert await store.jobs.pending() == []
    await killed.__aexit__(None, None, None)  # the dead holder's end, had it come, changes nothing
    assert await store.jobs.pending() == []


async def test_what_a_held_job_s_block_records_is_written_in_the_step_that_ends_its_claim(store, clock):
    """A block holding a job (:meth:`Jobs.holding`) that ends hands its end statements (``also``:
    here the abandon told, :meth:`Games.telling_end`) to the transaction that drops the job, or
    gives it back when it was armed again meanwhile; a block that raises, or that got None (the
    job held elsewhere), writes nothing of them."""
    jobs, games = store.jobs, store.games
    sid, other_id = [
        await games.create_session(
            game="nim", guild_id=1, channel_id=c, host_id=1, host_name="a", options={}, max_players=2, seed=1
        )
        for c in (5, 6)
    ]
    for session_id in (sid, other_id):
        await games.finish(
            session_id, status="abandoned", reason="abandoned", outcome=None, results=[], tell=True
        )

    async def told(session_id: int = sid) -> bool:
        return (await games.session(session_id)).end_told

    await jobs.schedule("board", str(sid), clock.time() + 600, {"n": 0})
    with pytest.raises(RuntimeError):
        async with jobs.holding("board", str(sid), "post", lease=120, also=games.telling_end(sid)) as mine:
            assert mine is not None
            raise RuntimeError
    async with jobs.holding("board", str(sid), "post", lease=120) as mine:
        async with jobs.holding("board", str(sid), "post", lease=120, also=games.telling_end(sid)) as other:
            assert other is None
        assert not await told()
        await jobs.arm_keeping("board", str(sid), clock.time() + 600, {"n": 1}, holder="post")
    assert not await told()
    async with jobs.holding("board", str(sid), "post", lease=120, also=games.telling_end(sid)) as mine:
        await jobs.arm_keeping("board", str(sid), clock.time() + 900, {"n": 2}, holder="post")
        assert not await told()
    back = await jobs.job("board", str(sid))  # given back, armed so, the abandon told with it
    assert back.claim is None and back.payload == {"n": 2} and await told()
    await jobs.schedule("board", str(other_id), clock.time() + 600, {})
    async with jobs.holding(
        "board", str(other_id), "post", lease=120, also=games.telling_end(other_id)
    ) as mine:
        assert mine is not None and not await told(other_id)
    assert await jobs.job("board", str(other_id)) is None and await told(other_id)  # dropped, told with it


async def test_rescheduling_replaces_the_job_and_its_claim(store, clock):
    await store.jobs.schedule("reminder", "a", clock.time(), {"n": 1})
    (job,) = await store.jobs.claim_jobs("one", lease=30)
    await store.jobs.schedule("reminder", "a", clock.time() + 10, {"n": 2})
    assert not await store.jobs.complete_job(job)  # re-armed meanwhile: the new job stays
    (pending,) = await store.jobs.pending("reminder")
    assert pending.payload == {"n": 2} and pending.claim is None
    assert await store.jobs.next_due() == pytest.approx(clock.time() + 10)
    assert await store.jobs.cancel("reminder", "a") and not await store.jobs.cancel("reminder", "a")


def test_placeholders_are_numbered_for_postgres():
    from bot.storage.postgres import numbered, redact

    assert numbered("SELECT ? , ?") == "SELECT $1 , $2"
    assert redact("postgresql://ann:pw@db.example:5432/pukllay") == "postgresql://ann@db.example:5432/pukllay"
    assert re.search("pw", redact("postgresql://ann:pw@/x?host=/tmp")) is None


def test_redact_shows_no_part_of_a_password_holding_a_reserved_character():
    from bot.storage.postgres import redact

    for url in ("postgresql://ann:zq/xw@db/p", "postgresql://ann:zq?xw@db/p", "postgresql://ann:zq#xw@db/p"):
        shown = redact(url)
        assert "zq" not in shown and "xw" not in shown, shown


def sessions_with(column: str) -> str:
    """The start of an INSERT of old sessions rows, ``column`` last."""
    return (
        "INSERT INTO sessions (id, game, guild_id, channel_id, host_id, status, options, max_players, seed,"
        f" version, created_at, updated_at, finished_at, {column}) VALUES"
    )


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_games_ended_before_the_upgrade_are_not_told_again(kind, request, tmp_path):
    """The upgrade that records whether a game's end was told marks the games ended before it as
    told (their end was posted, or they were abandoned), so the first start after it posts none of
    them again; but for a game whose last move was stored and never posted, which the start
    catches up as before."""
    from tests.table.test_operating import old_database

    (added,) = [n for n, name, _ in migrations("sqlite") if name == "end_told"]
    columns = sessions_with("told_through")
    rows = (
        f"{columns} (20, 'nim', 5, 20, 1, 'finished', '{{}}', 2, 1, 3, 'a', 'a', 'b', 1)",  # end posted
        f"{columns} (21, 'nim', 5, 21, 1, 'finished', '{{}}', 2, 1, 3, 'a', 'a', 'b', 0)",  # last move not
        f"{columns} (22, 'nim', 5, 22, 1, 'abandoned', '{{}}', 2, 1, 3, 'a', 'a', 'b', 0)",
        f"{columns} (23, 'nim', 5, 23, 1, 'active', '{{}}', 2, 1, 3, 'a', 'a', NULL, 0)",
        "INSERT INTO moves (session_id, number, seat, move, created_at) VALUES (20, 1, 0, 'x', 'a')",
        "INSERT INTO moves (session_id, number, seat, move, created_at) VALUES (21, 1, 0, 'x', 'a')",
    )
    async with old_database(kind, request, tmp_path, added - 1, rows) as target:
        store = await open_store(target)
        try:
            assert store.upgraded_from == added - 1 and await store.schema_version() == SCHEMA_VERSION
            told = {i: row.end_told for i in (20, 21, 22, 23) if (row := await store.games.session(i))}
            assert told == {20: True, 21: False, 22: True, 23: False}
            assert [row.id for row in await store.games.ended_untold(5, "a")] == [21]
            await store.games.set_board_message(21, 99, 1, end_told=True)
            assert [row.id for row in await store.games.ended_untold(5, "a")] == [21]  # its card
            assert await store.games.card_told(21)
            assert await store.games.ended_untold(5, "a") == []
        finally:
            await store.close()


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_results_keep_each_rated_persons_rating_before_and_after(kind, request, tmp_path):
    """The upgrade that keeps the ratings with the results leaves a result stored before it
    without them; a game ending after it keeps each rated person's shown rating before and after
    (what its end returned, which a results card posted late shows), and none for a seat no
    person held."""
    from tests.table.test_operating import old_database

    (added,) = [n for n, name, _ in migrations("sqlite") if name == "result_ratings"]
    rows = (
        f"{sessions_with('end_told')} (20, 'nim', 5, 20, 1, 'finished', '{{}}', 2, 1, 3, 'a', 'a', 'b', 1)",
        "INSERT INTO results (session_id, seat, user_id, score, place, resigned) VALUES (20, 0, 7, 1, 1, 0)",
    )
    async with old_database(kind, request, tmp_path, added - 1, rows) as target:
        store = await open_store(target)
        try:
            assert store.upgraded_from == added - 1 and await store.schema_version() == SCHEMA_VERSION
            before = await store.ratings.results(20)
            assert [(r.user_id, r.rating_before, r.rating_after) for r in before] == [(7, None, None)]
            ann, bob, (game,) = 7, 8, await open_lobbies(store, 1)
            results = [
                ResultRow(0, ann, 1.0, 1, False),
                ResultRow(1, bob, 0.0, 2, False),
                ResultRow(2, None, 0.0, 3, False),
            ]
            await store.games.finish(
                game, status="finished", reason="won", outcome={}, results=results,
                rated=True, names={ann: "Ann", bob: "Bob"},
            )  # fmt: skip
            kept = {r.user_id: (r.rating_before, r.rating_after) for r in await store.ratings.results(game)}
            won, lost = rate([Standing(ann, "Ann", 1), Standing(bob, "Bob", 2)])
            start = shown_or_start(None, None)
            assert kept == {
                ann: (start, shown(won.mu, won.sigma)),
                bob: (start, shown(lost.mu, lost.sigma)),
                None: (None, None),
            }
            assert kept[ann][1] > start > kept[bob][1]
        finally:
            await store.close()


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_games_told_before_the_upgrade_have_their_results_card_posted(kind, request, tmp_path):
    """The upgrade that marks a results card posted once Discord took it counts the card of a game
    whose end was told before it as posted (the start after it posts none again), and leaves an
    untold end and an abandon as they were."""
    from tests.table.test_operating import old_database

    (added,) = [n for n, name, _ in migrations("sqlite") if name == "card_told"]
    columns = sessions_with("end_told")
    rows = (
        f"{columns} (20, 'nim', 5, 20, 1, 'finished', '{{}}', 2, 1, 3, 'a', 'a', 'b', 1)",  # end told
        f"{columns} (21, 'nim', 5, 21, 1, 'finished', '{{}}', 2, 1, 3, 'a', 'a', 'b', 0)",  # not told
        f"{columns} (22, 'nim', 5, 22, 1, 'abandoned', '{{}}', 2, 1, 3, 'a', 'a', 'b', 1)",
    )
    async with old_database(kind, request, tmp_path, added - 1, rows) as target:
        store = await open_store(target)
        try:
            assert store.upgraded_from == added - 1 and await store.schema_version() == SCHEMA_VERSION
            read = {
                i: (row.end_told, row.card_told)
                for i in (20, 21, 22)
                if (row := await store.games.session(i))
            }
            assert read == {20: (True, True), 21: (False, False), 22: (True, False)}
            assert [row.id for row in await store.games.ended_untold(5, "a")] == [21]
        finally:
            await store.close()


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_a_lobby_stores_the_game_it_plays_again(kind, request, tmp_path):
    """The upgrade that records which game a rematch plays again leaves the games before it as
    no rematch; a lobby stored after it keeps the game it plays again, and reads it back."""
    from tests.table.test_operating import old_database

    (added,) = [n for n, name, _ in migrations("sqlite") if name == "rematch_of"]
    row = (
        "INSERT INTO sessions (id, game, guild_id, channel_id, host_id, status, options, max_players, seed,"
        " version, created_at, updated_at, finished_at) VALUES"
        " (20, 'nim', 5, 20, 1, 'finished', '{}', 2, 1, 3, 'a', 'a', 'b')"
    )
    async with old_database(kind, request, tmp_path, added - 1, (row,)) as target:
        store = await open_store(target)
        try:
            assert store.upgraded_from == added - 1 and await store.schema_version() == SCHEMA_VERSION
            assert (await store.games.session(20)).rematch_of is None
            again = await store.games.create_session(
                game="nim", guild_id=5, channel_id=20, host_id=1, host_name="Ann", options={},
                max_players=2, seed=2, rematch_of=20,
            )  # fmt: skip
            assert (await store.games.session(again)).rematch_of == 20
        finally:
            await store.close()


async def test_the_servers_in_play_are_those_with_something_going_on(store):
    """What READY is checked against (a server it does not list removed the bot): the servers with a
    lobby or a game, a live league, someone in the queue, or a finished game's refused board or
    thread to archive; not a server whose games are all over."""

    async def game_in(guild: int, channel: int, *, over: bool = False) -> int:
        session = await store.games.create_session(
            game="nim", guild_id=guild, channel_id=channel, host_id=1, host_name="a", options={},
            max_players=2, seed=guild,
        )  # fmt: skip
        if over:
            await store.db.change("UPDATE sessions SET status = 'abandoned' WHERE id = ?", session)
        return session

    await game_in(1, 100)
    await game_in(2, 200)
    await store.jobs.schedule("board", str(await game_in(3, 300, over=True)), store.clock.time() + 600)
    await store.jobs.schedule("archive", str(await game_in(4, 400, over=True)), store.clock.time() + 600)
    await game_in(5, 500, over=True)  # nothing left there
    await store.leagues.create_league(
        guild_id=6, channel_id=600, organiser_id=1, name="Autumn", game="nim", format="swiss", group_size=2,
        options={}, points=(1.0, 0.0), bye_points=1.0, round_seconds=86400.0, rounds=3, timer_seconds=None,
        starts_at=store.clock.time() + 60, seed=5,
    )  # fmt: skip
    await store.queue.join(
        guild_id=7, user_id=1, name="a", game="nim", counts=[2], pace="live", computers=0, rated="any",
        at_once=True, expires_at=store.clock.time() + 3600,
    )  # fmt: skip
    assert await store.servers_in_play() == {1, 2, 3, 4, 6, 7}
