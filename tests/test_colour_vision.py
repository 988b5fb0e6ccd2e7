"""Colours that survive colour blindness: every colour a board's legend tells apart stays apart
for protanopia, deuteranopia and tritanopia (Machado 2009, :mod:`renderers.vision`), is the
colour the board actually draws, and carries a second cue (a letter, a word, a shape or a
pattern) that the board draws too."""

from __future__ import annotations

import itertools
from functools import cache
from operator import itemgetter

import pytest
from PIL import Image, ImageFilter

import engines
from renderers import colours, typeset, vision
from renderers.samples import SETUPS, positions

GAMES = sorted(SETUPS)
CUE_KINDS = ("letter", "text", "shape", "pattern")


def _renderer(game: str):
    return engines.get(game).load_renderer()


def _keys(game: str) -> dict[str, dict[object, colours.Key]]:
    return _renderer(game).COLOUR_KEYS


@cache
def _drawn(game: str) -> tuple[frozenset[tuple[int, int, int]], frozenset[colours.Cue]]:
    """Every colour drawn and every cue drawn on the boards of the game's sample positions
    (middle and end, the public picture and every seat's), in English, art drawn afresh."""
    renderer = _renderer(game)
    drawn: set[tuple[int, int, int]] = set()
    typeset.clear_art()
    with colours.cue_log() as cues:
        for pos in positions(game):
            if pos.label.endswith("-start"):
                continue
            for seat in (None, *range(pos.players)):
                image: Image.Image = renderer.draw_board(
                    pos.view(seat), names=pos.names, last_action=pos.last_action_in(None)
                )
                counted = colours.colour_counts(image if image.mode == "RGB" else image.convert("RGB"))
                drawn.update(map(itemgetter(1), counted))
    return frozenset(drawn), frozenset(cues)


def _cue_drawn(key: colours.Key, cues: frozenset[colours.Cue]) -> bool:
    kind, value = key.cue
    if kind in ("letter", "text"):
        texts = {t for k, t, _ in cues if k == "text"}
        if value in texts:
            return True
        # a letter leading a code: a Guanga card's level in its id (A01)
        return kind == "letter" and any(t[:1] == value and t[1:].isdigit() and t[1:] for t in texts)
    return (kind, value, key.colour) in cues


@pytest.mark.parametrize("game", GAMES)
def test_every_game_keys_its_colours(game):
    keys = _keys(game)
    assert "seats" in keys and len(keys) >= 2, keys.keys()
    for category, entries in keys.items():
        assert len(entries) >= 2, (game, category)
        for entry, key in entries.items():
            kind, value = key.cue
            assert kind in CUE_KINDS and value, (game, category, entry, key)
        cues = [key.cue for key in entries.values()]
        assert len(set(cues)) == len(cues), (game, category, "two entries share a second cue")


@pytest.mark.parametrize("contrast", [False, True], ids=["standard", "high-contrast"])
@pytest.mark.parametrize("deficiency", [None, *vision.DEFICIENCIES])
@pytest.mark.parametrize("game", GAMES)
def test_legend_colours_stay_apart(game, deficiency, contrast):
    too_close = []
    for category, standard in _keys(game).items():
        entries = colours.contrast_keys(standard) if contrast else standard
        for (a, ka), (b, kb) in itertools.combinations(entries.items(), 2):
            apart = vision.seen_apart(ka.colour, kb.colour, deficiency)
            if apart < vision.THRESHOLD:
                too_close.append((category, a, b, round(apart, 1)))
    assert not too_close, (game, deficiency or "typical vision", too_close)


@pytest.mark.parametrize("game", GAMES)
def test_legend_colours_are_the_colours_drawn(game):
    colours, _ = _drawn(game)
    missing = [
        (category, entry, key.colour)
        for category, entries in _keys(game).items()
        for entry, key in entries.items()
        if key.colour not in colours
    ]
    assert not missing, (game, missing)


@pytest.mark.parametrize("game", GAMES)
def test_every_legend_entry_draws_its_second_cue(game):
    _, cues = _drawn(game)
    missing = [
        (category, entry, key.cue)
        for category, entries in _keys(game).items()
        for entry, key in entries.items()
        if not _cue_drawn(key, cues)
    ]
    assert not missing, (game, missing)


@pytest.mark.parametrize("contrast", [False, True], ids=["standard", "high-contrast"])
@pytest.mark.parametrize("game", GAMES)
def test_a_letter_or_word_stands_out_from_the_colour_it_tells(game, contrast):
    """A second cue written on its colour (a terrain's letter, a card's type, a totem's name) is
    only a cue if it can be read there: its ink and the colour stand at least 3:1 apart (WCAG's
    least for large text and graphics), in both palettes."""
    faint = []
    for category, standard in _keys(game).items():
        entries = colours.contrast_keys(standard) if contrast else standard
        for entry, key in entries.items():
            if key.cue[0] not in ("letter", "text"):
                continue
            assert key.ink is not None, (game, category, entry, "a written cue names its ink")
            ratio = colours.contrast_ratio(key.ink, key.colour)
            if ratio < colours.MIN_CUE_CONTRAST:
                faint.append((category, entry, key.cue[1], round(ratio, 2)))
    assert not faint, (game, faint)


