"""A person's reliability and pace card, as PNG bytes.

Plain values in (:class:`Card`), no Discord and no storage.  800 px wide, to be read on a phone:
the name, the reliability as a bar against 100 % with its figure, the share of turns on time, the
pace and median time to move, the games played as a bar split by how they ended (each part
carries its letter as well as its colour), and one row per game with its turns, median time to
move and rating.  Every word drawn is in the ``language`` of the render.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from languages import N_
from renderers.colours import BACKGROUND, INK, MUTED, PANEL, RULE, high_contrast
from renderers.translation import ntr, num, ptr, speaking, tr
from renderers.typeset import font, text_width

WIDTH = 800
SIZE = 26
TITLE = 38
ROW = 44
MAX_GAMES = 8
GOOD = (20, 130, 60)
FAIR = (200, 140, 20)
POOR = (190, 40, 40)
# How games ended: (letter, colour, what it means) in the order drawn.
ENDINGS = (
    ("F", (20, 130, 60), N_("finished")),
    ("A", (120, 120, 120), N_("abandoned")),
    ("T", (190, 40, 40), N_("timed out")),
    ("R", (200, 140, 20), N_("resigned")),
)


def letters() -> dict[str, str]:
    """Each ending's letter in the render's language (each language keeps its four distinct)."""
    return {
        "F": ptr("game ending letter", "F"),
        "A": ptr("game ending letter", "A"),
        "T": ptr("game ending letter", "T"),
        "R": ptr("game ending letter", "R"),
    }


@dataclass(frozen=True)
class GameLine:
    title: str
    turns: int
    median: float | None  # seconds
    rating: float | None  # the conservative rating shown by /game stats (None: not rated here)


@dataclass(frozen=True)
class Card:
    name: str
    new: bool
    reliability: int  # %
    on_time: float | None  # % of turns on time (None: no turns yet)
    turns: int
    missed: int
    median: float | None  # seconds
    pace: str | None  # the pace tier's translated name (None: not known yet)
    ended: tuple[int, int, int, int]  # finished, abandoned, timed out, resigned
    running: int
    waiting: int
    games: Sequence[GameLine] = field(default_factory=tuple)


def duration(seconds: float) -> str:
    """``2 d 4 h``, ``5 h 10 min``, ``12 min`` (as the clocks are shown)."""
    total = max(0, int(seconds // 60))
    days, rest = divmod(total, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h" if hours else f"{days} d"
    if hours:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    return f"{minutes} min"


def clip(text: str, width: float, size: int, bold: bool = False) -> str:
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text + "…"


def grade(value: float) -> tuple[int, int, int]:
    return GOOD if value >= 90 else FAIR if value >= 70 else POOR


def render(card: Card, *, language: str | None = None, contrast: bool = False) -> bytes:
    """The card's picture, its words in ``language``; the high-contrast palette when ``contrast``."""
    with speaking(language):
        image = _render(card)
    out = io.BytesIO()
    (high_contrast(image) if contrast else image).save(out, format="PNG", optimize=True)
    return out.getvalue()


