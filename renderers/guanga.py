"""The Guanga board as a PNG: market, basket, workshop and every player's guanga.

Patches are drawn as squares in their colour with a white (or dark, on yellow)
glyph for their symbol: chakana = stepped cross, inti = sun with rays,
amaru = zigzag serpent, kuntur = spread wings, rombo = diamond.  Stack heights
show as a small number in a cell's corner; stoppers as a dark crossed block.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engines.guanga import data as D
from renderers.common import (
    BACKGROUND,
    INK,
    MUTED,
    font,
    seat_name,
    to_png,
)

WIDTH = 1300
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
LAST_MOVE = (230, 30, 200)  # magenta: stands out on every patch colour
ROWS = "ABCDE"
MODE_NAMES = {"beginner": "Beginner", "apprentice": "Apprentice", "master": "Master", "artisan": "Artisan"}
PHASE_TEXT = {
    "order": "choosing secret orders",
    "place1": "takes the 1st patch",
    "place2": "takes the 2nd patch",
    "claim": "may claim a market item",
    "return": "returns 2 patches of the claim",
    "extra": "places the blanket's extra patch",
    "after": "may spend shells or end the turn",
    "over": "game over",
}


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


@lru_cache(maxsize=256)
def _patch_tile(colour: str, symbol: str, size: int) -> Image.Image:
    """A square patch tile, drawn at 3x and scaled down for smooth edges."""
    big = size * 3
    img = Image.new("RGB", (big, big), PATCH_RGB[colour])
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, big - 1, big - 1), outline=(60, 40, 30), width=3)
    # a woven border
    d.rectangle((6, 6, big - 7, big - 7), outline=tuple(max(0, v - 40) for v in PATCH_RGB[colour]), width=3)
    m = big * 0.2
    _draw_glyph(d, symbol, (m, m, big - m, big - m), GLYPH_INK[colour], PATCH_RGB[colour])
    return img.resize((size, size), Image.LANCZOS)


@lru_cache(maxsize=64)
def _glyph_icon(symbol: str, size: int, ink: tuple[int, int, int] = INK) -> Image.Image:
    big = size * 3
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    _draw_glyph(ImageDraw.Draw(img), symbol, (big * 0.08, big * 0.08, big * 0.92, big * 0.92), ink)
    return img.resize((size, size), Image.LANCZOS)


def _paste_patch(img: Image.Image, patch: str, x: int, y: int, size: int) -> None:
    colour, symbol = patch.split("/")
    img.paste(_patch_tile(colour, symbol, size), (x, y))


# --------------------------------------------------------------------------- pieces


def _text(draw, xy, text, size=18, bold=False, fill=INK, anchor="la"):
    draw.text(xy, text, font=font(size, bold), fill=fill, anchor=anchor)


def _fit(draw, text: str, size: int, width: int, bold=False) -> str:
    f = font(size, bold)
    if draw.textlength(text, font=f) <= width:
        return text
    while text and draw.textlength(text + "…", font=f) > width:
        text = text[:-1]
    return text + "…"


def _draw_card(img, draw, card, x: int, y: int, w: int, h: int, lit: bool) -> None:
    draw.rounded_rectangle(
        (x, y, x + w, y + h),
        radius=8,
        fill=(255, 252, 244),
        outline=LAST_MOVE if lit else (120, 100, 80),
        width=4 if lit else 2,
    )
    draw.rounded_rectangle((x, y, x + w, y + 28), radius=8, fill=LEVEL_RGB[card.level])
    draw.rectangle((x, y + 18, x + w, y + 28), fill=LEVEL_RGB[card.level])
    _text(draw, (x + 6, y + 5), card.id, 18, True, (255, 255, 255))
    _text(draw, (x + w - 6, y + 6), f"{card.vp} VP", 16, True, (255, 255, 255), anchor="ra")
    rows = card.shape
    nr, nc = len(rows), max(len(r) for r in rows)
    cell = min(20, 82 // max(nr, nc))
    gx = x + (w - cell * nc) // 2
    gy = y + 33 + (82 - cell * nr) // 2
    rgb = PATCH_RGB[card.colour]
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            box = (gx + c * cell, gy + r * cell, gx + (c + 1) * cell - 1, gy + (r + 1) * cell - 1)
            if ch == "#":
                draw.rectangle(box, fill=rgb, outline=(50, 35, 25))
            else:
                draw.rectangle(box, outline=(215, 205, 190))
    # the two ways to claim: the colour or the symbol
    by = y + 118
    draw.rectangle((x + 10, by, x + 40, by + 30), fill=rgb, outline=(50, 35, 25))
    _text(draw, (x + w // 2, by + 15), "or", 16, False, MUTED, anchor="mm")
    img.paste(_glyph_icon(card.symbol, 30), (x + w - 42, by), _glyph_icon(card.symbol, 30))
    _text(draw, (x + w // 2, y + h - 40), _fit(draw, card.name, 15, w - 8), 15, False, INK, anchor="ma")
    _text(
        draw,
        (x + w // 2, y + h - 20),
        _fit(draw, f"{card.flag} {card.typology}", 15, w - 8),
        15,
        False,
        MUTED,
        anchor="ma",
    )


def _draw_board(img, draw, view, p, x: int, y: int, cell: int) -> None:
    side = view.side
    bw = cell * 5
    draw.rectangle((x - 6, y - 6, x + bw + 6, y + bw + 6), fill=BOARD_BG.get(side, BOARD_BG["A"]))
    lit = {c for s, c in view.highlight if s == p.seat}
    pending = set(view.pending["cells"]) if view.pending and view.turn == p.seat else set()
    stoppers = set(p.stoppers)
    small = font(15, True)
    for r in range(5):
        _text(draw, (x - 12, y + r * cell + cell // 2), ROWS[r], 20, True, INK, anchor="rm")
    for c in range(5):
        _text(draw, (x + c * cell + cell // 2, y - 10), str(c + 1), 20, True, INK, anchor="md")
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
            _paste_patch(img, patch, cx + 1, cy + 1, cell - 2)
        h = p.heights[i]
        if h > 1:
            draw.ellipse((cx + cell - 22, cy + 2, cx + cell - 3, cy + 21), fill=(255, 255, 255), outline=INK)
            draw.text((cx + cell - 12.5, cy + 11.5), str(h), font=small, fill=INK, anchor="mm")
        if i in stoppers:
            draw.rectangle((cx + 6, cy + 6, cx + cell - 7, cy + cell - 7), fill=(35, 35, 35))
            draw.line((cx + 10, cy + 10, cx + cell - 11, cy + cell - 11), fill=(230, 230, 230), width=3)
            draw.line((cx + cell - 11, cy + 10, cx + 10, cy + cell - 11), fill=(230, 230, 230), width=3)
        if i in pending:
            draw.rectangle((cx + 1, cy + 1, cx + cell - 2, cy + cell - 2), outline=(255, 255, 255), width=3)
        if i in lit:
            draw.rectangle((cx - 1, cy - 1, cx + cell, cy + cell), outline=LAST_MOVE, width=5)
            draw.rectangle((cx + 4, cy + 4, cx + cell - 5, cy + cell - 5), outline=(255, 255, 255), width=1)


def _order_text(oid: str) -> str:
    for o in D.ORDERS:
        if o[0] == oid:
            return f"{o[0]}: {o[1]} {o[2]} / {o[3]} {o[4]}"
    return oid


def _draw_player(img, draw, view, p, names, x: int, y: int, w: int, h: int) -> None:
    active = not view.finished and p.seat in view.to_move
    colour = PATCH_RGB[p.colour]
    draw.rounded_rectangle(
        (x, y, x + w, y + h),
        radius=10,
        fill=(255, 253, 247),
        outline=colour if active else (200, 190, 175),
        width=5 if active else 2,
    )
    name = seat_name(names, p.seat)
    if view.seat == p.seat:
        name += " (you)"
    draw.rectangle((x + 12, y + 12, x + 34, y + 34), fill=colour, outline=INK)
    _text(draw, (x + 44, y + 10), _fit(draw, name, 22, w - 190, True), 22, True)
    total = p.score["total"]
    label = f"{total} VP" if view.finished or p.score["orders"] != "?" else f"{total} VP + order"
    _text(draw, (x + w - 14, y + 10), label, 22, True, anchor="ra")
    if active:
        ink = tuple(int(v * 0.7) for v in colour) if p.colour == "yellow" else colour
        _text(draw, (x + 44, y + 38), "▶ " + PHASE_TEXT.get(view.phase, view.phase), 18, True, ink)
    cell = 54
    bx, by = x + 40, y + 92
    _draw_board(img, draw, view, p, bx, by, cell)
    # the right column: score details, cards, shells, order
    tx = bx + cell * 5 + 22
    ty = y + 70
    sc = p.score
    lines = [f"Cards: {sc['market']} VP"]
    if view.mode != "beginner":
        lines.append(f"Shells: {p.shells}  (+{sc['shells']} VP)")
        if view.players > 1:
            lines.append(f"Order: {sc['orders']} VP" if sc["orders"] != "?" else "Order: secret")
    lines.append(f"Empty cells: -{sc['penalty']}")
    if sc["tile"]:
        lines.append(f"Complete tile: +{sc['tile']}")
    if view.stoppers_variant:
        lines.append(f"Stoppers left: {p.stoppers_left}")
    for line in lines:
        _text(draw, (tx, ty), line, 18)
        ty += 25
    if p.claimed:
        ty += 4
        _text(draw, (tx, ty), "Claimed:", 18, True)
        ty += 24
        ids = list(p.claimed)
        per_line = max(1, (x + w - tx - 8) // 48)
        for k in range(0, len(ids), per_line):
            _text(draw, (tx, ty), " ".join(ids[k : k + per_line]), 18, False, MUTED)
            ty += 22
    if view.seat == p.seat and view.dealt_orders:
        ty = y + h - 30 - 24 * len(view.dealt_orders)
        _text(draw, (tx, ty), "Keep one order:", 18, True, (120, 60, 20))
        for k, oid in enumerate(view.dealt_orders):
            _text(
                draw,
                (tx, ty + 24 * (k + 1)),
                _fit(draw, "keep " + _order_text(oid), 18, x + w - tx - 8),
                18,
                False,
                (120, 60, 20),
            )
    elif p.order is not None and p.order != "?":
        ty = max(ty + 6, y + h - 58)
        _text(draw, (tx, ty), "Order" + (" (secret)" if not view.finished else "") + ":", 18, True)
        _text(
            draw,
            (tx, ty + 22),
            _fit(draw, _order_text(p.order), 18, x + w - tx - 8),
            18,
            False,
            (120, 60, 20),
        )


def _draw_markers(img, draw, view, x: int, y: int) -> int:
    _text(draw, (x, y), f"Workshop: {view.visible_markers} face up", 20, True)
    if view.end_at is not None:
        note = "END TRIGGERED: finishing the round" if view.end_triggered else f"ends at {view.end_at}"
        _text(
            draw,
            (x + 300, y + 2),
            note,
            18,
            view.end_triggered,
            (190, 40, 40) if view.end_triggered else MUTED,
        )
    yy = y + 30
    xx = x
    for name in (*D.COLOURS, *D.SYMBOLS, "grey"):
        total = view.markers_total.get(name, 0)
        if total == 0:
            continue
        up = view.markers.get(name, 0)
        box = (xx, yy, xx + 40, yy + 40)
        if name in PATCH_RGB:
            draw.rounded_rectangle(
                box, radius=6, fill=PATCH_RGB[name] if up else (215, 215, 215), outline=INK
            )
        elif name == "grey":
            draw.rounded_rectangle(box, radius=6, fill=GREY if up else (225, 225, 225), outline=INK)
        else:
            draw.rounded_rectangle(
                box, radius=6, fill=(255, 250, 235) if up else (215, 215, 215), outline=INK
            )
            icon = _glyph_icon(name, 32, INK if up else (160, 160, 160))
            img.paste(icon, (xx + 4, yy + 4), icon)
        _text(draw, (xx + 20, yy + 44), f"{up}/{total}", 16, True, INK if up else MUTED, anchor="ma")
        xx += 52
    return yy + 66


def render(view, *, names: Sequence[str] | None = None) -> bytes:
    n = view.players
    cols = 1 if n == 1 else 2
    rows_ = (n + cols - 1) // cols
    panel_w = (WIDTH - 30) // cols - (0 if cols == 1 else 5)
    if cols == 1:
        panel_w = 720
    panel_h = 400
    market_y = 78
    card_w, card_h = 110, 200
    mid_y = market_y + 30 + card_h + 16
    boards_y = mid_y + 150
    height = boards_y + rows_ * (panel_h + 12) + 10
    img = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(img)

    # header
    mode = MODE_NAMES.get(view.mode, view.mode)
    title = f"Guanga: Tejidos Andinos  ·  {mode} mode (side {view.side})"
    if view.stoppers_variant:
        title += " + stoppers"
    if n == 1:
        title += "  ·  solo"
    _text(draw, (16, 10), title, 26, True)
    if view.finished:
        scores = view.final_scores or ()
        best = max(scores) if scores else 0
        winners = [seat_name(names, i) for i, s in enumerate(scores) if s == best]
        status = f"Game over: {view.end_reason}. "
        if n == 1:
            status += f"Score {scores[0]}: rank {view.solo_rank}"
        else:
            status += ("Winner: " if len(winners) == 1 else "Shared: ") + ", ".join(winners)
        _text(draw, (16, 44), _fit(draw, status, 20, WIDTH - 40, True), 20, True, (150, 40, 40))
    else:
        if view.phase == "order":
            status = "Everyone keeps one of two secret orders"
        else:
            status = f"{seat_name(names, view.turn)} {PHASE_TEXT.get(view.phase, view.phase)}"
        if view.phase == "return" and view.pending:
            cells = " ".join(f"{ROWS[c // 5]}{c % 5 + 1}" for c in view.pending["cells"])
            status += f" (2 of {cells})"
        if view.last:
            who = seat_name(names, view.last_seat) if view.last_seat is not None else ""
            status += f"   ·   last: {who} {view.last}"
        _text(draw, (16, 44), _fit(draw, status, 20, WIDTH - 40), 20, False)

    # market
    decks = "  ".join(f"{D.LEVEL_NAMES[k]} {v}" for k, v in view.decks.items())
    _text(draw, (16, market_y), "Market", 22, True)
    _text(draw, (110, market_y + 3), f"cards left in decks: {decks}", 18, False, MUTED)
    pending_card = view.pending["card"] if view.pending else None
    last_card = None
    if view.last and view.last.startswith("C "):
        last_card = view.last.split()[1]
    x = 16
    gap = min(8, (WIDTH - 32 - card_w * len(view.market)) // max(1, len(view.market) - 1))
    for card in view.market:
        if card is None:
            draw.rounded_rectangle(
                (x, market_y + 30, x + card_w, market_y + 30 + card_h),
                radius=8,
                outline=(200, 190, 175),
                width=2,
            )
            _text(
                draw, (x + card_w // 2, market_y + 30 + card_h // 2), "empty", 18, False, MUTED, anchor="mm"
            )
        else:
            _draw_card(
                img, draw, card, x, market_y + 30, card_w, card_h, card.id in (pending_card, last_card)
            )
        x += card_w + gap

    # basket and supply
    _text(draw, (16, mid_y), "Basket", 22, True)
    _text(draw, (110, mid_y + 3), f"pile {view.pile}  ·  bag {view.bag}", 18, False, MUTED)
    size = 62
    for i, patch in enumerate(view.basket):
        bx = 16 + i * (size + 10)
        by = mid_y + 56
        _text(draw, (bx + size // 2, mid_y + 32), str(i + 1), 20, True, anchor="ma")
        if patch is None:
            draw.rectangle((bx, by, bx + size, by + size), outline=(190, 180, 165), width=2)
        else:
            _paste_patch(img, patch, bx, by, size)
    if view.first_patch:
        _text(
            draw,
            (16, mid_y + 124),
            f"1st patch taken: {view.first_patch.replace('/', ' ')}: the 2nd must "
            "differ in colour and symbol",
            16,
            False,
            MUTED,
        )
    mx = 16 + 8 * (size + 10) + 20
    _draw_markers(img, draw, view, mx, mid_y)
    lx = mx
    for sym in D.SYMBOLS:
        icon = _glyph_icon(sym, 22)
        img.paste(icon, (lx, mid_y + 118), icon)
        _text(draw, (lx + 26, mid_y + 119), sym, 17, False, MUTED)
        lx += 30 + int(draw.textlength(sym, font=font(17))) + 14

    # guangas
    for k, p in enumerate(view.guangas):
        r, c = divmod(k, cols)
        px = 15 + c * (panel_w + 10)
        py = boards_y + r * (panel_h + 12)
        _draw_player(img, draw, view, p, names, px, py, panel_w, panel_h)
    if n == 1:
        _draw_solo_ranks(draw, 15 + panel_w + 20, boards_y)
    return to_png(img)


def _draw_solo_ranks(draw, x: int, y: int) -> None:
    _text(draw, (x, y), "Solo ranks", 22, True)
    rows = [("0-39", D.SOLO_LOWEST_RANK)]
    bounds = sorted(D.SOLO_RANKS)
    for i, (low, name) in enumerate(bounds):
        high = bounds[i + 1][0] - 1 if i + 1 < len(bounds) else None
        rows.append((f"{low}-{high}" if high else f"{low}+", name))
    for k, (pts, name) in enumerate(rows):
        _text(draw, (x, y + 34 + k * 28), f"{pts:>7}  {name}", 18)
