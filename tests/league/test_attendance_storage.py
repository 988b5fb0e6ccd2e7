"""League attendance in storage, on both back ends: settings, check-in windows and check-ins,
requests, late sign-ups with their bye, and why each bye of a round was given."""

from __future__ import annotations

import pytest

from bot.league.attendance import Settings
from tests.league.test_storage import new_league


async def started(store, players=(10, 20, 30)):
    lid = await new_league(store)
    for uid in players:
        await store.leagues.join_league(lid, uid, f"u{uid}")
    await store.leagues.start_league(lid, store.clock.time(), 3)
    return lid


async def test_settings_default_until_set_and_then_kept(store):
    lid = await new_league(store)
    assert await store.attendance.settings(lid) == Settings()
    await store.attendance.set_settings(lid, Settings("every", 7200.0, "full"))
    await store.attendance.set_settings(lid, Settings("first", 3600.0, "none"))
    assert await store.attendance.settings(lid) == Settings("first", 3600.0, "none")


async def test_a_window_opens_once_and_each_player_checks_in_once(store):
    lid = await started(store)
    assert await store.attendance.window(lid, 1) is None
    assert await store.attendance.open_window(lid, 1, 5000.0)
    assert not await store.attendance.open_window(lid, 1, 9000.0)
    window = await store.attendance.window(lid, 1)
    assert window is not None and window.closes_at == 5000.0 and not window.called  # no call yet
    await store.attendance.called(lid, 1)
    assert (await store.attendance.window(lid, 1)).called
    assert await store.attendance.check_in(lid, 1, 10)
    assert not await store.attendance.check_in(lid, 1, 10)
    assert await store.attendance.checked_in(lid, 1) == {10}
    assert await store.attendance.checked_in(lid, 2) == set()


async def test_requests_only_for_rounds_not_paired_and_taken_back(store):
    lid = await started(store)
    await store.leagues.open_round(lid, 1, [[10, 20]], [30], store.clock.time() + 60)
    assert await store.attendance.request(lid, 10, [1, 2, 3], "pause") == [2, 3]  # round 1 is paired
    assert await store.attendance.request(lid, 20, [3], "bye") == [3]
    assert await store.attendance.request(lid, 20, [2, 3], "pause") == [2]  # the bye in 3 stays
    assert await store.attendance.requests(lid, 20) == {(3, 20): "bye", (2, 20): "pause"}
    assert await store.attendance.withdraw(lid, 20, "bye", [2]) == []
    assert await store.attendance.withdraw(lid, 10, "pause") == [2, 3]
    assert await store.attendance.requests(lid, 10) == {}


async def test_a_late_sign_up_gets_one_bye_in_the_round_in_play(store):
    lid = await started(store)
    assert await store.attendance.late_join(lid, 40, "Late", 1.0) == "joined"  # no round yet: no bye
    await store.leagues.open_round(lid, 1, [[10, 20]], [30], store.clock.time() + 60)
    assert await store.attendance.late_join(lid, 50, "Later", 1.0) == "joined"
    assert await store.attendance.late_join(lid, 50, "Later", 1.0) == "already"
    assert await store.attendance.late_join(lid, 2**70, "Nobody", 1.0) == "closed"
    assert (1, 50, 1.0) in await store.leagues.league_byes(lid)
    kinds = await store.attendance.bye_kinds(lid)
    assert kinds == {(1, 30): "pairing", (1, 50): "late"}
    assert 40 in {p.user_id for p in await store.leagues.league_players(lid)}
    await store.leagues.end_league(lid, None)
    assert await store.attendance.late_join(lid, 60, "Too late", 1.0) == "closed"


async def test_a_round_records_why_each_player_sat_out(store):
    lid = await started(store, (10, 20, 30, 40, 50))
    await store.leagues.open_round(
        lid,
        1,
        [[10, 20]],
        [30],
        store.clock.time() + 60,
        sit_outs=[(40, 0.5, "requested"), (50, 0.0, "absent")],
    )
    assert await store.leagues.league_byes(lid) == [(1, 30, 1.0), (1, 40, 0.5), (1, 50, 0.0)]
    assert await store.attendance.bye_kinds(lid) == {
        (1, 30): "pairing",
        (1, 40): "requested",
        (1, 50): "absent",
    }


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_windows_opened_before_the_upgrade_count_as_called(kind, request, tmp_path):
    """A check-in window stored before migration 031 had its call made as it opened: after the
    upgrade it reads as called, so it is not called again."""
    from bot.storage import SCHEMA_VERSION, migrations, open_store
    from tests.table.test_operating import old_database

    (calls,) = [n for n, name, _ in migrations("sqlite") if name == "checkin_calls"]
    rows = (
        "INSERT INTO leagues (guild_id, channel_id, organiser_id, name, game, format, group_size, points,"
        " bye_points, round_seconds, rounds, status, starts_at, seed, created_at)"
        " VALUES (1, 2, 3, 'Old', 'nim', 'swiss', 2, '[1, 0]', 1, 86400, 3, 'running', 0, 0, 'then')",
        "INSERT INTO league_checkin_windows (league_id, round, opened_at, closes_at) VALUES (1, 1, 10, 20)",
    )
    async with old_database(kind, request, tmp_path, calls - 1, rows) as target:
        store = await open_store(target)
        try:
            assert store.upgraded_from == calls - 1 and await store.schema_version() == SCHEMA_VERSION
            window = await store.attendance.window(1, 1)
            assert window is not None and window.called and window.closes_at == 20.0
            assert await store.attendance.open_window(1, 2, 50.0)
            assert not (await store.attendance.window(1, 2)).called
            assert await store.check_integrity() == []
        finally:
            await store.close()
