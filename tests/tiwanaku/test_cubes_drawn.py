"""A player's block shows every offering cube the seat holds, clear of the "diversity" label and
of the name, its words readable on a phone; the board in words and the alt text say the same."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

import engines.tiwanaku as T
from engines.core import in_words
from engines.tiwanaku.data import MAX_CUBES
from engines.tiwanaku.rules import BoardSize, cube_words
from renderers import tiwanaku as R
from renderers.colours import MUTED, seat_colour
from renderers.layout import WIDTH
from renderers.translation import speaking
from renderers.typeset import PHONE_FLOOR, on_phone, text_log

from .helpers import fixed

NAMES = (
    "Maximiliano Fernández de la Vega",
    "Bartolomé Quispe Huamán",
    "Wenceslao Mamani Condori",
    "Guadalupe Ticona Apaza",
)
# the rules' most cubes (4, rulebook: "nunca puede tener más de 4 Cubos de Ofrenda"), in mixes
FULL = ([4, 0, 0, 0], [1, 1, 1, 1], [0, 2, 0, 2], [0, 0, 3, 1])
SETUPS = [
    (1, BoardSize.SHORT),
    (2, BoardSize.SHORT),
    (2, BoardSize.LONG),
    (3, BoardSize.LONG),
    (4, BoardSize.LONG),
]


def _block_width(cols: int) -> int:
    bw, _ = R._board_size(cols)
    return WIDTH - bw - 3 * R.MARGIN if cols <= 5 else (WIDTH - 2 * R.MARGIN - 10) // 2


def _box(points):
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    return min(xs), min(ys), max(xs), max(ys)


def _apart(a, b, gap: int = 4) -> bool:
    return a[2] + gap <= b[0] or b[2] + gap <= a[0] or a[3] + gap <= b[1] or b[3] + gap <= a[1]


@pytest.mark.parametrize("language", [None, "es"])
@pytest.mark.parametrize(("players", "board"), SETUPS)
def test_the_most_cubes_the_rules_allow_are_all_drawn_and_told(players, board, language, monkeypatch):
    """Every seat holding 4 cubes (the rules' most), long names, beside the 5 x 5 board and under
    the 5 x 9 one: each block draws all 4 cubes of the right terrains, none running into the
    "diversity" label; every text stands 4.7 px or more on a phone; the board in words and the
    reader's own line (the alt text's) give the same cubes."""
    assert max(sum(c) for c in FULL) == MAX_CUBES
    s = T.new_game(T.Config(players=players, board=board), players, 3)
    s.cubes = [list(c) for c in FULL[:players]]
    drawn: list[tuple[float, float, str]] = []
    real = R._cube

    def cube(draw, x, y, size, terrain):
        drawn.append((x, y, terrain))
        real(draw, x, y, size, terrain)

    monkeypatch.setattr(R, "_cube", cube)
    view = T.view_for(s, 0)
    with text_log() as log:
        png = R.render(view, names=list(NAMES[:players]), language=language)
    assert png
    small = {d.text for d in log if round(on_phone(d.cap, WIDTH), 1) < PHONE_FLOOR}
    assert not small, small
    # the blocks stand one under another (beside the board) or two a row: group the cubes by row
    rows: dict[float, list[tuple[float, str]]] = {}
    for x, y, t in drawn:
        rows.setdefault(y, []).append((x, t))
    held = sorted("".join(t * k for t, k in zip("SDMF", c, strict=True)) for c in FULL[:players])
    blocks = []
    for cubes in rows.values():
        cubes.sort()
        half = WIDTH / 2
        for side in (
            [cubes]
            if s.cols <= 5
            else [[c for c in cubes if c[0] < half], [c for c in cubes if c[0] >= half]]
        ):
            if side:
                blocks.append("".join(t for _, t in side))
    assert sorted(blocks) == held
    # clear of the scales: every cube ends 8 px or more left of them, in its block ("diversity"
    # stands under the row of cubes: the next test sees it clear of them)
    width = _block_width(s.cols)
    bw, _ = R._board_size(s.cols)
    lefts = [R.MARGIN + bw + R.MARGIN] if s.cols <= 5 else [R.MARGIN, R.MARGIN + width + 10]
    for x, _, _ in drawn:
        left = max(b for b in lefts if b <= x)
        assert x + R.CUBE + 8 <= R.scales_left(left, width), (x, left)
    words = " ".join(in_words(line) for section in T.describe(view) for line in section.lines)
    for seat in range(players):
        assert in_words(cube_words(s.cubes[seat])) in words, seat
    assert "swamp 4" in in_words(T.summary(view))


@pytest.mark.parametrize("language", [None, "es"])
@pytest.mark.parametrize("cols", [5, 9])
@pytest.mark.parametrize("counts", [[2, 2, 2, 2], [5, 0, 0, 1], [1, 1, 1, 2]])
def test_cubes_beyond_the_row_are_counted_never_dropped(counts, cols, language):
    """Should a seat hold more cubes than its row has room for (the rules never let it: at most
    4), none goes missing and none runs into "diversity" or the name: the cubes drawn and the
    "+n" after them add up to what the seat holds.  Before, beside the 5 x 5 board the 8th cube
    and on were dropped without a word, and from the 5th the cubes ran into "diversity"."""
    width = _block_width(cols)
    s = fixed()
    s.cubes = [list(counts), [1, 0, 0, 0]]
    view = T.view_for(s, 0)
    x0 = y0 = 10
    img = Image.new("RGB", (width + 2 * x0, R.BLOCK_H + 2 * y0), (255, 255, 255))
    with speaking(language), text_log() as log:
        letters = {R.letter(t) for t in "SDMF"}
        R._draw_block(ImageDraw.Draw(img), view, list(NAMES[:2]), 0, x0, y0, width)
    cube_letters = [d.text for d in log if d.text in letters]
    more = [int(d.text[1:]) for d in log if d.text.startswith("+")]
    assert len(cube_letters) + sum(more) == sum(counts), (cube_letters, more)
    assert len(more) == (len(cube_letters) < sum(counts))
    assert all(round(on_phone(d.cap, WIDTH), 1) >= PHONE_FLOOR for d in log)
    pixels = [((x, y), img.getpixel((x, y))) for y in range(img.height) for x in range(img.width)]
    scales = R.scales_left(x0, width)
    diversity = _box([p for p, c in pixels if c == MUTED and x0 + 75 < p[0] < scales])
    name = _box([p for p, c in pixels if c == seat_colour(0) and p[0] > x0 + 40 and p[1] < y0 + 38])
    # the cubes and the count: the terrains' colours and the ink in the row of cubes
    row = [
        p
        for p, c in pixels
        if x0 + 75 < p[0] < scales
        and y0 + R.CUBES_Y - 4 < p[1] < y0 + R.CUBES_Y + R.CUBE + 4
        and (c in R.TERRAIN_COLOURS.values() or c == R.INK)
    ]
    assert _apart(_box(row), diversity), (_box(row), diversity)
    assert _apart(_box(row), name), (_box(row), name)


@pytest.mark.parametrize(("language", "words"), [(None, "no cubes"), ("es", "sin cubos")])
def test_a_seat_without_cubes_reads_as_one_phrase(language, words):
    """A block whose seat holds no cube said "cubes" and then "none" ("cubos ninguno"); it says
    one phrase where the cubes would stand, and the seat with cubes keeps its "cubes" label."""
    s = fixed()
    s.cubes = [[0, 0, 0, 0], [1, 0, 0, 0]]
    view = T.view_for(s, 0)
    img = Image.new("RGB", (_block_width(5), R.BLOCK_H), (255, 255, 255))
    texts = []
    for seat in range(2):
        with speaking(language), text_log() as log:
            R._draw_block(ImageDraw.Draw(img), view, list(NAMES[:2]), seat, 0, 0, _block_width(5))
        texts.append([d.text for d in log])
    label = "cubos" if language else "cubes"
    assert words in texts[0] and label not in texts[0] and not {"none", "ninguno"} & set(texts[0])
    assert label in texts[1] and words not in texts[1]
