"""Tables of three to six by the weighted optimiser: seat balance, forbidden pairs, determinism."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.league.pairing import (
    GameResult,
    PairingError,
    classic_round,
    met_pairs,
    place_points,
    points_for_places,
    repeats,
    swiss_round,
)
from bot.league.seating import give_seats, seat_counts, table_cost
from tests.league.sim import names, partitions


def season(players: list[str], size: int, rounds: int, seed: int, pair=swiss_round, **extra):
    """Rounds paired from the standings so far, random places; returns every round."""
    rng = random.Random(seed)
    history: list[tuple[str, ...]] = []
    points: Counter[str] = Counter()
    byes: Counter[str] = Counter()
    out = []
    for r in range(rounds):
        rnd = pair(players, size, points=points, history=history, byes_had=byes, seed=seed + r, **extra)
        out.append(rnd)
        for g in rnd.groups:
            order = list(g)
            rng.shuffle(order)
            places = [order.index(p) + 1 for p in g]
            for p, pts in zip(g, points_for_places(places, place_points(size)), strict=True):
                points[p] += pts
        byes.update(rnd.byes)
        history += rnd.groups
    return out


def worst_spread(rounds, players, size) -> int:
    seats = seat_counts([g for r in rounds for g in r.groups])
    return max(
        max(Counter(seats[p])[s] for s in range(size)) - min(Counter(seats[p])[s] for s in range(size))
        for p in players
        if p in seats
    )


@settings(max_examples=15)
@given(st.integers(3, 6), st.integers(2, 5), st.integers(0, 2**16))
def test_seats_balance_over_a_season(size, tables, seed):
    """Over two seasons' worth of seats (each player ``2 * size`` games), nobody sits in one seat
    more than two games beyond another (perfect balance is 0)."""
    players = names(size * tables)
    rounds = season(players, size, 2 * size, seed)
    assert worst_spread(rounds, players, size) <= 2
    for rnd in rounds:
        assert sorted(rnd.players) == sorted(players)


def test_the_classic_pairing_left_seats_to_standing():
    """The same seasons paired as before: the best-placed player of each table always moved
    first, and some player sat in one seat five games more than in another."""
    players = names(12)
    spreads = [worst_spread(season(players, 3, 6, seed, pair=classic_round), players, 3) for seed in range(5)]
    assert max(spreads) >= 5
    fair = [worst_spread(season(players, 3, 6, seed), players, 3) for seed in range(5)]
    assert max(fair) <= 2


@st.composite
def crowded(draw):
    size = draw(st.sampled_from([3, 2]))
    count = draw(st.sampled_from([6, 9] if size == 3 else [6, 8]))
    players = names(count)
    rng = random.Random(draw(st.integers(0, 2**16)))
    pairs = list(itertools.combinations(players, 2))
    forbidden = {frozenset(rng.choice(pairs)) for _ in range(draw(st.integers(1, 6)))}
    history = []
    for _ in range(draw(st.integers(0, 2))):
        order = players[:]
        rng.shuffle(order)
        history += [tuple(order[i : i + size]) for i in range(0, count, size)]
    return size, players, forbidden, history, rng.randrange(1000)


@given(crowded())
def test_forbidden_pairs_never_meet_while_they_can_be_kept_apart(case):
    """Checked against every possible seating: a forbidden pair sits together only when every
    seating holds one, and then as few as the best seating (a repeat meeting is preferred)."""
    size, players, forbidden, history, seed = case
    rnd = swiss_round(players, size, history=history, forbidden=forbidden, seed=seed)
    assert sorted(rnd.players) == sorted(players)

    def count(groups):
        return sum(frozenset(pair) in forbidden for g in groups for pair in itertools.combinations(g, 2))

    assert count(rnd.groups) == min(count(p) for p in partitions(players, size))


def test_a_forbidden_pair_breaks_up_the_natural_table():
    """Six players of one score in threes, p00, p01 and p02 rated highest, would sit together;
    forbidding p00 and p01 keeps them apart (the classic pairing knew no forbidden pairs)."""
    ratings = {"p00": 3.0, "p01": 2.0, "p02": 1.0}
    assert {"p00", "p01", "p02"} == set(classic_round(names(6), 3, ratings=ratings).groups[0])
    rnd = swiss_round(names(6), 3, ratings=ratings, forbidden=[("p00", "p01")])
    assert not any({"p00", "p01"} <= set(g) for g in rnd.groups)
    assert "p00" in rnd.groups[0]


def test_a_pair_that_is_not_two_players_is_refused():
    with pytest.raises(PairingError, match="two different players"):
        swiss_round(names(6), 3, forbidden=[("p00", "p00")])
    with pytest.raises(PairingError, match="two different players"):
        swiss_round(names(6), 3, forbidden=[("p00", "p01", "p02")])


@settings(max_examples=20)
@given(st.integers(3, 6), st.integers(0, 2**16))
def test_the_same_seed_seats_the_same_way(size, seed):
    players = names(size * 3 + 1)
    first = season(players, size, 3, seed)
    assert season(players, size, 3, seed) == first


def test_each_player_gets_the_seat_they_have_had_least():
    """p0 sat first twice, p1 second twice, p2 third twice: each now gets another seat, and
    nobody the seat they had last."""
    seats = {"p0": [0, 0], "p1": [1, 1], "p2": [2, 2]}
    for seed in range(10):
        order = give_seats(["p0", "p1", "p2"], seats, random.Random(seed))
        assert all(order.index(p) != seats[p][-1] for p in order)


def test_seat_history_given_outright_is_used():
    """``seat_history`` stands for the seats read from ``history``: the player who always moved
    first does not move first now."""
    players = names(3)
    rnd = swiss_round(players, 3, seat_history={"p00": [0, 0, 0], "p01": [1, 2, 1]}, seed=4)
    assert rnd.groups[0][0] != "p00"


def test_the_cost_weighs_forbidden_over_repeats_over_spread():
    met = met_pairs([("a", "b")])
    points = {"a": 2.0, "b": 2.0, "c": 0.0}
    assert table_cost(("a", "c"), met, set(), points) == 20.0
    assert table_cost(("a", "b"), met, set(), points) == 1000.0
    assert table_cost(("a", "b"), met, {frozenset("ab")}, points) == 1_001_000.0


def test_seats_from_the_seasons_games():
    """``games`` with their seat order stand for ``history`` when that is empty."""
    games = [GameResult(1, {"a": 1, "b": 2, "c": 3}, seats=("a", "b", "c"))]
    rnd = swiss_round(list("abcdefghi"), 3, games=games, seed=1)
    assert repeats(rnd.groups, [("a", "b", "c")]) == 0
