"""Renderer: spectator and seat pictures at several points of a game."""

from __future__ import annotations

import io
import random
import re

import pytest
from PIL import Image, ImageDraw

import engines.tiwanaku as T
from engines.tiwanaku.rules import FINAL
from renderers import tiwanaku as R
from renderers.colours import MUTED, seat_colour
from renderers.layout import WIDTH, header_height, strip_height
from renderers.translation import speaking
from renderers.typeset import fit_log, text_width

from .helpers import cell, discover, fixed, put, to_the_end


def _play(players, seed, stop):
    s = T.new_game(T.Config(players=players), players, seed)
    rng = random.Random(seed)
    k = 0
    while T.to_move(s) and k < stop:
        seat = min(T.to_move(s))
        s, _ = T.apply_move(s, seat, T.computer_move(T.view_for(s, seat), T.legal_moves(s, seat), rng))
        k += 1
    return s


def _open(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def test_render_sizes_and_modes():
    """Pictures are phone-sized RGB PNGs, for each board size and player count."""
    for players in (1, 2, 3, 4):
        s = _play(players, 11, 25)
        for seat in (None, 0):
            png = R.render(T.view_for(s, seat), names=[f"P{i}" for i in range(players)])
            img = _open(png)
            assert img.format == "PNG" and img.mode in ("P", "RGB") and len(png) < 150 * 1024
            assert img.width == 1200 and 700 <= img.height <= 2000


def test_render_changes_with_the_game():
    """Different states give different pictures; a finished game renders too."""
    a = R.render(T.view_for(_play(2, 4, 5), None))
    b = R.render(T.view_for(_play(2, 4, 15), None))
    c = R.render(T.view_for(_play(3, 4, 10_000), 1))
    assert a != b and b != c


def test_private_picture_adds_peeks():
    """A seat's picture shows its peeks; the spectator's and the opponent's do not."""
    s = fixed()
    put(s, 0, "C2")
    discover(s, "C2")
    s.peeks[0][cell("B3")] = "D"
    s.peeks[0][cell("C2")] = "3"
    mine = R.draw_board(T.view_for(s, 0))
    other = R.draw_board(T.view_for(s, 1))
    spectator = R.draw_board(T.view_for(s, None))
    assert mine.tobytes() != spectator.tobytes()
    # the opponent's picture differs from the spectator's in its labels, not on the board
    view = T.view_for(s, None)
    top = header_height(R._header(view, None, None)) + strip_height(R._seat_lines(view, None)) + 12
    bw, bh = R._board_size(view.cols)
    crop = (0, top, R.MARGIN + bw, top + bh)
    assert other.crop(crop).tobytes() == spectator.crop(crop).tobytes()
    assert mine.crop(crop).tobytes() != spectator.crop(crop).tobytes()


def _box(points):
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    return min(xs), min(ys), max(xs), max(ys)


def _apart(a, b, gap: int = 4) -> bool:
    return a[2] + gap <= b[0] or b[2] + gap <= a[0] or a[3] + gap <= b[1] or b[3] + gap <= a[1]


@pytest.mark.parametrize("language", [None, "es"])
@pytest.mark.parametrize("cols", [5, 9])
def test_the_diversity_label_overlaps_neither_a_long_name_nor_the_cubes(language, cols):
    """A player's block, beside the 5 x 5 board and under the 5 x 9 one, in English and Spanish:
    the "diversity" label stays clear of the name (a long one included, with "(you)") and of
    four cubes."""
    bw, _ = R._board_size(cols)
    width = WIDTH - bw - 3 * R.MARGIN if cols == 5 else (WIDTH - 2 * R.MARGIN - 10) // 2
    s = fixed()
    s.cubes = [[1, 1, 1, 1], [1, 1, 1, 1]]
    view = T.view_for(s, 0)
    names = ["Maximiliano Fernández de la Vega", "Bartolomé Quispe Huamán"]
    x0 = y0 = 10
    for seat in (0, 1):  # seat 0 is the reader: "(you)" is added to the name
        img = Image.new("RGB", (width + 2 * x0, R.BLOCK_H + 2 * y0), (255, 255, 255))
        with speaking(language):
            R._draw_block(ImageDraw.Draw(img), view, names, seat, x0, y0, width)
        pixels = [((x, y), img.getpixel((x, y))) for y in range(img.height) for x in range(img.width)]
        # the name: the seat's colour on the top line, right of the seat's mark (the levels are lower)
        name = _box([p for p, c in pixels if c == seat_colour(seat) and p[0] > x0 + 40 and p[1] < y0 + 38])
        # the label: muted ink right of the "cubes" word, left of the scales (whose bold digits'
        # edges pass through the muted grey)
        scales = R.scales_left(x0, width)
        diversity = _box([p for p, c in pixels if c == MUTED and x0 + 75 < p[0] < scales])
        cubes = _box([p for p, c in pixels if c in R.TERRAIN_COLOURS.values()])
        assert _apart(name, diversity), (language, cols, seat, name, diversity)
        assert _apart(cubes, diversity), (language, cols, seat, cubes, diversity)


PHONE = 400  # the width Discord shows a picture at on a phone


@pytest.mark.parametrize("language", [None, "es"])
def test_a_plots_terrain_letter_reads_on_a_phone(language):
    """A plot's terrain is told by its letter besides its colour: shown 400 px wide, as on a
    phone, the letter is 6 px tall or more (5.3 px before), on a revealed plot and on one the
    reader peeked at, and stays clear of the crop's disc."""
    s = fixed()
    discover(s, "A1", "A2")
    s.crops[cell("A2")] = 3
    s.peeks[0][cell("B3")] = "D"
    view = T.view_for(s, 0)
    cols = view.cols
    img = Image.new("RGB", (R.LABEL * 2 + cols * R.CELL, R.LABEL * 2 + 5 * R.CELL), (250, 250, 250))
    with speaking(language):
        R._draw_board(img, ImageDraw.Draw(img), view, 0, 0)
    for name, shade in (("A1", R.LETTER_SHADE), ("A2", R.LETTER_SHADE), ("B3", 0.55)):
        at = cell(name)
        x, y = R._cell_xy(at, cols, 0, 0)
        terrain = view.terrain[at] or "D"
        ink = R._darker(R.TERRAIN_COLOURS[terrain], shade)
        corner = img.crop((x, y, x + R.CELL // 2 - 12, y + R.CELL // 2 - 16))
        spots = [
            (u, v)
            for v in range(corner.height)
            for u in range(corner.width)
            if corner.getpixel((u, v)) == ink
        ]
        assert spots, name
        rows = sorted(v for _, v in spots)
        assert (rows[-1] - rows[0] + 1) * PHONE / WIDTH >= 6, name
        # the crop's disc (radius 31, its outline 3 px wide) round the plot's centre, 4 px up
        cx, cy = R.CELL // 2, R.CELL // 2 - 4
        assert all((u - cx) ** 2 + (v - cy) ** 2 > 33**2 for u, v in spots), name


def test_a_seat_out_of_the_final_divinations_reads_apart_from_its_explorers_in_spanish():
    """In the final divinations a seat's line counts its explorers off the board and says it is
    out of the final divinations; in Spanish the two are not both "fuera"."""
    s = fixed()
    put(s, 1, "B3")
    s.phase, s.turn, s.final_out = FINAL, 0, [False, True]
    with speaking("es"):
        detail = R._seat_lines(T.view_for(s, 0), None)[1].detail
    assert detail == "aciertos 0 · fallos 0 · en reserva 4 · FUERA"


@pytest.mark.parametrize("language", [None, "es"])
def test_only_a_seats_own_picture_explains_what_it_peeked_at(language):
    """The key "“seen”: what you peeked at" is on a seat's private picture only: a public picture
    (a spectator's, the table's) shows no peeks and keys only the last turn's cells."""
    s = fixed()
    texts = {}
    for seat in (None, 0):
        with fit_log() as log:
            R.draw_board(T.view_for(s, seat), language=language)
        texts[seat] = " ".join(f.text for f in log)
    seen = "“seen”: what you peeked at" if language is None else "«vista»: lo que consultaste"
    changed = "changed in the last turn" if language is None else "cambió en el último turno"
    assert changed in texts[None] and seen not in texts[None]
    assert changed in texts[0] and seen in texts[0]


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("language", [None, "es"])
def test_the_terrain_key_reads_whole_on_a_phone(players, language):
    """Each terrain's words in the key ("Pantano 4 (jugadas: S)") fit their room at full size,
    unsqueezed: where they would not, the key puts fewer terrains in a row (5 x 5 and 5 x 9)."""
    view = T.view_for(T.new_game(T.Config(players=players), players, 4), 0)
    with fit_log() as log:
        R.draw_board(view, language=language)
    key = re.compile(r"(Swamp|Desert|Mountain|Forest|Pantano|Desierto|Montaña|Bosque) \d+")
    drawn = [f for f in log if key.match(f.text)]
    assert len(drawn) == 4
    for f in drawn:
        assert f.size == 22 and text_width(f.text, f.size) <= f.box[2] - f.box[0], f


@pytest.mark.parametrize(
    ("language", "final", "over"),
    [
        ("en", "round 7 · all discovered", "ended in round 7"),
        ("es", "ronda 7 · todo descubierto", "terminó en la ronda 7"),
    ],
)
def test_the_header_at_the_end_says_the_round_as_it_stands(language, final, over):
    """Once all the land is found (the final divinations) the header's corner says so, not "0
    hidden left"; on the finished board it says the round the game ended in beside "Game over:
    … wins", where it said "game over" a second time and no round (the board in words agrees)."""
    last, done = to_the_end(7)
    with speaking(language):
        assert R._header(T.view_for(last, 0), None, None).info == final
        assert R._header(T.view_for(done, None), None, None).info == over
        assert R._header(T.view_for(fixed(), None), None, None).info.startswith(("round 1 ·", "ronda 1 ·"))


def _runs(flags: list[bool]) -> list[tuple[int, int]]:
    """The (start, length) of each run of True in ``flags``."""
    out: list[tuple[int, int]] = []
    for k, flag in enumerate(flags):
        if flag and (not out or out[-1][0] + out[-1][1] < k):
            out.append((k, 1))
        elif flag:
            out[-1] = (out[-1][0], out[-1][1] + 1)
    return out


@pytest.mark.parametrize("cols", [5, 9])
def test_a_players_scales_and_cubes_can_be_counted_on_a_phone(cols, monkeypatch):
    """A player's block, beside the 5 x 5 board and under the 5 x 9 one (two a row, as with 4
    seats), shown 400 px wide: each diversity level stands 4.5 px tall or more with a gap of 1.2
    px or more to the next, so that a scale's levels can be counted, and a cube is 12 px or more.
    The levels stood 2.3 px tall, 1 px apart, the cubes 10.7 px."""
    bw, _ = R._board_size(cols)
    width = WIDTH - bw - 3 * R.MARGIN if cols == 5 else (WIDTH - 2 * R.MARGIN - 10) // 2
    s = fixed()
    s.scales[0] = [5, 0, 0, 0, 0]
    s.cubes[0] = [1, 1, 1, 1]
    sizes: list[float] = []
    real = R._cube

    def cube(draw, x, y, size, terrain):
        sizes.append(size)
        real(draw, x, y, size, terrain)

    monkeypatch.setattr(R, "_cube", cube)
    x0 = y0 = 10
    img = Image.new("RGB", (width + 2 * x0, R.BLOCK_H + 2 * y0), (255, 255, 255))
    R._draw_block(ImageDraw.Draw(img), T.view_for(s, 1), ["Ana", "Beto"], 0, x0, y0, width)
    colour = seat_colour(0)
    # the first scale's levels: the seat's colour right of the block's middle, under the name
    xs = [
        x
        for x in range(x0 + width // 2, img.width)
        for y in range(y0 + 40, img.height)
        if img.getpixel((x, y)) == colour
    ]
    column = min(xs) + 2
    runs = _runs([img.getpixel((column, y)) == colour for y in range(img.height)])
    scale = PHONE / WIDTH
    assert len(runs) == 5, runs
    assert all(length * scale >= 4.5 for _, length in runs), runs
    gaps = [b[0] - (a[0] + a[1]) for a, b in zip(runs, runs[1:], strict=False)]
    assert all(gap * scale >= 1.2 for gap in gaps), gaps
    assert len(sizes) == 4 and all(size * scale >= 12 for size in sizes), sizes
