"""Letters DejaVu Sans lacks: Chinese, Japanese and Korean names, emoji, drawn in fallback fonts.

A player's name may be "小明", "민준" or "Alex🔥"; DejaVu Sans draws none of those letters (only
its missing-glyph box).  :class:`FallbackFont` is a DejaVu Sans font that splits such a text into
runs, each in the first bundled font that has all of its letters (DejaVu Sans, then Droid Sans
Fallback for Han, kana and Hangul, then Symbola, cut down to its emoji and symbols), and lays
the runs side by side at the same size on DejaVu's baseline.  It is a ``FreeTypeFont``, so that
``draw.text``, ``draw.textlength``, ``draw.textbbox`` and the stamped labels all use it; a text
DejaVu Sans draws whole takes Pillow's own path, the same pixels as a plain DejaVu font.

Which font has which letter comes from each font's cmap, read once (fontTools).

A right-to-left name inside a line is isolated (:func:`languages.bidi.isolated`), between marks
no font has a glyph for: they are not letters to find a font for, and stay in the text for the
layout.  Pillow's raqm layout runs the bidirectional algorithm and draws them as nothing; its
basic layout (a Pillow built without raqm) does not, and they are left out of what it draws and
measures, which it would draw as boxes.
"""

from __future__ import annotations

import math
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops, ImageFont

from languages.bidi import ISOLATE_MARKS, balanced, without_isolates

FONT_DIR = Path(__file__).resolve().parent / "fonts"
FONT_FILES = {False: FONT_DIR / "DejaVuSans.ttf", True: FONT_DIR / "DejaVuSans-Bold.ttf"}
# The fallbacks, in the order they are tried after DejaVu Sans; both have no bold, so bold text
# falls back to the regular faces.
CJK_FILE = FONT_DIR / "DroidSansFallback.ttf"
EMOJI_FILE = FONT_DIR / "Symbola-subset.ttf"
FALLBACK_FILES = (CJK_FILE, EMOJI_FILE)

# Marks that only ask for an emoji's presentation or join emoji into one ("❤️", "👩‍💻"): no
# bundled font draws the joined picture, so in a text that needs a fallback they are left out.
IGNORED = frozenset("\ufe0e\ufe0f\u200d")

Run = tuple[str, int]  # a run's text and its font: 0 DejaVu Sans, then 1, 2 the fallbacks


@cache
def coverage(path: Path) -> frozenset[int]:
    """The code points ``path`` has a glyph for, from its cmap (read once); none known in an
    environment installed before fontTools was a dependency (DejaVu then draws every letter, its
    box for those it lacks, as before the fallbacks)."""
    try:
        from fontTools.ttLib import TTFont  # only once a text has a letter beyond ASCII
    except ImportError:
        return frozenset()
    return frozenset(TTFont(str(path), lazy=True).getBestCmap())


def _font_of(code: int, bold: bool) -> int:
    if code in coverage(FONT_FILES[bold]):
        return 0
    for k, path in enumerate(FALLBACK_FILES, 1):
        if code in coverage(path):
            return k
    return 0  # no bundled font has it: DejaVu's box says so


@lru_cache(maxsize=8192)
def runs(text: str, bold: bool = False) -> tuple[Run, ...] | None:
    """``text`` split into runs by the font that draws each letter, or None when DejaVu Sans
    draws all of it (the text is drawn as it always was)."""
    if text.isascii():
        return None
    main = coverage(FONT_FILES[bold])
    if not main or all(ord(ch) in main or ch in ISOLATE_MARKS for ch in text):  # DejaVu draws it all
        return None
    out: list[list[Any]] = []
    marks = ""  # isolate marks before the first letter: they go with its run
    for ch in text:
        if ch in IGNORED:
            continue
        if ch in ISOLATE_MARKS:  # no font's letter: in the run it stands in
            if out:
                out[-1][0] += ch
            else:
                marks += ch
            continue
        k = _font_of(ord(ch), bold)
        if out and out[-1][1] == k:
            out[-1][0] += ch
        else:
            out.append([marks + ch, k])
            marks = ""
    return tuple((t, k) for t, k in out)


@lru_cache(maxsize=256)
def _fallback(path: Path, size: float) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(path), size)


