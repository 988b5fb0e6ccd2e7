"""Nowa Gwinea's hut chart: the 12 huts in every orientation with its index and the anchor
square, so players can type moves like ``F3C4`` (``render_huts()``, also reached through
:mod:`renderers.nowa_gwinea`); and the huts' colour, which the boards use too."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

import languages
from engines.nowa_gwinea.geometry import CANONICAL, DISTINCT, PIECES, SHAPES
from renderers.colours import BACKGROUND, INK, MUTED, high_contrast
from renderers.encoding import encode
from renderers.translation import speaking, tr
from renderers.typeset import centred_text, draw_text, font

HUT = (112, 124, 146)  # slate: every village's huts (the villages are told apart by place)


@lru_cache(maxsize=4)
def huts_chart(language: str | None, contrast: bool = False) -> bytes:
    """The chart in ``language`` (a normalised code), drawn once per language and palette."""
    with speaking(language):
        return _draw_huts_chart(contrast)


def _draw_huts_chart(contrast: bool = False) -> bytes:
    cell = 18
    box_w, box_h = 118, 128
    left = 70
    image = Image.new("RGB", (left + 8 * box_w + 20, 80 + len(PIECES) * box_h), BACKGROUND)
    d = ImageDraw.Draw(image)
    draw_text(
        d,
        (20, 14),
        tr("Nowa Gwinea huts: letter + orientation + anchor square, e.g. F3C4"),
        image.width - 40,
        24,
        min_size=16,
        bold=True,
    )
    draw_text(
        d,
        (20, 46),
        tr("Orientation 0 as drawn, 1-3 turned clockwise, 4-7 mirrored then turned. Dot = anchor square."),
        image.width - 40,
        17,
        min_size=12,
        fill=MUTED,
    )
    for row, p in enumerate(PIECES):
        y0 = 80 + row * box_h
        d.line((10, y0, image.width - 10, y0), fill=(200, 190, 170))
        centred_text(d, (left / 2, y0 + box_h / 2), p, font(40, True))
        for i, k in enumerate(DISTINCT[p]):
            x0 = left + i * box_w
            same = [j for j in range(8) if CANONICAL[p][j] == k]
            caption = ",".join(str(j) for j in same) if len(same) < 8 else tr("any")
            centred_text(d, (x0 + box_w / 2, y0 + 14), caption, font(18, True))
            sq = SHAPES[p][k]
            h = max(r for r, _ in sq) + 1
            w = max(c for _, c in sq) + 1
            ox = x0 + (box_w - w * cell) // 2
            oy = y0 + 28 + (box_h - 34 - h * cell) // 2
            for r, c in sq:
                d.rectangle(
                    (ox + c * cell, oy + r * cell, ox + (c + 1) * cell, oy + (r + 1) * cell),
                    fill=HUT,
                    outline=INK,
                    width=2,
                )
            ar, ac = sq[0]
            cx, cy = ox + ac * cell + cell / 2, oy + ar * cell + cell / 2
            d.ellipse((cx - 4, cy - 4, cx + 4, cy + 4), fill=INK)
    return encode(high_contrast(image) if contrast else image)


def render_huts(language: str | None = None, contrast: bool = False) -> bytes:
    """The hut chart (PNG): each hut's letter, its orientations with their indices, the anchor
    dot; in the high-contrast palette when ``contrast``."""
    return huts_chart(languages.normalise(language), contrast)
