"""League pictures: the standings table and the elimination bracket, as PNG bytes.

Plain values in, no Discord and no storage.  Both images are drawn to be read on a phone,
where Discord shows them about 400 px wide: the standings image is 1000 px wide with text at
least 1/45 of the width tall, and a long list is cut after :data:`MAX_ROWS` rows (the text
version the league posts with it lists everyone).  Every word drawn is in the ``language`` of the
render (the titles come translated; the headings and notes are messages, translated here).
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from languages import N_
from languages.bidi import isolated
from renderers.colours import BACKGROUND, GOLD, INK, MUTED, PANEL, RULE, high_contrast
from renderers.translation import ntr, num, ptr, speaking, tr
from renderers.typeset import clip, font, text_width

STANDINGS_WIDTH = 1000
ROW = 56
SIZE = 30
TITLE = 40
MAX_ROWS = 32
NOTE = 26  # a row's marks on their own line below its name (still more than 1/45 of the width)
BELOW = 36  # what that line adds to the row's height
UP = (20, 130, 60)
DOWN = (190, 40, 40)
ZEBRA = (244, 240, 231)

# (heading, width, align): the columns of the standings picture; the headings are messages
# (short: points, games, wins, tiebreak), translated where drawn.
COLUMNS = (
    ("#", 60, "r"),
    (N_("Player"), 250, "l"),
    (N_("Pts"), 95, "r"),
    (N_("G"), 60, "r"),
    (N_("W"), 60, "r"),
    (N_("TB"), 105, "r"),
    (N_("Rating"), 205, "r"),
    ("±", 110, "r"),
)
UNTRANSLATED = ("#", "±")  # headings that are signs, the same in every language
TIEBREAK_WIDTH = 90  # a tiebreak's column (at least), when the league's tiebreaks are drawn one each
RATING_WIDTH = 150  # the rating's column beside them (``1500.0`` is about 116 px)


@dataclass(frozen=True)
class StandingLine:
    """One row of the standings: ``movement`` is places gained since the last round (None: new)."""

    rank: int
    name: str
    points: float
    games: int
    wins: int
    tiebreak: float
    rating: float | None
    movement: int | None
    dropped: bool = False
    no_shows: int = 0  # games whose deadline found it this player's turn
    values: tuple[str, ...] = ()  # each tiebreak's value as drawn, when the columns name them
    byes: int = 0  # rounds the pairing had no table for them (their games do not count these)
    unplayed: int = 0  # games scored but never played (their table never opened): not in ``games``


def marks_of(line: StandingLine) -> str:
    """What the name cell adds to the name: "dropped", the no-shows, the games scored but never
    played (the games column counts only those played), the pairing's byes ("" for none)."""
    marks = [tr("dropped")] if line.dropped else []
    if line.no_shows:
        marks.append(ntr("{n} no-show", "{n} no-shows", line.no_shows))
    if line.unplayed:
        marks.append(ntr("{n} not played", "{n} not played", line.unplayed))
    if line.byes:
        marks.append(ntr("{n} bye", "{n} byes", line.byes))
    return ", ".join(marks)


def shown_name(line: StandingLine) -> str:
    """The name cell: marked when the player was dropped, with their no-shows and the pairing's
    byes when they have any ("Ana (dropped, 1 no-show, 1 bye)"): a bye's points with no game
    behind them are explained in the row itself, as the standings' text does (too wide for the
    cell, the marks go below the name: :func:`name_lines`).  A right-to-left name is isolated
    before its marks (:func:`languages.bidi.isolated`), which it would otherwise turn around."""
    marks = marks_of(line)
    return tr("{name} ({marks})", name=isolated(line.name), marks=marks) if marks else line.name


def name_lines(line: StandingLine, width: float, bold: bool = False) -> tuple[str, str]:
    """The name cell in ``width`` pixels, and the marks drawn on a line of their own below it ("" for
    none).  The marks stay beside the name when both fit whole ("Ana (1 bye)"); else the name has
    the cell to itself (cut with an ellipsis only when it alone is too long) and its marks go whole
    below it, smaller and grey, on a line that spans the row ("Wayra Mamani" over "retirado,
    2 incomparecencias, 1 ronda libre": a player dropped after two no-shows, the default, who had a
    bye, is wider than the cell in either language)."""
    marks = marks_of(line)
    whole = shown_name(line)
    if not marks or text_width(whole, SIZE, bold) <= width:
        return whole, ""
    return clip(line.name, width, SIZE, bold), marks


