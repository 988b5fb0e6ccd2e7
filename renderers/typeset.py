"""Fonts, text that fits its box, and the caches of drawn art.

Fonts are DejaVu Sans, bundled in ``renderers/fonts`` so that every machine draws the same
letters, Spanish ones included; the letters it lacks (Chinese, Japanese, Korean, emoji) are drawn
in the bundled fallback fonts (:mod:`renderers.glyphs`).  All text goes through :func:`draw_text`, which wraps, then
shrinks, and records in :func:`fit_log` whether anything had to be cut; text drawn on every
board is stamped from masks laid out once (:func:`stamp`).  Static art with words (a card face,
a tile) is cached per language (:func:`art_cache`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import _lru_cache_wrapper, lru_cache
from typing import Any, TypeVar

from PIL import Image, ImageDraw, ImageFont

from renderers.colours import INK, cue_logging, drew
from renderers.glyphs import FONT_FILES as FONT_FILES  # the bundled DejaVu Sans files (the tests read them)
from renderers.glyphs import FallbackFont
from renderers.translation import Span, current

# --------------------------------------------------------------------------- static art

_ART_CACHES: list[_lru_cache_wrapper[Any]] = []
_Art = TypeVar("_Art")


def art_cache(fn: Callable[..., _Art]) -> Callable[..., _Art]:
    """Cache a piece of static art (a card face, a tile) drawn once per argument set and language."""
    cached = lru_cache(maxsize=512)(lambda _language, *args, **kw: fn(*args, **kw))
    _ART_CACHES.append(cached)

    def art(*args: Any, **kw: Any) -> _Art:
        return cached(current().code, *args, **kw)

    return art


def clear_art() -> None:
    """Forget all cached art and text layouts, so the next render draws (and logs) everything."""
    for cached in _ART_CACHES:
        cached.cache_clear()
    _layout.cache_clear()


# --------------------------------------------------------------------------- fonts


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return FallbackFont(size, bold)
    except OSError:  # the bundled file is missing: Pillow's own scalable font still draws
        return ImageFont.load_default(size=size)


def ink_height(size: int, bold: bool = False) -> int:
    """How tall a line of text stands at ``size``: from the top of a capital to the foot of a g."""
    left, top, right, bottom = font(size, bold).getbbox("Hg")
    return int(bottom - top)


@lru_cache(maxsize=65536)
def text_width(text: str, size: int, bold: bool = False) -> float:
    return font(size, bold).getlength(text)


# The glyphs of every sample board of the five games in both languages: about 2,000 masks, 9 MB.
@lru_cache(maxsize=2048)
def _label_mask(
    text: str, fnt: ImageFont.FreeTypeFont | ImageFont.ImageFont, anchor: str, start: tuple[float, float]
) -> tuple[Image.Image, tuple[int, int]]:
    if not isinstance(fnt, ImageFont.FreeTypeFont):  # Pillow's own font: no sub-pixel start
        mask = Image.new("L", (1, 1))
        box = ImageDraw.Draw(mask).textbbox((0, 0), text, font=fnt, anchor=anchor)
        mask = Image.new("L", (max(1, int(box[2] - box[0])), max(1, int(box[3] - box[1]))))
        ImageDraw.Draw(mask).text((-box[0], -box[1]), text, font=fnt, fill=255, anchor=anchor)
        return mask, (int(box[0]), int(box[1]))
    core, offset = fnt.getmask2(text, "L", anchor=anchor, start=start)
    mask = Image.new("L", core.size)
    mask.im = core
    return mask, (int(offset[0]), int(offset[1]))


# --------------------------------------------------------------------------- the size of drawn text

# The least a text stands on a phone, the picture shown 400 px wide: its capitals 4.7 px tall
# (14 px on a board 1200 px wide, DejaVu Sans at 19).
PHONE_WIDTH = 400
PHONE_FLOOR = 4.7


@dataclass(frozen=True)
class Drawn:
    """A text as it was drawn: its words, how tall its capitals stand, the box its ink covers
    (left, top, right, bottom; empty when nothing was inked) and the size of the picture it was
    drawn on (the board, or a card or tile drawn once and pasted), in that picture's pixels."""

    text: str
    size: int
    cap: int
    box: tuple[int, int, int, int] = (0, 0, 0, 0)
    canvas: tuple[int, int] = (0, 0)


