"""A forfeit never played (its table never opened) scores, but nobody sat in its seats: the seat
balance the pairing keeps (who moves first, and the seats each player has had least) reads only
the games played.  Nor did its players meet: as FIDE's Swiss rules hold of a game lost by
forfeit, it is not a game played, so they may be paired again, and for the Dutch system's floats
each of them did not play the round (a downfloat, as a bye is)."""

from __future__ import annotations

import pytest

from bot.league import dutch
from bot.league.controls import Controls, Draft
from bot.league.pairing import GameResult, swiss_round
from bot.league.service import LeagueService
from tests.league.test_service import DAY, counter, open_games, started_with

PLACES = {"x": 1, "y": 2, "z": 3}


def test_a_forfeit_never_played_counts_in_nobodys_seats():
    """x, y and z have played seats 0-1-2 and 2-0-1; round 3 was a forfeit never played, paired
    1-2-0.  Each has one seat not played yet, and round 4 gives it to them."""
    games = [
        GameResult(1, PLACES, ("x", "y", "z")),
        GameResult(2, PLACES, ("y", "z", "x")),
        GameResult(3, PLACES, ("z", "x", "y"), played=False),
    ]
    for seed in range(6):
        rnd = swiss_round(["x", "y", "z"], 3, games=games, round_number=4, seed=seed)
        assert rnd.groups == (("z", "x", "y"),), seed  # was x-y-z or y-z-x: seats played already
    played = swiss_round(["x", "y", "z"], 3, games=games[:2], round_number=3, seed=0)
    assert played.groups == (("z", "x", "y"),)  # as if the forfeit had not been paired


def test_a_two_player_forfeit_never_played_gives_nobody_a_colour():
    games = [
        GameResult(1, {"a": 1, "b": 2}, ("a", "b")),
        GameResult(1, {"c": 1, "d": 2}, ("c", "d"), played=False),
    ]
    colours, floats, last = dutch.season_record(games, [])
    assert colours == {"a": ["white"], "b": ["black"]} and last == 1
    # c and d did not play the round: each a downfloat (they were "none", as if they had played)
    assert floats == {"a": ["none"], "b": ["none"], "c": ["down"], "d": ["down"]}


def test_the_players_of_a_forfeit_never_played_may_be_paired_again():
    """Round 1 paired a-c and b-d, and neither table opened (a forfeit by all: each shares the
    places).  Every score is still level, so the Dutch system pairs round 2 as it did round 1;
    the forfeits were no meetings, so nothing keeps them apart (they were paired a-d and b-c)."""
    games = [
        GameResult(1, {"a": 1, "c": 1}, ("a", "c"), played=False),
        GameResult(1, {"b": 1, "d": 1}, ("b", "d"), played=False),
    ]

    def paired(season: list[GameResult]) -> set[frozenset[str]]:
        rnd = swiss_round(
            list("abcd"),
            2,
            points=dict.fromkeys("abcd", 0.5),
            games=season,
            starting_order=list("abcd"),
            round_number=2,
            total_rounds=3,
        )
        return {frozenset(g) for g in rnd.groups}

    assert paired(games) == {frozenset("ac"), frozenset("bd")}
    played = [GameResult(g.round, g.places, g.seats) for g in games]  # the same games, played
    assert not paired(played) & {frozenset("ac"), frozenset("bd")}


@pytest.fixture
def leagues(service):
    return LeagueService(service.store, service)


async def test_a_round_whose_table_never_opened_leaves_the_seats_as_the_rounds_played(
    leagues, service, clock
):
    """Three players at one table of three: rounds 1 and 2 played, round 3's table never opened
    (a forfeit by all, at its deadline).  Round 4 seats each in the one seat they have not played."""
    store = service.store
    names = {uid: f"p{uid}" for uid in (261, 262, 263)}
    values = {"name": "Huts", "game": "nowa_gwinea", "format": "swiss", "rounds": 4, "days": 1, "seed": 5}
    league = await started_with(leagues, names, group_size=3, **values)
    channels = counter(2600)
    for number in (1, 2, 3):
        opened = await leagues.open_round(league.id, number)
        if number < 3:
            await open_games(leagues, opened, names, channels)
        clock.advance(DAY)
        await leagues.round_deadline(league.id, number)
    games = await store.leagues.league_games(league.id)
    assert [g.status for g in games] == ["finished"] * 3 and games[2].session_id is None
    sat = {u: {g.players.index(u) for g in games[:2]} for u in names}
    assert all(len(seats) == 2 for seats in sat.values())  # rounds 1 and 2 seated each apart
    groups, byes = await leagues.draw.pair(await store.leagues.league(league.id), 4)
    assert byes == [] and len(groups) == 1
    assert all(pos not in sat[u] for pos, u in enumerate(groups[0])), (groups, [g.players for g in games])


async def tables_never_opened(leagues: LeagueService, clock, names: dict[int, str]):
    """A two-player Swiss league of ``names`` (three rounds, a day each) whose round 1 tables
    never opened: forfeits by all at its deadline, each player sharing their table's first place."""
    values = {"name": "Pairs", "game": "nowa_gwinea", "format": "swiss", "rounds": 3, "days": 1, "seed": 5}
    league = await started_with(leagues, names, group_size=2, **values)
    await leagues.open_round(league.id, 1)
    clock.advance(DAY)
    await leagues.round_deadline(league.id, 1)
    return league


async def test_a_round_whose_tables_never_opened_is_no_meeting_for_the_next_pairing(leagues, service, clock):
    """Four players of a two-player league; round 1's tables never open (forfeits by all, at its
    deadline).  Round 2 may pair the same players again, and the organiser's review does not
    call those tables repeat meetings."""
    store = service.store
    names = {uid: f"p{uid}" for uid in (271, 272, 273, 274)}
    league = await tables_never_opened(leagues, clock, names)
    games = await store.leagues.league_games(league.id)
    assert [g.status for g in games] == ["finished"] * 2 and all(g.session_id is None for g in games)
    first = {frozenset(g.players) for g in games}
    fresh = await store.leagues.league(league.id)
    groups, byes = await leagues.draw.pair(fresh, 2)
    assert byes == [] and {frozenset(g) for g in groups} == first  # was two other pairs
    text = await Controls(leagues).tables_text(fresh, Draft(2, [g.players for g in games], []))
    assert "a repeat meeting" not in text, text
