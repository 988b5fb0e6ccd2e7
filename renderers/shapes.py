"""Drawing primitives every board shares: the canvas, the seats' shapes and marks, and the
last turn's mark (an outline, an arrow along a path, the legend that explains it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from renderers.colours import BACKGROUND, CHIP, INK, MARK, SEAT_SHAPES, cue_logging, drew, seat_colour
from renderers.typeset import draw_text


def new_canvas(width: int, height: int, colour=BACKGROUND) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), colour)
    return image, ImageDraw.Draw(image)


def _star(cx: float, cy: float, r: float, points: int = 5) -> list[tuple[float, float]]:
    out = []
    for k in range(points * 2):
        rad = r if k % 2 == 0 else r * 0.45
        ang = -math.pi / 2 + k * math.pi / points
        out.append((cx + rad * math.cos(ang), cy + rad * math.sin(ang)))
    return out


def seat_shape(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, seat: int, fill=None) -> None:
    """The seat's shape, ``r`` its half size, in the seat's colour (or ``fill``)."""
    colour = fill or seat_colour(seat)
    shape = SEAT_SHAPES[seat % len(SEAT_SHAPES)]
    if cue_logging():
        drew("shape", shape, tuple(colour))
    if shape == "circle":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)
    elif shape == "square":
        s = r * 0.85
        draw.rectangle((cx - s, cy - s, cx + s, cy + s), fill=colour)
    elif shape == "triangle":
        draw.polygon([(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)], fill=colour)
    elif shape == "diamond":
        draw.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=colour)
    elif shape == "star":
        draw.polygon(_star(cx, cy, r * 1.1), fill=colour)
    else:
        draw.regular_polygon((cx, cy, r), 6, fill=colour)


def seat_mark(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, seat: int) -> None:
    """A neutral chip with the seat's shape: how a seat is shown beside its name."""
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=CHIP, outline=INK, width=max(1, int(r / 9)))
    seat_shape(draw, cx, cy, r * 0.58, seat)


# --------------------------------------------------------------------------- the last turn


MARK_LINE = 3  # the white inner line of the last turn's frame, in pixels


def mark_box(
    draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], width: int = 6, radius: int = 8
) -> None:
    """Outline something that changed in the last turn: magenta with a white inner line
    (:data:`MARK_LINE` wide), so that the frame shows on a piece whose colour a reader's eyes
    cannot tell from the magenta."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle((x0, y0, x1, y1), radius=radius, outline=MARK, width=width)
    inset = width - MARK_LINE + 1  # the line is the frame's inner edge: the frame covers no more
    draw.rounded_rectangle(
        (x0 + inset, y0 + inset, x1 - inset, y1 - inset),
        radius=max(0, radius - 4),
        outline=(255, 255, 255),
        width=MARK_LINE,
    )


def path_arrow(draw: ImageDraw.ImageDraw, points: Sequence[tuple[float, float]], width: int = 7) -> None:
    """A magenta line through ``points`` with one arrow head at the end (a llama's road)."""
    if len(points) < 2:
        return
    (x0, y0), (x1, y1) = points[-2], points[-1]
    ang = math.atan2(y1 - y0, x1 - x0)
    head = width * 3.2
    end = (x1 - math.cos(ang) * head * 0.8, y1 - math.sin(ang) * head * 0.8)
    line = [*points[:-1], end]
    draw.line(line, fill=(255, 255, 255), width=width + 4, joint="curve")
    draw.line(line, fill=MARK, width=width, joint="curve")
    arrow_head(draw, points, width)


def arrow_head(draw: ImageDraw.ImageDraw, points: Sequence[tuple[float, float]], width: int = 7) -> None:
    """The head of :func:`path_arrow`'s arrow alone (drawn again over what covers it)."""
    if len(points) < 2:
        return
    (x0, y0), (x1, y1) = points[-2], points[-1]
    ang = math.atan2(y1 - y0, x1 - x0)
    head = width * 3.2
    left = (x1 - head * math.cos(ang - 0.45), y1 - head * math.sin(ang - 0.45))
    right = (x1 - head * math.cos(ang + 0.45), y1 - head * math.sin(ang + 0.45))
    draw.polygon([(x1, y1), left, right], fill=MARK, outline=(255, 255, 255))


def draw_legend(draw: ImageDraw.ImageDraw, x: int, y: int, width: int, text: str, size: int = 24) -> int:
    """The legend of the last-turn mark (one line, two if it must): a magenta square, then
    ``text``.  Returns the height used."""
    draw.rounded_rectangle((x, y + 3, x + size, y + size + 3), radius=4, outline=MARK, width=5)
    return draw_text(draw, (x + size + 10, y), text, width - size - 10, size, min_size=18, max_lines=2)
