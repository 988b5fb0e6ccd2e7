"""Nowa Gwinea renderer: the task board with its totems, water holes, fruit and
huts, the scores, and the villages revealed at the end of a round.

``render(view)`` draws a seat's (or a spectator's) picture: a seat sees its own task board
large, with its village; a spectator sees the task board, or, while the seats play different
ones (one board each, or hard seats), every board smaller under the names of its seats, the
villages hidden until the round ends.  ``render_huts()``
draws the hut chart: the 12 huts in every orientation with its index and the
anchor square, so players can type moves like ``F3C4``.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engines.core import UNKNOWN
from engines.nowa_gwinea.data import ANIMALS
from engines.nowa_gwinea.geometry import (
    PIECES,
    ROWS,
    SIZE,
    cell_of,
    placement_from_text,
)
from engines.nowa_gwinea.rules import MAX_PLAYERS, BoardInfo
from languages.bidi import isolated
from renderers.colours import (
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
    header_height,
    name_span,
    places_by_score,
    ranking_height,
    seat_name,
    strip_height,
    to_play,
    winners_status,
)
from renderers.nowa_gwinea_huts import HUT, huts_chart, render_huts  # noqa: F401  (the chart is reached here)
from renderers.shapes import draw_legend, seat_mark
from renderers.translation import N_, Span, list_spans, nsay, ntr, say, told, tr
from renderers.typeset import (
    LEADING,
    art_cache,
    centred_text,
    draw_text,
    fit,
    font,
    label,
    narrow_label,
    text_width,
)

CELL = 74
GOLD_FRAME = (255, 196, 0)  # the rolled totem's frame
SAND = (236, 222, 186)
SAND_DARK = (221, 203, 160)
WATER = (52, 140, 220)
FRUIT = (220, 60, 60)
# The village's water and fruit lines: the pieces' colours, darker, so that they read on the panel.
WATER_TEXT = (39, 106, 167)
FRUIT_TEXT = (171, 46, 46)
LEAF = (60, 150, 60)
TOTEM_COLOURS = (
    (48, 171, 91),  # parrot
    (90, 70, 160),  # cassowary
    (170, 90, 30),  # tree kangaroo
    (70, 120, 70),  # crocodile
    (200, 150, 40),  # lizard
    (210, 90, 170),  # butterfly
)
TOTEM_LABELS = (N_("Par"), N_("Cas"), N_("Kan"), N_("Cro"), N_("Liz"), N_("But"))  # the animals, short
ANIMAL_WORDS = (  # the engine's ANIMALS, marked for the catalogues (a test checks they are the same)
    N_("parrot"),
    N_("cassowary"),
    N_("tree kangaroo"),
    N_("crocodile"),
    N_("lizard"),
    N_("butterfly"),
)
SIDE_WORDS = {"A": N_("A standard"), "B": N_("B hard")}
PIECE_COLOURS = (*TOTEM_COLOURS, WATER, FRUIT, LEAF, HUT, SAND, SAND_DARK)
# What the legend tells apart by colour, and the second cue of each (the animal's short name).
COLOUR_KEYS = {
    "seats": seat_keys(MAX_PLAYERS),
    "totems": {ANIMALS[i]: Key(c, ("text", TOTEM_LABELS[i]), ink_on(c)) for i, c in enumerate(TOTEM_COLOURS)},
}


def _margin(cell: int) -> int:
    """The room for the row letters and column numbers of a board drawn with ``cell`` squares
    (none on the small boards of a revealed round)."""
    return 34 if cell >= 60 else 0


@art_cache
def _empty_board(cell: int, margin: int | None = None) -> Image.Image:
    """The 8x8 grid with row letters and column numbers in ``margin`` (drawn once per size)."""
    margin = _margin(cell) if margin is None else margin
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
        f = font(max(PHONE_SIZE, min(22, margin * 2 // 3)), True)  # 4.7 px or more on a phone
        for i in range(SIZE):
            centred_text(d, (ox + i * cell + cell / 2, oy / 2), str(i + 1), f)
            centred_text(d, (ox / 2, oy + i * cell + cell / 2), ROWS[i], f)
    return img


def _xy(cell: int, ox: int, oy: int, size: int) -> tuple[int, int]:
    r, c = divmod(cell, SIZE)
    return ox + c * size, oy + r * size


# The least size of a board's letters and numbers: its capitals 4.7 px tall on a phone.
PHONE_SIZE = 19


def _draw_symbols(
    d: ImageDraw.ImageDraw, board, rolled: int, ox: int, oy: int, size: int, covered: int
) -> None:
    small = size < 50
    pad = size * 0.12
    for i, name in enumerate(board.totems):
        cell = cell_of(name)
        x, y = _xy(cell, ox, oy, size)
        if small:
            _small_totem(d, i, x, y, size, i == rolled)
            continue
        if i == rolled:
            d.rectangle(
                (x + 2, y + 2, x + size - 2, y + size - 2), outline=GOLD_FRAME, width=max(3, size // 12)
            )
        d.ellipse(
            (x + pad, y + pad, x + size - pad, y + size - pad),
            fill=TOTEM_COLOURS[i],
            outline=INK,
            width=2 if i == rolled else 1,
        )
        # the animal's short name on every board: the colour's second cue, a quarter of the
        # square and 4.7 px or more on a phone, narrowed where the disc is narrower
        text = tr(TOTEM_LABELS[i])
        at = max(PHONE_SIZE, size // 4)
        room = int(size - 2 * pad - 5)
        narrow_label(d, (x + size / 2, y + size / 2), text, at, room, True, ink_on(TOTEM_COLOURS[i]))
    for name in board.water:
        cell = cell_of(name)
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
                font(max(PHONE_SIZE, size // 3), True),
                fill=(255, 255, 255),
            )
    for name in board.fruit:
        cell = cell_of(name)
        x, y = _xy(cell, ox, oy, size)
        pad = size * 0.28
        d.ellipse(
            (x + pad, y + pad + 2, x + size - pad, y + size - pad + 2),
            fill=FRUIT,
            outline=(255, 255, 255) if covered >> cell & 1 else (110, 20, 20),
            width=2,
        )
        d.ellipse((x + size / 2 - 2, y + pad - 4, x + size / 2 + 8, y + pad + 4), fill=LEAF)


# A small board's totem (the revealed villages' 30 or 32 px squares, the 43 px ones when each seat
# plays its own board) fills its square, its short name across it at 19, narrowed to fit: 4.7 px
# tall on a phone (at 10 on a 30 px disc it was 2.4 px).  The rolled one is framed inside its
# square (the frame reached 2 px into the squares around it), the totem within the frame.
SMALL_TOTEM = 19
SMALL_FRAME = 3  # the rolled totem's frame on a small board: 1 px on a phone, as on a large one


def _small_totem(d: ImageDraw.ImageDraw, i: int, x: int, y: int, size: int, rolled: bool) -> None:
    inset = 1  # the square's own pixels start past the grid's line
    if rolled:
        d.rectangle((x + 1, y + 1, x + size - 1, y + size - 1), outline=GOLD_FRAME, width=SMALL_FRAME)
        inset += SMALL_FRAME
    box = (x + inset, y + inset, x + size - inset, y + size - inset)
    side = size - 2 * inset
    radius = (side + 2) // 5  # an unrolled totem's: a fifth of its square
    d.rounded_rectangle(box, radius=radius, fill=TOTEM_COLOURS[i], outline=INK, width=1)
    text = tr(TOTEM_LABELS[i])
    narrow_label(d, (x + size / 2, y + size / 2), text, SMALL_TOTEM, side - 4, True, ink_on(TOTEM_COLOURS[i]))


def _draw_huts(
    d: ImageDraw.ImageDraw,
    texts,
    colour,
    ox: int,
    oy: int,
    size: int,
    last: str | None = None,
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
        edge = MARK if text == last else INK
        w = max(2, size // 14) + (4 if text == last else 0)
        for cell in pl.cells:
            x, y = _xy(cell, ox, oy, size)
            r, c = divmod(cell, SIZE)
            lo, hi = w // 2, size - w // 2 - 1  # an edge on the board's rim is drawn inside it
            top, bottom = y + (lo if r == 0 else 0), y + (hi if r == SIZE - 1 else size)
            left, right = x + (lo if c == 0 else 0), x + (hi if c == SIZE - 1 else size)
            if not (r > 0 and pl.mask >> (cell - SIZE) & 1):
                d.line((x, top, x + size, top), fill=edge, width=w)
            if not (r < SIZE - 1 and pl.mask >> (cell + SIZE) & 1):
                d.line((x, bottom, x + size, bottom), fill=edge, width=w)
            if not (c > 0 and pl.mask >> (cell - 1) & 1):
                d.line((left, y, left, y + size), fill=edge, width=w)
            if not (c < SIZE - 1 and pl.mask >> (cell + 1) & 1):
                d.line((right, y, right, y + size), fill=edge, width=w)
    return covered


def _hut_letters(d, texts, ox, oy, size, board) -> None:
    busy = {cell_of(n) for n in (*board.totems, *board.water, *board.fruit)}
    f = font(max(PHONE_SIZE, size // 3), True)  # 4.7 px or more on a phone (14 on a 44 px square)
    for text in texts:
        pl = placement_from_text(text)
        free = [c for c in pl.cells if c not in busy] or list(pl.cells)
        cell = free[len(free) // 2]
        x, y = _xy(cell, ox, oy, size)
        centred_text(d, (x + size / 2, y + size / 2), pl.piece, f, fill=(255, 255, 255))


def _board(image, board, rolled, texts, colour, ox, oy, size, last=None, margin: int | None = None) -> None:
    """A task board with the squares' top left corner at (ox, oy), its coordinates in ``margin``
    above and left of it, and the huts ``texts`` built on it."""
    margin = _margin(size) if margin is None else margin
    image.paste(_empty_board(size, margin), (ox - margin, oy - margin))
    d = ImageDraw.Draw(image)
    covered = _draw_huts(d, texts, colour, ox, oy, size, last)
    _draw_symbols(d, board, rolled, ox, oy, size, covered)
    if size >= 40:
        _hut_letters(d, texts, ox, oy, size, board)


def _header(view, names, last_action) -> Header:
    info = (
        tr("game over")
        if view.over
        else tr("round {round} of {rounds}", round=view.round, rounds=view.rounds)
    )
    if view.over:
        best = max(view.scores)
        top = [s for s in range(view.players) if view.scores[s] == best]
        if view.players == 1:
            status: list[Span] = [(ntr("Game over: {n} point", "Game over: {n} points", best), INK)]
            return Header("Nowa Gwinea", info, status, None, last_action)
        return Header("Nowa Gwinea", info, winners_status(names, top), None, last_action)
    waiting = list(view.to_move)
    if waiting:
        who = list_spans([name_span(names, s) for s in waiting])
        status = nsay("{names} building", "{names} building", len(waiting), INK, names=who)
    else:
        status = [(tr("waiting for the round's end"), INK)]
    return Header("Nowa Gwinea", info, status, waiting[0] if len(waiting) == 1 else None, last_action)


def _seat_lines(view, names) -> list[SeatLine]:
    place = places_by_score(view.scores) if view.over else {}
    out = []
    for s in range(view.players):
        parts = []
        if not view.over and board_ended():  # nobody builds on: the huts alone
            parts.append(ntr("{n} hut", "{n} huts", view.huts[s]))
        elif not view.over:
            if view.done[s]:
                parts.append(ntr("{n} hut · finished", "{n} huts · finished", view.huts[s]))
            else:
                parts.append(ntr("{n} hut · building", "{n} huts · building", view.huts[s]))
        if view.per_round:
            parts.append(tr("last round +{points}", points=view.per_round[-1][s]))
            if view.over:
                parts.append(ntr("{n} round", "{n} rounds", len(view.per_round)))
        out.append(
            SeatLine(
                s,
                seat_name(names, s),
                str(view.scores[s]),
                " · ".join(parts),
                active=to_play(not view.over and s in view.to_move),
                you=view.seat == s,
                place=place.get(s),
            )
        )
    return out


def _final_goal(view) -> str:
    """The line over a finished game's villages, which still says the goal as every board before
    it did (the header's line of options leaves it to the picture)."""
    return ntr(
        "The last round's villages are shown below · goal {n} water hole",
        "The last round's villages are shown below · goal {n} water holes",
        view.water_target,
    )


def _board_picture(view, names: Sequence[str] | None, last_action: str | None) -> Image.Image:
    n = view.players
    last = view.last_round
    header = _header(view, names, last_action)
    seats = _seat_lines(view, names)
    top_h = ranking_height(seats) if view.over and n > 1 else strip_height(seats)
    mini, cols = _revealed_layout(n, view.over)
    if view.over and last:  # the final board: the last round's villages, large, in place of the task board
        height = header_height(header) + top_h + 12 + 44 + _revealed_height(n, mini, cols) + PAD
        image = Image.new("RGB", (WIDTH, height), BACKGROUND)
        d = ImageDraw.Draw(image)
        y = draw_header(d, header)
        y += draw_ranking(d, seats, y) if n > 1 else draw_strip(d, seats, y)
        draw_text(d, (PAD, y + 12), _final_goal(view), WIDTH - 2 * PAD, 26, min_size=18, bold=True)
        _draw_revealed(image, d, last, names, n, y + 44 + 18, mini, cols)
        return image
    tasks = _tasks(view)
    if view.seat is None and len(tasks) > 1:  # the channel's picture shows every task board in play
        return _every_board_picture(view, names, header, seats, tasks)
    extra = _revealed_height(n, mini, cols) if last else 0
    board_px = CELL * SIZE + 34
    height = header_height(header) + top_h + 56 + board_px + 44 + extra + PAD
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    d = ImageDraw.Draw(image)
    y = draw_header(d, header)
    y += draw_ranking(d, seats, y) if view.over and n > 1 else draw_strip(d, seats, y)

    shown = view.seat if view.seat is not None else 0
    board = view.boards[shown]
    y += 12
    if view.over:
        sub = _final_goal(view)
    else:
        sub = ntr(
            "Die: {animal} (start there) · board {board}{side} · goal {n} water hole",
            "Die: {animal} (start there) · board {board}{side} · goal {n} water holes",
            view.water_target,
            animal=tr(view.animal),
            board=board.board,
            side=tr(SIDE_WORDS[board.side]) if board.side in SIDE_WORDS else board.side,
        )
    draw_text(d, (PAD, y), sub, WIDTH - 2 * PAD, 26, min_size=18, bold=True)
    y += 44
    texts: tuple[str, ...] = ()
    if view.seat is not None and view.villages[view.seat] != UNKNOWN and not view.over:
        texts = view.villages[view.seat]
    bx, by = PAD + 34, y + 34
    _board(image, board, view.totem if not view.over else -1, texts, HUT, bx, by, CELL, view.last_move)
    if view.seat is not None:
        if len({(b.board, b.side) for b in view.boards}) > 1:
            who = tr("your board and village (each player has their own board)")
        else:
            who = tr("your board and village")
    else:
        who = tr("villages stay hidden until the round ends")
    draw_text(d, (bx, by + CELL * SIZE + 8), who, CELL * SIZE, 21, min_size=15, fill=MUTED)

    # side panel
    x = bx + CELL * SIZE + 28
    w = WIDTH - PAD - x
    py = y
    if view.seat is not None and not view.over:
        d.rounded_rectangle((x - 10, py - 4, x + w, py + 300), radius=10, fill=PANEL, outline=RULE, width=2)
        py += 6
        py += draw_text(d, (x, py), tr("Your village"), w - 10, 28, bold=True) + 6
        py += (
            draw_text(
                d,
                (x, py),
                tr("Water holes: {water} of {goal}", water=view.water, goal=view.water_target),
                w - 10,
                24,
                min_size=18,
                fill=WATER_TEXT,
            )
            + 4
        )
        bonus = (0, 1, 3, 6, 10, 15)[min(view.fruit, 5)]
        if view.fruit_for_all:  # the variant: 2 per fruit bush for a village short of the water holes
            fruit = tr(
                "Fruit: {fruit} (caller bonus {bonus}, or {points} if short of the water holes)",
                fruit=view.fruit,
                bonus=bonus,
                points=2 * view.fruit,
            )
        else:
            fruit = tr("Fruit: {fruit} (caller bonus {bonus})", fruit=view.fruit, bonus=bonus)
        py += (
            draw_text(
                d,
                (x, py),
                fruit,
                w - 10,
                24,
                min_size=18,
                fill=FRUIT_TEXT,
                max_lines=3,
            )
            + 4
        )
        if view.broken:
            py += (
                draw_text(
                    d,
                    (x, py),
                    tr("BROKEN: {why}", why=told(view.broken)),
                    w - 10,
                    21,
                    min_size=15,
                    bold=True,
                    fill=BAD,
                    max_lines=3,
                )
                + 4
            )
        elif view.can_call:
            py += (
                draw_text(
                    d,
                    (x, py),
                    tr("Ready: type gwinea"),
                    w - 10,
                    24,
                    min_size=18,
                    bold=True,
                    fill=GOOD,
                )
                + 4
            )
        used = {t[0] for t in texts}
        left = " ".join(p for p in PIECES if p not in used)
        py += (
            draw_text(d, (x, py), tr("Huts left: {huts}", huts=left), w - 10, 22, min_size=15, max_lines=2)
            + 4
        )
        py = max(py, y + 300) + 16
    py += (
        draw_text(
            d, (x, py), tr("Boards left in the stack: {n}", n=view.stack_left), w, 21, min_size=15, fill=MUTED
        )
        + 14
    )
    # legend
    _water_icon(d, x, py)
    water = tr("water hole")
    label(d, (x + 34, py), water, 21, False, INK)
    fx = x + max(170, 34 + int(d.textlength(water, font=font(21))) + 16)  # after a longer word
    _fruit_icon(d, fx - 2, py)
    label(d, (fx + 32, py), tr("fruit bush"), 21, False, INK)
    py += 36
    for i in range(len(TOTEM_LABELS)):
        xx = x + (i % 2) * (w // 2)
        yy = py + (i // 2) * 34
        _totem_icon(d, i, xx, yy)
        draw_text(d, (xx + TOTEM_ROOM, yy), tr(ANIMALS[i]), w // 2 - TOTEM_ROOM - 4, 21, min_size=14)
    py += 3 * 34 + 8
    _rolled_icon(d, x, py)
    py += draw_text(d, (x + 34, py), tr("the rolled totem"), w - 34, 21, min_size=14) + 10
    if view.seat is not None:
        draw_legend(d, x, py, w, tr("your last hut"), size=22)

    if last:
        _draw_revealed(image, d, last, names, n, by + CELL * SIZE + 44, mini, n)
    return image


def _tasks(view) -> list[tuple[BoardInfo, tuple[int, ...]]]:
    """The task boards in play, each once, with the seats playing it (as the board in words
    lists them): one for all on a shared board, one a seat with one board each."""
    seats: dict[tuple[int, str], list[int]] = {}
    for s, info in enumerate(view.boards):
        seats.setdefault((info.board, info.side), []).append(s)
    return [(view.boards[group[0]], tuple(group)) for group in seats.values()]


GRID_GAP = 24  # between the task boards of the channel's picture


def _grid(tasks: int) -> tuple[int, int, int]:
    """(columns, cell, margin) of the channel's task boards when the seats play different ones:
    two side by side, three in a row, four two by two."""
    cols = 3 if tasks == 3 else 2
    margin = 24 if cols == 3 else 30
    column = (WIDTH - 2 * PAD - (cols - 1) * GRID_GAP) // cols
    cell = min(60 if tasks == 2 else 54, (column - margin) // SIZE)
    return cols, cell, margin


HEADING, HEADING_MIN = 22, PHONE_SIZE  # a task board's heading (the names of its seats and the board)
_HEADING_H = 36  # its line and the room under it


def _every_board_picture(view, names, header: Header, seats: list[SeatLine], tasks) -> Image.Image:
    """The channel's picture while the seats play different task boards (one board each, or
    hard seats on a shared board): every board, headed by the names of the seats playing it,
    with the die and the water needed above and the legend below.  The villages stay hidden,
    as they are from every spectator until the round ends."""
    n, last = view.players, view.last_round
    cols, cell, margin = _grid(len(tasks))
    column = (WIDTH - 2 * PAD - (cols - 1) * GRID_GAP) // cols
    side = margin + cell * SIZE
    row_h = _HEADING_H + side + 16
    rows = -(-len(tasks) // cols)
    mini, _ = _revealed_layout(n, False)
    extra = _revealed_height(n, mini, n) if last else 0
    height = header_height(header) + strip_height(seats) + 56 + rows * row_h + 34 + _LEGEND_H + extra + PAD
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    d = ImageDraw.Draw(image)
    y = draw_header(d, header)
    y += draw_strip(d, seats, y) + 12
    sub = ntr(
        "Die: {animal} (start there) · goal {n} water hole",
        "Die: {animal} (start there) · goal {n} water holes",
        view.water_target,
        animal=tr(view.animal),
    )
    draw_text(d, (PAD, y), sub, WIDTH - 2 * PAD, 26, min_size=18, bold=True)
    y += 44
    for k, (info, group) in enumerate(tasks):
        r, c = divmod(k, cols)
        left = PAD + c * (column + GRID_GAP) + (column - side) // 2
        top = y + r * row_h
        _task_heading(d, (left, top), side, info, group, names)
        bx, by = left + margin, top + _HEADING_H + margin
        _board(image, info, view.totem, (), HUT, bx, by, cell, margin=margin)
    y += rows * row_h
    draw_text(
        d, (PAD, y - 6), tr("villages stay hidden until the round ends"), WIDTH - 2 * PAD, 21, fill=MUTED
    )
    y += 34
    y += _draw_legend_band(d, y, view.stack_left)
    if last:
        _draw_revealed(image, d, last, names, n, y + 8, mini, n)
    return image


def _task_heading(d, xy: tuple[int, int], width: int, info: BoardInfo, group, names) -> None:
    """A task board's heading: the marks and names of the seats playing it, in their colours,
    and the board (a long name is shortened, ending in "…", so that the board is drawn whole)."""
    x, y = xy
    for s in group:
        seat_mark(d, x + 13, y + 15, 13, s)
        x += 32
    width -= x - xy[0]
    height = int(HEADING * LEADING + 0.5)
    most = max(len(seat_name(names, s)) for s in group)
    spans = _heading_spans(info, group, names, most)
    while most > 1 and fit(spans, width, height, HEADING, HEADING_MIN, True).cut:
        most -= 1
        spans = _heading_spans(info, group, names, most)
    draw_text(d, (x, y), spans, width, HEADING, min_size=HEADING_MIN, bold=True)


def _heading_spans(info: BoardInfo, group, names, most: int) -> list[Span]:
    """A task board's heading with each name cut to ``most`` characters (and "…")."""
    cut: list[list[Span]] = []
    for s in group:
        name = seat_name(names, s)
        cut.append([(name if len(name) <= most else name[:most].rstrip() + "…", seat_colour(s))])
    return say(
        N_("{names}: board {board}{side}"),
        INK,
        names=list_spans(cut),
        board=str(info.board),
        side=tr(SIDE_WORDS[info.side]) if info.side in SIDE_WORDS else info.side,
    )


_LEGEND_H = 2 * 36 + 16


def _draw_legend_band(d, y: int, stack_left: int) -> int:
    """The legend in two rows across the picture (under the task boards of the channel's
    picture): the water hole, the fruit bush, the rolled totem and the boards left in the
    stack, then the six totems.  Returns the height used."""

    _legend_row(
        d,
        y,
        [
            (lambda x: _water_icon(d, x, y), tr("water hole"), INK),
            (lambda x: _fruit_icon(d, x, y), tr("fruit bush"), INK),
            (lambda x: _rolled_icon(d, x, y), tr("the rolled totem"), INK),
            (None, tr("Boards left in the stack: {n}", n=stack_left), MUTED),
        ],
    )
    y += 36
    _legend_row(
        d,
        y,
        [(lambda x, i=i: _totem_icon(d, i, x, y), tr(ANIMALS[i]), INK) for i in range(len(TOTEM_LABELS))],
        TOTEM_ROOM,
    )
    return _LEGEND_H


# The legend's icons, each in a 26 px square at (x, y): the side panel's and the legend band's.


def _water_icon(d, x: int, y: int) -> None:
    d.ellipse((x, y, x + 26, y + 26), fill=WATER)


def _fruit_icon(d, x: int, y: int) -> None:
    d.ellipse((x + 2, y + 2, x + 24, y + 24), fill=FRUIT)


def _rolled_icon(d, x: int, y: int) -> None:
    d.rectangle((x, y + 2, x + 24, y + 26), outline=GOLD_FRAME, width=4)


# A totem in the legends: a pill of its colour around its short name, as large as the words
# beside it (on a 26 px disc the name was set at 9 or 10, 2.3 px tall on a phone; now 5).
TOTEM_PILL, TOTEM_NAME = (54, 30), 21


def _totem_icon(d, i: int, x: int, y: int) -> None:
    """A totem's colour with its short name, as the boards draw it, in the legends."""
    w, h = TOTEM_PILL
    d.rounded_rectangle((x, y - 2, x + w - 1, y + h - 3), radius=h // 2, fill=TOTEM_COLOURS[i], outline=INK)
    text = tr(TOTEM_LABELS[i])
    size = TOTEM_NAME
    while size > 14 and text_width(text, size, True) > w - 8:
        size -= 1
    centred_text(d, (x + w / 2, y + h / 2 - 2), text, font(size, True), fill=ink_on(TOTEM_COLOURS[i]))


LEGEND_SIZE, ICON = 21, 34  # the legend band's text, and the room of an item's icon
TOTEM_ROOM = TOTEM_PILL[0] + 8  # a totem's icon's room


def _legend_row(d, y: int, items, icon_room: int = ICON) -> None:
    """Legend items (an icon drawn at x, or None; the text; its colour) across the picture on one
    line: spread out with even gaps when they fit at their size, else in equal columns, the
    text shrinking to fit."""
    w = WIDTH - 2 * PAD
    widths = [(icon_room if icon else 0) + text_width(text, LEGEND_SIZE) for icon, text, _ in items]
    gap = (w - sum(widths)) / (len(items) - 1)
    x = float(PAD)
    for k, (icon, text, fill) in enumerate(items):
        if gap < 16:  # too long for even gaps: equal columns
            x, room = PAD + k * w / len(items), w / len(items) - 12
        else:
            room = widths[k] + 1
        if icon:
            icon(int(x))
        tx = int(x) + (icon_room if icon else 0)
        draw_text(d, (tx, y), text, room - (icon_room if icon else 0), LEGEND_SIZE, min_size=14, fill=fill)
        x += widths[k] + gap


def _revealed_layout(n: int, over: bool) -> tuple[int, int]:
    """(cell, columns) of the revealed villages: large on the final board, small during play."""
    if not over:
        return (32 if n <= 3 else 30), n
    cols = 2 if n == 4 else n
    return min(56, ((WIDTH - 2 * PAD) // cols - 40) // SIZE), cols


def _revealed_height(n: int, cell: int, cols: int) -> int:
    return 50 + -(-n // cols) * (44 + cell * SIZE + 16)


def _draw_revealed(image, d, last, names, n: int, top: int, cell: int, cols: int) -> None:
    """The finished round with every village revealed, each labelled with its points."""
    from engines.nowa_gwinea.rules import board_info

    d.line((PAD, top - 6, WIDTH - PAD, top - 6), fill=RULE, width=2)
    draw_text(
        d,
        (PAD, top),
        tr("Round {round}: every village revealed", round=last["round"]),
        WIDTH - 2 * PAD,
        28,
        bold=True,
    )
    step = (WIDTH - 2 * PAD) // cols
    for s in range(n):
        r, c = divmod(s, cols)
        ox = PAD + c * step + (step - cell * SIZE) // 2
        oy = top + 50 + r * (44 + cell * SIZE + 16) + 44
        info = board_info(last["boards"][s], last["sides"][s])
        _board(image, info, last["totem"], last["villages"][s], HUT, ox, oy, cell)
        row = last["rows"][s]
        # the fruit bonus goes to the caller, or at a deadline to whoever counts as one (who
        # did not call: the board in words and the round's scores say so too)
        bonus, broken = last.get("caller") == s, bool(row["broken"])
        called = bonus and last.get("how") == "gwinea"
        if called and broken:
            caption = N_("{name} +{points} (called) broken")
        elif called:
            caption = N_("{name} +{points} (called)")
        elif bonus:
            caption = N_("{name} +{points} (fruit bonus)")
        elif broken:
            caption = N_("{name} +{points} broken")
        else:
            caption = N_("{name} +{points}")
        seat_mark(d, ox + 13, oy - 20, 13, s)
        _caption(d, (ox + 32, oy - 36), cell * SIZE - 32, caption, seat_name(names, s), row["points"], s)


# A revealed village's caption: its size, shrinking to the least (4.7 px on a phone), then on two
# lines at the least (a small board's is narrower than "Ana +15 (called) broken" at 19), then
# with the name shortened.
CAPTION_SIZE, CAPTION_MIN = 24, PHONE_SIZE
CAPTION_LINE = int(CAPTION_MIN * LEADING + 0.5)


def _caption(d, xy: tuple[int, int], width: int, msg: str, name: str, points: int, seat: int) -> None:
    """A revealed village's caption, its top line at ``xy``: the name, its points and whether it
    called.  On one line, or on two ending where one would (just above the board); when a long
    name does not fit even so, the name is shortened (ending in "…") until the caption fits: the
    points and the call are drawn whole (they are what the caption is for), in the language's
    own order.  A right-to-left name is isolated, once shortened (:func:`languages.bidi.isolated`):
    the points stay after it, "+8" and not "8+"."""
    height = int(CAPTION_SIZE * LEADING + 0.5)  # one line, as draw_text gives it
    text, short = tr(msg, name=isolated(name), points=points), name
    spans = [(text, seat_colour(seat))]
    if not fit(spans, width, height, CAPTION_SIZE, CAPTION_MIN, True).cut:
        draw_text(d, xy, spans, width, CAPTION_SIZE, min_size=CAPTION_MIN, bold=True)
        return
    two = 2 * CAPTION_LINE
    while short and fit(text, width, two, CAPTION_MIN, CAPTION_MIN, True, 2).cut:
        short = short[:-1].rstrip()
        text = tr(msg, name=isolated(short + "…"), points=points)
    x, y = xy
    top = y + height - two  # the second line ends where the one line would
    draw_text(
        d,
        (x, top),
        [(text, seat_colour(seat))],
        width,
        CAPTION_MIN,
        min_size=CAPTION_MIN,
        bold=True,
        max_lines=2,
    )


render, draw_board = board_entry_points(_board_picture, "nowa_gwinea")

OPTIONS_SHOWN = frozenset({"water_target"})
"""The options every board of this game states already (the water holes a call needs, "goal 3 water
holes" on the die's line): the table leaves them out of the header's line of options."""