_DRAWN: list[list[Drawn]] = []


@contextmanager
def text_log() -> Iterator[list[Drawn]]:
    """Collect every text drawn while the block runs, with its size (the tests measure how tall
    each stands on a phone).  Art cached before the block is not drawn again: clear it first."""
    log: list[Drawn] = []
    _DRAWN.append(log)
    try:
        yield log
    finally:
        _DRAWN.remove(log)


@lru_cache(maxsize=256)
def cap_height(fnt: ImageFont.FreeTypeFont | ImageFont.ImageFont) -> int:
    """How tall a capital stands in ``fnt``, in pixels: the ink of an "H"."""
    left, top, right, bottom = fnt.getbbox("H")
    return int(bottom - top)


def on_phone(cap: float, width: int) -> float:
    """How tall ``cap`` pixels of a picture ``width`` pixels wide stand on a phone."""
    return cap * PHONE_WIDTH / width


def _drawn(
    draw: ImageDraw.ImageDraw,
    text: str,
    fnt: ImageFont.FreeTypeFont | ImageFont.ImageFont,
    mask: Image.Image,
    at: tuple[int, int],
) -> None:
    ink = mask.getbbox()
    box = (at[0] + ink[0], at[1] + ink[1], at[0] + ink[2], at[1] + ink[3]) if ink else (*at, *at)
    canvas = tuple(draw.im.size) if draw.im is not None else (0, 0)
    record = Drawn(text, int(getattr(fnt, "size", 0)), cap_height(fnt), box, canvas)
    for log in _DRAWN:
        log.append(record)


def stamp(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    fnt: ImageFont.FreeTypeFont | ImageFont.ImageFont,
    fill: tuple[int, ...] = INK,
    anchor: str = "la",
) -> None:
    """``draw.text`` for text drawn on every board (a field's number, a count, a name): the same
    pixels, its letters laid out once (kept by text, font, anchor and the position's fraction of
    a pixel) and then stamped."""
    x, y = xy
    if cue_logging():
        drew("text", text, tuple(fill[:3]))
    mask, (dx, dy) = _label_mask(text, fnt, anchor, (math.modf(x)[0], math.modf(y)[0]))
    if _DRAWN:
        _drawn(draw, text, fnt, mask, (int(x) + dx, int(y) + dy))
    draw.bitmap((int(x) + dx, int(y) + dy), mask, fill=fill)


def label(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    bold: bool = False,
    fill: tuple[int, ...] = INK,
    anchor: str = "la",
) -> None:
    """:func:`stamp` in the board font at ``size``."""
    stamp(draw, xy, text, font(size, bold), fill, anchor)


def centred_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, fnt, fill=INK) -> None:
    stamp(draw, xy, text, fnt, fill, "mm")


# --------------------------------------------------------------------------- text that fits


@dataclass(frozen=True)
class Fit:
    """How one text was fitted: its box, the size used, its lines, and whether it was cut."""

    text: str
    box: tuple[int, int, int, int]
    size: int
    lines: int
    cut: bool
    header: bool = False


_LOG: list[list[Fit]] = []


@contextmanager
def fit_log() -> Iterator[list[Fit]]:
    """Collect every text fitted while the block runs (tests assert that none was cut)."""
    log: list[Fit] = []
    _LOG.append(log)
    try:
        yield log
    finally:
        _LOG.remove(log)


def _logged(
    spans: str | Sequence[Span],
    xy: tuple[float, float],
    width: float,
    height: float,
    size: int,
    lines: int,
    cut: bool,
    header: bool = False,
) -> None:
    """Record text drawn in the box at ``xy`` (top left) in every active :func:`fit_log`."""
    if _LOG:
        x0, y0 = xy
        plain = spans if isinstance(spans, str) else "".join(t for t, _ in spans)
        record = Fit(plain, (int(x0), int(y0), int(x0 + width), int(y0 + height)), size, lines, cut, header)
        for log in _LOG:
            log.append(record)


