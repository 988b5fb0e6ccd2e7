"""The standings picture fits its words: headings in either language, and names up to a limit."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Sequence

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

from bot.league import texts, tiebreaks
from renderers import league as pictures
from renderers.translation import ptr, speaking
from renderers.typeset import ink_height, text_width


def line(rank: int, name: str, movement: int | None = 0) -> pictures.StandingLine:
    return pictures.StandingLine(rank, name, 3.0, 4, 2, 5.5, 25.0, movement)


def test_every_heading_and_the_word_new_fit_their_columns_in_spanish():
    """A newcomer's movement is "estreno" (a noun, no one's gender: it read "nuevo")."""
    rows = [line(1, "Ana"), line(2, "Beto", movement=None)]  # "estreno" in the ± column
    with speaking("es"):
        cells = pictures.table(rows, pictures.COLUMNS)
        layout = pictures.fitted(pictures.COLUMNS, cells)
        header = cells[0]
        for (heading, width, _), (text, _, bold) in zip(layout, header, strict=True):
            assert text_width(text, pictures.SIZE, bold) <= width - 14, heading  # "Valoración" was cut
        assert ptr("standings movement", "new") == "estreno"
        assert text_width(ptr("standings movement", "new"), pictures.SIZE) <= layout[-1][1] - 14


@pytest.mark.parametrize("language", [None, "es"])
@pytest.mark.parametrize("tiebreak_columns", [False, True])
def test_the_rating_heading_is_no_wider_than_the_ratings_below_it(language, tiebreak_columns):
    """The Spanish heading "Valoración" made the rating's column 196 px wide for ratings 123 px
    wide, taking that room from the names; its short word ("Val.", as "Des." beside it) is no
    wider than the ratings, as "Rating" is in English (within a few pixels)."""
    rows = [line(1, "Ana"), dataclasses.replace(line(2, "Beto"), rating=1523.4)]
    layout = pictures.columns(["BH"]) if tiebreak_columns else list(pictures.COLUMNS)
    with speaking(language):
        cells = pictures.table(rows, layout)
        fitted = pictures.fitted(layout, cells)
    at = [heading for heading, _, _ in layout].index("Rating")
    ratings = max(pictures.cell_width(row[at][0], row[at][2]) for row in cells[1:])
    assert fitted[at][1] <= ratings + 8, (cells[0][at], fitted[at][1], ratings)


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


def found_at(
    picture: Image.Image,
    text: str,
    row: int,
    below: Sequence[str] = (),
    size: int = pictures.SIZE,
    fill: tuple[int, int, int] = pictures.INK,
) -> tuple[float, int]:
    """How closely ``text`` (drawn as a name cell draws it) matches the best place in row ``row``
    of the body (0: the first), and where: the mean difference per channel (0: the same pixels)
    and the left edge.  ``below``: each row's marks drawn under its name, as the picture set them
    ("" for none); with ``size`` :data:`~renderers.league.NOTE` the text is looked for on the
    marks' line of row ``row``, else on its first line."""
    tops = pictures.row_tops(24 + pictures.TITLE + 14 + pictures.SIZE + 24, list(below) or [""] * (row + 1))
    marks = size == pictures.NOTE
    middle = tops[row] + (pictures.MARKS_MIDDLE if marks else pictures.ROW // 2)
    high = pictures.BELOW if marks else pictures.ROW  # the line's own height, not the one above
    face = pictures.font(size)
    wide = int(face.getlength(text)) + 3
    band = picture.crop((0, middle - high // 2, picture.width, middle + high // 2))
    scores = []
    for eighth in range(8):  # a word inside a longer text may start between two pixels
        drawn = Image.new("RGB", (wide, high), pictures.ZEBRA if row % 2 else pictures.PANEL)
        at = (eighth / 8, high // 2)
        ImageDraw.Draw(drawn).text(at, text, font=face, fill=fill, anchor="lm")
        for x in range(0, min(picture.width, 720) - wide):  # the name column and past it
            cell = band.crop((x, 0, x + wide, high))
            scores.append((sum(ImageStat.Stat(ImageChops.difference(cell, drawn)).mean) / 3, x))
    return min(scores)


@pytest.mark.parametrize(
    ("language", "marks"),
    [(None, "1 bye"), ("es", "1 ronda libre"), (None, "2 no-shows, 1 bye")],
)
def test_a_long_name_is_shortened_and_its_marks_kept_on_the_picture(language, marks):
    """A name too long for its column lost the marks after it ("Maximiliano Fernández de la
    Cr…", its bye gone): the name is cut with an ellipsis and the marks are drawn whole, on a
    line of their own below it (beside it they left the name a third of its cell and were cut
    still, the common Spanish case), on a picture as wide as ever (what a phone shows 400 px
    wide)."""
    shows = 2 if "no-shows" in marks else 0
    rows = [
        line(1, "Ana"),
        dataclasses.replace(line(2, "Maximiliano Fernández de la Cruz y Quispe"), byes=1, no_shows=shows),
    ]
    picture = Image.open(io.BytesIO(pictures.standings("Liga", "Round 1", rows, language=language)))
    assert picture.width == pictures.STANDINGS_WIDTH
    picture = picture.convert("RGB")
    below = ["", marks]
    found = [found_at(picture, word, 1, below) for word in ("Maximilian", "…")]
    found.append(found_at(picture, marks, 1, below, pictures.NOTE, pictures.MUTED))
    assert all(score < 1 for score, _ in found), found  # a word not drawn there: ~20
    assert found[0][1] < found[1][1], found  # the name, then its ellipsis
    assert abs(found[2][1] - found[0][1]) <= 2, found  # the marks under the name
    with speaking(language):
        name, drawn = pictures.name_lines(rows[1], 480)
    assert name.endswith("…") and text_width(name, pictures.SIZE) <= 480 and drawn == marks


WORST = {  # a player dropped after two no-shows (the default limit) who also had a bye
    None: "dropped, 2 no-shows, 1 bye",
    "es": "baja, 2 incomparecencias, 1 ronda libre",
}


@pytest.mark.parametrize("language", [None, "es"])
@pytest.mark.parametrize("order", [None, tiebreaks.DEFAULT_ORDER])
def test_a_dropped_players_marks_and_twelve_letter_name_are_drawn_whole(language, order):
    """ "Wayra Mamani (retirado, 2 incomparecencias, 1 ronda libre)" was drawn "Wayra… (retirado,
    2 in…", in English "(dropped, 2 no-shows, 1 b…": the name is drawn whole and its marks whole
    on a line below it, in a picture still 1,000 px wide, with the league's default columns (its
    tiebreaks each a column) and with the single tiebreak and the rating's column."""
    name = "Wayra Mamani"  # twelve letters, wide ones
    rows = [
        pictures.StandingLine(1, "Ana", 10.5, 5, 3, 31.5, 1523.4, 1, values=("31,5", "1", "1523,4")),
        pictures.StandingLine(2, name, 7.5, 3, 2, 28.0, 1488.2, None, True, 2, ("28", "0", "1488,2"), byes=1),
        pictures.StandingLine(3, "Sofía Huamán", 6.0, 5, 2, 25.5, None, -1, values=("25,5", "0", "–")),
    ]
    columns = {} if order is None else texts.picture_columns(order)
    data = pictures.standings("Liga Andina", "Ronda 4 de 5", rows, language=language, **columns)
    picture = Image.open(io.BytesIO(data)).convert("RGB")
    assert picture.width == pictures.STANDINGS_WIDTH
    assert ink_height(pictures.NOTE) >= pictures.STANDINGS_WIDTH / 45  # still read on a phone
    below = ["", WORST[language], ""]
    at_name = found_at(picture, name, 1, below, fill=pictures.MUTED)  # a dropped player's row is grey
    at_marks = found_at(picture, WORST[language], 1, below, pictures.NOTE, pictures.MUTED)
    assert at_name[0] < 1 and at_marks[0] < 1, (at_name, at_marks)  # cut or not drawn there: ~20
    assert abs(at_marks[1] - at_name[1]) <= 2, (at_name, at_marks)
    assert found_at(picture, "Sofía Huamán", 2, below)[0] < 1  # the rows after it in their place
