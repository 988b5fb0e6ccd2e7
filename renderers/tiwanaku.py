"""Tiwanaku board image: the valley grid with regions, crops and explorers, and a player panel.

Region outlines are thick dark lines wherever two known cells differ in
terrain (and around the board); a border next to a hidden space is drawn thin
and dashed, since it is not known yet.  A seat's own picture adds what that
player peeked at on the disc (dashed, marked with an eye).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from renderers.common import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MUTED,
    font,
    seat_colour,
    seat_name,
    to_png,
)

CELL = 118
LABEL = 44
TOP = 112
MARGIN = 18
PANEL_W = 470

TERRAIN_COLOURS = {
    "S": (95, 170, 175),  # swamp: blue green
    "D": (236, 200, 120),  # desert: sand
    "M": (160, 145, 135),  # mountain: stone
    "F": (92, 150, 82),  # forest: green
}
TERRAIN_NAMES = {"S": "Swamp", "D": "Desert", "M": "Mountain", "F": "Forest"}
HIDDEN = (222, 216, 204)
HIDDEN_DOT = (200, 193, 180)
REGION_LINE = (30, 30, 30)
ROW_LETTERS = "ABCDE"


def _board_size(cols: int) -> tuple[int, int]:
    return LABEL + cols * CELL + LABEL // 2, LABEL + 5 * CELL + LABEL


@lru_cache(maxsize=4)
def _hidden_tile() -> Image.Image:
    """A hidden space: plain ground with a light dot pattern (drawn once)."""
    tile = Image.new("RGB", (CELL, CELL), HIDDEN)
    d = ImageDraw.Draw(tile)
    for y in range(10, CELL, 20):
        for x in range(10 + (y // 20 % 2) * 10, CELL, 20):
            d.ellipse((x - 2, y - 2, x + 2, y + 2), fill=HIDDEN_DOT)
    return tile


def _dashed(draw: ImageDraw.ImageDraw, a, b, fill, width=2, dash=8) -> None:
    (x0, y0), (x1, y1) = a, b
    length = max(abs(x1 - x0), abs(y1 - y0))
    if length == 0:
        return
    steps = int(length // dash)
    for k in range(0, steps, 2):
        t0 = k / steps
        t1 = min(1.0, (k + 1) / steps)
        draw.line(
            (x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0, x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1),
            fill=fill,
            width=width,
        )


def _darker(c, k=0.7):
    return tuple(int(v * k) for v in c)


def _pawn(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour, outline=INK) -> None:
    """An explorer: a head over a rounded body."""
    draw.ellipse(
        (cx - r * 0.45, cy - r * 1.05, cx + r * 0.45, cy - r * 0.15), fill=colour, outline=outline, width=2
    )
    draw.rounded_rectangle(
        (cx - r * 0.75, cy - r * 0.25, cx + r * 0.75, cy + r * 0.9),
        radius=int(r * 0.35),
        fill=colour,
        outline=outline,
        width=2,
    )


def _cube(draw: ImageDraw.ImageDraw, x: float, y: float, s: float, terrain: str) -> None:
    colour = TERRAIN_COLOURS[terrain]
    draw.rounded_rectangle((x, y, x + s, y + s), radius=4, fill=colour, outline=INK, width=2)
    draw.text((x + s / 2, y + s / 2), terrain, font=font(int(s * 0.55), True), fill=INK, anchor="mm")


def _cell_xy(cell: int, cols: int, ox: int, oy: int) -> tuple[int, int]:
    r, c = divmod(cell, cols)
    return ox + LABEL + c * CELL, oy + LABEL + r * CELL


def _draw_board(img: Image.Image, draw: ImageDraw.ImageDraw, view, ox: int, oy: int) -> None:
    cols = view.cols
    n = 5 * cols
    peeks = {int(k): v for k, v in (view.peeks or {}).items()}
    # terrain as this picture knows it (peeked terrain included, drawn differently)
    known = list(view.terrain)
    peeked_terrain = set()
    for c, seen in peeks.items():
        if not seen.isdigit() and known[c] is None:
            known[c] = seen
            peeked_terrain.add(c)

    lab = font(24, True)
    for c in range(cols):
        x = ox + LABEL + c * CELL + CELL // 2
        draw.text((x, oy + LABEL // 2), str(c + 1), font=lab, fill=INK, anchor="mm")
        draw.text((x, oy + LABEL + 5 * CELL + LABEL // 2), str(c + 1), font=lab, fill=INK, anchor="mm")
    for r in range(5):
        y = oy + LABEL + r * CELL + CELL // 2
        draw.text((ox + LABEL // 2, y), ROW_LETTERS[r], font=lab, fill=INK, anchor="mm")

    letter_font = font(22, True)
    crop_font = font(46, True)
    small = font(18, True)
    start = set(view.start_cells)
    for cell in range(n):
        x, y = _cell_xy(cell, cols, ox, oy)
        t = view.terrain[cell]
        if t is None and cell not in peeked_terrain:
            img.paste(_hidden_tile(), (x, y))
        elif t is None:
            # peeked terrain: faded colour, dashed frame, eye mark
            base = TERRAIN_COLOURS[known[cell]]
            faded = tuple((v + 2 * h) // 3 for v, h in zip(base, HIDDEN, strict=True))
            draw.rectangle((x, y, x + CELL, y + CELL), fill=faded)
            draw.text((x + 10, y + 8), known[cell], font=letter_font, fill=_darker(base, 0.55))
            draw.text((x + CELL - 10, y + 10), "seen", font=small, fill=INK, anchor="ra")
        else:
            draw.rectangle((x, y, x + CELL, y + CELL), fill=TERRAIN_COLOURS[t])
            draw.text((x + 10, y + 8), t, font=letter_font, fill=_darker(TERRAIN_COLOURS[t], 0.45))
        crop = view.crops[cell]
        cx, cy = x + CELL // 2, y + CELL // 2 - 4
        if crop is not None:
            draw.ellipse((cx - 31, cy - 31, cx + 31, cy + 31), fill=(252, 250, 244), outline=INK, width=3)
            draw.text((cx, cy + 1), str(crop), font=crop_font, fill=INK, anchor="mm")
            if cell in start:
                draw.text((x + CELL - 10, y + 8), "start", font=font(16), fill=INK, anchor="ra")
        elif cell in peeks and peeks[cell].isdigit():
            draw.ellipse((cx - 31, cy - 31, cx + 31, cy + 31), fill=(252, 250, 244))
            for k in range(0, 360, 30):
                draw.arc((cx - 31, cy - 31, cx + 31, cy + 31), k, k + 15, fill=INK, width=3)
            draw.text((cx, cy + 1), peeks[cell], font=crop_font, fill=MUTED, anchor="mm")
            draw.text((x + CELL - 10, y + 8), "seen", font=small, fill=INK, anchor="ra")
        seat = view.explorer[cell]
        if seat >= 0:
            _pawn(draw, x + CELL - 26, y + CELL - 30, 24, seat_colour(seat))

    # grid and region outlines
    def line(a, b, kind):
        if kind == "region":
            draw.line((*a, *b), fill=REGION_LINE, width=7)
        elif kind == "inside":
            draw.line((*a, *b), fill=(70, 70, 70), width=1)
        else:
            _dashed(draw, a, b, (120, 115, 105), width=2)

    def kind_between(a: int, b: int) -> str:
        ta, tb = known[a], known[b]
        if ta is None or tb is None:
            return "unknown"
        return "inside" if ta == tb else "region"

    thick = []
    for cell in range(n):
        r, c = divmod(cell, cols)
        x, y = _cell_xy(cell, cols, ox, oy)
        if c + 1 < cols:
            k = kind_between(cell, cell + 1)
            seg = ((x + CELL, y), (x + CELL, y + CELL))
            (thick.append(seg) if k == "region" else line(*seg, k))
        if r + 1 < 5:
            k = kind_between(cell, cell + cols)
            seg = ((x, y + CELL), (x + CELL, y + CELL))
            (thick.append(seg) if k == "region" else line(*seg, k))
    for a, b in thick:
        draw.line((*a, *b), fill=REGION_LINE, width=7)
    for a, b in thick:  # round the joints
        for px, py in (a, b):
            draw.rectangle((px - 3, py - 3, px + 3, py + 3), fill=REGION_LINE)
    x0, y0 = ox + LABEL, oy + LABEL
    draw.rectangle((x0 - 4, y0 - 4, x0 + cols * CELL + 4, y0 + 5 * CELL + 4), outline=REGION_LINE, width=8)

    # last move
    for cell in view.last_cells:
        x, y = _cell_xy(cell, cols, ox, oy)
        draw.rectangle((x + 6, y + 6, x + CELL - 6, y + CELL - 6), outline=HIGHLIGHT, width=6)


def _phase_text(view, names) -> str:
    if view.phase == "over":
        best = max(view.scores)
        top = [s for s in range(view.players) if view.scores[s] == best]
        if len(top) > 1:
            most = max(view.correct[s] for s in top)
            top = [s for s in top if view.correct[s] == most]
        if view.players == 1:
            return f"Game over - {best} points"
        return (
            "Game over - "
            + " and ".join(seat_name(names, s) for s in top)
            + (" win" if len(top) > 1 else " wins")
        )
    who = seat_name(names, view.turn)
    if view.phase == "final":
        return f"Final divinations - {who} to divine or pass"
    if view.phase == "divining":
        return f"{who} is divining (guess again or done)"
    extra = f" ({view.actions_left} actions)" if view.actions_left > 1 else ""
    return f"{who} to play{extra}"


def _draw_header(draw: ImageDraw.ImageDraw, view, names, width: int) -> None:
    draw.rectangle((0, 0, width, TOP - 14), fill=(60, 48, 40))
    draw.text((MARGIN, 12), "Tiwanaku", font=font(32, True), fill=(250, 236, 200))
    status = _phase_text(view, names)
    colour = seat_colour(view.turn) if view.phase != "over" else (250, 236, 200)
    draw.text((MARGIN + 214, 16), status, font=font(26, True), fill=(250, 250, 250))
    if view.phase != "over":
        draw.ellipse((MARGIN + 182, 20, MARGIN + 204, 42), fill=colour, outline=(250, 250, 250), width=2)
    info = f"Round {view.round}   Hidden spaces left: {view.empty_left}"
    if view.last:
        info += f"   Last: {seat_name(names, view.last_seat)} {view.last}"
    draw.text((MARGIN, 58), info, font=font(21), fill=(235, 225, 205))


PLAYER_H = 156


def _draw_player(draw: ImageDraw.ImageDraw, view, names, seat: int, x: int, y: int, w: int) -> int:
    """One player's block; returns its height."""
    h = PLAYER_H
    me = view.seat == seat
    active = view.phase != "over" and view.turn == seat
    draw.rounded_rectangle(
        (x, y, x + w, y + h - 10),
        radius=10,
        fill=(255, 253, 248),
        outline=seat_colour(seat) if active else (200, 195, 185),
        width=5 if active else 2,
    )
    colour = seat_colour(seat)
    _pawn(draw, x + 26, y + 34, 18, colour)
    name = seat_name(names, seat)[:18] + (" (you)" if me else "")
    draw.text((x + 52, y + 14), name, font=font(24, True), fill=INK)
    score = str(view.scores[seat])
    big = font(38, True)
    draw.text((x + w - 14, y + 8), score, font=big, fill=INK, anchor="ra")
    sw = draw.textlength(score, font=big)
    draw.text((x + w - 22 - sw, y + 24), "pts", font=font(18), fill=MUTED, anchor="ra")
    tags = []
    if view.phase == "final" and view.final_out[seat]:
        tags.append("OUT")
    if view.phase == "over" and view.cube_points[seat]:
        tags.append(f"+{view.cube_points[seat]} cubes")
    line2 = f"right {view.correct[seat]}  wrong {view.wrong[seat]}  off-board {view.reserve[seat]}"
    if view.peek_counts[seat]:
        line2 += f"  peeks {view.peek_counts[seat]}"
    draw.text((x + 14, y + 54), line2, font=font(18), fill=INK)
    if tags:
        nx = x + 52 + draw.textlength(name, font=font(24, True)) + 12
        draw.text((nx, y + 18), " ".join(tags), font=font(18, True), fill=(180, 40, 40))
    # cubes
    draw.text((x + 14, y + 104), "cubes", font=font(18), fill=MUTED)
    cx = x + 74
    for t, k in zip("SDMF", view.cubes[seat], strict=True):
        for _ in range(k):
            _cube(draw, cx, y + 98, 32, t)
            cx += 37
    if not sum(view.cubes[seat]):
        draw.text((cx, y + 104), "none", font=font(18), fill=MUTED)
    # diversity scales: five columns (crops 1-5) of five levels
    sx = x + w - 5 * 26 - 10
    draw.text((sx - 8, y + 110), "diversity", font=font(17), fill=MUTED, anchor="ra")
    for k in range(5):
        level = view.scales[seat][k]
        colx = sx + k * 26
        for lv in range(1, 6):
            top = y + 138 - lv * 8
            fill = colour if lv <= level else (232, 228, 220)
            draw.rectangle((colx, top, colx + 20, top + 6), fill=fill)
        draw.text((colx + 10, y + 96), str(k + 1), font=font(16, True), fill=INK, anchor="mb")
    return h


