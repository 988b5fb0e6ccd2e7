"""The visual language every board shares: fonts, colours, seat marks, text that fits its box,
the header, the score strip, the ranking box, the last-turn mark and the PNG encoding.

Every board is :data:`WIDTH` pixels wide and starts the same way::

    ┌ header: title · round or turn ─────────────────────────────┐
    │ ● whose turn it is (the name in the seat's colour), or who won │
    │ Last: the last action in words                                 │
    ├ score strip: one cell per seat (two rows for 4-6 players);     │
    │   on the final board, the ranking box in its place             │
    └ the game's own board, with the last turn outlined in MARK ─────┘

Seats are told apart by a shape on a neutral chip (:func:`seat_mark`) and by a dark colour
for their names; neither is ever a piece colour of any game (the tests check the distance).
All text goes through :func:`draw_text`, which wraps, then shrinks, and records in
:func:`fit_log` whether anything had to be cut.  Fonts are DejaVu Sans, bundled in
``renderers/fonts`` so that every machine draws the same letters, Spanish ones included.

Every word drawn is in the language of the render: :func:`speaking` sets it for the block (each
renderer's ``render(..., language=...)`` does), :func:`tr` and :func:`ntr` translate a message
with named placeholders, and :func:`say` turns a message into coloured spans, so a name keeps its
seat's colour wherever the language puts it.  Static art with words is cached per language.
"""

from __future__ import annotations

import io
import math
import string
import struct
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import _lru_cache_wrapper, cache, lru_cache
from pathlib import Path
from typing import Any, TypeVar

from PIL import Image, ImageChops, ImageDraw, ImageFont

try:
    from isal import isal_zlib

    fast_deflate: Callable[[bytes, int], bytes] | None = isal_zlib.compress
except ImportError:  # an environment installed before the dependency: zlib writes the same data
    fast_deflate = None

import languages
from engines.core import Said, in_words

WIDTH = 1200
FONT_DIR = Path(__file__).resolve().parent / "fonts"
FONT_FILES = {False: FONT_DIR / "DejaVuSans.ttf", True: FONT_DIR / "DejaVuSans-Bold.ttf"}


BACKGROUND = (250, 247, 240)
PANEL = (255, 255, 255)
INK = (33, 33, 33)
MUTED = (105, 105, 105)
RULE = (200, 194, 182)
ACTIVE = (255, 241, 204)  # the background of the seat whose turn it is
MARK = (226, 0, 142)  # the last turn's outline: magenta, unlike any piece
GOLD = (176, 120, 0)

# Seats: a dark colour for names and marks, and a shape on a neutral chip.
SEAT_COLOURS = (
    (20, 20, 96),  # navy
    (150, 20, 50),  # wine
    (0, 100, 80),  # deep teal
    (66, 30, 0),  # umber
    (110, 0, 90),  # plum
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
    drawing function reports it with :func:`drew`)."""

    colour: tuple[int, int, int]
    cue: tuple[str, str]


def seat_keys(players: int = len(SEAT_COLOURS)) -> dict[int, Key]:
    """The seats' colour key: each seat's colour and its shape."""
    return {s: Key(seat_colour(s), ("shape", SEAT_SHAPES[s % len(SEAT_SHAPES)])) for s in range(players)}


Cue = tuple[str, str, tuple[int, ...] | None]  # kind, value, the colour it is drawn on (or in)
_CUES: list[set[Cue]] = []


@contextmanager
def cue_log() -> Iterator[set[Cue]]:
    """Collect, while the block runs, every text stamped (``("text", text, None)``), every seat
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


# --------------------------------------------------------------------------- language

_SPEAKING: ContextVar[languages.Language] = ContextVar("speaking", default=languages.ENGLISH)


@contextmanager
def speaking(language: str | None) -> Iterator[languages.Language]:
    """Draw in ``language`` (a code such as ``es``; ``None`` or an unknown one: English) in the block."""
    token = _SPEAKING.set(languages.language(language))
    try:
        yield _SPEAKING.get()
    finally:
        _SPEAKING.reset(token)


