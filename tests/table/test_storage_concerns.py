"""The store split by concern: small modules, the back end chosen outside the interface, and a
finishing game's results, ratings and league result still one transaction (both back ends)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.storage import ResultRow
from tests.league.test_storage import GUILD, new_league

STORAGE = Path(__file__).resolve().parents[2] / "bot" / "storage"
BACK_ENDS = {"bot.storage.sqlite", "bot.storage.postgres"}


def test_each_storage_module_is_small_and_each_class_under_30_methods():
    for path in sorted(STORAGE.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert text.count("\n") < 800, path.name
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                methods = [m for m in node.body if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef)]
                assert len(methods) < 30, f"{path.name}: {node.name} has {len(methods)} methods"


def test_only_open_store_chooses_a_back_end():
    """No interface module imports a back end, at any level (inside functions too)."""
    for path in sorted(STORAGE.glob("*.py")):
        if path.stem in ("__init__", "sqlite", "postgres"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                named = {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
                assert not named & BACK_ENDS, f"{path.name} imports {node.module}"
            elif isinstance(node, ast.Import):
                assert not {a.name for a in node.names} & BACK_ENDS, path.name


async def test_a_failing_league_result_undoes_the_results_and_both_ratings(store, database):
    """Finishing a rated league game writes the results, the all-time ratings, the season's
    ratings and the league game's places in one transaction: when the last of them fails, none
    of the others is kept and the session is still running."""
    lid = await new_league(store)
    for uid in (10, 20):
        await store.leagues.join_league(lid, uid, f"u{uid}")
    await store.leagues.start_league(lid, store.clock.time(), 3)
    (gid,) = await store.leagues.open_round(lid, 1, [[10, 20]], [], store.clock.time() + 10)
    sid = await store.games.create_session(
        game="nim",
        guild_id=GUILD,
        channel_id=5,
        host_id=10,
        host_name="u10",
        options={},
        max_players=2,
        seed=1,
    )
    assert await store.games.add_seat(sid, 20, "u20", limit=2)
    await store.games.start(sid, {0: 0, 1: 1}, {}, {"n": 0})
    assert await store.leagues.attach_session(gid, sid)
    # The league's points table, read last in the finishing transaction, is not readable.
    await database.execute("UPDATE leagues SET points = ? WHERE id = ?", "not json", lid)
    results = [ResultRow(0, 10, None, 1, False), ResultRow(1, 20, None, 2, False)]
    with pytest.raises(ValueError):
        await store.games.finish(
            sid, status="finished", reason="done", outcome=None, results=results, rated=True, names={}
        )
    assert (await store.games.session(sid)).status == "active"
    assert await store.ratings.results(sid) == []
    assert await store.ratings.leaderboard(GUILD, "nim") == []
    assert await store.ratings.season_leaderboard(lid) == []
    assert [g.status for g in await store.leagues.league_games(lid)] == ["playing"]
    # Readable again, the same finish goes through whole.
    await database.execute("UPDATE leagues SET points = ? WHERE id = ?", "[1.0, 0.0]", lid)
    await store.games.finish(
        sid, status="finished", reason="done", outcome=None, results=results, rated=True, names={}
    )
    assert [r.user_id for r in await store.ratings.results(sid)] == [10, 20]
    assert len(await store.ratings.leaderboard(GUILD, "nim")) == 2
    assert len(await store.ratings.season_leaderboard(lid)) == 2
    assert [g.status for g in await store.leagues.league_games(lid)] == ["finished"]
