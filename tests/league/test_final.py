"""A Swiss league's final stage and its rating season, through the league service on both back
ends (time moved by the test)."""

from __future__ import annotations

import pytest

from bot.league.seasons import season_named, seasons
from bot.league.service import LeagueError
from tests.league.test_service import DAY, GUILD, counter, leagues, new_league, open_games, play_out

__all__ = ["leagues"]  # the fixture, shared


async def swiss_of_six(leagues, name="Nim open"):
    league = await new_league(
        leagues, name=name, game="nim", format="swiss", group_size=2, rounds=3, days=1, seed=7
    )
    names = {uid: f"s{uid}" for uid in range(401, 407)}
    for uid, who in names.items():
        await leagues.join(league, uid, who)
    return league, names


async def test_a_swiss_league_ends_in_a_final_of_its_top_three(leagues, service, clock):
    store = service.store
    league, names = await swiss_of_six(leagues)
    league = await leagues.set_final(league, 3)
    assert (league.final_top, league.final_round, league.rounds) == (3, 4, 5)  # a bracket of 4: 2 rounds
    league, _ = await leagues.start(league)
    assert league.rounds == 5
    channels = counter(4000)
    for number in (1, 2, 3):
        opened = await leagues.open_round(league.id, number)
        assert not opened.final_stage and len(opened.games) == 3
        sessions = await open_games(leagues, opened, names, channels)
        await play_out(service, sessions[0])
        clock.advance(DAY)
        await leagues.round_deadline(league.id, number)
    league = await store.leagues.league(league.id)
    swiss = await leagues.standings(league)
    top = [int(s.row.player) for s in swiss[:3]]
    points_before = {s.row.player: s.row.points for s in swiss}
    byes_before = await store.leagues.league_byes(league.id)

    # Round 4 opens the final: seeds 2 and 3 play, seed 1 waits for them.
    opened = await leagues.open_round(league.id, 4)
    assert opened.final_stage and opened.byes == [top[0]]
    (game,) = opened.games
    assert sorted(game.players) == sorted(top[1:]) and game.table_no == 2
    assert [int(p) for p in await leagues.seeds(opened.league)] == top
    assert await store.leagues.league_byes(league.id) == byes_before  # the final's bye scores nothing
    with pytest.raises(LeagueError, match="has begun"):
        await leagues.set_final(opened.league, 4)
    (session,) = await open_games(leagues, opened, names, channels)
    await play_out(service, session)
    clock.advance(DAY)
    await leagues.round_deadline(league.id, 4)
    semi = (await store.leagues.league_games(league.id, 4))[0]
    semi_winner = next(s.user_id for s in semi.seats if s.place == 1)

    opened = await leagues.open_round(league.id, 5)
    (final,) = opened.games
    assert sorted(final.players) == sorted([top[0], semi_winner]) and opened.byes == []
    await open_games(leagues, opened, names, channels)
    clock.advance(DAY)
    await leagues.round_deadline(league.id, 5)  # the computer finishes the final
    assert await leagues.open_round(league.id, 6) is None  # the season has no sixth round

    league = await store.leagues.league(league.id)
    bracket = await leagues.bracket(league)
    champion = await leagues.champion(league)
    assert champion is not None and str(champion) == bracket.champion and champion in final.players
    league = await store.leagues.league(league.id)
    assert league.status == "finished" and league.champion_id == champion
    # The standings stay the Swiss rounds': the final's games add no league points.
    after = await leagues.standings(league)
    assert {s.row.player: s.row.points for s in after} == points_before
    assert sum(s.row.games for s in after) == 3 * 3 * 2


