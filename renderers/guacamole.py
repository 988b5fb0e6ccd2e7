"""Guacamole board renderer: piles, every player's zone and dishes, and the seat's hand.

Each card shows its number, its type (colour, letter and name) and its ability word.  Every
visible card carries the notation that names it in moves (``p2z5T``, ``p2d1``, ``x1``), and the
seat view adds the hand with each card's code (``prep 5T``).  Cards are drawn once per size and
pasted (module-level cache).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engines.guacamole.data import TYPE_NAMES, dish_kind, dish_points, is_guacamole
from engines.guacamole.rules import DishView
from renderers.common import BACKGROUND, HIGHLIGHT, INK, MUTED, font, seat_colour, seat_name, to_png

WIDTH = 1400
BIG = (110, 150)
SMALL = (92, 124)
PAD = 12

TYPE_COLOURS = {
    "P": ((46, 125, 50), (255, 255, 255)),
    "L": ((196, 206, 40), (33, 33, 33)),
    "O": ((123, 75, 160), (255, 255, 255)),
    "T": ((200, 45, 45), (255, 255, 255)),
    "A": ((236, 118, 18), (255, 255, 255)),
}
SHORT = {"P": "Avocaldo", "L": "Lima", "O": "Onion", "T": "Tomathor", "A": "Aji"}
POWER = {"P": "+3 dish", "L": "steal", "O": "draw 3", "T": "swap", "A": "take"}
LEGEND = {
    "P": "add up to 3 cards to a valid dish",
    "L": "random card from a player's hand",
    "O": "draw 3, then discard 1",
    "T": "swap your card with a visible one",
    "A": "take a visible card into hand",
}
GOOD = (30, 130, 60)
BAD = (190, 40, 40)
PANEL = (255, 255, 255)
KIND_WORD = {"number": "same no.", "type": "same type", "straight": "run"}


@lru_cache(maxsize=256)
def card_image(code: str, size: tuple[int, int]) -> Image.Image:
    """One card face, drawn once per code and size."""
    w, h = size
    img = Image.new("RGBA", size, (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    fill, ink = TYPE_COLOURS[code[1]]
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=10, fill=fill, outline=(30, 30, 30), width=2)
    big = w >= BIG[0]
    d.text((8, 2), code[0], font=font(46 if big else 38, True), fill=ink)
    d.text((w - 8, 6), code[1], font=font(26 if big else 22, True), fill=ink, anchor="ra")
    # a light band for the ability word
    band_y = h * 0.52
    d.rectangle((3, band_y, w - 4, band_y + (26 if big else 22)), fill=(255, 255, 255, 235))
    d.text(
        (w / 2, band_y + (13 if big else 11)),
        POWER[code[1]],
        font=font(18 if big else 16, True),
        fill=(30, 30, 30),
        anchor="mm",
    )
    d.text(
        (w / 2, h - (16 if big else 14)),
        SHORT[code[1]],
        font=font(18 if big else 16, True),
        fill=ink,
        anchor="mm",
    )
    return img


@lru_cache(maxsize=4)
def card_back(size: tuple[int, int]) -> Image.Image:
    w, h = size
    img = Image.new("RGBA", size, (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=10, fill=(90, 70, 50), outline=(30, 30, 30), width=2)
    d.rounded_rectangle((8, 8, w - 9, h - 9), radius=8, outline=(220, 190, 120), width=3)
    d.text((w / 2, h / 2), "G", font=font(48, True), fill=(220, 190, 120), anchor="mm")
    return img


def _strip(code: str, w: int) -> Image.Image:
    return _strip_cached(code, w)


@lru_cache(maxsize=256)
def _strip_cached(code: str, w: int) -> Image.Image:
    img = Image.new("RGBA", (w, 22), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    fill, ink = TYPE_COLOURS[code[1]]
    d.rounded_rectangle((0, 0, w - 1, 30), radius=8, fill=fill, outline=(30, 30, 30), width=2)
    d.text((8, 11), f"{code}  {SHORT[code[1]]}", font=font(16, True), fill=ink, anchor="lm")
    return img


class _Board:
    def __init__(self, view, names) -> None:
        self.v = view
        self.names = names
        self.boxes: dict[str, tuple[int, int, int, int]] = {}
        self.ops: list = []  # deferred drawing, once the height is known

    def name(self, seat: int) -> str:
        return seat_name(self.names, seat)


def _text_width(text: str, fnt) -> int:
    left, _, right, _ = fnt.getbbox(text)
    return int(right - left)


def _fit_text(text: str, fnt, width: int) -> str:
    if _text_width(text, fnt) <= width:
        return text
    while text and _text_width(text + "…", fnt) > width:
        text = text[:-1]
    return text + "…"


def _dish_block_height(dish) -> int:
    lower = max(0, len(dish.cards) - 1)
    return 24 + min(lower, 3) * 20 + SMALL[1] + 56


def render(view, *, names: Sequence[str] | None = None) -> bytes:
    """The board as PNG bytes; a seat's view adds its hand."""
    v = view
    n = v.players
    dish_w = 136
    dishes_x = 600
    per_row = (WIDTH - dishes_x - PAD) // dish_w

    # ---------------------------------------------------------------- measure
    header_h = 128
    piles_h = BIG[1] + 60
    row_heights = []
    all_dishes = [list(v.dishes[p]) for p in range(n)]
    if v.building and v.turn is not None:
        b = tuple(v.building)
        kind = dish_kind(b)
        all_dishes[v.turn].append(DishView(b, kind, kind is not None, is_guacamole(b), dish_points(b)))
    for p in range(n):
        dishes = all_dishes[p]
        rows = [dishes[i : i + per_row] for i in range(0, len(dishes), per_row)] or [()]
        h = 0
        for r in rows:
            h += max([_dish_block_height(d) for d in r] + [SMALL[1] + 74])
        row_heights.append(max(h, 190) + 12)
    hand_h = 0
    hand = v.hand if v.seat is not None else None
    hand_cols = (WIDTH - 2 * PAD) // (BIG[0] + 8)
    if hand is not None:
        hand_rows = max(1, -(-len(hand) // hand_cols))
        hand_h = 56 + hand_rows * (BIG[1] + 40) + 10
    height = header_h + piles_h + sum(row_heights) + hand_h + 2 * PAD

    img = Image.new("RGB", (WIDTH, height), BACKGROUND)
    d = ImageDraw.Draw(img)
    boxes: dict[str, tuple[int, int, int, int]] = {}

    def paste_card(code: str | None, x: int, y: int, size=SMALL, place: str | None = None) -> None:
        if code is None:
            d.rounded_rectangle((x, y, x + size[0] - 1, y + size[1] - 1), radius=10, outline=MUTED, width=2)
        else:
            face = card_image(code, size)
            img.paste(face, (x, y), face)
        if place:
            boxes[place] = (x, y, x + size[0], y + size[1])

    # ---------------------------------------------------------------- header
    y = PAD
    if v.over:
        win = " and ".join(f"P{p + 1} {seat_name(names, p)}" for p in v.winners)
        title = f"Guacamole — game over: {win} {'share the win' if len(v.winners) > 1 else 'wins'}"
        step = "Final scores are shown for each player."
    else:
        title = f"Guacamole — turn {v.turn_number}: P{v.turn + 1} {seat_name(names, v.turn)} to play"
        step = "Now: " + v.step
    if v.end_triggered and not v.over:
        title += "  (last round)"
    d.text((PAD, y), _fit_text(title, font(30, True), WIDTH - 2 * PAD), font=font(30, True), fill=INK)
    y += 40
    d.text((PAD, y), _fit_text(step, font(20), WIDTH - 2 * PAD), font=font(20), fill=INK)
    y += 30
    if v.turn_moves:
        last = f"This turn: {', '.join(v.turn_moves)}"
    elif v.prev_turn and v.prev_seat is not None:
        last = f"Last turn, P{v.prev_seat + 1} {seat_name(names, v.prev_seat)}: {', '.join(v.prev_turn)}"
    else:
        last = "First turn of the game."
    d.text((PAD, y), _fit_text(last, font(20, True), WIDTH - 2 * PAD), font=font(20, True), fill=(90, 60, 20))
    y = header_h

    # ---------------------------------------------------------------- piles and legend
    x = PAD
    d.text((x, y), f"deck · {v.deck_size}", font=font(20, True), fill=INK)
    if v.deck_size:
        back = card_back(BIG)
        img.paste(back, (x, y + 28), back)
    else:
        paste_card(None, x, y + 28, BIG)
        d.text((x + BIG[0] / 2, y + 28 + BIG[1] / 2), "empty", font=font(18), fill=MUTED, anchor="mm")
    for k in range(2):
        x = PAD + (k + 1) * (BIG[0] + 30)
        d.text((x, y), f"x{k + 1} · {v.discard_sizes[k]}", font=font(20, True), fill=INK)
        paste_card(v.discard_tops[k], x, y + 28, BIG, place=f"x{k + 1}")
        if v.discard_tops[k] is None:
            d.text((x + BIG[0] / 2, y + 28 + BIG[1] / 2), "empty", font=font(18), fill=MUTED, anchor="mm")
    lx = PAD + 3 * (BIG[0] + 30) + 20
    d.text((lx, y), "Cards: number · type · power when prepared", font=font(20, True), fill=INK)
    for i, t in enumerate("PLOTA"):
        ly = y + 32 + i * 31
        fill, ink = TYPE_COLOURS[t]
        d.rounded_rectangle((lx, ly, lx + 34, ly + 26), radius=6, fill=fill, outline=(30, 30, 30))
        d.text((lx + 17, ly + 13), t, font=font(18, True), fill=ink, anchor="mm")
        d.text((lx + 46, ly + 2), f"{TYPE_NAMES[t]}: {LEGEND[t]}", font=font(19), fill=INK)
    y += piles_h

    # ---------------------------------------------------------------- players
    for p in range(n):
        rh = row_heights[p]
        colour = seat_colour(p)
        top = y
        active = not v.over and v.turn == p
        d.rounded_rectangle(
            (PAD // 2, top, WIDTH - PAD // 2, top + rh - 8),
            radius=12,
            fill=PANEL,
            outline=colour,
            width=5 if active else 2,
        )
        d.rectangle((PAD // 2 + 3, top + 3, PAD // 2 + 12, top + rh - 11), fill=colour)
        ix = 30
        d.text((ix, top + 10), f"P{p + 1}", font=font(30, True), fill=colour)
        nm = _fit_text(seat_name(names, p) + (" (you)" if v.seat == p else ""), font(20, True), 150)
        d.text((ix + 58, top + 16), nm, font=font(20, True), fill=INK)
        d.text((ix, top + 52), f"score {v.scores[p]}", font=font(26, True), fill=INK)
        d.text(
            (ix, top + 88),
            f"hand: {v.hand_sizes[p]} card{'' if v.hand_sizes[p] == 1 else 's'}",
            font=font(19),
            fill=INK,
        )
        nd = sum(1 for dv in v.dishes[p] if dv.cards)
        d.text((ix, top + 114), f"dishes: {nd}", font=font(19), fill=INK)
        if active:
            d.text((ix, top + 144), "▶ to play", font=font(22, True), fill=colour)
        if v.over and p in v.winners:
            d.text((ix, top + 144), "★ winner", font=font(22, True), fill=(200, 140, 0))

        # zone
        zx = 232
        zone = v.prep[p]
        d.text((zx, top + 10), f"zone {len(zone)}/4", font=font(20, True), fill=INK)
        for i in range(4):
            cx = zx + i * (SMALL[0] + 0)
            if i < len(zone):
                place = f"p{p + 1}z{zone[i]}"
                paste_card(zone[i], cx, top + 40, SMALL, place=None)
                boxes.setdefault(place, (cx, top + 40, cx + SMALL[0], top + 40 + SMALL[1]))
                d.text(
                    (cx + SMALL[0] / 2, top + 40 + SMALL[1] + 14), place, font=font(18), fill=INK, anchor="mm"
                )
            else:
                d.rounded_rectangle(
                    (cx + 3, top + 43, cx + SMALL[0] - 4, top + 40 + SMALL[1] - 4),
                    radius=8,
                    outline=(200, 200, 200),
                    width=2,
                )

        # dishes
        dishes = all_dishes[p]
        n_real = len(v.dishes[p])
        if not dishes:
            d.text((dishes_x, top + 10), "no dishes yet", font=font(20), fill=MUTED)
        ry = top + 8
        for r0 in range(0, max(1, len(dishes)), per_row):
            chunk = dishes[r0 : r0 + per_row]
            rowh = max([_dish_block_height(dv) for dv in chunk] + [SMALL[1] + 74])
            for j, dv in enumerate(chunk):
                k = r0 + j + 1
                bx = dishes_x + j * dish_w
                building = k > n_real
                place = "build" if building else f"p{p + 1}d{k}"
                d.text(
                    (bx, ry),
                    "new dish" if building else place,
                    font=font(19, True),
                    fill=(200, 110, 0) if building else INK,
                )
                if not building:
                    d.text(
                        (bx + dish_w - 14, ry),
                        f"{dv.points}pt",
                        font=font(19, True),
                        fill=GOOD if dv.valid else MUTED,
                        anchor="ra",
                    )
                lower = list(dv.cards[:-1])
                shown = lower[-3:]
                sy = ry + 26
                if len(lower) > 3:
                    d.text((bx + SMALL[0] + 4, sy + 2), f"+{len(lower) - 3}", font=font(18, True), fill=MUTED)
                for code in shown:
                    strip = _strip(code, SMALL[0])
                    img.paste(strip, (bx, sy), strip)
                    sy += 20
                if dv.cards:
                    paste_card(dv.cards[-1], bx, sy, SMALL, place=place)
                else:
                    paste_card(None, bx, sy, SMALL)
                    d.text(
                        (bx + SMALL[0] / 2, sy + SMALL[1] / 2),
                        "empty",
                        font=font(18),
                        fill=MUTED,
                        anchor="mm",
                    )
                fy = sy + SMALL[1] + 4
                if building:
                    word = "ready: done" if dv.valid else "in progress"
                    colr = (200, 110, 0)
                elif dv.valid:
                    word = f"✓ {KIND_WORD.get(dv.kind, dv.kind)}"
                    colr = GOOD
                else:
                    word = "✗ invalid"
                    colr = BAD
                d.text((bx, fy), word, font=font(18, True), fill=colr)
                count = f"{len(dv.cards)} card{'s' if len(dv.cards) != 1 else ''}"
                if dv.guacamole:
                    count += " · GUAC"
                d.text((bx, fy + 22), count, font=font(18), fill=INK)
            ry += rowh
        y += rh

    # ---------------------------------------------------------------- hand
    if hand is not None:
        seat = v.seat
        y += 6
        d.text(
            (PAD, y),
            f"Your hand, P{seat + 1} {seat_name(names, seat)} — {len(hand)} card{'' if len(hand) == 1 else 's'} "
            "(type the code: prep 5T, dish 5T)",
            font=font(22, True),
            fill=INK,
        )
        y += 40
        for i, code in enumerate(hand):
            cx = PAD + (i % hand_cols) * (BIG[0] + 8)
            cy = y + (i // hand_cols) * (BIG[1] + 40)
            paste_card(code, cx, cy, BIG)
            d.text((cx + BIG[0] / 2, cy + BIG[1] + 16), code, font=font(24, True), fill=INK, anchor="mm")
        if not hand:
            d.text((PAD, y), "(empty)", font=font(20), fill=MUTED)

    # ---------------------------------------------------------------- last move highlight
    for place in v.marks:
        box = boxes.get(place)
        if box:
            x0, y0, x1, y1 = box
            d.rounded_rectangle((x0 - 5, y0 - 5, x1 + 4, y1 + 4), radius=12, outline=HIGHLIGHT, width=6)
    return to_png(img.quantize(colors=128, method=Image.Quantize.FASTOCTREE))
