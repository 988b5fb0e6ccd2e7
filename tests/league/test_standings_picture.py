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
        cells = pictures.table(rows, pictures.COLUMNS)
        layout = pictures.fitted(pictures.COLUMNS, cells)
        header = cells[0]
        for (heading, width, _), (text, _, bold) in zip(layout, header, strict=True):
            assert text_width(text, pictures.SIZE, bold) <= width - 14, heading  # "Valoración" was cut
        assert text_width(tr("new"), pictures.SIZE) <= layout[-1][1] - 14


def test_a_long_name_takes_the_spare_width_but_never_widens_the_picture():
    short = Image.open(io.BytesIO(pictures.standings("Liga", "Round 1", [line(1, "Ana")])))
    assert short.width == pictures.STANDINGS_WIDTH
    name = "Beto Condori H"  # cut at the old 250 px column, whole in the spare width
    row = [("1", pictures.INK, False)] * len(pictures.COLUMNS)
    row[1] = (name, pictures.INK, True)  # the player's column
    layout = pictures.fitted(pictures.COLUMNS, [row])
    player = {h: w for h, w, _ in layout}["Player"]
    assert text_width(name, pictures.SIZE, True) <= player - 14 < 250 + 30
    assert sum(w for _, w, _ in layout) + 20 <= pictures.STANDINGS_WIDTH
    huge = "Maximiliano Fernández de la Cruz y Quispe"
    wide = Image.open(io.BytesIO(pictures.standings("Liga", "Round 1", [line(1, huge)])))
    assert wide.width == pictures.STANDINGS_WIDTH  # the name is cut, the picture not widened
