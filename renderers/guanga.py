"""The Guanga board as a PNG: market, basket, workshop and every player's guanga.

Patches are drawn as squares in their colour with a white (or dark, on yellow)
glyph for their symbol: chakana = stepped cross, inti = sun with rays,
amaru = zigzag serpent, kuntur = spread wings, rombo = diamond.  A stack's height
shows as a number in a white badge on its top patch (the symbol moved left for it); stoppers
as a dark crossed block.  Every word and number stands 4.7 px or more on a phone.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from engines.guanga import data as D
from engines.guanga import terms as W
from engines.guanga.rules import MAX_PLAYERS
from renderers.colours import (
    ACTIVE,
    BACKGROUND,
    BAD,
    INK,
    MUTED,
    PANEL,
    RULE,
    Key,
    drew,
    ink_on,
    seat_colour,
    seat_keys,
)
from renderers.entrypoints import board_entry_points
from renderers.guanga_words import MODE_NAMES, RETURN_TEXT, phase_text
from renderers.layout import (
    PAD,
    WIDTH,
    Header,
    SeatLine,
    draw_header,
    draw_ranking,
    draw_strip,
    headed_name,
    header_height,
    places,
    ranking_height,
    seat_name,
    strip_height,
    to_play,
    turn_status,
    winners_status,
)
from renderers.shapes import draw_legend, mark_box, seat_mark
from renderers.translation import Span, ntr, told, tr
from renderers.typeset import (
    LEADING,
    art_cache,
    cap_height,
    draw_text,
    fit,
    font,
    label,
    narrow_lines,
    text_width,
)

PATCH_RGB = {
    "red": (206, 52, 52),
    "blue": (40, 96, 196),
    "yellow": (238, 190, 36),
    "green": (44, 150, 74),
}
GLYPH_INK = {
    "red": (255, 255, 255),
    "blue": (255, 255, 255),
    "yellow": (40, 30, 10),
    "green": (255, 255, 255),
}
LEVEL_RGB = {"A": (120, 170, 110), "G": (90, 130, 190), "M": (170, 100, 160), "B": (190, 130, 60)}
EMPTY_CELL = (232, 226, 212)
BOARD_BG = {"A": (196, 160, 120), "B": (150, 120, 150)}
GREY = (150, 150, 150)
PIECE_COLOURS = (*PATCH_RGB.values(), *LEVEL_RGB.values(), GREY)
# A patch colour's second cue: pips in its corners, one to four as on a die (the symbols are a
# game attribute of their own, so they cannot be the colours' cue).
PATCH_PIPS = {"red": 1, "blue": 2, "yellow": 3, "green": 4}
# What the legend tells apart by colour, and the second cue of each.
COLOUR_KEYS = {
    "seats": seat_keys(MAX_PLAYERS),
    "patch colours": {c: Key(rgb, ("pattern", f"{PATCH_PIPS[c]} pips")) for c, rgb in PATCH_RGB.items()},
    # the id's first letter, in the ink that stands out from the level's colour
    "card levels": {lv: Key(rgb, ("letter", lv), ink_on(rgb)) for lv, rgb in LEVEL_RGB.items()},
}
ROWS = "ABCDE"
# --------------------------------------------------------------------------- glyphs


def _draw_glyph(
    draw: ImageDraw.ImageDraw, symbol: str, box: tuple[float, float, float, float], ink, bg=(0, 0, 0, 0)
) -> None:
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    r = (x1 - x0) / 2
    w = max(2, int(r / 4))
    if symbol == "chakana":  # stepped Andean cross
        a, b, c = r * 0.95, r * 0.62, r * 0.3
        pts = [
            (-c, -a),
            (c, -a),
            (c, -b),
            (b, -b),
            (b, -c),
            (a, -c),
            (a, c),
            (b, c),
            (b, b),
            (c, b),
            (c, a),
            (-c, a),
            (-c, b),
            (-b, b),
            (-b, c),
            (-a, c),
            (-a, -c),
            (-b, -c),
            (-b, -b),
            (-c, -b),
        ]
        draw.polygon([(cx + x, cy + y) for x, y in pts], fill=ink)
        h = r * 0.2
        draw.ellipse((cx - h, cy - h, cx + h, cy + h), fill=bg)
    elif symbol == "inti":  # sun: disc and eight rays
        d = r * 0.42
        draw.ellipse((cx - d, cy - d, cx + d, cy + d), fill=ink)
        for k in range(8):
            ang = k * math.pi / 4
            draw.line(
                (
                    cx + math.cos(ang) * r * 0.6,
                    cy + math.sin(ang) * r * 0.6,
                    cx + math.cos(ang) * r * 0.98,
                    cy + math.sin(ang) * r * 0.98,
                ),
                fill=ink,
                width=w,
            )
    elif symbol == "amaru":  # serpent: a zigzag with a head
        pts = [
            (cx - r * 0.95, cy + r * 0.5),
            (cx - r * 0.5, cy - r * 0.5),
            (cx, cy + r * 0.5),
            (cx + r * 0.5, cy - r * 0.5),
            (cx + r * 0.8, cy),
        ]
        draw.line(pts, fill=ink, width=w + 1, joint="curve")
        h = r * 0.22
        draw.ellipse((cx + r * 0.8 - h, cy - h, cx + r * 0.8 + h, cy + h), fill=ink)
    elif symbol == "kuntur":  # condor: spread wings and a head
        pts = [
            (cx - r, cy - r * 0.2),
            (cx - r * 0.35, cy - r * 0.55),
            (cx, cy - r * 0.05),
            (cx + r * 0.35, cy - r * 0.55),
            (cx + r, cy - r * 0.2),
            (cx + r * 0.2, cy + r * 0.35),
            (cx, cy + r * 0.85),
            (cx - r * 0.2, cy + r * 0.35),
        ]
        draw.polygon(pts, fill=ink)
        h = r * 0.2
        draw.ellipse((cx - h, cy - r * 0.6 - h, cx + h, cy - r * 0.6 + h), fill=ink)
    else:  # rombo: diamond with an inner diamond
        outer = [(cx, cy - r), (cx + r * 0.8, cy), (cx, cy + r), (cx - r * 0.8, cy)]
        draw.polygon(outer, outline=ink, width=w)
        q = 0.38
        inner = [(cx, cy - r * q), (cx + r * 0.8 * q, cy), (cx, cy + r * q), (cx - r * 0.8 * q, cy)]
        draw.polygon(inner, fill=ink)


PIP_CORNERS = ((0, 0), (1, 1), (0, 1), (1, 0))  # top left, bottom right, bottom left, top right


def _pips(
    draw: ImageDraw.ImageDraw,
    colour: str,
    box: tuple[float, float, float, float],
    ink,
    on,
    glyph: bool = True,
) -> None:
    """A patch colour's pips (:data:`PATCH_PIPS`) in the corners of ``box``, drawn on ``on``: one
    top left, two on a diagonal and four in every corner, as on a die, each far enough from the
    next to be counted on a phone.  Around a symbol (``glyph``) they keep to the corners it
    leaves free; on a plain square they are larger and further in."""
    x0, y0, x1, _ = box
    n, w = PATCH_PIPS[colour], x1 - x0
    r, inset = (w * 0.08, w * 0.1) if glyph else (w * 0.12, w * 0.25)
    for fx, fy in PIP_CORNERS[:n]:
        cx = x0 + inset + fx * (w - 2 * inset)
        cy = y0 + inset + fy * (w - 2 * inset)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ink)
    drew("pattern", f"{n} pips", on)


# A stack's height stands on its top patch, in a white badge at the right of the middle, between
# the corners' pips, its digits as tall as the board's other words on a phone (4.7 px or more;
# at 13 on a small board they stood 3 px).  The top patch's symbol moves to the left half to
# make room: whole, beside the badge, never under it.
STACK_SYMBOL = (0.1, 0.56)  # the symbol's box on a stack's top patch: its left and right, as shares
STACK_BADGE = 0.59  # where the badge starts, as a share of the patch's side


def _stack_size(cell: int) -> int:
    """The size of a stack's height on a board of ``cell`` pixels a cell."""
    return max(19, cell // 3)


@art_cache
def _patch_tile(colour: str, symbol: str, size: int, stacked: bool = False) -> Image.Image:
    """A square patch tile, drawn at 3x and scaled down for smooth edges; ``stacked``: the top
    of a stack, its symbol in the left half (:data:`STACK_SYMBOL`), the right kept for the
    height's badge."""
    big = size * 3
    img = Image.new("RGB", (big, big), PATCH_RGB[colour])
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, big - 1, big - 1), outline=(60, 40, 30), width=3)
    # a woven border
    d.rectangle((6, 6, big - 7, big - 7), outline=tuple(max(0, v - 40) for v in PATCH_RGB[colour]), width=3)
    if stacked:
        left, right = (big * share for share in STACK_SYMBOL)
        top = (big - (right - left)) / 2
        box = (left, top, right, top + right - left)
    else:
        m = big * 0.2
        box = (m, m, big - m, big - m)
    _draw_glyph(d, symbol, box, GLYPH_INK[colour], PATCH_RGB[colour])
    _pips(d, colour, (6, 6, big - 7, big - 7), GLYPH_INK[colour], PATCH_RGB[colour])
    return img.resize((size, size), Image.Resampling.BOX)