def tr(message: str, /, **values: Any) -> str:
    """``message`` in the language being drawn, its ``{placeholders}`` filled from ``values``."""
    return _SPEAKING.get().gettext(message, **values)


def ntr(singular: str, plural: str, n: int, /, **values: Any) -> str:
    """The form of a message for ``n`` (also its ``{n}``) in the language being drawn."""
    return _SPEAKING.get().ngettext(singular, plural, n, **values)


def told(text: str | Said | None) -> str:
    """A sentence an engine kept for translation (a :class:`~engines.core.Said` in its view), in
    the language being drawn; plain text as it is."""
    return in_words(text, _SPEAKING.get()) or ""


def ptr(context: str, message: str, /, **values: Any) -> str:
    """``message`` in ``context`` (one English word, two meanings) in the language being drawn."""
    return _SPEAKING.get().pgettext(context, message, **values)


def say(message: str, /, fill: tuple[int, ...] = INK, **parts: Any) -> list[Span]:
    """``message`` translated as coloured spans: text in ``fill``, each ``{part}`` either a string
    (in ``fill``, formatted) or a list of spans (a name in its seat's colour), where the language
    puts it."""
    return _spans(_SPEAKING.get().catalogue.gettext(message), fill, parts)


def nsay(singular: str, plural: str, n: int, /, fill: tuple[int, ...] = INK, **parts: Any) -> list[Span]:
    """:func:`say` for the form of a message for ``n``."""
    return _spans(_SPEAKING.get().catalogue.ngettext(singular, plural, n), fill, {"n": str(n), **parts})


def _spans(template: str, fill: tuple[int, ...], parts: dict[str, Any]) -> list[Span]:
    out: list[Span] = []
    for literal, field, spec, _ in string.Formatter().parse(template):
        if literal:
            out.append((literal, fill))
        if field is None:
            continue
        value = parts[field]
        if isinstance(value, list):
            out.extend(value)
        else:
            out.append((format(value, spec or ""), fill))
    return out


def list_spans(items: Sequence[list[Span]], fill: tuple[int, ...] = INK) -> list[Span]:
    """Spans of a list in the language's own words: ``Ana, Beto and Cleo`` (``Ana, Beto y Cleo``)."""
    if not items:
        return []
    out = items[0]
    for k, item in enumerate(items[1:], start=2):
        pattern = N_("{first} and {last}") if k == len(items) else N_("{first}, {next}")
        out = say(pattern, fill, first=out, last=item, next=item)
    return out


def N_(message: str) -> str:
    """Mark a message for the catalogues where it is written; it is translated where it is drawn."""
    return message


# --------------------------------------------------------------------------- static art

_ART_CACHES: list[_lru_cache_wrapper[Any]] = []
_Art = TypeVar("_Art")


def art_cache(fn: Callable[..., _Art]) -> Callable[..., _Art]:
    """Cache a piece of static art (a card face, a tile) drawn once per argument set and language."""
    cached = lru_cache(maxsize=512)(lambda _language, *args, **kw: fn(*args, **kw))
    _ART_CACHES.append(cached)

    def art(*args: Any, **kw: Any) -> _Art:
        return cached(_SPEAKING.get().code, *args, **kw)

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
        return ImageFont.truetype(str(FONT_FILES[bold]), size)
    except OSError:  # the bundled file is missing: Pillow's own scalable font still draws
        return ImageFont.load_default(size=size)


def ink_height(size: int, bold: bool = False) -> int:
    """How tall a line of text stands at ``size``: from the top of a capital to the foot of a g."""
    left, top, right, bottom = font(size, bold).getbbox("Hg")
    return int(bottom - top)


# The header's text stands at least 1/45 of the image's width tall (27 px of 1200), so that it
# reads when Discord shows the image 400 px wide on a phone: the smallest font size that does.
HEADER_MIN = next(s for s in range(8, 200) if min(ink_height(s), ink_height(s, True)) >= WIDTH / 45)


@lru_cache(maxsize=65536)
def text_width(text: str, size: int, bold: bool = False) -> float:
    return font(size, bold).getlength(text)


