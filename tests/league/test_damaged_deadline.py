"""A damaged league game at its round's deadline ends whole, on both back ends: its league result
(a game the table could not open: its players share first place) and the end of its session (its
thread freed) are one commit.  The database refusing the session's end keeps neither; allowed,
both are stored."""

from __future__ import annotations

import pytest

from bot.league.service import LeagueService
from tests.league.test_service import DAY, counter, new_league, open_games
from tests.table.test_seat_changes_whole import allow, refuse


async def test_a_damaged_games_league_result_and_its_end_are_one_commit(service, database, clock):
    store = service.store
    leagues = LeagueService(store, service)
    league = await new_league(
        leagues, name="Short", game="nim", format="swiss", group_size=2, rounds=1, days=1
    )
    for uid in (821, 822):
        await leagues.join(league, uid, f"n{uid}")
    league, _ = await leagues.start(league)
    opened = await leagues.open_round(league.id, 1)
    (session,) = await open_games(leagues, opened, {821: "n821", 822: "n822"}, counter(7100))
    (game,) = opened.games
    assert await store.games.mark_damaged(session.id, "its saved state cannot be read")
    clock.advance(DAY)

    await refuse(database, "no_end", "sessions", column="status")
    with pytest.raises(database.integrity_error):
        await leagues.round_deadline(league.id, 1, [])
    (held,) = await store.leagues.league_games(league.id, 1)
    assert held.status == "playing" and {s.place for s in held.seats} == {None}
    assert (await store.games.session(session.id)).status == "active"

    await allow(database, "no_end", "sessions")
    broken: list = []
    await leagues.round_deadline(league.id, 1, broken)
    assert [g.id for g in broken] == [game.id]
    (ended,) = await store.leagues.league_games(league.id, 1)
    assert ended.status == "finished" and {s.user_id: s.place for s in ended.seats} == {821: 1, 822: 1}
    row = await store.games.session(session.id)
    assert row.status == "abandoned" and row.end_reason == "abandoned (damaged)"
    assert await store.games.live_session(session.row.channel_id) is None
