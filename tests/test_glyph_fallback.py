"""Names in Chinese, Japanese, Korean or with emoji ("小明", "さくら", "민준", "Alex🔥") are drawn
as letters on every board and card, not as DejaVu Sans' missing-glyph boxes: the letters DejaVu
lacks are drawn in the bundled fallback fonts (:mod:`renderers.glyphs`), and a text DejaVu draws
whole keeps its pixels.

The pictures are the real PNGs, opened with Pillow.  A name drawn as boxes gives the same pixels
as a name of as many letters no bundled font has (DejaVu draws every missing letter as the same
box): the boards are compared with the board where one name is such boxes."""

from __future__ import annotations

import io
import pickle
import random
import sys

import pytest
from PIL import Image, ImageDraw, ImageFont

import engines
from renderers import encoding, glyphs, results, typeset
from renderers.samples import SETUPS, positions
from renderers.typeset import clear_art, text_log

NAMES = ("小明", "さくら", "민준", "Alex🔥")
NOWHERE = "\ue000"  # a letter in no bundled font: DejaVu Sans draws its box


def boxes(name: str) -> str:
    """``name`` as the old boards drew it: each letter DejaVu lacks as a box."""
    dejavu = glyphs.coverage(typeset.FONT_FILES[False])
    return "".join(ch if ord(ch) in dejavu else NOWHERE for ch in name)


def drawn_in_fonts_that_have_them(text: str, bold: bool) -> bool:
    """Every letter of ``text`` goes to a font whose cmap has it (DejaVu's box for none)."""
    files = (typeset.FONT_FILES[bold], *glyphs.FALLBACK_FILES)
    parts = glyphs.runs(text, bold) or ((text, 0),)
    return all(ord(ch) in glyphs.coverage(files[k]) for part, k in parts for ch in part)


def test_no_bundled_font_has_the_box_letter():
    files = (*typeset.FONT_FILES.values(), *glyphs.FALLBACK_FILES)
    assert all(ord(NOWHERE) not in glyphs.coverage(f) for f in files)


def _render(game: str, names: tuple[str, ...], seat: int | None):
    renderer = engines.get(game).load_renderer()
    pos = next(p for p in positions(game) if p.label.endswith("-middle"))
    kwargs = {"names": list(names), "last_action": None}
    clear_art()
    with text_log() as log:
        png = renderer.render(pos.view(seat), **kwargs)
    return png, log, encoding.LAST_ENCODING.known


@pytest.mark.parametrize("game", sorted(SETUPS))
def test_every_board_draws_cjk_and_emoji_names_as_letters(game):
    players = next(p.players for p in positions(game) if p.label.endswith("-middle"))
    groups = [tuple((NAMES * players)[i : i + players]) for i in range(0, len(NAMES), players)]
    for names in groups:
        for seat in (None, 0):
            png, log, known = _render(game, names, seat)
            Image.open(io.BytesIO(png)).verify()
            # the palette encoding keeps the game's own palette with the anti-aliased letters
            assert known, (game, names, seat)
            for name in set(names):
                texts = [d.text for d in log if name in d.text]
                assert texts, (game, name)
                assert all(drawn_in_fonts_that_have_them(t, bold) for t in texts for bold in (False, True))
                # the board differs from the one where this name is drawn as boxes
                boxed = tuple(boxes(n) if n == name else n for n in names)
                differs = _render(game, boxed, seat)[0] != png
                assert differs, (game, name, seat)


def test_the_results_card_draws_cjk_and_emoji_names_as_letters():
    def card(names):
        rows = tuple(results.Row(k + 1, k, n, str(10 - k)) for k, n in enumerate(names))
        return results.Card(title="Guacamole, game #12", reason="R", rows=rows, names=tuple(names))

    png = results.render(card(NAMES))
    Image.open(io.BytesIO(png)).verify()
    for name in NAMES:
        boxed = [boxes(n) if n == name else n for n in NAMES]
        differs = results.render(card(boxed)) != png
        assert differs, name