def text_size(draw: ImageDraw.ImageDraw, text: str, fnt) -> tuple[int, int]:
    left, top, right, bottom = draw.textbbox((0, 0), text, font=fnt)
    return int(right - left), int(bottom - top)


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
    if _CUES:
        drew("text", text, None)
    mask, (dx, dy) = _label_mask(text, fnt, anchor, (math.modf(x)[0], math.modf(y)[0]))
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


# --------------------------------------------------------------------------- seats


def seat_name(names: Sequence[str] | None, seat: int) -> str:
    if names and 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return tr("Player {number}", number=seat + 1)


def seat_colour(seat: int) -> tuple[int, int, int]:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


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
    if _CUES:
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


Span = tuple[str, tuple[int, ...]]  # a run of text and its colour (RGB)


@dataclass(frozen=True)
class _Layout:
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
) -> _Layout:
    words = _words(spans)
    if not words:
        return _Layout(size, (), (), 0, False)
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
    return _Layout(
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
) -> _Layout:
    """Lay out text in a box: wrap into up to ``max_lines`` lines, shrinking from ``size`` to
    ``min_size`` until it fits; only then is the end cut (``cut`` is set)."""
    if isinstance(spans, str):
        spans = ((spans, tuple(fill)),)
    else:
        spans = tuple((t, tuple(f)) for t, f in spans)
    return _layout(spans, int(width), int(height), size, min_size or size, bold, max_lines)


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
        if align == "center":
            lx = x0 + (width - w) / 2
        elif align == "right":
            lx = x0 + width - w
        else:
            lx = x0
        for text, colour, ox in runs:
            label(draw, (lx + ox, y0 + i * line_h), text, lay.size, bold, colour)
    if _LOG:
        plain = spans if isinstance(spans, str) else "".join(t for t, _ in spans)
        record = Fit(
            plain,
            (int(x0), int(y0), int(x0 + width), int(y0 + height)),
            lay.size,
            len(lay.lines),
            lay.cut,
            header,
        )
        for log in _LOG:
            log.append(record)
    return lay.height


# --------------------------------------------------------------------------- header


@dataclass
class Header:
    """What the top of every board says."""

    title: str
    info: str = ""  # round or turn, right-aligned on the title line
    status: Sequence[Span] = ()  # whose turn, or who won, with names in their seat's colour
    seat: int | None = None  # the seat whose mark leads the status line
    last_action: str | None = None


PAD = 16
TITLE_SIZE = 40
STATUS_SIZE = 34
LAST_SIZE = 30
LAST_LINES = 4  # the last action wraps to this many lines before it is cut


def _header_parts(
    header: Header, width: int
) -> tuple[_Layout, _Layout | None, _Layout, _Layout | None, int, int]:
    inner = width - 2 * PAD
    info_w = int(min(inner * 0.45, text_width(header.info, STATUS_SIZE, True) + 4)) if header.info else 0
    title = fit(header.title, inner - info_w - 16, TITLE_SIZE * 2, TITLE_SIZE, HEADER_MIN, True, 1)
    info = fit(header.info, info_w, TITLE_SIZE * 2, STATUS_SIZE, HEADER_MIN, True, 1) if header.info else None
    mark = 46 if header.seat is not None else 0
    status = fit(header.status, inner - mark, STATUS_SIZE * 3, STATUS_SIZE, HEADER_MIN, True, 2)
    last = None
    if header.last_action:
        last = fit(
            say("Last: {action}", MUTED, action=[(header.last_action, INK)]),
            inner,
            LAST_SIZE * (LAST_LINES + 1),
            LAST_SIZE,
            HEADER_MIN,
            False,
            LAST_LINES,
        )
    return title, info, status, last, info_w, mark


def header_height(header: Header, width: int = WIDTH) -> int:
    title, _, status, last, _, _ = _header_parts(header, width)
    h = PAD + int(TITLE_SIZE * LEADING) + 6 + max(status.height, 40)
    if last is not None:
        h += 8 + last.height
    return h + PAD


