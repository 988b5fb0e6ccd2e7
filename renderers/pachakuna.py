"""P'achakuna board image: tiles with their valleys and ridges, villages, llamas, supplies.

Each tile is split into six wedges, one per edge: valley wedges are pale green with a light
channel running from the edge to the centre (the white llamas' roads); mountain wedges are
grey-brown with a dark ridge (the black llamas' roads).  A road crosses between two tiles where
the wedges on both sides of the shared edge match.  Field numbers (11..95) are printed on every
field, as the move notation uses them.  The fields touched by the latest turn are outlined in
magenta, each llama's road an arrow; rocks are grey stones on the tiles the last rotating player turned.  One or two llamas on a
tile are drawn whole, side by side; three or more as one tag with each side's llama shape and
count (each llama's field and load are in its side's panel).  On a village, between its number
and its demand flags, a llama is a token of its side's shape and colour with its number and its
load, a piece of the load's colour with its letter, just right of it; three or more are the same
tag.  Each side's panel shows its supply, a disc per colour with the colour's letter and count;
a key under the board says what a disc shows and names each letter's colour.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engines.pachakuna import data as D
from engines.pachakuna.rules import MAX_PLAYERS, final_ranking
from renderers.colours import (
    ACTIVE,
    BACKGROUND,
    INK,
    MUTED,
    PANEL,
    RULE,
    SEAT_SHAPES,
    Key,
    drew,
    seat_colour,
    seat_keys,
)
from renderers.entrypoints import board_entry_points
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
from renderers.shapes import arrow_head, draw_legend, path_arrow, seat_mark, seat_shape
from renderers.translation import N_, ntr, ptr, tr
from renderers.typeset import (
    LEADING,
    art_cache,
    draw_text,
    font,
    label,
    narrow_label,
    narrow_lines,
    narrow_text,
    text_width,
)

R = 48  # hex radius (centre to corner) in pixels
SQ3 = math.sqrt(3)
FRAME_R = 8.75 * R
BOARD_W = int(2 * FRAME_R) + 16
BOARD_H = int(SQ3 * FRAME_R) + 16
X0 = (BOARD_W - 9 * SQ3 * R) / 2 + SQ3 * R / 2
Y0 = BOARD_H / 2 - 6 * R

COLOUR_RGB = {
    "white": (248, 248, 244),
    "yellow": (245, 205, 40),
    "orange": (240, 128, 30),
    "red": (206, 38, 44),
    "purple": (124, 56, 161),  # darker than the blue, which a deuteranope sees it as
    "blue": (38, 92, 205),
    "green": (38, 150, 62),
    "brown": (110, 70, 20),
}
VILLAGE_TINT = {k: tuple(int(c * 0.55 + 255 * 0.45) for c in v) for k, v in COLOUR_RGB.items()}
PIECE_COLOURS = tuple(COLOUR_RGB.values())
LLAMA_BODY = ((250, 250, 250), (25, 25, 25))  # seat 0's llamas are white, seat 1's black


def _ink_on(colour: str) -> tuple[int, int, int]:
    """Letters on a piece of ``colour``: dark on the light ones, white on the others."""
    return INK if colour in ("white", "yellow", "orange") else (255, 255, 255)


# What the legend tells apart by colour, and the second cue of each: a colour's letter (the
# notation's, on every flag, load and supply disc), the brown piece's square, the llamas' seat shape.
COLOUR_KEYS = {
    "seats": seat_keys(MAX_PLAYERS),
    "colours": {
        **{c: Key(COLOUR_RGB[c], ("letter", D.LETTER[c]), _ink_on(c)) for c in D.COLOURS},
        "brown": Key(COLOUR_RGB["brown"], ("pattern", "square piece")),
    },
    "llamas": {s: Key(LLAMA_BODY[s], ("shape", SEAT_SHAPES[s])) for s in range(MAX_PLAYERS)},
}


def _letter(dr: ImageDraw.ImageDraw, x: float, y: float, colour: str, size: int, width: int = 0) -> None:
    """A colour's letter centred at ``x, y``: its second cue; narrowed to ``width`` where wider."""
    if width:
        narrow_label(dr, (x, y), D.LETTER[colour], size, width, True, _ink_on(colour))
    else:
        label(dr, (x, y), D.LETTER[colour], size, True, _ink_on(colour), "mm")


# The least size of the board's letters and numbers: their capitals stand 4.7 px or more on a
# phone.  A llama's load is a square of its colour with the letter at this size (at 12 in a 16 px
# square it stood 3 px); the llama's number moves to the top left of its body to make room.
PHONE_SIZE = 19
LOAD_BOX = (2, -8, 24, 14)  # a load's square on the board, from the llama's centre
LLAMA_NUMBER = (-6, -5)  # the centre of the llama's number, from the llama's centre


