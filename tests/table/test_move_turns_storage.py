"""Each move's turn number in the log (migration 030), on both back ends: written by every commit
(SQLite's insert; PostgreSQL's commit function and its one-statement play), read back with the
log, NULL on rows written before, and kept through the upgrade."""

from __future__ import annotations

import pytest

from bot.storage import SCHEMA_VERSION, NewMove, migrations, open_store
from tests.table.test_operating import old_database

(TURNS,) = [n for n, name, _ in migrations("sqlite") if name == "move_turns"]


async def new_game(store, channel: int) -> tuple[int, int]:
    sid = await store.games.create_session(
        game="nim",
        guild_id=1,
        channel_id=channel,
        host_id=1,
        host_name="a",
        options={},
        max_players=2,
        seed=1,
    )
    return sid, (await store.games.start(sid, {0: 0}, {}, {"n": 0})).version


async def test_every_commit_keeps_the_moves_turns(store):
    """The commit (with and without a clock) and a person's move's commit write each move's turn;
    a move given none (an older caller) has none; the log's reads give them back."""
    sid, v = await new_game(store, 5)
    v = await store.games.record_moves(
        sid, v, [NewMove(0, "A1", False, [], {"public": True}, 1), NewMove(0, "B1", turn=2)], {"n": 2}
    )
    v = await store.games.record_moves(sid, v, [NewMove(1, "C1", True, turn=7)], {"n": 3}, clock=({}, None))
    v = (await store.games.play_moves(sid, v, [NewMove(1, "A2", turn=2**31 - 1)], {"n": 4})).version
    await store.games.record_moves(sid, v, [(0, "B2", False)], {"n": 5})
    rows = await store.history.moves(sid)
    assert [(r.number, r.move, r.turn) for r in rows] == [
        (1, "A1", 1),
        (2, "B1", 2),
        (3, "C1", 7),
        (4, "A2", 2**31 - 1),
        (5, "B2", None),
    ]
    assert [r.turn for r in await store.history.moves_after(sid, 3)] == [2**31 - 1, None]
    assert [r.turn for r in await store.history.moves(sid, last=2)] == [2**31 - 1, None]
    found = await store.history.move_at(sid, 3)
    assert found is not None and found.turn == 7


OLD_MOVE = (
    "INSERT INTO moves (session_id, number, seat, move, by_computer, created_at, events, privacy)"
    " VALUES (1, 1, 0, 'A1', 0, 'then', NULL, NULL)"
)
OLD_SESSION = (
    "INSERT INTO sessions (game, guild_id, channel_id, host_id, status, options, max_players, seed,"
    " created_at, updated_at) VALUES ('nim', 1, 77, 5, 'lobby', '{}', 2, 3, 'then', 'then')"
)


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_the_upgrade_keeps_old_moves_without_turns(kind, request, tmp_path):
    """A database from before migration 030 with a logged move: after the upgrade the move is there
    with no turn (not known), and new commits (on PostgreSQL through the one commit function the
    upgrade redefines) keep theirs."""
    import asyncpg

    rows = [OLD_MOVE] if kind == "sqlite" else [OLD_SESSION, OLD_MOVE]  # the SQLite file has its session
    async with old_database(kind, request, tmp_path, TURNS - 1, rows) as target:
        store = await open_store(target)
        try:
            assert store.upgraded_from == TURNS - 1 and await store.schema_version() == SCHEMA_VERSION
            (old,) = await store.history.moves(1)
            assert (old.move, old.turn) == ("A1", None)
            sid, v = await new_game(store, 78)
            v = await store.games.record_moves(sid, v, [NewMove(0, "A1", turn=1)], {"n": 1})
            await store.games.play_moves(sid, v, [NewMove(1, "B1", turn=2)], {"n": 2})
            assert [(r.move, r.turn) for r in await store.history.moves(sid)] == [("A1", 1), ("B1", 2)]
            assert await store.check_integrity() == []
        finally:
            await store.close()
        if kind == "postgres":
            conn = await asyncpg.connect(target)
            try:
                count = await conn.fetchval(
                    "SELECT COUNT(*) FROM pg_proc WHERE proname = 'pukllay_record_moves'"
                )
            finally:
                await conn.close()
            assert count == 1  # redefined, not overloaded beside the old one