@pytest.mark.parametrize("game", GAMES)
def test_a_written_cue_is_drawn_in_its_keys_ink(game):
    _, cues = _drawn(game)
    drawn = {(text, fill) for kind, text, fill in cues if kind == "text"}
    missing = [
        (category, entry, key.cue, key.ink)
        for category, entries in _keys(game).items()
        for entry, key in entries.items()
        if key.cue[0] in ("letter", "text")
        and not any(
            ink == key.ink and (text == key.cue[1] or (text[:1] == key.cue[1] and text[1:].isdigit()))
            for text, ink in drawn
        )
    ]
    assert not missing, (game, missing)


def _piece_colours() -> list[tuple[int, int, int]]:
    """Every game's piece colours: what the last turn's mark may be drawn on."""
    return sorted({tuple(c) for game in GAMES for c in _renderer(game).PIECE_COLOURS})


@pytest.mark.parametrize("contrast", [False, True], ids=["standard", "high-contrast"])
@pytest.mark.parametrize("deficiency", [None, *vision.DEFICIENCIES])
def test_the_last_turn_mark_shows_on_every_piece_colour(deficiency, contrast):
    """What changed in the last turn is framed (:func:`renderers.shapes.mark_box`) on pieces of
    every colour: across the frame, a band at least 3 px wide stands apart from the piece under
    it, whatever the colour vision and the palette (magenta alone vanishes on a high-contrast
    mountain for deuteranopia, on a slate hut for protanopia)."""
    from PIL import ImageDraw

    from renderers.shapes import mark_box

    hidden = []
    for fill in _piece_colours():
        image = Image.new("RGB", (80, 80), fill)
        mark_box(ImageDraw.Draw(image), (10, 10, 70, 70), width=7)
        if contrast:
            image = colours.high_contrast(image)
        seen = vision.simulate_image(image, deficiency) if deficiency else image
        under = seen.getpixel((40, 40))
        run = best = 0
        for x in range(6, 30):  # the piece, the frame, the piece inside it
            run = run + 1 if vision.delta_e(seen.getpixel((x, 40)), under) >= vision.THRESHOLD else 0
            best = max(best, run)
        if best < 3:
            hidden.append((fill, best))
    assert not hidden, (deficiency or "typical vision", hidden)


def test_contrast_ratios_are_wcags():
    assert colours.contrast_ratio((0, 0, 0), (255, 255, 255)) == pytest.approx(21)
    assert colours.contrast_ratio((255, 255, 255), (255, 255, 255)) == pytest.approx(1)
    assert colours.contrast_ratio((118, 118, 118), (255, 255, 255)) == pytest.approx(4.54, abs=0.01)
    # the better of the board's ink and white: dark letters on an orange card, white on a purple one
    assert colours.ink_on((236, 118, 18)) == colours.INK
    assert colours.ink_on((123, 75, 160)) == colours.WHITE


def test_the_model_matches_machado_2009():
    # Rows of each matrix sum to 1: white and greys are seen as they are.
    for deficiency, matrix in vision.MATRICES.items():
        for row in matrix:
            assert sum(row) == pytest.approx(1.0, abs=2e-3), deficiency
        assert vision.simulate((255, 255, 255), deficiency) == (255, 255, 255)
        assert vision.simulate((128, 128, 128), deficiency) == (128, 128, 128)
    # Pure red is the matrix's first column in linear light, sRGB-encoded: for protanopia
    # 0.152286, 0.114503, -0.003882 -> 0.428, 0.373, 0 -> (109, 95, 0).
    assert vision.simulate((255, 0, 0), "protanopia") == (109, 95, 0)
    assert vision.simulate((255, 0, 0), "deuteranopia") == (163, 144, 0)
    assert vision.simulate((255, 0, 0), "tritanopia") == (255, 0, 15)
    # Without L or M cones, reds and greens fall on the yellow-blue plane: red and green come
    # out nearly the same hue (red about equal to green), told apart by lightness only.
    for deficiency in ("protanopia", "deuteranopia"):
        for colour in ((255, 0, 0), (0, 255, 0), (200, 40, 40), (40, 120, 40)):
            r, g, b = vision.simulate(colour, deficiency)
            assert abs(r - g) <= 30 and b <= 60, (deficiency, colour, (r, g, b))
    # A red and an olive far apart for typical vision, a few units apart for deuteranopes.
    assert vision.seen_apart((230, 60, 0), (150, 150, 0)) > 40
    assert vision.seen_apart((230, 60, 0), (150, 150, 0), "deuteranopia") < 5


