"""Colours that survive colour blindness: every colour a board's legend tells apart stays apart
(by CIE76 and by CIEDE2000) for protanopia, deuteranopia and tritanopia (Machado 2009,
:mod:`renderers.vision`), is the
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
            if not vision.far_enough(ka.colour, kb.colour, deficiency):
                apart = vision.seen_apart(ka.colour, kb.colour, deficiency)
                apart2000 = vision.seen_apart2000(ka.colour, kb.colour, deficiency)
                too_close.append((category, a, b, f"ΔE76 {apart:.1f}", f"ΔE2000 {apart2000:.2f}"))
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
        assert not vision.far_enough(a, b, deficiency), what


def test_collisions_only_ciede2000_sees_are_caught():
    """Colours the boards had before CIEDE2000 was measured too: CIE76 put each pair 10 or more
    apart for the deficiency (it overrates the chroma and hue of dark, saturated colours), but
    CIEDE2000 under 5, and the legend test refuses them (the high-contrast palette's own)."""
    old = {
        "navy and plum seats": ((20, 20, 96), (110, 0, 90), "protanopia"),
        "P'achakuna purple and blue": ((128, 60, 165), (38, 92, 205), "deuteranopia"),
        "parrot and lizard totems, high contrast": (
            colours.contrast_colour((46, 170, 90)),
            colours.contrast_colour((200, 150, 40)),
            "protanopia",
        ),
    }
    for what, (a, b, deficiency) in old.items():
        assert vision.seen_apart(a, b, deficiency) >= vision.THRESHOLD, what
        assert vision.seen_apart2000(a, b, deficiency) < vision.THRESHOLD_2000, what
        assert not vision.far_enough(a, b, deficiency), what


# Sharma, Wu and Dalal 2005 (Color Research and Application 30(1), pp. 21-30), table 1: the
# CIEDE2000 test data, every pair, (L, a, b) twice and the difference to 4 decimals.  Pairs 7-16
# try the hue angle's edge cases: neutral colours, and hues on either side of 180 degrees apart.
SHARMA_2005 = (
    ((50.0000, 2.6772, -79.7751), (50.0000, 0.0000, -82.7485), 2.0425),
    ((50.0000, 3.1571, -77.2803), (50.0000, 0.0000, -82.7485), 2.8615),
    ((50.0000, 2.8361, -74.0200), (50.0000, 0.0000, -82.7485), 3.4412),
    ((50.0000, -1.3802, -84.2814), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, -1.1848, -84.8006), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, -0.9009, -85.5211), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, 0.0000, 0.0000), (50.0000, -1.0000, 2.0000), 2.3669),
    ((50.0000, -1.0000, 2.0000), (50.0000, 0.0000, 0.0000), 2.3669),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0009), 7.1792),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0010), 7.1792),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0011), 7.2195),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0012), 7.2195),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0009, -2.4900), 4.8045),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0010, -2.4900), 4.8045),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0011, -2.4900), 4.7461),
    ((50.0000, 2.5000, 0.0000), (50.0000, 0.0000, -2.5000), 4.3065),
    ((50.0000, 2.5000, 0.0000), (73.0000, 25.0000, -18.0000), 27.1492),
    ((50.0000, 2.5000, 0.0000), (61.0000, -5.0000, 29.0000), 22.8977),
    ((50.0000, 2.5000, 0.0000), (56.0000, -27.0000, -3.0000), 31.9030),
    ((50.0000, 2.5000, 0.0000), (58.0000, 24.0000, 15.0000), 19.4535),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.1736, 0.5854), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.2972, 0.0000), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 1.8634, 0.5757), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.2592, 0.3350), 1.0000),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((63.0109, -31.0961, -5.8663), (62.8187, -29.7946, -4.0864), 1.2630),
    ((61.2901, 3.7196, -5.3901), (61.4292, 2.2480, -4.9620), 1.8731),
    ((35.0831, -44.1164, 3.7933), (35.0232, -40.0716, 1.5901), 1.8645),
    ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
    ((36.4612, 47.8580, 18.3852), (36.2715, 50.5065, 21.2231), 1.4146),
    ((90.8027, -2.0831, 1.4410), (91.1528, -1.6435, 0.0447), 1.4441),
    ((90.9257, -0.5406, -0.9208), (88.6381, -0.8985, -0.7239), 1.5381),
    ((6.7747, -0.2908, -2.4247), (5.8714, -0.0985, -2.2286), 0.6377),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
)


@pytest.mark.parametrize(("first", "second", "expected"), SHARMA_2005, ids=range(1, len(SHARMA_2005) + 1))
def test_ciede2000_gives_the_published_test_data(first, second, expected):
    assert vision.ciede2000(first, second) == pytest.approx(expected, abs=5e-5)
    assert vision.ciede2000(second, first) == pytest.approx(expected, abs=5e-5)  # it is symmetric
    assert vision.ciede2000(first, first) == 0


def test_ciede2000_of_srgb_colours():
    """On sRGB colours, through the module's own CIELAB: black against white is 100 (lightness
    alone), a colour against itself 0, and the navy against the old plum far less than CIE76
    says."""
    assert vision.delta_e2000((0, 0, 0), (255, 255, 255)) == pytest.approx(100, abs=0.01)
    assert vision.delta_e2000((110, 0, 90), (110, 0, 90)) == 0
    assert vision.delta_e2000((20, 20, 96), (110, 0, 90)) < vision.delta_e((20, 20, 96), (110, 0, 90))


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