def _aligned(x0: float, width: float, used: float, align: str) -> float:
    """Where a line ``used`` wide starts in a box at ``x0`` of ``width``: ``align`` left, center or right."""
    return x0 + (width - used) / 2 if align == "center" else x0 + width - used if align == "right" else x0


@dataclass(frozen=True)
class Layout:
    size: int
    lines: tuple[tuple[tuple[str, tuple[int, ...], float], ...], ...]  # runs: text, fill, x offset
    widths: tuple[float, ...]
    height: int
    cut: bool


def _words(spans: tuple[Span, ...]) -> list[tuple[str, tuple[int, ...], bool]]:
    """Words with their colour, and whether each is glued to the previous one (no space)."""
    out: list[tuple[str, tuple[int, ...], bool]] = []
    spaced = True  # a space comes before the next word
    for text, fill in spans:
        parts = text.split(" ")
        for k, word in enumerate(parts):
            if word:
                out.append((word, fill, bool(out) and k == 0 and not spaced))
        spaced = text.endswith(" ") or not text
    return out


def _wrap(words, size: int, bold: bool, width: float):
    """Greedy lines of words at ``size``; returns lines of (word, fill, glued) and their widths."""
    space = text_width(" ", size, bold)
    lines, widths = [], []
    cur: list = []
    cur_w = 0.0
    for word, fill, glued in words:
        w = text_width(word, size, bold)
        gap = 0.0 if (glued or not cur) else space
        if cur and not glued and cur_w + gap + w > width:
            lines.append(cur)
            widths.append(cur_w)
            cur, cur_w, gap = [], 0.0, 0.0
        cur.append((word, fill, glued))
        cur_w += gap + w
    if cur:
        lines.append(cur)
        widths.append(cur_w)
    return lines, widths


def _runs(line, size: int, bold: bool):
    """Merge a line's words into runs of one colour, with their x offsets."""
    space = text_width(" ", size, bold)
    runs: list[list] = []
    x = 0.0
    for i, (word, fill, glued) in enumerate(line):
        if i and not glued:
            x += space
            if runs and runs[-1][1] == fill:
                runs[-1][0] += " "
        if runs and runs[-1][1] == fill:
            runs[-1][0] += word
        else:
            runs.append([word, fill, x])
        x += text_width(word, size, bold)
    return tuple((t, f, ox) for t, f, ox in runs)


LEADING = 1.18


