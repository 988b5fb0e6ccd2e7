"""An animated summary of a game: its boards one after another, as a GIF.

``animate(frames)`` takes board images (Pillow images, in order; :func:`frame` scales a
drawn board down to :data:`WIDTH` first, so that a long game's frames take little memory)
and returns one GIF that shows each for ``ms`` milliseconds (the last one three times as
long) and loops.  The frames are scaled to ``width`` pixels; when the file would pass
``limit`` bytes (Discord's 8 MB for an upload), it is made again narrower, then with every
other frame kept, until it fits.  The boards never go through PNG on the way: encoding
and decoding them took longer than drawing them.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

LIMIT = 8 * 1024 * 1024
WIDTH = 480  # the summary's width in pixels (before any shrinking to fit LIMIT)


def scaled(image: Image.Image, width: int) -> Image.Image:
    """``image`` in RGB, ``width`` pixels wide (its proportions kept)."""
    image = image.convert("RGB")
    if image.width == width:
        return image
    size = (width, max(1, round(image.height * width / image.width)))
    return image.resize(size, Image.Resampling.LANCZOS, reducing_gap=3.0)


def frame(board: Image.Image) -> Image.Image:
    """A drawn board as one frame of a summary: :data:`WIDTH` pixels wide."""
    return scaled(board, WIDTH)


def _gif(images: Sequence[Image.Image], ms: int) -> bytes:
    buf = io.BytesIO()
    durations = [ms] * (len(images) - 1) + [ms * 3]
    images[0].save(
        buf,
        format="GIF",
        save_all=True,
        append_images=list(images[1:]),
        duration=durations,
        loop=0,
        optimize=True,
        disposal=1,
    )
    return buf.getvalue()


def animate(frames: Sequence[Image.Image], *, width: int = WIDTH, ms: int = 900, limit: int = LIMIT) -> bytes:
    if not frames:
        raise ValueError("an animation needs at least one frame")
    chosen = list(range(len(frames)))
    while True:
        images = [
            scaled(frames[i], width).quantize(colors=64, method=Image.Quantize.FASTOCTREE) for i in chosen
        ]
        data = _gif(images, ms)
        if len(data) <= limit:
            return data
        if width > 360:
            width = max(360, int(width * 0.8))
        elif len(chosen) > 2:
            chosen = chosen[:-1:2] + [chosen[-1]]  # every other frame, the last one kept
        else:
            return data