@art_cache
def _glyph_icon(symbol: str, size: int, ink: tuple[int, int, int] = INK) -> Image.Image:
    big = size * 3
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    _draw_glyph(ImageDraw.Draw(img), symbol, (big * 0.08, big * 0.08, big * 0.92, big * 0.92), ink)
    return img.resize((size, size), Image.Resampling.BOX)


# --------------------------------------------------------------------------- pieces


def _paste_patch(img: Image.Image, patch: str, x: int, y: int, size: int, stacked: bool = False) -> None:
    colour, symbol = patch.split("/")
    img.paste(_patch_tile(colour, symbol, size, stacked), (x, y))


def _stack_badge(draw: ImageDraw.ImageDraw, height: int, x: int, y: int, cell: int) -> None:
    """A stack's ``height`` in a white badge on its top patch, the cell at ``x``, ``y``: at the
    middle of the right edge, clear of the corners' pips and of the symbol (a number too wide
    for the right of the patch grows to its left)."""
    size = _stack_size(cell)
    text = str(height)
    cap = cap_height(font(size, True))  # a digit stands as tall as a capital
    right = x + cell - 4
    left = min(x + round(cell * STACK_BADGE), right - int(text_width(text, size, True)) - 4)
    mid = y + cell // 2
    top = mid - (cap + 1) // 2
    draw.rounded_rectangle((left, top - 4, right, top + cap + 4), radius=4, fill=(255, 255, 255), outline=INK)
    label(draw, ((left + right + 1) / 2, top + cap), text, size, True, INK, "ms")


