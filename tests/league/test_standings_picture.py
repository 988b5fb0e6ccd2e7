"""The standings picture fits its words: headings in either language, and names up to a limit."""

from __future__ import annotations

import dataclasses
import io

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

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


def found_at(picture: Image.Image, text: str, row: int) -> tuple[float, int]:
    """How closely ``text`` (drawn as a name cell draws it) matches the best place in row ``row``
    of the body (0: the first), and where: the mean difference per channel (0: the same pixels)
    and the left edge."""
    top = 24 + pictures.TITLE + 14 + pictures.SIZE + 24
    middle = top + pictures.ROW * (row + 1) + pictures.ROW // 2
    face = pictures.font(pictures.SIZE)
    wide = int(face.getlength(text)) + 3
    band = picture.crop((0, middle - pictures.ROW // 2, picture.width, middle + pictures.ROW // 2))
    scores = []
    for eighth in range(8):  # a word inside a longer text may start between two pixels
        drawn = Image.new("RGB", (wide, pictures.ROW), pictures.ZEBRA if row % 2 else pictures.PANEL)
        at = (eighth / 8, pictures.ROW // 2)
        ImageDraw.Draw(drawn).text(at, text, font=face, fill=pictures.INK, anchor="lm")
        for x in range(0, min(picture.width, 720) - wide):  # the name column and past it
            cell = band.crop((x, 0, x + wide, pictures.ROW))
            scores.append((sum(ImageStat.Stat(ImageChops.difference(cell, drawn)).mean) / 3, x))
    return min(scores)


@pytest.mark.parametrize(
    ("language", "marks"),
    [(None, "(1 bye)"), ("es", "(1 ronda libre)"), (None, "(2 no-shows, 1 bye)")],
)
def test_a_long_name_is_shortened_and_its_marks_kept_on_the_picture(language, marks):
    """A name too long for its column lost the marks after it ("Maximiliano Fernández de la
    Cr…", its bye gone): the name gives way instead, with an ellipsis, and the marks are drawn
    whole, on a picture as wide as ever (what a phone shows 400 px wide)."""
    shows = 2 if "no-shows" in marks else 0
    rows = [
        line(1, "Ana"),
        dataclasses.replace(line(2, "Maximiliano Fernández de la Cruz y Quispe"), byes=1, no_shows=shows),
    ]
    picture = Image.open(io.BytesIO(pictures.standings("Liga", "Round 1", rows, language=language)))
    assert picture.width == pictures.STANDINGS_WIDTH
    picture = picture.convert("RGB")
    words = ["Maximilian", "…", marks]  # each drawn, in this order
    found = [found_at(picture, word, 1) for word in words]
    assert all(score < 1 for score, _ in found), list(zip(words, found, strict=True))  # marks: ~20
    assert [x for _, x in found] == sorted(x for _, x in found), list(zip(words, found, strict=True))
    with speaking(language):
        cell = pictures.fitted_name(rows[1], 480)
    assert cell.endswith(marks) and text_width(cell, pictures.SIZE) <= 480