@lru_cache(maxsize=8192)
def _layout(
    spans: tuple[Span, ...], width: int, height: int, size: int, min_size: int, bold: bool, max_lines: int
) -> Layout:
    words = _words(spans)
    if not words:
        return Layout(size, (), (), 0, False)
    s = size
    while True:
        lines, widths = _wrap(words, s, bold, width)
        line_h = int(s * LEADING + 0.5)
        fits = len(lines) <= max_lines and max(widths) <= width + 0.5 and len(lines) * line_h <= height
        if fits or s <= min_size:
            break
        s = max(min_size, s - max(1, s // 14))
    cut = not fits
    if cut:  # keep the lines that fit and end the last one with an ellipsis
        keep = max(1, min(max_lines, height // line_h))
        lines = lines[:keep]
        last = list(lines[-1])

        def width_of(line) -> float:
            return _wrap(line, s, bold, 10**9)[1][0] if line else 0.0

        while last and width_of([*last, ("…", last[-1][1], True)]) > width:
            word, colour, glued = last[-1]
            if len(word) > 1:
                last[-1] = (word[:-1], colour, glued)
            else:
                last.pop()
        lines[-1] = [*last, ("…", last[-1][1] if last else INK, True)]
        widths = [width_of(line) for line in lines]
    return Layout(
        s,
        tuple(_runs(ln, s, bold) for ln in lines),
        tuple(widths),
        len(lines) * line_h,
        cut,
    )


def fit(
    spans: str | Sequence[Span],
    width: int,
    height: int,
    size: int,
    min_size: int | None = None,
    bold: bool = False,
    max_lines: int = 1,
    fill=INK,
) -> Layout:
    """Lay out text in a box: wrap into up to ``max_lines`` lines, shrinking from ``size`` to
    ``min_size`` until it fits; only then is the end cut (``cut`` is set)."""
    if isinstance(spans, str):
        spans = ((spans, tuple(fill)),)
    else:
        spans = tuple((t, tuple(f)) for t, f in spans)
    return _layout(spans, int(width), int(height), size, min_size or size, bold, max_lines)


ELLIPSIS = "…"


def clip(text: str, width: float, size: int, bold: bool = False) -> str:
    """``text`` as it is when it fits ``width`` pixels at ``size``; otherwise cut after as many
    letters as fit with an ellipsis."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + ELLIPSIS, size, bold) > width:
        text = text[:-1]
    return text + ELLIPSIS


def shorten(text: str, width: float, size: int, bold: bool = False) -> str:
    """``text`` as it is when it fits ``width`` pixels at ``size``; otherwise shortened to end in
    an ellipsis: after its last whole word that still fits, when that keeps at least half the
    width, else after as many letters as fit (a name of one long word, "WWWW…")."""
    if text_width(text, size, bold) <= width:
        return text

    def fits(head: str) -> bool:
        return text_width(head + ELLIPSIS, size, bold) <= width

    def tidy(head: str) -> str:
        return head.rstrip(" ,;:-_·.")

    words = text.split(" ")
    for n in range(len(words) - 1, 0, -1):
        head = tidy(" ".join(words[:n]))
        if head and fits(head):
            if text_width(head + ELLIPSIS, size, bold) >= width / 2:
                return head + ELLIPSIS
            break
    return tidy(clip(text, width, size, bold)[: -len(ELLIPSIS)]) + ELLIPSIS


NAME_SHARES = (0.75, 0.6, 0.45, 0.3, 0.2, 0.1)  # of a line, a long name's room, tried in turn


def names_shortened(
    text: str, names: Sequence[str], width: float, size: int, bold: bool, fits: Callable[[str], bool]
) -> str:
    """``text`` as it is when it ``fits``, else with the ``names`` in it that are too long for it
    shortened with "…" (each to the same share of ``width`` at ``size``, the largest share that
    lets the whole fit), so that the words after a long name ("share the win", "resigned") show."""
    if fits(text):
        return text
    long = sorted({n for n in names if n and n in text}, key=len, reverse=True)
    shortened = text
    for share in NAME_SHARES:
        shortened = text
        for name in long:
            if text_width(name, size, bold) > width * share:
                shortened = shortened.replace(name, shorten(name, width * share, size, bold))
        if fits(shortened):
            break
    return shortened


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    spans: str | Sequence[Span],
    width: float,
    size: int,
    *,
    min_size: int | None = None,
    bold: bool = False,
    fill=INK,
    max_lines: int = 1,
    height: float | None = None,
    align: str = "left",
    header: bool = False,
) -> int:
    """Draw text fitted into the box at ``xy`` (top left) of ``width`` (and ``height``).

    Returns the height used.  Every call is recorded in the active :func:`fit_log`."""
    min_size = min_size or max(10, int(size * 0.75))
    if height is None:
        height = int(size * LEADING + 0.5) * max_lines
    lay = fit(spans, int(width), int(height), size, min_size, bold, max_lines, fill)
    x0, y0 = xy
    line_h = int(lay.size * LEADING + 0.5)
    for i, (runs, w) in enumerate(zip(lay.lines, lay.widths, strict=True)):
        lx = _aligned(x0, width, w, align)
        for text, colour, ox in runs:
            label(draw, (lx + ox, y0 + i * line_h), text, lay.size, bold, colour)
    _logged(spans, xy, width, height, lay.size, len(lay.lines), lay.cut, header)
    return lay.height


# --------------------------------------------------------------------------- narrowed words

SQUEEZE = 0.7  # the narrowest a word is drawn, as a share of its width: still read as letters


@lru_cache(maxsize=1024)
def _narrow_mask(
    text: str, size: int, bold: bool, width: int, anchor: str = "la"
) -> tuple[Image.Image, int, int]:
    mask, (dx, dy) = _label_mask(text, font(size, bold), anchor, (0.0, 0.0))
    if mask.width > width:  # narrowed: placed by its ink, centred on a middle anchor
        dx = -(width // 2) if anchor[0] == "m" else -width if anchor[0] == "r" else dx
        mask = mask.resize((width, mask.height), Image.Resampling.LANCZOS)
    return mask, dx, dy


def narrow_label(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    width: int,
    bold: bool = False,
    fill: tuple[int, ...] = INK,
    anchor: str = "mm",
) -> None:
    """:func:`label` narrowed to ``width`` where it is wider: its letters keep their height (a
    totem's name on a small board, read on a phone)."""
    if cue_logging():
        drew("text", text, tuple(fill[:3]))
    mask, dx, dy = _narrow_mask(text, size, bold, width, anchor)
    if _DRAWN:
        _drawn(draw, text, font(size, bold), mask, (int(xy[0]) + dx, int(xy[1]) + dy))
    draw.bitmap((int(xy[0]) + dx, int(xy[1]) + dy), mask, fill=fill)


def narrow_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    width: float,
    size: int,
    *,
    min_size: int,
    bold: bool = False,
    fill: tuple[int, ...] = INK,
    align: str = "left",
) -> None:
    """One line of words that keeps its height where it fits no other way: at the largest size
    from ``size`` down to ``min_size`` that fits ``width`` once narrowed to no less than
    :data:`SQUEEZE` of its width, narrowed as much as it needs (a small word on a card read on a
    phone).  Recorded in the active :func:`fit_log`, cut if even ``min_size`` had to be narrower."""
    at = next(
        (s for s in range(size, min_size - 1, -1) if text_width(text, s, bold) * SQUEEZE <= width), None
    )
    cut = at is None
    at = at or min_size
    mask, _dx, dy = _narrow_mask(text, at, bold, int(width))
    x0, y0 = xy
    if cue_logging():
        drew("text", text, tuple(fill[:3]))
    left = int(_aligned(x0, width, mask.width, align))
    if _DRAWN:
        _drawn(draw, text, font(at, bold), mask, (left, int(y0) + dy))
    draw.bitmap((left, int(y0) + dy), mask, fill=fill)
    _logged(text, xy, width, int(at * LEADING + 0.5), at, 1, cut)


def narrow_lines(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    width: float,
    size: int,
    *,
    bold: bool = False,
    fill: tuple[int, ...] = INK,
    max_lines: int = 2,
    align: str = "left",
) -> int:
    """Words on up to ``max_lines`` lines that keep their ``size``: wrapped to ``width``, or where
    that takes more lines, to the width a line has once narrowed to :data:`SQUEEZE`, each line
    drawn by :func:`narrow_text` (a word wider than the box, narrowed; a card's name on a phone).
    Too long even so, the text is shrunk and cut as :func:`draw_text` does.  Returns the height
    used."""
    words = _words(((text, tuple(fill)),))
    lines = []
    for room in (width, width / SQUEEZE):
        lines, _ = _wrap(words, size, bold, room)
        if len(lines) <= max_lines:
            break
    if len(lines) > max_lines:
        return draw_text(draw, xy, text, width, size, bold=bold, fill=fill, max_lines=max_lines, align=align)
    line_h = int(size * LEADING + 0.5)
    for k, line in enumerate(lines):
        words_of_line = " ".join(word for word, _, _ in line)
        at = (xy[0], xy[1] + k * line_h)
        narrow_text(draw, at, words_of_line, width, size, min_size=size, bold=bold, fill=fill, align=align)
    return len(lines) * line_h
