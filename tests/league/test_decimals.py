"""A league's half points, tiebreak values and ratings in Spanish texts and the standings
picture's cells: "2,5 puntos", "1; 0,5; 0" (not "2.5", "1, 0.5, 0"); English unchanged."""

from __future__ import annotations

import pytest

from bot.league import texts as league_texts
from bot.league.pairing import GameResult, standings
from bot.league.rounds import Row
from bot.league.service import LeagueService, Standing
from bot.league.tiebreaks import BUCHHOLZ
from languages import ENGLISH, language
from tests.league.test_service import new_league

SPANISH = language("es")


@pytest.fixture
def leagues(service):
    return LeagueService(service.store, service)


async def test_a_leagues_half_points_in_spanish(leagues):
    league = await new_league(
        leagues,
        name="Liga",
        game="nim",
        format="swiss",
        group_size=3,
        rounds=2,
        points=[1, 0.5, 0],
        bye_points=0.5,
    )
    signup = league_texts.signup_text(league, [], SPANISH)
    assert "1; 0,5; 0" in signup and "0,5." in signup, signup
    assert "1, 0.5, 0" in league_texts.signup_text(league, [], ENGLISH)
    row = Row("7", points=2.5, games=3, wins=2, rank=1, tiebreaks={"buchholz": 1.5})
    standing = Standing(row, "Ana", None)
    text = league_texts.standings_text(league, [standing], "Clasificación", SPANISH)
    assert "2,5 puntos" in text and "1,5" in text and "2.5" not in text, text
    (drawn,) = league_texts.picture_lines([standing], {7: 3.25}, ("buchholz", "rating"), SPANISH)
    assert drawn.values == ("1,5", "3,2"), drawn.values


async def test_a_bye_worth_a_third_of_a_point_reads_with_two_decimals(leagues):
    """Points per place 3, 1, 0 make a bye worth their average, 4/3: the sign-up message, the
    round's bye line and the standings read "1.33" ("1,33"); they read "1.33333"."""
    league = await new_league(
        leagues, name="Liga", game="guacamole", format="swiss", group_size=3, rounds=2, points=[3, 1, 0]
    )
    assert league.bye_points == pytest.approx(4 / 3)  # the score itself is not rounded
    assert "a bye scores 1.33." in league_texts.signup_text(league, [], ENGLISH)
    assert "una ronda libre vale 1,33." in league_texts.signup_text(league, [], SPANISH)
    assert league_texts.bye_line(league, ["Gil"], SPANISH) == "Ronda libre (1,33 puntos): Gil"
    row = Row("7", points=4 / 3 + 3, games=1, wins=1, rank=1, tiebreaks={"buchholz": 4 / 3 + 1})
    text = league_texts.standings_text(league, [Standing(row, "Ana", None)], "Standings", ENGLISH)
    assert "Ana: 4.33 points" in text and "BH 2.33" in text and "333" not in text, text
    (drawn,) = league_texts.picture_lines([Standing(row, "Ana", None)], {}, ("buchholz",), SPANISH)
    assert drawn.values == ("2,33",), drawn.values


def test_equal_sums_of_decimal_points_tie_and_go_to_the_tiebreaks():
    """Points 1, 0.6, 0.3, 0: Ana 3rd, 1st, 2nd and Beto 1st, 2nd, 3rd both have 1.9, though added
    in their order the sums differ in their last binary digits (1.9 and 1.9000000000000001).  They
    tie, Buchholz ties them too, and head to head (Ana ahead in two of their three games) puts Ana
    first, where the floats' noise put Beto first."""
    results = [
        GameResult(1, {"beto": 1, "c": 2, "ana": 3, "d": 4}),
        GameResult(2, {"ana": 1, "beto": 2, "e": 3, "f": 4}),
        GameResult(3, {"g": 1, "ana": 2, "beto": 3, "h": 4}),
    ]
    players = ["ana", "beto", *"cdefgh"]
    rows = {r.player: r for r in standings(players, results, table=[1.0, 0.6, 0.3, 0.0])}
    ana, beto = rows["ana"], rows["beto"]
    assert ana.points == beto.points == 1.9 and ana.buchholz == beto.buchholz
    assert (ana.head_to_head, beto.head_to_head) == (2.0, 1.0)
    assert ana.rank < beto.rank


def test_equal_sums_of_stretched_points_tie():
    """Points 4, 3, 2, 1, 0 stretched over tables of four (4, 2.666667, 1.333333, 0): second at
    two tables of four and third at one of five adds to 7.333334 in either order; the two tie on
    points and on Buchholz (the same opponents' points), and the player id decides, as for any
    full tie (Buchholz only)."""
    results = [
        GameResult(1, {"z1": 1, "z2": 2, "z3": 3, "z4": 4, "z5": 5}),
        GameResult(1, {"x1": 1, "a": 2, "x2": 3, "x3": 4}),
        GameResult(1, {"y1": 1, "b": 2, "y2": 3, "y3": 4}),
        GameResult(2, {"z1": 1, "b": 3, "z2": 2, "y1": 4, "x1": 5}),
        GameResult(2, {"z3": 1, "a": 2, "y2": 3, "x2": 4}),
        GameResult(2, {"z4": 1, "z5": 2, "y3": 3, "x3": 4}),
        GameResult(3, {"z1": 1, "z2": 2, "a": 3, "x1": 4, "y1": 5}),
        GameResult(3, {"z3": 1, "b": 2, "x2": 3, "y2": 4}),
        GameResult(3, {"z4": 1, "z5": 2, "x3": 3, "y3": 4}),
    ]
    players = ["a", "b", *(f"{c}{i}" for c in "xy" for i in (1, 2, 3)), *(f"z{i}" for i in range(1, 6))]
    rows = {
        r.player: r for r in standings(players, results, table=[4.0, 3.0, 2.0, 1.0, 0.0], order=(BUCHHOLZ,))
    }
    a, b = rows["a"], rows["b"]
    assert a.points == b.points == 7.333334
    assert a.buchholz == b.buchholz, (a.buchholz, b.buchholz)
    assert a.rank + 1 == b.rank  # a full tie: the id decides
