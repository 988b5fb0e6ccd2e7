"""The Discord markdown a long text carries, and where the text is cut into messages so that it
stays whole (:func:`cuts`, behind :func:`bot.texts.pieces`): no cut breaks a mention or a link,
and a span cut in two (a bold name, inline code, a code block, a quote) is closed at the end of
one message and opened again at the start of the next, so each message reads as the whole would.

Pure code: no Discord, no storage.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

TOKEN = re.compile(
    r"<(?:@[!&]?\d+|#\d+|a?:\w+:\d+|t:-?\d+(?::[tTdDfFR])?|/[^<>:\n]+:\d+|https?://[^\s<>]+)>"
    r"|\[[^\[\]\n]*\]\(<?https?://[^\s()<>]+>?\)|https?://(?:[^\s<>*~|`_\\]|_(?=[A-Za-z0-9]))+|\\[^\sA-Za-z0-9]"
)
"""What a cut never falls inside: a mention, channel, role, slash command, custom emoji or time
(``<@123>``, ``<#1>``, ``<:name:123>``, ``<t:1700000000:R>``), a link (bare, in ``<>`` or masked),
and a character escaped with a backslash (``\\*``, as :func:`bot.league.names.shown` writes names).
A bare link ends before a span's marker (``**https://example.com**``, ``_https://example.com_``)."""

SPAN_MARKERS = ("**", "__", "~~", "||", "*", "_")
"""The markers of Discord's inline spans (bold, underline, strike, spoiler, italic), longest first."""

FENCE_TAG = re.compile(r"[A-Za-z0-9_+\-.#]*\n")
"""A fenced code block's language tag and the line break after it (``py\\n``)."""

NON_SPACE = re.compile(r"\S")
BACKTICKS = re.compile(r"`+")


@dataclass(frozen=True)
class Span:
    """A stretch of markdown a cut inside must close and open again: its markers run from
    ``start`` to ``inner`` and from ``stop`` to ``end``; a cut inside puts ``close`` at the end of
    the first message and ``again`` at the start of the next (bold's ``**`` and ``**``; a code
    block's line break and three backticks, and three backticks, its language tag and a line
    break; a quote's nothing, and ``> `` or ``>>> ``)."""

    start: int
    inner: int
    stop: int
    end: int
    close: str
    again: str
    quote: bool = False


class Piece(NamedTuple):
    """One message of a long text: ``text[start:end]`` with the markers of the spans cut at its
    ends added, ``opened`` before and ``closed`` after (see :func:`cuts`)."""

    start: int
    end: int
    opened: str
    closed: str


def read_markup(text: str) -> tuple[list[Span], bytearray]:
    """The spans of ``text`` a cut may fall in (each span whose markers are matched: an unmatched
    ``*`` is a plain asterisk, as Discord shows it), and the places no cut may fall (``locked[p]``
    is set where a cut between ``text[p - 1]`` and ``text[p]`` would break a :data:`TOKEN` or a
    run of markers).  A reading close to Discord's for the markup the table writes: bold, italic,
    underline, strike and spoiler spans (also over several lines), inline code and fenced code
    blocks (whose insides are read as written), ``> `` and ``>>> `` quotes at a line's start."""
    spans: list[Span] = []
    locked = bytearray(len(text) + 1)
    for p in range(1, len(text)):  # inside a run of markers (``***``, ``||``), or of backticks
        locked[p] = text[p] == text[p - 1] and text[p] in "*_~|`"
    stack: list[tuple[str, int]] = []
    i, n, block = 0, len(text), False
    while i < n:
        c = text[i]
        if (i == 0 or text[i - 1] == "\n") and not block and c == ">":
            if text.startswith(">>> ", i):  # quotes the rest of the message
                spans.append(Span(i, i + 4, n, n, "", ">>> ", True))
                i, block = i + 4, True
                continue
            if text.startswith("> ", i):  # quotes its line
                stop = n if (stop := text.find("\n", i)) < 0 else stop
                spans.append(Span(i, i + 2, stop, stop, "", "> ", True))
                i += 2
                continue
        if c == "`":
            run = len(BACKTICKS.match(text, i)[0])  # type: ignore[index]  # (text[i] is one)
            if run >= 3 and (stop := text.find("```", i + 3)) >= 0:  # a fenced block, to the next ```
                tag = FENCE_TAG.match(text, i + 3)
                inner = tag.end() if tag else i + 3
                spans.append(Span(i, inner, stop, stop + 3, "\n```", text[i:inner].rstrip("\n") + "\n"))
                i = stop + 3
                continue
            closing = re.compile(f"(?<!`){'`' * run}(?!`)").search(text, i + run) if run < 3 else None
            if closing:  # inline code, to the next run as long
                spans.append(Span(i, i + run, closing.start(), closing.end(), "`" * run, "`" * run))
                i = closing.end()
                continue
            i += run
            continue
        if c in "<h[\\" and (token := TOKEN.match(text, i)):
            locked[i + 1 : token.end()] = b"\x01" * (token.end() - i - 1)
            i = token.end()
            continue
        if c in "*_~|":
            i = span_marker(text, i, stack, spans)
            continue
        i += 1
    return spans, locked


def span_marker(text: str, i: int, stack: list[tuple[str, int]], spans: list[Span]) -> int:
    """Read the marker at ``text[i]``: it closes the innermost open span it can (those opened
    inside it and left open are plain text), else opens one, else is plain; where reading goes on."""
    for k in range(len(stack) - 1, -1, -1):
        mark, at = stack[k]
        if text.startswith(mark, i) and i > at + len(mark) and closes(text, i, mark):
            spans.append(Span(at, at + len(mark), i, i + len(mark), mark, mark))
            del stack[k:]
            return i + len(mark)
    for mark in SPAN_MARKERS:
        if text.startswith(mark, i) and opens(text, i, mark):
            stack.append((mark, i))
            return i + len(mark)
    return i + 1


def opens(text: str, i: int, mark: str) -> bool:
    """Whether ``mark`` at ``text[i]`` may open a span: a single ``*`` or ``_`` is followed by a
    letter, not a space (``* item`` is a list's), and ``_`` starts a word (not ``snake_case``)."""
    after = text[i + len(mark) : i + len(mark) + 1]
    if mark == "*":
        return bool(after.strip())
    if mark == "_":
        return bool(after.strip()) and (i == 0 or not text[i - 1].isalnum())
    return True


def closes(text: str, i: int, mark: str) -> bool:
    """Whether ``mark`` at ``text[i]`` may close its span: a single ``*`` or ``_`` follows a
    letter, not a space, and ``_`` ends a word."""
    if mark in ("*", "_") and text[i - 1].isspace():
        return False
    return mark != "_" or i + 1 >= len(text) or not text[i + 1].isalnum()


def cuts(text: str, limit: int) -> list[Piece]:
    """Where :func:`bot.texts.pieces` cuts ``text``: each message is ``text[start:end]`` with ``opened``
    before and ``closed`` after, at most ``limit`` characters in all.  What lies between one
    message's ``end`` and the next's ``start`` (and before the first, and after the last) is
    white space only: the spaces at a cut within a line, the line break at a cut between lines,
    blank lines at a message's edges.  ``closed`` closes the spans open at the cut, innermost
    first, and the next message's ``opened`` opens them again, outermost first (see :class:`Span`).

    Each message takes as many whole lines as fit, and ends outside the spans where that leaves
    it at least half full.  A line longer than a message is cut after a ``; `` or ``, `` between
    its items (a bracket round's matches, a list of names), else at a space, each only where that
    leaves at least half of the room, else mid-word; a cut never falls inside a :data:`TOKEN`,
    and falls outside the spans where one of these does, inside them only where it must.  Such a
    line starts in the room the message before it leaves (cut as above, in that room) when that
    takes fewer messages for the line than starting a new one.  A limit too small for the
    markers (below a few dozen characters) cuts without them."""
    markup = Markup(text, limit, *read_markup(text))
    out: list[Piece] = []
    start, opened = markup.line_from(0), ""
    while start < len(text):
        cut, marked = markup.next_cut(start, opened)
        if not marked:
            opened = ""
        if (end := markup.trimmed(start, cut)) > start:  # (a forced cut in white space gives none)
            out.append(Piece(start, end, opened, markup.closing(cut) if marked else ""))
        opened = markup.again(cut) if marked else ""
        start = markup.resume(cut)
    return out


SEPARATORS = (("; ", ", "), (" ",))
"""Where a line longer than a message is cut, best first: between its items, else between words."""


@dataclass(frozen=True)
class Markup:
    """A text with its markup read (:func:`read_markup`), and where :func:`cuts` may cut it."""

    text: str
    limit: int
    spans: list[Span]
    locked: bytearray

    def open_at(self, p: int) -> list[Span]:
        """The spans a cut before ``text[p]`` falls inside, outermost first (quotes before all)."""
        inside = [s for s in self.spans if s.start < p < s.end]
        return sorted(inside, key=lambda s: (not s.quote, s.start))

    def closing(self, p: int) -> str:
        return "".join(s.close for s in reversed(self.open_at(p)))

    def again(self, p: int) -> str:
        return "".join(s.again for s in self.open_at(p))

    def trimmed(self, start: int, p: int) -> int:
        """Where a message from ``start`` cut at ``p`` ends: white space before the cut left out."""
        while p > start and self.text[p - 1].isspace():
            p -= 1
        return p

    def cuttable(self, start: int, p: int) -> bool:
        """Whether a cut may fall before ``text[p]``: not in a token or a run of markers, and
        with some text of every span it falls in on each side (no ``****`` left either side)."""
        if self.locked[p] or self.trimmed(start, p) == start:
            return False
        return all(
            NON_SPACE.search(self.text, s.inner, p) and NON_SPACE.search(self.text, p, s.stop)
            for s in self.open_at(p)
        )

    def line_from(self, p: int) -> int:
        """The start of the first line at or after line start ``p`` that is not blank."""
        while (found := NON_SPACE.search(self.text, p)) and "\n" in self.text[p : found.start()]:
            p = self.text.rindex("\n", p, found.start()) + 1
        return p if found else len(self.text)

    def resume(self, p: int) -> int:
        """Where the message after a cut at ``p`` starts: past the spaces there, and past the line
        break and the blank lines after it (a line's own indentation is kept)."""
        text = self.text
        while p < len(text) and text[p].isspace() and text[p] != "\n":
            p += 1
        return self.line_from(p + 1) if p < len(text) and text[p] == "\n" else p

    def line_end(self, p: int) -> int:
        return len(self.text) if (end := self.text.find("\n", p)) < 0 else end

    def fits(self, start: int, p: int, opened: str) -> bool:
        """Whether the message from ``start`` cut at ``p`` fits, with its markers."""
        size = len(opened) + self.trimmed(start, p) - start + len(self.closing(p))
        return size <= self.limit

    def best(
        self, start: int, places: Sequence[int], opened: str, least: int, outside: bool = False
    ) -> int | None:
        """The last of ``places`` (in order) a message from ``start`` may be cut at and fit, at
        least ``least`` characters on: outside the spans if one is, else (unless ``outside``)
        inside them."""
        inside = None
        for p in reversed(places):
            if p - start < least:
                break
            if not (self.cuttable(start, p) and self.fits(start, p, opened)):
                continue
            if not self.open_at(p):
                return p
            if inside is None and not outside:
                inside = p
        return inside

    def next_cut(self, start: int, opened: str) -> tuple[int, bool]:
        """Where the message from ``start`` (``opened`` before it) is cut, and whether with
        markers: after as many whole lines as fit, or in a line longer than a message."""
        text, room = self.text, self.limit - len(opened)
        ends, p = [], start
        while p < len(text):
            p = self.line_end(p)
            if self.trimmed(start, p) - start > room:
                break
            ends.append(p)
            p += 1
        whole = (p for p in reversed(ends) if self.cuttable(start, p) and self.fits(start, p, opened))
        last = next(whole, None)
        if last is None:
            return self.line_cut(start, opened)
        if self.open_at(last):  # whole lines ending outside the spans, if they fill half of it
            before = [p for p in ends if p < last]
            if (cut := self.best(start, before, opened, max(room // 2, 1), outside=True)) is not None:
                return cut, True
        if last < len(text) and (fill := self.fill(start, last, opened)) is not None:
            return fill, True
        return last, True

    def line_cut(self, start: int, opened: str) -> tuple[int, bool]:
        """Where a line too long for the message from ``start`` is cut: after an item, a word,
        else mid-word; in a token, or without the markers, only where nothing else fits."""
        end, room = self.line_end(start), self.limit - len(opened)
        half = max(room // 2, 1)
        for separators in SEPARATORS:
            places = self.after(start, min(end, start + room + 1), separators)
            if (cut := self.best(start, places, opened, half)) is not None:
                return cut, True
        words = range(start + 1, min(end, start + room + 1))
        if (cut := self.best(start, words, opened, half, outside=True)) is not None:
            return cut, True
        if (cut := self.best(start, words, opened, 1)) is not None:
            return cut, True
        return min(start + max(self.limit, 1), end), False

    def after(self, start: int, end: int, separators: Sequence[str]) -> list[int]:
        """The places after each of ``separators`` between ``start`` and ``end``, in order."""
        found = set()
        for sep in separators:
            i = self.text.find(sep, start, end)
            while i >= 0:
                found.add(i + len(sep))
                i = self.text.find(sep, i + 1, end)
        return sorted(found)

    def fill(self, start: int, last: int, opened: str) -> int | None:
        """Where the line after ``last`` is cut to fill the message from ``start`` (whole lines
        to ``last``), if it is longer than a message and that takes fewer messages for it."""
        line = self.resume(last)
        if line >= len(self.text) or self.fits(line, self.line_end(line), self.again(line)):
            return None
        room = self.limit - len(opened) - (line - start)
        for separators in SEPARATORS:
            places = self.after(line, min(self.line_end(line), start + self.limit + 1), separators)
            cut = self.best(start, places, opened, line - start + max(room // 2, 1))
            if cut is not None:
                return cut if self.parts(self.resume(cut)) < self.parts(line) else None
        return None

    def parts(self, p: int) -> int:
        """How many messages the rest of the line from ``p`` takes, starting a new one."""
        count, end = 1, self.line_end(p)
        while not self.fits(p, end, opened := self.again(p)):
            cut, _ = self.line_cut(p, opened)
            p, count = self.resume(cut), count + 1
            if p >= end:
                break
        return count
