"""A hut's move written almost right is refused naming the part that is wrong and what it may be:
the hut's letter, its orientation or its square (each was told only the whole notation)."""

from __future__ import annotations

import pytest

import engines.nowa_gwinea as ng
from engines.core import MalformedMove
from tests.support.sentences import ES, untranslated

CASES = [
    ("Q3C4", "Q is not a hut; the huts are F I L N P T U V W X Y Z", "Q no es una choza"),
    ("remove Q", "Q is not a hut; the huts are F I L N P T U V W X Y Z", "Q no es una choza"),
    ("F8C4", "there is no orientation 8; they go from 0 to 7", "no existe la orientación 8"),
    ("F3J4", "J4 is not on the board; rows go A-H and columns 1-8", "J4 no está en el tablero"),
    ("f 3 c9", "C9 is not on the board", "C9 no está en el tablero"),
    ("F3C10", "C10 is not on the board", "C10 no está en el tablero"),
    (
        "F C4",
        "the orientation is missing; write the hut, an orientation 0-7 and the square, like F0C4",
        "como F0C4",
    ),
]


@pytest.mark.parametrize(("text", "english", "spanish"), CASES)
def test_a_move_almost_right_says_which_part_is_wrong(text, english, spanish):
    with pytest.raises(MalformedMove) as caught:
        ng.parse_move(text)
    said = caught.value.said
    assert f'"{text}" is not a Nowa Gwinea move: {english}' in str(caught.value)
    assert untranslated(said) == []
    assert spanish in said.in_words(ES)


def test_each_corrected_example_is_a_move():
    assert ng.parse_move("F0C4") == ng.Place("F", 0, ng.parse_move("F3C4").anchor)
