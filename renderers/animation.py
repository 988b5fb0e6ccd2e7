"""An animated summary of a game: its boards one after another, as a GIF.

``animate(frames)`` takes board images (PNG bytes, in order) and returns one GIF that
shows each for ``ms`` milliseconds (the last one three times as long) and loops.  The
frames are scaled to ``width`` pixels; when the file would pass ``limit`` bytes
(Discord's 8 MB for an upload), it is made again narrower, then with every other frame
kept, until it fits.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

LIMIT = 8 * 1024 * 1024


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


def animate(frames: Sequence[bytes], *, width: int = 480, ms: int = 900, limit: int = LIMIT) -> bytes:
    if not frames:
        raise ValueError("an animation needs at least one frame")
    sources = [Image.open(io.BytesIO(f)).convert("RGB") for f in frames]
    chosen = list(range(len(sources)))
    while True:
        images = []
        for i in chosen:
            im = sources[i]
            scaled = im.resize((width, max(1, round(im.height * width / im.width))), Image.Resampling.LANCZOS)
            images.append(scaled.quantize(colors=64, method=Image.Quantize.FASTOCTREE))
        data = _gif(images, ms)
        if len(data) <= limit:
            return data
        if width > 360:
            width = max(360, int(width * 0.8))
        elif len(chosen) > 2:
            chosen = chosen[:-1:2] + [chosen[-1]]  # every other frame, the last one kept
        else:
            return data
