"""A refusal that repeats the value it was given says so in Spanish as a person would, with tú:
"(indicaste 7)", not the calque "(llegó 7)" of the English "(got 7)"; every such message of the
catalogue says it the same way."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

import engines
import languages
from bot.queue.wishes import parse_counts
from bot.sessions import Refusal
from engines.core import said
from languages import language

GUANGA = engines.get("guanga")


def _entries() -> list[tuple[str, str]]:
    with languages.catalogue_path("es").open("rb") as fh:
        catalog = read_po(fh, locale="es")
    return [(m.id, m.string) for m in catalog if m.id and isinstance(m.id, str) and m.string]


def test_every_got_says_indicaste():
    got = [(en, es) for en, es in _entries() if "(got {got})" in en]
    assert len(got) >= 3, got
    assert all("(indicaste {got})" in es for _, es in got), got
    assert not [es for _, es in _entries() if "llegó {" in es]


@pytest.mark.parametrize(
    ("typed", "english", "spanish"),
    [
        ("tres", 'players takes counts like 3, 2-4 or 2,4 (got "tres")', '(indicaste "tres")'),
        ("2-9", "seats 2 to 4 players (got 2-9)", "jugadores (indicaste 2-9)"),
    ],
)
def test_the_queues_player_counts_are_refused_with_what_was_given(typed, english, spanish):
    with pytest.raises(Refusal) as refused:
        parse_counts(typed, GUANGA)
    assert english in refused.value.in_words(language("en")), refused.value
    words = refused.value.in_words(language("es"))
    assert words.endswith(spanish) and "llegó" not in words, words


def test_an_options_wrong_value_in_both_languages():
    sentence = said(
        "The option {option} must be {allowed} (got {got}).", option="nivel", allowed="fácil", got="'expert'"
    )
    assert sentence.in_words(language("en")) == "The option nivel must be fácil (got 'expert')."
    assert sentence.in_words(language("es")) == "La opción nivel debe ser fácil (indicaste 'expert')."