@pytest.mark.parametrize("size", [18, 24, 30, 40])
@pytest.mark.parametrize("bold", [False, True])
def test_a_name_is_not_drawn_as_missing_glyph_boxes(size, bold):
    fnt = typeset.font(size, bold)
    plain = ImageFont.truetype(str(typeset.FONT_FILES[bold]), size)
    for name in NAMES:
        assert drawn_in_fonts_that_have_them(name, bold), name
        mask = fnt.getmask2(name, "L", anchor="ls")
        as_boxes = plain.getmask2(boxes(name), "L", anchor="ls")
        assert bytes(mask[0]) != bytes(as_boxes[0]) or mask[1] != as_boxes[1], name
        assert max(bytes(mask[0])) == 255, name  # inked


def test_emoji_joiners_and_variation_selectors_draw_no_box():
    assert glyphs.runs("Ana❤️") is None  # DejaVu has both, the selector as nothing
    for text in ("👩‍💻 Beto", "🔥️x"):
        parts = glyphs.runs(text)
        assert parts is not None and all(ch not in glyphs.IGNORED for part, _ in parts for ch in part)
        assert drawn_in_fonts_that_have_them(text, False), text


def test_a_mixed_text_is_as_long_as_its_runs():
    for bold in (False, True):
        fnt = typeset.font(26, bold)
        for text in ("Alex🔥 to play", "小明 (Black) · 민준", "さくら drew 2"):
            parts = glyphs.runs(text, bold)
            assert parts and len(parts) > 1
            files = (typeset.FONT_FILES[bold], *glyphs.FALLBACK_FILES)
            total = sum(ImageFont.truetype(str(files[k]), 26).getlength(t) for t, k in parts)
            assert fnt.getlength(text) == pytest.approx(total)
            assert typeset.text_width(text, 26, bold) == pytest.approx(total)
            assert ImageDraw.Draw(Image.new("L", (1, 1))).textlength(text, font=fnt) == pytest.approx(total)


@pytest.mark.parametrize("size", [18, 24, 40])
def test_anchor_mm_centres_a_name(size):
    rnd = random.Random(3)
    for name in NAMES:
        for bold in (False, True):
            x, y = 200 + rnd.random(), 100 + rnd.random()
            image = Image.new("L", (400, 200))
            ImageDraw.Draw(image).text((x, y), name, font=typeset.font(size, bold), fill=255, anchor="mm")
            left, top, right, bottom = image.getbbox()
            assert abs((left + right) / 2 - x) <= 2, (name, size, bold, image.getbbox())
            if not name.isascii() and name[0] != "A":  # all CJK: its ink spans the line's middle
                assert abs((top + bottom) / 2 - y) <= 2, (name, size, bold, image.getbbox())


def test_a_mixed_text_stands_on_dejavus_baseline_and_its_box_holds_its_ink():
    fnt = typeset.font(30)
    for anchor in ("la", "ls", "lm", "mm", "rm", "ra", "md", "lt", "lb"):
        image = Image.new("L", (500, 200))
        draw = ImageDraw.Draw(image)
        draw.text((250.4, 100.7), "Alex🔥", font=fnt, fill=255, anchor=anchor)
        ink = image.getbbox()
        box = draw.textbbox((250.4, 100.7), "Alex🔥", font=fnt, anchor=anchor)
        assert (
            box[0] - 1 <= ink[0] and box[1] - 1 <= ink[1] and ink[2] <= box[2] + 1 and ink[3] <= box[3] + 1
        ), anchor
    for v in "asmd":  # "Alex" stands where it stands without the emoji: the same pixels
        mixed, alone = Image.new("L", (500, 200)), Image.new("L", (500, 200))
        ImageDraw.Draw(mixed).text((50.4, 100.7), "Alex🔥", font=fnt, fill=255, anchor="l" + v)
        ImageDraw.Draw(alone).text((50.4, 100.7), "Alex", font=fnt, fill=255, anchor="l" + v)
        assert alone.getbbox() is not None
        left_part = (0, 0, int(50 + fnt.getlength("Alex")), 200)
        assert mixed.crop(left_part).tobytes() == alone.crop(left_part).tobytes(), v
    # stamped labels give the same pixels as draw.text, mixed text included
    a = Image.new("RGB", (400, 200), (205, 185, 150))
    b = a.copy()
    rnd = random.Random(9)
    for _ in range(60):
        x, y = rnd.uniform(0, 400), rnd.uniform(0, 200)
        text, anchor = rnd.choice(NAMES + ("小明 to play",)), rnd.choice(("la", "mm", "ra"))
        size, bold = rnd.choice((18, 24)), rnd.random() < 0.5
        ImageDraw.Draw(a).text((x, y), text, font=typeset.font(size, bold), fill=(40, 30, 20), anchor=anchor)
        typeset.label(ImageDraw.Draw(b), (x, y), text, size, bold, (40, 30, 20), anchor)
    assert a.tobytes() == b.tobytes()


