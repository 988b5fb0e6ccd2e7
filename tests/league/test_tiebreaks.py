"""Tiebreaks: each value worked by hand, an organiser's order, and the default order unchanged."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.league.pairing import GameResult, PairingError, Row, place_points, points_for_places, standings
from bot.league.tiebreaks import DEFAULT_ORDER, NAMES
from tests.league.sim import simulate

# a beats b, c draws d; a beats c, b beats d; a draws d, c beats b.
CHESS = [
    GameResult(1, {"a": 1, "b": 2}),
    GameResult(1, {"c": 1, "d": 1}),
    GameResult(2, {"a": 1, "c": 2}),
    GameResult(2, {"b": 1, "d": 2}),
    GameResult(3, {"a": 1, "d": 1}),
    GameResult(3, {"c": 1, "b": 2}),
]


def test_each_tiebreak_of_a_small_chess_event():
    rows = {r.player: r for r in standings(list("abcd"), CHESS, ratings={"d": 1500})}
    assert {p: r.points for p, r in rows.items()} == {"a": 2.5, "b": 1.0, "c": 1.5, "d": 1.0}
    expected = {
        "buchholz": {"a": 3.5, "b": 5.0, "c": 4.5, "d": 5.0},
        "median_buchholz": {"a": 1.0, "b": 1.5, "c": 1.0, "d": 1.5},
        "sonneborn_berger": {"a": 3.0, "b": 1.0, "c": 1.5, "d": 2.0},
        "wins": {"a": 2, "b": 1, "c": 1, "d": 0},
        "cumulative": {"a": 5.5, "b": 2.0, "c": 2.5, "d": 2.0},
        "rating": {"a": 0, "b": 0, "c": 0, "d": 1500},
        "head_to_head": {"a": 0, "b": 1, "c": 0, "d": 0},  # b and d tie on points and Buchholz
    }
    for name, values in expected.items():
        assert {p: r.tiebreaks[name] for p, r in rows.items()} == values, name
    assert set(rows["a"].tiebreaks) == set(NAMES)
    # Default order: Buchholz ties b and d, b beat d.
    assert [r.player for r in standings(list("abcd"), CHESS)] == ["a", "c", "b", "d"]


def test_an_organisers_order_decides():
    by_sb = standings(list("abcd"), CHESS, order=["sonneborn_berger"])
    assert [r.player for r in by_sb] == ["a", "c", "d", "b"]
    by_rating = standings(list("abcd"), CHESS, ratings={"d": 1500}, order=["rating", "head_to_head"])
    assert [r.player for r in by_rating] == ["a", "c", "d", "b"]
    # Head to head after most wins: b (1 win) is no longer tied with d (none).
    by_wins = standings(list("abcd"), CHESS, order=["wins", "head_to_head"])
    assert [r.player for r in by_wins] == ["a", "c", "b", "d"]
    assert {r.player: r.head_to_head for r in by_wins}["b"] == 0.0
    # Nothing after points: the player id decides.
    assert [r.player for r in standings(list("abcd"), CHESS, order=[])] == ["a", "c", "b", "d"]


def test_tiebreaks_in_games_of_three():
    """Sonneborn-Berger over the players one finished ahead of (half for a tie), Buchholz over
    every opponent at the table."""
    games = [
        GameResult(1, {"x": 1, "y": 2, "z": 3}),
        GameResult(2, {"y": 1, "z": 2, "x": 3}),
        GameResult(3, {"x": 1, "y": 1, "z": 3}),
    ]
    rows = {r.player: r for r in standings(list("xyz"), games)}
    # Points per place 2, 1, 0; a tie for first shares 2 + 1.
    assert {p: r.points for p, r in rows.items()} == {"x": 3.5, "y": 4.5, "z": 1.0}
    assert rows["x"].tiebreaks["sonneborn_berger"] == (4.5 + 1.0) + 0 + (4.5 / 2 + 1.0)
    assert rows["z"].tiebreaks["sonneborn_berger"] == 3.5
    assert rows["x"].tiebreaks["buchholz"] == 3 * (4.5 + 1.0)
    assert rows["x"].tiebreaks["median_buchholz"] == 4.5 + 1.0
    assert rows["x"].tiebreaks["wins"] == 1 and rows["y"].tiebreaks["wins"] == 1


def test_a_bad_order_is_refused_naming_the_tiebreaks():
    with pytest.raises(PairingError, match="unknown tiebreak 'elo'.*buchholz, median_buchholz"):
        standings(list("ab"), [], order=["elo"])
    with pytest.raises(PairingError, match="'wins' is listed twice"):
        standings(list("ab"), [], order=["wins", "rating", "wins"])


def old_standings(players, results, *, byes=(), bye_score=None, ratings=None, size=2) -> list[Row]:
    """The standings as ranked before tiebreak orders (points, Buchholz, head to head among the
    players tied on both, rating, id), kept here to check that the default order is unchanged;
    but for a bye, which Buchholz now counts as a game of ``size`` against dummies scoring the
    player's own points (FIDE C.07 Art. 16.4), where it counted nothing."""
    ratings = ratings or {}
    rows = {p: Row(p, rating=ratings.get(p, 0.0)) for p in players}
    games = list(results)
    for g in games:
        ids = list(g.places)
        for pid, pts in zip(
            ids, points_for_places([g.places[i] for i in ids], place_points(len(ids))), strict=True
        ):
            rows[pid].points += pts
    for _, pid in byes:
        rows[pid].points += bye_score or 0.0
    for g in games:
        for pid in g.places:
            rows[pid].buchholz += sum(rows[o].points for o in g.places if o != pid)
    for _, pid in byes:
        rows[pid].buchholz += (size - 1) * rows[pid].points
    ordered = sorted(rows.values(), key=lambda r: (-r.points, -r.buchholz))
    for _, same in itertools.groupby(ordered, key=lambda r: (r.points, r.buchholz)):
        tied = list(same)
        names = {r.player for r in tied}
        for g in games:
            inside = [p for p in g.places if p in names]
            for a, b in itertools.permutations(inside, 2):
                if g.places[a] < g.places[b]:
                    rows[a].head_to_head += 1
                elif g.places[a] == g.places[b]:
                    rows[a].head_to_head += 0.5
    return sorted(rows.values(), key=lambda r: (-r.points, -r.buchholz, -r.head_to_head, -r.rating, r.player))