CARD_H = 250  # a card whose id and points share one line of its header
# A card's header (its id and its points) at 20, no less than 19: 4.7 px tall or more on a phone,
# as the other words of the board.  On a card too narrow for both on one line (eleven in the
# market), the points go on a second line and the card grows by it.
CARD_HEAD, CARD_HEAD_MIN = 20, 19
CARD_HEAD_LINE = 24  # a line of the header: the size with its leading
CARD_HEAD_GAP = 8  # between the id and the points on one line


def _points_text(vp: int) -> str:
    return tr("{points}VP", points=vp)


@art_cache  # by width and language
def _head_lines(card_w: int) -> int:
    """The lines of a market card's header ``card_w`` wide, in the board's language: one when the
    widest id (at :data:`CARD_HEAD`) and the widest points (at :data:`CARD_HEAD_MIN`) fit side by
    side, else two (the same for every card of the market)."""
    ids = max(text_width(c[0], CARD_HEAD, True) for c in D.CARDS)
    points = max(text_width(_points_text(c[4]), CARD_HEAD_MIN, True) for c in D.CARDS)
    return 1 if ids + CARD_HEAD_GAP + points <= card_w - 10 else 2


def _card_height(card_w: int) -> int:
    return CARD_H + (_head_lines(card_w) - 1) * CARD_HEAD_LINE


