"""A Swiss field that does not divide into full tables sits at a few shorter ones, when the game
plays with fewer players, rather than leaving players out with a bye: 7 players at tables of 4
play 4 and 3 (the pairing gave 4 and three byes).  A short table's game scores the league's
points stretched over its places, so it is neither a prize nor a penalty."""

from __future__ import annotations

import pytest

from bot.league import pairing
from bot.league.controls import Controls
from bot.league.draw import Draw
from bot.league.rounds import stretched, table_sizes
from bot.league.service import LeagueService
from tests.league.test_service import DAY, counter, open_games, play_out, started_with


@pytest.fixture
def leagues(service):
    return LeagueService(service.store, service)


@pytest.mark.parametrize(
    ("count", "size", "smallest", "sizes"),
    [
        (7, 4, 3, [4, 3]),  # no bye (was 4 and three byes)
        (7, 4, 4, [4]),  # a game only of four: three byes, as before
        (10, 4, 3, [4, 3, 3]),
        (11, 4, 3, [4, 4, 3]),
        (6, 4, 3, [3, 3]),
        (5, 4, 3, [4]),  # 3 + 2 is not allowed: one bye is the fewest
        (5, 4, 2, [3, 2]),
        (7, 3, 2, [3, 2, 2]),
        (9, 3, 2, [3, 3, 3]),
        (3, 4, 3, [3]),
        (2, 4, 3, []),
        (5, 2, 2, [2, 2]),  # two-player games: one bye, as always
    ],
)
def test_the_tables_leave_the_fewest_players_out_then_are_the_fewest(count, size, smallest, sizes):
    assert table_sizes(count, size, smallest) == sizes
    assert table_sizes(count, size) == [size] * (count // size)  # full tables only by default


def test_a_short_tables_points_are_the_leagues_stretched_over_its_places():
    assert stretched((3.0, 2.0, 1.0, 0.0), 3) == (3.0, 1.5, 0.0)
    assert stretched((3.0, 2.0, 1.0, 0.0), 2) == (3.0, 0.0)
    assert stretched((10.0, 6.0, 3.0, 0.0), 3) == (10.0, 4.5, 0.0)
    assert stretched((3.0, 2.0, 1.0, 0.0), 4) == (3.0, 2.0, 1.0, 0.0)
    rows = pairing.standings(
        list("abcdefg"),
        [
            pairing.GameResult(1, {"a": 1, "b": 2, "c": 3, "d": 4}),
            pairing.GameResult(1, {"e": 1, "f": 2, "g": 3}),
        ],
        table=[3.0, 2.0, 1.0, 0.0],
    )
    points = {r.player: r.points for r in rows}
    assert [points[p] for p in "efg"] == [3.0, 1.5, 0.0]  # was 2, 1, 0: less for winning a short table


def test_a_swiss_round_of_seven_at_tables_of_four_seats_everyone():
    players = [f"p{i}" for i in range(7)]
    rnd = pairing.swiss_round(players, 4, seed=3, smallest=3)
    assert sorted(len(g) for g in rnd.groups) == [3, 4] and rnd.byes == ()
    assert sorted(rnd.players) == sorted(players)
    assert len(pairing.swiss_round(players, 4, seed=3).byes) == 3  # without smaller games: three byes


def test_the_smallest_table_is_what_the_game_and_its_options_play_with(leagues):
    def league(game, size, options=None):
        class Row:
            pass

        row = Row()
        row.game, row.group_size, row.options = game, size, options or {}
        return row

    assert Draw.smallest_table(league("pachakuna", 2)) == 2
    assert Draw.smallest_table(league("guacamole", 5)) == 3
    assert Draw.smallest_table(league("nowa_gwinea", 4)) == 3
    assert Draw.smallest_table(league("guacamole", 3)) == 3  # never a two-player table in a game of three
    # Tiwanaku's short board is for one or two players: a league on it plays no short table.
    assert Draw.smallest_table(league("tiwanaku", 2, {"board": "short"})) == 2


async def test_seven_players_of_a_four_player_game_play_a_table_of_four_and_one_of_three(
    leagues, service, clock
):
    store = service.store
    names = {uid: f"p{uid}" for uid in range(201, 208)}
    values = {"name": "Huts", "game": "nowa_gwinea", "format": "swiss", "rounds": 2, "days": 7, "seed": 5}
    league = await started_with(leagues, names, group_size=4, **values)
    opened = await leagues.open_round(league.id, 1)
    assert [len(g.players) for g in opened.games] == [4, 3] and opened.byes == []
    sessions = await open_games(leagues, opened, names, counter(2000))
    assert [len(s.seats) for s in sessions] == [4, 3]
    assert not [s for session in sessions for s in session.seats if s.user_id is None]  # no computer
    for game, session in zip(opened.games, sessions, strict=True):  # the pairing's seat order is kept
        assert [s.user_id for s in sorted(session.seats, key=lambda s: s.seat)] == game.players
    await play_out(service, sessions[1])
    clock.advance(7 * DAY)
    await leagues.round_deadline(league.id, 1)
    (short,) = [g for g in await store.leagues.league_games(league.id, 1) if len(g.seats) == 3]
    assert sorted(s.points for s in short.seats) in (
        [0.0, 1.5, 3.0],
        [0.0, 2.25, 2.25],
        [0.75, 0.75, 3.0],
        [1.5, 1.5, 1.5],
    )
    table = {int(s.row.player): s for s in await leagues.standings(await store.leagues.league(league.id))}
    assert all(table[s.user_id].row.points == s.points for s in short.seats)
    assert all(s.byes == 0 and s.row.games == 1 for s in table.values())


async def test_the_smallest_table_reads_the_options_as_the_league_stored_them(leagues):
    league = await started_with(
        leagues,
        {uid: f"p{uid}" for uid in range(231, 235)},
        name="Looms",
        game="guanga",
        format="swiss",
        group_size=4,
        rounds=2,
        options={"mode": "apprentice", "stoppers": "yes"},
    )
    assert league.options and Draw.smallest_table(league) == 3


async def test_a_drop_while_a_round_waits_for_review_reseats_its_table_short_rather_than_with_byes(
    leagues, service
):
    """Eight players of a reviewed four-player league: one of a drafted table is dropped; the three
    left play at a table of three, as the pairing would seat seven (they all had a bye)."""
    store = service.store
    names = {uid: f"p{uid}" for uid in range(241, 249)}
    values = {"name": "Huts", "game": "nowa_gwinea", "format": "swiss", "rounds": 2, "review": True}
    league = await started_with(leagues, names, group_size=4, **values)
    controls = Controls(leagues)
    draft = await controls.draft_round(league, 1)
    assert [len(g) for g in draft.groups] == [4, 4] and draft.byes == []
    gone = draft.groups[0][1]
    await leagues.drop(league, gone)
    review = await controls.draft(await store.leagues.league(league.id))
    assert review.groups == [draft.groups[1], [u for u in draft.groups[0] if u != gone]]
    assert review.byes == [] and review.dropped == [gone]
    opened = await controls.publish(await store.leagues.league(league.id))
    assert sorted(len(g.players) for g in opened.games) == [3, 4] and opened.byes == []