VALLEY = (168, 212, 132)
VALLEY_ROAD = (232, 248, 208)
MOUNTAIN = (150, 128, 108)
MOUNTAIN_RIDGE = (74, 58, 46)
FRAME = (120, 92, 60)
SS = 3  # supersampling for the tile sprites


def centre(cell: int) -> tuple[float, float]:
    r, c = divmod(cell, 10)
    x2 = 2 * (c - 1) + abs(r - 5)
    return X0 + x2 * SQ3 * R / 2, Y0 + (r - 1) * 1.5 * R


def _corners(cx: float, cy: float, rad: float) -> list[tuple[float, float]]:
    # pointy-top: corner k at angle -90 + 60k; edge d (0 E, 1 SE, ...) lies between corners
    return [
        (cx + rad * math.cos(math.radians(-90 + 60 * k)), cy + rad * math.sin(math.radians(-90 + 60 * k)))
        for k in range(6)
    ]


def _edge_corners(d: int) -> tuple[int, int]:
    # edge E (d=0) joins the corners at -30 and 30 degrees: corner indices 1 and 2
    return (d + 1) % 6, (d + 2) % 6


@art_cache
def tile_sprite(code: str) -> Image.Image:
    """An RGBA hex picture of a tile, drawn once per kind and rotation."""
    size = int(2 * R * SS) + 2
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    dr = ImageDraw.Draw(img)
    cx = cy = size / 2
    rad = R * SS
    pts = _corners(cx, cy, rad)
    mask = D.mountain_mask(code)
    for d in range(6):
        a, b = _edge_corners(d)
        dr.polygon([(cx, cy), pts[a], pts[b]], fill=MOUNTAIN if (mask >> d) & 1 else VALLEY)
    for d in range(6):
        a, b = _edge_corners(d)
        mx, my = (pts[a][0] + pts[b][0]) / 2, (pts[a][1] + pts[b][1]) / 2
        if (mask >> d) & 1:
            dr.line([(cx, cy), (mx, my)], fill=MOUNTAIN_RIDGE, width=int(6 * SS))
            # little peaks along the ridge
            for t in (0.45, 0.78):
                px, py = cx + (mx - cx) * t, cy + (my - cy) * t
                dr.regular_polygon((px, py, 7 * SS), 3, fill=MOUNTAIN_RIDGE)
        else:
            dr.line([(cx, cy), (mx, my)], fill=VALLEY_ROAD, width=int(13 * SS))
    # centre joint
    dr.ellipse((cx - 7 * SS, cy - 7 * SS, cx + 7 * SS, cy + 7 * SS), fill=(200, 190, 170))
    dr.polygon(pts, outline=(60, 60, 60), width=int(1.5 * SS))
    return img.resize((size // SS, size // SS), Image.Resampling.LANCZOS)


@art_cache
def _base() -> Image.Image:
    """The empty board: frame and background (static art)."""
    img = Image.new("RGB", (BOARD_W, BOARD_H), BACKGROUND)
    dr = ImageDraw.Draw(img)
    # frame: a big hexagon behind the board
    cx, cy = centre(55)
    outer = [
        (cx + 8.75 * R * math.cos(math.radians(60 * k)), cy + 8.75 * R * math.sin(math.radians(60 * k)))
        for k in range(6)
    ]
    dr.polygon(outer, fill=FRAME)
    inner = [
        (cx + 8.25 * R * math.cos(math.radians(60 * k)), cy + 8.25 * R * math.sin(math.radians(60 * k)))
        for k in range(6)
    ]
    dr.polygon(inner, fill=(205, 185, 150))
    return img


def _llama_body(dr: ImageDraw.ImageDraw, x: float, y: float, seat: int) -> None:
    """A llama's ears and body in its seat's shape (White's round, Black's square), outlined."""
    body = LLAMA_BODY[seat]
    rad = 15
    outline = (20, 20, 20) if seat == 0 else (240, 240, 240)
    dr.polygon([(x - 10, y - 10), (x - 6, y - 24), (x - 1, y - 12)], fill=body, outline=outline)
    dr.polygon([(x + 1, y - 12), (x + 6, y - 24), (x + 10, y - 10)], fill=body, outline=outline)
    seat_shape(dr, x, y, rad + 2, seat, fill=outline)
    seat_shape(dr, x, y, rad, seat, fill=body)


def _llama(dr: ImageDraw.ImageDraw, x: float, y: float, seat: int, ident: int, load: str | None) -> None:
    ink = (20, 20, 20) if seat == 0 else (250, 250, 250)
    _llama_body(dr, x, y, seat)
    label(dr, (x + LLAMA_NUMBER[0], y + LLAMA_NUMBER[1]), str(ident), PHONE_SIZE, True, ink, "mm")
    x0, y0, x1, y1 = x + LOAD_BOX[0], y + LOAD_BOX[1], x + LOAD_BOX[2], y + LOAD_BOX[3]
    if load:
        dr.rectangle((x0, y0, x1, y1), fill=COLOUR_RGB[load], outline=(20, 20, 20), width=2)
        _letter(dr, (x0 + x1) / 2, (y0 + y1) / 2, load, PHONE_SIZE, int(x1 - x0 - 5))
    else:
        dr.rectangle((x0, y0, x1, y1), fill=(225, 225, 225), outline=(120, 120, 120), width=1)
        dr.line([(x0 + 4, y1 - 4), (x1 - 4, y0 + 4)], fill=(120, 120, 120), width=2)


@lru_cache(maxsize=512)
def _number_width(text: str, size: int = 18) -> int:
    """The ink width of a short bold label (from its bounding box)."""
    left, _, right, _ = font(size, True).getbbox(text)
    return int(right - left)


def _fitting(text: str, size: int, width: float) -> int:
    """The largest bold size, ``size`` at most (and 10 at least), at which ``text`` is no wider
    than ``width``: a supply disc's ``W12`` shrinks to stay inside its disc."""
    while size > 10 and _number_width(text, size) > width:
        size -= 1
    return size


# A village's demand: the big flag (2 points) and the small one (1), each with its colour's
# letter, as large as the village leaves room for between its number, its llamas and where the
# roads' arrows end (30 px from its centre): shown 400 px wide, as on a phone, the letters are
# 5 and 4 px tall (3.7 and 2.3 before).
BIG_FLAG, BIG_LETTER = (-28, -13, 2, 13), 21
SMALL_FLAG, SMALL_LETTER = (5, -7, 27, 15), 19  # narrowed to the flag (at 16 it stood 4 px)
DEMAND_Y = 16
"""The flags' centre below the village's centre: low in the village, their lower corners inside
its outline, leaving the band under its number to its llamas."""


def _demand(dr: ImageDraw.ImageDraw, x: float, y: float, demand: str | None) -> None:
    if not demand:
        label(dr, (x, y), "-", PHONE_SIZE, True, MUTED, "mm")
        return
    big, small = D.demand_colours(demand)
    for colour, (x0, y0, x1, y1), size in ((big, BIG_FLAG, BIG_LETTER), (small, SMALL_FLAG, SMALL_LETTER)):
        dr.rectangle((x + x0, y + y0, x + x1, y + y1), fill=COLOUR_RGB[colour], outline=INK, width=2)
        _letter(dr, x + (x0 + x1) / 2, y + (y0 + y1) / 2, colour, size, x1 - x0 - 5)


# A field's number: the move notation's name of it, read on a phone too (the picture shown 400 px
# wide, a third of its size, its digits are 6 px tall or more), above the field's centre, over
# the inner half of its roads and clear of where they cross to the next field; a village's above
# its flags.  The roads' arrow heads are drawn again over the numbers.
NUMBER_SIZE = 28
NUMBER_Y = 25
NUMBER_VILLAGE_SIZE = 26
NUMBER_VILLAGE_Y = 33
LLAMA_Y = 9  # a field's llamas, below its centre: their ears clear of its number

LLAMA_STEP = 38
"""How far apart two llamas on one field stand: the left one, drawn last, covers only the right
one's body, never its number nor its load (a llama reaches 17 px left of its centre, 24 right)."""
HERD = 3
"""From this many llamas on one field a herd is drawn instead: three side by side are wider than
a field (117 px against 83), and their numbers and loads are in each side's list of llamas."""


def llama_spots(cx: float, y: float, n: int) -> list[tuple[float, float]]:
    """Where each of ``n`` (one or two) llamas on a field stands, left to right: two share the
    field's width, the pair centred on what they cover."""
    if n == 1:
        return [(cx, y)]
    left = cx - (LLAMA_STEP + 24 - 17) / 2
    return [(left + i * LLAMA_STEP, y) for i in range(n)]


def _llamas_on(dr: ImageDraw.ImageDraw, cx: float, y: float, group: Sequence) -> None:
    """The llamas on one field, by seat then number: one or two in full, side by side (the right
    one drawn first), a herd from :data:`HERD` on."""
    group = sorted(group, key=lambda m: (m.seat, m.id))
    if len(group) >= HERD:
        _herd(dr, cx, y, group)
        return
    for (x, ly), lm in reversed(list(zip(llama_spots(cx, y, len(group)), group, strict=True))):
        _llama(dr, x, ly, lm.seat, lm.id, lm.load)


def _herd(dr: ImageDraw.ImageDraw, cx: float, y: float, group: Sequence) -> None:
    """Several llamas on one field: a white tag with, for each side there, its llamas' shape and
    how many stand there (White's round, Black's square: "● 2  ■ 1")."""
    counts = [(seat, sum(1 for lm in group if lm.seat == seat)) for seat in sorted({lm.seat for lm in group})]
    parts = [(seat, str(n), _number_width(str(n), PHONE_SIZE)) for seat, n in counts]
    width = sum(HERD_SHAPE * 2 + 3 + w for _, _, w in parts) + HERD_GAP * (len(parts) - 1)
    x = cx - width / 2
    dr.rounded_rectangle(
        (x - 4, y - TOKEN - 1, x + width + 4, y + TOKEN + 1),
        radius=7,
        fill=(255, 255, 255),
        outline=INK,
        width=2,
    )
    for seat, text, w in parts:
        seat_shape(dr, x + HERD_SHAPE, y, HERD_SHAPE + 1, seat, fill=INK)
        seat_shape(dr, x + HERD_SHAPE, y, HERD_SHAPE - 1, seat, fill=LLAMA_BODY[seat])
        x += HERD_SHAPE * 2 + 3
        label(dr, (x + w / 2, y), text, PHONE_SIZE, True, INK, "mm")
        x += w + HERD_GAP


HERD_SHAPE = 8  # the half size of a side's shape on a herd's tag
HERD_GAP = 4  # between the two sides on a herd's tag


# A village holds its number at the top and its demand flags low, so its llamas stand in the band
# between them, where the village is widest (80 px; a tile's llamas, 41 px tall with their ears,
# stood half under the flags and over the village's edge onto the fields below): each a token of
# its side's shape and colour with its number, 22 px tall, its load a round piece of its colour
# with the colour's letter just right of it (round, as the supply's pieces: a square there read
# as a third flag), or from three on the herd's tag, as tall (their loads in each side's list).
VILLAGE_LLAMA_Y = -9.5  # the band's middle, above the village's centre
TOKEN = 10  # a token's half size, inside its 1 px outline
TOKEN_LOAD = 19  # from a token's centre to its load's, which covers the token's edge
TOKEN_LOAD_R = 10  # a load's radius on a village, its 2 px outline inside
TOKEN_STEP = 41  # between two tokens' centres: a token and its load, then 1 px, then the next
TOKEN_MIDDLE = (
    TOKEN_LOAD + TOKEN_LOAD_R - TOKEN - 1
) / 2  # a token and its load's middle, right of the token


def village_spots(cx: float, y: float, n: int) -> list[tuple[float, float]]:
    """Where each of ``n`` (one or two) llamas' tokens on a village stands, left to right, each
    with its load on its right, the lot about the village's middle."""
    return [(cx - TOKEN_MIDDLE + (i - (n - 1) / 2) * TOKEN_STEP, y) for i in range(n)]


def _token(dr: ImageDraw.ImageDraw, x: float, y: float, seat: int, ident: int, load: str | None) -> None:
    """A llama on a village: its side's shape (White's round, Black's square) in its body's
    colour, outlined, with its number; its load on its right, a disc of the load's colour with
    its letter (an empty grey disc, struck through, when it carries nothing)."""
    outline, ink = ((20, 20, 20), (20, 20, 20)) if seat == 0 else ((240, 240, 240), (250, 250, 250))
    stretch = 1 / 0.85 if SEAT_SHAPES[seat] == "square" else 1  # a square as tall as the circle
    seat_shape(dr, x, y, (TOKEN + 1) * stretch, seat, fill=outline)
    seat_shape(dr, x, y, TOKEN * stretch, seat, fill=LLAMA_BODY[seat])
    label(dr, (x, y), str(ident), PHONE_SIZE, True, ink, "mm")
    lx, r = x + TOKEN_LOAD, TOKEN_LOAD_R
    if load:
        dr.ellipse((lx - r, y - r, lx + r, y + r), fill=COLOUR_RGB[load], outline=INK, width=2)
        _letter(dr, lx, y, load, PHONE_SIZE, 2 * r - 6)
    else:
        dr.ellipse((lx - r, y - r, lx + r, y + r), fill=(225, 225, 225), outline=(120, 120, 120), width=1)
        dr.line([(lx - 5, y + 5), (lx + 5, y - 5)], fill=(120, 120, 120), width=2)


def _village_llamas(dr: ImageDraw.ImageDraw, cx: float, y: float, group: Sequence) -> None:
    """The llamas on a village, by seat then number, in the band under its number (``y`` its
    middle): a token and its load each for one or two, a herd from :data:`HERD` on."""
    group = sorted(group, key=lambda m: (m.seat, m.id))
    if len(group) >= HERD:
        _herd(dr, cx, y, group)
        return
    for (x, ty), lm in zip(village_spots(cx, y, len(group)), group, strict=True):
        _token(dr, x, ty, lm.seat, lm.id, lm.load)


ARROW_REACH = 30
"""How far from a village's centre a road's arrow head stops: inside the village, clear of its
demand flags (drawn over it), so the road still shows which way it went."""
ARROW_REACH_BELOW = 38
"""The same for a road coming up from below the village: its flags stand low, so the head stops
under them, just inside the village's edge."""


def _road_points(road: Sequence[int]) -> list[tuple[float, float]]:
    """The points of a llama's road for its arrow: field centres, the last one drawn back towards
    the field before it when the road ends on a village."""
    points = [centre(c) for c in road]
    if len(points) >= 2 and road[-1] in D.VILLAGES:
        (x0, y0), (x1, y1) = points[-2], points[-1]
        length = math.hypot(x1 - x0, y1 - y0)
        reach = ARROW_REACH_BELOW if y0 > y1 else ARROW_REACH
        if length > reach:
            k = 1 - reach / length
            points[-1] = (x0 + (x1 - x0) * k, y0 + (y1 - y0) * k)
    return points


def _draw_board(view) -> Image.Image:
    img = _base().copy()
    dr = ImageDraw.Draw(img)
    tiles = dict(view.tiles)
    demands = dict(view.demands)
    rocks = set(view.rocks)
    marks = set(view.turn_cells or view.prev_cells)

    half = tile_sprite("N0").size[0] // 2
    for cell, code in tiles.items():
        cx, cy = centre(cell)
        sprite = tile_sprite(code)
        img.paste(sprite, (int(round(cx - half)), int(round(cy - half))), sprite)

    for cell, colour in view.villages:
        cx, cy = centre(cell)
        dr.polygon(_corners(cx, cy, R - 1), fill=VILLAGE_TINT[colour], outline=INK, width=3)
        dr.polygon(
            _corners(cx, cy, R - 8),
            outline=COLOUR_RGB[colour] if colour != "white" else (150, 150, 150),
            width=4,
        )

    for cell in rocks:
        cx, cy = centre(cell)
        rx, ry = cx - 22, cy + 15
        dr.ellipse((rx - 14, ry - 10, rx + 14, ry + 10), fill=(118, 118, 124), outline=(20, 20, 20), width=3)
        dr.ellipse((rx - 7, ry - 6, rx + 1, ry - 2), fill=(185, 185, 190))

    # the last turn: fields outlined, each llama's road an arrow
    for cell in marks:
        cx, cy = centre(cell)
        dr.polygon(_corners(cx, cy, R - 3), outline=(226, 0, 142), width=6)
        dr.polygon(_corners(cx, cy, R - 9), outline=(255, 255, 255), width=1)
    for road in view.routes:
        path_arrow(dr, _road_points(road), width=6)

    for cell in D.CELLS:
        cx, cy = centre(cell)
        village = cell in D.VILLAGES
        ty, size = (cy - NUMBER_VILLAGE_Y, NUMBER_VILLAGE_SIZE) if village else (cy - NUMBER_Y, NUMBER_SIZE)
        w = _number_width(str(cell), size)
        dr.rounded_rectangle(
            (cx - w / 2 - 2, ty - size / 2, cx + w / 2 + 2, ty + size / 2 - 1),
            radius=5,
            fill=(255, 255, 240) if village else (255, 255, 255),
        )
        label(dr, (cx, ty), str(cell), size, True, INK, "mm")
    # each road's arrow head over the numbers, so that the number of the field it crossed last
    # hides no head of a road ending on a village (a number hides only the roads' lines)
    for road in view.routes:
        arrow_head(dr, _road_points(road), width=6)

    by_cell: dict[int, list] = {}
    for lm in view.llamas:
        by_cell.setdefault(lm.cell, []).append(lm)
    for cell, group in by_cell.items():
        cx, cy = centre(cell)
        if cell in D.VILLAGES:
            _village_llamas(dr, cx, cy + VILLAGE_LLAMA_Y, group)
        else:
            _llamas_on(dr, cx, cy + LLAMA_Y, group)

    # the demands last, so that no llama's ears nor a road's arrow head hides a flag
    for cell, _colour in view.villages:
        cx, cy = centre(cell)
        _demand(dr, cx, cy + DEMAND_Y, demands.get(cell))
    return img


SIDES = (N_("White"), N_("Black"))  # seat 0 plays the white llamas (valleys), seat 1 the black (mountains)


def _board_name(view) -> str:
    """The board's name on the header: its plan's letter, or "random" in the language drawn."""
    return ptr("pachakuna board", "random") if view.board == "random" else view.board


def _header(view, names, last_action) -> Header:
    board = _board_name(view)
    if view.max_turns:
        info = tr(
            "board {board} · turn {turn}/{most}", board=board, turn=view.turn_number, most=view.max_turns
        )
    else:
        info = tr("board {board} · turn {turn}", board=board, turn=view.turn_number)
    if view.phase == "over":
        status = winners_status(names, final_ranking(view)[0])
        return Header("P'achakuna", info, status, None, last_action)
    side = tr(SIDES[view.turn])
    if view.phase == "rotate" and view.rotation_cost == 0:
        doing = N_("{name}, {side}, to play: turn tiles (first one free) or move llamas")
    elif view.phase == "rotate" and sum(n for _, n in view.supply[view.turn]) < view.rotation_cost:
        # no tile the player can pay for: say so, as the board in words does
        doing = N_(
            "{name}, {side}, to play: move llamas (another tile would cost {cost}, more than they hold)"
        )
    elif view.phase == "rotate":
        doing = N_("{name}, {side}, to play: turn tiles (next costs {cost}) or move llamas")
    else:
        doing = N_("{name}, {side}, to play: move, sell, buy with llamas, then end")
    status = turn_status(names, view.turn, doing, side=side, cost=view.rotation_cost)
    return Header("P'achakuna", info, status, view.turn, last_action)


def _seat_lines(view, names) -> list[SeatLine]:
    over = view.phase == "over"
    place = places(final_ranking(view)) if over else {}
    out = []
    for seat in range(view.players):
        llamas = sum(1 for m in view.llamas if m.seat == seat)
        total = sum(n for _, n in view.supply[seat])
        # its side, then what it holds in words: its resources, how many of them lie loose (spent
        # first, before a colour leaves its cut-out), its llamas ("loose 2/7" said neither what
        # was loose nor what 7 counted); on one line (which road each side walks is in the legend)
        detail = tr(
            "{side} · {resources}, {loose} · {llamas}",
            side=tr(SIDES[seat]),
            resources=ntr("{n} resource", "{n} resources", total),
            loose=ntr("{n} loose", "{n} loose", view.loose[seat]),
            llamas=ntr("{n} llama", "{n} llamas", llamas),
        )
        out.append(
            SeatLine(
                seat,
                seat_name(names, seat),
                f"{view.colours[seat]}/7",
                detail,
                active=to_play(not over and view.turn == seat),
                you=view.seat == seat,
                place=place.get(seat),
            )
        )
    return out


def _board_picture(view, names: Sequence[str] | None, last_action: str | None) -> Image.Image:
    header = _header(view, names, last_action)
    seats = _seat_lines(view, names)
    over = view.phase == "over"
    top_h = ranking_height(seats) if over else strip_height(seats)
    head_h = header_height(header)
    height = head_h + top_h + 10 + BOARD_H + KEY_H + PAD
    img = Image.new("RGB", (WIDTH, height), BACKGROUND)
    dr = ImageDraw.Draw(img)
    y = draw_header(dr, header)
    if over and view.winner is None:
        title = N_("Final at the turn limit: most colours, then most resources")
    else:
        title = N_("Final: the first to hold all seven colours wins")
    y += draw_ranking(dr, seats, y, title=title) if over else draw_strip(dr, seats, y)
    y += 10
    img.paste(_draw_board(view), (0, y))
    _panel(img, dr, view, names, BOARD_W + 4, y, WIDTH - PAD - BOARD_W - 4, height - PAD)
    _supply_key(dr, PAD, y + BOARD_H + 4, BOARD_W - PAD - 12)
    return img


# Under the board (the panel beside it keeps its height): how to read a seat's supply.  Its discs show a colour's
# letter and a count ("P2"), which read as a code (or as the move "b1"); the key says what the
# disc counts and which colour each letter, the moves' own, names (B is blue, not black nor brown).
KEY_SIZE = 20
KEY_LINE = 30
KEY_H = 2 * KEY_LINE + 8
KEY_CHIP = 13  # a key's piece: a disc of this radius with its colour's letter, as in the supply
KEY_GAP = 22  # between one colour's word and the next piece


def _supply_key(dr: ImageDraw.ImageDraw, x: float, y: float, w: int) -> None:
    """The supply's key, two lines ``w`` wide from ``x, y``: what a disc shows, then each
    colour's piece with its letter beside the colour's name (the brown pieces' square, which has
    no letter, last)."""
    what = tr("Each disc: a colour's letter, as typed in moves, and how many are held (P2: 2 purple)")
    narrow_text(dr, (x, y), what, w, KEY_SIZE, min_size=PHONE_SIZE)
    y += KEY_LINE
    words = [ptr("pachakuna term", c) for c in (*D.COLOURS, "brown")]  # the game's own words
    pieces = len(words) * (2 * KEY_CHIP + 6)
    spread = sum(text_width(word, KEY_SIZE) for word in words) + KEY_GAP * (len(words) - 1)
    squeeze = min(1.0, (w - pieces) / spread)  # words and gaps narrowed alike where wider than ``w``
    cx, cy = x + KEY_CHIP, y + KEY_CHIP
    for colour, word in zip((*D.COLOURS, "brown"), words, strict=True):
        r = KEY_CHIP
        if colour == "brown":
            dr.rectangle(
                (cx - r + 2, cy - r + 2, cx + r - 2, cy + r - 2),
                fill=COLOUR_RGB[colour],
                outline=INK,
                width=2,
            )
        else:
            dr.ellipse((cx - r, cy - r, cx + r, cy + r), fill=COLOUR_RGB[colour], outline=INK, width=2)
            _letter(dr, cx, cy, colour, PHONE_SIZE, 2 * r - 6)
        room = int(text_width(word, KEY_SIZE) * squeeze) + 1
        narrow_text(dr, (cx + r + 6, y - 1), word, room, KEY_SIZE, min_size=KEY_SIZE)
        cx += 2 * r + 6 + room + KEY_GAP * squeeze


def _panel(
    img: Image.Image, dr: ImageDraw.ImageDraw, view, names, x: int, y: float, w: int, bottom: int
) -> None:
    order = ([view.seat] if view.seat is not None else []) + [
        s for s in range(view.players) if s != view.seat
    ]
    for seat in order:
        y = _player_box(dr, x, y, w, view, seat, names) + 10
    if view.rocks and view.phase != "over":
        rocks = ", ".join(map(str, view.rocks))
        if view.phase == "rotate":
            when = tr("Rocks: {tiles} (not turnable this turn)", tiles=rocks)
        else:
            when = tr("Rocks: {tiles} (closed to the next player)", tiles=rocks)
        y += narrow_lines(dr, (x, y), when, w, 20, max_lines=2) + 6
    bag = ntr(
        "Bag: {n} demand · used: {used}",
        "Bag: {n} demands · used: {used}",
        view.bag_count,
        used=len(view.used),
    )
    # the panel's words keep 4.7 px on a phone: narrowed where they are wider (Spanish), not shrunk
    narrow_text(dr, (x, y), bag, w, 20, min_size=PHONE_SIZE, bold=True)
    y += int(20 * LEADING + 0.5) + 4
    ly = bottom - 4 * 30 - 8
    _used_row(img, x, y, w, view.used, ly - 8)
    # legend, from the bottom up
    _demand(dr, x + 28, ly + 12, "RY")
    narrow_text(dr, (x + 60, ly), tr("demand: big flag 2, small 1"), w - 60, 20, min_size=PHONE_SIZE)
    ly += 30
    dr.rectangle((x, ly + 2, x + 30, ly + 22), fill=VALLEY)
    dr.line([(x, ly + 12), (x + 30, ly + 12)], fill=VALLEY_ROAD, width=6)
    narrow_text(dr, (x + 40, ly), tr("valley: White's road"), w - 40, 20, min_size=PHONE_SIZE)
    ly += 30
    dr.rectangle((x, ly + 2, x + 30, ly + 22), fill=MOUNTAIN)
    dr.line([(x, ly + 12), (x + 30, ly + 12)], fill=MOUNTAIN_RIDGE, width=4)
    narrow_text(dr, (x + 40, ly), tr("mountain: Black's road"), w - 40, 20, min_size=PHONE_SIZE)
    ly += 30
    draw_legend(dr, x, ly, w, tr("last turn; arrow: a llama's road"), size=20)


# The demands used, the latest last, drawn as a village's flags (their letters 5 and 4 px tall on
# a phone; they were 2.7 px, and the small flag had none): as many rows as the panel has room for.
USED_STEP, USED_ROW = 64, 32


@art_cache
def _flags(demand: str) -> Image.Image:
    """A demand's two flags, as a village shows them, on a clear ground (drawn once)."""
    art = Image.new("RGBA", (58, 30), (0, 0, 0, 0))
    _demand(ImageDraw.Draw(art), 29, 14, demand)
    return art


def _used_row(img: Image.Image, x: int, y: float, w: int, used: Sequence[str], bottom: float) -> float:
    """The latest of ``used`` that fit between ``y`` and ``bottom``, in rows ``w`` wide; returns
    the ``y`` under them."""
    per_row = max(1, w // USED_STEP)
    rows = max(1, int(bottom - y) // USED_ROW)
    shown = list(used)[-per_row * rows :] if used else []
    for i, d in enumerate(shown):
        row, col = divmod(i, per_row)
        flags = _flags(d)
        img.paste(flags, (int(x + col * USED_STEP), int(y + row * USED_ROW)), flags)
    return y + -(-len(shown) // per_row) * USED_ROW


# A seat's supply: a disc per colour with its letter and count, in two rows of four (the brown
# pieces' square last), large enough that the letters are 5 px tall on a phone (3.7 in one row).
SUPPLY_DISC, SUPPLY_GAP, SUPPLY_SIZE = 44, 6, 21


def _player_box(dr: ImageDraw.ImageDraw, x: float, y: float, w: int, view, seat: int, names) -> float:
    sup = dict(view.supply[seat])
    active = to_play(view.phase != "over" and view.turn == seat)
    top = y
    disc = SUPPLY_DISC
    h = 46 + 2 * disc + SUPPLY_GAP + 48
    dr.rounded_rectangle(
        (x, top, x + w, top + h),
        radius=10,
        fill=ACTIVE if active else PANEL,
        outline=INK if active else RULE,
        width=4 if active else 2,
    )
    seat_mark(dr, x + 22, y + 22, 15, seat)
    seat_shape(dr, x + w - 22, y + 22, 14, seat, fill=INK)
    seat_shape(dr, x + w - 22, y + 22, 12, seat, fill=LLAMA_BODY[seat])
    name = headed_name(seat_name(names, seat), w - 90, PHONE_SIZE, you=view.seat == seat)
    draw_text(dr, (x + 44, y + 8), [(name, seat_colour(seat))], w - 90, 24, min_size=PHONE_SIZE, bold=True)
    y += 46
    step = min(disc + 12, (w - 12) // 4)
    # two rows of four: the seven colours, then the brown pieces
    spots = [(x + 8 + (k % 4) * step, y + (k // 4) * (disc + SUPPLY_GAP)) for k in range(8)]
    for colour, (cx, cy) in zip(D.COLOURS, spots, strict=False):
        n = sup.get(colour, 0)
        if n:
            dr.ellipse((cx, cy, cx + disc, cy + disc), fill=COLOUR_RGB[colour], outline=INK, width=2)
            text = f"{D.LETTER[colour]}{n}"  # the colour's letter, then how many
            size = _fitting(text, SUPPLY_SIZE, disc - 8)
            label(dr, (cx + disc / 2, cy + disc / 2), text, size, True, _ink_on(colour), "mm")
        else:
            ring = COLOUR_RGB[colour] if colour != "white" else (160, 160, 160)
            dr.ellipse((cx, cy, cx + disc, cy + disc), fill=(236, 232, 224), outline=ring, width=3)
            label(dr, (cx + disc / 2, cy + disc / 2), D.LETTER[colour], SUPPLY_SIZE, True, MUTED, "mm")
    cx, cy = spots[7]
    n = sup.get("brown", 0)
    dr.rectangle(
        (cx + 3, cy + 3, cx + disc - 3, cy + disc - 3),
        fill=COLOUR_RGB["brown"] if n else (236, 232, 224),
        outline=INK,
        width=2,
    )
    if n:
        drew("pattern", "square piece", COLOUR_RGB["brown"])
    label(
        dr,
        (cx + disc / 2, cy + disc / 2),
        str(n),
        SUPPLY_SIZE + 2,
        True,
        (255, 255, 255) if n else MUTED,
        "mm",
    )
    y += 2 * disc + SUPPLY_GAP + 12
    # the seat's llamas as a village shows them (its side's shape with the number, the load on
    # its right), each followed by the field it stands on, labelled as the board labels it
    lx = x + 10 + TOKEN + 1
    ty = y + 13
    for lm in sorted((m for m in view.llamas if m.seat == seat), key=lambda m: m.id):
        _token(dr, lx, ty, seat, lm.id, lm.load)
        field = str(lm.cell)
        fx = lx + TOKEN_LOAD + TOKEN_LOAD_R + 8
        fw = _number_width(field, 20)
        dr.rounded_rectangle(
            (fx, ty - 12, fx + fw + 8, ty + 12), radius=5, fill=(255, 255, 255), outline=RULE
        )
        label(dr, (fx + 4 + fw / 2, ty), field, 20, True, INK, "mm")
        lx = fx + fw + 8 + 16 + TOKEN + 1
    return top + h


render, draw_board = board_entry_points(_board_picture, "pachakuna")

OPTIONS_SHOWN = frozenset({"board", "max_turns"})
"""The options every board of this game states in its header already (the board's plan and the turn limit): the
table leaves them out of the header's line of options."""
