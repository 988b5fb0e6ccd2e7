"""The encoding step: a board's picture as PNG bytes.

A board is mapped to its game's own palette (chosen ahead of time, :mod:`renderers.palettes`)
and written by :func:`palette_png`; a picture that palette does not fit gets a palette chosen for
it, or stays RGB.  :data:`LAST_ENCODING` tells what was chosen.
"""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageChops

try:
    from isal import isal_zlib

    fast_deflate: Callable[[bytes, int], bytes] | None = isal_zlib.compress
except ImportError:  # an environment installed before the dependency: zlib writes the same data
    fast_deflate = None


# --------------------------------------------------------------------------- PNG


PALETTE_SIZE = 256
RGB = tuple[int, int, int]


@cache
def palette_image(game: str) -> Image.Image | None:
    """The game's palette as a 1x1 "P" image for ``Image.quantize(palette=...)``, or ``None``
    when the game has none."""
    from renderers.palette_data import PALETTES

    text = PALETTES.get(game)
    if not text:
        return None
    return as_image(parse(text))


def parse(text: str) -> list[RGB]:
    """The colours of a palette written as hex digits, six a colour."""
    return [
        (int(text[i : i + 2], 16), int(text[i + 2 : i + 4], 16), int(text[i + 4 : i + 6], 16))
        for i in range(0, len(text), 6)
    ]


def as_image(colours: Sequence[RGB]) -> Image.Image:
    image = Image.new("P", (1, 1))
    flat = [v for c in colours for v in c]
    image.putpalette(flat + flat[:3] * (PALETTE_SIZE - len(colours)))
    return image


LIMIT = 150 * 1024  # every PNG stays under this
PALETTE_MEAN = 6.0  # a palette is used when, on a sample, the mean error stays below this
PALETTE_FAR = 0.005  # ... and fewer than this share of pixels move by more than FAR_STEP
FAR_STEP = 40


@dataclass
class Encoding:
    """What :func:`encode` chose for the last image, and the measurement behind it."""

    palette: bool = False
    level: int = 3  # the deflate level: zlib's (3, 6 or 9), or ISA-L's (0-3) when ``deflate`` says so
    mean_error: float = 0.0
    far: float = 0.0
    bytes: int = 0
    known: bool = False  # the game's own palette (no quantizer ran)
    deflate: str = "zlib"  # "isal": the game's palette written by :func:`palette_png`


LAST_ENCODING = Encoding()
FAST_LEVEL = 2  # ISA-L's level for boards in their own palette (its levels are 0-3)


def _sample(image: Image.Image) -> Image.Image:
    w, h = image.size
    return image.resize((max(1, w // 4), max(1, h // 4)), Image.Resampling.NEAREST)


def _error(sample: Image.Image, encoded: Image.Image) -> tuple[float, float]:
    """Mean difference (0-255, on the luminance of the difference) and the share of pixels moved
    by more than :data:`FAR_STEP` between ``sample`` and ``encoded`` (decoded to RGB)."""
    hist = ImageChops.difference(sample, encoded.convert("RGB")).convert("L").histogram()
    total = sample.width * sample.height
    return sum(i * n for i, n in enumerate(hist)) / total, sum(hist[FAR_STEP:]) / total


def palette_error(image: Image.Image) -> tuple[float, float]:
    """How far a 256-colour palette chosen for ``image`` moves the pixels of a 1-in-16 sample.

    Returns the mean difference and the share of pixels moved by more than :data:`FAR_STEP`
    (see :func:`_error`).  Boards are flat colours with anti-aliased edges, so the palette's
    error is small; a picture with gradients would show large errors."""
    sample = _sample(image)
    return _error(sample, sample.quantize(256, method=Image.Quantize.FASTOCTREE))


def _png(source: Image.Image) -> tuple[bytes, int]:
    data, level = b"", 3
    for level in (3, 6, 9):
        buf = io.BytesIO()
        source.save(buf, format="PNG", compress_level=level)
        data = buf.getvalue()
        if len(data) < LIMIT:
            break
    return data, level


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def palette_png(image: Image.Image, fast: bool = True) -> bytes:
    """A "P" image as PNG bytes, written here rather than by Pillow: every row unfiltered (as
    Pillow writes palette images too), the pixels deflated by ISA-L at :data:`FAST_LEVEL`
    (``isal``, about seven times zlib's speed at level 1 on boards, and smaller), or by zlib at
    level 1 when ``fast`` is false or ISA-L is not installed.  The same pixels and palette as
    ``image.save(..., format="PNG")``."""
    w, h = image.size
    rows = Image.new("P", (w + 1, h), 0)  # column 0: each row's filter byte, 0 (none)
    rows.paste(image, (1, 0))
    raw = rows.tobytes()
    data = fast_deflate(raw, FAST_LEVEL) if fast and fast_deflate is not None else zlib.compress(raw, 1)
    colours = image.getpalette("RGB") or []
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)),
            _chunk(b"PLTE", bytes(colours[: 3 * PALETTE_SIZE])),
            _chunk(b"IDAT", data),
            _chunk(b"IEND", b""),
        )
    )


def encode(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """PNG bytes, the encoding chosen from a measurement of this image.

    With ``palette`` (a game's own, :mod:`renderers.palettes`), the image is mapped to it
    (no quantizer runs) and kept when the mapping, measured on a 1-in-16 sample of pixels,
    changes the picture by no visible amount; it is written by :func:`palette_png` (zlib
    level 3, then 6 and 9, in the rare case that would pass :data:`LIMIT`).  Otherwise, or
    when it does: a 256-colour palette chosen for the image (half the bytes of RGB, quick to
    compress) when :func:`palette_error` says it changes the picture by no visible amount,
    else RGB, zlib level 3, raised to 6 then 9 only while the file would pass :data:`LIMIT`."""
    if palette is not None:
        source = image.quantize(palette=palette, dither=Image.Dither.NONE)
        mean, far = _error(_sample(image), _sample(source))
        if mean < PALETTE_MEAN and far < PALETTE_FAR:
            data = palette_png(source)
            if len(data) < LIMIT:
                fast = fast_deflate is not None
                _record(True, FAST_LEVEL if fast else 1, mean, far, data, True, "isal" if fast else "zlib")
                return data
            data, level = _png(source)
            _record(True, level, mean, far, data, known=True)
            return data
    mean, far = palette_error(image)
    use = mean < PALETTE_MEAN and far < PALETTE_FAR
    data, level = _png(image.quantize(256, method=Image.Quantize.FASTOCTREE) if use else image)
    _record(use, level, mean, far, data, known=False)
    return data


def _record(
    palette: bool, level: int, mean: float, far: float, data: bytes, known: bool, deflate: str = "zlib"
) -> None:
    LAST_ENCODING.palette, LAST_ENCODING.level, LAST_ENCODING.known = palette, level, known
    LAST_ENCODING.mean_error, LAST_ENCODING.far, LAST_ENCODING.bytes = mean, far, len(data)
    LAST_ENCODING.deflate = deflate


def to_png(image: Image.Image) -> bytes:
    return encode(image)
