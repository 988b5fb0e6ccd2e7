"""The pairing core: Swiss groups, round robins, brackets and standings (pure, property-tested)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.league.pairing import (
    GameResult,
    PairingError,
    bracket,
    bracket_rounds,
    bracket_size,
    bye_points,
    met_pairs,
    place_points,
    points_for_places,
    repeats,
    round_robin,
    seed_positions,
    standings,
    swiss_order,
    swiss_round,
    top,
)
from tests.league.sim import names, partitions, simulate


def play(groups, rng: random.Random) -> list[GameResult]:
    results = []
    for g in groups:
        order = list(g)
        rng.shuffle(order)
        results.append({p: i + 1 for i, p in enumerate(order)})
    return results


@st.composite
def fields(draw, most: int = 40):
    size = draw(st.integers(2, 6))
    count = draw(st.integers(size, most))
    return size, names(count), draw(st.integers(0, 2**16))


@given(fields())
def test_a_swiss_round_seats_everyone_once(case):
    size, players, seed = case
    rnd = swiss_round(players, size, seed=seed)
    assert sorted(rnd.players) == sorted(players)
    assert all(len(g) == size for g in rnd.groups)
    assert len(rnd.byes) == len(players) % size
    assert swiss_round(players, size, seed=seed) == rnd


@given(fields(), st.integers(1, 5))
def test_a_season_of_swiss_rounds_keeps_its_invariants(case, rounds):
    """Over a simulated season: everyone once per round, byes rotate (nobody gets a second bye
    while someone with fewer plays), and groups hold players of neighbouring standing in round one."""
    size, players, seed = case
    rng = random.Random(seed)
    history: list[tuple[str, ...]] = []
    byes_had: Counter[str] = Counter()
    points: Counter[str] = Counter()
    for r in range(rounds):
        rnd = swiss_round(players, size, points=points, history=history, byes_had=byes_had, seed=seed + r)
        assert sorted(rnd.players) == sorted(players)
        if r == 0 and size > 2:
            order = swiss_order(players, points, seed=seed)
            playing = [p for p in order if p not in rnd.byes]
            assert [set(g) for g in rnd.groups] == [
                set(playing[i : i + size]) for i in range(0, len(playing), size)
            ]
        elif r == 0:  # the Dutch system: the top half meets the bottom half, in order
            playing = [p for p in players if p not in rnd.byes]
            half = len(playing) // 2
            assert sorted(tuple(sorted(g)) for g in rnd.groups) == [
                (playing[i], playing[i + half]) for i in range(half)
            ]
        for b in rnd.byes:  # a second bye only once everyone with fewer sits out too
            assert all(p in rnd.byes for p in players if byes_had[p] < byes_had[b])
        byes_had.update(rnd.byes)
        assert max(byes_had[p] for p in players) - min(byes_had[p] for p in players) <= 1
        for game in play(rnd.groups, rng):
            for p, pts in zip(game, points_for_places(list(game.values()), place_points(size)), strict=True):
                points[p] += pts
        history.extend(rnd.groups)


@st.composite
def small_histories(draw):
    size = draw(st.sampled_from([2, 3]))
    count = draw(st.sampled_from([4, 6, 8] if size == 2 else [6, 9]))
    players = names(count)
    seed = draw(st.integers(0, 2**16))
    rng = random.Random(seed)
    history = []
    for _ in range(draw(st.integers(0, 3))):
        order = players[:]
        rng.shuffle(order)
        history.extend(tuple(order[i : i + size]) for i in range(0, count, size))
    return size, players, history, seed


@given(small_histories())
def test_no_repeat_meeting_while_one_can_be_avoided(case):
    """Checked against every possible grouping: when one without a repeat exists, the round has
    no repeat."""
    size, players, history, seed = case
    rnd = swiss_round(players, size, history=history, seed=seed)
    met = met_pairs(history)
    avoidable = any(
        all(not met[frozenset(pair)] for g in grouping for pair in itertools.combinations(g, 2))
        for grouping in partitions(players, size)
    )
    if avoidable:
        assert repeats(rnd.groups, history) == 0
    else:
        assert repeats(rnd.groups, history) > 0


def test_a_large_field_past_the_search_budget_still_avoids_repeats():
    """1,000 players in 4-player groups over five rounds: the greedy fallback and the swaps keep
    the repeat meetings few."""
    players = names(1000)
    history = []
    rng = random.Random(5)
    points: Counter[str] = Counter()
    for r in range(5):
        rnd = swiss_round(players, 4, points=points, history=history, seed=r, budget=2_000)
        assert sorted(rnd.players) == sorted(players)
        assert repeats(rnd.groups, history) <= 5
        for game in play(rnd.groups, rng):
            for p, place in game.items():
                points[p] += 4 - place
        history.extend(rnd.groups)


def test_seven_players_in_threes_give_one_bye():
    rnd = swiss_round(names(7), 3, seed=1)
    assert len(rnd.groups) == 2 and len(rnd.byes) == 1


def test_bad_requests_are_refused_with_a_reason():
    with pytest.raises(PairingError, match="2 to 6 players"):
        swiss_round(names(8), 7)
    with pytest.raises(PairingError, match="at least 3 players"):
        swiss_round(names(2), 3)
    with pytest.raises(PairingError, match="twice"):
        swiss_round(["a", "a", "b"], 2)
    with pytest.raises(PairingError, match="at least 2"):
        bracket(["a"])


@given(st.integers(2, 24), st.integers(0, 99))
def test_a_round_robin_of_pairs_meets_every_pair_once(count, seed):
    players = names(count)
    rounds = round_robin(players, seed=seed)
    assert len(rounds) == (count - 1 if count % 2 == 0 else count)
    pairs = Counter(frozenset(g) for r in rounds for g in r.groups)
    assert set(pairs) == {frozenset(c) for c in itertools.combinations(players, 2)}
    assert set(pairs.values()) == {1}
    for r in rounds:
        assert sorted(r.players) == sorted(players)
    byes = Counter(b for r in rounds for b in r.byes)
    assert all(byes[p] == (1 if count % 2 else 0) for p in players)


@given(st.integers(3, 5), st.integers(0, 4), st.integers(0, 99))
def test_a_round_robin_of_groups_meets_every_group_once(size, extra, seed):
    players = names(size + extra + 1)
    rounds = round_robin(players, size, seed=seed)
    groups = Counter(frozenset(g) for r in rounds for g in r.groups)
    assert set(groups) == {frozenset(c) for c in itertools.combinations(players, size)}
    assert set(groups.values()) == {1}
    for r in rounds:
        assert sorted(r.players) == sorted(players)
        assert r.groups


@given(st.integers(2, 70), st.integers(0, 2**16))
def test_a_bracket_is_a_power_of_two_with_byes_to_the_top_seeds(count, seed):
    seeds = names(count)
    size = bracket_size(count)
    assert size & (size - 1) == 0 and count <= size < 2 * count
    b = bracket(seeds)
    first = b.rounds[0]
    assert len(first) == size // 2 and len(b.rounds) == size.bit_length() - 1
    with_bye = {m.a or m.b for m in first if m.is_bye}
    assert with_bye == set(seeds[: size - count])
    assert sorted(p for m in first for p in (m.a, m.b) if p) == sorted(seeds)
    # Play it out with random winners: each round halves, and the champion won every match.
    rng = random.Random(seed)
    winners = {}
    while b.champion is None:
        for r, i, m in b.open_matches():
            winners[(r, i)] = rng.choice([m.a, m.b])
        b = bracket(seeds, winners)
    for r in range(1, len(b.rounds)):
        assert [m.a for m in b.rounds[r]] == [m.winner for m in b.rounds[r - 1][0::2]]
    assert b.champion in seeds
    assert bracket_rounds(count) == len(b.rounds)  # what a final stage adds to a season


def test_a_final_stage_is_the_bracket_of_the_top_of_the_standings():
    rows = standings(names(6), [GameResult(1, {"p00": 1, "p01": 2}), GameResult(1, {"p02": 1, "p03": 2})])
    finalists = top(rows, 3, dropped=["p00"])
    assert finalists[0] == "p02" and "p00" not in finalists and len(finalists) == 3
    b = bracket(finalists)
    assert [(m.a, m.b) for m in b.rounds[0]] == [("p02", None), (finalists[1], finalists[2])]
    assert [bracket_rounds(n) for n in (2, 3, 4, 5, 8, 9)] == [1, 2, 2, 3, 3, 4]


def test_the_top_two_seeds_meet_only_in_the_final():
    assert seed_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    for size in (2, 4, 8, 16, 32):
        order = seed_positions(size)
        assert sorted(order) == list(range(1, size + 1))
        assert order.index(1) < size // 2 <= order.index(2)


def test_a_final_stage_seeds_by_standing():
    rows = standings(
        ["a", "b", "c", "d", "e"],
        [GameResult(1, {"a": 1, "b": 2}), GameResult(1, {"c": 1, "d": 2}), GameResult(2, {"a": 1, "c": 2})],
        byes=[(1, "e")],
        bye_score=1.0,
    )
    seeds = top(rows, 4, dropped=["e"])
    assert seeds[0] == "a" and "e" not in seeds and len(seeds) == 4
    b = bracket(seeds)
    assert {b.rounds[0][0].a, b.rounds[0][0].b} == {seeds[0], seeds[3]}


def test_points_per_place_and_draws():
    assert place_points(4) == (3.0, 2.0, 1.0, 0.0)
    assert place_points(2) == (1.0, 0.0)
    assert points_for_places([1, 1], place_points(2)) == [0.5, 0.5]
    assert points_for_places([1, 2, 2], place_points(3)) == [2.0, 0.5, 0.5]
    assert bye_points(2) == 1.0 and bye_points(3) == 1.0 and bye_points(4) == 1.5
    with pytest.raises(PairingError):
        points_for_places([1, 5], place_points(2))


def test_standings_break_ties_by_buchholz_then_head_to_head_then_rating():
    # a and b both have 1 point; a beat c (who went on to win again), b beat d (who lost again).
    results = [
        GameResult(1, {"a": 1, "c": 2}),
        GameResult(1, {"b": 1, "d": 2}),
        GameResult(2, {"c": 1, "d": 2}),
        GameResult(2, {"e": 1, "f": 2}),
    ]
    rows = standings(list("abcdef"), results, ratings={"a": 0, "b": 5})
    by = {r.player: r for r in rows}
    assert by["a"].points == by["b"].points == by["c"].points == 1.0
    assert by["a"].buchholz == 1.0 and by["b"].buchholz == 0.0
    assert [r.player for r in rows][:2] == ["a", "c"]
    # Equal points and Buchholz: head to head decides, then rating.
    h2h = standings(
        ["x", "y"], [GameResult(1, {"x": 1, "y": 2}), GameResult(2, {"y": 1, "x": 2})], ratings={"y": 3}
    )
    assert [r.player for r in h2h] == ["y", "x"] and h2h[0].head_to_head == h2h[1].head_to_head == 1


@given(fields(24), st.integers(1, 4))
def test_standings_add_up(case, rounds):
    size, players, seed = case
    season = simulate(players, size, rounds, seed)
    for rnd in season.rounds:
        assert sorted(rnd.players) == sorted(players)
    rows = season.table()
    total = sum(r.points for r in rows)
    assert total == pytest.approx(
        len(season.results) * sum(place_points(size)) + len(season.byes) * bye_points(size)
    )
    assert [r.rank for r in rows] == list(range(1, len(players) + 1))
    assert all(a.points >= b.points for a, b in itertools.pairwise(rows))
    assert sum(r.games for r in rows) == len(season.results) * size
    before = season.table(through_round=rounds - 1)
    assert sum(r.games for r in before) == sum(1 for g in season.results if g.round < rounds) * size


def test_past_the_budget_the_swaps_lower_the_repeats():
    """With no search budget at all the greedy grouping is used, and the swaps never raise its
    repeat meetings, and lower them in some crowded seasons (checked against the plain greedy)."""
    from bot.league.pairing import greedy_groups

    players = names(24)
    lowered = 0
    for seed in range(20):
        rng = random.Random(seed)
        history = []
        for _ in range(4):
            order = players[:]
            rng.shuffle(order)
            history += [tuple(order[i : i + 3]) for i in range(0, 24, 3)]
        rnd = swiss_round(players, 3, history=history, seed=seed, budget=0)
        assert sorted(rnd.players) == sorted(players)
        plain = greedy_groups(swiss_order(players, {}, seed=seed), 3, met_pairs(history))
        assert repeats(rnd.groups, history) <= repeats(plain, history)
        lowered += repeats(rnd.groups, history) < repeats(plain, history)
    assert lowered >= 5
