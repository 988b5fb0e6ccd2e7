"""The results card posted under a finished game's last board: the ranking with places, scores and
rating changes, each seat's score over the game as a line chart, and the game's key figures.

``render(card)`` takes a :class:`Card` of plain values (the table builds it from the log) and
returns PNG bytes.  The card is :data:`WIDTH` pixels wide; every text is at least
:data:`SMALLEST` pixels tall in the font's size, so that it still reads when Discord shows the
image 400 pixels wide.  Seats keep the colours and shapes they have on the boards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from languages.bidi import isolated, names_isolated
from renderers.colours import BACKGROUND, INK, MUTED, PANEL, RULE, high_contrast, seat_colour
from renderers.encoding import to_png
from renderers.layout import ordinal
from renderers.shapes import seat_mark
from renderers.translation import N_, num, speaking, tr
from renderers.typeset import clip, font, names_shortened, text_width

WIDTH = 800
SMALLEST = 24  # font size of the smallest text: 12 px when shown 400 px wide
PAD = 28


@dataclass(frozen=True)
class Row:
    place: int
    seat: int
    name: str
    score: str
    rating: str | None = None  # "12 → 15 (+3)"
    note: str | None = None  # "resigned"


@dataclass(frozen=True)
class Card:
    title: str  # "Guacamole, game #12"
    reason: str  # why the game ended
    rows: Sequence[Row]
    series: Sequence[Sequence[float]] = ()  # per seat: the score after each turn (the chart)
    figures: Sequence[tuple[str, str]] = field(default_factory=tuple)  # ("Moves", "132")
    x_label: str = N_("turn")
    tiebreak: str | None = None  # why seats tied on points were ranked apart, under the reason
    names: Sequence[str] = ()  # the players' names as the reason and tiebreak write them


def wrapped(text: str, size: int, width: float, bold: bool = False, lines: int = 2) -> list[str]:
    """``text`` in at most ``lines`` lines of ``width`` (the last one cut with an ellipsis)."""
    out: list[str] = []
    words = text.split()
    while words and len(out) < lines:
        line = words.pop(0)
        while words and text_width(line + " " + words[0], size, bold) <= width:
            line += " " + words.pop(0)
        out.append(line)
    if words:
        out[-1] = clip(out[-1] + " " + " ".join(words), width, size, bold)
    return [clip(line, width, size, bold) for line in out]


def fits(text: str, size: int, width: float, bold: bool = False, lines: int = 2) -> bool:
    """Whether ``text`` wraps into ``lines`` lines of ``width`` with nothing cut."""
    return " ".join(wrapped(text, size, width, bold, lines)) == " ".join(text.split())


def reason_lines(card: Card) -> list[str]:
    """The lines under the title: why the game ended, then the tiebreak; a long name in them is
    shortened (:func:`renderers.typeset.names_shortened`) rather than what they say cut, and a
    right-to-left one isolated from the words around it (:func:`languages.bidi.names_isolated`)."""
    width = WIDTH - 2 * PAD
    out: list[str] = []
    for text, lines in ((card.reason, 3), (card.tiebreak, 2)):
        if not text:
            continue

        def whole(said: str, lines: int = lines) -> bool:
            return fits(said, SMALLEST, width, lines=lines)

        said = names_shortened(names_isolated(text, card.names), card.names, width, SMALLEST, False, whole)
        out += wrapped(said, SMALLEST, width, lines=lines)
    return out


def render(card: Card, *, language: str | None = None, contrast: bool = False) -> bytes:
    """The card as PNG bytes, its own words in ``language`` (the card's texts come translated;
    its figure labels and ``x_label`` are messages, translated here), in the high-contrast
    palette when ``contrast``."""
    with speaking(language):
        return _render(card, contrast)


def name_with_note(row: Row, room: float, size: int = 30) -> str:
    """The row's name and its note ("resigned") in ``room``: a long name is cut, not the note
    that says why the row stands where it does.  A right-to-left name is isolated once cut
    (:func:`languages.bidi.isolated`), so that the note stays after it."""
    note = f" ({row.note})" if row.note else ""
    if not note:
        return clip(row.name, room, size, True)
    name_room = max(room - text_width(note, size, True), room / 3)
    return clip(isolated(clip(row.name, name_room, size, True)) + note, room, size, True)


def _render(card: Card, contrast: bool = False) -> bytes:
    rows = list(card.rows)
    title = wrapped(card.title, 40, WIDTH - 2 * PAD, True)
    reason = reason_lines(card)
    series = [list(s) for s in card.series if s]
    row_h = 58
    chart_h = 300 if series and max(len(s) for s in series) >= 2 else 0
    figures_h = 44 * ((len(card.figures) + 1) // 2)
    height = (
        PAD
        + 52 * len(title)
        + 32 * len(reason)
        + 26
        + row_h * len(rows)
        + 20
        + (chart_h + 80 if chart_h else 0)
        + figures_h
        + PAD
    )
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    y = PAD
    for line in title:
        draw.text((PAD, y), line, font=font(40, True), fill=INK)
        y += 52
    for line in reason:
        draw.text((PAD, y), line, font=font(SMALLEST), fill=MUTED)
        y += 32
    y += 26

    # The ranking.
    draw.rectangle((PAD - 8, y - 8, WIDTH - PAD + 8, y + row_h * len(rows)), fill=PANEL, outline=RULE)
    for row in rows:
        cy = y + row_h // 2
        place = ordinal(row.place)
        draw.text((PAD, cy), place, font=font(30, True), fill=INK, anchor="lm")
        seat_mark(draw, PAD + 92, cy, 15, row.seat)
        score_w = text_width(row.score, 30, True)
        rating_w = text_width(row.rating, SMALLEST) if row.rating else 0
        room = WIDTH - 2 * PAD - 120 - score_w - rating_w - 40
        draw.text(
            (PAD + 118, cy),
            name_with_note(row, room),
            font=font(30, True),
            fill=seat_colour(row.seat),
            anchor="lm",
        )
        right: float = WIDTH - PAD
        if row.rating:
            draw.text((right, cy), row.rating, font=font(SMALLEST), fill=MUTED, anchor="rm")
            right -= rating_w + 24
        draw.text((right, cy), row.score, font=font(30, True), fill=INK, anchor="rm")
        y += row_h
    y += 20

    if chart_h:
        y = chart(draw, series, rows, PAD + 60, y + 10, WIDTH - PAD, y + 10 + chart_h, card.x_label) + 40

    # The key figures, two a line.
    for i, (label, value) in enumerate(card.figures):
        x = PAD + (i % 2) * (WIDTH - 2 * PAD) // 2
        if i and i % 2 == 0:
            y += 44
        shown = tr("{label}: ", label=tr(label))
        draw.text((x, y), shown, font=font(SMALLEST), fill=MUTED)
        draw.text((x + text_width(shown, SMALLEST), y), value, font=font(SMALLEST, True), fill=INK)
    return to_png(high_contrast(image) if contrast else image)


def chart(
    draw: ImageDraw.ImageDraw,
    series: Sequence[Sequence[float]],
    rows: Sequence[Row],
    left: int,
    top: int,
    right: int,
    bottom: int,
    x_label: str,
) -> int:
    """Each seat's score over the game, one line per seat in its colour; returns the bottom."""
    lo = min(min(s) for s in series)
    hi = max(max(s) for s in series)
    if hi == lo:
        hi = lo + 1
    n = max(len(s) for s in series)
    plot_bottom = bottom - 40
    draw.rectangle((left, top, right, plot_bottom), fill=PANEL, outline=RULE)
    for value in (lo, (lo + hi) / 2, hi):
        y = plot_bottom - (value - lo) / (hi - lo) * (plot_bottom - top - 10) - 5
        draw.line((left, y, right, y), fill=RULE)
        label = num(value)
        draw.text((left - 8, y), label, font=font(SMALLEST), fill=MUTED, anchor="rm")
    draw.text((left, plot_bottom + 8), tr("start"), font=font(SMALLEST), fill=MUTED)
    end = tr("{label} {n}", label=tr(x_label), n=n - 1)
    draw.text((right, plot_bottom + 8), end, font=font(SMALLEST), fill=MUTED, anchor="ra")
    seats = {row.seat for row in rows}
    for seat, values in enumerate(series):
        if seat not in seats or len(values) < 2:
            continue
        points = [
            (
                left + 5 + i / (n - 1) * (right - left - 10),
                plot_bottom - (v - lo) / (hi - lo) * (plot_bottom - top - 10) - 5,
            )
            for i, v in enumerate(values)
        ]
        draw.line(points, fill=seat_colour(seat), width=4, joint="curve")
        x, y = points[-1]
        seat_mark(draw, x, y, 9, seat)
    return bottom