def draw_header(draw: ImageDraw.ImageDraw, header: Header, width: int = WIDTH, y: int = 0) -> int:
    """Draw the header band at ``y``; returns its height."""
    height = header_height(header, width)
    _, info, _, _, info_w, mark = _header_parts(header, width)
    draw.rectangle((0, y, width, y + height), fill=PANEL)
    draw.line((0, y + height - 2, width, y + height - 2), fill=INK, width=4)
    top = y + PAD
    draw_text(
        draw,
        (PAD, top),
        header.title,
        width - 2 * PAD - info_w - 16,
        TITLE_SIZE,
        min_size=HEADER_MIN,
        bold=True,
        header=True,
    )
    if header.info:
        draw_text(
            draw,
            (width - PAD - info_w, top + 4),
            header.info,
            info_w,
            STATUS_SIZE,
            min_size=HEADER_MIN,
            bold=True,
            fill=MUTED,
            align="right",
            height=TITLE_SIZE * 2,
            header=True,
        )
    top += int(TITLE_SIZE * LEADING) + 6
    if header.seat is not None:
        seat_mark(draw, PAD + 19, top + 21, 19, header.seat)
    used = draw_text(
        draw,
        (PAD + mark, top),
        header.status,
        width - 2 * PAD - mark,
        STATUS_SIZE,
        min_size=HEADER_MIN,
        bold=True,
        max_lines=2,
        height=STATUS_SIZE * 3,
        header=True,
    )
    top += max(used, 40) + 8
    if header.last_action:
        draw_text(
            draw,
            (PAD, top),
            say("Last: {action}", MUTED, action=[(header.last_action, INK)]),
            width - 2 * PAD,
            LAST_SIZE,
            min_size=HEADER_MIN,
            max_lines=LAST_LINES,
            height=LAST_SIZE * (LAST_LINES + 1),
            header=True,
        )
    return height


def name_span(names, seat: int) -> list[Span]:
    """A seat's name in its colour, as spans for :func:`say`."""
    return [(seat_name(names, seat), seat_colour(seat))]


def turn_status(names, seat: int, doing: str, **values: Any) -> list[Span]:
    """Whose turn and what they do: ``doing`` is a whole message with ``{name}`` (``"{name} to
    play"``), translated here, the name in the seat's colour; ``values`` fill its other fields."""
    return say(doing, INK, name=name_span(names, seat), **values)


def winners_status(names, winners: Sequence[int]) -> list[Span]:
    """``Game over: Ana wins`` (or ``Ana and Beto share the win``), names in their colours."""
    who = list_spans([name_span(names, s) for s in winners])
    return nsay("Game over: {names} wins", "Game over: {names} share the win", len(winners), INK, names=who)


# --------------------------------------------------------------------------- score strip


@dataclass
class SeatLine:
    """One seat in the score strip (or the ranking box)."""

    seat: int
    name: str
    score: str
    detail: str = ""  # the seat's key counts, in words
    active: bool = False
    you: bool = False
    place: int | None = None  # on the final board


STRIP_NAME = 30
STRIP_SCORE = 40
STRIP_DETAIL = 26
STRIP_GAP = 8


def strip_columns(n: int) -> int:
    return n if n <= 3 else 2


def _cell_height(lines: int) -> int:
    return 12 + int(STRIP_NAME * LEADING) + 4 + lines * int(STRIP_DETAIL * LEADING) + 12


