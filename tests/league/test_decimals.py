"""A league's half points, tiebreak values and ratings in Spanish texts and the standings
picture's cells: "2,5 puntos", "1; 0,5; 0" (not "2.5", "1, 0.5, 0"); English unchanged."""

from __future__ import annotations

import pytest

from bot.league import texts as league_texts
from bot.league.rounds import Row
from bot.league.service import LeagueService, Standing
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
