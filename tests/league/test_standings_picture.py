"""The standings picture fits its words: headings in either language, and names up to a limit."""

from __future__ import annotations

import io

from PIL import Image

from renderers import league as pictures
from renderers.translation import speaking, tr
from renderers.typeset import text_width


def line(rank: int, name: str, movement: int | None = 0) -> pictures.StandingLine:
    return pictures.StandingLine(rank, name, 3.0, 4, 2, 5.5, 25.0, movement)


def test_every_heading_and_the_word_new_fit_their_columns_in_spanish():
    rows = [line(1, "Ana"), line(2, "Beto", movement=None)]  # "nuevo" in the ± column
    with speaking("es"):
        header = [
            (tr(h) if h not in pictures.UNTRANSLATED else h, pictures.MUTED, True)
            for h, _, _ in pictures.COLUMNS
        ]
        body = [
            pictures.cells(r, pictures.COLUMNS, r.name, pictures.INK, *pictures.movement_text(r.movement))
            for r in rows
        ]
        layout = pictures.fitted(pictures.COLUMNS, [header, *body])
        for (heading, width, _), (text, _, bold) in zip(layout, header, strict=True):
            assert text_width(text, pictures.SIZE, bold) <= width - 14, heading  # "Valoración" was cut
        assert text_width(tr("new"), pictures.SIZE) <= layout[-1][1] - 14


def test_a_long_name_widens_the_picture_up_to_a_limit_then_is_cut():
    short = Image.open(io.BytesIO(pictures.standings("Liga", "Round 1", [line(1, "Ana")])))
    assert short.width == pictures.STANDINGS_WIDTH
    name = "Beto Condori Huamán"
    wider = Image.open(io.BytesIO(pictures.standings("Liga", "Round 1", [line(1, name)])))
    assert wider.width >= short.width
    layout = pictures.fitted(pictures.COLUMNS, [[(name, pictures.INK, True)] * len(pictures.COLUMNS)])
    player = dict((h, w) for h, w, _ in layout)["Player"]
    assert text_width(name, pictures.SIZE, True) <= player - 14  # the whole name shows
    huge = "Maximiliano Fernández de la Cruz y Quispe"
    layout = pictures.fitted(pictures.COLUMNS, [[(huge, pictures.INK, True)] * len(pictures.COLUMNS)])
    assert dict((h, w) for h, w, _ in layout)["Player"] == pictures.PLAYER_MOST
