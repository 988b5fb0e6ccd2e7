"""A league's options as the organiser writes them (``/league create options:``): spaces or commas
between them, and a value that holds commas (Nowa Gwinea's ``hard_seats=1,2``) taken whole."""

from __future__ import annotations

import pytest

from bot.league import texts
from bot.league.service import LeagueError


def test_options_are_split_between_them_never_inside_a_value():
    assert texts.parse_options("mode=apprentice stoppers=true") == {"mode": "apprentice", "stoppers": "true"}
    assert texts.parse_options("mode=apprentice,stoppers=true") == {"mode": "apprentice", "stoppers": "true"}
    assert texts.parse_options("hard_seats=1,2 water_target=4") == {"hard_seats": "1,2", "water_target": "4"}
    assert texts.parse_options("hard_seats=1, 2, fruit_for_all=yes") == {
        "hard_seats": "1,2",
        "fruit_for_all": "yes",
    }
    with pytest.raises(LeagueError, match='"mode" is not an option; write options as name=value'):
        texts.parse_options("mode")


@pytest.mark.parametrize("text", ["mode=master mode=beginner", "mode=master modo=beginner"])
def test_an_option_given_two_values_is_refused_not_the_last_one_taken(text):
    """One option written twice with two values (in English, or once as a Spanish client names it)
    is refused naming both; the same value twice is that value."""
    with pytest.raises(
        LeagueError, match='"mode" is given twice \\("master" and "beginner"\\); give it once'
    ):
        texts.parse_options(text)
    assert texts.parse_options("mode=master modo=master") == {"mode": "master"}
