"""Two Ecuadorian cards are named for the people of Otavalo, the otavaleños: "Poncho otavaleño"
(G05) and "Cobija otavaleña" (B05), with their ñ, wherever a card's name is shown (the board,
the board in words, a claim's words in menus and autocomplete, the log), in English and Spanish;
the cards' ids are unchanged."""

from __future__ import annotations

import pytest
from PIL import ImageFont

from engines import guanga as G
from engines.core import Event, in_words, said
from engines.guanga.rules import CARD, Claim
from engines.guanga.words import move_words
from languages import language
from renderers import typeset
from renderers.guanga import render
from tests.guanga.util import game

NAMES = {"G05": "Poncho otavaleño", "B05": "Cobija otavaleña"}


def _with_both_in_the_market():
    s = game(players=2, mode="master", seed=3)
    s.market[0], s.market[-1] = "G05", "B05"
    return s


def test_the_two_cards_are_spelt_with_their_n_tilde_and_keep_their_ids():
    assert {cid: CARD[cid][1] for cid in NAMES} == NAMES
    assert G.parse_move("C G05 yellow A1A3B1B2B3") == Claim("G05", "yellow", (0, 2, 5, 6, 7))
    assert G.parse_move("c b05 rombo A1A2B2B3C3C4D4D5").card == "B05"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_board_and_the_board_in_words_show_the_names_whole(lang):
    s = _with_both_in_the_market()
    view = G.view_for(s, 0)
    with typeset.fit_log() as log:
        render(view, names=["Ana", "Beto"], language=lang)
    for name in NAMES.values():
        # the name is set on up to two lines of the card, each line recorded as drawn
        runs = [
            log[i : i + n]
            for n in (1, 2)
            for i in range(len(log) - n + 1)
            if " ".join(f.text for f in log[i : i + n]) == name
        ]
        assert len(runs) == 1, [f.text for f in log]
        assert all(not f.cut for f in runs[0]) and sum(f.lines for f in runs[0]) <= 2, runs[0]
    reader = language(lang)
    lines = [in_words(line, reader) for sec in G.describe(view) for line in sec.lines]
    assert any(line.startswith("G05 Poncho otavaleño, 12 ") for line in lines), lines
    assert any(line.startswith("B05 Cobija otavaleña, 23 ") for line in lines), lines
    assert not any("otavalen" in line for line in lines)


def test_the_boards_fonts_draw_the_n_tilde():
    """The card names' font has a glyph for ñ (not the empty box of a missing letter)."""
    for bold in (False, True):
        fnt = typeset.font(18, bold)
        assert isinstance(fnt, ImageFont.FreeTypeFont)
        missing = fnt.getmask("\ue000").getbbox()  # a private-use letter no font has
        assert fnt.getmask("ñ").getbbox() != missing
        assert fnt.getmask("ñ").getbbox() != fnt.getmask("n").getbbox()  # the tilde is drawn


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_claims_words_name_the_card_as_spelt(lang):
    """What a menu or autocomplete offers for a claim of G05, in the reader's language."""
    s = _with_both_in_the_market()
    words = move_words(s, 0, Claim("G05", "yellow", (0, 2, 5, 6, 7)))
    text = words.full(G.WORDS, language(lang))
    assert "Poncho otavaleño (G05)" in text, text


def test_a_stored_sentence_reads_a_renamed_card_also_inside_another():
    """``RENAMED`` reaches a name put into a sentence inside another; an event with nothing to
    rename is kept as it was stored."""
    inner = said("{card} {name}", card="B05", name="Cobija otavalena")
    stored = Event.told(said("{player} saw {what}", player="{p0}", what=inner)).to_dict()
    back = Event.from_dict(stored).renamed(G.RENAMED)
    assert back.text == "{p0} saw B05 Cobija otavaleña" and back.said is not None
    assert back.said.in_words(language("es")).endswith("B05 Cobija otavaleña")
    kept = Event.told(said("{card} {name}", card="A01", name="Chullo"))
    assert kept.renamed(G.RENAMED) is kept