def _render(card: Card) -> Image.Image:
    games = list(card.games[:MAX_GAMES])
    height = 24 + TITLE + 20 + 4 * ROW + 30 + ROW + 40 + ROW * (max(1, len(games)) + 1) + 30
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((24, 24), clip(card.name, WIDTH - 48, TITLE, True), font=font(TITLE, True), fill=INK)
    y = 24 + TITLE + 20
    draw.rectangle((12, y - 8, WIDTH - 12, height - 12), fill=PANEL, outline=RULE, width=2)

    # Reliability: a bar against 100 %, with its figure (the bar's colour only repeats the number).
    label = tr("Reliability")
    draw.text((28, y + ROW // 2), label, font=font(SIZE, True), fill=INK, anchor="lm")
    bar_x, bar_w = 300, 340
    draw.rectangle((bar_x, y + 10, bar_x + bar_w, y + ROW - 10), outline=RULE, width=2)
    filled = bar_x + round(bar_w * card.reliability / 100)
    draw.rectangle(
        (bar_x + 2, y + 12, max(bar_x + 2, filled - 2), y + ROW - 12), fill=grade(card.reliability)
    )
    shown = f"{card.reliability} %"
    draw.text((WIDTH - 28, y + ROW // 2), shown, font=font(SIZE, True), fill=INK, anchor="rm")
    y += ROW
    if card.new:
        note = tr("New player: starts neutral at {value} %", value=card.reliability)
    else:
        assert card.on_time is not None
        note = ntr(
            "On time: {percent} % of {n} turn ({missed} missed)",
            "On time: {percent} % of {n} turns ({missed} missed)",
            card.turns,
            percent=f"{card.on_time:.0f}",
            missed=card.missed,
        )
    draw.text((28, y + ROW // 2), clip(note, WIDTH - 56, SIZE), font=font(SIZE), fill=MUTED, anchor="lm")
    y += ROW
    if card.median is None or card.pace is None:
        pace = tr("Pace: not known yet")
    else:
        pace = tr("Pace: {pace}, median time to move {time}", pace=card.pace, time=duration(card.median))
    draw.text((28, y + ROW // 2), clip(pace, WIDTH - 56, SIZE), font=font(SIZE), fill=INK, anchor="lm")
    y += ROW
    now = tr("Now: {running} running, {waiting} in lobbies", running=card.running, waiting=card.waiting)
    draw.text((28, y + ROW // 2), clip(now, WIDTH - 56, SIZE), font=font(SIZE), fill=INK, anchor="lm")
    y += ROW + 10

    # The games that ended, as one bar split by how they ended, each part lettered.
    total = sum(card.ended)
    heading = ntr("{n} game ended", "{n} games ended", total)
    draw.text((28, y + 15), heading, font=font(SIZE, True), fill=INK, anchor="lm")
    y += 30
    x0, x1 = 28, WIDTH - 28
    if total:
        x = float(x0)
        for (letter, colour, _), count in zip(ENDINGS, card.ended, strict=True):
            if not count:
                continue
            w = (x1 - x0) * count / total
            draw.rectangle((round(x), y + 4, round(x + w) - 2, y + ROW - 4), fill=colour)
            part = f"{letters()[letter]} {count}"
            if text_width(part, SIZE - 4, True) < w - 8:
                draw.text(
                    (x + w / 2, y + ROW // 2),
                    part,
                    font=font(SIZE - 4, True),
                    fill=(255, 255, 255),
                    anchor="mm",
                )
            x += w
    else:
        draw.rectangle((x0, y + 4, x1, y + ROW - 4), outline=RULE, width=2)
    y += ROW
    key = "   ".join(
        f"{letters()[letter]} {tr(meaning)} {count}"
        for (letter, _, meaning), count in zip(ENDINGS, card.ended, strict=True)
    )
    draw.text((28, y + 18), clip(key, WIDTH - 56, SIZE - 4), font=font(SIZE - 4), fill=MUTED, anchor="lm")
    y += 40

    # One row per game.
    columns = (
        (28, "l", tr("Game")),
        (430, "r", tr("Turns")),
        (600, "r", tr("Median")),
        (WIDTH - 28, "r", tr("Rating")),
    )
    for x, align, text in columns:
        draw.text(
            (x, y + ROW // 2), text, font=font(SIZE, True), fill=MUTED, anchor="lm" if align == "l" else "rm"
        )
    draw.line((24, y + ROW, WIDTH - 24, y + ROW), fill=RULE, width=2)
    for line in games:
        y += ROW
        cells = (
            clip(line.title, 280, SIZE),
            str(line.turns),
            "–" if line.median is None else duration(line.median),
            "–" if line.rating is None else num(line.rating, 1),
        )
        for (x, align, _), text in zip(columns, cells, strict=True):
            draw.text(
                (x, y + ROW // 2), text, font=font(SIZE), fill=INK, anchor="lm" if align == "l" else "rm"
            )
    if not games:
        y += ROW
        draw.text((28, y + ROW // 2), tr("No turns played yet"), font=font(SIZE), fill=MUTED, anchor="lm")
    return image