def _draw_card(img, draw, card, x: int, y: int, w: int, h: int, lit: bool) -> None:
    draw.rounded_rectangle(
        (x, y, x + w, y + h), radius=8, fill=(255, 252, 244), outline=(120, 100, 80), width=2
    )
    lines = _head_lines(w)
    band = 6 + lines * CARD_HEAD_LINE
    draw.rounded_rectangle((x, y, x + w, y + band), radius=8, fill=LEVEL_RGB[card.level])
    draw.rectangle((x, y + band - 10, x + w, y + band), fill=LEVEL_RGB[card.level])
    ink = ink_on(LEVEL_RGB[card.level])
    points = _points_text(card.vp)
    if lines == 1:
        idw = int(text_width(card.id, CARD_HEAD, True)) + 1
        draw_text(draw, (x + 5, y + 3), card.id, idw, CARD_HEAD, min_size=CARD_HEAD_MIN, bold=True, fill=ink)
        room = w - 10 - idw - CARD_HEAD_GAP
        draw_text(
            draw,
            (x + w - 5 - room, y + 3),
            points,
            room,
            CARD_HEAD,
            min_size=CARD_HEAD_MIN,
            bold=True,
            fill=ink,
            align="right",
        )
    else:
        for k, text in enumerate((card.id, points)):
            draw_text(
                draw,
                (x + 5, y + 3 + k * CARD_HEAD_LINE),
                text,
                w - 10,
                CARD_HEAD,
                min_size=CARD_HEAD_MIN,
                bold=True,
                fill=ink,
                align="center",
            )
    y += band - 30  # the rest of the card, under its header
    h -= band - 30
    rows = card.shape
    nr, nc = len(rows), max(len(r) for r in rows)
    cell = min(20, 80 // max(nr, nc))
    gx = x + (w - cell * nc) // 2
    gy = y + 36 + (80 - cell * nr) // 2
    rgb = PATCH_RGB[card.colour]
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            box = (gx + c * cell, gy + r * cell, gx + (c + 1) * cell - 1, gy + (r + 1) * cell - 1)
            if ch == "#":
                draw.rectangle(box, fill=rgb, outline=(50, 35, 25))
            else:
                draw.rectangle(box, outline=(215, 205, 190))
    # the two ways to claim: the colour or the symbol
    # ("or" between them at the header's least size, clear of both on a card of eleven too)
    by = y + 120
    left, right = (10, 12) if w >= 110 else (5, 5)  # the margins of the square and of the symbol
    square = (x + left, by, x + left + 30, by + 30)
    draw.rectangle(square, fill=rgb, outline=(50, 35, 25))
    _pips(draw, card.colour, square, GLYPH_INK[card.colour], rgb, glyph=False)
    label(draw, (x + w // 2, by + 15), tr("or"), CARD_HEAD_MIN, False, MUTED, "mm")
    icon = _glyph_icon(card.symbol, 30)
    img.paste(icon, (x + w - right - 30, by), icon)
    # the name and the flag with the typology keep the header's least size, each on up to two
    # lines, a word wider than the card narrowed ("ceremonial", "Colombia ·")
    narrow_lines(draw, (x + 4, y + 153), card.name, w - 8, CARD_HEAD_MIN, bold=True, align="center")
    origin = tr("{flag} · {typology}", flag=tr(card.flag), typology=tr(card.typology))
    origin = origin.replace(" · ", "\u00a0· ")  # a line ends with the dot, never starts with it
    narrow_lines(draw, (x + 4, y + h - 48), origin, w - 8, CARD_HEAD_MIN, fill=MUTED, align="center")
    if lit:
        mark_box(draw, (x - 5, y - 5, x + w + 5, y + h + 5), radius=10)


def _draw_board(img, draw, view, p, x: int, y: int, cell: int) -> None:
    bw = cell * 5
    draw.rectangle((x - 6, y - 6, x + bw + 6, y + bw + 6), fill=BOARD_BG.get(view.side, BOARD_BG["A"]))
    lit = {c for s, c in view.highlight if s == p.seat}
    pending = set(view.pending["cells"]) if view.pending and view.turn == p.seat else set()
    stoppers = set(p.stoppers)
    label_size = max(19, cell // 3)  # 4.7 px tall or more on a phone (at 16, 4 px)
    for r in range(5):
        label(draw, (x - 10, y + r * cell + cell // 2), ROWS[r], label_size, True, INK, "rm")
    for c in range(5):
        label(draw, (x + c * cell + cell // 2, y - 9), str(c + 1), label_size, True, INK, "md")
    for i in range(25):
        r, c = divmod(i, 5)
        cx, cy = x + c * cell, y + r * cell
        patch = p.tops[i]
        if patch is None:
            draw.rectangle((cx + 1, cy + 1, cx + cell - 2, cy + cell - 2), fill=EMPTY_CELL)
            if i == 12:
                draw.ellipse(
                    (cx + cell // 2 - 4, cy + cell // 2 - 4, cx + cell // 2 + 4, cy + cell // 2 + 4),
                    fill=(200, 190, 170),
                )
        else:
            _paste_patch(img, patch, cx + 1, cy + 1, cell - 2, stacked=p.heights[i] > 1)
        if patch is not None and p.heights[i] > 1:
            _stack_badge(draw, p.heights[i], cx, cy, cell)
        if i in stoppers:
            q = cell // 9
            draw.rectangle((cx + q, cy + q, cx + cell - q - 1, cy + cell - q - 1), fill=(35, 35, 35))
            draw.line(
                (cx + 2 * q, cy + 2 * q, cx + cell - 2 * q, cy + cell - 2 * q), fill=(230, 230, 230), width=3
            )
            draw.line(
                (cx + cell - 2 * q, cy + 2 * q, cx + 2 * q, cy + cell - 2 * q), fill=(230, 230, 230), width=3
            )
        if i in pending:
            draw.rectangle((cx + 1, cy + 1, cx + cell - 2, cy + cell - 2), outline=(255, 255, 255), width=3)
            draw.rectangle((cx + 4, cy + 4, cx + cell - 5, cy + cell - 5), outline=INK, width=1)
    for i in lit:
        r, c = divmod(i, 5)
        cx, cy = x + c * cell, y + r * cell
        mark_box(draw, (cx - 3, cy - 3, cx + cell + 2, cy + cell + 2), width=max(5, cell // 9), radius=4)


def _order_text(oid: str) -> str:
    for o in D.ORDERS:
        if o[0] == oid:
            return tr(
                "{order}: {flag} {flag_points} / {typology} {typology_points}",
                order=o[0],
                flag=tr(o[1]),
                flag_points=o[2],
                typology=tr(o[3]),
                typology_points=o[4],
            )
    return oid


def _details(view, p) -> list[tuple[str, bool]]:
    sc = p.score
    lines = [(tr("Cards: {points} VP", points=sc["market"]), False)]
    if view.mode != "beginner":
        lines.append((tr("Shells: {shells} (+{points} VP)", shells=p.shells, points=sc["shells"]), False))
        if view.players > 1:
            order = (
                tr("Order: {points} VP", points=sc["orders"]) if sc["orders"] != "?" else tr("Order: secret")
            )
            lines.append((order, False))
    empty = tr("Empty cells: -{points}", points=sc["penalty"]) if sc["penalty"] else tr("Empty cells: 0")
    lines.append((empty, False))
    if sc["tile"]:
        lines.append((tr("Complete tile: +{points}", points=sc["tile"]), False))
    if view.stoppers_variant:
        lines.append((tr("Stoppers left: {n}", n=p.stoppers_left), False))
    if p.claimed:
        lines.append((tr("Claimed: {cards}", cards=" ".join(p.claimed)), True))
    return lines


def _panel_size(view, wide: bool) -> tuple[int, int]:
    """(board cell, panel height) for a full-width or a half-width panel."""
    cell = 64 if wide else 50
    extra = 24 * len(view.dealt_orders) + 30 if view.dealt_orders else 0
    return cell, max(56 + 30 + cell * 5 + 24, 56 + 26 * 8 + extra)


SWATCH = 32  # the room a panel's title keeps after the words for the square of the guanga's colour


def _draw_player(img, draw, view, p, names, x: int, y: int, w: int, h: int, cell: int) -> None:
    active = to_play(not view.finished and p.seat in view.to_move)
    draw.rounded_rectangle(
        (x, y, x + w, y + h), radius=10, fill=PANEL, outline=INK if active else RULE, width=4 if active else 2
    )
    draw.rounded_rectangle(
        (x + 2, y + 2, x + w - 2, y + 46), radius=9, fill=ACTIVE if active else (244, 241, 234)
    )
    seat_mark(draw, x + 26, y + 24, 17, p.seat)
    total = p.score["total"]
    if view.finished or p.score["orders"] != "?":
        points_text = tr("{points} VP", points=total)
    else:
        points_text = tr("{points} VP + order", points=total)
    lw = int(draw.textlength(points_text, font=font(26, True)))
    # the guanga's colour beside the name, whose ink is the seat's (not the weave's) colour: a
    # square of the patches' own colour (outlined, as a patch) after the word shows it as the weave's
    weave = "  " + tr("colour {colour}", colour=told(W.COLOURS[p.colour]))
    room = w - 80 - lw - SWATCH - int(text_width(weave, 20, True))
    name = headed_name(seat_name(names, p.seat), room, 20, you=view.seat == p.seat)
    spans = [(name, seat_colour(p.seat)), (weave, MUTED)]
    width = w - 80 - lw - SWATCH
    draw_text(draw, (x + 52, y + 8), spans, width, 28, min_size=20, bold=True)
    lay = fit(spans, width, int(28 * LEADING + 0.5), 28, 20, True)
    side = int(lay.size * 0.7)
    sx, sy = x + 52 + lay.widths[0] + int(lay.size * 0.35), y + 8 + int(lay.size * 0.3)
    draw.rounded_rectangle(
        (sx, sy, sx + side, sy + side), radius=3, fill=PATCH_RGB[p.colour], outline=INK, width=2
    )
    label(draw, (x + w - 12, y + 9), points_text, 26, True, INK, "ra")
    bx, by = x + 34, y + 56 + 30
    _draw_board(img, draw, view, p, bx, by, cell)
    tx = bx + cell * 5 + 20
    tw = x + w - tx - 10
    ty = y + 60
    if active:
        ty += draw_text(
            draw,
            (tx, ty),
            tr(phase_text(view), name="▶"),  # ▶ for the name
            tw,
            21,
            min_size=16,
            bold=True,
            max_lines=2,
        )
        ty += 4
    for line, wrap in _details(view, p):
        ty += draw_text(
            draw, (tx, ty), line, tw, 21, min_size=15, max_lines=3 if wrap else 1, fill=MUTED if wrap else INK
        )
        ty += 4
    brown = (120, 60, 20)
    if view.seat == p.seat and view.dealt_orders:
        ty += 6
        ty += draw_text(draw, (tx, ty), tr("Keep one order:"), tw, 21, bold=True, fill=brown)
        for oid in view.dealt_orders:
            keep = tr("keep {order}", order=_order_text(oid))
            ty += draw_text(draw, (tx, ty), keep, tw, 19, min_size=13, max_lines=2, fill=brown)
    elif p.order is not None and p.order != "?":
        ty += 6
        ty += draw_text(
            draw, (tx, ty), tr("Order:") if view.finished else tr("Order (secret):"), tw, 21, bold=True
        )
        draw_text(draw, (tx, ty), _order_text(p.order), tw, 19, min_size=13, max_lines=2, fill=brown)


def _draw_markers(img, draw, view, x: int, y: int, w: int) -> None:
    workshop = tr("Workshop: {n} face up", n=view.visible_markers)
    draw_text(draw, (x, y), workshop, w // 2, 24, min_size=18, bold=True)
    if view.end_at is not None and not view.end_triggered and not view.finished:  # then: _end_note
        draw_text(
            draw,
            (x + w // 2, y + 2),
            tr("game ends at {n}", n=view.end_at),
            w // 2,
            20,
            min_size=14,
            fill=MUTED,
            align="right",
        )
    yy, xx = y + 34, x
    names = [m for m in (*D.COLOURS, *D.SYMBOLS, "grey") if view.markers_total.get(m, 0)]
    step = min(54, w // max(1, len(names)))
    box = step - 8
    for name in names:
        total = view.markers_total.get(name, 0)
        up = view.markers.get(name, 0)
        rect = (xx, yy, xx + box, yy + box)
        if name in PATCH_RGB:
            draw.rounded_rectangle(
                rect, radius=6, fill=PATCH_RGB[name] if up else (215, 215, 215), outline=INK
            )
            if up:
                _pips(draw, name, rect, GLYPH_INK[name], PATCH_RGB[name], glyph=False)
            else:
                _pips(draw, name, rect, MUTED, (215, 215, 215), glyph=False)
        elif name == "grey":
            draw.rounded_rectangle(rect, radius=6, fill=GREY if up else (225, 225, 225), outline=INK)
        else:
            draw.rounded_rectangle(
                rect, radius=6, fill=(255, 250, 235) if up else (215, 215, 215), outline=INK
            )
            icon = _glyph_icon(name, box - 8, INK if up else (160, 160, 160))
            img.paste(icon, (xx + 4, yy + 4), icon)
        label(draw, (xx + box / 2, yy + box + 4), f"{up}/{total}", 19, True, INK if up else MUTED, "ma")
        xx += step


END_NOTE, END_NOTE_MIN = 20, 19  # 4.7 px or more on a phone (it shrank to 15 beside the workshop)


def _end_note(draw, view, y: int) -> int:
    """Once the end is triggered, until the game is over, say so in red at the right of the line
    under the workshop (the symbols' legend, or the note on the first patch, keep the rest of
    it); returns the width taken, with the gap before it (0 when there is no note)."""
    if view.end_at is None or not view.end_triggered or view.finished:  # over: the round is done
        return 0
    note = tr("END TRIGGERED: finishing the round")
    w = min(int(text_width(note, END_NOTE, True)) + 1, (WIDTH - 2 * PAD) // 2)
    draw_text(
        draw,
        (WIDTH - PAD - w, y + 2),
        note,
        w,
        END_NOTE,
        min_size=END_NOTE_MIN,
        bold=True,
        fill=BAD,
        align="right",
    )
    return w + 16


def _header(view, names, last_action) -> Header:
    mode = tr(MODE_NAMES[view.mode]) if view.mode in MODE_NAMES else view.mode
    if view.stoppers_variant:
        info = tr("{mode} · side {side} · stoppers", mode=mode, side=view.side)
    else:
        info = tr("{mode} · side {side}", mode=mode, side=view.side)
    title = tr("Guanga: Tejidos Andinos · solo") if view.players == 1 else "Guanga: Tejidos Andinos"
    if view.finished:
        scores: tuple[int, ...] = view.final_scores or ()
        if view.players == 1:
            rank = tr(view.solo_rank) if view.solo_rank else ""
            status: list[Span] = [
                (tr("Game over: {points} VP, rank {rank}", points=scores[0], rank=rank), INK)
            ]
        else:
            status = winners_status(names, view.ranking[0])
        return Header(title, info, status, None, last_action)
    if view.phase == "order":
        return Header(title, info, [(tr("Everyone keeps one of two secret orders"), INK)], None, last_action)
    if view.phase == "return" and view.pending:
        cells = " ".join(f"{ROWS[c // 5]}{c % 5 + 1}" for c in view.pending["returnable"])
        status = turn_status(names, view.turn, RETURN_TEXT, cells=cells)
    else:
        status = turn_status(names, view.turn, phase_text(view))
    return Header(title, info, status, view.turn, last_action)


def _seat_lines(view, names) -> list[SeatLine]:
    place = places(view.ranking) if view.finished else {}
    out = []
    for p in view.guangas:
        # a stopper's cell counts as filled, as in the penalty (the panel's "Empty cells")
        empty = sum(1 for i, t in enumerate(p.tops) if t is None and i not in p.stoppers)
        hidden = not view.finished and p.score["orders"] == "?"
        parts = [ntr("{n} card", "{n} cards", len(p.claimed))]
        if view.mode != "beginner":
            parts.append(ntr("{n} shell", "{n} shells", p.shells))
        parts.append(ntr("{n} empty", "{n} empty", empty))
        if hidden:
            parts.append(tr("+ secret order"))
        out.append(
            SeatLine(
                p.seat,
                seat_name(names, p.seat),
                tr("{points} VP", points=p.score["total"]),
                " · ".join(parts),
                active=to_play(not view.finished and p.seat in view.to_move),
                you=view.seat == p.seat,
                place=place.get(p.seat),
            )
        )
    return out


def _board_picture(view, names: Sequence[str] | None, last_action: str | None) -> Image.Image:
    n = view.players
    header = _header(view, names, last_action)
    seats = _seat_lines(view, names)
    top_h = ranking_height(seats) if view.finished and n > 1 else strip_height(seats)
    k = max(1, len(view.market))
    gap = 8
    card_w = min(124, (WIDTH - 2 * PAD - gap * (k - 1)) // k)
    card_h = _card_height(card_w)
    market_h = 44 + card_h + 16
    basket_h = 40 + 62 + 20 + 34 + 12
    legend_h = 40
    # panels: the own guanga first and wide in a private view; two columns otherwise
    order = [p for p in view.guangas if p.seat == view.seat] + [
        p for p in view.guangas if p.seat != view.seat
    ]
    rows: list[list] = []
    for p in order:
        wide = view.seat == p.seat and n > 1
        if wide or not rows or len(rows[-1]) == 2 or rows[-1][0][1]:
            rows.append([(p, wide)])
        else:
            rows[-1].append((p, wide))
    row_h = [max(_panel_size(view, wide)[1] for _, wide in row) + 10 for row in rows]
    height = header_height(header) + top_h + market_h + basket_h + legend_h + sum(row_h) + PAD
    img = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(img)

    y = draw_header(draw, header)
    y += draw_ranking(draw, seats, y) if view.finished and n > 1 else draw_strip(draw, seats, y)

    # market
    y += 14
    decks = "  ".join(f"{tr(D.LEVEL_NAMES[k])} {v}" for k, v in view.decks.items())
    heading = tr("Market")
    label(draw, (PAD, y), heading, 26, True, INK)
    after = max(120, int(draw.textlength(heading, font=font(26, True))) + 14)  # a longer word moves it on
    draw_text(
        draw,
        (PAD + after, y + 4),
        tr("cards left in the decks: {decks}", decks=decks),
        WIDTH - 2 * PAD - after,
        21,
        min_size=15,
        fill=MUTED,
    )
    y += 40
    x = PAD
    for slot, card in enumerate(view.market):
        lit = slot == view.lit_slot  # where the turn's claim took its card from
        if card is None:
            draw.rounded_rectangle((x, y, x + card_w, y + card_h), radius=8, outline=RULE, width=2)
            label(draw, (x + card_w // 2, y + card_h // 2), tr("empty"), 19, False, MUTED, "mm")
            if lit:
                mark_box(draw, (x - 5, y - 5, x + card_w + 5, y + card_h + 5), radius=10)
        else:
            _draw_card(img, draw, card, x, y, card_w, card_h, lit)
        x += card_w + gap
    y += card_h + 16

    # basket, workshop, symbols
    heading = tr("Basket")
    label(draw, (PAD, y), heading, 26, True, INK)
    after = max(110, int(draw.textlength(heading, font=font(26, True))) + 14)
    pile = tr("pile {pile} · bag {bag}", pile=view.pile, bag=view.bag)
    draw_text(draw, (PAD + after, y + 4), pile, 370 - after, 21, min_size=15, fill=MUTED)
    size = 56
    for i, patch in enumerate(view.basket):
        bx = PAD + i * (size + 8)
        by = y + 66
        label(draw, (bx + size // 2, y + 38), str(i + 1), 22, True, INK, "ma")
        if patch is None:
            draw.rectangle((bx, by, bx + size, by + size), outline=(190, 180, 165), width=2)
        else:
            _paste_patch(img, patch, bx, by, size)
    mx = PAD + 8 * (size + 8) + 16
    _draw_markers(img, draw, view, mx, y, WIDTH - PAD - mx)
    y += 40 + 62 + 20
    room = WIDTH - 2 * PAD - _end_note(draw, view, y)
    if view.first_patch:
        note = tr(
            "1st patch taken: {patch}; the 2nd must differ in colour and symbol",
            patch=told(W.word(W.PATCHES, view.first_patch.replace("/", " "))),  # "kuntur verde"
        )
        draw_text(draw, (PAD, y), note, room, 21, min_size=15, fill=MUTED)
    else:
        lx = PAD
        for sym in D.SYMBOLS:
            icon = _glyph_icon(sym, 26)
            img.paste(icon, (lx, y), icon)
            label(draw, (lx + 32, y + 1), sym, 21, False, MUTED)
            lx += 48 + int(draw.textlength(sym, font=font(21))) + 16
    y += 34 + 12
    draw_legend(
        draw, PAD, y, WIDTH - 2 * PAD, tr("changed in the last turn (cells, the claimed card's slot)")
    )
    y += legend_h

    half = (WIDTH - 2 * PAD - 10) // 2
    for row, rh in zip(rows, row_h, strict=True):
        for k, (p, wide) in enumerate(row):
            cell, _ = _panel_size(view, wide)
            w = WIDTH - 2 * PAD if wide else half
            _draw_player(img, draw, view, p, names, PAD + k * (half + 10), y, w, rh - 10, cell)
        if n == 1:
            _draw_solo_ranks(draw, PAD + half + 30, y, half - 20)
        y += rh
    return img


def _draw_solo_ranks(draw, x: int, y: int, w: int) -> None:
    label(draw, (x, y), tr("Solo ranks"), 26, True, INK)
    rows = [("0-39", D.SOLO_LOWEST_RANK)]
    bounds = sorted(D.SOLO_RANKS)
    for i, (low, name) in enumerate(bounds):
        high = bounds[i + 1][0] - 1 if i + 1 < len(bounds) else None
        rows.append((f"{low}-{high}" if high else f"{low}+", name))
    for k, (pts, name) in enumerate(rows):
        label(draw, (x, y + 40 + k * 32), pts, 21, True, INK)
        draw_text(draw, (x + 118, y + 40 + k * 32), tr(name), w - 118, 21, min_size=14)


render, draw_board = board_entry_points(_board_picture, "guanga")

OPTIONS_SHOWN = frozenset({"mode", "stoppers"})
"""The options every board of this game states in its header already (the mode and the stoppers
variant): the table leaves them out of the header's line of options."""
