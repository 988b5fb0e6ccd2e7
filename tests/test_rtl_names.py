"""A right-to-left name (Arabic, Hebrew, ...) does not turn its line around on a board or a card.

Pillow lays a text out with raqm, which runs the Unicode bidirectional algorithm: a line takes its
direction from its first strong letter, so "▶ محمد (you)" was drawn "(you) محمد ▶" and Nowa
Gwinea's caption "محمد +8 (called)" as "(called) 8+ محمد".  A name beside other words is now
isolated (:func:`languages.bidi.isolated`, as the web pages write it), after it is shortened.

The positions are measured in the real pictures: each text the board logs (``text_log``: its
words and the box its ink covers) is cut out of the PNG, and a part of it (the ▶, the "+8") is
found there by its own pixels, drawn alone in the same font."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from PIL import Image, ImageChops, ImageFont, features

import engines
from languages.bidi import FSI, PDI, balanced, isolated, names_isolated, without_isolates
from renderers import glyphs, league, results, typeset
from renderers.layout import headed_name
from renderers.samples import SETUPS, positions
from renderers.typeset import Drawn, clear_art, text_log

ARABIC = ("محمد عبد الله", "فاطمة الزهراء", "علي حسن", "נועה")  # the last Hebrew
LATIN = ("Ana", "Beto", "Carla Quispe", "Dani")

pytestmark = pytest.mark.skipif(
    not features.check("raqm"), reason="Pillow without raqm lays no text out right to left"
)


def _board(game: str, label: str, seat: int | None, names) -> tuple[Image.Image, list[Drawn]]:
    pos = next(p for p in positions(game) if p.label == label)
    clear_art()
    with text_log() as log:
        png = engines.get(game).load_renderer().render(pos.view(seat), names=list(names[: pos.players]))
    return Image.open(io.BytesIO(png)).convert("L"), log


def _ink(image: Image.Image) -> Image.Image:
    """A cut of a picture as ink (1) on its background (0): the background is its commonest grey,
    the ink whatever is more than half-way from it to the grey farthest from it."""
    colors = image.getcolors(256) or [(1, 0)]
    bg = max(colors)[1]
    far = max(abs(v - bg) for _, v in colors)
    return image.point(lambda v: 255 if far and abs(v - bg) * 2 > far else 0).convert("1")


def _places(width: int, height: int, part: Image.Image) -> Iterator[tuple[int, int]]:
    for y in range(height - part.height + 1):
        for x in range(width - part.width + 1):
            yield x, y


def found_at(image: Image.Image, drawn: Drawn, part: str, bold: bool = True) -> float:
    """Where ``part`` of the text ``drawn`` stands in ``image`` (the PNG it was drawn on): the
    centre of its best match, as a share of the text's drawn width (0 = left end, 1 = right)."""
    box = drawn.box
    cut = _ink(image.crop((box[0] - 1, box[1] - 1, box[2] + 1, box[3] + 1)))
    mask = typeset.font(drawn.size, bold).getmask2(part, "L")[0]
    shape = Image.new("L", mask.size)
    shape.im = mask
    shape = _ink(shape.crop(shape.getbbox()))

    def misses(xy: tuple[int, int]) -> int:
        x, y = xy
        window = cut.crop((x, y, x + shape.width, y + shape.height))
        return ImageChops.logical_xor(window, shape).histogram()[-1]

    x, _ = min(_places(cut.width, cut.height, shape), key=misses)
    return (x - 1 + shape.width / 2) / (box[2] - box[0])


@pytest.mark.parametrize("game", sorted(SETUPS))
def test_the_turn_arrow_stays_before_an_arabic_name(game):
    """Every game's panel heads the seat to play "▶ {name}", and its own view "▶ {name} (you)": the
    ▶ stays at the left end, pointing at the name."""
    label = next(p.label for p in positions(game) if p.label.endswith("-middle"))
    seen = 0
    for seat in (None, 0):
        image, log = _board(game, label, seat, ARABIC)
        for d in log:
            if d.text.startswith("▶") and any(n in d.text for n in ARABIC):
                seen += 1
                at = found_at(image, d, "▶")
                assert at < 0.2, (game, seat, d.text, f"the arrow stands at {at:.2f} of the line")
                if "(you)" in d.text:
                    you = found_at(image, d, "(you)")
                    assert you > 0.7, (game, d.text, f'"(you)" stands at {you:.2f} of the line')
    assert seen, game


def test_an_arabic_name_keeps_the_score_after_it():
    """Nowa Gwinea's revealed villages are captioned "{name} +8 (called)": the points stand after
    the name (in the right half), not before it as "8+"."""
    image, log = _board("nowa_gwinea", "2p-end", None, ARABIC)
    captions = [d for d in log if ARABIC[0] in d.text and "+" in d.text]
    assert captions, [d.text for d in log]
    for d in captions:
        points = "+" + d.text.split("+", 1)[1].split(" ")[0]
        at = found_at(image, d, points)
        assert at > 0.5, (d.text, f"{points} stands at {at:.2f} of the line")


