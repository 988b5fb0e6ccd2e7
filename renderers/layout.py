"""How every board starts: the header, the score strip and the final ranking box.

Every board is :data:`WIDTH` pixels wide and starts the same way::

    ┌ header: title · round or turn ─────────────────────────────┐
    │ ● whose turn it is (the name in the seat's colour), or who won │
    │ Last: the last action in words                                 │
    │ Options: the game's options that differ from its defaults      │
    ├ score strip: one cell per seat (two rows for 4-6 players);     │
    │   on the final board, the ranking box in its place             │
    └ the game's own board, with the last turn outlined in MARK ─────┘
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import Any

from PIL import ImageDraw, ImageFont

from languages.bidi import isolated, names_isolated
from renderers.colours import ACTIVE, GOLD, INK, MUTED, PANEL, RULE, seat_colour
from renderers.shapes import seat_mark
from renderers.translation import N_, Span, list_spans, nsay, say, tr
from renderers.typeset import (
    LEADING,
    NAME_SHARES,
    Layout,
    draw_text,
    fit,
    font,
    ink_height,
    label,
    names_shortened,
    shorten,
    text_width,
)

WIDTH = 1200


# The header's text stands at least 1/45 of the image's width tall (27 px of 1200), so that it
# reads when Discord shows the image 400 px wide on a phone: the smallest font size that does.
HEADER_MIN = next(s for s in range(8, 200) if min(ink_height(s), ink_height(s, True)) >= WIDTH / 45)


def seat_name(names: Sequence[str] | None, seat: int) -> str:
    if names and 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return tr("Player {number}", number=seat + 1)


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
OPTIONS_LINES = 3  # the options wrap to this many lines before they are cut


def _options_spans() -> list[Span] | None:
    text = _OPTIONS.get()
    return say("Options: {options}", MUTED, options=[(text, INK)]) if text else None


def _header_parts(
    header: Header, width: int
) -> tuple[Layout, Layout | None, Layout, Layout | None, Layout | None, int, int]:
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
    spans = _options_spans()
    options = None
    if spans is not None:
        options = fit(
            spans, inner, LAST_SIZE * (OPTIONS_LINES + 1), LAST_SIZE, HEADER_MIN, False, OPTIONS_LINES
        )
    return title, info, status, last, options, info_w, mark


_ENDED: ContextVar[str | None] = ContextVar("ended", default=None)
_ENDED_NAMES: ContextVar[tuple[str, ...]] = ContextVar("ended_names", default=())
_OPTIONS: ContextVar[str | None] = ContextVar("options", default=None)


@contextmanager
def ended(text: str | None, names: Sequence[str] | None = None) -> Iterator[None]:
    """Boards drawn within say ``text`` (translated already) on their header's status line instead
    of whose turn it is: the last board of a game the table ended before its rules did (a
    resignation, a forfeit, an abandon), which the game's view cannot know of.  The players'
    ``names`` in it are shortened where it would not fit whole; in it and in the last action, a
    right-to-left name is isolated from the words around it (:func:`languages.bidi.names_isolated`)."""
    token = _ENDED.set(text)
    named = _ENDED_NAMES.set(tuple(names or ()))
    try:
        yield
    finally:
        _ENDED_NAMES.reset(named)
        _ENDED.reset(token)


@contextmanager
def options_said(text: str | None) -> Iterator[None]:
    """Boards drawn within say ``text`` (the game's options in words, translated already: those
    that differ from its defaults and that the board does not show otherwise) on a line of their
    header, "Options: ...", which the game's view does not hold."""
    token = _OPTIONS.set(text or None)
    try:
        yield
    finally:
        _OPTIONS.reset(token)


def board_ended() -> bool:
    """Whether the board being drawn is the last of a game the table ended (:func:`ended`)."""
    return _ENDED.get() is not None


