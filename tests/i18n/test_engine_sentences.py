"""Sentences the engines keep for translation (engines.core.Said): the English they read as, the
table's translation of them, and their round trip through storage."""

from __future__ import annotations

from typing import Any

import pytest

from engines.core import (
    Event,
    IllegalMove,
    MoveError,
    Outcome,
    Said,
    SetupError,
    in_words,
    said,
    said_n,
    term,
)


class Catalogue:
    """A small real catalogue: English template -> translated template (what a .po holds);
    like ``languages.Language``, a message without values is returned as it is written."""

    def __init__(self, entries: dict[str, str], plurals: dict[str, tuple[str, str]], terms: dict[str, str]):
        self.entries, self.plurals, self.terms = entries, plurals, terms

    def gettext(self, message: str, /, **values: Any) -> str:
        text = self.entries.get(message, message)
        return text.format(**values) if values else text

    def ngettext(self, singular: str, plural: str, n: int, /, **values: Any) -> str:
        one, many = self.plurals.get(singular, (singular, plural))
        return (one if n == 1 else many).format(n=n, **values)

    def pgettext(self, context: str, message: str, /, **values: Any) -> str:
        text = self.terms.get(f"{context}|{message}", message)
        return text.format(**values) if values else text


SPANISH = Catalogue(
    {
        "{p0} planted {crop} on {where}": "{p0} plantó {crop} en {where}",
        "{card} is not in your hand": "{card} no está en tu mano",
    },
    {"{p0} scored {n} point": ("{p0} ganó {n} punto", "{p0} ganó {n} puntos")},
    {"tiwanaku term|mountain": "montaña", "tiwanaku term|maize": "maíz"},
)


def test_a_sentence_reads_in_english_and_in_the_readers_language():
    s = said(
        "{p0} planted {crop} on {where}",
        crop=term("tiwanaku term", "maize"),
        where=term("tiwanaku term", "mountain"),
    )
    assert s.in_words() == str(s) == "{p0} planted maize on mountain"
    assert s.in_words(SPANISH) == "{p0} plantó maíz en montaña"


@pytest.mark.parametrize(
    ("n", "english", "spanish"),
    [
        (1, "{p0} scored 1 point", "{p0} ganó 1 punto"),
        (0, "{p0} scored 0 points", "{p0} ganó 0 puntos"),
        (3, "{p0} scored 3 points", "{p0} ganó 3 puntos"),
    ],
)
def test_a_counted_sentence_takes_the_form_of_its_count(n, english, spanish):
    s = said_n(n, "{p0} scored {n} point", "{p0} scored {n} points")
    assert s.in_words() == english and s.in_words(SPANISH) == spanish


def test_a_sentence_survives_storage_with_its_terms():
    s = said_n(2, "{p0} scored {n} point", "{p0} scored {n} points", crop=term("tiwanaku term", "maize"))
    back = Said.from_dict(s.to_dict())
    assert back == s and isinstance(back.args["crop"], Said) and back.args["crop"].context == "tiwanaku term"


def test_an_event_keeps_its_sentences_for_each_reader():
    e = Event.told(
        said("{card} is not in your hand", card="5T"),
        visible_to={1},
        public=said("{p0} planted {crop} on {where}", crop="x", where="y"),
        kind="test",
    )
    assert e.text == "5T is not in your hand" and e.public_text == "{p0} planted x on y"
    assert e.words_for(1, SPANISH) == "5T no está en tu mano"
    assert e.words_for(0, SPANISH) == e.words_for(None, SPANISH) == "{p0} plantó x en y"
    assert Event.from_dict(e.to_dict()) == e


def test_an_event_stored_before_sentences_were_kept_reads_as_it_was():
    old = Event.from_dict({"text": "Ana drew", "visible_to": None, "public_text": None, "kind": ""})
    assert old.said is None and old.words_for(None, SPANISH) == "Ana drew"
    assert "said" not in old.to_dict()


def test_a_refusal_is_english_text_and_a_kept_sentence():
    with pytest.raises(MoveError) as caught:
        raise IllegalMove("{card} is not in your hand", card="5T")
    assert str(caught.value) == "5T is not in your hand"
    assert caught.value.said.in_words(SPANISH) == "5T no está en tu mano"
    built = SetupError("players must be 2 to {most}")  # text built by code, no values: as written
    assert str(built) == "players must be 2 to {most}" and in_words(built.said, SPANISH) == str(built)


def test_an_outcome_keeps_its_reason_and_tiebreak():
    o = Outcome.told(
        (3, 1),
        ((0,), (1,)),
        said_n(3, "{p0} scored {n} point", "{p0} scored {n} points"),
        term("tiwanaku term", "maize"),
    )
    assert o.reason == "{p0} scored 3 points" and o.tiebreak == "maize"
    assert o.reason_in(SPANISH) == "{p0} ganó 3 puntos" and o.tiebreak_in(SPANISH) == "maíz"
    back = Outcome.from_dict(o.to_dict())
    assert back == o
    plain = Outcome.from_dict({"scores": [1], "ranking": [[0]], "reason": "done"})
    assert plain.reason_in(SPANISH) == "done" and plain.tiebreak_in(SPANISH) is None