def _strip_geometry(seats: Sequence[SeatLine], width: int) -> tuple[int, int, int, int, int]:
    cols = strip_columns(len(seats))
    rows = -(-len(seats) // cols)
    cw = (width - 2 * PAD - (cols - 1) * STRIP_GAP) // cols
    lines = 1
    for s in seats:
        if s.detail:
            lay = fit(s.detail, cw - 28, STRIP_DETAIL * 3, STRIP_DETAIL, 22, False, 2)
            lines = max(lines, len(lay.lines))
    return cols, rows, cw, _cell_height(lines), lines


def strip_height(seats: Sequence[SeatLine], width: int = WIDTH) -> int:
    _, rows, _, ch, _ = _strip_geometry(seats, width)
    return PAD + rows * ch + (rows - 1) * STRIP_GAP


def draw_strip(draw: ImageDraw.ImageDraw, seats: Sequence[SeatLine], y: int, width: int = WIDTH) -> int:
    """One cell per seat, in seat order: mark, name, score, key counts.  Returns the height."""
    cols, rows, cw, ch, lines = _strip_geometry(seats, width)
    for k, s in enumerate(seats):
        r, c = divmod(k, cols)
        x = PAD + c * (cw + STRIP_GAP)
        top = y + PAD + r * (ch + STRIP_GAP)
        draw.rounded_rectangle(
            (x, top, x + cw, top + ch),
            radius=12,
            fill=ACTIVE if s.active else PANEL,
            outline=INK if s.active else RULE,
            width=4 if s.active else 2,
        )
        seat_mark(draw, x + 30, top + 12 + STRIP_NAME * 0.6, 18, s.seat)
        score_w = int(text_width(s.score, STRIP_SCORE, True)) + 4
        name = ("▶ " if s.active else "") + (tr("{name} (you)", name=s.name) if s.you else s.name)
        draw_text(
            draw,
            (x + 56, top + 12),
            [(name, seat_colour(s.seat))],
            cw - 56 - score_w - 20,
            STRIP_NAME,
            min_size=22,
            bold=True,
        )
        label(draw, (x + cw - 14, top + 4), s.score, STRIP_SCORE, True, INK, "ra")
        if s.detail:
            draw_text(
                draw,
                (x + 14, top + 12 + int(STRIP_NAME * LEADING) + 4),
                s.detail,
                cw - 28,
                STRIP_DETAIL,
                min_size=22,
                max_lines=2,
                height=lines * int(STRIP_DETAIL * LEADING),
            )
    return strip_height(seats, width)


# --------------------------------------------------------------------------- ranking


def ordinal(n: int) -> str:
    """A place in words, short: ``1st``, ``2nd`` (``1.º``, ``2.º``)."""
    if n in (1, 2, 3):
        return (tr("1st"), tr("2nd"), tr("3rd"))[n - 1]
    return tr("{n}th", n=n)


RANK_ROW = 52


def ranking_height(seats: Sequence[SeatLine]) -> int:
    return PAD + 50 + len(seats) * RANK_ROW + 14


def draw_ranking(
    draw: ImageDraw.ImageDraw,
    seats: Sequence[SeatLine],
    y: int,
    width: int = WIDTH,
    title: str = N_("Final ranking"),
) -> int:
    """The final board's ranking box: place, mark, name, score and key counts, best first
    (``title``: a message, translated here)."""
    title = tr(title)
    height = ranking_height(seats)
    x0, x1 = PAD, width - PAD
    draw.rounded_rectangle((x0, y + PAD, x1, y + height), radius=14, fill=PANEL, outline=GOLD, width=5)
    draw_text(draw, (x0 + 20, y + PAD + 10), title, x1 - x0 - 40, 32, bold=True, fill=GOLD)
    top = y + PAD + 54
    ordered = sorted(seats, key=lambda s: (s.place or 99, s.seat))
    for i, s in enumerate(ordered):
        ry = top + i * RANK_ROW
        if i % 2 == 0:
            draw.rectangle((x0 + 6, ry - 4, x1 - 6, ry + RANK_ROW - 8), fill=(250, 245, 230))
        place = ordinal(s.place) if s.place else ""
        label(draw, (x0 + 22, ry), place, 32, True, GOLD if s.place == 1 else INK)
        seat_mark(draw, x0 + 118, ry + 20, 18, s.seat)
        score_w = int(text_width(s.score, 34, True)) + 4
        name_w = min(330, (x1 - x0) // 3)
        draw_text(
            draw, (x0 + 146, ry + 1), [(s.name, seat_colour(s.seat))], name_w, 32, min_size=22, bold=True
        )
        label(draw, (x0 + 146 + name_w + 10 + score_w, ry), s.score, 34, True, INK, "ra")
        if s.detail:
            dx = x0 + 146 + name_w + 30 + score_w
            draw_text(draw, (dx, ry + 6), s.detail, x1 - 16 - dx, 26, min_size=20)
    return height


def places(ranking: Sequence[Sequence[int]]) -> dict[int, int]:
    """Seat -> 1-based place from ranking groups (tied seats share a place)."""
    out, place = {}, 1
    for group in ranking:
        for s in group:
            out[s] = place
        place += len(group)
    return out


def places_by_score(scores: Sequence[float]) -> dict[int, int]:
    """Seat -> place by score alone (higher is better; equal scores share a place)."""
    out = {}
    for s, v in enumerate(scores):
        out[s] = 1 + sum(1 for w in scores if w > v)
    return out


# --------------------------------------------------------------------------- the last turn


def mark_box(
    draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], width: int = 6, radius: int = 8
) -> None:
    """Outline something that changed in the last turn: magenta with a thin white inner line."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle((x0, y0, x1, y1), radius=radius, outline=MARK, width=width)
    draw.rounded_rectangle(
        (x0 + width, y0 + width, x1 - width, y1 - width),
        radius=max(0, radius - 4),
        outline=(255, 255, 255),
        width=1,
    )


def arrow(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], width: int = 7) -> None:
    """A magenta arrow from ``a`` to ``b`` (a card's path)."""
    path_arrow(draw, [a, b], width)


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
    left = (x1 - head * math.cos(ang - 0.45), y1 - head * math.sin(ang - 0.45))
    right = (x1 - head * math.cos(ang + 0.45), y1 - head * math.sin(ang + 0.45))
    draw.polygon([(x1, y1), left, right], fill=MARK, outline=(255, 255, 255))


def draw_legend(draw: ImageDraw.ImageDraw, x: int, y: int, width: int, text: str, size: int = 24) -> int:
    """The legend of the last-turn mark (one line, two if it must): a magenta square, then
    ``text``.  Returns the height used."""
    draw.rounded_rectangle((x, y + 3, x + size, y + size + 3), radius=4, outline=MARK, width=5)
    return draw_text(draw, (x + size + 10, y), text, width - size - 10, size, min_size=18, max_lines=2)


# --------------------------------------------------------------------------- entry points


Picture = Callable[[Any, Sequence[str] | None, str | None], Image.Image]


def board_entry_points(
    picture: Picture, game: str | None = None
) -> tuple[Callable[..., bytes], Callable[..., Image.Image]]:
    """A game's ``render`` and ``draw_board`` from the function that draws its board, ``picture(view,
    names, last_action)``: both take ``names``, ``last_action`` and ``language`` (default English),
    keyword-only; ``draw_board`` draws in the language, ``render`` encodes the PNG, with the
    palette of ``game`` (:mod:`renderers.palettes`) when it has one."""

    def draw_board(
        view: Any,
        *,
        names: Sequence[str] | None = None,
        last_action: str | None = None,
        language: str | None = None,
        contrast: bool = False,
    ) -> Image.Image:
        with speaking(language):
            image = picture(view, names, last_action)
        return high_contrast(image) if contrast else image

    def render(
        view: Any,
        *,
        names: Sequence[str] | None = None,
        last_action: str | None = None,
        language: str | None = None,
        contrast: bool = False,
    ) -> bytes:
        """The board as PNG bytes, its words in ``language`` (default English), in the
        high-contrast palette (:func:`high_contrast`) when ``contrast``."""
        image = draw_board(view, names=names, last_action=last_action, language=language, contrast=contrast)
        return encode(image, palette_image(game) if game and not contrast else None)

    return render, draw_board


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
    return {name: Key(contrast_colour(key.colour), key.cue) for name, key in keys.items()}


def high_contrast(image: Image.Image) -> Image.Image:
    """``image`` in the high-contrast palette (:func:`contrast_colour` on every pixel)."""
    return image.convert("RGB").point(_CONTRAST_LUT * 3)


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


def new_canvas(width: int, height: int, colour=BACKGROUND) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), colour)
    return image, ImageDraw.Draw(image)
