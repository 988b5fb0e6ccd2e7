"""The visual language every board shares: header text height, the colour rule, no cut text,
the last action in the header, real PNGs of bounded size that match the drawn canvas."""

from __future__ import annotations

import inspect
import io
import math
import random
from functools import cache

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont

import engines
from renderers import colours, encoding, layout, typeset
from renderers.encoding import palette_image
from renderers.samples import SETUPS, positions

GAMES = sorted(SETUPS)


@cache
def _positions(game: str):
    return positions(game)


def _open(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def _views(game: str):
    """Middle and end of every setup: the public picture and two seats' private ones."""
    for pos in _positions(game):
        if pos.label.endswith("-start"):
            continue
        for seat in sorted({None, 0, pos.players - 1}, key=lambda s: -1 if s is None else s):
            yield pos, seat


def _lab(rgb):
    def lin(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(c) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a, b) -> float:
    return math.dist(_lab(a), _lab(b))


def test_every_renderer_has_the_same_signature():
    """render(view, *, names, last_action, language, contrast, ended, options) -> bytes in every
    game, all options keyword-only, and draw_board the same (the animated summary draws through it)."""
    for game in GAMES:
        renderer = engines.get(game).load_renderer()
        for fn in (renderer.render, renderer.draw_board):
            params = inspect.signature(fn).parameters
            keywords = ["names", "last_action", "language", "contrast", "ended", "options"]
            assert list(params) == ["view", *keywords], game
            kinds = {params[p].kind for p in keywords}
            assert kinds == {inspect.Parameter.KEYWORD_ONLY}
            assert params["last_action"].default is None and params["language"].default is None
            assert params["contrast"].default is False and params["ended"].default is None
            assert params["options"].default is None


@pytest.mark.parametrize("game", GAMES)
def test_seat_colours_are_never_piece_colours(game):
    """The colour rule: every seat colour is far (CIE76 ΔE >= 20) from every piece colour."""
    renderer = engines.get(game).load_renderer()
    assert renderer.PIECE_COLOURS
    for seat in colours.SEAT_COLOURS:
        for piece in renderer.PIECE_COLOURS:
            assert delta_e(seat, piece) >= 20, (game, seat, piece)
    # and the seats are told apart from one another, by colour and by shape
    assert len(set(colours.SEAT_SHAPES)) == len(colours.SEAT_COLOURS)
    for i, a in enumerate(colours.SEAT_COLOURS):
        for b in colours.SEAT_COLOURS[i + 1 :]:
            assert delta_e(a, b) >= 15
    assert all(delta_e(colours.MARK, p) >= 20 for p in renderer.PIECE_COLOURS)


@pytest.mark.parametrize("game", GAMES)
def test_boards_header_height_no_cut_text_and_png(game):
    """Every picture: header text at least 1/45 of the width tall, nothing cut, a real PNG
    under 150 KB, 1200 px wide, with the last action in the header."""
    renderer = engines.get(game).load_renderer()
    typeset.clear_art()  # draw every card and tile again, so that their text is checked too
    seen_last = 0
    for pos, seat in _views(game):
        with typeset.fit_log() as log:
            png = renderer.render(pos.view(seat), names=pos.names, last_action=pos.last_action)
        img = _open(png)
        assert img.format == "PNG" and img.width == layout.WIDTH and 600 <= img.height <= 3200
        assert len(png) < encoding.LIMIT, (pos.label, seat, len(png))
        cut = [f.text for f in log if f.cut]
        assert not cut, (pos.label, seat, cut)
        header = [f for f in log if f.header]
        assert header, "the header was drawn through the fitting helper"
        for f in header:
            assert typeset.ink_height(f.size) >= img.width / 45, (pos.label, f.text, f.size)
        if pos.last_action:
            assert any(pos.last_action in f.text for f in header), (pos.label, pos.last_action)
            seen_last += 1
    assert seen_last >= 2


@pytest.mark.parametrize("game", GAMES)
def test_palette_png_looks_like_the_canvas(game):
    """The encoding keeps the picture: the PNG, decoded, differs from the drawn canvas by a
    few levels on average and almost no pixel moves far, with the game's own palette (as
    ``render`` encodes) and with the palette chosen for the image (without one)."""
    renderer = engines.get(game).load_renderer()
    pos = [p for p in _positions(game) if p.label.endswith("-middle")][-1]
    canvas = renderer.draw_board(pos.view(0), names=pos.names, last_action=pos.last_action)
    for palette in (palette_image(game), None):
        png = encoding.encode(canvas, palette)
        assert encoding.LAST_ENCODING.known == (palette is not None)
        _assert_close(canvas, png)


def _assert_close(canvas: Image.Image, png: bytes) -> None:
    decoded = _open(png).convert("RGB")
    hist = ImageChops.difference(canvas, decoded).convert("L").histogram()
    total = canvas.width * canvas.height
    mean = sum(i * n for i, n in enumerate(hist)) / total
    far = sum(hist[40:]) / total
    assert mean < 6 and far < 0.005, (mean, far)


def test_encoding_chooses_rgb_for_a_picture_a_palette_would_spoil():
    """A smooth gradient does not survive 256 colours: the measurement picks RGB for it."""
    img = Image.new("RGB", (600, 400))
    draw = ImageDraw.Draw(img)
    for x in range(600):
        for y in range(0, 400, 4):
            draw.line((x, y, x, y + 3), fill=(x * 255 // 600, y * 255 // 400, (x + y) % 256))
    png = encoding.encode(img)
    assert not encoding.LAST_ENCODING.palette
    assert _open(png).mode == "RGB"
    flat = Image.new("RGB", (600, 400), colours.BACKGROUND)
    ImageDraw.Draw(flat).text((20, 20), "Guacamole", font=typeset.font(60, True), fill=colours.INK)
    encoding.encode(flat)
    assert encoding.LAST_ENCODING.palette and encoding.LAST_ENCODING.level == 3


def test_text_fitting_wraps_then_shrinks_then_reports_a_cut():
    """The fitting helper: short text keeps its size, long text wraps, then shrinks; what still
    does not fit is cut with an ellipsis and reported."""
    short = typeset.fit("Ana", 300, 100, 30, 20, True, 1)
    assert short.size == 30 and not short.cut and len(short.lines) == 1
    long = "Beto took a random card from Cusi's hand and then prepared a Tomathor"
    wrapped = typeset.fit(long, 500, 200, 30, 20, False, 3)
    assert wrapped.size == 30 and len(wrapped.lines) > 1 and not wrapped.cut
    shrunk = typeset.fit(long, 700, 40, 30, 12, False, 1)
    assert 12 <= shrunk.size < 30 and not shrunk.cut and max(shrunk.widths) <= 700
    cut = typeset.fit(long, 200, 40, 30, 28, False, 1)
    assert cut.cut and cut.lines[-1][-1][0].endswith("…") and max(cut.widths) <= 200
    img = Image.new("RGB", (400, 100))
    with typeset.fit_log() as log:
        typeset.draw_text(ImageDraw.Draw(img), (0, 0), long, 200, 30, min_size=28)
    assert log and log[0].cut


def test_spanish_letters_are_drawn():
    """The bundled font draws á é í ó ú ñ ¿ ¡ as letters, not as the missing-glyph box."""
    fnt = typeset.font(40, True)

    def glyph(ch: str) -> bytes:
        img = Image.new("L", (60, 60))
        ImageDraw.Draw(img).text((10, 5), ch, font=fnt, fill=255)
        return img.tobytes()

    missing = glyph("\ue000")
    for ch in "áéíóúñÑ¿¡ü":
        drawn = glyph(ch)
        assert any(drawn) and drawn != missing, ch
    assert typeset.FONT_FILES[True].exists() and typeset.FONT_FILES[False].exists()
    header = layout.Header(
        "Guacamole", "turno 3", [("¿Quién juega? Fátima Núñez", colours.INK)], 0, "¡Ñandú!"
    )
    img = Image.new("RGB", (layout.WIDTH, layout.header_height(header)))
    with typeset.fit_log() as log:
        layout.draw_header(ImageDraw.Draw(img), header)
    assert not [f for f in log if f.cut]


def test_ranking_box_on_the_final_board():
    """A finished game's board shows the ranking box: the places are drawn."""
    for game in GAMES:
        renderer = engines.get(game).load_renderer()
        end = next(p for p in _positions(game) if p.label.endswith("-end") and p.players > 1)
        assert end.module.outcome(end.state) is not None
        with typeset.fit_log() as log:
            renderer.render(end.view(None), names=end.names, last_action=end.last_action)
        texts = [f.text for f in log]
        assert any(t.startswith("Final") for t in texts), game
        for name in end.names:
            assert name in texts, (game, name)


def test_two_columns_for_four_to_six_players():
    """Layouts fit the player count: up to 3 seats in one row of the strip, 4-6 in two columns."""
    assert [layout.strip_columns(n) for n in range(1, 7)] == [1, 2, 3, 2, 2, 2]
    seats = [layout.SeatLine(s, f"P{s}", "0", "hand 5") for s in range(6)]
    assert layout.strip_height(seats) < 3 * layout.strip_height(seats[:1]) + 40


def test_the_sample_games_are_played_once_and_each_caller_has_its_own_list():
    """positions() keeps the games it played: the same positions again, in a list of the
    caller's own (emptying it leaves the next caller's whole); another seed is another game."""
    first, again = positions("tiwanaku"), positions("tiwanaku")
    assert first is not again and len(first) == len(again) == 3 * len(SETUPS["tiwanaku"])
    assert all(a is b for a, b in zip(first, again, strict=True))
    first.clear()
    assert [p.label for p in positions("tiwanaku")] == [p.label for p in again]
    other = positions("tiwanaku", 8)
    assert [p.state for p in other] != [p.state for p in again]


def _mark_pixels(image: Image.Image) -> int:
    return sum(n for n, colour in colours.colour_counts(image) if colour == colours.MARK)


@pytest.mark.parametrize("game", GAMES)
def test_last_turn_is_marked_on_the_board(game):
    """What changed in the last turn is outlined in the mark colour: a middle position has far
    more of it than the start, where only the legend's square shows it."""
    renderer = engines.get(game).load_renderer()
    setups = {}
    for pos in _positions(game):
        setups.setdefault(pos.label.rsplit("-", 1)[0], {})[pos.label.rsplit("-", 1)[1]] = pos
    marked = 0
    for stages in setups.values():
        start, middle = stages["start"], stages["middle"]
        seat = 0  # a private view: in Nowa Gwinea only the builder sees their last hut
        before = _mark_pixels(renderer.draw_board(start.view(seat), names=start.names))
        after = _mark_pixels(renderer.draw_board(middle.view(seat), names=middle.names))
        assert before < 2000, (game, before)
        marked += after > before + 1500
    assert marked >= 1, game


def test_labels_stamp_the_pixels_of_draw_text():
    """``label`` gives the same pixels as ``draw.text``: at fractional positions, every anchor
    used, bold or not, drawn twice (the second time from the kept glyphs)."""
    rnd = random.Random(5)
    a = Image.new("RGB", (300, 300), (205, 185, 150))
    b = a.copy()
    da, db = ImageDraw.Draw(a), ImageDraw.Draw(b)
    texts = ["7", "55", "3@42", "ñandú", "-"]
    for _ in range(2):
        for _ in range(150):
            x, y = rnd.uniform(-5, 305), rnd.uniform(-5, 305)
            text, size, bold = rnd.choice(texts), rnd.choice((18, 19, 20, 26)), rnd.random() < 0.5
            anchor, fill = rnd.choice(("la", "mm", "ra")), rnd.choice((colours.INK, (255, 255, 255)))
            da.text((x, y), text, font=typeset.font(size, bold), fill=fill, anchor=anchor)
            typeset.label(db, (x, y), text, size, bold, fill, anchor)
    assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize("game", GAMES)
def test_a_board_drawn_again_lays_out_no_text(game, monkeypatch):
    """Labels are laid out once and stamped: drawing the same board a second time asks FreeType
    for no text at all (every label, count and fitted line comes from the kept glyphs)."""
    renderer = engines.get(game).load_renderer()
    pos = [p for p in _positions(game) if p.label.endswith("-middle")][-1]
    laid_out: list[str] = []
    original = ImageFont.FreeTypeFont.getmask2

    def counting(self, text, *args, **kw):
        laid_out.append(text)
        return original(self, text, *args, **kw)

    for language in (None, "es"):
        kwargs = {"names": pos.names, "last_action": pos.last_action_in(language), "language": language}
        renderer.draw_board(pos.view(0), **kwargs)
        monkeypatch.setattr(ImageFont.FreeTypeFont, "getmask2", counting)
        renderer.draw_board(pos.view(0), **kwargs)
        monkeypatch.undo()
        assert laid_out == [], (game, language, laid_out)
