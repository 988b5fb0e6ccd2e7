"""A late sign-up's place in the standings is new, not a move: the table before their round did
not have them (it ranked them, with nothing, below everyone)."""

from __future__ import annotations

import pytest

from bot.league.presence import Attendance
from bot.league.service import LeagueService
from tests.league.test_service import DAY, counter, new_league, open_games, play_out


@pytest.fixture
def leagues(service):
    return LeagueService(service.store, service)


async def test_a_late_sign_up_is_new_in_the_standings_of_the_round_they_joined(leagues, service, clock):
    store = service.store
    league = await new_league(
        leagues, name="Nim swiss", game="nim", format="swiss", group_size=2, rounds=4, days=1, seed=4
    )
    names = {uid: f"n{uid}" for uid in (301, 302, 303, 304)}
    for uid, name in names.items():
        await leagues.join(league, uid, name)
    league, _ = await leagues.start(league)
    channels = counter(1000)
    for number in (1, 2):
        opened = await leagues.open_round(league.id, number)
        if number == 2:  # 305 signs up during round 2, with a bye in it
            await Attendance(leagues).late_join(await store.leagues.league(league.id), 305, "n305")
        for session in await open_games(leagues, opened, names, channels):
            await play_out(service, session)
        clock.advance(DAY)
        await leagues.round_deadline(league.id, number)
    table = {s.row.player: s for s in await leagues.standings(await store.leagues.league(league.id))}
    assert table["305"].row.byes == 1 and table["305"].movement is None  # "new"; it read up or down
    assert all(table[str(u)].movement is not None for u in names)
    opened = await leagues.open_round(league.id, 3)  # a round later, 305 was in the table before
    for session in await open_games(leagues, opened, {**names, 305: "n305"}, channels):
        await play_out(service, session)
    table = {s.row.player: s for s in await leagues.standings(await store.leagues.league(league.id))}
    assert table["305"].movement is not None