async def test_the_final_skips_dropped_players_and_shrinks_its_bracket(leagues, service, clock):
    store = service.store
    league, names = await swiss_of_six(leagues, "Nim drop")
    league, _ = await leagues.start(league)
    league = await leagues.set_final(league, 3)  # while running, before the last Swiss round
    channels = counter(5000)
    for number in (1, 2, 3):
        opened = await leagues.open_round(league.id, number)
        await open_games(leagues, opened, names, channels)
        clock.advance(DAY)
        await leagues.round_deadline(league.id, number)
    league = await store.leagues.league(league.id)
    leader = int((await leagues.standings(league))[0].row.player)
    await leagues.drop(league, leader)
    expected = [int(p) for p in await leagues.finalists(await store.leagues.league(league.id))]
    assert leader not in expected and len(expected) == 3
    opened = await leagues.open_round(league.id, 4)
    assert [int(p) for p in await leagues.seeds(opened.league)] == expected
    assert leader not in {u for g in opened.games for u in g.players} | set(opened.byes)


async def test_final_stage_refusals(leagues, service, clock):
    league, names = await swiss_of_six(leagues, "Nim refusals")
    with pytest.raises(LeagueError, match="2 to 1000 players, not 1 "):  # says which size was refused
        await leagues.set_final(league, 1)
    cup = await new_league(leagues, name="Cup", game="nim", format="elimination", group_size=2)
    with pytest.raises(LeagueError, match="only a Swiss league"):
        await leagues.set_final(cup, 4)
    league = await leagues.set_final(league, 8)
    with pytest.raises(LeagueError, match="only 6 players signed up; lower it"):
        await leagues.start(league)
    league = await leagues.set_final(league, 0)
    assert (league.final_top, league.final_round, league.rounds) == (None, None, 3)
    league, _ = await leagues.start(league)
    with pytest.raises(LeagueError, match="2 to 6 players, not 7 "):
        await leagues.set_final(league, 7)
    await service.store.leagues.end_league(league.id, None)
    with pytest.raises(LeagueError, match="is over"):
        await leagues.set_final(await service.store.leagues.league(league.id), 2)


async def test_each_league_is_a_rating_season_found_by_id_or_name(leagues, service, clock):
    store = service.store
    league, names = await swiss_of_six(leagues, "Nim spring")
    league, _ = await leagues.start(league)
    opened = await leagues.open_round(league.id, 1)
    sessions = await open_games(leagues, opened, names, channels=counter(6000))
    for session in sessions:
        await play_out(service, session)
    board = await store.ratings.season_leaderboard(league.id)
    assert len(board) == 6 and all(r.games == 1 for r in board)
    assert sorted(r.wins for r in board) == [0, 0, 0, 1, 1, 1]
    assert [x.id for x in await seasons(store, GUILD, "nim")] == [league.id]
    assert await seasons(store, GUILD, "guacamole") == []
    assert (await season_named(store, GUILD, "nim", str(league.id))).id == league.id
    assert (await season_named(store, GUILD, "nim", "  nim SPRING ")).id == league.id
    with pytest.raises(LeagueError, match="not a Nim season on this server"):
        await season_named(store, GUILD, "nim", "winter")
    with pytest.raises(LeagueError, match="not a Guacamole season"):
        await season_named(store, GUILD, "guacamole", str(league.id))


async def test_a_final_with_fewer_than_two_players_left_ends_on_the_standings(leagues, service, clock):
    store = service.store
    league, names = await swiss_of_six(leagues, "Nim empty")
    league = await leagues.set_final(league, 2)
    league, _ = await leagues.start(league)
    channels = counter(7000)
    for number in (1, 2, 3):
        opened = await leagues.open_round(league.id, number)
        await open_games(leagues, opened, names, channels)
        clock.advance(DAY)
        await leagues.round_deadline(league.id, number)
    league = await store.leagues.league(league.id)
    table = await leagues.standings(league)
    last_one = int(table[-1].row.player)
    for s in table[:-1]:
        await leagues.drop(league, int(s.row.player))
    assert await leagues.open_round(league.id, 4) is None
    league = await store.leagues.league(league.id)
    assert league.current_round == 3 and await leagues.seeds(league) == []
    assert await leagues.champion(league) == last_one  # the only one still playing