class FallbackFont(ImageFont.FreeTypeFont):
    """DejaVu Sans at ``size`` (bold or not) that draws the letters it lacks in a fallback font."""

    def __init__(
        self, size: float, bold: bool = False, layout_engine: ImageFont.Layout | None = None
    ) -> None:
        super().__init__(str(FONT_FILES[bold]), size, layout_engine=layout_engine)
        self.bold = bold
        self._baselines: dict[str, int] = {}

    def __reduce__(self) -> tuple[type[FallbackFont], tuple[float, bool, ImageFont.Layout]]:
        return FallbackFont, (self.size, self.bold, self.layout_engine)  # a copy falls back too

    def _shown(self, text: Any) -> Any:
        """The text as this font lays it out: its isolate marks balanced (a line that begins
        inside an isolate opens it) under raqm, left out under the basic layout."""
        if not isinstance(text, str):
            return text
        return without_isolates(text) if self.layout_engine == ImageFont.Layout.BASIC else balanced(text)

    def _baseline(self, v: str) -> int:
        """How far the baseline lies below an anchor at the ascender ("a"), the middle ("m") or
        the descender ("d"): DejaVu's, so a mixed text stands on its neighbours' line."""
        if v not in self._baselines:
            plain = ImageFont.FreeTypeFont.getbbox
            self._baselines[v] = int(plain(self, "H", anchor="l" + v)[1] - plain(self, "H", anchor="ls")[1])
        return self._baselines[v]

    def _run_font(self, k: int) -> ImageFont.FreeTypeFont:
        return self if k == 0 else _fallback(FALLBACK_FILES[k - 1], self.size)

    def _plain(self, text: str | bytes) -> bool:
        return not isinstance(text, str) or runs(text, self.bold) is None

    def _layout(self, text: str, anchor: str | None, stroke_width: float) -> tuple[list[Any], float, float]:
        """The runs as (text, font, pen x), and the pen's start (x, baseline y) from the anchor."""
        laid: list[Any] = []
        x = 0.0
        for part, k in runs(text, self.bold) or ():
            part = balanced(part)  # each run is laid out alone
            fnt = self._run_font(k)
            laid.append((part, fnt, x))
            x += ImageFont.FreeTypeFont.getlength(fnt, part)
        anchor = anchor or "la"
        if len(anchor) != 2:
            raise ValueError("anchor must be a 2 character string")
        h, v = anchor[0], anchor[1]
        dx = {"l": 0.0, "m": -x / 2, "r": -x}.get(h)
        if dx is None:
            raise ValueError(f"unknown anchor {anchor!r}")
        if v in ("a", "m", "d"):
            dy = float(self._baseline(v))
        elif v in "tb":  # the top or the bottom of the ink
            boxes = [
                ImageFont.FreeTypeFont.getbbox(f, t, anchor="ls", stroke_width=stroke_width)
                for t, f, _ in laid
            ]
            dy = float(-min(b[1] for b in boxes) if v == "t" else -max(b[3] for b in boxes))
        elif v == "s":
            dy = 0.0
        else:
            raise ValueError(f"unknown anchor {anchor!r}")
        return laid, dx, dy

    def getlength(
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
    ) -> float:
        text = self._shown(text)
        if self._plain(text):
            return super().getlength(text, mode, direction, features, language)
        assert isinstance(text, str)
        parts = runs(text, self.bold) or ()
        return sum(ImageFont.FreeTypeFont.getlength(self._run_font(k), balanced(t), mode) for t, k in parts)

    def getbbox(
        self,
        text: str | bytes | bytearray,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        anchor: str | None = None,
    ) -> tuple[float, float, float, float]:
        text = self._shown(text)
        if isinstance(text, bytearray) or self._plain(text):
            return super().getbbox(text, mode, direction, features, language, stroke_width, anchor)
        assert isinstance(text, str)
        laid, dx, dy = self._layout(text, anchor, stroke_width)
        if not laid:
            return super().getbbox("", mode, direction, features, language, stroke_width, anchor)
        boxes = []
        for part, fnt, x in laid:
            left, top, right, bottom = ImageFont.FreeTypeFont.getbbox(
                fnt, part, mode, stroke_width=stroke_width, anchor="ls"
            )
            boxes.append((left + x + dx, top + dy, right + x + dx, bottom + dy))
        return (
            math.floor(min(b[0] for b in boxes)),
            math.floor(min(b[1] for b in boxes)),
            math.ceil(max(b[2] for b in boxes)),
            math.ceil(max(b[3] for b in boxes)),
        )

    def getmask2(
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        anchor: str | None = None,
        ink: int = 0,
        start: tuple[float, float] | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> tuple[Image.core.ImagingCore, tuple[int, int]]:
        text = self._shown(text)
        if self._plain(text):
            return super().getmask2(
                text, mode, direction, features, language, stroke_width, anchor, ink, start, *args, **kwargs
            )
        assert isinstance(text, str)
        laid, dx, dy = self._layout(text, anchor, stroke_width)
        if not laid:
            return super().getmask2("", mode, direction, features, language, stroke_width, anchor, ink, start)
        sx, sy = start or (0.0, 0.0)
        # Each run at its pen position, placed as draw.text places a text: at the whole pixel
        # of its start, its fraction passed to FreeType.
        y = sy + dy
        pieces: list[tuple[Image.Image, int, int]] = []
        for part, fnt, x in laid:
            px = sx + dx + x
            core, (ox, oy) = ImageFont.FreeTypeFont.getmask2(
                fnt,
                part,
                "L",
                stroke_width=stroke_width,
                anchor="ls",
                start=(math.modf(px)[0], math.modf(y)[0]),
                **kwargs,
            )
            piece = Image.new("L", core.size)
            piece.im = core
            pieces.append((piece, int(px) + ox, int(y) + oy))
        left = min(px for _, px, _ in pieces)
        top = min(py for _, _, py in pieces)
        right = max(px + p.width for p, px, _ in pieces)
        bottom = max(py + p.height for p, _, py in pieces)
        mask = Image.new("L", (right - left, bottom - top))
        for piece, px, py in pieces:
            box = (px - left, py - top, px - left + piece.width, py - top + piece.height)
            mask.paste(ImageChops.lighter(mask.crop(box), piece), box)
        return mask.im, (left, top)