def columns(
    tiebreaks: Sequence[str] | None, wins: bool = True, rating: bool = True
) -> list[tuple[str, int, str]]:
    """The picture's columns: the default ones, or, with ``tiebreaks`` (short headings, as
    messages), one column per tiebreak in that order instead of the single one, the wins and the
    rating kept only when they are not among the tiebreaks (``wins``, ``rating``)."""
    if tiebreaks is None:
        return list(COLUMNS)
    out = [("#", 60, "r"), (N_("Player"), 200, "l"), (N_("Pts"), 95, "r"), (N_("G"), 60, "r")]
    if wins:
        out.append((N_("W"), 60, "r"))
    for heading in tiebreaks:  # wide enough for its heading in the render's language
        least = RATING_WIDTH if heading == N_("Rtg") else TIEBREAK_WIDTH
        out.append((heading, max(least, cell_width(heading_text(heading), True)), "r"))
    if rating:
        out.append((N_("Rating"), RATING_WIDTH, "r"))
    out.append(("±", 100, "r"))
    return out


def heading_text(heading: str) -> str:
    """A column's heading as drawn, in the render's language: a sign as it is, and the rating's
    column headed by the table's short word for it (Spanish "Val.", like "Des." beside it: the
    whole word, "Valoración", is half again as wide as a rating, and widened its column at the
    names' cost)."""
    if heading in UNTRANSLATED:
        return heading
    if heading == N_("Rating"):
        return ptr("standings column", "Rating")
    return tr(heading)


def cell_width(text: str, bold: bool = False) -> int:
    """The width of a column that holds ``text`` with room either side."""
    return math.ceil(text_width(text, SIZE, bold)) + 18


def number(value: float) -> str:
    """``3``, ``2.5``: a whole number without its ``.0``, as the language being drawn writes it
    (``2,5`` in Spanish)."""
    return num(value)


def movement_text(movement: int | None) -> tuple[str, tuple[int, int, int]]:
    if movement is None:  # a newcomer to the standings (in Spanish a noun: no one's gender)
        return ptr("standings movement", "new"), MUTED
    if movement > 0:
        return f"▲{movement}", UP
    if movement < 0:
        return f"▼{-movement}", DOWN
    return "=", MUTED


def png(image: Image.Image, contrast: bool = False) -> bytes:
    """``image`` as PNG bytes, in the high-contrast palette when ``contrast``."""
    out = io.BytesIO()
    (high_contrast(image) if contrast else image).save(out, format="PNG", optimize=True)
    return out.getvalue()


def standings(
    title: str,
    subtitle: str,
    lines: Sequence[StandingLine],
    *,
    language: str | None = None,
    contrast: bool = False,
    tiebreaks: Sequence[str] | None = None,
    wins: bool = True,
    rating: bool = True,
) -> bytes:
    """The standings picture: a title, a subtitle (the round), and one row per player, its words in
    ``language`` (``title`` and ``subtitle`` come translated); the high-contrast palette when
    ``contrast``.  With ``tiebreaks`` (their short headings, as messages, in the league's order)
    each tiebreak has a column, filled from each line's ``values`` (see :func:`columns`); the
    picture widens past :data:`STANDINGS_WIDTH` when they need it."""
    with speaking(language):
        return _standings(title, subtitle, lines, contrast, columns(tiebreaks, wins, rating))


Colour = tuple[int, int, int]


def cells(
    line: StandingLine,
    layout: Sequence[tuple[str, int, str]],
    name: str,
    colour: Colour,
    move: str,
    move_colour: Colour,
) -> list[tuple[str, Colour, bool]]:
    """One row's cells for the columns of ``layout``."""
    rating = "–" if line.rating is None else num(line.rating, 1)
    fixed: dict[str, tuple[str, Colour, bool]] = {
        "#": (str(line.rank), GOLD if line.rank == 1 else colour, True),
        N_("Player"): (name, colour, line.rank == 1),
        N_("Pts"): (number(line.points), colour, True),
        N_("G"): (str(line.games), colour, False),
        N_("W"): (str(line.wins), colour, False),
        N_("TB"): (number(line.tiebreak), colour, False),
        N_("Rating"): (rating, colour, False),
        "±": (move, move_colour, False),
    }
    out = []
    values = iter(line.values)
    for heading, _, _ in layout:
        if heading in fixed:
            out.append(fixed[heading])
        else:
            out.append((next(values, "–"), colour, False))
    return out