def test_the_header_keeps_the_words_after_an_arabic_name():
    """The header's last action ("محمد took 3 cards") and the text of a board the table ended
    ("فاطمة resigned") keep the words after the name to its right."""
    pos = next(p for p in positions("guacamole") if p.label.endswith("-middle"))
    clear_art()
    with text_log() as log:
        png = (
            engines.get("guacamole")
            .load_renderer()
            .render(
                pos.view(None),
                names=list(ARABIC[: pos.players]),
                last_action=f"{ARABIC[0]} took 3 cards",
                ended=f"{ARABIC[1]} resigned",
            )
        )
    image = Image.open(io.BytesIO(png)).convert("L")
    for words, bold in (("took 3 cards", False), ("resigned", True)):
        drawn = next(d for d in log if words in d.text)
        at = found_at(image, drawn, words, bold)
        assert at > 0.5, (drawn.text, f"{words!r} stands at {at:.2f} of the line")


def test_a_latin_name_is_drawn_as_before():
    """A name with no right-to-left letter is never isolated: no board text holds an isolate
    mark, and a board draws the same pixels whatever the other seats' names are isolated as."""
    for game in sorted(SETUPS):
        label = next(p.label for p in positions(game) if p.label.endswith("-middle"))
        for seat in (None, 0):
            _, log = _board(game, label, seat, LATIN)
            assert not any(c in d.text for d in log for c in FSI + PDI), game
    assert names_isolated("Ana resigned; Beto wins", LATIN) == "Ana resigned; Beto wins"
    assert headed_name("Ana", 500, 20, you=True, active=True) == "▶ Ana (you)"


def test_a_long_name_is_shortened_before_it_is_isolated():
    """The "…" of a shortened name comes inside the isolate: its closing mark is never cut off
    (the words after the name would then be taken into it)."""
    long = "محمد عبد الله بن عبد الرحمن الهاشمي القرشي"
    headed = headed_name(long, 300, 20, you=True, active=True)
    assert headed.startswith("▶ " + FSI) and headed.endswith(PDI + " (you)"), headed
    assert "…" in headed and headed.count(FSI) == headed.count(PDI) == 1
    assert typeset.text_width(headed, 20, True) <= 300


def test_the_results_card_and_the_standings_isolate_a_name_beside_words():
    row = results.Row(1, 0, ARABIC[0], "10", note="resigned")
    assert results.name_with_note(row, 600) == isolated(ARABIC[0]) + " (resigned)"
    card = results.Card("Guacamole, game #12", f"{ARABIC[2]} resigned", (row,), names=ARABIC)
    assert results.reason_lines(card) == [isolated(ARABIC[2]) + " resigned"]
    line = league.StandingLine(1, ARABIC[0], 3, 2, 1, 0, None, None, dropped=True)
    assert league.shown_name(line) == isolated(ARABIC[0]) + " (dropped)"


def test_isolate_marks_take_no_room_and_are_no_missing_letters():
    """Under raqm the marks are drawn as nothing and measure nothing; the glyph fallback finds no
    font for them to be drawn in (DejaVu Sans draws the whole line, as without them)."""
    text = "▶ " + isolated(ARABIC[0]) + " (you)"
    assert glyphs.runs(text, True) is None
    for bold in (False, True):
        fnt = typeset.font(28, bold)
        assert fnt.getlength(text) == fnt.getlength(without_isolates(text))
        assert fnt.getbbox(isolated(ARABIC[0])) == fnt.getbbox(ARABIC[0])
    # with a letter of a fallback font the marks stay in the runs they stand in, alone in none
    parts = glyphs.runs("▶ " + isolated("علي🔥") + " (you)", True)
    assert parts is not None and all(part.strip(FSI + PDI) for part, _ in parts)
    assert "".join(part for part, _ in parts) == "▶ " + isolated("علي🔥") + " (you)"


def test_the_basic_layout_draws_no_boxes_for_the_marks():
    """Pillow without raqm lays out no right-to-left text, and would draw each mark as a box: the
    font leaves them out, and the line is drawn and measured as the name alone would be."""
    basic = glyphs.FallbackFont(28, True, layout_engine=ImageFont.Layout.BASIC)
    plain = "▶ Ana (you)"
    marked = "▶ " + FSI + "Ana" + PDI + " (you)"
    assert basic.getlength(marked) == basic.getlength(plain)
    assert basic.getbbox(marked) == basic.getbbox(plain)
    a, b = basic.getmask2(marked, "L"), basic.getmask2(plain, "L")
    assert bytes(a[0]) == bytes(b[0]) and a[1] == b[1]


def test_a_line_that_starts_inside_a_name_keeps_its_order():
    """A caption wrapped inside a long name begins its second line inside the isolate: the font
    opens it there, so that "+8" still follows the name's last word."""
    assert balanced("الله" + PDI + " +8") == FSI + "الله" + PDI + " +8"
    assert balanced(isolated("الله") + " +8") == isolated("الله") + " +8"
    fnt = typeset.font(28, True)
    second = "الله" + PDI + " +8 (called)"
    a, b = fnt.getmask2(second, "L"), fnt.getmask2(FSI + second, "L")
    assert bytes(a[0]) == bytes(b[0])
    alone = fnt.getmask2("الله +8 (called)", "L")
    assert bytes(alone[0]) != bytes(a[0])  # not drawn right to left as it would be unmarked