def _draw_legend(draw: ImageDraw.ImageDraw, view, x: int, y: int, item_w: int, per_row: int) -> int:
    draw.text((x, y), "Terrain cells on the map:", font=font(20, True), fill=INK)
    y += 30
    for k, t in enumerate("SDMF"):
        cx = x + (k % per_row) * item_w
        cy = y + (k // per_row) * 34
        draw.rectangle((cx, cy, cx + 26, cy + 26), fill=TERRAIN_COLOURS[t], outline=INK, width=2)
        draw.text((cx + 13, cy + 13), t, font=font(16, True), fill=INK, anchor="mm")
        draw.text(
            (cx + 34, cy + 1), f"{TERRAIN_NAMES[t]} {view.terrain_totals.get(t, 0)}", font=font(20), fill=INK
        )
    return 30 + 34 * ((4 + per_row - 1) // per_row) + 6


def render(view, *, names: Sequence[str] | None = None) -> bytes:
    cols = view.cols
    bw, bh = _board_size(cols)
    players = view.players
    side = cols <= 5
    if side:
        width = MARGIN + bw + MARGIN + PANEL_W + MARGIN
        panel_h = 110 + players * PLAYER_H
        height = TOP + max(bh, panel_h) + MARGIN
    else:
        width = MARGIN + bw + MARGIN
        rows = (players + 1) // 2
        height = TOP + bh + 10 + 70 + rows * PLAYER_H + MARGIN
    img = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    _draw_header(draw, view, names, width)
    _draw_board(img, draw, view, MARGIN, TOP)
    if side:
        px, py = MARGIN + bw + MARGIN, TOP + 8
        py += _draw_legend(draw, view, px, py, PANEL_W // 2, 2)
        for seat in range(players):
            py += _draw_player(draw, view, names, seat, px, py, PANEL_W)
    else:
        px, py = MARGIN + LABEL, TOP + bh + 6
        py += _draw_legend(draw, view, px, py, (bw - LABEL) // 4, 4)
        colw = (bw - LABEL - 10) // 2
        for seat in range(players):
            col, row = seat % 2, seat // 2
            _draw_player(draw, view, names, seat, px + col * (colw + 10), py + row * PLAYER_H, colw)
    return to_png(img)