def table(
    lines: Sequence[StandingLine], layout: Sequence[tuple[str, int, str]]
) -> list[list[tuple[str, Colour, bool]]]:
    """The picture's rows of cells, as drawn: the headings (in the render's language), then one
    row per line."""
    rows = [[(heading_text(heading), MUTED, True) for heading, _, _ in layout]]
    for line in lines:
        colour = MUTED if line.dropped else INK
        move, move_colour = movement_text(line.movement)
        rows.append(cells(line, layout, shown_name(line), colour, move, move_colour))
    return rows


def fitted(
    layout: Sequence[tuple[str, int, str]], rows: Sequence[Sequence[tuple[str, Colour, bool]]]
) -> list[tuple[str, int, str]]:
    """``layout`` with each column as wide as its widest cell in ``rows`` (headings included, in
    the render's language), and the player's column widened into whatever width the picture has
    to spare, never past it: the picture is at most as wide as :func:`columns` made it (so it
    still reads at 400 px), the room the numbers' columns do not need goes to the names, and a
    name longer than that is cut with an ellipsis (its marks drawn below it: :func:`name_lines`)."""

    def need(i: int) -> int:
        return max(cell_width(row[i][0], row[i][2]) for row in rows)

    out = [
        (heading, least if heading == N_("Player") else need(i), align)
        for i, (heading, least, align) in enumerate(layout)
    ]
    budget = max(STANDINGS_WIDTH, sum(w for _, w, _ in layout) + 20)
    spare = budget - (sum(w for _, w, _ in out) + 20)
    return [
        (heading, min(max(w, need(i)), w + spare) if heading == N_("Player") and spare > 0 else w, align)
        for i, (heading, w, align) in enumerate(out)
    ]


MARKS_MIDDLE = ROW + BELOW // 2 - 10  # from a row's top, the middle of its marks' line


def row_tops(top: int, below: Sequence[str]) -> list[int]:
    """Where each row of the body starts, from the table's ``top`` (its headings' row first), and
    where the last one ends: a row whose marks are on a line below its name (``below``) is taller
    by :data:`BELOW`."""
    tops = [top + ROW]
    for marks in below:
        tops.append(tops[-1] + ROW + (BELOW if marks else 0))
    return tops


