"""Renderer: spectator and seat views at several points of a game give valid, distinct PNGs."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

from engines import guanga as G
from engines.guanga.rules import Mode
from renderers.guanga import PATCH_RGB, SWATCH, render
from renderers.typeset import fit_log
from tests.guanga.util import game, kind, play


def _states(mode: str, players: int, seed: int, stoppers: bool = False):
    s = G.new_game(G.Config(players=players, mode=Mode(mode), stoppers=stoppers), players, seed)
    rng = random.Random(seed)
    out = [s]
    step = 0
    while not s.finished:
        seat = min(G.to_move(s))
        s, _ = G.apply_move(s, seat, G.computer_move(G.view_for(s, seat), G.legal_moves(s, seat), rng))
        step += 1
        if step in (5, 40):
            out.append(s)
    out.append(s)
    return out


def _open(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def test_render_views_through_a_game():
    """Renderer: PNGs of a reasonable size for spectators and seats, changing as the game goes."""
    for mode, players, stoppers in (
        ("apprentice", 4, True),
        ("beginner", 2, False),
        ("master", 3, False),
        ("artisan", 1, False),
    ):
        pngs = []
        for s in _states(mode, players, 3, stoppers):
            for seat in (None, 0):
                png = render(G.view_for(s, seat), names=["Ana", "Beto", "Cusi", "Dora"][:players])
                img = _open(png)
                assert img.format == "PNG" and img.mode in ("P", "RGB") and len(png) < 150 * 1024
                assert img.width == 1200 and 600 <= img.height <= 3200
                pngs.append(png)
        assert len(set(pngs)) >= 4, "different states give different images"


def test_seat_view_shows_private_order():
    """Renderer: a seat's image adds its secret order; the spectator's does not."""
    s = G.new_game(G.Config(players=2, mode=Mode.APPRENTICE), 2, 9)
    for seat in range(2):
        s, _ = G.apply_move(s, seat, G.parse_move(f"keep {s.orders_dealt[seat][0]}"))
    assert render(G.view_for(s, 0)) != render(G.view_for(s, None))
    assert render(G.view_for(s, None), names=None)


def test_view_carries_the_outcome_ranking():
    """View: once the game is over, the ranking (tiebreaks applied) is public; before, empty."""
    end = _states("master", 3, 5)[-1]
    assert G.view_for(end, 1).ranking == G.outcome(end).ranking
    assert G.view_for(_states("master", 3, 5)[0], 1).ranking == ()


def test_a_stopper_cell_is_not_an_empty_cell_in_the_scores_line():
    """Renderer: the seats' line counts the empty cells as the penalty does, a stopper's cell as
    filled (Ana's two stoppers leave 22 empty cells, -44, not 24)."""
    s = game(2, "beginner", stoppers=True)
    s, _ = play(s, 0, "T1A1", "T1A2")
    assert G.view_for(s, None).guangas[0].score["penalty"] == 44
    with fit_log() as log:
        render(G.view_for(s, None), names=["Ana", "Beto"])
    texts = [f.text for f in log]
    assert "0 cards · 22 empty" in texts and "Empty cells: -44" in texts
    assert "0 cards · 24 empty" in texts and "Empty cells: -48" in texts  # Beto, no stopper


def test_the_market_slot_of_the_last_turns_claim_is_outlined():
    """Renderer: after a turn with a claim, the market slot the claimed card left (its
    replacement now) is outlined in the last turn's magenta; nothing else in the market is."""
    from dataclasses import replace

    from renderers.colours import MARK
    from renderers.layout import PAD, WIDTH

    from .util import apprentice_claim_of_a01

    s, slot = apprentice_claim_of_a01()
    s, _ = play(s, 0, "P1A3", "P2B3", "C A01 red A1A2A3", "R A1A2", "done")
    view = G.view_for(s, None)
    assert view.lit_slot == slot

    def magenta_columns(v) -> set[int]:
        img = _open(render(v, names=["Ana", "Beto"])).convert("RGB")
        top, bottom = 0, img.height // 3  # the header, the scores and the market
        return {
            x
            for x in range(img.width)
            for y in range(top, bottom, 2)
            if sum(abs(a - b) for a, b in zip(img.getpixel((x, y)), MARK, strict=True)) < 60
        }

    lit = magenta_columns(view) - magenta_columns(replace(view, lit_slot=None))
    gap, k = 8, len(view.market)
    card_w = min(124, (WIDTH - 2 * PAD - gap * (k - 1)) // k)
    x = PAD + slot * (card_w + gap)
    assert lit and min(lit) >= x - 6 and max(lit) <= x + card_w + 6


def test_the_first_patch_note_names_the_patch_in_the_boards_language():
    """Renderer: between the two patches of a take, the note names the first patch in the
    board's language (a Spanish board says "amaru rojo", not "red amaru")."""
    from .util import BLU_IN, GRN_RO, RED_CH, RED_IN, YEL_AM, YEL_KU, set_basket

    s = game(2, "apprentice")
    set_basket(s, [kind("red", "amaru"), BLU_IN, GRN_RO, RED_IN, YEL_AM, YEL_KU, RED_CH, BLU_IN])
    s, _ = play(s, 0, "P1C2")
    notes = {}
    for language in ("en", "es"):
        with fit_log() as log:
            render(G.view_for(s, 0), names=["Ana", "Beto"], language=language)
        notes[language] = [f.text for f in log if f.text.startswith(("1st patch", "1.er parche"))]
    assert notes["en"] == ["1st patch taken: red amaru; the 2nd must differ in colour and symbol"]
    assert notes["es"] == ["1.er parche tomado: amaru rojo; el 2.º debe diferir en color y símbolo"]


def test_the_header_offers_only_the_cells_that_may_go_back():
    """Renderer: during the returns of an artisan claim over a bare mother patch on C3, the header
    names the cells whose patches may go back (C2 C4), not C3."""
    from renderers.guanga import _header

    from .util import artisan_claim_over_the_bare_mother

    s = artisan_claim_over_the_bare_mother()
    status = "".join(text for text, _ in _header(G.view_for(s, None), ["Ana", "Beto"], None).status)
    assert status == "Ana returns 2 patches of the claim (2 of C2 C4)"


PHONE = 400  # the width Discord shows a picture at on a phone


def _pips_seen(tile: Image.Image, colour: str) -> int:
    """How many pips a phone shows on a patch tile: the tile as it is in a picture shown 400 px
    wide, each pixel in a quarter square at a corner (the symbol keeps to the middle) counted
    as the pips' ink when nearer to it than to the patch's colour, then its separate spots."""
    from renderers import guanga as R

    side = round(tile.width * PHONE / R.WIDTH)
    small = tile.convert("RGB").resize((side, side), Image.Resampling.LANCZOS)
    ink, ground = R.GLYPH_INK[colour], R.PATCH_RGB[colour]
    corner = side // 4

    def near(p, c):
        return sum((a - b) ** 2 for a, b in zip(p, c, strict=True))

    spots = {
        (x, y)
        for x in (*range(corner), *range(side - corner, side))
        for y in (*range(corner), *range(side - corner, side))
        if near(small.getpixel((x, y)), ink) < near(small.getpixel((x, y)), ground)
    }
    count = 0
    while spots:
        count += 1
        todo = [spots.pop()]
        while todo:
            x, y = todo.pop()
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in spots:
                    spots.remove(n)
                    todo.append(n)
    return count


def test_a_patchs_pips_can_be_counted_on_a_phone():
    """A patch's colour is told by its pips too (red 1, blue 2, yellow 3, green 4): on a phone
    (the picture shown 400 px wide) each pip is a spot of its own, on the tiles of the small
    boards (48 px), of the basket (56) and of the reader's own board (62), whatever the symbol
    (the four pips in one corner ran together into one spot)."""
    from engines.guanga import data as D
    from renderers import guanga as R

    for size in (48, 56, 62):
        for colour, n in R.PATCH_PIPS.items():
            for symbol in D.SYMBOLS:
                assert _pips_seen(R._patch_tile(colour, symbol, size), colour) == n, (size, colour, symbol)


def test_a_stacks_height_hides_none_of_its_top_patchs_pips():
    """A stack's height is drawn on its top patch (a white disc with the number): it keeps off
    the corners, so a green patch on top of two others still shows its four pips on a phone."""
    from PIL import ImageDraw

    from renderers import guanga as R
    from tests.guanga.util import GRN_RO, RED_IN, YEL_KU, put

    s = game(2)
    put(s, 0, {"B2": [RED_IN, YEL_KU, GRN_RO]})
    view = G.view_for(s, None)
    (p,) = [p for p in view.guangas if p.seat == 0]
    assert p.heights[6] == 3
    for cell in (50, 64):
        img = Image.new("RGB", (8 * cell, 8 * cell), (250, 250, 250))
        R._draw_board(img, ImageDraw.Draw(img), view, p, cell, cell, cell)
        x = y = 2 * cell  # B2: the second row, the second column
        patch = img.crop((x + 1, y + 1, x + cell - 1, y + cell - 1))
        assert (255, 255, 255) in {c for _, c in patch.getcolors(1 << 16)}  # the height's disc
        assert _pips_seen(patch, "green") == 4, cell


@pytest.mark.parametrize("language", [None, "es"])
def test_a_market_cards_id_and_points_read_on_a_phone(language):
    """A market card's header holds its id (its level's letter, the colour's second cue) and its
    points: with eleven cards in the market the points shrank to 15 ("12VP", 13 for "12 PV"), 3.6
    px tall shown 400 px wide, as on a phone.  On markets of nine and eleven cards, in both
    languages, every card's id and points now stand 4.5 px or more, whole, and the largest sample
    board stays under the encoder's limit."""
    from renderers import encoding
    from renderers import guanga as R
    from renderers.samples import positions
    from renderers.translation import speaking, tr
    from renderers.typeset import clear_art, font

    scale = PHONE / R.WIDTH
    samples = {p.label: p for p in positions("guanga")}
    widths = set()
    for label in ("2p-mode=beginner-middle", "3p-mode=master-middle", "4p-mode=apprentice-end"):
        pos = samples[label]
        view = pos.view(0)
        cards = [c for c in view.market if c is not None]
        with speaking(language):
            expected = [c.id for c in cards] + [tr("{points}VP", points=c.vp) for c in cards]
        clear_art()
        with fit_log() as log:
            png = render(view, names=pos.names, last_action=pos.last_action_in(language), language=language)
        assert len(png) < encoding.LIMIT, (label, len(png))
        head = [f for f in log if f.text in expected and f.box[2] - f.box[0] < 124]  # on a card
        assert sorted(f.text for f in head) == sorted(expected), (label, [f.text for f in log])
        for f in head:
            _, top, _, bottom = font(f.size, True).getbbox("H")
            assert not f.cut and (bottom - top) * scale >= 4.5, (label, f)
        widths.add(len(view.market))
    assert widths == {9, 11}


@pytest.mark.parametrize("language", [None, "es"])
def test_every_cards_words_read_on_a_phone_and_whole(language):
    """A card's name was set at 18 (4.3 px tall shown 400 px wide, as on a phone), shrinking to 15
    for "Awayu de ceremonia", and its flag with its typology at 16 (4.0 px), shrinking too.  On
    every one of the 40 cards, on markets of nine and of eleven cards, every word of the card now
    stands 4.5 px or more on a phone, whole (a word wider than the card narrowed, never cut), and
    the lines say the card's name and its flag and typology, the line broken after the dot."""
    from PIL import ImageDraw

    from engines.guanga import data as D
    from engines.guanga.rules import card_view
    from renderers import guanga as R
    from renderers.translation import speaking, tr
    from renderers.typeset import font

    scale = PHONE / R.WIDTH
    for width in (98, 122):  # eleven and nine cards in the market
        for row in D.CARDS:
            card = card_view(row[0])
            with speaking(language):
                height = R._card_height(width)
                canvas = Image.new("RGB", (width + 20, height + 20), R.BACKGROUND)
                with fit_log() as log:
                    R._draw_card(canvas, ImageDraw.Draw(canvas), card, 10, 10, width, height, False)
                origin = tr("{flag} · {typology}", flag=tr(card.flag), typology=tr(card.typology))
                points = tr("{points}VP", points=card.vp)
            said = [f.text.replace("\u00a0", " ") for f in log]
            assert said[:2] == [card.id, points], said
            assert " ".join(said[2:]) == f"{card.name} {origin}", said
            assert not any(f.text.startswith("·") for f in log), said
            for f in log:
                _, top, _, bottom = font(f.size).getbbox("H")
                assert not f.cut and (bottom - top) * scale >= 4.5, (width, f)
                assert f.box[0] >= 10 and f.box[2] <= 10 + width, (width, f)


def _end_triggered(seed: int = 1):
    """A seeded four-seat apprentice game played by the computer until the end is triggered."""
    s = G.new_game(G.Config(players=4, mode=Mode.APPRENTICE), 4, seed)
    rng = random.Random(seed)
    while not s.end_triggered:
        seat = min(G.to_move(s))
        s, _ = G.apply_move(s, seat, G.computer_move(G.view_for(s, seat), G.legal_moves(s, seat), rng))
    assert not s.finished
    return s


@pytest.mark.parametrize("language", [None, "es"])
def test_the_end_triggered_note_reads_on_a_phone(language):
    """Once the workshop's face-up markers reach the end, the board says so in red ("END
    TRIGGERED: finishing the round"): beside the workshop's heading it shrank to 15, 3.7 px tall
    shown 400 px wide, as on a phone.  It now stands 4.5 px or more, whole, on the line under the
    workshop, beside the symbols' legend or the note on the first patch (whole too), never over
    it; before the end is triggered, "game ends at 4" stays beside the workshop."""
    from dataclasses import replace

    from renderers import guanga as R
    from renderers.samples import positions
    from renderers.translation import speaking, tr
    from renderers.typeset import font

    scale = PHONE / R.WIDTH
    names = ["Ana", "Beto", "Cusi", "Dora"]
    view = G.view_for(_end_triggered(), None)
    with speaking(language):
        note = tr("END TRIGGERED: finishing the round")
        waiting = tr("game ends at {n}", n=4)
    for shown in (view, replace(view, first_patch="red/amaru")):
        with fit_log() as log:
            render(shown, names=names, language=language)
        (said,) = [f for f in log if f.text == note]
        _, top, _, bottom = font(said.size, True).getbbox("H")
        assert not said.cut and (bottom - top) * scale >= 4.5, said
        assert not any(f.cut for f in log), [f for f in log if f.cut]
        assert waiting not in [f.text for f in log]
        if shown.first_patch:
            (first,) = [f for f in log if "amaru" in f.text]
            assert first.box[2] <= said.box[0] and first.box[1] == said.box[1] - 2, (first, said)
    before = next(p for p in positions("guanga") if p.label == "4p-mode=apprentice-middle").view(None)
    assert not before.end_triggered and before.end_at == 4
    with fit_log() as log:
        render(before, names=names, language=language)
    assert [f.text for f in log if f.text in (note, waiting)] == [waiting]


@pytest.mark.parametrize("language", [None, "es"])
def test_a_finished_board_says_neither_that_the_round_is_finishing_nor_when_the_game_ends(language):
    """A finished game's board said "END TRIGGERED: finishing the round" beside the workshop
    (or "game ends at 6"), under a header that says who won: the round is over, and so is the
    game.  A finished board says neither, from any seat."""
    from renderers.samples import positions
    from renderers.translation import speaking, tr

    for pos in positions("guanga"):
        if not pos.label.endswith("-end") or pos.players == 1:
            continue
        view = pos.view(None)
        assert view.finished and view.end_at is not None, pos.label
        with speaking(language):
            notes = {tr("END TRIGGERED: finishing the round"), tr("game ends at {n}", n=view.end_at)}
        for seat in (None, 0):
            with fit_log() as log:
                render(pos.view(seat), names=pos.names, language=language)
            assert not notes & {f.text for f in log}, (pos.label, seat)


@pytest.mark.parametrize("language", [None, "es"])
def test_a_cards_or_stands_clear_of_the_colour_and_the_symbol(monkeypatch, language):
    """Under a card's shape, its two ways to claim: the colour's square, "or", the symbol.  On the
    cards of a market of eleven, "or" (set at 17, 4.0 px tall on a phone) touched the square and
    the symbol.  On every card, of either width, "or" now keeps 3 px or more from each, at a
    size whose capitals stand 4.5 px or more on a phone."""
    from PIL import ImageDraw

    from engines.guanga import data as D
    from engines.guanga.rules import card_view
    from renderers import guanga as R
    from renderers.translation import speaking, tr
    from renderers.typeset import font

    sizes: dict[str, int] = {}
    stamp = R.label
    words = [True]  # whether the spy draws the words it is given

    def said(d, xy, text, size, bold=False, fill=R.INK, anchor="la"):
        sizes[text] = size
        if words[0]:
            stamp(d, xy, text, size, bold, fill, anchor)

    monkeypatch.setattr(R, "label", said)

    def columns(image: Image.Image) -> list[int]:
        return [u for u in range(image.width) if image.crop((u, 0, u + 1, image.height)).getbbox()]

    for width in (98, 122):
        with speaking(language):
            height = R._card_height(width)  # with the header's second line, when it has one
        row = (12, 130 + height - R.CARD_H, 9 + width, 161 + height - R.CARD_H)  # inside the border
        for data in D.CARDS:
            card = card_view(data[0])
            drawn = []
            for words[0] in (True, False):
                canvas = Image.new("RGB", (width + 20, height + 20), R.BACKGROUND)
                with speaking(language):
                    R._draw_card(canvas, ImageDraw.Draw(canvas), card, 10, 10, width, height, False)
                    word = tr("or")
                drawn.append(canvas.crop(row))
            _, top, _, bottom = font(sizes[word]).getbbox("H")
            assert (bottom - top) * PHONE / R.WIDTH >= 4.5, sizes
            ink = columns(ImageChops.difference(*drawn))  # the word's
            rest = columns(ImageChops.difference(drawn[1], Image.new("RGB", drawn[1].size, (255, 252, 244))))
            square = max(u for u in rest if u < ink[0])
            symbol = min(u for u in rest if u > ink[-1])
            assert ink[0] - square > 3 and symbol - ink[-1] > 3, (width, card.id, square, ink, symbol)


def _too_small(log, width: int) -> list:
    """The texts of ``log`` (:func:`renderers.typeset.text_log`) whose capitals stand less than the
    floor on a phone, in a picture ``width`` pixels wide."""
    from renderers.typeset import PHONE_FLOOR, on_phone

    return sorted({(d.text, d.size) for d in log if round(on_phone(d.cap, width), 1) < PHONE_FLOOR})


@pytest.mark.parametrize("language", [None, "es"])
def test_every_number_and_label_of_the_board_reads_on_a_phone(language):
    """Shown 400 px wide, as on a phone, a stack's height stood 3 px tall on the small boards
    (4 px on the reader's own), the rows' letters and the columns' numbers of the small boards 4
    px, and the workshop's counts ("1/2") 4.3 px: below the 4.7 px of the board's other words.
    On every sample board, from every seat, in both languages, with the note on the first patch
    and the end triggered too, every text drawn now stands 4.7 px or more."""
    from dataclasses import replace

    from renderers import guanga as R
    from renderers.samples import positions
    from renderers.typeset import clear_art, text_log

    views = [(pos, pos.view(seat)) for pos in positions("guanga") for seat in (None, *range(pos.players))]
    ended = G.view_for(_end_triggered(), 0)
    views += [(None, ended), (None, replace(ended, first_patch="green/kuntur"))]
    stacks = 0
    for pos, view in views:
        names = pos.names if pos else ["Ana", "Beto", "Cusi", "Dora"]
        clear_art()  # the cards' words are drawn once per language, then pasted
        with text_log() as log:
            render(
                view,
                names=names,
                last_action=pos.last_action_in(language) if pos else None,
                language=language,
            )
        assert not _too_small(log, R.WIDTH), (pos and pos.label, view.seat, _too_small(log, R.WIDTH))
        stacks += sum(1 for p in view.guangas for h in p.heights if h > 1)
    assert stacks > 100  # the heights were drawn, on small boards and on wide ones


@pytest.mark.parametrize("cell", [50, 64])
def test_a_stacks_height_stands_clear_of_its_top_patchs_symbol(cell):
    """A stack's height stood in a white disc at the middle of the top patch's right edge, over
    the symbol's right arm, its digit 3 px tall on a phone.  Now the top patch's symbol moves
    left, and the badge with the digit (4.7 px on a phone) takes the right: of every colour and
    symbol, on the small boards' cells and the wide board's, the symbol's ink ends 2 px or more
    left of the badge, stays a quarter of the patch wide or more, and the badge keeps off the
    corners' pips (the middle half of the patch's height)."""
    from PIL import ImageDraw

    from engines.guanga import data as D
    from renderers import guanga as R
    from tests.guanga.util import RED_IN, put

    for colour in R.PATCH_RGB:
        for symbol in D.SYMBOLS:
            s = game(2)
            put(s, 0, {"B2": [RED_IN, kind(colour, symbol)]})
            view = G.view_for(s, None)
            (p,) = [p for p in view.guangas if p.seat == 0]
            assert p.heights[6] == 2
            img = Image.new("RGB", (8 * cell, 8 * cell), (250, 250, 250))
            R._draw_board(img, ImageDraw.Draw(img), view, p, cell, cell, cell)
            x = y = 2 * cell  # B2: the second row, the second column
            patch = img.crop((x + 1, y + 1, x + cell - 1, y + cell - 1))
            plain = R._patch_tile(colour, symbol, cell - 2, stacked=True)
            left, top, right, bottom = ImageChops.difference(patch, plain).getbbox()  # the badge
            side = cell - 2
            assert side // 4 <= top and bottom <= side - side // 4 and right > side * 3 // 4, (
                left,
                top,
                bottom,
            )
            ink = R.GLYPH_INK[colour]
            glyph = [
                u
                for u in range(3, side - 3)
                for v in range(side // 4, side - side // 4)  # between the pips
                if sum(abs(a - b) for a, b in zip(plain.getpixel((u, v)), ink, strict=True)) < 90
            ]
            assert max(glyph) <= left - 2 and max(glyph) - min(glyph) >= side // 4, (
                colour,
                symbol,
                left,
                glyph,
            )


def test_the_largest_boards_keep_under_the_limit_with_room_to_spare(monkeypatch):
    """The four-seat boards are the largest: at the end of the sample game, written in the game's
    palette by ISA-L, eight of them (both languages) passed the limit (150 KB) and were written
    again by zlib at level 3, 1.4 KB under it; with zlib alone (no ISA-L installed), one came
    within 400 bytes of it.  The patches are now drawn at three times their size and averaged
    down (no ringing at their edges, fewer colours to write): in both languages, every four-seat
    board is written by ISA-L and keeps 4 KB or more under the limit, and so with zlib alone."""
    from renderers import encoding
    from renderers.samples import positions

    boards = [(pos, seat) for pos in positions("guanga") if pos.players == 4 for seat in (None, 0, 1, 2, 3)]
    for fast in (True, False):
        if not fast:
            monkeypatch.setattr(encoding, "fast_deflate", None)
        for language in (None, "es"):
            for pos, seat in boards:
                png = render(
                    pos.view(seat),
                    names=pos.names,
                    last_action=pos.last_action_in(language),
                    language=language,
                )
                chosen = encoding.LAST_ENCODING
                assert len(png) < encoding.LIMIT - 4096, (pos.label, seat, language, fast, len(png))
                assert chosen.known and chosen.deflate == ("isal" if fast else "zlib"), (pos.label, seat)


def test_a_full_guanga_shows_no_minus_before_its_empty_cells():
    """Renderer: the panel of a guanga without an empty cell says "Empty cells: 0", not "-0"."""
    from renderers.guanga import _details

    from .util import fill

    s = game(2)
    fill(s, 0)
    view = G.view_for(s, None)
    assert [p.score["penalty"] for p in view.guangas] == [0, 48]
    lines = [[text for text, _ in _details(view, p)] for p in view.guangas]
    assert "Empty cells: 0" in lines[0] and "Empty cells: -48" in lines[1]
    assert not any(text.endswith("-0") for text in lines[0])


@pytest.mark.parametrize(
    ("mode", "stoppers", "phase", "said"),
    [
        ("beginner", True, "after", "Ana may put stoppers or end the turn"),
        ("beginner", True, "stuck", "Ana cannot place: stoppers or pass"),
        ("apprentice", True, "after", "Ana may spend shells, put stoppers or end the turn"),
        ("apprentice", True, "stuck", "Ana cannot place: shells, stoppers or pass"),
        ("apprentice", False, "after", "Ana may spend shells or end the turn"),
        ("apprentice", False, "stuck", "Ana cannot place: shells or pass"),
        ("master", False, "stuck", "Ana cannot place: shells or pass"),
        ("artisan", False, "after", "Ana may spend shells or end the turn"),
    ],
)
def test_the_header_offers_what_the_game_has(mode, stoppers, phase, said):
    """Renderer: a seat that cannot place, or that finishes its turn, is offered what its game has
    (:func:`engines.guanga.rules.extras`): shells outside beginner, stoppers with the variant; the
    board in words says the same (:mod:`engines.guanga.describe`)."""
    import dataclasses

    from renderers.guanga import _header
    from tests.support.sentences import ES

    view = dataclasses.replace(G.view_for(game(2, mode, stoppers=stoppers), None), phase=phase)
    status = "".join(text for text, _ in _header(view, ["Ana", "Beto"], None).status)
    assert status == said
    assert ES.gettext(said.replace("Ana", "{name}")) != said.replace("Ana", "{name}")
    if phase == "stuck":
        words = " ".join(line.in_words() for section in G.describe(view) for line in section.lines)
        assert ("shells" in words) is (mode != "beginner") and ("stoppers" in words) is stoppers


def test_each_panel_names_its_guanga_colour_beside_the_player():
    """Renderer: the name is drawn in the seat's colour (navy, wine...), not the weave's, so the
    panel names the guanga's colour beside it (seat i weaves red, blue, yellow, green), and after
    the words a square of the weave's own colour, outlined as a patch is, shows which it is."""
    s = game(4, "apprentice")
    for language, words in (
        ("en", ["red", "blue", "yellow", "green"]),
        ("es", ["rojo", "azul", "amarillo", "verde"]),
    ):
        with fit_log() as log:
            png = render(G.view_for(s, None), names=["Ana", "Beto", "Cleo", "Dario"], language=language)
        colour = "colour" if language == "en" else "color"
        heads = [f for f in log if f" {colour} " in f.text]
        assert [f.text for f in heads] == [
            f"{name}  {colour} {word}"
            for name, word in zip(["Ana", "Beto", "Cleo", "Dario"], words, strict=True)
        ]
        picture = Image.open(io.BytesIO(png)).convert("RGB")
        for head, weave in zip(heads, ("red", "blue", "yellow", "green"), strict=True):
            x0, y0, x1, _ = head.box
            row = picture.crop((x0, y0, x1 + SWATCH + 20, y0 + 40))
            found = [
                (x, y)
                for x in range(row.width)
                for y in range(row.height)
                if row.getpixel((x, y)) == PATCH_RGB[weave]
            ]
            assert len(found) >= 100, (language, weave, len(found))  # a square, not a letter's edge
            assert max(x for x, _ in found) - min(x for x, _ in found) < 30, (language, weave)
