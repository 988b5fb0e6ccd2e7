"""Every text of every game's board reads on a phone: its capitals stand 4.7 px or more when
Discord shows the picture 400 px wide (:data:`renderers.typeset.PHONE_FLOOR`)."""

from __future__ import annotations

import pytest

import engines
from renderers.layout import WIDTH
from renderers.samples import SETUPS, positions
from renderers.typeset import PHONE_FLOOR, clear_art, on_phone, text_log


@pytest.mark.parametrize("language", [None, "es"])
@pytest.mark.parametrize("game", sorted(SETUPS))
def test_every_text_of_every_board_reads_on_a_phone(game, language):
    """Measured on every sample board of the game (start, middle and end of each setup), from
    every seat and the spectator's, in English and Spanish, every text drawn (words, letters,
    numbers, the cards' art too) stands 4.7 px or more on a phone.  Below it were Guanga's stack
    heights (3 px), its small boards' labels (4) and its workshop's counts (4.3); Tiwanaku's
    cubes' letters, its scales' numbers and "diversity" (4), its legend in Spanish (4.3); Nowa
    Gwinea's totem names on its large boards (3.3 and 4.3), its water holes' marks, its huts'
    letters (3.3) and its task boards' labels (4); P'achakuna's loads' letters (3), its small
    flags' letters (4), its llamas' numbers (4.3) and its panel's words in Spanish (4)."""
    renderer = engines.get(game).load_renderer()
    small: dict[tuple[str, int], str] = {}
    for pos in positions(game):
        for seat in (None, *range(pos.players)):
            clear_art()  # art drawn once per language (cards, tiles) is drawn again, and logged
            with text_log() as log:
                png = renderer.render(
                    pos.view(seat),
                    names=pos.names,
                    last_action=pos.last_action_in(language),
                    language=language,
                )
            assert png
            for drawn in log:
                if round(on_phone(drawn.cap, WIDTH), 1) < PHONE_FLOOR:
                    small.setdefault((drawn.text, drawn.size), f"{pos.label} seat {seat}")
    assert not small, small


LONG_NAMES = (
    "Maximiliano Fernández de la Vega",
    "Bartolomé Quispe Huamán",
    "Wenceslao Mamani Condori",
    "Guadalupe Ticona Apaza",
    "Eloy",
    "Fátima",
)


@pytest.mark.parametrize("language", [None, "es"])
@pytest.mark.parametrize("game", sorted(SETUPS))
def test_long_names_are_shortened_not_shrunk_below_the_floor(game, language):
    """Where a seat's name did not fit, it shrank: with long names, Nowa Gwinea's captions of
    the revealed villages stood 3.3 px on a phone and its task boards' headings 4.3, the names
    of P'achakuna's seats 4.  In the middle and at the end of every setup, from the spectator's
    seat and the first, every text still stands 4.7 px or more (the name shortened, with "…")."""
    renderer = engines.get(game).load_renderer()
    small: dict[tuple[str, int], str] = {}
    for pos in positions(game):
        if pos.label.endswith("-start"):
            continue
        for seat in (None, 0):
            with text_log() as log:
                renderer.render(
                    pos.view(seat),
                    names=LONG_NAMES[: pos.players],
                    last_action=pos.last_action_in(language),
                    language=language,
                )
            for drawn in log:
                if round(on_phone(drawn.cap, WIDTH), 1) < PHONE_FLOOR:
                    small.setdefault((drawn.text, drawn.size), f"{pos.label} seat {seat}")
    assert not small, small


def test_the_log_measures_the_drawn_letters():
    """The log's height is the drawn capitals': an "H" stamped at the size logged stands that
    many pixels, and 19 (DejaVu Sans) is the least size at the floor on a 1200 px board."""
    from PIL import Image, ImageDraw

    from renderers.typeset import font, label

    for size in (13, 19, 28):
        image = Image.new("L", (80, 80), 0)
        with text_log() as log:
            label(ImageDraw.Draw(image), (10, 10), "H", size, True, (255,))
        (drawn,) = log
        _, top, _, bottom = image.getbbox()
        assert drawn.size == size and drawn.cap == bottom - top, (size, drawn)
    assert (
        min(
            s
            for s in range(8, 40)
            if on_phone(font(s).getbbox("H")[3] - font(s).getbbox("H")[1], WIDTH) >= 4.65
        )
        == 19
    )
