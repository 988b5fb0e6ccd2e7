"""Aji Styles is "Ají" in every Spanish text, as the Spanish catalogue writes it: the turn's lines,
the board in words, the move menus and the board's picture (its cards and its legend), never
"Aji" in one and "Ají" in another.  English keeps "Aji"."""

from __future__ import annotations

import random
import re

from bot.choices import entries
from bot.describe import lines_of
from engines import guacamole as G
from engines.core import config_from_options
from languages import language
from renderers import guacamole as drawn
from renderers.typeset import clear_art
from tests.i18n.test_spanish_boards import drawn_texts

UNACCENTED = re.compile(r"\bAji\b")
NAMES = ("Ana", "Bo", "Cy")


def spanish_and_english_words(seed: int = 3) -> tuple[list[str], list[str]]:
    """The words of a seeded three-player game in Spanish, then in English: every event line,
    every seat's board in words, every menu of moves, and the public board drawn at the end."""
    es, en = language("es"), language("en")
    s = G.new_game(config_from_options(G.Config, 3, {}), 3, seed)
    rng = random.Random(seed)
    words: dict[str, list[str]] = {"es": [], "en": []}
    for _ in range(400):
        if G.outcome(s) is not None:
            break
        seat = min(G.to_move(s))
        legal = list(G.legal_moves(s, seat))
        for code, t in (("es", es), ("en", en)):
            words[code] += [e.label for e in entries(G, s, seat, legal, NAMES, t)]
            words[code] += lines_of(G.describe(G.view_for(s, seat)), t, NAMES)
        s, events = G.apply_move(s, seat, G.computer_move(G.view_for(s, seat), legal, rng))
        for code, t in (("es", es), ("en", en)):
            words[code] += [e.words_for(None, t) or "" for e in events]
    for code in ("es", "en"):
        clear_art()
        with drawn_texts() as (found, _log):
            drawn.render(G.view_for(s, None), names=NAMES, language=code)
        words[code] += found
    return words["es"], words["en"]


def test_spanish_writes_aji_with_its_accent_everywhere_and_english_without():
    spanish, english = spanish_and_english_words()
    assert not [w for w in spanish if UNACCENTED.search(w)]
    assert any("Ají Styles" in w for w in spanish) and any(re.search(r"\d Ají\b", w) for w in spanish)
    assert not [w for w in english if "Ají" in w]
    assert any("Aji Styles" in w for w in english)