@given(st.integers(2, 6), st.integers(4, 20), st.integers(1, 5), st.integers(0, 2**16))
def test_the_default_order_ranks_as_before(size, count, rounds, seed):
    players = [f"p{i:02d}" for i in range(max(count, size))]
    season = simulate(players, size, rounds, seed)
    ratings = {p: float((7 * i + seed) % 5) for i, p in enumerate(players)}
    new = standings(players, season.results, byes=season.byes, bye_score=1.0, ratings=ratings)
    old = old_standings(players, season.results, byes=season.byes, bye_score=1.0, ratings=ratings, size=size)
    assert [(r.player, r.points, r.buchholz, r.head_to_head) for r in new] == [
        (r.player, r.points, r.buchholz, r.head_to_head) for r in old
    ]
    assert DEFAULT_ORDER == ("buchholz", "head_to_head", "rating")


def test_ties_left_after_every_tiebreak_go_by_the_user_ids_number():
    """Discord ids grow with time, from 17 digits to 19: the older (lower) id ranks first, as the
    README's "by player id" says; compared as text, "1000..." went before "9999...", and a
    19-digit id could take a shared title from an 18-digit one."""
    older, newer = "999999999999999999", "1000000000000000000"
    games = [GameResult(1, {older: 1, newer: 1})]  # a draw: equal on points and every tiebreak
    for order in ([], list(NAMES)):
        assert [r.player for r in standings([newer, older], games, order=order)] == [older, newer]
