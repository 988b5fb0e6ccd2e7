"""Tiwanaku board image: the valley grid with regions, crops and explorers, and a player panel.

Region outlines are thick dark lines wherever two known cells differ in
terrain (and around the board); a border next to a hidden space is drawn thin
and dashed, since it is not known yet.  A seat's own picture adds what that
player peeked at on the disc (dashed, marked with an eye).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engines.tiwanaku.rules import MAX_PLAYERS
from renderers.colours import ACTIVE, BACKGROUND, INK, MUTED, PANEL, RULE, Key, seat_colour, seat_keys
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
from renderers.shapes import draw_legend, mark_box, seat_mark, seat_shape
from renderers.translation import N_, Span, ntr, ptr, tr
from renderers.typeset import art_cache, draw_text, label, narrow_text, text_width

# The least size of the board's words, letters and numbers: their capitals stand 4.7 px or more
# on a phone (at 17, the cubes' letters, the scales' numbers and "diversity" stood 4 px).
PHONE_SIZE = 19

CELL = 118
LABEL = 44
MARGIN = PAD

TERRAIN_COLOURS = {
    "S": (95, 170, 175),  # swamp: blue green
    "D": (236, 200, 120),  # desert: sand
    "M": (160, 145, 135),  # mountain: stone
    "F": (92, 150, 82),  # forest: green
}
TERRAIN_NAMES = {"S": N_("Swamp"), "D": N_("Desert"), "M": N_("Mountain"), "F": N_("Forest")}


def letter(terrain: str) -> str:
    """A terrain's letter on the board, the first of its name in the language drawn (not notation)."""
    letters = {
        "S": ptr("terrain letter", "S"),
        "D": ptr("terrain letter", "D"),
        "M": ptr("terrain letter", "M"),
        "F": ptr("terrain letter", "F"),
    }
    return letters.get(terrain, terrain)


LETTER_SHADE = 0.45  # a terrain's letter: its colour this much darker


def _darker(c, k=0.7):
    return tuple(int(v * k) for v in c)


PIECE_COLOURS = tuple(TERRAIN_COLOURS.values())
# What the legend tells apart by colour, and the second cue of each (the terrain's letter).
COLOUR_KEYS = {
    "seats": seat_keys(MAX_PLAYERS),
    "terrains": {t: Key(c, ("letter", t), _darker(c, LETTER_SHADE)) for t, c in TERRAIN_COLOURS.items()},
}
HIDDEN = (222, 216, 204)
HIDDEN_DOT = (200, 193, 180)
REGION_LINE = (30, 30, 30)
ROW_LETTERS = "ABCDE"


def _board_size(cols: int) -> tuple[int, int]:
    return LABEL + cols * CELL + LABEL // 2, LABEL + 5 * CELL + LABEL


@art_cache
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


def _pawn(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, seat: int, outline=(255, 255, 255)
) -> None:
    """An explorer: a head over a rounded body, in the seat's colour with its shape."""
    colour = seat_colour(seat)
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
    seat_shape(draw, cx, cy + r * 0.33, r * 0.42, seat, fill=(255, 255, 255))


def _cube(draw: ImageDraw.ImageDraw, x: float, y: float, s: float, terrain: str) -> None:
    colour = TERRAIN_COLOURS[terrain]
    draw.rounded_rectangle((x, y, x + s, y + s), radius=4, fill=colour, outline=INK, width=2)
    label(draw, (x + s / 2, y + s / 2), letter(terrain), max(PHONE_SIZE, int(s * 0.55)), True, INK, "mm")


