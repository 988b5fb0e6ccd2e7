"""Rating seasons and the Swiss final stage in storage, on both back ends.

A league is a rating season: its rated games also count into a table of its own that starts
fresh, written in the game's finishing transaction beside the all-time table.  A Swiss league's
final stage is stored on the league (its size and first round) and its seeds are fixed in the
transaction that opens its first round.
"""

from __future__ import annotations

import pytest

from bot import ratings
from bot.storage import ResultRow
from bot.storage.leagues import ROUND_JOB
from tests.league.test_storage import GUILD, new_league


async def finished_game(store, channel, places, *, rate=True, league_game=None):
    """A two-player nim session on the test server, finished with ``places`` (user id -> place)."""
    host, guest = list(places)
    sid = await store.games.create_session(
        game="nim",
        guild_id=GUILD,
        channel_id=channel,
        host_id=host,
        host_name=f"u{host}",
        options={},
        max_players=2,
        seed=1,
    )
    if league_game is not None:
        assert await store.leagues.attach_session(league_game, sid)
    results = [ResultRow(i, uid, None, place, False) for i, (uid, place) in enumerate(places.items())]
    await store.games.finish(
        sid,
        status="finished",
        reason="done",
        outcome=None,
        results=results,
        rated=rate,
        names={uid: f"u{uid}" for uid in places},
    )
    return sid


async def test_a_league_game_counts_in_its_season_which_starts_fresh(store):
    # Before the league, 10 has beaten 20 twice in casual games: the all-time table knows it.
    await finished_game(store, 1, {10: 1, 20: 2})
    await finished_game(store, 2, {10: 1, 20: 2})
    lid = await new_league(store)
    for uid in (10, 20):
        await store.leagues.join_league(lid, uid, f"u{uid}")
    await store.leagues.start_league(lid, store.clock.time(), 3)
    assert await store.ratings.season_leaderboard(lid) == []
    (gid,) = await store.leagues.open_round(lid, 1, [[10, 20]], [], store.clock.time() + 10)
    await finished_game(store, 3, {20: 1, 10: 2}, league_game=gid)

    season = {r.user_id: r for r in await store.ratings.season_leaderboard(lid)}
    alltime = {r.user_id: r for r in await store.ratings.leaderboard(GUILD, "nim")}
    assert (season[20].games, season[20].wins, season[10].games, season[10].wins) == (1, 1, 1, 0)
    assert (alltime[10].games, alltime[10].wins, alltime[20].games, alltime[20].wins) == (3, 2, 3, 1)
    # The season's numbers are one game's from the starting rating, not the all-time ones.
    fresh = {
        n.user_id: n for n in ratings.rate([ratings.Standing(20, "u20", 1), ratings.Standing(10, "u10", 2)])
    }
    for uid in (10, 20):
        assert season[uid].mu == pytest.approx(fresh[uid].mu)
        assert season[uid].sigma == pytest.approx(fresh[uid].sigma)
        assert alltime[uid].mu != pytest.approx(fresh[uid].mu)
    # The season's winner first.
    assert [r.user_id for r in await store.ratings.season_leaderboard(lid)] == [20, 10]


async def test_only_rated_league_games_reach_the_season(store):
    lid = await new_league(store)
    for uid in (10, 20, 30, 40):
        await store.leagues.join_league(lid, uid, f"u{uid}")
    await store.leagues.start_league(lid, store.clock.time(), 3)
    _, g2 = await store.leagues.open_round(lid, 1, [[10, 20], [30, 40]], [], store.clock.time() + 10)
    await finished_game(store, 5, {30: 1, 40: 2}, rate=False, league_game=g2)  # not rated: no row
    await finished_game(store, 6, {50: 1, 60: 2})  # rated, but no league's game
    assert await store.ratings.season_leaderboard(lid) == []
    assert await store.ratings.season_leaderboard(10**30) == []  # an id no database holds


async def test_the_final_stage_is_set_until_it_begins_and_its_seeds_fixed_when_it_opens(store):
    lid = await new_league(store)  # Swiss, 3 rounds
    for uid in (10, 20, 30, 40, 50):
        await store.leagues.join_league(lid, uid, f"u{uid}")
    assert await store.leagues.set_final(lid, 4, 4, 5)
    league = await store.leagues.league(lid)
    assert (league.final_top, league.final_round, league.rounds, league.swiss_rounds) == (4, 4, 5, 3)
    assert await store.leagues.set_final(lid, None, None, 3)  # removed again
    league = await store.leagues.league(lid)
    assert (league.final_top, league.final_round, league.rounds) == (None, None, 3)
    assert await store.leagues.set_final(lid, 3, 4, 5)
    await store.leagues.start_league(lid, store.clock.time(), 5)
    for number in (1, 2, 3):
        assert await store.leagues.open_round(
            lid, number, [[10, 20], [30, 40]], [50], store.clock.time() + 10
        )
    # The final's first round: a bracket of 3 (a bye for the top seed) lasts two rounds.
    assert not (await store.leagues.league(lid)).in_final
    ids = await store.leagues.open_round(
        lid, 4, [[40, 30]], [], store.clock.time() + 10, tables=[2], finalists=[20, 40, 30], rounds=5
    )
    assert ids is not None
    league = await store.leagues.league(lid)
    assert league.in_final and league.stage_start == 4 and league.current_round == 4
    seeds = {p.user_id: p.final_seed for p in await store.leagues.league_players(lid)}
    assert seeds == {10: None, 20: 1, 30: 3, 40: 2, 50: None}
    assert not await store.leagues.set_final(lid, 2, 4, 5)  # it has begun
    assert not await store.leagues.set_final(lid, None, None, 3)
    assert (await store.leagues.league_games(lid, 4))[0].table_no == 2


async def test_a_round_waiting_for_permissions_remembers_what_it_waited_for(store):
    lid = await new_league(store)
    await store.leagues.schedule_round(lid, 2, 500.0, missing=["Create Public Threads"])
    job = await store.jobs.job(ROUND_JOB, str(lid))
    assert job.due_at == 500.0 and job.payload == {"round": 2, "missing": ["Create Public Threads"]}
    await store.leagues.schedule_round(lid, 2, 600.0)
    assert (await store.jobs.job(ROUND_JOB, str(lid))).payload == {"round": 2}
