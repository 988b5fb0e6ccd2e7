"""Guacamole board renderer: piles, every player's zone and dishes, and the seat's hand.

Each card shows its number, its type (colour, letter and name) and its ability word.  Every
visible card carries the notation that names it in moves (``p2z5T``, ``p2d1``, ``x1``), and the
seat view adds the hand with each card's code (``prep 5T``).  The places changed in the last
turn are outlined in magenta, and the last card's path is an arrow (pile to hand, zone to
pile, a swap).  A player's panel is one row of stacks: the preparation zone, then each dish
(every lower card as a strip, the top card whole: a dish's cards are all public; a zone's
strips carry their places, p2z5T, as every zone card is visible to a swap or a take).  A place
changed in the last turn outlines its whole stack, so the outline covers no strip.  With 4-6
players the panels sit in two
columns; in a seat's own picture its panel spans the width, first.  Cards are drawn once per
size and pasted.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from engines.guacamole.data import SHORT_WORDS, TYPE_WORDS, dish_kind, dish_points, is_guacamole
from engines.guacamole.moves import Discard, Draw, Free, Swap, Take, parse_move
from engines.guacamole.rules import MAX_PLAYERS, DishView
from renderers.colours import (
    ACTIVE,
    BACKGROUND,
    BAD,
    GOOD,
    INK,
    MARK,
    MUTED,
    PANEL,
    RULE,
    Key,
    ink_on,
    seat_colour,
    seat_keys,
)
from renderers.entrypoints import board_entry_points
from renderers.layout import (
    PAD,
    WIDTH,
    Header,
    SeatLine,
    board_ended,
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
from renderers.shapes import arrow_head, draw_legend, mark_box, seat_mark
from renderers.translation import N_, nsay, ntr, say, told, tr
from renderers.typeset import art_cache, draw_text, label, narrow_text, text_width

BIG = (110, 150)
SMALL = (92, 124)
# Each type's card colour, and its letters' colour (the board's ink or white, whichever stands
# out more from the card).
TYPE_COLOURS = {
    t: (fill, ink_on(fill))
    for t, fill in {
        "P": (46, 125, 50),
        "L": (196, 206, 40),
        "O": (123, 75, 160),
        "T": (200, 45, 45),
        "A": (236, 118, 18),
    }.items()
}
PIECE_COLOURS = tuple(fill for fill, _ in TYPE_COLOURS.values())
# What the legend tells apart by colour, and the second cue of each (the type's letter).
COLOUR_KEYS = {
    "seats": seat_keys(MAX_PLAYERS),
    "card types": {t: Key(fill, ("letter", t), ink) for t, (fill, ink) in TYPE_COLOURS.items()},
}
POWER = {"P": N_("add 1-3"), "L": N_("steal"), "O": N_("draw 3"), "T": N_("swap"), "A": N_("take")}
LEGEND = {
    "P": N_("add up to 3 cards to a valid dish"),
    "L": N_("random card from a player's hand"),
    "O": N_("draw 3, then discard 1"),
    "T": N_("swap your card with a visible one"),
    "A": N_("take a visible card into hand"),
}
SHAFT_SHOWN = 0.1  # the least share of the last card's arrow that must show for its shaft to be drawn
LEGEND_ROW = 32  # the legend's rows beside the piles: the five types, then the star
STAR = "★"  # under a dish that holds all five types
GUACAMOLE = N_("guacamole")  # a dish holding all five types, as the legend names it
GUACAMOLE_NOTE = N_("all five types in one dish: +3 points, valid or not")
KIND_WORD = {"number": N_("same no."), "type": N_("same type"), "straight": N_("run")}
DISH_W = 112
# A card lying under a dish's (or the zone's) top card shows a band this tall, its code in
# STRIP_SIZE bold, the size of the zone's top card's place too (p2z5T): on a phone (the picture
# shown 400 px wide, a third of its size) their letters are 6 px tall.
STRIP = 24
STRIP_SIZE = 24
ZONE_STRIP = STRIP + 6  # a zone card's strip: taller, for its place's p (p2z5T) hangs below the line
# The words on a card (its ability, "add 1-3"; its name, "Tomathor") and under a dish ("✓ same
# type", "3 cards") are set at WORD_SIZE, narrowed where they would not fit: on a phone their
# capitals are 4.6 px.
WORD_SIZE = 19
STACK_TOP = 30  # a stack's first card under its label, clear of the outline a changed stack gets


@art_cache
def card_image(code: str, size: tuple[int, int]) -> Image.Image:
    """One card face, drawn once per code and size."""
    w, h = size
    img = Image.new("RGBA", size, (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    fill, ink = TYPE_COLOURS[code[1]]
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=10, fill=fill, outline=(30, 30, 30), width=2)
    big = w >= BIG[0]
    label(d, (8, 0), code[0], 50 if big else 42, True, ink)
    label(d, (w - 8, 6), code[1], 28 if big else 24, True, ink, "ra")
    band_y = int(h * 0.5)
    band_h = 28 if big else 24
    d.rectangle((3, band_y, w - 4, band_y + band_h), fill=(255, 255, 255, 240))
    word = WORD_SIZE + 1 if big else WORD_SIZE
    narrow_text(
        d, (5, band_y + 1), tr(POWER[code[1]]), w - 10, word, min_size=word, bold=True, align="center"
    )
    name = told(SHORT_WORDS[code[1]])
    narrow_text(
        d,
        (4, h - 28),
        name,
        w - 8,
        WORD_SIZE + 1 if big else WORD_SIZE,
        min_size=WORD_SIZE,
        bold=True,
        fill=ink,
        align="center",
    )
    return img


@art_cache
def card_back(size: tuple[int, int]) -> Image.Image:
    w, h = size
    img = Image.new("RGBA", size, (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=10, fill=(90, 70, 50), outline=(30, 30, 30), width=2)
    d.rounded_rectangle((8, 8, w - 9, h - 9), radius=8, outline=(220, 190, 120), width=3)
    label(d, (w / 2, h / 2), "G", 48, True, (220, 190, 120), "mm")
    return img


@art_cache
def _strip(code: str, w: int, place: str = "") -> Image.Image:
    """A card lying under a dish's top card: its colour and its code; under the zone's front
    card, its place (``p2z5T``), which a swap or a take may name as it names the front card's."""
    band = ZONE_STRIP if place else STRIP
    img = Image.new("RGBA", (w, band + 2), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    fill, ink = TYPE_COLOURS[code[1]]
    d.rounded_rectangle((0, 0, w - 1, band + 10), radius=8, fill=fill, outline=(30, 30, 30), width=2)
    if place:  # set on a baseline so that the p's tail ends before the next strip covers it
        label(d, (8, band - 6), place, STRIP_SIZE, True, ink, "ls")
    else:
        label(d, (8, STRIP / 2 + 1), code, STRIP_SIZE, True, ink, "lm")
    return img


def _last_path(v) -> list[tuple[str, str]]:
    """Where the last move sent a card, as pairs of places (``pNh`` is player N's hand)."""
    if v.turn_moves:
        text, mover = v.turn_moves[-1], v.turn
    elif v.prev_turn and v.prev_seat is not None:
        text, mover = v.prev_turn[-1], v.prev_seat
    else:
        return []
    try:
        move = parse_move(text)
    except ValueError:
        return []
    hand = f"p{mover + 1}h"
    if isinstance(move, Draw) and move.source != "deck":
        return [(move.source, hand)]
    if isinstance(move, Take):
        return [(move.target, hand)]
    if isinstance(move, (Free, Discard)):
        return [(hand, f"x{move.pile}")]
    if isinstance(move, Swap):
        ends = [m for m in v.marks]
        if len(ends) == 2:
            return [(ends[0], ends[1]), (ends[1], ends[0])]
        if len(ends) == 1:
            return [(hand, ends[0]), (ends[0], hand)]
    return []


def _seat_lines(v, names) -> list[SeatLine]:
    place = places(v.ranking) if v.over else {}
    out = []
    for p in range(v.players):
        nd = sum(1 for dv in v.dishes[p] if dv.cards)
        guac = sum(1 for dv in v.dishes[p] if dv.guacamole)
        detail = ntr(
            "hand {hand} · zone {zone}/4 · {n} dish",
            "hand {hand} · zone {zone}/4 · {n} dishes",
            nd,
            hand=v.hand_sizes[p],
            zone=len(v.prep[p]),
        )
        if guac:
            detail = tr("{counts} · {guacamole} guacamole", counts=detail, guacamole=guac)
        out.append(
            SeatLine(
                p,
                seat_name(names, p),
                str(v.scores[p]),
                detail,
                active=to_play(not v.over and v.turn == p),
                you=v.seat == p,
                place=place.get(p),
            )
        )
    return out


def _header(v, names, last_action) -> Header:
    if v.end_triggered and not v.over:
        info = tr("turn {number} · last round", number=v.turn_number)
    else:
        info = tr("turn {number}", number=v.turn_number)
    if v.over:
        return Header("Guacamole", tr("final scores"), winners_status(names, v.winners), None, last_action)
    return Header("Guacamole", info, turn_status(names, v.turn, N_("{name} to play")), v.turn, last_action)


def _panel_order(v) -> list[tuple[int, bool]]:
    """(seat, full width) in drawing order: the own seat first and wide in a private view."""
    n = v.players
    two = n >= 4
    if v.seat is None:
        return [(p, not two) for p in range(n)]
    return [(v.seat, True)] + [(p, not two) for p in range(n) if p != v.seat]


def _stack_height(cards: int, size: tuple[int, int] = SMALL, strip: int = STRIP) -> int:
    """A dish or the zone (its strips ``ZONE_STRIP`` tall): a label, a strip for each card under
    the top one, the top card, two lines of words."""
    return STACK_TOP + max(0, cards - 1) * strip + size[1] + 54


def _card_size(v, p: int, wide: bool) -> tuple[int, int]:
    """The own seat's cards are drawn larger in its private picture."""
    return BIG if wide and v.seat == p else SMALL


def _panel_height(zone, dishes, wide: bool, size=SMALL) -> int:
    """The zone is the first block of the row, the dishes follow, wrapping into more rows."""
    inner = WIDTH - 2 * PAD if wide else (WIDTH - 2 * PAD - 10) // 2
    per_row = (inner - 24) // (size[0] + DISH_W - SMALL[0])
    blocks = [_stack_height(len(zone), size, ZONE_STRIP)] + [
        _stack_height(len(d.cards), size) for d in dishes
    ]
    rows = [blocks[i : i + per_row] for i in range(0, len(blocks), per_row)]
    return 52 + sum(max(r) for r in rows) + 8


def _board_picture(view, names: Sequence[str] | None, last_action: str | None) -> Image.Image:
    v = view
    n = v.players
    header = _header(v, names, last_action)
    seats = _seat_lines(v, names)
    all_dishes = [list(v.dishes[p]) for p in range(n)]
    if v.building and v.turn is not None:
        b = tuple(v.building)
        kind = dish_kind(b)
        all_dishes[v.turn].append(DishView(b, kind, kind is not None, is_guacamole(b), dish_points(b)))

    # ---------------------------------------------------------------- measure
    head_h = header_height(header)
    top_h = ranking_height(seats) if v.over else strip_height(seats)
    stepping = not v.over and not board_ended()  # a board the table ended says no step to take
    step_h = 2 * 31 + 10 if stepping else 0
    piles_h = BIG[1] + 48
    legend_h = 40
    order = _panel_order(v)
    panel_rows: list[list[tuple[int, bool]]] = []
    for p, wide in order:
        if wide or not panel_rows or len(panel_rows[-1]) == 2 or panel_rows[-1][0][1]:
            panel_rows.append([(p, wide)])
        else:
            panel_rows[-1].append((p, wide))
    row_h = [
        max(_panel_height(v.prep[p], all_dishes[p], wide, _card_size(v, p, wide)) for p, wide in row) + 10
        for row in panel_rows
    ]
    hand = v.hand if v.seat is not None else None
    hand_cols = (WIDTH - 2 * PAD) // (BIG[0] + 8)
    hand_h = 0
    if hand is not None:
        hand_h = 56 + max(1, -(-len(hand) // hand_cols)) * (BIG[1] + 44) + 10
    height = head_h + top_h + step_h + piles_h + legend_h + sum(row_h) + hand_h + PAD

    img = Image.new("RGB", (WIDTH, height), BACKGROUND)
    d = ImageDraw.Draw(img)
    boxes: dict[str, tuple[int, int, int, int]] = {}
    stacks: dict[str, tuple[int, int, int, int]] = {}  # a zone's or dish's place: its whole stack
    covers: list[tuple[int, int, int, int]] = []  # what the last card's arrow passes under: cards, words

    def paste_card(code: str | None, x: int, y: int, size=SMALL, place: str | None = None) -> None:
        if code is None:
            d.rounded_rectangle((x, y, x + size[0] - 1, y + size[1] - 1), radius=10, outline=MUTED, width=2)
            label(d, (x + size[0] / 2, y + size[1] / 2), tr("empty"), WORD_SIZE, False, MUTED, "mm")
        else:
            face = card_image(code, size)
            img.paste(face, (x, y), face)
        if place:
            boxes.setdefault(place, (x, y, x + size[0], y + size[1]))

    # ---------------------------------------------------------------- header, scores
    y = draw_header(d, header)
    y += draw_ranking(d, seats, y) if v.over else draw_strip(d, seats, y)
    if stepping:
        y += 10
        draw_text(
            d,
            (PAD, y),
            say("Now: {step}", MUTED, step=[(told(v.step_said) or v.step, INK)]),
            WIDTH - 2 * PAD,
            26,
            min_size=20,
            max_lines=2,
            height=62,
        )
        y += step_h - 10

    # ---------------------------------------------------------------- piles and legend
    y += 12
    for k, key in enumerate(("deck", "x1", "x2")):
        x = PAD + k * (BIG[0] + 22)
        if key == "deck":
            caption = tr("deck · {count}", count=v.deck_size)
        else:
            caption = tr("pile {pile} · {count}", pile=key, count=v.discard_sizes[k - 1])
        draw_text(d, (x, y), caption, BIG[0] + 20, 22, min_size=16, bold=True)
        covers.append((x, y, x + BIG[0] + 20, y + 30 + BIG[1]))
        if key == "deck":
            if v.deck_size:
                back = card_back(BIG)
                img.paste(back, (x, y + 30), back)
            else:
                paste_card(None, x, y + 30, BIG)
            boxes["deck"] = (x, y + 30, x + BIG[0], y + 30 + BIG[1])
        else:
            paste_card(v.discard_tops[k - 1], x, y + 30, BIG, place=key)
            boxes.setdefault(key, (x, y + 30, x + BIG[0], y + 30 + BIG[1]))
    lx = PAD + 3 * (BIG[0] + 22) + 14
    # the five types, then what the star under a dish means; each row's box and words are
    # covers, so the last card's arrow (a pile to a hand below) passes under them, not across
    rows = [(t, TYPE_COLOURS[t], told(TYPE_WORDS[t]), tr(LEGEND[t])) for t in "PLOTA"]
    rows.append((STAR, (PANEL, INK), tr(GUACAMOLE), tr(GUACAMOLE_NOTE)))
    room = WIDTH - PAD - lx - 44
    for i, (mark, (fill, ink), name, power) in enumerate(rows):
        ly = y + 2 + i * LEGEND_ROW
        d.rounded_rectangle((lx, ly, lx + 34, ly + 28), radius=6, fill=fill, outline=(30, 30, 30))
        label(d, (lx + 17, ly + 14), mark, 20, True, ink, "mm")
        line = say("{name}: {power}", INK, name=[(name, INK)], power=[(power, MUTED)])
        draw_text(d, (lx + 44, ly), line, room, 22, min_size=16)
        words = min(room, text_width(f"{name}: {power}", 22)) + 6
        covers.append((lx - 2, ly - 2, int(lx + 44 + words), ly + 30))
    y += piles_h
    covers.append((PAD, y, WIDTH - PAD, y + legend_h))
    # the legend is written once the places are known: it tells of an arrow only if one is drawn
    legend_y = y + 4
    y += legend_h

    # ---------------------------------------------------------------- players
    half = (WIDTH - 2 * PAD - 10) // 2
    for row, rh in zip(panel_rows, row_h, strict=True):
        for k, (p, wide) in enumerate(row):
            x = PAD + k * (half + 10)
            w = WIDTH - 2 * PAD if wide else half
            _draw_panel(
                img, d, v, names, p, all_dishes[p], x, y, w, rh - 10, wide, paste_card, boxes, stacks, covers
            )
        y += rh

    # ---------------------------------------------------------------- hand
    if hand is not None:
        seat = v.seat
        covers.append((PAD, y, WIDTH - PAD, height))
        y += 6
        title = [(tr("Your hand"), INK)]  # outside the call below: the extractor reads one call at a time
        if v.hand_moves:  # how to play a card now, with one the reader holds
            heading = nsay(
                "{title} — {n} card; type its code: {moves}",
                "{title} — {n} cards; type a code: {moves}",
                len(hand),
                MUTED,
                title=title,
                moves=", ".join(v.hand_moves),
            )
        elif hand:  # nothing to play from the hand now (an ability's step, drawing, not its turn)
            heading = nsay("{title} — {n} card", "{title} — {n} cards", len(hand), MUTED, title=title)
        else:
            heading = say("{title} — no cards", MUTED, title=title)
        draw_text(
            d,
            (PAD, y),
            heading,
            WIDTH - 2 * PAD,
            26,
            min_size=18,
            bold=True,
        )
        y += 44
        boxes.setdefault(f"p{seat + 1}h", (PAD, y, PAD + 200, y + BIG[1]))
        for i, code in enumerate(hand):
            cx = PAD + (i % hand_cols) * (BIG[0] + 8)
            cy = y + (i // hand_cols) * (BIG[1] + 44)
            paste_card(code, cx, cy, BIG)
            label(d, (cx + BIG[0] / 2, cy + BIG[1] + 18), code, 26, True, INK, "mm")
        if not hand:
            label(d, (PAD, y), tr("(empty)"), 24, False, MUTED)

    # ---------------------------------------------------------------- the last turn
    for mark in v.turn_marks:
        box = stacks.get(mark) or boxes.get(mark)
        if box:
            x0, y0, x1, y1 = box
            mark_box(d, (x0 - 6, y0 - 6, x1 + 5, y1 + 5), radius=12)
    paths = [(src, dst) for src, dst in _last_path(v) if src in boxes and dst in boxes and src != dst]
    for src, dst in paths:
        ax0, ay0, ax1, ay1 = boxes[src]
        start = ((ax0 + ax1) / 2, (ay0 + ay1) / 2)
        _path_under(img, d, start, _edge(boxes[dst], start), covers)
    if paths:
        legend = tr("changed in the last turn; arrow: where the last card went")
    else:  # turn 1, or a last move that moved no card
        legend = tr("changed in the last turn")
    draw_legend(d, PAD, legend_y, WIDTH - 2 * PAD, legend)
    return img


def _edge(box: tuple[int, int, int, int], a: tuple[float, float]) -> tuple[float, float]:
    """Where a line from ``a`` to the middle of ``box`` meets the box's edge: the arrow's tip
    touches the place from outside, so its head covers neither a card nor a player's name
    (drawn over the rest, it sat on 'P2 (cpu, normal)').  The middle when ``a`` is inside."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    dx, dy = a[0] - cx, a[1] - cy
    reach = min((x1 - x0) / 2 / abs(dx) if dx else math.inf, (y1 - y0) / 2 / abs(dy) if dy else math.inf)
    if reach >= 1:
        return cx, cy
    return cx + dx * reach, cy + dy * reach


def _path_under(img, d, a, b, covers, width: int = 7) -> None:
    """The last card's arrow from ``a`` to ``b``, passing under ``covers`` (cards, their codes
    and words: drawn straight across the other players' panels, it hid them), its head on top."""
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    end = (b[0] - math.cos(ang) * width * 2.56, b[1] - math.sin(ang) * width * 2.56)
    m = width + 4
    x0, y0 = int(min(a[0], end[0])) - m, int(min(a[1], end[1])) - m
    x1, y1 = int(max(a[0], end[0])) + m + 1, int(max(a[1], end[1])) + m + 1
    line = [(a[0] - x0, a[1] - y0), (end[0] - x0, end[1] - y0)]
    masks = []
    for fill, w in (((255, 255, 255), width + 4), (MARK, width)):
        mask = Image.new("L", (x1 - x0, y1 - y0), 0)
        md = ImageDraw.Draw(mask)
        md.line(line, fill=255, width=w)
        whole = mask.histogram()[255]
        for cx0, cy0, cx1, cy1 in covers:
            if cx1 > x0 and cx0 < x1 and cy1 > y0 and cy0 < y1:
                md.rectangle((cx0 - x0, cy0 - y0, cx1 - x0, cy1 - y0), fill=0)
        masks.append((fill, mask, mask.histogram()[255] / max(1, whole)))
    # a shaft mostly hidden (a pile to the hand of the panel just under the legend, whose rows
    # it passes under) would show as scattered dashes: only the head is drawn then, at the place
    # the card went, with the pile outlined and the header's "Last:" line saying the rest
    if masks[-1][2] >= SHAFT_SHOWN:
        for fill, mask, _ in masks:
            img.paste(fill, (x0, y0, x1, y1), mask)
    arrow_head(d, [a, b], width)


def _draw_panel(img, d, v, names, p, dishes, x, y, w, h, wide, paste_card, boxes, stacks, covers) -> None:
    active = to_play(not v.over and v.turn == p)
    d.rounded_rectangle(
        (x, y, x + w, y + h), radius=12, fill=PANEL, outline=INK if active else RULE, width=4 if active else 2
    )
    d.rounded_rectangle(
        (x + 2, y + 2, x + w - 2, y + 44), radius=11, fill=ACTIVE if active else (244, 241, 234)
    )
    seat_mark(d, x + 26, y + 23, 16, p)
    summary = tr(
        "P{seat} · hand {hand} · zone {zone}/4", seat=p + 1, hand=v.hand_sizes[p], zone=len(v.prep[p])
    )
    # the name takes the head's width up to the summary (right-aligned) and a gap, never under it
    room = w - 14 - min(text_width(summary, 24), w // 2 - 14) - 12 - 50
    name = headed_name(seat_name(names, p), room, 20, you=v.seat == p)
    draw_text(d, (x + 50, y + 7), [(name, seat_colour(p))], room, 28, min_size=20, bold=True)
    draw_text(d, (x + w // 2, y + 10), summary, w // 2 - 14, 24, min_size=16, align="right", fill=MUTED)
    # a card to or from the hand: the arrow points at the head's right half, where the hand is
    # counted ("hand 3"), clear of the name
    boxes.setdefault(f"p{p + 1}h", (x + w // 2, y + 4, x + w - 8, y + 42))
    covers.append((x, y, x + w, y + 44))  # the head and its frame

    # the zone, then the dishes, as blocks of one row (wrapping)
    size = _card_size(v, p, wide)
    step = size[0] + DISH_W - SMALL[0]
    per_row = (w - 24) // step
    zone = v.prep[p]
    n_real = len(v.dishes[p])
    blocks: list = [None, *dishes]  # None: the zone
    by = y + 52
    for r0 in range(0, len(blocks), per_row):
        chunk = blocks[r0 : r0 + per_row]
        rowh = max(
            _stack_height(len(zone), size, ZONE_STRIP) if b is None else _stack_height(len(b.cards), size)
            for b in chunk
        )
        for j, dv in enumerate(chunk):
            bx = x + 12 + j * step
            covers.append((bx, by, bx + size[0] + 14, by + rowh))
            if dv is None:
                _draw_zone(img, d, p, zone, bx, by, paste_card, boxes, stacks, size)
            else:
                k = r0 + j
                _draw_dish(img, d, p, dv, k, k > n_real, bx, by, paste_card, stacks, size)
        by += rowh


def _draw_zone(img, d, p, zone, bx, by, paste_card, boxes, stacks, size=SMALL) -> None:
    label(d, (bx, by), tr("zone"), 21, True, INK)
    label(d, (bx + size[0] + 2, by + 2), f"{len(zone)}/4", 19, True, MUTED, "ra")
    sy = by + STACK_TOP
    for code in zone[:-1][-3:]:
        strip = _strip(code, size[0], f"p{p + 1}z{code}")
        img.paste(strip, (bx, sy), strip)
        boxes.setdefault(f"p{p + 1}z{code}", (bx, sy, bx + size[0], sy + ZONE_STRIP))
        sy += ZONE_STRIP
    if zone:
        place = f"p{p + 1}z{zone[-1]}"
        paste_card(zone[-1], bx, sy, size, place=place)
        for code in zone:  # a changed zone card outlines the whole zone, over no strip
            stacks.setdefault(f"p{p + 1}z{code}", (bx, by + STACK_TOP, bx + size[0], sy + size[1]))
        draw_text(d, (bx, sy + size[1] + 4), place, size[0] + 14, STRIP_SIZE, min_size=18, bold=True)
    else:
        d.rounded_rectangle(
            (bx + 3, sy + 3, bx + size[0] - 4, sy + size[1] - 4), radius=8, outline=(205, 205, 205), width=2
        )
        label(d, (bx + size[0] / 2, sy + size[1] / 2), tr("empty"), WORD_SIZE, False, MUTED, "mm")


def _draw_dish(img, d, p, dv, k, building, bx, by, paste_card, stacks, size=SMALL) -> None:
    place = "build" if building else f"p{p + 1}d{k}"
    caption = tr("new") if building else f"d{k}"
    label(d, (bx, by), caption, 21, True, (190, 100, 0) if building else INK)
    if not building:
        label(
            d,
            (bx + size[0] + 2, by + 2),
            tr("{points}pt", points=dv.points),
            19,
            True,
            GOOD if dv.valid else MUTED,
            "ra",
        )
    sy = by + STACK_TOP
    for code in dv.cards[:-1]:
        strip = _strip(code, size[0])
        img.paste(strip, (bx, sy), strip)
        sy += STRIP
    paste_card(dv.cards[-1] if dv.cards else None, bx, sy, size, place=place)
    stacks.setdefault(place, (bx, by + STACK_TOP, bx + size[0], sy + size[1]))
    fy = sy + size[1] + 4
    if building and board_ended():  # the table ended the game: the dish was never served
        word, colr = tr("unfinished"), MUTED
    elif building:
        word, colr = (tr("ready") if dv.valid else tr("building")), (190, 100, 0)
    elif dv.valid:
        word, colr = "✓ " + tr(KIND_WORD.get(dv.kind, dv.kind)), GOOD
    else:
        word, colr = "✗ " + tr("invalid"), BAD
    narrow_text(d, (bx, fy), word, size[0] + 14, WORD_SIZE, min_size=WORD_SIZE, bold=True, fill=colr)
    count = ntr("{n} card", "{n} cards", len(dv.cards)) + (f" {STAR}" if dv.guacamole else "")
    narrow_text(d, (bx, fy + 24), count, size[0] + 14, WORD_SIZE, min_size=WORD_SIZE)


render, draw_board = board_entry_points(_board_picture, "guacamole")
