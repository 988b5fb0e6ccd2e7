"""Renderer tests: PNG images of spectator and seat views at several points of a game."""

from __future__ import annotations

import io
import math
import random

from PIL import Image, ImageChops

from engines import pachakuna as P
from engines.pachakuna import data as D
from renderers import pachakuna as R
from renderers.colours import MARK
from renderers.translation import speaking


def _states():
    s = P.new_game(P.Config(board=P.Board.B), 2, 7)
    rng = random.Random(7)
    out = [s]
    for i in range(160):
        seat = s.turn
        legal = P.legal_moves(s, seat)
        s, _ = P.apply_move(s, seat, P.computer_move(P.view_for(s, seat), legal, rng))
        if i in (3, 40, 159) or P.outcome(s):
            out.append(s)
        if P.outcome(s):
            break
    return out


def test_render_spectator_and_seats():
    """Renderer: spectator and seat views give phone-sized PNGs that change with the game."""
    images = set()
    for s in _states():
        for seat in (None, 0, 1):
            png = R.render(P.view_for(s, seat), names=["Ana", "Bob"])
            img = Image.open(io.BytesIO(png))
            assert img.format == "PNG" and 1000 <= img.size[0] <= 1400 and img.size[1] >= 700
            img.convert("RGB")
            images.add(png)
    assert len(images) >= 8


def test_render_finished_game_and_limit():
    """Renderer: a won game and a turn-limited game draw without names."""
    s = P.new_game(P.Config(max_turns=2), 2, 1)
    s, _ = P.apply_move(s, 0, P.End())
    s, _ = P.apply_move(s, 1, P.End())
    assert P.outcome(s) is not None
    png = R.render(P.view_for(s, None))
    assert Image.open(io.BytesIO(png)).width == R.WIDTH
    s2 = P.new_game(P.Config(), 2, 1)
    s2.phase, s2.winner = "over", 1
    assert R.render(P.view_for(s2, 0)) != png


def _limit_reached(colours: tuple[int, int], totals: tuple[int, int]) -> P.View:
    """A game ended by a turn limit of 2, with each seat holding ``colours`` colours among
    ``totals`` resources."""
    s = P.new_game(P.Config(max_turns=2), 2, 1)
    s, _ = P.apply_move(s, 0, P.End())
    s, _ = P.apply_move(s, 1, P.End())
    for seat in (0, 1):
        s.supply[seat] = {k: 0 for k in s.supply[seat]}
        for colour in ("white", "yellow", "orange", "red", "purple", "blue", "green")[: colours[seat]]:
            s.supply[seat][colour] = 1
        s.supply[seat]["brown"] = totals[seat] - colours[seat]
    return P.view_for(s, None)


def _header_text(view: P.View) -> str:
    return "".join(text for text, _ in R._header(view, ["Ana", "Bob"], None).status)


def test_the_turn_limit_board_ranks_as_the_outcome():
    """Renderer: a game stopped by the turn limit ranks the seats by colours, then resources, as
    the outcome does (the seat with fewer colours is second, not first as well), and the header
    names the winner."""
    view = _limit_reached((2, 6), (3, 9))
    places = {line.seat: line.place for line in R._seat_lines(view, ["Ana", "Bob"])}
    assert places == {0: 2, 1: 1}
    assert "Bob" in _header_text(view) and "Ana" not in _header_text(view)
    tied_colours = _limit_reached((4, 4), (9, 5))
    assert {line.seat: line.place for line in R._seat_lines(tied_colours, None)} == {0: 1, 1: 2}
    tied = _limit_reached((3, 3), (5, 5))
    assert {line.seat: line.place for line in R._seat_lines(tied, None)} == {0: 1, 1: 1}
    assert "Ana" in _header_text(tied) and "Bob" in _header_text(tied)


def test_a_won_game_ranks_the_winner_first():
    """Renderer: the seat that collected all seven colours is first, the other second."""
    s = P.new_game(P.Config(), 2, 1)
    s.phase, s.winner = "over", 1
    view = P.view_for(s, None)
    assert {line.seat: line.place for line in R._seat_lines(view, None)} == {0: 2, 1: 1}