def to_play(active: bool) -> bool:
    """Whether a player's panel marks its seat as the one to play (a ▶, a highlighted panel):
    ``active``, as the game's view has it, unless the board is drawn as ended (:func:`ended`),
    where nobody is to play."""
    return active and not board_ended()


class NameSpan(tuple[str, tuple[int, ...]]):
    """A span that is a seat's name (:func:`name_span`): the header shortens it, never the words
    around it, where its status would not fit."""

    __slots__ = ()


def _status_cut(status: Sequence[Span], width: int) -> bool:
    return fit(status, width, STATUS_SIZE * 3, STATUS_SIZE, HEADER_MIN, True, 2).cut


def _names_shortened(status: Sequence[Span], width: int) -> Sequence[Span]:
    """``status`` as the header draws it in ``width``: when it would be cut (long names: "WWWW…,
    Black, to play" ending "Bl…"), its names are shortened with "…", each to the same share of
    the line, the least that lets the whole fit, so that what the sentence says stays whole."""
    if not any(isinstance(span, NameSpan) for span in status) or not _status_cut(status, width):
        return status
    shortened = status
    for share in NAME_SHARES:
        shortened = [
            (shorten(span[0], width * share, HEADER_MIN, True), span[1])
            if isinstance(span, NameSpan)
            else span
            for span in status
        ]
        if not _status_cut(shortened, width):
            break
    return shortened


def _as_shown(header: Header, width: int) -> Header:
    """``header`` as drawn: the ended board's text in place of its status, long names shortened,
    and the players' names (:func:`ended`) isolated in the sentences that hold them (the ended
    text, the last action), where a right-to-left name would turn the line around."""
    names = _ENDED_NAMES.get()
    if header.last_action:
        header = replace(header, last_action=names_isolated(header.last_action, names))
    text = _ENDED.get()
    if text is not None:
        room = width - 2 * PAD

        def whole(said: str) -> bool:
            return not _status_cut([(said, INK)], room)

        text = names_shortened(names_isolated(text, names), names, room, HEADER_MIN, True, whole)
        return replace(header, status=[(text, INK)], seat=None)
    mark = 46 if header.seat is not None else 0
    return replace(header, status=_names_shortened(header.status, width - 2 * PAD - mark))


def header_height(header: Header, width: int = WIDTH) -> int:
    header = _as_shown(header, width)
    title, _, status, last, options, _, _ = _header_parts(header, width)
    h = PAD + int(TITLE_SIZE * LEADING) + 6 + max(status.height, 40)
    if last is not None:
        h += 8 + last.height
    if options is not None:
        h += 8 + options.height
    return h + PAD


def draw_header(draw: ImageDraw.ImageDraw, header: Header, width: int = WIDTH, y: int = 0) -> int:
    """Draw the header band at ``y``; returns its height."""
    header = _as_shown(header, width)
    height = header_height(header, width)
    _, info, _, last, options, info_w, mark = _header_parts(header, width)
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
    spans = _options_spans()
    if options is not None and spans is not None:
        top += 8 + last.height if last is not None else 0
        draw_text(
            draw,
            (PAD, top),
            spans,
            width - 2 * PAD,
            LAST_SIZE,
            min_size=HEADER_MIN,
            max_lines=OPTIONS_LINES,
            height=LAST_SIZE * (OPTIONS_LINES + 1),
            header=True,
        )
    return height


def name_span(names, seat: int) -> list[Span]:
    """A seat's name in its colour, as spans for :func:`say` (a :class:`NameSpan`, which the
    header shortens where its status would not fit)."""
    return [NameSpan((seat_name(names, seat), seat_colour(seat)))]


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


STRIP_NAME_MIN = 22  # the smallest a name in the strip shrinks to


