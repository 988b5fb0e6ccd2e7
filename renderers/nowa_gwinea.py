"""Nowa Gwinea renderer: the task board with its totems, water holes, fruit and
huts, the scores, and the villages revealed at the end of a round.

``render(view)`` draws a seat's (or a spectator's) picture; ``render_huts()``
draws the hut chart: the 12 huts in every orientation with its index and the
anchor square, so players can type moves like ``F3C4``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engines.core import UNKNOWN
from engines.nowa_gwinea.data import ANIMALS
from engines.nowa_gwinea.geometry import (
    CANONICAL,
    DISTINCT,
    PIECES,
    ROWS,
    SHAPES,
    SIZE,
    parse_cell,
    placement_from_text,
)
from renderers.common import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MUTED,
    centred_text,
    font,
    seat_colour,
    seat_name,
    to_png,
)

WIDTH = 1280
CELL = 78
BOARD_X, BOARD_Y = 56, 120
PANEL_X = BOARD_X + CELL * SIZE + 40
SAND = (236, 222, 186)
SAND_DARK = (221, 203, 160)
WATER = (52, 140, 220)
FRUIT = (220, 60, 60)
LEAF = (60, 150, 60)
TOTEM_COLOURS = (
    (46, 170, 90),  # parrot
    (90, 70, 160),  # cassowary
    (160, 100, 50),  # tree kangaroo
    (70, 120, 70),  # crocodile
    (200, 150, 40),  # lizard
    (210, 90, 170),  # butterfly
)
TOTEM_LABELS = ("Par", "Cas", "Kan", "Cro", "Liz", "But")
LAST = (235, 90, 0)


def _hut_colour(seat: int | None) -> tuple[int, int, int]:
    base = seat_colour(seat or 0)
    return tuple(int(c * 0.55 + 255 * 0.45) for c in base)


@lru_cache(maxsize=4)
def _empty_board(cell: int) -> Image.Image:
    """The 8x8 grid with row letters and column numbers (drawn once per size)."""
    margin = 34 if cell >= 60 else 0
    img = Image.new("RGB", (cell * SIZE + margin, cell * SIZE + margin), BACKGROUND)
    d = ImageDraw.Draw(img)
    ox = oy = margin
    for r in range(SIZE):
        for c in range(SIZE):
            x, y = ox + c * cell, oy + r * cell
            d.rectangle(
                (x, y, x + cell, y + cell), fill=SAND if (r + c) % 2 else SAND_DARK, outline=(170, 150, 110)
            )
    d.rectangle((ox, oy, ox + cell * SIZE, oy + cell * SIZE), outline=INK, width=3)
    if margin:
        f = font(22, True)
        for i in range(SIZE):
            centred_text(d, (ox + i * cell + cell / 2, oy / 2), str(i + 1), f)
            centred_text(d, (ox / 2, oy + i * cell + cell / 2), ROWS[i], f)
    return img


def _xy(cell: int, ox: int, oy: int, size: int) -> tuple[int, int]:
    r, c = divmod(cell, SIZE)
    return ox + c * size, oy + r * size


def _draw_symbols(
    d: ImageDraw.ImageDraw, board, rolled: int, ox: int, oy: int, size: int, covered: int
) -> None:
    small = size < 50
    f = font(max(10, size // 4), True)
    for i, name in enumerate(board.totems):
        cell = parse_cell(name)
        x, y = _xy(cell, ox, oy, size)
        pad = size * 0.12
        if i == rolled:
            d.rectangle(
                (x + 2, y + 2, x + size - 2, y + size - 2), outline=HIGHLIGHT, width=max(3, size // 12)
            )
        d.ellipse(
            (x + pad, y + pad, x + size - pad, y + size - pad),
            fill=TOTEM_COLOURS[i],
            outline=INK,
            width=2 if i == rolled else 1,
        )
        if not small:
            centred_text(d, (x + size / 2, y + size / 2), TOTEM_LABELS[i], f, fill=(255, 255, 255))
    for name in board.water:
        cell = parse_cell(name)
        x, y = _xy(cell, ox, oy, size)
        pad = size * 0.22
        hit = covered >> cell & 1
        d.ellipse(
            (x + pad, y + pad, x + size - pad, y + size - pad),
            fill=WATER,
            outline=(255, 255, 255) if hit else (20, 60, 120),
            width=3 if hit else 1,
        )
        if not small:
            centred_text(
                d,
                (x + size / 2, y + size / 2),
                "✓" if hit else "~",
                font(size // 3, True),
                fill=(255, 255, 255),
            )
    for name in board.fruit:
        cell = parse_cell(name)
        x, y = _xy(cell, ox, oy, size)
        pad = size * 0.28
        d.ellipse(
            (x + pad, y + pad + 2, x + size - pad, y + size - pad + 2),
            fill=FRUIT,
            outline=(255, 255, 255) if covered >> cell & 1 else (110, 20, 20),
            width=2,
        )
        d.ellipse((x + size / 2 - 2, y + pad - 4, x + size / 2 + 8, y + pad + 4), fill=LEAF)


def _draw_huts(
    d: ImageDraw.ImageDraw,
    texts,
    colour,
    ox: int,
    oy: int,
    size: int,
    last: str | None = None,
    letters: bool = True,
) -> int:
    covered = 0
    for text in texts:
        pl = placement_from_text(text)
        covered |= pl.mask
        for cell in pl.cells:
            x, y = _xy(cell, ox, oy, size)
            d.rectangle((x + 1, y + 1, x + size - 1, y + size - 1), fill=colour)
    for text in texts:
        pl = placement_from_text(text)
        edge = LAST if text == last else INK
        w = max(2, size // 14) + (2 if text == last else 0)
        for cell in pl.cells:
            x, y = _xy(cell, ox, oy, size)
            r, c = divmod(cell, SIZE)
            if not (r > 0 and pl.mask >> (cell - SIZE) & 1):
                d.line((x, y, x + size, y), fill=edge, width=w)
            if not (r < SIZE - 1 and pl.mask >> (cell + SIZE) & 1):
                d.line((x, y + size, x + size, y + size), fill=edge, width=w)
            if not (c > 0 and pl.mask >> (cell - 1) & 1):
                d.line((x, y, x, y + size), fill=edge, width=w)
            if not (c < SIZE - 1 and pl.mask >> (cell + 1) & 1):
                d.line((x + size, y, x + size, y + size), fill=edge, width=w)
    return covered


def _hut_letters(d, texts, ox, oy, size, board) -> None:
    busy = {parse_cell(n) for n in (*board.totems, *board.water, *board.fruit)}
    f = font(max(12, size // 3), True)
    for text in texts:
        pl = placement_from_text(text)
        free = [c for c in pl.cells if c not in busy] or list(pl.cells)
        cell = free[len(free) // 2]
        x, y = _xy(cell, ox, oy, size)
        centred_text(d, (x + size / 2, y + size / 2), pl.piece, f, fill=INK)


def _board(image, board, rolled, texts, colour, ox, oy, size, last=None) -> None:
    image.paste(_empty_board(size), (ox - (34 if size >= 60 else 0), oy - (34 if size >= 60 else 0)))
    d = ImageDraw.Draw(image)
    covered = _draw_huts(d, texts, colour, ox, oy, size, last)
    _draw_symbols(d, board, rolled, ox, oy, size, covered)
    if size >= 40:
        _hut_letters(d, texts, ox, oy, size, board)


def render(view, *, names: Sequence[str] | None = None) -> bytes:
    n = view.players
    last = view.last_round
    mini = 34 if last else 0
    extra = (mini * SIZE + 90) if last else 0
    height = BOARD_Y + CELL * SIZE + 60 + extra
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    d = ImageDraw.Draw(image)

    # header
    title = "Nowa Gwinea"
    if view.over:
        title += "  -  game over"
    else:
        title += f"  -  round {view.round} of {view.rounds}"
    d.text((24, 14), title, font=font(34, True), fill=INK)
    shown = view.seat if view.seat is not None else 0
    board = view.boards[shown]
    sub = (
        f"Die: {view.animal.upper()} (start there)   Board {board.board}"
        f"{'A standard' if board.side == 'A' else 'B hard'}   Goal: {view.water_target} water holes"
    )
    if view.over:
        sub = "Final scores below; the last round's villages are revealed."
    d.text((24, 62), sub, font=font(22), fill=INK)
    who = (
        "your village"
        if view.seat is not None
        else "spectator view: villages are hidden until the round ends"
    )
    if len({(b.board, b.side) for b in view.boards}) > 1:
        if view.seat is not None:
            who = "your own board and village (each player has a different board)"
        else:
            who = f"{seat_name(names, 0)}'s board shown; each player has their own; villages hidden"

    texts = ()
    if view.seat is not None and view.villages[view.seat] != UNKNOWN and not view.over:
        texts = view.villages[view.seat]
    rolled = view.totem
    _board(
        image,
        board,
        rolled if not view.over else -1,
        texts,
        _hut_colour(view.seat),
        BOARD_X,
        BOARD_Y,
        CELL,
        view.last_move,
    )
    d.text((BOARD_X, BOARD_Y + CELL * SIZE + 12), who, font=font(20), fill=MUTED)

    # side panel
    x = PANEL_X
    y = BOARD_Y - 30
    d.text((x, y), "Players", font=font(26, True), fill=INK)
    y += 40
    for s in range(n):
        col = seat_colour(s)
        d.rectangle((x, y + 4, x + 22, y + 26), fill=col, outline=INK)
        name = seat_name(names, s)
        if view.seat == s:
            name += " (you)"
        d.text((x + 32, y), name[:22], font=font(22, True), fill=INK)
        d.text((x + 420, y), f"{view.scores[s]}", font=font(26, True), fill=INK, anchor="ra")
        y += 30
        if view.over:
            state = ""
        elif view.done[s]:
            state = "finished building"
        else:
            state = "building"
        line = f"{view.huts[s]} huts  {state}" if not view.over else ""
        if view.per_round:
            line += f"   last round +{view.per_round[-1][s]}"
        d.text((x + 32, y), line, font=font(18), fill=MUTED)
        y += 34
    y += 6
    d.text((x, y), f"Boards left in the stack: {view.deck_left}", font=font(18), fill=MUTED)
    y += 34
    if view.seat is not None and not view.over:
        d.text((x, y), "Your village", font=font(24, True), fill=INK)
        y += 34
        d.text((x, y), f"Water holes: {view.water} of {view.water_target}", font=font(22), fill=WATER)
        y += 30
        d.text(
            (x, y),
            f"Fruit: {view.fruit}  (caller bonus {(0, 1, 3, 6, 10, 15)[view.fruit]})",
            font=font(22),
            fill=FRUIT,
        )
        y += 30
        if view.broken:
            for i in range(0, len(view.broken), 34):
                d.text(
                    (x, y),
                    ("BROKEN: " if i == 0 else "  ") + view.broken[i : i + 34],
                    font=font(18, True),
                    fill=(200, 30, 30),
                )
                y += 24
        elif view.can_call:
            d.text((x, y), "Ready: type  gwinea", font=font(22, True), fill=(30, 140, 60))
            y += 30
        if view.last_move:
            d.text((x, y), f"Last move: {view.last_move}", font=font(20), fill=INK)
            y += 30
        used = {t[0] for t in texts}
        left = " ".join(p for p in PIECES if p not in used)
        d.text((x, y), f"Huts left: {left}", font=font(20), fill=INK)
        y += 34
    # legend
    y = max(y, BOARD_Y + CELL * SIZE - 150)
    d.text((x, y), "Legend", font=font(20, True), fill=INK)
    y += 28
    d.ellipse((x, y, x + 24, y + 24), fill=WATER)
    d.text((x + 32, y), "water hole   ", font=font(18), fill=INK)
    d.ellipse((x + 170, y + 2, x + 190, y + 22), fill=FRUIT)
    d.text((x + 200, y), "fruit bush", font=font(18), fill=INK)
    y += 30
    for i in range(len(TOTEM_LABELS)):
        xx = x + (i % 3) * 140
        yy = y + (i // 3) * 30
        d.ellipse((xx, yy, xx + 24, yy + 24), fill=TOTEM_COLOURS[i])
        d.text((xx + 30, yy), ANIMALS[i] if len(ANIMALS[i]) < 10 else "kangaroo", font=font(17), fill=INK)
    y += 62
    d.text((x, y), "Rolled totem: yellow frame", font=font(17), fill=INK)
    d.text((x + 240, y), "Last hut: orange", font=font(17), fill=LAST)

    # the last round, every village revealed
    if last:
        top = BOARD_Y + CELL * SIZE + 48
        d.text((24, top), f"Round {last['round']} villages (revealed)", font=font(24, True), fill=INK)
        from engines.nowa_gwinea.rules import board_info

        step = (WIDTH - 48) // max(n, 1)
        for s in range(n):
            ox = 24 + s * step + 10
            oy = top + 60
            info = board_info(last["boards"][s], last["sides"][s])
            _board(image, info, last["totem"], last["villages"][s], _hut_colour(s), ox, oy, mini)
            row = last["rows"][s]
            label = f"{seat_name(names, s)[:14]}: +{row['points']}"
            if last.get("caller") == s:
                label += " (caller)"
            d.text((ox, oy - 28), label, font=font(18, True), fill=seat_colour(s))
            if row["broken"]:
                d.text((ox, oy + mini * SIZE + 4), "broken: 0", font=font(16), fill=(200, 30, 30))
    return to_png(image)


@lru_cache(maxsize=1)
def _huts_chart() -> bytes:
    cell = 18
    box_w, box_h = 118, 128
    left = 70
    image = Image.new("RGB", (left + 8 * box_w + 20, 80 + len(PIECES) * box_h), BACKGROUND)
    d = ImageDraw.Draw(image)
    d.text(
        (20, 14),
        "Nowa Gwinea huts: letter + orientation + anchor square, e.g. F3C4",
        font=font(24, True),
        fill=INK,
    )
    d.text(
        (20, 46),
        "Orientation 0 as drawn, 1-3 turned clockwise, 4-7 mirrored then turned. Dot = anchor square.",
        font=font(17),
        fill=MUTED,
    )
    for row, p in enumerate(PIECES):
        y0 = 80 + row * box_h
        d.line((10, y0, image.width - 10, y0), fill=(200, 190, 170))
        centred_text(d, (left / 2, y0 + box_h / 2), p, font(40, True))
        for i, k in enumerate(DISTINCT[p]):
            x0 = left + i * box_w
            same = [j for j in range(8) if CANONICAL[p][j] == k]
            label = ",".join(str(j) for j in same) if len(same) < 8 else "any"
            centred_text(d, (x0 + box_w / 2, y0 + 14), label, font(18, True))
            sq = SHAPES[p][k]
            h = max(r for r, _ in sq) + 1
            w = max(c for _, c in sq) + 1
            ox = x0 + (box_w - w * cell) // 2
            oy = y0 + 28 + (box_h - 34 - h * cell) // 2
            for r, c in sq:
                d.rectangle(
                    (ox + c * cell, oy + r * cell, ox + (c + 1) * cell, oy + (r + 1) * cell),
                    fill=_hut_colour(row % 4),
                    outline=INK,
                    width=2,
                )
            ar, ac = sq[0]
            cx, cy = ox + ac * cell + cell / 2, oy + ar * cell + cell / 2
            d.ellipse((cx - 4, cy - 4, cx + 4, cy + 4), fill=INK)
    return to_png(image)


def render_huts() -> bytes:
    """The hut chart (PNG): each hut's letter, its orientations with their indices, the anchor dot."""
    return _huts_chart()