def test_the_random_board_is_named_in_the_language_drawn():
    """Renderer: the header names a random board in the picture's language ("aleatorio" in
    Spanish, not the option's English value); plans A and B keep their letters."""
    random_board = P.view_for(P.new_game(P.Config(board=P.Board.RANDOM), 2, 5), None)
    plan_b = P.view_for(P.new_game(P.Config(board=P.Board.B), 2, 5), None)
    with speaking("es"):
        assert R._header(random_board, None, None).info == "tablero aleatorio · turno 1"
        assert R._header(plan_b, None, None).info == "tablero B · turno 1"
    assert R._header(random_board, None, None).info == "board random · turn 1"


def _flags(board: Image.Image, village: int) -> bytes:
    """The pixels inside the two demand flags drawn on ``village`` (the big one, then the small)."""
    cx, cy = R.centre(village)
    x, y = round(cx), round(cy + R.DEMAND_Y)
    inside = b""
    for x0, y0, x1, y1 in (R.BIG_FLAG, R.SMALL_FLAG):  # each flag within its 2 px outline
        inside += board.crop((x + x0 + 2, y + y0 + 2, x + x1 - 1, y + y1 - 1)).tobytes()
    return inside


def test_llamas_and_roads_leave_a_villages_demand_readable():
    """Renderer: the demand flags on a village stay whole when llamas stand there and a road's
    arrow ends there (the arrow head and the llamas' ears covered the small flag)."""
    s = P.new_game(P.Config(), 2, 1)
    empty = R._draw_board(P.view_for(s, None))
    for village in (55, 15):
        crowded = _copy_state(s)
        for seat in (0, 1):
            for ident in (1, 2, 3):
                found = P.rules.llama(crowded, seat, ident)
                if found is None:
                    crowded.llamas.append(P.Llama(seat, ident, village, "red"))
                else:
                    found.cell = village
        crowded.turn_log = ["m1-" + str(village)]
        crowded.turn_routes = [[c, village] for c in ((45, 56, 64) if village == 55 else (14,))]
        for count in (1, 2, 6):
            crowded.llamas = crowded.llamas[:count]
            board = R._draw_board(P.view_for(crowded, None))
            assert _flags(board, village) == _flags(empty, village), (village, count)
            # each road still shows where it ends: its arrow head stops inside the village
            assert _arrow_heads(board, village) == len(crowded.turn_routes), (village, count)


def _arrow_heads(board: Image.Image, village: int) -> int:
    """How many roads show an arrow head inside ``village``: magenta wider across than a road's
    line (6 pixels) 12 pixels behind where the head stops."""
    cx, cy = R.centre(village)
    rgb = board.convert("RGB")
    heads = 0
    for direction, _cell in D.NEIGHBOURS[village]:
        angle = math.radians(60 * direction)  # edge 0 is east, then clockwise (y grows down)
        ux, uy = math.cos(angle), math.sin(angle)
        back = (R.ARROW_REACH_BELOW if direction in (1, 2) else R.ARROW_REACH) + 12  # 1, 2: from below
        px, py = cx + ux * back, cy + uy * back
        across = [(round(px - uy * t), round(py + ux * t)) for t in range(-12, 13)]
        heads += sum(rgb.getpixel(p) == MARK for p in across) > 7
    return heads


def _copy_state(s: P.State) -> P.State:
    return P.from_dict(P.to_dict(s))