# A plot's terrain letter (its colour's second cue) in its top left corner, clear of the crop's
# disc, and the words in its top right corner ("start", "seen"): shown 400 px wide, as on a phone,
# the letter is 6.7 px tall (5.3 before), the words 4.7 px (3.7 and 3.3).
LETTER_SIZE = 28
LETTER_X, LETTER_Y = 8, 4
NOTE_SIZE, NOTE_Y = 20, 3


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

    for c in range(cols):
        x = ox + LABEL + c * CELL + CELL // 2
        label(draw, (x, oy + LABEL // 2), str(c + 1), 24, True, INK, "mm")
        label(draw, (x, oy + LABEL + 5 * CELL + LABEL // 2), str(c + 1), 24, True, INK, "mm")
    for r in range(5):
        y = oy + LABEL + r * CELL + CELL // 2
        label(draw, (ox + LABEL // 2, y), ROW_LETTERS[r], 24, True, INK, "mm")

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
            label(
                draw,
                (x + LETTER_X, y + LETTER_Y),
                letter(known[cell]),
                LETTER_SIZE,
                True,
                _darker(base, 0.55),
            )
            label(draw, (x + CELL - 10, y + NOTE_Y), tr("seen"), NOTE_SIZE, True, INK, "ra")
        else:
            draw.rectangle((x, y, x + CELL, y + CELL), fill=TERRAIN_COLOURS[t])
            label(
                draw,
                (x + LETTER_X, y + LETTER_Y),
                letter(t),
                LETTER_SIZE,
                True,
                _darker(TERRAIN_COLOURS[t], LETTER_SHADE),
            )
        crop = view.crops[cell]
        cx, cy = x + CELL // 2, y + CELL // 2 - 4
        if crop is not None:
            draw.ellipse((cx - 31, cy - 31, cx + 31, cy + 31), fill=(252, 250, 244), outline=INK, width=3)
            label(draw, (cx, cy + 1), str(crop), 46, True, INK, "mm")
            if cell in start:
                label(draw, (x + CELL - 10, y + NOTE_Y), tr("start"), NOTE_SIZE, False, INK, "ra")
        elif cell in peeks and peeks[cell].isdigit():
            draw.ellipse((cx - 31, cy - 31, cx + 31, cy + 31), fill=(252, 250, 244))
            for k in range(0, 360, 30):
                draw.arc((cx - 31, cy - 31, cx + 31, cy + 31), k, k + 15, fill=INK, width=3)
            label(draw, (cx, cy + 1), peeks[cell], 46, True, MUTED, "mm")
            label(draw, (x + CELL - 10, y + NOTE_Y), tr("seen"), NOTE_SIZE, True, INK, "ra")
        seat = view.explorer[cell]
        if seat >= 0:
            _pawn(draw, x + CELL - 28, y + CELL - 32, 26, seat)

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
            edge = kind_between(cell, cell + 1)
            seg = ((x + CELL, y), (x + CELL, y + CELL))
            (thick.append(seg) if edge == "region" else line(*seg, edge))
        if r + 1 < 5:
            edge = kind_between(cell, cell + cols)
            seg = ((x, y + CELL), (x + CELL, y + CELL))
            (thick.append(seg) if edge == "region" else line(*seg, edge))
    for a, b in thick:
        draw.line((*a, *b), fill=REGION_LINE, width=7)
    for a, b in thick:  # round the joints
        for px, py in (a, b):
            draw.rectangle((px - 3, py - 3, px + 3, py + 3), fill=REGION_LINE)
    x0, y0 = ox + LABEL, oy + LABEL
    draw.rectangle((x0 - 4, y0 - 4, x0 + cols * CELL + 4, y0 + 5 * CELL + 4), outline=REGION_LINE, width=8)

    # the last turn
    for cell in view.last_cells:
        x, y = _cell_xy(cell, cols, ox, oy)
        mark_box(draw, (x + 4, y + 4, x + CELL - 4, y + CELL - 4), width=7)


def _header(view, names, last_action) -> Header:
    if view.phase == "over":  # the round the final divinations ended in (the status says who won)
        info = tr("ended in round {round}", round=view.round)
    elif view.phase == "final":  # the final divinations (the status says so): nothing hidden left
        info = tr("round {round} · all discovered", round=view.round)
    else:
        info = tr("round {round} · {hidden} hidden left", round=view.round, hidden=view.empty_left)
    if view.phase == "over":
        best = max(view.scores)
        top = [s for s in range(view.players) if view.scores[s] == best]
        if len(top) > 1:
            most = max(view.correct[s] for s in top)
            top = [s for s in top if view.correct[s] == most]
        if view.players == 1:
            status: list[Span] = [(ntr("Game over: {n} point", "Game over: {n} points", best), INK)]
            return Header("Tiwanaku", info, status, None, last_action)
        return Header("Tiwanaku", info, winners_status(names, top), None, last_action)
    if view.phase == "final":
        doing = N_("{name} to divine or pass (final divinations)")
    elif view.phase == "divining" and view.may_divine_again:
        doing = N_("{name} is divining: guess again or done")
    elif view.phase == "divining":  # the last right guess: an offering may still buy an action
        doing = N_("{name} guessed right: an offering, a trade or done")
    elif view.actions_left > 1:
        doing = N_("{name} to play ({actions} actions)")
    else:
        doing = N_("{name} to play")
    status = turn_status(names, view.turn, doing, actions=view.actions_left)
    return Header("Tiwanaku", info, status, view.turn, last_action)


def _seat_lines(view, names) -> list[SeatLine]:
    over = view.phase == "over"
    place: dict[int, int] = {}
    if over:
        order = sorted(range(view.players), key=lambda s: (view.scores[s], view.correct[s]), reverse=True)
        groups: list[list[int]] = []
        for s in order:
            if groups and (view.scores[groups[-1][0]], view.correct[groups[-1][0]]) == (
                view.scores[s],
                view.correct[s],
            ):
                groups[-1].append(s)
            else:
                groups.append([s])
        place = places(groups)
    out = []
    for s in range(view.players):
        counts = [
            tr("right {n}", n=view.correct[s]),
            tr("wrong {n}", n=view.wrong[s]),
            tr("off-board {n}", n=view.reserve[s]),
        ]
        if view.peek_counts[s]:
            counts.append(tr("peeks {n}", n=view.peek_counts[s]))
        if view.phase == "final" and view.final_out[s]:
            counts.append(tr("OUT"))
        if over and view.cube_points[s]:
            counts.append(ntr("+{n} cube", "+{n} cubes", view.cube_points[s]))
        detail = " · ".join(counts)  # a list of counts, each one whole
        out.append(
            SeatLine(
                s,
                seat_name(names, s),
                str(view.scores[s]),
                detail,
                active=to_play(not over and view.turn == s),
                you=view.seat == s,
                place=place[s] if over else None,
            )
        )
    return out


# A player's block: its name, its cubes and its diversity scales, sized so that on a phone (400 px
# wide) each scale's levels stand 4.7 px tall and 1.3 px apart (they stood 2.3 px, 1 px apart, and
# could not be counted), the cubes 13 px.  BLOCK_H includes the 10 px between blocks.
BLOCK_H = 150
# A seat's cubes in a row: 40 px each, 4 apart, from 80 px into the block (right of "cubes").
CUBE, CUBE_GAP, CUBES_X, CUBES_Y = 40, 4, 80, 50
MORE_SIZE = 22  # "+3": the cubes a row has no room for
# The diversity scales: five columns (crops 1-5) of five levels, the levels' lowest at the bottom.
SCALE_W, SCALE_STEP = 30, 38  # a column's width, and from one column to the next
LEVEL_H, LEVEL_STEP = 14, 18  # a level's height, and from one level to the next
LEVELS_TOP = 40  # the top level's top, below the crops' numbers
SCALES_W = 4 * SCALE_STEP + SCALE_W
SCALES_RIGHT = 14  # from the scales to the block's right edge


def scales_left(x: int, w: int) -> int:
    """The left edge of the diversity scales of a block at ``x``, ``w`` wide."""
    return x + w - SCALES_W - SCALES_RIGHT


def _draw_cubes(draw: ImageDraw.ImageDraw, counts: Sequence[int], x: float, y: float, end: float) -> None:
    """A seat's cubes in a row from ``x``, stopping short of ``end`` (the diversity scales).

    The rules' most (4) fit in every layout.  Should a row have no room for them all, no cube
    goes silently missing: the last places give the count of those not drawn ("+3")."""
    held = [t for t, k in zip("SDMF", counts, strict=True) for _ in range(k)]
    step = CUBE + CUBE_GAP
    room = int((end - x + CUBE_GAP) // step)  # whole cubes before ``end``
    shown = len(held)
    if shown > room:
        shown = room
        while shown > 0 and shown * step + text_width(f"+{len(held) - shown}", MORE_SIZE, True) > end - x:
            shown -= 1
    for k, t in enumerate(held[:shown]):
        _cube(draw, x + k * step, y, CUBE, t)
    if shown < len(held):
        label(draw, (x + shown * step, y + CUBE / 2), f"+{len(held) - shown}", MORE_SIZE, True, INK, "lm")


def _draw_block(draw: ImageDraw.ImageDraw, view, names, seat: int, x: int, y: int, w: int) -> None:
    """One player's cubes and diversity scales (the score is in the strip): the name and the
    cubes on the left, the scales on the right, "diversity" under the cubes beside the scales'
    lowest level."""
    active = to_play(view.phase != "over" and view.turn == seat)
    draw.rounded_rectangle(
        (x, y, x + w, y + BLOCK_H - 10),
        radius=10,
        fill=ACTIVE if active else PANEL,
        outline=INK if active else RULE,
        width=4 if active else 2,
    )
    seat_mark(draw, x + 24, y + 22, 15, seat)
    sx = scales_left(x, w)
    room = sx - x - 46 - 24
    name = headed_name(seat_name(names, seat), room, PHONE_SIZE, you=view.seat == seat)
    draw_text(draw, (x + 46, y + 7), [(name, seat_colour(seat))], room, 24, min_size=PHONE_SIZE, bold=True)
    if sum(view.cubes[seat]):
        label(draw, (x + 14, y + CUBES_Y + CUBE // 2), tr("cubes"), 20, False, MUTED, "lm")
        _draw_cubes(draw, view.cubes[seat], x + CUBES_X, y + CUBES_Y, sx - 8)
    else:  # one phrase, not the label "cubes" with "none" after it
        label(
            draw, (x + 14, y + CUBES_Y + CUBE // 2), ptr("tiwanaku board", "no cubes"), 20, False, MUTED, "lm"
        )
    for k in range(5):
        level = view.scales[seat][k]
        colx = sx + k * SCALE_STEP
        for lv in range(1, 6):
            top = y + LEVELS_TOP + (5 - lv) * LEVEL_STEP
            fill = seat_colour(seat) if lv <= level else (228, 224, 216)
            draw.rectangle((colx, top, colx + SCALE_W - 1, top + LEVEL_H - 1), fill=fill)  # ends inclusive
        label(draw, (colx + SCALE_W / 2, y + LEVELS_TOP - 4), str(k + 1), 22, True, INK, "mb")
    # left of the scales' lowest level, under the row of cubes
    low = y + LEVELS_TOP + 4 * LEVEL_STEP + LEVEL_H / 2
    label(draw, (sx - 8, low), tr("diversity"), PHONE_SIZE, False, MUTED, "rm")


KEY_SIZE = 22  # a terrain's words in the key
KEY_ROW = 36  # one row of terrains in the key


def _terrain_keys(view) -> list[str]:
    """Each terrain's words in the key (SDMF order): its name and count of cells."""
    out = []
    for t in "SDMF":
        words = tr("{terrain} {count}", terrain=tr(TERRAIN_NAMES[t]), count=view.terrain_totals.get(t, 0))
        if letter(t) != t:  # the reader's letter is not the one moves are written with (SD>M)
            words = tr("{terrain} (in moves: {letter})", terrain=words, letter=t)
        out.append(words)
    return out


def _keys_per_row(view, w: int, most: int) -> int:
    """How many terrains a row of the key holds: ``most``, or half as many till each terrain's
    words fit whole at their size (squeezed, they are hard to read on a phone)."""
    keys = _terrain_keys(view)
    per_row = most
    while per_row > 1 and any(text_width(k, KEY_SIZE) > w // per_row - 40 for k in keys):
        per_row //= 2
    return per_row


def _draw_legend(draw: ImageDraw.ImageDraw, view, x: int, y: int, w: int, per_row: int) -> int:
    item_w = w // per_row
    for k, (t, words) in enumerate(zip("SDMF", _terrain_keys(view), strict=True)):
        cx = x + (k % per_row) * item_w
        cy = y + (k // per_row) * KEY_ROW
        draw.rectangle((cx, cy, cx + 28, cy + 28), fill=TERRAIN_COLOURS[t], outline=INK, width=2)
        label(draw, (cx + 14, cy + 14), letter(t), PHONE_SIZE, True, INK, "mm")
        narrow_text(draw, (cx + 36, cy + 1), words, item_w - 40, KEY_SIZE, min_size=PHONE_SIZE)
    used = KEY_ROW * ((4 + per_row - 1) // per_row)
    if view.seat is None:  # a public picture shows no peeks
        key = tr("changed in the last turn")
    else:
        key = tr("changed in the last turn; “seen”: what you peeked at")
    return used + draw_legend(draw, x, y + used + 4, w, key) + 10


def _board_picture(view, names: Sequence[str] | None, last_action: str | None) -> Image.Image:
    cols = view.cols
    bw, bh = _board_size(cols)
    players = view.players
    header = _header(view, names, last_action)
    seats = _seat_lines(view, names)
    over = view.phase == "over"
    top_h = ranking_height(seats) if over and players > 1 else strip_height(seats)
    order = ([view.seat] if view.seat is not None else []) + [s for s in range(players) if s != view.seat]
    side = cols <= 5
    px = MARGIN + bw + MARGIN if side else MARGIN  # the key's and the players' blocks' left edge
    pw = WIDTH - px - MARGIN
    per_row = _keys_per_row(view, pw, 2 if side else 4)
    key_rows = -(-4 // per_row)
    if side:
        body = max(bh, 8 + key_rows * KEY_ROW + 50 + players * BLOCK_H)
    else:
        body = bh + 10 + key_rows * KEY_ROW + 50 + -(-players // 2) * BLOCK_H
    height = header_height(header) + top_h + 12 + body + MARGIN
    img = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    y = draw_header(draw, header)
    y += draw_ranking(draw, seats, y) if over and players > 1 else draw_strip(draw, seats, y)
    y += 12
    ox = (WIDTH - bw) // 2 if not side else MARGIN
    _draw_board(img, draw, view, ox, y)
    if side:
        py = y + 8 + _draw_legend(draw, view, px, y + 8, pw, per_row)
        for seat in order:
            _draw_block(draw, view, names, seat, px, py, pw)
            py += BLOCK_H
    else:
        py = y + bh + 10
        py += _draw_legend(draw, view, px, py, pw, per_row)
        colw = (WIDTH - 2 * MARGIN - 10) // 2
        for k, seat in enumerate(order):
            col, row = k % 2, k // 2
            _draw_block(draw, view, names, seat, px + col * (colw + 10), py + row * BLOCK_H, colw)
    return img


render, draw_board = board_entry_points(_board_picture, "tiwanaku")