def test_text_dejavu_draws_keeps_its_pixels():
    rnd = random.Random(11)
    texts = ["Ana", "Fátima Núñez", "¿Quién juega? ¡Ñandú!", "7", "→ ★ ✓ ✗ ·", "Beto 😀", ""]
    for _ in range(200):
        text, size, bold = rnd.choice(texts), rnd.choice((14, 19, 26, 60)), rnd.random() < 0.5
        anchor = rnd.choice(("la", "mm", "ra", "ls", "lt", "rd"))
        start = (rnd.random(), rnd.random())
        ours = typeset.font(size, bold)
        plain = ImageFont.truetype(str(typeset.FONT_FILES[bold]), size)
        assert glyphs.runs(text, bold) is None, text
        mine, theirs = (
            ours.getmask2(text, "L", anchor=anchor, start=start),
            plain.getmask2(text, "L", anchor=anchor, start=start),
        )
        assert bytes(mine[0]) == bytes(theirs[0]) and mine[0].size == theirs[0].size and mine[1] == theirs[1]
        assert ours.getbbox(text, anchor=anchor) == plain.getbbox(text, anchor=anchor)
        assert ours.getlength(text) == plain.getlength(text)


def test_a_copied_font_falls_back_too():
    fnt = typeset.font(24, True)
    copied = pickle.loads(pickle.dumps(fnt))
    assert isinstance(copied, glyphs.FallbackFont) and copied.bold and copied.size == 24
    assert bytes(copied.getmask2("Alex🔥", "L")[0]) == bytes(fnt.getmask2("Alex🔥", "L")[0])


def test_multiline_text_falls_back_line_by_line():
    fnt = typeset.font(24)
    image = Image.new("L", (300, 120))
    draw = ImageDraw.Draw(image)
    draw.multiline_text((10, 10), "小明\nAlex🔥", font=fnt, fill=255)
    top, bottom = image.crop((0, 0, 300, 40)), image.crop((0, 40, 300, 120))
    for part, text in ((top, "小明"), (bottom, "Alex🔥")):
        alone = Image.new("L", (300, 80))
        ImageDraw.Draw(alone).text((10, 0), text, font=fnt, fill=255)
        assert part.getbbox() is not None
        assert part.crop(part.getbbox()).tobytes() == alone.crop(alone.getbbox()).tobytes(), text


def test_without_fonttools_dejavu_draws_every_letter_as_before(monkeypatch):
    """An environment installed before fontTools was a dependency (a checkout pulled without a new
    ``pip install``) draws a name as DejaVu Sans alone did, its boxes included, and never fails a
    board for it."""
    monkeypatch.setitem(sys.modules, "fontTools.ttLib", None)  # ``import`` raises ImportError
    glyphs.coverage.cache_clear()
    glyphs.runs.cache_clear()
    try:
        ours = typeset.font(26)
        plain = ImageFont.truetype(str(typeset.FONT_FILES[False]), 26)
        for name in ("小明", "Alex🔥", "민준"):
            assert glyphs.runs(name) is None
            assert bytes(ours.getmask2(name, "L")[0]) == bytes(plain.getmask2(name, "L")[0])
    finally:  # no cmap left unread for the tests after this one
        monkeypatch.undo()
        glyphs.coverage.cache_clear()
        glyphs.runs.cache_clear()
    assert glyphs.runs("小明") is not None  # with fontTools back, the fallback again
