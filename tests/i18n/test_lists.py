"""Lists in words (:func:`engines.core.listing`): each language joins the last item its own way,
and Spanish writes "e" for "y" before a word that starts with the sound /i/."""

from __future__ import annotations

from engines.core import listing, said
from languages import language


def test_a_list_joins_its_last_item_in_the_readers_language():
    items = [
        said("prepared {card}", card="5T"),
        said("prepared {card}", card="7L"),
        said("did not use the ability"),
    ]
    assert listing(items).in_words() == "prepared 5T, prepared 7L and did not use the ability"
    assert listing(items).in_words(language("es")) == "preparó 5T, preparó 7L y no usó la habilidad"
    assert listing(["5T"]) == "5T"


def test_spanish_writes_e_before_the_sound_i():
    es = language("es")
    assert (
        es.gettext("{items} and {last}", items="chakana roja", last="inti azul") == "chakana roja e inti azul"
    )
    assert es.gettext("{items} and {last}", items="Ana", last="Hilda") == "Ana e Hilda"
    assert es.gettext("{items} and {last}", items="agua", last="hielo") == "agua y hielo"  # /je/, not /i/
    assert es.gettext("{items} and {last}", items="Ana", last="Bob") == "Ana y Bob"