def headed_name(name: str, width: float, size: int, *, you: bool = False, active: bool = False) -> str:
    """A seat's name as a panel heads it, with the turn's ▶ (``active``) and the reader's "(you)"
    (``you``): when the whole does not fit ``width`` at ``size`` (the smallest the panel's
    name shrinks to), the name alone is shortened, so that the ▶ and "(you)" always show.  A
    right-to-left name is isolated, once shortened (:func:`languages.bidi.isolated`): the ▶ stays
    before it and "(you)" after it."""

    def headed(text: str) -> str:
        if not (active or you):
            return text
        text = isolated(text)
        return ("▶ " if active else "") + (tr("{name} (you)", name=text) if you else text)

    whole = headed(name)
    if text_width(whole, size, True) <= width:
        return whole
    rest = text_width(headed(""), size, True)
    return headed(shorten(name, width - rest, size, True))


def strip_name(s: SeatLine, width: float) -> str:
    """A seat's name as its strip cell heads it (:func:`headed_name` at :data:`STRIP_NAME_MIN`)."""
    return headed_name(s.name, width, STRIP_NAME_MIN, you=s.you, active=to_play(s.active))


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
        active = to_play(s.active)
        draw.rounded_rectangle(
            (x, top, x + cw, top + ch),
            radius=12,
            fill=ACTIVE if active else PANEL,
            outline=INK if active else RULE,
            width=4 if active else 2,
        )
        seat_mark(draw, x + 30, top + 12 + STRIP_NAME * 0.6, 18, s.seat)
        score_w = int(text_width(s.score, STRIP_SCORE, True)) + 4
        room = cw - 56 - score_w - 20
        draw_text(
            draw,
            (x + 56, top + 12),
            [(strip_name(s, room), seat_colour(s.seat))],
            room,
            STRIP_NAME,
            min_size=STRIP_NAME_MIN,
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
RANK_NAME = 32  # a name's size in the ranking box; a long one shrinks to HEADER_MIN, then is shortened


def ranking_name(name: str, width: int) -> tuple[str, int]:
    """A name as the ranking box draws it in ``width`` pixels, and its size: whole at the largest
    size from :data:`RANK_NAME` down to :data:`HEADER_MIN` at which it fits (so that it still
    reads at 400 px), else shortened with an ellipsis at that smallest size."""
    lay = fit(name, width, RANK_NAME * 2, RANK_NAME, HEADER_MIN, True, 1)
    if not lay.cut:
        return name, lay.size
    return shorten(name, width, HEADER_MIN, True), HEADER_MIN


RANK_NAME_W = 330  # the ranking box's column of names, at least; wider while the details leave room
DETAIL_SIZE, DETAIL_MIN = 26, 20  # a seat's key counts in the ranking box, shrinking to the smaller size


def _score_width(s: SeatLine) -> int:
    return int(text_width(s.score, 34, True)) + 4


def ranking_name_width(seats: Sequence[SeatLine], width: int) -> int:
    """The width of the ranking box's column of names (the box ``width`` wide): at least
    :data:`RANK_NAME_W` (a third of a narrow box), wider as a name needs it to be read whole at the
    smallest size of names (as a computer's, "P2 (computer, normal)"), up to 40 % of the box, but
    never into the room any seat's key counts need at their smallest size: the same for every row,
    so that the scores stand in one column."""
    least = min(RANK_NAME_W, width // 3)
    need = max((int(text_width(s.name, HEADER_MIN, True)) + 2 for s in seats), default=0)
    need = min(need, width * 2 // 5)
    spare = min(
        (
            width
            - 16
            - (146 + least + 30 + _score_width(s))
            - (int(text_width(s.detail, DETAIL_MIN)) + 2 if s.detail else 0)
            for s in seats
        ),
        default=0,
    )
    return least + max(0, min(need - least, spare))


def _ascent(size: int) -> int:
    """How far a bold line's baseline lies below the top at which it is drawn."""
    fnt = font(size, True)
    return fnt.getmetrics()[0] if isinstance(fnt, ImageFont.FreeTypeFont) else size


def ranking_two_lines(seats: Sequence[SeatLine], width: int) -> bool:
    """Whether the ranking box (``width`` wide) gives each row two lines: when some name would be
    shortened in the column of names that the key counts leave (:func:`ranking_name_width`), the
    counts go under the names and the names take the row's width, so that a long name (Discord's
    hold 32 characters) is read whole."""
    if not any(s.detail for s in seats):
        return False
    name_w = ranking_name_width(seats, width)
    return any(ranking_name(s.name, name_w)[0] != s.name for s in seats)


RANK_COUNTS_ROW = 34  # the second line of a row when the key counts go under the name


def ranking_row(seats: Sequence[SeatLine], width: int = WIDTH - 2 * PAD) -> int:
    """The height of a row of the ranking box ``width`` wide: one line, or two."""
    return RANK_ROW + (RANK_COUNTS_ROW if ranking_two_lines(seats, width) else 0)


def ranking_height(seats: Sequence[SeatLine], width: int = WIDTH) -> int:
    """The height of the ranking box on a picture ``width`` wide."""
    return PAD + 50 + len(seats) * ranking_row(seats, width - 2 * PAD) + 14


def draw_ranking(
    draw: ImageDraw.ImageDraw,
    seats: Sequence[SeatLine],
    y: int,
    width: int = WIDTH,
    title: str = N_("Final ranking"),
) -> int:
    """The final board's ranking box: place, mark, name, score and key counts, best first
    (``title``: a message, translated here).  When a name would be shortened beside the key
    counts, every row takes two lines (:func:`ranking_two_lines`): the name and the score on the
    first, the counts under the name."""
    title = tr(title)
    height = ranking_height(seats, width)
    x0, x1 = PAD, width - PAD
    draw.rounded_rectangle((x0, y + PAD, x1, y + height), radius=14, fill=PANEL, outline=GOLD, width=5)
    draw_text(draw, (x0 + 20, y + PAD + 10), title, x1 - x0 - 40, 32, bold=True, fill=GOLD)
    top = y + PAD + 54
    ordered = sorted(seats, key=lambda s: (s.place or 99, s.seat))
    row = ranking_row(ordered, x1 - x0)
    two = row > RANK_ROW  # the counts under the names
    scores_w = max((_score_width(s) for s in ordered), default=0)
    name_w = x1 - x0 - 146 - 30 - scores_w - 20 if two else ranking_name_width(ordered, x1 - x0)
    for i, s in enumerate(ordered):
        ry = top + i * row
        if i % 2 == 0:
            draw.rectangle((x0 + 6, ry - 4, x1 - 6, ry + row - 8), fill=(250, 245, 230))
        place = ordinal(s.place) if s.place else ""
        label(draw, (x0 + 22, ry), place, 32, True, GOLD if s.place == 1 else INK)
        seat_mark(draw, x0 + 118, ry + 20, 18, s.seat)
        score_w = _score_width(s)
        name, size = ranking_name(s.name, name_w)
        # on the line of the place and the score: the same baseline whatever the name's size
        ny = ry + 1 + _ascent(RANK_NAME) - _ascent(size)
        draw_text(draw, (x0 + 146, ny), [(name, seat_colour(s.seat))], name_w, size, min_size=size, bold=True)
        if two:
            label(draw, (x1 - 20, ry), s.score, 34, True, INK, "ra")
            if s.detail:
                dx = x0 + 146
                draw_text(
                    draw, (dx, ry + RANK_ROW - 4), s.detail, x1 - 16 - dx, DETAIL_SIZE, min_size=DETAIL_MIN
                )
            continue
        label(draw, (x0 + 146 + name_w + 10 + score_w, ry), s.score, 34, True, INK, "ra")
        if s.detail:
            dx = x0 + 146 + name_w + 30 + score_w
            draw_text(draw, (dx, ry + 6), s.detail, x1 - 16 - dx, DETAIL_SIZE, min_size=DETAIL_MIN)
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
