"""A decimal reaches a Spanish reader as Spanish writes it: "2,5 puntos", not "2.5 puntos", in
every text and picture that shows points, half points, ratings and tiebreak values; English is
unchanged.  What people type (league points "1,0.5,0") is read as before."""

from __future__ import annotations

from bot.sessions.model import RatingChange
from bot.terminal.prompt import points
from bot.texts import number, rating_lines
from bot.web.standings import rating_text
from languages import ENGLISH, language
from renderers import league as pictures
from renderers.translation import speaking

SPANISH = language("es")


def test_a_language_writes_its_own_decimal_sign():
    assert SPANISH.number(2.5) == "2,5" and ENGLISH.number(2.5) == "2.5"
    assert SPANISH.number(3.0) == "3" and SPANISH.number(-0.5) == "-0,5"
    assert SPANISH.number(12.25, 1) == "12,2" and ENGLISH.number(12.0, 1) == "12.0"
    assert SPANISH.numbers([1, 0.5, 0]) == "1; 0,5; 0"  # a comma list would read "1, 0, 5, 0"
    assert SPANISH.numbers([3, 2, 1]) == "3, 2, 1" and ENGLISH.numbers([1, 0.5]) == "1, 0.5"


def test_scores_points_and_ratings_in_spanish_texts():
    assert number(2.5, SPANISH) == "2,5" and number(2.5) == "2.5"
    assert points(2.5, SPANISH) == "2,5 puntos" and points(2.5) == "2.5 points"
    (line,) = rating_lines([RatingChange(1, "Ana", 1.5, 3.5)], SPANISH)
    assert "Ana 1,5 → 3,5 (+2)" in line, line
    assert rating_text(4.25, SPANISH) == "4,2" and rating_text(4.25, ENGLISH) == "4.2"


def test_the_standings_picture_draws_spanish_decimals():
    line = pictures.StandingLine(1, "Ana", 2.5, 3, 1, 1.5, 4.25, 0)
    with speaking("es"):
        drawn = [
            text
            for text, _, _ in pictures.cells(line, pictures.COLUMNS, "Ana", pictures.INK, "=", pictures.INK)
        ]
    assert "2,5" in drawn and "1,5" in drawn and "4,2" in drawn, drawn
    with speaking("en"):
        drawn = [
            text
            for text, _, _ in pictures.cells(line, pictures.COLUMNS, "Ana", pictures.INK, "=", pictures.INK)
        ]
    assert "2.5" in drawn and "4.2" in drawn, drawn


def test_a_repeating_fraction_shows_two_decimals_unless_told_how_many():
    assert ENGLISH.number(4 / 3) == "1.33" and SPANISH.number(4 / 3) == "1,33"
    assert ENGLISH.number(2 / 3) == "0.67" and ENGLISH.number(3.9899999999999998) == "3.99"
    assert ENGLISH.number(0.025) == "0.025" and ENGLISH.number(0.125) == "0.125"  # exact: as they are
    assert ENGLISH.number(12.25) == "12.25" and SPANISH.number(1.9999999) == "2"
    assert ENGLISH.number(4 / 3, 3) == "1.333"  # as many as asked for
