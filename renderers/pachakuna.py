"""P'achakuna board image: tiles with their valleys and ridges, villages, llamas, supplies.

Each tile is split into six wedges, one per edge: valley wedges are pale green with a light
channel running from the edge to the centre (the white llamas' roads); mountain wedges are
grey-brown with a dark ridge (the black llamas' roads).  A road crosses between two tiles where
the wedges on both sides of the shared edge match.  Field numbers (11..95) are printed on every
field, as the move notation uses them.  The fields touched by the latest turn are outlined in
gold; rocks are grey stones on the tiles the last rotating player turned.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engines.pachakuna import data as D
from renderers.common import BACKGROUND, HIGHLIGHT, INK, MUTED, font, seat_name, text_size

R = 50  # hex radius (centre to corner) in pixels
SQ3 = math.sqrt(3)
BOARD_W = 880
PANEL_X = BOARD_W + 10
WIDTH = 1340
HEIGHT = 820
X0 = (BOARD_W - 9 * SQ3 * R) / 2 + SQ3 * R / 2 + 10
Y0 = 48 + R

COLOUR_RGB = {
    "white": (248, 248, 244),
    "yellow": (245, 205, 40),
    "orange": (240, 128, 30),
    "red": (206, 38, 44),
    "purple": (128, 60, 165),
    "blue": (38, 92, 205),
    "green": (38, 150, 62),
    "brown": (128, 78, 40),
}
VILLAGE_TINT = {k: tuple(int(c * 0.55 + 255 * 0.45) for c in v) for k, v in COLOUR_RGB.items()}
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


@lru_cache(maxsize=32)
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
    return img.resize((size // SS, size // SS), Image.LANCZOS)


@lru_cache(maxsize=1)
def _base() -> Image.Image:
    """The empty board: frame and background (static art)."""
    img = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
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
    dr.line([(PANEL_X, 10), (PANEL_X, HEIGHT - 10)], fill=(200, 195, 185), width=2)
    return img


def _llama(
    dr: ImageDraw.ImageDraw, x: float, y: float, seat: int, ident: int, load: str | None, dim: bool
) -> None:
    body = (250, 250, 250) if seat == 0 else (25, 25, 25)
    ink = (20, 20, 20) if seat == 0 else (250, 250, 250)
    rad = 15
    outline = (20, 20, 20) if seat == 0 else (240, 240, 240)
    # ears
    dr.polygon([(x - 10, y - 10), (x - 6, y - 24), (x - 1, y - 12)], fill=body, outline=outline)
    dr.polygon([(x + 1, y - 12), (x + 6, y - 24), (x + 10, y - 10)], fill=body, outline=outline)
    dr.ellipse((x - rad, y - rad, x + rad, y + rad), fill=body, outline=outline, width=2)
    dr.text((x, y + 1), str(ident), font=font(18, True), fill=ink, anchor="mm")
    if load:
        lx, ly = x + 13, y + 10
        dr.rectangle((lx - 8, ly - 8, lx + 8, ly + 8), fill=COLOUR_RGB[load], outline=(20, 20, 20), width=2)
    else:
        lx, ly = x + 13, y + 10
        dr.rectangle((lx - 8, ly - 8, lx + 8, ly + 8), fill=(225, 225, 225), outline=(120, 120, 120), width=1)
        dr.line([(lx - 5, ly + 5), (lx + 5, ly - 5)], fill=(120, 120, 120), width=2)
    if dim:
        pass


def _demand(dr: ImageDraw.ImageDraw, x: float, y: float, demand: str | None) -> None:
    if not demand:
        dr.text((x, y), "-", font=font(18, True), fill=MUTED, anchor="mm")
        return
    big, small = D.demand_colours(demand)
    dr.rectangle((x - 20, y - 11, x + 3, y + 11), fill=COLOUR_RGB[big], outline=INK, width=2)
    dr.rectangle((x + 7, y - 4, x + 20, y + 9), fill=COLOUR_RGB[small], outline=INK, width=2)


def render(view, *, names: Sequence[str] | None = None) -> bytes:
    img = _base().copy()
    dr = ImageDraw.Draw(img)
    tiles = dict(view.tiles)
    demands = dict(view.demands)
    rocks = set(view.rocks)
    marks = set(view.turn_cells or view.prev_cells)

    # tiles
    half = tile_sprite("N0").size[0] // 2
    for cell, code in tiles.items():
        cx, cy = centre(cell)
        sprite = tile_sprite(code)
        img.paste(sprite, (int(round(cx - half)), int(round(cy - half))), sprite)

    # villages
    for cell, colour in view.villages:
        cx, cy = centre(cell)
        pts = _corners(cx, cy, R - 1)
        dr.polygon(pts, fill=VILLAGE_TINT[colour], outline=INK, width=3)
        dr.polygon(
            _corners(cx, cy, R - 8),
            outline=COLOUR_RGB[colour] if colour != "white" else (150, 150, 150),
            width=4,
        )
        _demand(dr, cx, cy - 8, demands.get(cell))

    # field numbers
    f_num = font(18, True)
    for cell in D.CELLS:
        cx, cy = centre(cell)
        ty = cy - 35 if cell in D.VILLAGES else cy - 28
        w, h = text_size(dr, str(cell), f_num)
        dr.rounded_rectangle(
            (cx - w / 2 - 3, ty - 11, cx + w / 2 + 3, ty + 10),
            radius=4,
            fill=(255, 255, 255) if cell not in D.VILLAGES else (255, 255, 240),
        )
        dr.text((cx, ty), str(cell), font=f_num, fill=INK, anchor="mm")

    # rocks
    for cell in rocks:
        cx, cy = centre(cell)
        rx, ry = cx - 24, cy + 16
        dr.ellipse((rx - 15, ry - 11, rx + 15, ry + 11), fill=(118, 118, 124), outline=(20, 20, 20), width=3)
        dr.ellipse((rx - 8, ry - 7, rx + 1, ry - 2), fill=(185, 185, 190))

    # highlight of the latest turn
    for cell in marks:
        cx, cy = centre(cell)
        dr.polygon(_corners(cx, cy, R - 2), outline=HIGHLIGHT, width=5)

    # llamas
    by_cell: dict[int, list] = {}
    for lm in view.llamas:
        by_cell.setdefault(lm.cell, []).append(lm)
    for cell, group in by_cell.items():
        cx, cy = centre(cell)
        base_y = cy + 24 if cell in D.VILLAGES else cy + 6
        n = len(group)
        for i, lm in enumerate(sorted(group, key=lambda m: (m.seat, m.id))):
            dx = (i - (n - 1) / 2) * (34 if n <= 3 else 24)
            dy = 0 if n <= 3 else (-8 if i % 2 else 8)
            _llama(dr, cx + dx, base_y + dy, lm.seat, lm.id, lm.load, lm.stage == 3)

    _panel(img, dr, view, names)
    return _png(img)


def _png(img: Image.Image) -> bytes:
    """PNG bytes, reduced to a 128-colour palette: a third of the size and quicker to encode."""
    pal = img.quantize(128, method=Image.Quantize.FASTOCTREE)
    buf = io.BytesIO()
    pal.save(buf, format="PNG", compress_level=3)
    return buf.getvalue()


def _panel(img: Image.Image, dr: ImageDraw.ImageDraw, view, names) -> None:
    x = PANEL_X + 18
    y = 16
    dr.text(
        (x, y),
        f"P'achakuna · board {view.board} · turn {view.turn_number}"
        + (f"/{view.max_turns}" if view.max_turns else ""),
        font=font(20, True),
        fill=MUTED,
    )
    y += 30
    # status
    if view.phase == "over":
        if view.winner is not None:
            status = f"{seat_name(names, view.winner)} wins!"
        else:
            status = "Game over"
        dr.text((x, y), status, font=font(26, True), fill=(180, 30, 30))
        y += 34
        if view.end_reason:
            dr.text((x, y), view.end_reason, font=font(18), fill=INK)
            y += 26
    else:
        who = seat_name(names, view.turn)
        side = D.SEAT_NAMES[view.turn]
        dr.text((x, y), f"{who} ({side}) to play", font=font(24, True), fill=INK)
        y += 32
        if view.phase == "rotate":
            cost = "first one free" if view.rotation_cost == 0 else f"next costs {view.rotation_cost}"
            phase = f"turn tiles ({cost}) or act with llamas"
        else:
            phase = "move / sell / buy with llamas, then end"
        dr.text((x, y), phase, font=font(18), fill=INK)
        y += 28
    if view.seat is not None:
        dr.text((x, y), f"You play {D.SEAT_NAMES[view.seat]}", font=font(18, True), fill=(40, 90, 160))
        y += 26
    y += 6
    for seat in range(view.players):
        y = _player_box(dr, x, y, view, seat, names)
        y += 10
    # log
    if view.turn_log:
        log_title, log = "This turn:", view.turn_log
    else:
        log_title, log = "Last turn:", view.prev_log
    if log:
        dr.text((x, y), log_title, font=font(18, True), fill=INK)
        y += 24
        line = ""
        for mv in log:
            cand = (line + ", " + mv) if line else mv
            if text_size(dr, cand, font(18))[0] > WIDTH - x - 20:
                dr.text((x, y), line, font=font(18), fill=INK)
                y += 23
                line = mv
            else:
                line = cand
        if line:
            dr.text((x, y), line, font=font(18), fill=INK)
            y += 23
        y += 6
    if view.rocks and view.phase != "over":
        if view.phase == "rotate":
            note = f"Rocks: {', '.join(map(str, view.rocks))} (not turnable this turn)"
        else:
            note = f"Rocks: {', '.join(map(str, view.rocks))} (closed to the next player)"
        dr.text((x, y), note, font=font(18), fill=INK)
        y += 28
    # demands
    dr.text(
        (x, y), f"Bag: {view.bag_count} demands  ·  used: {len(view.used)}", font=font(18, True), fill=INK
    )
    y += 26
    ux = x
    for d in view.used[-24:]:
        big, small = D.demand_colours(d)
        dr.rectangle((ux, y, ux + 14, y + 18), fill=COLOUR_RGB[big], outline=INK)
        dr.rectangle((ux + 15, y + 6, ux + 23, y + 14), fill=COLOUR_RGB[small], outline=INK)
        ux += 28
        if ux > WIDTH - 40:
            ux = x
            y += 24
    y += 30
    # legend
    ly = HEIGHT - 148
    _demand(dr, x + 22, ly + 9, "RY")
    dr.text((x + 54, ly - 1), "demand: big flag 2, small 1", font=font(18), fill=INK)
    ly += 30
    dr.rectangle((x, ly, x + 26, ly + 18), fill=VALLEY)
    dr.line([(x, ly + 9), (x + 26, ly + 9)], fill=VALLEY_ROAD, width=6)
    dr.text((x + 34, ly - 1), "valley: White's road", font=font(18), fill=INK)
    ly += 26
    dr.rectangle((x, ly, x + 26, ly + 18), fill=MOUNTAIN)
    dr.line([(x, ly + 9), (x + 26, ly + 9)], fill=MOUNTAIN_RIDGE, width=4)
    dr.text((x + 34, ly - 1), "mountain: Black's road", font=font(18), fill=INK)
    ly += 30
    dr.text((x, ly), "r34+2 turn · m1-56 move · s1 sell", font=font(18), fill=MUTED)
    ly += 23
    dr.text((x, ly), "b1 buy · end · /ry pay cut-outs", font=font(18), fill=MUTED)


def _player_box(dr: ImageDraw.ImageDraw, x: float, y: float, view, seat: int, names) -> float:
    sup = dict(view.supply[seat])
    active = view.phase != "over" and view.turn == seat
    top = y
    h = 150
    dr.rounded_rectangle(
        (x - 8, top, WIDTH - 14, top + h),
        radius=10,
        fill=(255, 252, 238) if active else (244, 241, 234),
        outline=HIGHLIGHT if active else (200, 195, 185),
        width=4 if active else 2,
    )
    side = D.SEAT_NAMES[seat]
    body = (250, 250, 250) if seat == 0 else (25, 25, 25)
    dr.ellipse((x + 2, y + 10, x + 26, y + 34), fill=body, outline=INK, width=2)
    name = seat_name(names, seat)
    dr.text((x + 34, y + 9), f"{name}", font=font(22, True), fill=INK)
    dr.text(
        (x + 34, y + 35),
        f"{side} · {'valleys' if seat == 0 else 'mountains'} · colours {view.colours[seat]}/7",
        font=font(18),
        fill=INK,
    )
    y += 66
    cx = x + 4
    for colour in D.COLOURS:
        n = sup.get(colour, 0)
        if n:
            dr.ellipse((cx, y, cx + 34, y + 34), fill=COLOUR_RGB[colour], outline=INK, width=2)
            txt_fill = INK if colour in ("white", "yellow") else (255, 255, 255)
            dr.text((cx + 17, y + 17), str(n), font=font(18, True), fill=txt_fill, anchor="mm")
        else:
            ring = COLOUR_RGB[colour] if colour != "white" else (160, 160, 160)
            dr.ellipse((cx, y, cx + 34, y + 34), fill=(236, 232, 224), outline=ring, width=3)
        cx += 42
    n = sup.get("brown", 0)
    dr.rectangle(
        (cx + 2, y + 4, cx + 28, y + 30),
        fill=COLOUR_RGB["brown"] if n else (236, 232, 224),
        outline=INK,
        width=2,
    )
    dr.text((cx + 15, y + 17), str(n), font=font(18, True), fill=(255, 255, 255) if n else MUTED, anchor="mm")
    y += 44
    total = sum(sup.values())
    dr.text((x, y), f"loose {view.loose[seat]}/{total}", font=font(18), fill=INK)
    lx = x + 112
    for lm in sorted((m for m in view.llamas if m.seat == seat), key=lambda m: m.id):
        label = f"{lm.id}@{lm.cell}"
        dr.text((lx, y), label, font=font(18, True), fill=INK)
        lx += text_size(dr, label, font(18, True))[0] + 6
        fill = COLOUR_RGB[lm.load] if lm.load else (225, 225, 225)
        dr.rectangle((lx, y + 2, lx + 16, y + 18), fill=fill, outline=INK, width=2)
        if not lm.load:
            dr.line([(lx + 3, y + 15), (lx + 13, y + 5)], fill=(120, 120, 120), width=2)
        lx += 28
    return top + h