def _standings(
    title: str,
    subtitle: str,
    lines: Sequence[StandingLine],
    contrast: bool = False,
    layout: Sequence[tuple[str, int, str]] = COLUMNS,
) -> bytes:
    shown = list(lines[:MAX_ROWS])
    more = len(lines) - len(shown)
    rows = table(shown, layout)
    layout = fitted(layout, rows)
    header, *body = rows
    at, player, _ = next((i, w, a) for i, (h, w, a) in enumerate(layout) if h == N_("Player"))
    below = []  # each row's marks on a line of their own ("": beside the name, or none)
    for line, cells_of in zip(shown, body, strict=True):
        _, colour, bold = cells_of[at]
        name, marks = name_lines(line, player - 14, bold)
        cells_of[at] = (name, colour, bold)
        below.append(marks)
    top = 24 + TITLE + 14 + SIZE + 24
    tops = row_tops(top, below)
    height = tops[-1] + (ROW if more else 0) + 24
    width = max(STANDINGS_WIDTH, sum(w for _, w, _ in layout) + 20)
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((20, 24), clip(title, width - 40, TITLE, True), font=font(TITLE, True), fill=INK)
    draw.text((20, 24 + TITLE + 14), clip(subtitle, width - 40, SIZE), font=font(SIZE), fill=MUTED)
    draw.rectangle((10, top - 6, width - 10, height - 18), fill=PANEL, outline=RULE, width=2)

    def row(y: int, cells: Sequence[tuple[str, tuple[int, int, int], bool]]) -> None:
        x = 10
        for (_, cw, align), (text, colour, bold) in zip(layout, cells, strict=True):
            text = clip(text, cw - 14, SIZE, bold)
            if align == "r":
                draw.text((x + cw - 8, y + ROW // 2), text, font=font(SIZE, bold), fill=colour, anchor="rm")
            else:
                draw.text((x + 14, y + ROW // 2), text, font=font(SIZE, bold), fill=colour, anchor="lm")
            x += cw

    row(top, header)
    draw.line((20, top + ROW, width - 20, top + ROW), fill=RULE, width=2)
    marks_x = 10 + sum(w for _, w, _ in layout[:at]) + 14  # under the name
    for i, (line_cells, marks) in enumerate(zip(body, below, strict=True)):
        y = tops[i]
        if i % 2:
            draw.rectangle((12, y + 1, width - 12, tops[i + 1] - 1), fill=ZEBRA)
        row(y, line_cells)
        if marks:
            draw.text(
                (marks_x, y + MARKS_MIDDLE),
                clip(marks, width - 20 - marks_x, NOTE),
                font=font(NOTE),
                fill=MUTED,
                anchor="lm",
            )
    if more:
        draw.text(
            (24, tops[-1] + ROW // 2),
            ntr("… and {n} more below", "… and {n} more below", more),
            font=font(SIZE),
            fill=MUTED,
            anchor="lm",
        )
    return png(image, contrast)


@dataclass(frozen=True)
class BracketMatch:
    """One match as drawn: the two names (None: a bye or not known yet) and the winner's name."""

    a: str | None
    b: str | None
    winner: str | None = None
    first_round: bool = False


BOX_W = 300
BOX_H = 96
GAP = 70


def bracket(
    title: str,
    rounds: Sequence[Sequence[BracketMatch]],
    *,
    language: str | None = None,
    contrast: bool = False,
) -> bytes:
    """The bracket picture: one column per round, each match a box with its two players, the
    winner in bold; lines lead each winner to the next round.  Its words in ``language``
    (``title`` comes translated); the high-contrast palette when ``contrast``."""
    with speaking(language):
        return _bracket(title, rounds, contrast)


def _bracket(title: str, rounds: Sequence[Sequence[BracketMatch]], contrast: bool = False) -> bytes:
    first = len(rounds[0]) if rounds else 1
    slot = BOX_H + 28
    top = 24 + TITLE + 30
    width = 20 + len(rounds) * (BOX_W + GAP)
    height = top + first * slot + 20
    image = Image.new("RGB", (max(width, 640), height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((20, 24), clip(title, image.width - 40, TITLE, True), font=font(TITLE, True), fill=INK)
    centres: list[list[float]] = []
    for r, matches in enumerate(rounds):
        x = 20 + r * (BOX_W + GAP)
        span = slot * (2**r)
        column = []
        for i, m in enumerate(matches):
            cy = top + span * i + span / 2
            column.append(cy)
            draw.rectangle((x, cy - BOX_H / 2, x + BOX_W, cy + BOX_H / 2), fill=PANEL, outline=RULE, width=2)
            draw.line((x, cy, x + BOX_W, cy), fill=RULE, width=1)
            for k, name in enumerate((m.a, m.b)):
                if name is None:
                    text, colour, bold = (tr("bye") if m.first_round else "…"), MUTED, False
                else:
                    text, colour, bold = name, INK, name == m.winner
                    if m.winner is not None and name != m.winner:
                        colour = MUTED
                y = cy - BOX_H / 4 if k == 0 else cy + BOX_H / 4
                draw.text(
                    (x + 12, y),
                    clip(text, BOX_W - 24, SIZE, bold),
                    font=font(SIZE, bold),
                    fill=colour,
                    anchor="lm",
                )
            if r > 0:
                for prev in (centres[r - 1][2 * i], centres[r - 1][2 * i + 1]):
                    px = x - GAP
                    draw.line((px, prev, px + GAP / 2, prev), fill=RULE, width=3)
                    draw.line((px + GAP / 2, prev, px + GAP / 2, cy), fill=RULE, width=3)
                draw.line((x - GAP / 2, cy, x, cy), fill=RULE, width=3)
        centres.append(column)
    return png(image, contrast)
