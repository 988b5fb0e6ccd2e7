"""Guanga's vocabulary, kept for translation: the words that appear as values inside its
sentences (colours, symbols, patches, the flags and typologies of market cards and orders).

Each word is one :func:`~engines.core.term` in the context ``"guanga term"``, written out here
once so that the extractor sees it and the same word is always the same term.  A patch is named
as a whole (``red chakana``), since a colour agrees with its symbol in other languages
(*chakana roja*, *inti rojo*).  Notation never changes: a claim is still written
``C A03 yellow B2C3D4`` in every language.
"""

from __future__ import annotations

from engines.core import Said, said, term

COLOURS: dict[str, Said] = {
    "red": term("guanga term", "red"),
    "blue": term("guanga term", "blue"),
    "yellow": term("guanga term", "yellow"),
    "green": term("guanga term", "green"),
}

SYMBOLS: dict[str, Said] = {
    "chakana": term("guanga term", "chakana"),
    "inti": term("guanga term", "inti"),
    "amaru": term("guanga term", "amaru"),
    "kuntur": term("guanga term", "kuntur"),
    "rombo": term("guanga term", "rombo"),
}

# A colour or a symbol, as a claim shows it and as a workshop marker stands for it.
ATTRS: dict[str, Said] = {**COLOURS, **SYMBOLS, "grey": term("guanga term", "grey")}

# Every patch by its name (colour, then symbol): kind = colour * 5 + symbol, as in data.py.
PATCHES: dict[str, Said] = {
    "red chakana": term("guanga term", "red chakana"),
    "red inti": term("guanga term", "red inti"),
    "red amaru": term("guanga term", "red amaru"),
    "red kuntur": term("guanga term", "red kuntur"),
    "red rombo": term("guanga term", "red rombo"),
    "blue chakana": term("guanga term", "blue chakana"),
    "blue inti": term("guanga term", "blue inti"),
    "blue amaru": term("guanga term", "blue amaru"),
    "blue kuntur": term("guanga term", "blue kuntur"),
    "blue rombo": term("guanga term", "blue rombo"),
    "yellow chakana": term("guanga term", "yellow chakana"),
    "yellow inti": term("guanga term", "yellow inti"),
    "yellow amaru": term("guanga term", "yellow amaru"),
    "yellow kuntur": term("guanga term", "yellow kuntur"),
    "yellow rombo": term("guanga term", "yellow rombo"),
    "green chakana": term("guanga term", "green chakana"),
    "green inti": term("guanga term", "green inti"),
    "green amaru": term("guanga term", "green amaru"),
    "green kuntur": term("guanga term", "green kuntur"),
    "green rombo": term("guanga term", "green rombo"),
}

# The flags (countries) and typologies (where a garment is worn) of cards and orders.
FLAGS: dict[str, Said] = {
    "Peru": term("guanga term", "Peru"),
    "Bolivia": term("guanga term", "Bolivia"),
    "Ecuador": term("guanga term", "Ecuador"),
    "Colombia": term("guanga term", "Colombia"),
    "Chile": term("guanga term", "Chile"),
}

TYPOLOGIES: dict[str, Said] = {
    "Head": term("guanga term", "Head"),
    "Torso": term("guanga term", "Torso"),
    "Ritual": term("guanga term", "Ritual"),
    "Waist": term("guanga term", "Waist"),
    "Legs": term("guanga term", "Legs"),
}

# The levels of the market's cards (and their decks).
LEVELS: dict[str, Said] = {
    "Apprentice": term("guanga level", "Apprentice"),
    "Guardian": term("guanga level", "Guardian"),
    "Master": term("guanga level", "Master"),
    "Blanket": term("guanga level", "Blanket"),
}

# The ranks of the solo version (data.SOLO_RANKS), the rulebook's English with its Spanish word
# (the same messages the picture's rank table shows).
RANKS: dict[str, Said] = {
    "Artisan (Artesana)": said("Artisan (Artesana)"),
    "Master (Maestra)": said("Master (Maestra)"),
    "Instructor (Instructora)": said("Instructor (Instructora)"),
    "Guardian (Guardiana)": said("Guardian (Guardiana)"),
    "Aspirant (Aspirante)": said("Aspirant (Aspirante)"),
    "Apprentice (Aprendiz)": said("Apprentice (Aprendiz)"),
}


def word(table: dict[str, Said], name: str) -> Said | str:
    """``name``'s term in ``table``; a name the table lacks stays as it is written."""
    return table.get(name, name)


__all__ = ["ATTRS", "COLOURS", "FLAGS", "LEVELS", "PATCHES", "RANKS", "SYMBOLS", "TYPOLOGIES", "word"]
