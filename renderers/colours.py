"""The colours every board shares, the seats' colours and shapes, the colour keys with their
second cues, and the high-contrast palette.

Seats are told apart by a shape on a neutral chip (:func:`renderers.shapes.seat_mark`) and by a
dark colour for their names; neither is ever a piece colour of any game (the tests check the
distance).  Every colour-coded legend has a second cue (:class:`Key`) that the tests find drawn
through :func:`cue_log`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from PIL import Image

BACKGROUND = (250, 247, 240)
PANEL = (255, 255, 255)
INK = (33, 33, 33)
MUTED = (105, 105, 105)
RULE = (200, 194, 182)
ACTIVE = (255, 241, 204)  # the background of the seat whose turn it is
MARK = (226, 0, 142)  # the last turn's outline: magenta, unlike any piece
# Colours text is written in on the paper: each reads there (4.5:1 against the paper, the panels
# and the active seat's background; 7:1 in the high-contrast palette, tests/test_high_contrast.py).
GOLD = (140, 96, 0)  # the winner's: the final ranking's title and first place
GOOD = (29, 117, 58)  # a good sign: a valid dish, "Ready"
BAD = (176, 29, 29)  # a bad sign: an invalid dish, the end triggered, a broken village

# Seats: a dark colour for names and marks, and a shape on a neutral chip.
SEAT_COLOURS = (
    (20, 20, 96),  # navy
    (150, 20, 50),  # wine
    (0, 100, 80),  # deep teal
    (66, 30, 0),  # umber
    (114, 7, 94),  # plum (a protanope sees it, as the navy, dark blue: it stays lighter)
    (30, 30, 30),  # charcoal
)
SEAT_SHAPES = ("circle", "square", "triangle", "diamond", "star", "hexagon")
CHIP = (232, 229, 222)


# --------------------------------------------------------------------------- colour keys


@dataclass(frozen=True)
class Key:
    """One entry of a colour-coded legend: its colour, and the second cue that tells it apart
    without colour (:mod:`renderers.vision` checks the colours; the tests check the cue is drawn).

    ``cue`` is ``(kind, value)``: ``("letter", "S")`` a letter drawn on the thing (alone, or
    leading a code such as ``A01``), ``("text", "Par")`` a word drawn on it, ``("shape",
    "circle")`` a seat shape (:func:`seat_shape`), ``("pattern", "2 dots")`` a pattern (its
    drawing function reports it with :func:`drew`).  A letter or a word is drawn in ``ink``
    on ``colour``: the two stand at least :data:`MIN_CUE_CONTRAST` apart (:func:`ink_on` picks
    the better of the board's ink and white)."""

    colour: tuple[int, int, int]
    cue: tuple[str, str]
    ink: tuple[int, int, int] | None = None  # a letter's or word's colour, drawn on ``colour``


WHITE = (255, 255, 255)
# The least contrast ratio (WCAG 2) between a legend colour and the letter or word drawn on it
# as its second cue, in either palette: WCAG's minimum for large text and for graphics.
MIN_CUE_CONTRAST = 3.0


def _luminance(colour: Sequence[int]) -> float:
    """WCAG 2's relative luminance of an sRGB colour."""

    def linear(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = colour[:3]
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast_ratio(a: Sequence[int], b: Sequence[int]) -> float:
    """WCAG 2's contrast ratio of two colours, from 1 (the same) to 21 (black on white)."""
    low, high = sorted((_luminance(a), _luminance(b)))
    return (high + 0.05) / (low + 0.05)


def ink_on(colour: Sequence[int]) -> tuple[int, int, int]:
    """The letters' colour on a piece of ``colour``: the board's ink or white, whichever stands
    out more from it (in both palettes)."""

    def least(ink: tuple[int, int, int]) -> float:
        return min(contrast_ratio(ink, colour), contrast_ratio(contrast_colour(ink), contrast_colour(colour)))

    return max((INK, WHITE), key=least)


def seat_keys(players: int = len(SEAT_COLOURS)) -> dict[int, Key]:
    """The seats' colour key: each seat's colour and its shape."""
    return {s: Key(seat_colour(s), ("shape", SEAT_SHAPES[s % len(SEAT_SHAPES)])) for s in range(players)}


Cue = tuple[str, str, tuple[int, ...] | None]  # kind, value, the colour it is drawn on (or in)
_CUES: list[set[Cue]] = []


@contextmanager
def cue_log() -> Iterator[set[Cue]]:
    """Collect, while the block runs, every text stamped with its ink (``("text", text, colour)``), every seat
    shape with its fill (``("shape", "circle", colour)``) and every pattern reported by
    :func:`drew` (the tests check that each legend's second cue is drawn)."""
    log: set[Cue] = set()
    _CUES.append(log)
    try:
        yield log
    finally:
        _CUES.remove(log)


def drew(kind: str, value: str, on: tuple[int, ...] | None = None) -> None:
    """Report a second cue drawn, on (or in) the colour ``on``, to every active :func:`cue_log`."""
    for log in _CUES:
        log.add((kind, value, on))


def cue_logging() -> bool:
    """Whether a :func:`cue_log` is collecting (drawing code reports its cues only then)."""
    return bool(_CUES)


def colour_counts(image: Image.Image) -> list[tuple[int, Any]]:
    """Every colour of ``image`` with the number of its pixels (``Image.getcolors`` without a
    limit).  Pillow sizes its table by the limit it is given, not by the colours found, so a
    board (a few thousand colours) is counted first in a small table, and only a picture with
    more colours than that is counted again in one as large as its pixels."""
    return image.getcolors(SMALL_TABLE) or image.getcolors(max(1, image.width * image.height)) or []


SMALL_TABLE = 1 << 16


def seat_colour(seat: int) -> tuple[int, int, int]:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


# --------------------------------------------------------------------------- high contrast

# The high-contrast palette is the standard picture with every colour channel stretched so that
# the paper turns pure white, the ink pure black and every other colour darker and further from
# its neighbours; shapes, letters and patterns (the second cues) stay as they are.
# The channel curve, through these points (in, out): dark colours stay apart (the seats' colours
# are dark), the secondary grey darkens to 7:1 on white, the paper turns white.
CONTRAST_CURVE = ((0, 0), (50, 30), (105, 84), (160, 150), (236, 255), (255, 255))


def _curve(v: int) -> int:
    for (x0, y0), (x1, y1) in zip(CONTRAST_CURVE, CONTRAST_CURVE[1:], strict=False):
        if v <= x1:
            return round(y0 + (v - x0) * (y1 - y0) / (x1 - x0))
    return 255


_CONTRAST_LUT = [_curve(v) for v in range(256)]


def contrast_colour(colour: Sequence[int]) -> tuple[int, int, int]:
    """``colour`` as the high-contrast palette draws it."""
    r, g, b = colour[:3]
    return (_CONTRAST_LUT[r], _CONTRAST_LUT[g], _CONTRAST_LUT[b])


def contrast_keys(keys: dict[Any, Key]) -> dict[Any, Key]:
    """A colour key as the high-contrast palette draws it (the same second cues)."""
    return {
        name: Key(contrast_colour(key.colour), key.cue, contrast_colour(key.ink) if key.ink else None)
        for name, key in keys.items()
    }


def high_contrast(image: Image.Image) -> Image.Image:
    """``image`` in the high-contrast palette (:func:`contrast_colour` on every pixel)."""
    return image.convert("RGB").point(_CONTRAST_LUT * 3)
