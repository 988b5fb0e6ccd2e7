"""Nowa Gwinea's hut chart: the 12 huts in every orientation with its index and the anchor
square, so players can type moves like ``F3C4`` (``render_huts()``, also reached through
:mod:`renderers.nowa_gwinea`); and the huts' colour, which the boards use too."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

import languages
from engines.nowa_gwinea.geometry import CANONICAL, DISTINCT, PIECES, SHAPES
from renderers.colours import BACKGROUND, INK, high_contrast
from renderers.encoding import encode
from renderers.translation import speaking, tr
from renderers.typeset import centred_text, draw_text, font

HUT = (112, 124, 146)  # slate: every village's huts (the villages are told apart by place)


@lru_cache(maxsize=4)
def huts_chart(language: str | None, contrast: bool = False) -> bytes:
    """The chart in ``language`` (a normalised code), drawn once per language and palette."""
    with speaking(language):
        return _draw_huts_chart(contrast)


CHART_CELL = 30  # a hut's square; the chart is read on a phone, shown about 390 px wide
SLOT_W = 180  # one drawn orientation: room for the 5 squares of I lying down
PER_ROW = 4  # orientations 0-3 (turns) on a hut's first row, 4-7 (mirrored) on its second
LETTER_W = 70
HEADER_MAX = 220  # the title and the help above the huts take at most this much


def _chart_rows() -> list[list[tuple[str, list[int]]]]:
    """The chart's rows: each a list of (hut, its distinct orientations drawn there).  A hut
    with 8 takes two rows (0-3, then 4-7); I (2) and X (1) share one, so no row is half empty."""
    rows: list[list[tuple[str, list[int]]]] = []
    shared: list[tuple[str, list[int]]] = []
    for p in PIECES:
        ks = list(DISTINCT[p])
        if len(ks) < PER_ROW:
            shared.append((p, ks))
            continue
        rows += [[(p, ks[i : i + PER_ROW])] for i in range(0, len(ks), PER_ROW)]
    if shared:  # after the hut before the first short one, keeping the letters in order
        first = PIECES.index(shared[0][0])
        at = next(i for i, row in enumerate(rows) if PIECES.index(row[0][0]) > first)
        rows.insert(at, shared)
    return rows


def _draw_huts_chart(contrast: bool = False) -> bytes:
    cell = CHART_CELL
    rows = _chart_rows()
    heights = [
        44 + max(max(r for r, _ in SHAPES[p][k]) + 1 for p, ks in row for k in ks) * cell + 22 for row in rows
    ]
    width = LETTER_W + PER_ROW * SLOT_W + 20
    image = Image.new("RGB", (width, HEADER_MAX + sum(heights)), BACKGROUND)  # cut to size below
    d = ImageDraw.Draw(image)
    top = 12
    top += draw_text(
        d,
        (16, top),
        tr("Nowa Gwinea huts: letter + orientation + anchor square, e.g. F3C4"),
        image.width - 32,
        34,
        min_size=24,
        bold=True,
        max_lines=2,
    )
    top += 10
    top += draw_text(
        d,
        (16, top),
        tr("Orientation 0 as drawn, 1-3 turned clockwise, 4-7 mirrored then turned. Dot = anchor square."),
        image.width - 32,
        28,
        min_size=20,
        max_lines=3,
    )
    top = min(top + 18, HEADER_MAX)
    y0 = top
    for row, height in zip(rows, heights, strict=True):
        if row[0][1][0] == DISTINCT[row[0][0]][0]:  # a hut's first row: a rule above it
            d.line((10, y0, image.width - 10, y0), fill=(200, 190, 170), width=2)
        slot = 0
        for p, ks in row:
            if slot:  # a second hut on the row: its letter in a slot of its own
                centred_text(d, (LETTER_W + slot * SLOT_W + SLOT_W / 2, y0 + height / 2), p, font(52, True))
                slot += 1
            elif ks[0] == DISTINCT[p][0]:
                centred_text(d, (LETTER_W / 2, y0 + height / 2), p, font(52, True))
            for k in ks:
                _draw_orientation(d, p, k, LETTER_W + slot * SLOT_W, y0, height, cell)
                slot += 1
        y0 += height
    image = image.crop((0, 0, width, y0))
    return encode(high_contrast(image) if contrast else image)


def _draw_orientation(
    d: ImageDraw.ImageDraw, p: str, k: int, x0: int, y0: int, height: int, cell: int
) -> None:
    """Hut ``p`` in orientation ``k`` in the slot at ``x0``: the indices giving it above, the
    anchor square dotted."""
    same = [j for j in range(8) if CANONICAL[p][j] == k]
    caption = ",".join(str(j) for j in same) if len(same) < 8 else tr("any")
    centred_text(d, (x0 + SLOT_W / 2, y0 + 22), caption, font(30, True))
    sq = SHAPES[p][k]
    h = max(r for r, _ in sq) + 1
    w = max(c for _, c in sq) + 1
    ox = x0 + (SLOT_W - w * cell) // 2
    oy = y0 + 44 + (height - 44 - 16 - h * cell) // 2
    for r, c in sq:
        d.rectangle(
            (ox + c * cell, oy + r * cell, ox + (c + 1) * cell, oy + (r + 1) * cell),
            fill=HUT,
            outline=INK,
            width=2,
        )
    ar, ac = sq[0]
    cx, cy = ox + ac * cell + cell / 2, oy + ar * cell + cell / 2
    d.ellipse((cx - 8, cy - 8, cx + 8, cy + 8), fill=BACKGROUND, outline=INK, width=2)
    d.ellipse((cx - 5, cy - 5, cx + 5, cy + 5), fill=INK)


def render_huts(language: str | None = None, contrast: bool = False) -> bytes:
    """The hut chart (PNG): each hut's letter, its orientations with their indices, the anchor
    dot; in the high-contrast palette when ``contrast``."""
    return huts_chart(languages.normalise(language), contrast)
