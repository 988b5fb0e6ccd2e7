"""A player dropped between a round's pairing and the opening of its games: the computer that
stands in for them takes the seat the pairing gave them, and everyone else at the table keeps
theirs (the seat balance of the next rounds reads the seats as paired)."""

from __future__ import annotations

import pytest

from bot.league.seating import lobby_seats
from bot.league.service import LeagueService
from tests.league.test_service import counter, open_games, started_with


@pytest.fixture
def leagues(service):
    return LeagueService(service.store, service)


def in_seats(session) -> list[int | None]:
    """The table's people in game seat order (None: a computer)."""
    return [None if s.computer else s.user_id for s in sorted(session.seats, key=lambda s: s.seat)]


@pytest.mark.parametrize("position", [0, 1, 3])
async def test_a_player_dropped_before_the_games_open_leaves_the_computer_in_their_seat(
    leagues, service, position
):
    store = service.store
    names = {uid: f"p{uid}" for uid in range(251, 259)}
    values = {"name": "Huts", "game": "nowa_gwinea", "format": "swiss", "rounds": 2, "seed": 5}
    league = await started_with(leagues, names, group_size=4, **values)
    opened = await leagues.open_round(league.id, 1)
    paired = [g.players for g in opened.games]
    assert [len(g) for g in paired] == [4, 4]
    gone = paired[0][position]
    await leagues.drop(await store.leagues.league(league.id), gone)
    sessions = await open_games(leagues, opened, names, counter(2500))
    assert in_seats(sessions[0]) == [None if u == gone else u for u in paired[0]]  # was: computer last
    assert in_seats(sessions[1]) == paired[1]
    (game,) = [g for g in await store.leagues.league_games(league.id, 1) if gone in g.players]
    assert game.players == paired[0] and {s.user_id: s.forfeit for s in game.seats}[gone]


def test_the_computers_take_the_dropped_players_seats_in_order():
    # People 7 and 9 were dropped: two computers (join orders 2 and 3) take seats 0 and 2.
    assert lobby_seats([7, 8, 9, 10], [(0, 8), (1, 10), (2, None), (3, None)]) == {0: 1, 1: 3, 2: 0, 3: 2}
    assert lobby_seats([7, 8, 9], [(0, 7), (1, 8), (2, 9)]) == {0: 0, 1: 1, 2: 2}
