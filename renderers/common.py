"""Drawing helpers shared by the game renderers: fonts, colours, PNG output.

Fonts are loaded once per size.  DejaVu Sans is used where the system has it;
otherwise Pillow's built-in scalable font, so rendering works on any machine.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

FONT_PATHS = {
    False: (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans.ttf",
        "DejaVuSans.ttf",
    ),
    True: (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf",
        "DejaVuSans-Bold.ttf",
    ),
}

# A palette that reads on Discord's dark and light themes alike.
BACKGROUND = (250, 247, 240)
INK = (33, 33, 33)
MUTED = (110, 110, 110)
GRID = (90, 90, 90)
HIGHLIGHT = (255, 196, 0)
SEAT_COLOURS = (
    (214, 69, 65),  # red
    (52, 120, 219),  # blue
    (46, 160, 67),  # green
    (230, 145, 30),  # orange
    (142, 68, 173),  # purple
    (22, 160, 160),  # teal
)


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    for path in FONT_PATHS[bold]:
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)


def text_size(draw: ImageDraw.ImageDraw, text: str, fnt) -> tuple[int, int]:
    left, top, right, bottom = draw.textbbox((0, 0), text, font=fnt)
    return right - left, bottom - top


def centred_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, fnt, fill=INK) -> None:
    draw.text(xy, text, font=fnt, fill=fill, anchor="mm")


def seat_name(names: Sequence[str] | None, seat: int) -> str:
    if names and 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return f"Player {seat + 1}"


def seat_colour(seat: int) -> tuple[int, int, int]:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def to_png(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=False, compress_level=6)
    return buf.getvalue()


def new_canvas(width: int, height: int, colour=BACKGROUND) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), colour)
    return image, ImageDraw.Draw(image)