def test_two_digit_supply_counts_stay_inside_their_discs():
    """Renderer: a supply disc's letter and count (``W12``, ``R23``) are drawn small enough to
    stay inside the disc: the box's own colour all round each disc, beside it left and right."""
    from PIL import ImageDraw

    from renderers.colours import ACTIVE, PANEL

    s = P.new_game(P.Config(), 2, 1)
    s.supply[0].update(white=12, yellow=15, orange=9, red=23, purple=1, blue=10, green=99)
    view = P.view_for(s, 0)
    width = R.WIDTH - R.PAD - R.BOARD_W - 4
    for seat, fill in ((0, ACTIVE), (1, PANEL)):  # White is to play: its box is the active one
        img = Image.new("RGB", (width + 20, 200), (0, 0, 0))
        R._player_box(ImageDraw.Draw(img), 0, 0, width, view, seat, ["Ana", "Bob"])
        disc = R.SUPPLY_DISC
        step = min(disc + 12, (width - 12) // 4)
        for i in range(7):  # two rows of four
            left, top = 8 + (i % 4) * step, 46 + (i // 4) * (disc + R.SUPPLY_GAP)
            for y in range(top + disc // 2 - 7, top + disc // 2 + 8):
                assert img.getpixel((left - 2, y)) == fill, (seat, i, y)
                assert img.getpixel((left + disc + 2, y)) == fill, (seat, i, y)


def _status(view) -> str:
    return "".join(text for text, _ in R._header(view, ["Ana", "Beto"], None).status)


def test_the_header_offers_no_tile_turn_the_player_cannot_pay_for():
    """After the free turn, a player holding fewer than the 2 resources another tile costs may
    only move llamas, and the header says so (as the board in words does), rather than offering
    'turn tiles (next costs 2)'; with 2 resources it offers the next tile at its price."""
    from tests.pachakuna.helpers import give, play

    s = play(P.new_game(P.Config(), 2, 1), 0, "end")
    give(s, 1, brown=0)
    s = play(s, 1, "r56+0")
    assert not [m for m in P.legal_moves(s, 1) if isinstance(m, P.Rotate)]
    poor = _status(P.view_for(s, None))
    assert poor == "Beto, Black, to play: move llamas (another tile would cost 2, more than they hold)"
    with speaking("es"):
        assert _status(P.view_for(s, None)) == (
            "Le toca a Beto, Negro: mueve llamas (otra loseta costaría 2, más de lo que tiene)"
        )
    give(s, 1, brown=2)
    assert _status(P.view_for(s, None)) == "Beto, Black, to play: turn tiles (next costs 2) or move llamas"


PHONE = 400  # the width Discord shows a picture at on a phone


def _ink_rows(part: Image.Image, ink, ground) -> list[int]:
    """The rows of ``part`` holding a pixel nearer to ``ink`` than to ``ground`` (a letter's
    anti-aliased edge counted as far as it is more ink than ground)."""

    def near(p, c):
        return sum((a - b) ** 2 for a, b in zip(p, c, strict=True))

    return [
        v
        for v in range(part.height)
        if any(
            near(part.getpixel((u, v)), ink) < near(part.getpixel((u, v)), ground) for u in range(part.width)
        )
    ]


def test_field_numbers_read_on_a_phone():
    """A field's number names it in every move: in the picture shown 400 px wide, as on a phone,
    its digits are 6 px tall or more (4.3 px before)."""
    state = P.new_game(P.Config(board=P.Board.A), 2, 3)
    view = P.view_for(state, None)
    board = R._draw_board(view).convert("RGB")
    held = {m.cell for m in view.llamas}
    scale = PHONE / R.WIDTH  # the board is drawn in a picture WIDTH pixels wide
    for cell in (12, 33, 48, 74, 86, 94):
        assert cell not in held and cell not in D.VILLAGES
        cx, cy = R.centre(cell)
        part = board.crop((int(cx - R.R * 0.8), int(cy - R.R), int(cx + R.R * 0.8), int(cy - 8)))
        rows = [
            v for v in range(part.height) if any(part.getpixel((u, v)) == R.INK for u in range(part.width))
        ]
        assert rows, cell
        height = (rows[-1] - rows[0] + 1) * scale
        assert height >= 6, (cell, height)
    # a village's number, inside its outline (drawn in ink too), is measured by its font
    _, top, _, bottom = R.font(R.NUMBER_VILLAGE_SIZE, True).getbbox("59")
    assert (bottom - top) * scale >= 6


def test_a_villages_demand_letters_read_on_a_phone():
    """A village's demand is told by its flags' letters besides their colours: shown 400 px wide,
    as on a phone, the big flag's letter is 5 px tall and the small one's 4.7, narrowed to its
    flag (3.7 and 2.3 px at first, then 5 and 4), each inside its flag."""
    from PIL import ImageDraw

    scale = PHONE / R.WIDTH
    ground = (0, 128, 128)  # a colour no flag has
    for demand in ("RY", "GB", "WO", "PW", "BR", "YG", "OP"):
        canvas = Image.new("RGB", (120, 80), ground)
        R._demand(ImageDraw.Draw(canvas), 60, 40, demand)
        flags = []
        for colour in D.demand_colours(demand):
            fill = R.COLOUR_RGB[colour]
            mask = Image.new("1", canvas.size)
            mask.putdata([canvas.getpixel((u, v)) == fill for v in range(80) for u in range(120)])
            x0, y0, x1, y1 = mask.getbbox()
            flags.append((x1 - x0, colour, canvas.crop((x0, y0, x1, y1))))
        (big_w, _, _), (small_w, _, _) = flags
        assert big_w > small_w, demand
        for (_, colour, inside), least in zip(flags, (5, 4.6), strict=True):
            rows = _ink_rows(inside, R._ink_on(colour), R.COLOUR_RGB[colour])
            assert rows and (rows[-1] - rows[0] + 1) * scale >= least, (demand, colour)


def test_a_seats_supply_letters_read_on_a_phone():
    """A seat's supply is a disc per colour with the colour's letter and the count (Y1): shown
    400 px wide, as on a phone, the letters are 5 px tall (3.7 px before, eight discs in one row)."""
    from PIL import ImageDraw

    from renderers.samples import positions

    pos = next(p for p in positions("pachakuna") if p.label == "2p-board=B-max_turns=60-end")
    view = pos.view(0)
    scale = PHONE / R.WIDTH
    for seat in (0, 1):
        canvas = Image.new("RGB", (340, 260), (0, 128, 128))
        h = int(R._player_box(ImageDraw.Draw(canvas), 8, 8, 324, view, seat, pos.names)) - 8
        held = [c for c, n in view.supply[seat] if n and c in D.COLOURS]
        assert len(held) >= 4
        for colour in held:
            band = canvas.crop((0, 48, 340, 8 + h - 52))  # the discs, above the llamas' line
            mask = Image.new("1", band.size)
            fill = R.COLOUR_RGB[colour]
            mask.putdata(
                [band.getpixel((u, v)) == fill for v in range(band.height) for u in range(band.width)]
            )
            x0, y0, x1, y1 = mask.getbbox()
            q = (y1 - y0) // 4  # the disc's middle, inside its round edge
            inside = band.crop((x0 + q // 2, y0 + q, x1 - q // 2, y1 - q))
            rows = _ink_rows(inside, R._ink_on(colour), fill)
            assert rows and (rows[-1] - rows[0] + 1) * scale >= 5, (seat, colour)


def test_the_used_demands_letters_read_on_a_phone():
    """The side panel lists the demands used: shown 400 px wide, as on a phone, their big flag's
    letter is 5 px tall and the small one's 4.7 (2.7 px and no letter at first, then 5 and 4),
    as on a village;
    the rows stop above the legend, the latest demands kept."""
    scale = PHONE / R.WIDTH
    ground = (0, 128, 128)  # a colour no flag has
    width = R.WIDTH - R.PAD - R.BOARD_W - 4  # the panel's
    for demand in ("RY", "GB", "WO", "PW", "BR", "YG", "OP"):
        canvas = Image.new("RGB", (width, 80), ground)
        R._used_row(canvas, 0, 10, width, (demand,), 70)
        flags = []
        for colour in D.demand_colours(demand):
            fill = R.COLOUR_RGB[colour]
            mask = Image.new("1", canvas.size)
            mask.putdata([canvas.getpixel((u, v)) == fill for v in range(80) for u in range(width)])
            box = mask.getbbox()
            assert box, (demand, colour)  # each flag in its colour
            flags.append((colour, canvas.crop(box)))
        for (colour, inside), least in zip(flags, (5, 4.6), strict=True):
            rows = _ink_rows(inside, R._ink_on(colour), R.COLOUR_RGB[colour])
            assert rows and (rows[-1] - rows[0] + 1) * scale >= least, (demand, colour)
    used = tuple(["RY", "GB", "WO", "PW"] * 8)
    canvas = Image.new("RGB", (width, 400), ground)
    end = R._used_row(canvas, 0, 10, width, used, 150)
    assert end <= 150
    assert canvas.crop((0, 151, width, 400)).getcolors() == [(width * 249, ground)]


def test_a_llamas_load_reads_on_a_phone():
    """A llama's load is a square of its colour with the colour's letter, on the board and in its
    seat's list of llamas: the letter was set at 12 in a 16 px square, 3 px tall shown 400 px
    wide, as on a phone.  For every colour, on both seats' llamas, the letter now stands 4.7 px
    or more inside its square, and on the board the llama's number stays clear of the square."""
    from dataclasses import replace

    from PIL import ImageChops, ImageDraw

    from renderers.samples import positions

    scale = PHONE / R.WIDTH
    ground = (0, 128, 128)  # a colour no piece has
    pos = next(p for p in positions("pachakuna") if p.label == "2p-board=A-end")
    view = pos.view(None)
    for colour in D.COLOURS:
        fill = R.COLOUR_RGB[colour]
        for seat in (0, 1):
            drawn = []
            for ident in (1, 2):
                canvas = Image.new("RGB", (80, 80), ground)
                R._llama(ImageDraw.Draw(canvas), 40, 40, seat, ident, colour)
                drawn.append(canvas)
            mask = Image.new("1", (80, 80))
            mask.putdata([drawn[0].getpixel((u, v)) == fill for v in range(80) for u in range(80)])
            square = mask.getbbox()
            rows = _ink_rows(drawn[0].crop(square), R._ink_on(colour), fill)
            assert rows and (rows[-1] - rows[0] + 1) * scale >= 4.6, (colour, seat, rows)
            number = ImageChops.difference(*drawn).getbbox()  # where 1 and 2 differ
            assert number[2] < square[0] or number[3] < square[1], (colour, seat, number, square)
        # the seat's llamas in the side panel: each token, its load's disc and its field
        llamas = tuple(replace(m, load=colour) for m in view.llamas)
        loaded = replace(view, llamas=llamas)
        canvas = Image.new("RGB", (340, 260), ground)
        bottom = int(R._player_box(ImageDraw.Draw(canvas), 8, 8, 324, loaded, 0, pos.names))
        band = canvas.crop((0, bottom - 44, 340, bottom))  # the llamas' line, under the supply
        mask = Image.new("1", band.size)
        mask.putdata([band.getpixel((u, v)) == fill for v in range(band.height) for u in range(band.width)])
        square = mask.getbbox()
        assert square, colour
        rows = _ink_rows(band.crop(square), R._ink_on(colour), fill)
        assert rows and (rows[-1] - rows[0] + 1) * scale >= 4.6, (colour, rows)


def test_two_llamas_on_a_tile_each_show_their_number_and_load_whole():
    """Two llamas on one tile: each one's number and load are drawn as when it stands alone
    (before, the right one's body hid half the left one's load), and the pair stays inside the
    field's width."""
    from PIL import ImageDraw

    ground = (0, 128, 128)
    for pair in (
        (P.Llama(0, 1, 33, "white"), P.Llama(1, 1, 33, "white")),
        (P.Llama(0, 2, 33, "red"), P.Llama(0, 3, 33, None)),
        (P.Llama(1, 1, 33, "green"), P.Llama(1, 2, 33, "yellow")),
    ):
        together = Image.new("RGB", (200, 120), ground)
        R._llamas_on(ImageDraw.Draw(together), 100, 60, pair)
        spots = R.llama_spots(100, 60, 2)
        ordered = sorted(pair, key=lambda m: (m.seat, m.id))
        for (x, y), lm in zip(spots, ordered, strict=True):
            alone = Image.new("RGB", (200, 120), ground)
            R._llama(ImageDraw.Draw(alone), x, y, lm.seat, lm.id, lm.load)
            nx, ny = x + R.LLAMA_NUMBER[0], y + R.LLAMA_NUMBER[1]
            ink = R.font(R.PHONE_SIZE, True).getbbox(str(lm.id), anchor="mm")  # the number's ink
            number = (int(nx + ink[0]), int(ny + ink[1]), int(nx + ink[2]) + 1, int(ny + ink[3]) + 1)
            load = (
                int(x + R.LOAD_BOX[0]),
                int(y + R.LOAD_BOX[1]),
                int(x + R.LOAD_BOX[2]) + 1,
                int(y + R.LOAD_BOX[3]) + 1,
            )
            for box in (number, load):
                assert together.crop(box).tobytes() == alone.crop(box).tobytes(), (pair, lm, box)
        left, _, right, _ = _drawn(together, ground)
        assert right - left <= R.SQ3 * R.R, (pair, left, right)  # a field is 83 px across


def _drawn(canvas: Image.Image, ground: tuple[int, int, int]) -> tuple[int, int, int, int]:
    """The box of what was drawn on ``canvas`` over its ``ground``."""
    from PIL import ImageChops

    box = ImageChops.difference(canvas, Image.new("RGB", canvas.size, ground)).getbbox()
    assert box is not None
    return box


def test_three_or_more_llamas_on_a_field_make_a_herd_with_each_sides_count():
    """Three llamas side by side are wider than a field: from three on, one tag shows each side's
    llama shape and how many of its llamas stand there, inside the field's width (before, the
    llamas overlapped each other's numbers and loads and the neighbouring fields)."""
    from PIL import ImageDraw

    ground = (0, 128, 128)
    drawn = {}
    for whites, blacks in ((3, 0), (2, 1), (1, 2), (0, 3), (3, 3), (2, 2)):
        herd = [P.Llama(0, i + 1, 33, "red") for i in range(whites)]
        herd += [P.Llama(1, i + 1, 33, None) for i in range(blacks)]
        canvas = Image.new("RGB", (200, 120), ground)
        R._llamas_on(ImageDraw.Draw(canvas), 100, 60, herd)
        left, top, right, bottom = _drawn(canvas, ground)
        assert right - left <= R.SQ3 * R.R and bottom - top <= 30, (whites, blacks)
        colours = {c for _, c in canvas.getcolors(1 << 16)}
        assert (R.LLAMA_BODY[0] in colours) == bool(whites) and (R.LLAMA_BODY[1] in colours) == bool(blacks)
        assert R.COLOUR_RGB["red"] not in colours  # loads are in the sides' lists, not on a herd
        drawn[whites, blacks] = canvas.tobytes()
    assert len(set(drawn.values())) == len(drawn)  # each count reads differently


def _in_field(x: float, y: float, cx: float, cy: float) -> bool:
    """Whether the point ``x, y`` lies in the field (a pointy-top hex) centred at ``cx, cy``."""
    dx, dy = abs(x - cx), abs(y - cy)
    apothem = R.R * R.SQ3 / 2
    return dx <= apothem and dx / 2 + dy * R.SQ3 / 2 <= apothem


def test_a_villages_llamas_stand_inside_it_clear_of_its_flags_and_number():
    """Renderer: one, two or more llamas on a village (both sides' first llamas start on 55) are
    drawn inside the village, in the band between its number and its demand flags, each one's
    token whole in its side's shape and colour (before, the llamas stood half under the flags and
    over the village's edge onto 64 and 65, and White's was hidden under Black's)."""
    s = P.new_game(P.Config(), 2, 1)
    s.llamas = []
    groups = (
        [(0, 1)],
        [(1, 2)],
        [(0, 1), (1, 1)],
        [(0, 1), (0, 2)],
        [(0, 1), (0, 2), (1, 1)],
        [(0, 1), (0, 2), (0, 3), (1, 1), (1, 2), (1, 3)],
    )
    for village in (55, 15, 91):
        cx, cy = R.centre(village)
        flagged = _copy_state(s)
        bare = _copy_state(s)
        bare.demands[village] = None
        empty = R._draw_board(P.view_for(bare, None))
        for group in groups:
            llamas = [P.Llama(seat, ident, village, "red") for seat, ident in group]
            bare.llamas = flagged.llamas = llamas
            board = R._draw_board(P.view_for(bare, None))
            changed = ImageChops.difference(board, empty)
            flags = [
                (cx + x0, cy + R.DEMAND_Y + y0, cx + x1, cy + R.DEMAND_Y + y1)
                for x0, y0, x1, y1 in (R.BIG_FLAG, R.SMALL_FLAG)
            ]
            number_bottom = cy - R.NUMBER_VILLAGE_Y + R.NUMBER_VILLAGE_SIZE / 2 - 1  # its box's last row
            box = changed.getbbox()
            assert box is not None
            for v in range(box[1], box[3]):
                for u in range(box[0], box[2]):
                    if changed.getpixel((u, v)) != (0, 0, 0):
                        x, y = u + 0.5, v + 0.5
                        assert _in_field(x, y, cx, cy), (village, group, u, v)
                        assert y > number_bottom, (village, group, u, v)
                        assert not any(x0 <= x <= x1 and y0 <= y <= y1 for x0, y0, x1, y1 in flags), (u, v)
            seen = R._draw_board(P.view_for(flagged, None))
            assert seen.crop(box).tobytes() == board.crop(box).tobytes()  # the flags cover none of it
            for seat in (0, 1):  # each side's body colour, over a whole shape, where it has llamas
                body = sum(
                    1
                    for v in range(box[1], box[3])
                    for u in range(box[0], box[2])
                    if changed.getpixel((u, v)) != (0, 0, 0) and board.getpixel((u, v)) == R.LLAMA_BODY[seat]
                )
                assert (body >= 100) == any(m.seat == seat for m in llamas), (village, group, seat, body)
            if len(group) < R.HERD:  # each token as it is drawn alone
                from PIL import ImageDraw

                spots = R.village_spots(cx, cy + R.VILLAGE_LLAMA_Y, len(group))
                for (x, y), lm in zip(spots, llamas, strict=True):
                    alone = empty.copy()
                    R._token(ImageDraw.Draw(alone), x, y, lm.seat, lm.id, lm.load)
                    token = ImageChops.difference(alone, empty).getbbox()
                    assert seen.crop(token).tobytes() == alone.crop(token).tobytes(), (village, group)


def test_a_seats_llamas_in_the_panel_are_the_villages_tokens_with_their_fields():
    """The side panel lists a seat's llamas as a village shows them (the side's shape with the
    number, the load's disc on its right; it read "1@46" beside a square), each followed by the
    number of the field it stands on: the same token is found whole in the panel for every llama,
    and moving a llama changes only what stands beside its token."""
    from dataclasses import replace

    from PIL import ImageDraw

    from renderers.colours import PANEL
    from renderers.samples import positions

    pos = next(p for p in positions("pachakuna") if p.label == "2p-board=A-end")
    view = pos.view(None)
    loads = ("red", None, "blue")
    for seat in (0, 1):
        mine = [(i, m) for i, m in enumerate(view.llamas) if m.seat == seat]
        llamas = list(view.llamas)
        for k, (i, m) in enumerate(mine):
            llamas[i] = replace(m, load=loads[k % 3])
        shown = replace(view, llamas=tuple(llamas))

        def panel(v, seat=seat):
            canvas = Image.new("RGB", (340, 260), PANEL)
            bottom = int(R._player_box(ImageDraw.Draw(canvas), 8, 8, 324, v, seat, pos.names))
            return canvas.crop((0, bottom - 44, 340, bottom))

        band = panel(shown)
        found = []
        for m in sorted((m for m in shown.llamas if m.seat == seat), key=lambda m: m.id):
            alone = Image.new("RGB", (80, 40), PANEL)
            R._token(ImageDraw.Draw(alone), 25, 20, seat, m.id, m.load)
            token = alone.crop(ImageChops.difference(alone, Image.new("RGB", alone.size, PANEL)).getbbox())
            spot = next(
                (
                    (u, v)
                    for v in range(band.height - token.height + 1)
                    for u in range(band.width - token.width + 1)
                    if not ImageChops.difference(
                        band.crop((u, v, u + token.width, v + token.height)), token
                    ).getbbox()
                ),
                None,
            )
            assert spot is not None, (seat, m.id)
            found.append(spot)
        assert [u for u, _ in found] == sorted(u for u, _ in found)  # by number, left to right
        # moving the first llama to another field changes the band right of its token only
        i, first = min(mine, key=lambda im: im[1].id)
        moved = list(shown.llamas)
        moved[i] = replace(shown.llamas[i], cell=11 if first.cell != 11 else 12)
        changed = ImageChops.difference(band, panel(replace(shown, llamas=tuple(moved)))).getbbox()
        assert changed is not None and changed[0] > found[0][0] + 2 * R.TOKEN, (seat, changed, found)
