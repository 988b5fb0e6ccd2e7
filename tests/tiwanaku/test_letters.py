"""Tiwanaku's terrain letters: a Spanish board draws P·D·M·B (pantano, desierto, montaña, bosque)
while moves write S·D·M·F; the legend says which letter moves use, and a trade written with the
reader's letters is refused in words that name the letters moves use."""

from __future__ import annotations

import pytest

import engines
import languages
from engines.core import MalformedMove
from engines.tiwanaku import parse_move
from tests.i18n.test_spanish_boards import drawn_texts, positions

ES = languages.language("es")


def test_a_trade_in_the_readers_letters_is_refused_naming_the_letters_moves_use():
    with pytest.raises(MalformedMove) as refused:
        parse_move("MM>B")
    spanish = refused.value.said.in_words(ES)
    assert spanish.startswith(
        '"MM>B": en un intercambio los terrenos se escriben con las letras S (pantano), D (desierto), '
        "M (montaña) y F (bosque), como en SD>M"
    ), spanish
    assert str(refused.value).startswith(
        '"MM>B": a trade writes the terrains with the letters S (swamp), D (desert), M (mountain) and F (forest)'
    )
    assert str(parse_move("mm>f")) == "MM>F"  # the letters moves use, in any case


def test_the_spanish_legend_says_which_letter_moves_use():
    pos = positions("tiwanaku")[0]
    renderer = engines.get("tiwanaku").load_renderer()
    with drawn_texts() as (spanish, _):
        renderer.render(pos.view(None), names=pos.names, language="es")
    with drawn_texts() as (english, _):
        renderer.render(pos.view(None), names=pos.names)
    legend = [t for t in spanish if "(en las jugadas: " in t]
    assert [t.split(" (en las jugadas: ")[1] for t in legend] == ["S)", "F)"], legend  # P and B on the board
    assert any(t.startswith("Pantano ") for t in legend) and any(t.startswith("Bosque ") for t in legend)
    assert not [t for t in english if "(in moves: " in t]  # the letters drawn are those of moves
