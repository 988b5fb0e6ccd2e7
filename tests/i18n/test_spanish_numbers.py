"""A game's number reads the same way in every Spanish message: after the word "partida" it is
"n.º 12" ("la partida n.º 12 no ha empezado"), and after a game's name, as the English writes it,
"#12" ("Es tu turno en **Guacamole** #12"), so that a player who reads a turn notice and then a
reminder sees the same label for the same game."""

from __future__ import annotations

import re

import pytest

from tests.i18n.test_spanish_address import spanish_texts

NAME_THEN_NUMBER = re.compile(r"\*\*\{game\}\*\* n\.º \{\w+\}")  # "**Guacamole** n.º 12"
WORD_THEN_HASH = re.compile(r"\bpartidas? #\{\w+\}")  # "partida #12"


def mixed(entries: list[tuple[str, str]]) -> list[str]:
    """``english: spanish`` for each Spanish text that writes a game's number the other way."""
    return [
        f"{english!r}: {text!r}"
        for english, text in entries
        if NAME_THEN_NUMBER.search(text) or WORD_THEN_HASH.search(text)
    ]


def test_a_games_number_is_written_one_way():
    texts = spanish_texts()
    assert any("**{game}** #{number}" in text for _, text in texts)
    assert any("partida n.º {number}" in text for _, text in texts)
    assert mixed(texts) == []


@pytest.mark.parametrize(
    "spanish",
    [
        # What the catalogue said before, beside "**{game}** #{number}" in the next message.
        "- **{game}** n.º {number} en {server}, quedan {left}, esperando {time}: {link}",
        "Nueva partida con {players}: **{game}** n.º {number} en **{server}**: {link}",
        "la partida #{number} no ha empezado",
    ],
)
def test_the_other_way_is_found(spanish):
    assert mixed([("english", spanish)]) != []