def test_collisions_before_the_palette_change_are_caught():
    """The colours the boards had before: pairs the test above would have refused."""
    old = {
        "P'achakuna red and brown": ((206, 38, 44), (128, 78, 40), "protanopia"),
        "wine and graphite seats": ((128, 16, 60), (60, 60, 60), "protanopia"),
        "teal and plum seats": ((0, 86, 92), (110, 0, 90), "deuteranopia"),
        "kangaroo and crocodile totems": ((160, 100, 50), (70, 120, 70), "protanopia"),
    }
    for what, (a, b, deficiency) in old.items():
        assert vision.seen_apart(a, b) >= vision.THRESHOLD, what
        assert vision.seen_apart(a, b, deficiency) < vision.THRESHOLD, what


@pytest.mark.parametrize("deficiency", vision.DEFICIENCIES)
def test_a_picture_is_simulated_as_its_colours(deficiency):
    colours = [(250, 247, 240), (206, 38, 44), (38, 92, 205), (245, 205, 40), (20, 20, 96), (0, 0, 0)]
    image = Image.new("RGB", (len(colours), 1))
    image.putdata(colours)
    seen = [vision.simulate_image(image, deficiency).getpixel((x, 0)) for x in range(len(colours))]
    for colour, pixel in zip(colours, seen, strict=True):
        expected = vision.simulate(colour, deficiency)
        assert max(abs(p - e) for p, e in zip(pixel, expected, strict=True)) <= 3, (colour, pixel, expected)
        assert vision.delta_e(pixel, expected) < 1.5


@pytest.mark.parametrize("deficiency", vision.DEFICIENCIES)
def test_the_look_up_table_is_the_model_at_every_point(deficiency):
    """The table :func:`vision.simulate_image` filters through holds, at each of its points, the
    very numbers :func:`vision._simulate_unit` gives there (Pillow's own ``generate``)."""
    lut = vision._lut(deficiency)
    size = vision.LUT_SIZE
    generated = ImageFilter.Color3DLUT.generate(
        size, lambda r, g, b: vision._simulate_unit(deficiency, r, g, b)
    )
    assert (lut.size, lut.channels, lut.mode) == (generated.size, generated.channels, generated.mode)
    assert list(lut.table) == list(generated.table)


def test_colours_are_counted_as_pillow_counts_them():
    """colour_counts: Pillow's getcolors without a limit, for a board (a few colours) and for a
    picture with more colours than its first, small table holds."""
    board = Image.new("RGB", (300, 200), colours.BACKGROUND)
    board.paste(colours.MARK, (10, 10, 60, 40))
    assert sorted(colours.colour_counts(board)) == sorted(board.getcolors(300 * 200))
    many = Image.frombytes(
        "RGB", (400, 300), bytes((i >> s) & 255 for i in range(120000) for s in (0, 8, 16))
    )
    assert many.getcolors(colours.SMALL_TABLE) is None  # the second, large table is needed
    counted = colours.colour_counts(many)
    assert len(counted) == 120000 and sorted(counted) == sorted(many.getcolors(400 * 300))
    assert colours.colour_counts(many.convert("L")) == many.convert("L").getcolors(256)


def test_an_unknown_deficiency_is_refused():
    with pytest.raises(ValueError, match="protanopia"):
        vision.simulate_image(Image.new("RGB", (1, 1)), "achromatopsia-ish")


def test_the_gallery_draws_each_board_as_a_deficiency_sees_it(tmp_path):
    from renderers import gallery

    assert gallery.main([str(tmp_path), "pachakuna", "--vision", "tritanopia"]) == 0
    boards = sorted((tmp_path / "pachakuna").glob("*.png"))
    seen = sorted((tmp_path / "pachakuna" / "tritanopia").glob("*.png"))
    assert boards and [p.name for p in seen] == [p.name for p in boards]
    assert (tmp_path / "pachakuna-tritanopia-sheet.png").exists()
    assert not (tmp_path / "pachakuna" / "protanopia").exists()
    board = Image.open(boards[0]).convert("RGB")
    picture = Image.open(tmp_path / "pachakuna" / "tritanopia" / boards[0].name).convert("RGB")
    assert picture.size == board.size
    assert picture.tobytes() == vision.simulate_image(board, "tritanopia").tobytes()
    assert picture.tobytes() != board.tobytes()


def test_the_gallery_refuses_an_unknown_deficiency(tmp_path, capsys):
    from renderers import gallery

    with pytest.raises(SystemExit) as stop:
        gallery.main([str(tmp_path), "pachakuna", "--vision", "achromatopsia"])
    assert stop.value.code == 2
    assert "protanopia" in capsys.readouterr().err
    assert not (tmp_path / "pachakuna").exists()
