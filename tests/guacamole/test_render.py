"""Renderer tests: spectator and seat views at several points of a game."""

from __future__ import annotations

import dataclasses
import io
import random

import pytest
from PIL import Image, ImageChops

import engines.guacamole as g
from renderers.guacamole import TYPE_COLOURS, draw_board, render

from .helpers import rig


def _game_states(players: int, seed: int, stops: tuple[int, ...]):
    s = g.new_game(g.Config(players=players), players, seed)
    rng = random.Random(seed)
    out, k = [], 0
    while not s.over:
        if k in stops:
            out.append(s)
        seat = s.turn
        s, _ = g.apply_move(s, seat, g.computer_move(g.view_for(s, seat), g.legal_moves(s, seat), rng))
        k += 1
    out.append(s)
    return out


def _open(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def test_render_spectator_and_seat_views():
    """Renderer: PNGs of phone width for spectator and seat views; different states differ."""
    states = _game_states(4, 11, (0, 30, 80))
    images = set()
    for s in states:
        for seat in (None, 0, s.turn if not s.over else 3):
            png = render(g.view_for(s, seat), names=["Ana", "Beto", "Coca", "Dani"])
            img = _open(png)
            assert img.format == "PNG" and 1000 <= img.width <= 1400 and img.height > 600
            assert img.mode in ("RGB", "P", "RGBA")
            images.add(png)
    assert len(images) >= len(states) * 2


def test_seat_view_is_taller_than_spectator():
    """Renderer: a seat's view adds its hand below the public board."""
    s = g.new_game(g.Config(players=2), 2, 3)
    spectator = _open(render(g.view_for(s, None)))
    seat = _open(render(g.view_for(s, 0)))
    assert seat.height > spectator.height and seat.width == spectator.width


def test_render_every_player_count_and_names_missing():
    """Renderer: 2 to 6 players, with or without names, at the end of a game."""
    for n in range(2, 7):
        s = _game_states(n, 100 + n, ())[-1]
        assert s.over
        _open(render(g.view_for(s, None)))
        _open(render(g.view_for(s, n - 1), names=None))


def test_render_phase_steps():
    """Renderer: an ability step and an empty hand draw without error."""
    from .helpers import rig

    s = rig(hands={0: ["5T"]}, dishes={1: [["1A", "2A", "3A"]]})
    s2, _ = g.apply_move(s, 0, g.parse_move("prep 5T"))
    a = render(g.view_for(s2, 0))
    b = render(g.view_for(s, 0))
    assert a != b
    _open(a)


def test_turn_marks_gather_the_whole_turn():
    """View: turn_marks holds every place the turn changed so far, and the whole previous turn
    until the next player's first move; the board outlines them."""
    s = g.new_game(g.Config(players=3), 3, 5)
    rng = random.Random(5)
    gathered: list[str] = []
    ended = 0
    for _ in range(300):
        seat = s.turn
        s, _ = g.apply_move(s, seat, g.computer_move(g.view_for(s, seat), g.legal_moves(s, seat), rng))
        gathered += [m for m in s.marks if m not in gathered]
        v = g.view_for(s, None)
        assert list(v.turn_marks) == gathered
        if not v.turn_moves:
            ended += 1
            gathered = []
        if s.over:
            break
    assert ended > 5
    restored = g.from_dict(g.to_dict(s))
    assert g.view_for(restored, None).turn_marks == g.view_for(s, None).turn_marks


def test_view_carries_the_outcome_ranking():
    """View: once the game is over, the ranking (tiebreaks applied) is public; before, empty."""
    s = _game_states(3, 4, ())[-1]
    assert g.view_for(s, None).ranking == g.outcome(s).ranking
    assert g.view_for(g.new_game(g.Config(players=3), 3, 4), None).ranking == ()


def test_every_card_of_a_dish_is_drawn():
    """Renderer: a dish shows every card it holds, not only the four on top (the whole dish is
    public, and a run's ends decide what extends it): two six-card runs that differ only in their
    first card, with the same points, draw differently."""
    low = rig(dishes={0: [["1P", "2T", "3O", "4A", "5L", "6P"]]})
    high = rig(dishes={0: [["7P", "2T", "3O", "4A", "5L", "6P"]]})
    assert g.view_for(low, None).scores == g.view_for(high, None).scores
    assert draw_board(g.view_for(low, None)).tobytes() != draw_board(g.view_for(high, None)).tobytes()


def _exactly(image: Image.Image, colour: tuple[int, int, int]) -> Image.Image:
    """A mask of the pixels of ``image`` that are exactly ``colour``."""
    bands = [
        band.point(lambda v, c=c: 255 if v == c else 0) for band, c in zip(image.split(), colour, strict=True)
    ]
    return ImageChops.multiply(ImageChops.multiply(bands[0], bands[1]), bands[2])


def _changed(a: Image.Image, b: Image.Image) -> Image.Image:
    """A mask of the pixels that differ between ``a`` and ``b``."""
    r, g_, b_ = ImageChops.difference(a, b).split()
    return ImageChops.lighter(ImageChops.lighter(r, g_), b_).point(lambda v: 255 if v else 0)


@pytest.mark.parametrize("mark", ["p1d1", "p1z4O", "p1z2O"])
def test_the_outline_of_a_changed_place_covers_no_card_of_its_stack(mark):
    """Renderer: outlining a changed dish top or zone card leaves every card of the stack
    readable: no pixel of a card face changes (the outline goes round the whole stack, not over
    the strip of the card beneath)."""
    s = rig(prep={0: ["2O", "3O", "4O"]}, dishes={0: [["5O", "6O", "7O", "8O"]]})
    view = g.view_for(s, None)
    plain = draw_board(dataclasses.replace(view, turn_marks=()))
    marked = draw_board(dataclasses.replace(view, turn_marks=(mark,)))
    changed = _changed(plain, marked)
    assert changed.getbbox() is not None  # the outline is drawn
    onion = _exactly(plain, TYPE_COLOURS["O"][0])  # every Onion Musk card face: zone and dish
    assert ImageChops.multiply(onion, changed).getbbox() is None


# the fact the star under a dish stands for, as the legend and the board in words state it
GUACAMOLE_FACT = {
    None: "all five types in one dish: +3 points",
    "es": "los cinco tipos en un plato: +3 puntos",
}


@pytest.mark.parametrize("language", [None, "es"])
def test_the_star_under_a_guacamole_is_explained_on_the_board_and_in_words(language):
    """A guacamole dish carries a star; the board explains it in a legend line beside the card
    types (a star, then what a guacamole is and scores), in the reader's language, and the board
    in words says the same of each guacamole, valid or not."""
    from engines.core import in_words
    from languages import language as catalogue
    from renderers import encoding, typeset

    s = rig(dishes={0: [["2P", "3L", "4O", "5T", "6A"]], 1: [["1P", "8L", "5O", "7T", "9A"], ["2A"]]})
    view = g.view_for(s, 0)
    assert [d.guacamole for d in view.dishes[0] + view.dishes[1]] == [True, True, False]
    fact = GUACAMOLE_FACT[language]
    with typeset.fit_log() as log:
        png = render(view, names=["Ana", "Beto"], language=language)
    assert len(png) < encoding.LIMIT
    assert sum(1 for f in log if f.text.endswith("★")) == 2  # under the two guacamoles
    legend = [f for f in log if fact in f.text]
    assert len(legend) == 1 and not legend[0].cut, [f.text for f in log]
    assert legend[0].text.startswith("guacamole: ")
    x0, y0, _, _ = legend[0].box
    swatch = _open(png).convert("RGB").crop((x0 - 44, y0, x0 - 10, y0 + 28))
    ink = sum(n for n, c in swatch.getcolors(4096) if max(c) < 80)  # the star, and the swatch's edge
    edge = sum(n for n, c in swatch.crop((8, 6, 26, 22)).getcolors(4096) if max(c) < 80)
    assert ink and edge > 20, (ink, edge)  # a dark mark in the swatch's middle: the star
    reader = catalogue(language or "en")
    words = [in_words(line, reader) for sec in g.describe(view) for line in sec.lines]
    dishes = [w for w in words if w and w.startswith(("Dish p", "Plato p"))]
    assert len(dishes) == 3
    assert [fact in w for w in dishes] == [True, True, False], dishes


@pytest.mark.parametrize("language", [None, "es"])
def test_the_hands_heading_shows_how_to_play_a_card_the_reader_holds(language):
    """The line over a player's hand shows how to type a move with a card from that hand (it
    always said "prep 5T", a card the reader may not hold); an empty hand says it has none."""
    from renderers import typeset

    s = rig(hands={0: ["4O", "8P"], 1: []})
    with typeset.fit_log() as log:
        render(g.view_for(s, 0), names=["Ana", "Beto"], language=language)
    heading = next(f.text for f in log if f.text.startswith(("Your hand", "Tu mano")))
    assert "prep 4O, dish 4O" in heading and "5T" not in heading, heading
    with typeset.fit_log() as log:
        render(g.view_for(s, 1), names=["Ana", "Beto"], language=language)
    heading = next(f.text for f in log if f.text.startswith(("Your hand", "Tu mano")))
    assert heading in ("Your hand — no cards", "Tu mano — sin cartas") and "prep" not in heading, heading


@pytest.mark.parametrize("language", [None, "es"])
@pytest.mark.parametrize("ended", [None, "Game over"])
def test_the_new_dishs_label_is_never_cut(language, ended):
    """Under the dish being made: "building" (or "ready", or, on the last board of a game the
    table ended, "unfinished"), whole in every language, never cut to an ellipsis ("en…")."""
    from renderers import typeset

    state = g.new_game(g.Config(), 2, 3)
    first = next(m for m in g.legal_moves(state, 0) if str(m).startswith("dish"))
    state, _ = g.apply_move(state, 0, first)
    with typeset.fit_log() as log:
        render(g.view_for(state, None), names=["Ana", "Beto"], language=language, ended=ended)
    labels = {"building", "ready", "unfinished", "en curso", "listo", "sin terminar"}
    (label,) = [f for f in log if f.text in labels or f.text.startswith("en ")]
    assert (
        not label.cut
        and label.text
        == (
            {None: "building", "es": "en curso"}
            if ended is None
            else {None: "unfinished", "es": "sin terminar"}
        )[language]
    ), label


PHONE = 400  # the width Discord shows a picture at on a phone


def test_the_codes_of_cards_in_stacks_read_on_a_phone():
    """A card under a dish's (or the zone's) top card shows only its code, and the zone's top
    card its place (p1z4O), which moves name: shown 400 px wide, as on a phone, their letters
    are 6 px tall or more (4.2 and 4.4 px before), a strip's inside the band the next card
    leaves uncovered."""
    from renderers import guacamole as R
    from renderers.typeset import fit_log, font

    scale = PHONE / R.WIDTH
    band = R._stack_height(3) - R._stack_height(2)  # each card more in a stack: one strip
    for code in ("1O", "8T", "9L", "4A"):
        strip = R._strip(code, R.SMALL[0]).convert("RGBA")
        ink = R.TYPE_COLOURS[code[1]][1]
        rows = [
            y
            for y in range(strip.height)
            if any(strip.getpixel((x, y))[:3] == ink for x in range(4, strip.width // 2))
        ]
        assert rows and rows[-1] < band, code  # drawn where the next card leaves it seen
        assert (rows[-1] - rows[0] + 1) * scale >= 6, code
    s = rig(prep={0: ["2O", "3O", "4O"]}, dishes={0: [["5O", "6O", "7O", "8O"]]})
    with fit_log() as log:
        picture = draw_board(g.view_for(s, None))
    assert picture.width == R.WIDTH
    places = [f for f in log if f.text == "p1z4O"]
    assert places and not any(f.cut for f in places)
    for f in places:
        _, top, _, bottom = font(f.size, True).getbbox("4O")
        assert (bottom - top) * scale >= 6


def _arrow_alone(R, view, names, monkeypatch):
    """What the last card's arrow changes on ``view``'s board, its head left out (a mask), the
    board drawn without it, and the heads drawn."""
    heads = []
    with monkeypatch.context() as m:
        m.setattr(R, "arrow_head", lambda d, points, width=7: heads.append(points), raising=False)
        drawn = draw_board(view, names=names)  # the head, drawn over the rest, left out
        m.setattr(R, "_path_under", lambda *args, **kwargs: None)
        plain = draw_board(view, names=names)  # the same board and legend, with no arrow
    return _changed(plain, drawn), plain, drawn, heads


def _hidden_by_arrow(R, changed: Image.Image, plain: Image.Image) -> Image.Image:
    """The pixels the arrow changed that were not a flat background: a card, a word, a frame."""
    from renderers.colours import MARK

    flat = _exactly(plain, R.BACKGROUND)
    for colour in (R.PANEL, R.RULE, (244, 241, 234), MARK, (255, 255, 255)):
        flat = ImageChops.lighter(flat, _exactly(plain, colour))
    return ImageChops.multiply(changed, ImageChops.invert(flat))


def test_the_last_cards_arrow_hides_no_card_nor_word_of_other_panels(monkeypatch):
    """The last card's arrow (pile to hand) crossed the panels between the pile and the hand:
    in the five-seat sample's end seen by seat 3, it was drawn over Cusi's and Beto's dishes,
    their codes and words. It now passes under every card and word; only its head is drawn
    on top, at the hand it points to: every other pixel it changes was a flat background."""
    from renderers import guacamole as R
    from renderers.colours import MARK
    from renderers.samples import positions

    pos = next(p for p in positions("guacamole") if p.label == "5p-end")
    view = pos.view(2)
    assert R._last_path(view) == [("x2", "p5h")]
    changed, plain, drawn, heads = _arrow_alone(R, view, pos.names, monkeypatch)
    assert ImageChops.multiply(changed, _exactly(drawn, MARK)).getbbox() is not None  # the arrow shows
    hidden = _hidden_by_arrow(R, changed, plain)
    assert hidden.getbbox() is None, hidden.getbbox()
    assert len(heads) == 1


def test_no_last_cards_arrow_of_the_samples_crosses_a_word_or_card(monkeypatch):
    """Every sample board with a last card's arrow, seen by everyone: the arrow changes only flat
    background. A card drawn from a pile into the reader's own hand aimed at their panel, just
    under the types' legend, and its shaft crossed the legend's words ('guacamole: all five…'):
    it now passes under them, and a shaft that would show less than a tenth of itself between
    the legend's rows is left out (the head still shows where the card went)."""
    from renderers import guacamole as R
    from renderers.samples import positions

    seen = dropped = 0
    for pos in positions("guacamole"):
        for seat in (None, *range(pos.players)):
            view = pos.view(seat)
            if not R._last_path(view):
                continue
            changed, plain, _, heads = _arrow_alone(R, view, pos.names, monkeypatch)
            hidden = _hidden_by_arrow(R, changed, plain)
            assert hidden.getbbox() is None, (pos.label, seat, hidden.getbbox())
            assert len(heads) == len(R._last_path(view)), (pos.label, seat)
            seen += 1
            dropped += changed.getbbox() is None
    # the reader's own hand under the legend: one view of each sample with an arrow, shaft left out
    assert seen == 29 and dropped == 6, (seen, dropped)


@pytest.mark.parametrize("language", [None, "es"])
def test_card_names_and_the_words_under_dishes_read_on_a_phone(language):
    """A card's name on its foot ("Tomathor", "Avocaldo") and the words under a dish ("✓ same
    type", "✗ invalid", "3 cards") shrank to size 15 or 14 to fit, 3.6 px tall shown 400 px wide:
    their capitals now stand 4.5 px or more on a phone, whole, on cards no wider than before and
    a picture under the encoder's limit."""
    from renderers import encoding
    from renderers import guacamole as R
    from renderers.typeset import clear_art, fit_log, font

    scale = PHONE / R.WIDTH
    assert (R.SMALL, R.BIG) == ((92, 124), (110, 150))
    names = {"Avocaldo", "Lima", "Onion", "Tomathor", "Aji", "Ají"}
    s = rig(
        hands={0: ["1P", "2L", "3O", "4T", "5A"]},
        dishes={
            0: [["2T", "3T", "4T"], ["1P", "1L", "1O"], ["2P", "3L", "4O", "5T", "6A"]],
            1: [["4A", "5A", "7A"], ["9O", "3L", "1T"]],
        },
    )
    clear_art()
    with fit_log() as log:
        png = render(g.view_for(s, 0), names=["Ana", "Beto"], language=language)
    assert len(png) < encoding.LIMIT
    on_cards = [f for f in log if f.text in names]
    assert {f.text for f in on_cards} >= {"Avocaldo", "Tomathor", "Lima"}, [f.text for f in log]
    under = [f for f in log if f.text.startswith(("✓", "✗")) or f.text[:1].isdigit() and " ca" in f.text]
    assert len([f for f in under if f.text[0] in "✓✗"]) == 5, [f.text for f in under]
    assert any("tipo" in f.text or "type" in f.text for f in under)
    for f in on_cards + under:
        _, top, _, bottom = font(f.size, True).getbbox("H")
        assert not f.cut and (bottom - top) * scale >= 4.5, f


@pytest.mark.parametrize("language", [None, "es"])
def test_a_cards_ability_reads_on_a_phone(language):
    """The ability in a card's white band ("+3 dish", "swap"; "+3 al plato") was set at 18, and
    the Spanish "+3 al plato" shrank to 13 on a small card: 3.1 px tall shown 400 px wide. On
    cards of every type and both sizes, it now stands 4.5 px or more on a phone, whole, inside
    its band."""
    from renderers import guacamole as R
    from renderers.translation import speaking, tr
    from renderers.typeset import clear_art, fit_log, font

    scale = PHONE / R.WIDTH
    clear_art()
    with speaking(language), fit_log() as log:
        for size in (R.SMALL, R.BIG):
            for t in "PLOTA":
                R.card_image(f"5{t}", size)
        powers = {tr(p) for p in R.POWER.values()}
    told = [f for f in log if f.text in powers]
    assert {f.text for f in told} == powers and len(told) == 10, [f.text for f in log]
    for f in told:
        _, top, _, bottom = font(f.size, True).getbbox("H")
        assert not f.cut and (bottom - top) * scale >= 4.5, f


@pytest.mark.parametrize("language", [None, "es"])
def test_the_word_empty_reads_on_a_phone(monkeypatch, language):
    """An empty zone and an empty discard pile say so ("empty"; "vacía", "vacío") at the size of
    the words under dishes (it was 18, 4.3 px tall shown 400 px wide), whole in the space."""
    from renderers import guacamole as R
    from renderers.typeset import font

    said: list[tuple[str, int, bool]] = []
    stamp = R.label

    def spy(d, xy, text, size, bold=False, fill=R.INK, anchor="la"):
        said.append((text, size, bold))
        return stamp(d, xy, text, size, bold, fill, anchor)

    monkeypatch.setattr(R, "label", spy)
    s = rig(discards=((), ("9P",)), dishes={0: [["2T", "3T", "4T"]]})
    picture = draw_board(g.view_for(s, None), names=["Ana", "Beto"], language=language)
    empty = [x for x in said if x[0] in ("empty", "vacía", "vacío")]
    assert len(empty) == 3, said  # the first discard pile and both zones
    for text, size, bold in empty:
        left, top, right, bottom = font(size, bold).getbbox("H")
        assert (bottom - top) * PHONE / picture.width >= 4.5, (text, size)
        assert font(size, bold).getlength(text) < R.SMALL[0] - 8


def _heading(view, language=None) -> str:
    from renderers import typeset

    with typeset.fit_log() as log:
        render(view, names=["Ana", "Beto"], language=language)
    return next(f.text for f in log if f.text.startswith(("Your hand", "Tu mano")))


@pytest.mark.parametrize("language", [None, "es"])
def test_the_hands_heading_offers_only_moves_the_reader_may_type_now(language):
    """The line over the hand said "type a code: prep 2T, dish 2T" in every step: in Tomathor's
    step, while a dish was being made, while drawing, on another player's turn. It now offers
    the hand's moves that are legal now (a dish card that fits the dish being made) or none."""
    s = rig(hands={0: ["2T", "5L", "5O", "5P"], 1: ["1A"]})
    assert _heading(g.view_for(s, 0), language).endswith("prep 2T, dish 2T")
    assert _heading(g.view_for(s, 1), language) in ("Your hand — 1 card", "Tu mano — 1 carta")
    steps = {
        "tomathor": ["prep 2T"],  # an ability's step: its moves are in the step line
        "dish": ["dish 5L", "dish 5O"],  # only another 5 fits: 5P, not the first card 2T
        "draw": ["draw deck"],
        "main, prepared": ["prep 5L", "pass"],
    }
    hints = {}
    for name, moves in steps.items():
        t = s
        for text in moves:
            t, _ = g.apply_move(t, 0, g.parse_move(text))
        hints[name] = g.view_for(t, 0).hand_moves
        heading = _heading(g.view_for(t, 0), language)
        assert "prep" not in heading and all(m in heading for m in hints[name]), (name, heading)
    assert hints == {"tomathor": (), "dish": ("dish 5P",), "draw": (), "main, prepared": ("dish 2T",)}


def test_the_last_cards_arrow_points_at_the_hands_count_clear_of_the_name(monkeypatch):
    """A card drawn from a pile into a hand: the arrow's head, drawn over the rest, sat in the
    middle of the player's name ('P2 (cpu, normal)'). Its tip now touches the edge of the head's
    right half, where the hand is counted, and covers no text of the board."""
    from renderers import guacamole as R
    from renderers.typeset import clear_art, text_log

    s = rig(
        hands={0: ["1T"], 1: ["5L"]},
        dishes={0: [["1O", "2O", "3O"]]},
        discards=(["9A", "3T"], ["9P"]),
        turn=1,
    )
    for text in ("draw deck", "draw x1"):
        s, _ = g.apply_move(s, 1, g.parse_move(text))
    view = g.view_for(s, 0)
    assert R._last_path(view) == [("x1", "p2h")]
    heads = []
    draw_head = R.arrow_head
    monkeypatch.setattr(
        R, "arrow_head", lambda d, points, width=7: (heads.append(points), draw_head(d, points, width))
    )
    clear_art()
    with text_log() as log:
        picture = draw_board(view, names=["Ana", "P2 (cpu, normal)"])
    (points,) = heads
    tip, width = points[-1], 7 * 3.2  # the head: a triangle this long behind its tip
    head = (tip[0] - width, tip[1] - width, tip[0] + width, tip[1] + width)
    words = [t for t in log if t.canvas == picture.size and t.text.strip()]
    (name,) = [t for t in words if t.text.startswith("P2 (cpu") and abs(t.box[1] - tip[1]) < 50]
    assert name.box[2] < tip[0], (name, tip)  # the tip is right of the panel's name
    over = [
        t.text
        for t in words
        if t.box[0] < head[2] and t.box[2] > head[0] and t.box[1] < head[3] and t.box[3] > head[1]
    ]
    assert over == [], over


@pytest.mark.parametrize("language", [None, "es"])
def test_every_zone_card_shows_its_place(language):
    """Every card of a preparation zone is visible (a swap or a take may name any), but only its
    front card showed its place (p1z4O); the cards behind showed their codes like a dish's
    strips. Each now shows its place, whole above the next strip, as tall as a dish strip's code."""
    from renderers import guacamole as R
    from renderers.typeset import clear_art, text_log

    s = rig(prep={0: ["2O", "3O", "4O"], 1: ["5T", "6T", "7T", "8T"]}, dishes={0: [["5O", "6O", "7O"]]})
    clear_art()
    with text_log() as log:
        draw_board(g.view_for(s, None), language=language)
    strips = {t.text: t for t in log if t.canvas == (R.SMALL[0], R.ZONE_STRIP + 2)}
    assert set(strips) == {"p1z2O", "p1z3O", "p2z5T", "p2z6T", "p2z7T"}, [t.text for t in log]
    dish = next(t for t in log if t.text == "5O")
    for t in strips.values():
        assert 0 < t.box[1] and t.box[3] <= R.ZONE_STRIP and t.cap >= dish.cap, t


@pytest.mark.parametrize("language", [None, "es"])
def test_avocaldos_card_says_it_adds_cards_not_points(language):
    """Patricia & Avocaldo's card said "+3 dish" ("+3 al plato"), read as points beside the legend's
    "guacamole: ... +3 points": it now says it adds 1 to 3 cards, like the other cards' verbs."""
    from renderers import guacamole as R
    from renderers.translation import speaking, tr

    with speaking(language):
        words = {t: tr(p) for t, p in R.POWER.items()}
    assert words["P"] == {None: "add 1-3", "es": "añadir 1-3"}[language]
    assert not any("+" in w for w in words.values()), words


@pytest.mark.parametrize("language", [None, "es"])
def test_the_legend_tells_of_the_arrow_only_when_one_is_drawn(monkeypatch, language):
    """The legend read "arrow: where the last card went" on turn 1 and after a move that sent no
    card anywhere (a card prepared into one's own zone), where no arrow was drawn; it now tells
    of the arrow only on a board that draws one."""
    from renderers import guacamole as R
    from renderers.typeset import clear_art, text_log

    arrow = {None: "arrow: where the last card went", "es": "flecha"}[language]
    changed = {None: "changed in the last turn", "es": "cambió en el último turno"}[language]
    s = rig(hands={0: ["1T", "4L"], 1: ["5L"]}, discards=(["9A", "3T"], ["9P"]))
    drawn = g.apply_move(g.apply_move(s, 0, g.parse_move("prep 4L"))[0], 0, g.parse_move("pass"))[0]
    drawn = g.apply_move(drawn, 0, g.parse_move("draw x1"))[0]
    cases = {
        "turn 1": (s, False),
        "prepared": (g.apply_move(s, 0, g.parse_move("prep 4L"))[0], False),
        "drawn from a pile": (drawn, True),
    }
    for case, (state, has_arrow) in cases.items():
        heads = []
        monkeypatch.setattr(R, "arrow_head", lambda d, points, width=7, heads=heads: heads.append(points))
        clear_art()
        with text_log() as log:
            R.draw_board(g.view_for(state, 0), names=["Ana", "Beto"], language=language)
        words = " ".join(t.text for t in log)
        assert bool(heads) == has_arrow, case
        assert changed in words, (case, words)
        assert (arrow in words) == has_arrow, (case, words)
