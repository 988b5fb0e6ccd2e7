"""The shared checker of kept sentences (tests/support/sentences.py) passes sound sentences and
fails each kind of unsound one, so the games' sentence tests can rely on it."""

from __future__ import annotations

import pytest

from engines.core import Event, IllegalMove, Outcome, Said, said, said_n, term
from tests.support.sentences import (
    check_event,
    check_outcome,
    check_refusal,
    check_said,
    translated,
    untranslated,
    values_problems,
)

GOOD = said("Swap your {card}", card="5T")
MOUNTAIN = term("tiwanaku term", "mountain")


def test_a_sound_sentence_passes_and_reads_in_spanish():
    assert check_said(GOOD, "Swap your 5T", differs=True) == "Cambiar tu 5T"
    assert check_said(said_n(3, "{n} move", "{n} moves")) == "3 jugadas"
    assert check_said(MOUNTAIN, "mountain") == "montaña"


@pytest.mark.parametrize(
    "bad",
    [
        said("a sentence no catalogue has"),
        said("Swap your {card}", card=said("a sentence no catalogue has")),  # nested
        term("guanga term", "mountain"),  # a term in the wrong context
        said_n(2, "{n} move", "{n} steps"),  # a plural the catalogue does not have
        Said("{n} move", {"n": 2}),  # a counted message kept without its plural
    ],
)
def test_a_message_spanish_lacks_fails(bad):
    assert untranslated(bad) or not translated(bad)
    with pytest.raises(AssertionError):
        check_said(bad)


def test_a_template_without_words_is_let_off_only_when_asked():
    joined = said("{part0}; {part1}", part0=GOOD, part1=MOUNTAIN)
    with pytest.raises(AssertionError):
        check_said(joined)
    assert check_said(joined, wordless_ok=True) == "Cambiar tu 5T; montaña"


def test_a_sentence_reading_other_than_its_text_fails():
    with pytest.raises(AssertionError):
        check_said(GOOD, "Swap your 6T")


@pytest.mark.parametrize(
    "bad",
    [
        said("Swap your {card}"),  # no value for a placeholder (read as written)
        said("Swap your {card}", card="5T", extra="x"),  # a value no placeholder uses
        said("Swap your {card}", card=5.5),  # neither a whole number, text nor a sentence
        said("Swap your {card}", card=None),
        said_n(True, "{n} move", "{n} moves"),  # counted by a truth value
    ],
)
def test_unsound_values_fail(bad):
    assert values_problems(bad)
    with pytest.raises(AssertionError):
        check_said(bad)


def test_seats_as_values_follow_the_games_choice():
    seat_given = said("{p0} took {card}", card="5T", p0="{p0}")
    seat_left = said("{p0} took {card}", card="5T")
    assert not values_problems(seat_given) and not values_problems(seat_left)
    assert values_problems(seat_given, seats_in_values=False)
    assert values_problems(seat_left, seats_in_values=True)
    assert not values_problems(seat_given, seats_in_values=True)


def test_spanish_equal_to_english_fails_only_when_asked():
    same = said("{number}. {name}", number=1, name="Ana")  # Spanish writes it as English does
    assert check_said(same) == "1. Ana"
    with pytest.raises(AssertionError):
        check_said(same, differs=True)


def test_an_event_whose_sentence_differs_from_its_text_fails():
    check_event(Event.told(GOOD, visible_to={0}, public=MOUNTAIN, kind="swap"))
    wrong = Event("Swap your 6T", said=GOOD)
    with pytest.raises(AssertionError):
        check_event(wrong)
    public_wrong = Event("Swap your 5T", frozenset({0}), "desert", said=GOOD, public_said=MOUNTAIN)
    with pytest.raises(AssertionError):
        check_event(public_wrong)
    public_unkept = Event("Swap your 5T", frozenset({0}), "mountain", said=GOOD)
    with pytest.raises(AssertionError):
        check_event(public_unkept)
    with pytest.raises(AssertionError):
        check_event(Event("Swap your 5T"))  # no sentence kept at all


def test_a_refusal_whose_sentence_is_not_its_text_fails():
    assert check_refusal(IllegalMove("Swap your {card}", card="5T")) == "Cambiar tu 5T"
    with pytest.raises(AssertionError):
        check_refusal(IllegalMove("a refusal no catalogue has"))
    with pytest.raises(AssertionError):
        check_refusal(ValueError("Swap your 5T"))  # keeps no sentence
    wrong = IllegalMove("Swap your {card}", card="5T")
    wrong.args = ("Swap your 6T",)
    with pytest.raises(AssertionError):
        check_refusal(wrong)


def test_an_outcome_is_checked_through_its_sentences():
    check_outcome(Outcome.told((1, 0), ((0,), (1,)), GOOD, MOUNTAIN))
    with pytest.raises(AssertionError):
        check_outcome(Outcome.told((1, 0), ((0,), (1,)), said("a reason no catalogue has")))
    with pytest.raises(AssertionError):
        check_outcome(Outcome((1, 0), ((0,), (1,)), "done"))  # no reason kept
