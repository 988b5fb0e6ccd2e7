"""Renderer: board pictures for seats and spectators, and the hut chart."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

import engines.nowa_gwinea as ng
from renderers import nowa_gwinea as R


def _open(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def _play(state, moves_each: int, rng):
    for _ in range(moves_each):
        for seat in sorted(ng.to_move(state)):
            legal = ng.legal_moves(state, seat)
            if legal:
                move = ng.computer_move(ng.view_for(state, seat), legal, rng)
                state, _ = ng.apply_move(state, seat, move)
    return state


def test_render_seat_and_spectator_views():
    """Seat and spectator pictures are phone-sized PNGs and differ between states."""
    rng = random.Random(3)
    s0 = ng.new_game(ng.Config(players=3), 3, 9)
    s1 = _play(s0, 2, rng)
    s2 = _play(s1, 8, rng)
    images = []
    for s in (s0, s1, s2):
        for seat in (None, 0, 2):
            png = R.render(ng.view_for(s, seat), names=["Ana", "Bruno", "Chasca"])
            img = _open(png)
            assert img.format == "PNG" and img.mode in ("P", "RGB") and len(png) < 150 * 1024
            assert img.width == 1200
            images.append(png)
    assert len(set(images)) == len(images)


def test_render_each_board_and_game_over():
    """One board each, the hard side and a finished game all render."""
    s = ng.new_game(ng.Config(players=4, boards=ng.Deal.EACH, side=ng.Side.HARD), 4, 2)
    _open(R.render(ng.view_for(s, 1)))
    for _ in range(9):
        s, _ = ng.apply_move(s, None, ng.Timeout())
    img = _open(R.render(ng.view_for(s, None)))
    assert img.width == R.WIDTH


def test_render_huts_chart():
    """render_huts draws the 12 huts with their letters and orientations."""
    img = _open(R.render_huts())
    assert img.format == "PNG" and img.height > 1000


LONG_NAMES = (
    "Maximiliano Fernández",
    "Guadalupe Quispe Mamani",
    "Bartholomew_the_Great",
    "Wiraqocha Ch'aska",
)


def test_a_long_name_never_hides_a_revealed_villages_points():
    """Under a long name the revealed villages' captions cut the name, not the points or the call."""
    from renderers import samples, typeset

    seen = 0
    for pos in samples.positions("nowa_gwinea"):
        view = pos.view(None)
        last = view.last_round
        if last is None or view.over:
            continue
        marks = {None: ("(called)", "(fruit bonus)"), "es": ("(cantó)", "(bonificación de fruta)")}
        for language, (called, bonus) in marks.items():
            with typeset.fit_log() as log:
                R.render(view, names=LONG_NAMES[: pos.players], language=language)
            whole = [f.text for f in log if not f.cut]
            mark = called if last["how"] == "gwinea" else bonus
            for seat, row in enumerate(last["rows"]):
                suffix = f"+{row['points']}" + (f" {mark}" if last["caller"] == seat else "")
                assert any(t.strip() == suffix or t.endswith(" " + suffix) for t in whole), (pos.label, seat)
                seen += 1
    assert seen >= 8


def test_the_hut_charts_lines_stay_inside_the_picture():
    """The hut chart's title and help fit its width in every language (the Spanish title ran
    over the right edge): nothing is cut, and the margin right of them is bare paper."""
    from renderers import typeset

    for language in (None, "es"):
        R.huts_chart.cache_clear()
        with typeset.fit_log() as log:
            img = _open(R.render_huts(language)).convert("RGB")
        header = [f for f in log if f.box[1] < 200]  # the title and the help, above the huts
        assert len(header) == 2 and not any(f.cut for f in header), language
        bottom = max(f.box[1] + f.lines * f.size for f in header)  # the lines drawn, not the room left
        margin = img.crop((img.width - 16, 0, img.width, bottom))
        assert len(margin.getcolors()) == 1, language  # one colour: the paper


def test_the_hut_chart_reads_on_a_phone():
    """Shown 390 px wide (a phone), the chart's words are at least 11 px high and a hut's square
    at least 12 px; every hut's every distinct orientation is drawn once, four to a row, and no
    row is half empty (I and X share one)."""
    from engines.nowa_gwinea.geometry import DISTINCT, PIECES
    from renderers import nowa_gwinea_huts as H
    from renderers import typeset

    for language in (None, "es"):
        R.huts_chart.cache_clear()
        with typeset.fit_log() as log:
            img = _open(R.render_huts(language))
        scale = 390 / img.width
        assert len(log) == 2 and all(f.size * scale >= 11 and not f.cut for f in log), language
    assert H.CHART_CELL * scale >= 12
    rows = H._chart_rows()
    drawn = [(p, k) for row in rows for p, ks in row for k in ks]
    assert sorted(drawn) == sorted((p, k) for p in PIECES for k in DISTINCT[p])
    # a second hut on a row takes a slot for its letter
    assert all(3 <= sum(len(ks) for _, ks in row) + len(row) - 1 <= H.PER_ROW for row in rows)


def test_the_board_counts_the_boards_left_in_the_stack_on_the_table():
    """One board each for 4 players: round 1 leaves 28 of the 32 boards in the stack (not 60)."""
    from renderers import typeset

    s = ng.new_game(ng.Config(players=4, boards=ng.Deal.EACH), 4, 3)
    with typeset.fit_log() as log:
        R.render(ng.view_for(s, None))
    assert "Boards left in the stack: 28" in [f.text for f in log]


# --------------------------------------------------------------------------- one board each


def _rgb(png: bytes) -> Image.Image:
    return _open(png).convert("RGB")


def _each_game(players: int, rounds: int = 1, seed: int = 5):
    """A game with one board each, ``rounds`` finished by the deadline and 3 huts a seat built."""
    rng = random.Random(seed)
    s = ng.new_game(ng.Config(players=players, boards=ng.Deal.EACH), players, 11)
    for _ in range(rounds):
        s, _ = ng.apply_move(s, None, ng.Timeout())
    return _play(s, 3, rng)


def _with_board(state, seat: int, board: int):
    from engines.nowa_gwinea.rules import copy_state

    out = copy_state(state)
    out.boards[seat] = board
    return out


def _board_regions(state) -> list[tuple[int, int, int, int]]:
    """Where the channel's picture draws each seat's board: the part of the picture that changes
    when only that seat is dealt another board."""
    base = _rgb(R.render(ng.view_for(state, None), names=["Ana", "Beto", "Cusi", "Dora"]))
    spare = next(b for b in range(1, 33) if b not in state.boards)
    boxes = []
    for seat in range(state.config.players):
        changed = _rgb(
            R.render(
                ng.view_for(_with_board(state, seat, spare), None), names=["Ana", "Beto", "Cusi", "Dora"]
            )
        )
        assert changed.size == base.size
        boxes.append(ImageChops.difference(base, changed).getbbox())
    return boxes


def _apart(a, b) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def test_the_channel_sees_every_seats_board_with_one_board_each():
    """One board each: the channel's picture drew only the first seat's board, so a change to
    another seat's board left it as it was.  Now each seat's board has a region of its own, which
    changes when (and only when) that seat is dealt another board: for 2, 3 and 4 players."""
    for players in (2, 3, 4):
        boxes = _board_regions(_each_game(players))
        assert all(box is not None for box in boxes), (players, boxes)
        for i in range(players):
            for j in range(i + 1, players):
                assert _apart(boxes[i], boxes[j]), (players, i, j, boxes)
            x0, y0, x1, y1 = boxes[i]
            assert x1 - x0 >= 8 * 40 and y1 - y0 >= 8 * 40, (players, boxes[i])  # a board, not a caption


def test_the_channels_boards_show_no_village():
    """The villages stay hidden from the channel: a hut built changes the picture only above the
    boards (the seat's hut count in the score strip), never a board."""
    state = _each_game(3, rounds=0)
    boxes = _board_regions(state)
    names = ["Ana", "Beto", "Cusi"]
    before = _rgb(R.render(ng.view_for(state, None), names=names))
    legal = [m for m in ng.legal_moves(state, 1) if isinstance(m, ng.Place)]
    after_state, _ = ng.apply_move(state, 1, legal[0])
    after = _rgb(R.render(ng.view_for(after_state, None), names=names))
    changed = ImageChops.difference(before, after).getbbox()
    assert changed is not None  # the hut count
    assert changed[3] <= min(box[1] for box in boxes), (changed, boxes)


def test_a_seats_own_picture_keeps_its_own_board_large():
    """A seat's own picture with one board each shows its board (large, with its village), not
    the others': another seat's new board leaves it as it was."""
    state = _each_game(3)
    names = ["Ana", "Beto", "Cusi"]
    own = _rgb(R.render(ng.view_for(state, 1), names=names))
    spare = next(b for b in range(1, 33) if b not in state.boards)
    assert (
        own.tobytes() == _rgb(R.render(ng.view_for(_with_board(state, 2, spare), 1), names=names)).tobytes()
    )
    assert (
        own.tobytes() != _rgb(R.render(ng.view_for(_with_board(state, 1, spare), 1), names=names)).tobytes()
    )


def test_every_board_is_headed_by_its_seat_and_nothing_is_cut():
    """Each board of the channel's picture is headed by its seat's name and the board (a long name
    shortened, the board whole), nothing else is cut in English or Spanish, and the picture stays
    under the encoder's limit."""
    from renderers import encoding, typeset

    words = {None: "board {}{}", "es": "tablero {}{}"}
    sides = {None: {"A": "A standard"}, "es": {"A": "A estándar"}}
    for players in (2, 3, 4):
        state = _each_game(players)
        view = ng.view_for(state, None)
        for language in (None, "es"):
            typeset.clear_art()
            with typeset.fit_log() as log:
                png = R.render(view, names=LONG_NAMES[:players], language=language)
            assert len(png) < encoding.LIMIT
            # (the score strip cuts a long name by design: its cells are narrow)
            assert not [f.text for f in log if f.cut and not f.text.startswith("▶")], (players, language)
            texts = [f.text for f in log]
            for seat, info in enumerate(view.boards):
                heading = [
                    t
                    for t in texts
                    if t.endswith(": " + words[language].format(info.board, sides[language][info.side]))
                ]
                assert len(heading) == 1, (players, language, seat, texts)
                shown = heading[0].split(": ")[0].removesuffix("…")  # the name, or its start
                assert shown and LONG_NAMES[seat].startswith(shown), (heading, seat)


def test_hard_seats_on_a_shared_board_show_both_sides_once():
    """Hard seats on a shared board: the channel sees the two sides, each once, headed by the seats
    playing it (as the board in words lists them)."""
    from renderers import typeset

    s = ng.new_game(ng.Config(players=4, hard_seats="1,2"), 4, 11)
    with typeset.fit_log() as log:
        R.render(ng.view_for(s, None), names=["Ana", "Beto", "Cusi", "Dora"])
    board = s.boards[0]
    texts = [f.text for f in log]
    assert f"Ana and Beto: board {board}B hard" in texts
    assert f"Cusi and Dora: board {board}A standard" in texts


def _captions(view, language=None) -> list[str]:
    from renderers import typeset

    with typeset.fit_log() as log:
        R.render(view, names=["Ana", "Bruno"], language=language)
    return [f.text.strip() for f in log if not f.cut]


def test_a_village_given_the_fruit_bonus_at_a_deadline_is_not_captioned_as_the_caller():
    """Nobody called Gwinea in a round ended by its deadline: the revealed village that got the
    fruit bonus is captioned with the bonus, not '(called)', as the board in words and the round's
    scores say ('Nobody called Gwinea: the fruit bonus goes to ...'); a round ended by a call
    still names the caller."""
    from engines.core import TABLE
    from tests.nowa_gwinea.util import build, play, rigged, witness

    s = build(rigged(players=2), 0, witness()[:2])
    ended, _ = ng.apply_move(s, TABLE, ng.Timeout())
    last = ended.history[-1]
    assert (last["how"], last["caller"]) == ("deadline", 0)
    for language, called, bonus in (
        (None, "(called)", "(fruit bonus)"),
        ("es", "(cantó)", "(bonificación de fruta)"),
    ):
        captions = _captions(ng.view_for(ended, None), language)
        assert not any(called in t for t in captions), (language, captions)
        points = last["rows"][0]["points"]
        assert any(t.endswith(f"+{points} {bonus}") for t in captions), (language, captions)
    called_round = play(build(rigged(players=2), 0, witness()), 0, "gwinea")
    points = called_round.history[-1]["rows"][0]["points"]
    assert any(t.endswith(f"+{points} (called)") for t in _captions(ng.view_for(called_round, None)))


def _boards_drawn(monkeypatch, view, names) -> tuple[Image.Image, list[tuple]]:
    """The picture of ``view`` and every task board drawn on it (its info, where, its square)."""
    drawn: list[tuple] = []
    board = R._board

    def spy(image, info, rolled, texts, colour, ox, oy, size, *args, **kwargs):
        drawn.append((info, ox, oy, size))
        return board(image, info, rolled, texts, colour, ox, oy, size, *args, **kwargs)

    monkeypatch.setattr(R, "_board", spy)
    return R.draw_board(view, names=names), drawn


def test_every_totem_carries_its_short_name_on_the_small_boards_too(monkeypatch):
    """A totem is told by its animal's short name besides its colour on every board: the
    channel's boards when each seat plays its own (43 px squares) and the revealed villages
    (32 px) as on the large one, so a reader who cannot tell its colour still knows it."""
    from renderers.samples import positions

    pos = next(p for p in positions("nowa_gwinea") if p.label == "3p-boards=each-middle")
    for seat in (None, 0):
        image, drawn = _boards_drawn(monkeypatch, pos.view(seat), pos.names)
        small = [b for b in drawn if b[3] < 50]
        assert len(small) >= 3, drawn
        for info, ox, oy, size in small:
            for i, name in enumerate(info.totems):
                r, c = divmod(R.cell_of(name), R.SIZE)
                x, y = ox + c * size, oy + r * size
                middle = image.crop(
                    (x + size // 4, y + size // 3, x + size - size // 4, y + size - size // 3)
                )
                ink = R.ink_on(R.TOTEM_COLOURS[i])
                letters = sum(n for n, rgb in middle.getcolors(4096) if rgb == ink)
                assert letters >= 8, (seat, size, info.board, name)


@pytest.mark.parametrize("language", [None, "es"])
def test_the_legends_totem_names_read_on_a_phone(language):
    """The legends (the side panel's and the band under the boards) show each totem as the
    boards do, its colour with its short name: shown 400 px wide, as on a phone, the name is
    5 px tall (2.3 px before, set at 9 or 10 on a 26 px disc), inside its colour; the
    animals' names beside them are not cut."""
    from PIL import ImageDraw

    from renderers import nowa_gwinea as R
    from renderers.colours import ink_on
    from renderers.samples import positions
    from renderers.translation import speaking, tr
    from renderers.typeset import fit_log

    scale = 400 / R.WIDTH
    ground = (0, 128, 128)  # a colour no totem has
    with speaking(language):
        for i, colour in enumerate(R.TOTEM_COLOURS):
            canvas = Image.new("RGB", (100, 60), ground)
            R._totem_icon(ImageDraw.Draw(canvas), i, 20, 15)
            mask = Image.new("1", canvas.size)
            mask.putdata([canvas.getpixel((u, v)) == colour for v in range(60) for u in range(100)])
            inside = canvas.crop(mask.getbbox())
            ink = ink_on(colour)
            rows = [
                v
                for v in range(inside.height)
                if any(
                    sum((a - b) ** 2 for a, b in zip(inside.getpixel((u, v)), ink, strict=True))
                    < sum((a - b) ** 2 for a, b in zip(inside.getpixel((u, v)), colour, strict=True))
                    for u in range(inside.width)
                )
            ]
            assert rows and (rows[-1] - rows[0] + 1) * scale >= 5, (language, i)
    samples = {p.label: p for p in positions("nowa_gwinea")}
    for label, seat in (("2p-middle", 0), ("3p-boards=each-middle", None)):
        pos = samples[label]
        with fit_log() as log:
            R.draw_board(pos.view(seat), names=pos.names, language=language)
        with speaking(language):
            animals = {tr(a) for a in R.ANIMALS}
        told = [f for f in log if f.text in animals]
        assert len(told) == len(animals), (label, language)
        assert not any(f.cut for f in told), (label, language)


def _letters(square: Image.Image, ink, colour) -> set[tuple[int, int]]:
    """The pixels nearer ``ink`` than the totem's ``colour`` in ``square`` that no path of such
    pixels joins to its edge: the letters written inside a totem, not its outline (drawn in the
    board's ink, the letters' too on a light totem)."""

    def near(rgb) -> bool:
        return sum((a - b) ** 2 for a, b in zip(rgb, ink, strict=True)) < sum(
            (a - b) ** 2 for a, b in zip(rgb, colour, strict=True)
        )

    side = square.width
    spots = {(u, v) for v in range(side) for u in range(side) if near(square.getpixel((u, v)))}
    edge = [p for p in spots if min(p) < 3 or max(p) >= side - 3]
    joined, todo = set(edge), list(edge)
    while todo:
        u, v = todo.pop()
        for q in ((u + 1, v), (u - 1, v), (u, v + 1), (u, v - 1)):
            if q in spots and q not in joined:
                joined.add(q)
                todo.append(q)
    return spots - joined


@pytest.mark.parametrize("language", [None, "es"])
def test_the_small_boards_totem_names_read_on_a_phone(monkeypatch, language):
    """On the revealed villages' small boards (30 and 32 px squares) and the boards of a channel
    where each seat plays its own (43 px), a totem's short name, the cue that tells it without its
    colour, was set at 10 on a disc: 2.4 px tall shown 400 px wide, as on a phone.  Its letters
    now stand 4.5 px or more, inside the totem's square, every name told apart."""
    from renderers.samples import positions
    from renderers.translation import speaking, tr

    scale = 400 / R.WIDTH
    with speaking(language):
        labels = [tr(t) for t in R.TOTEM_LABELS]
    assert len(set(labels)) == len(labels)
    samples = {p.label: p for p in positions("nowa_gwinea")}
    sizes = set()
    for label in ("3p-boards=each-middle", "4p-side=hard-middle"):
        pos = samples[label]
        with speaking(language):
            image, drawn = _boards_drawn(monkeypatch, pos.view(None), pos.names)
        monkeypatch.undo()
        for info, ox, oy, size in [b for b in drawn if b[3] < 50]:
            sizes.add(size)
            for i, name in enumerate(info.totems):
                r, c = divmod(R.cell_of(name), R.SIZE)
                x, y = ox + c * size, oy + r * size
                square = image.crop((x, y, x + size, y + size))
                letters = _letters(square, R.ink_on(R.TOTEM_COLOURS[i]), R.TOTEM_COLOURS[i])
                rows = {v for _, v in letters}
                assert rows and (max(rows) - min(rows) + 1) * scale >= 4.5, (label, size, labels[i])
    assert {30, 32, 43} <= sizes, sizes


@pytest.mark.parametrize("size", [30, 32, 43])
def test_the_rolled_totems_frame_stays_inside_its_square_on_a_small_board(size):
    """On the small boards (the revealed villages' 30 and 32 px squares, the channel's 43 px ones
    when each seat plays its own board) the rolled totem's gold frame was drawn 2 px outside its
    square, over the squares around it: a neighbouring totem, a hut's edge, the line above the
    board.  It is now drawn inside: with any totem rolled, every pixel outside the square's own
    (past the grid's lines) is as it is with none rolled.  The frame stays 3 px wide on every side
    (1 px on a phone) and apart from what it is drawn beside (the sand, a hut, the grid's line),
    for every colour vision, in both palettes."""
    from engines.nowa_gwinea.rules import board_info
    from renderers import vision
    from renderers.colours import contrast_colour, high_contrast
    from renderers.samples import positions

    pos = next(p for p in positions("nowa_gwinea") if p.label == "4p-side=hard-middle")
    last = pos.view(None).last_round
    info = board_info(last["boards"][0], last["sides"][0])
    huts = last["villages"][0]  # a village round the rolled totem: the frame drawn on a hut
    margin, side = 12, 8 * size

    def drawn(rolled: int) -> Image.Image:
        canvas = Image.new("RGB", (side + 2 * margin + 1, side + 2 * margin + 1), R.BACKGROUND)
        R._board(canvas, info, rolled, huts, R.HUT, margin, margin, size)
        return canvas

    plain = drawn(-1)
    grounds = {R.SAND, R.SAND_DARK, R.HUT, (170, 150, 110)}  # the squares, a hut, the grid's line
    for i, name in enumerate(info.totems):
        framed = drawn(i)
        r, c = divmod(R.cell_of(name), R.SIZE)
        x, y = margin + c * size, margin + r * size
        changed = ImageChops.difference(plain, framed).getbbox()
        assert changed, name
        assert (x + 1, y + 1) <= changed[:2] and changed[2:] <= (x + size, y + size), (name, changed)
        middle = size // 2
        for k in range(1, 4):  # each side's band, from the square's edge in
            for at in (
                (x + k, y + middle),
                (x + size - k, y + middle),
                (x + middle, y + k),
                (x + middle, y + size - k),
            ):
                assert framed.getpixel(at) == R.GOLD_FRAME, (name, at)
        for contrast in (False, True):
            seen = high_contrast(framed) if contrast else framed
            frame = seen.getpixel((x + 1, y + middle))
            assert frame == (contrast_colour(R.GOLD_FRAME) if contrast else R.GOLD_FRAME)
            for ground in grounds:
                ground = contrast_colour(ground) if contrast else ground
                for deficiency in (None, *vision.DEFICIENCIES):
                    apart = vision.seen_apart(frame, ground, deficiency)
                    assert apart >= vision.THRESHOLD, (contrast, ground, deficiency, apart)


@pytest.mark.usefixtures("board99")
def test_the_panel_shows_the_fruit_variants_two_per_bush():
    """The side panel's fruit line: the caller's bonus, and with ``fruit_for_all`` also the 2 per
    fruit bush a village short of the water holes scores (4 for 2 bushes), in both languages."""
    from renderers import typeset
    from tests.nowa_gwinea.conftest import PARTIAL, rig
    from tests.nowa_gwinea.util import build

    for variant, english, spanish in (
        (False, "Fruit: 2 (caller bonus 3)", "Fruta: 2 (bonificación por cantar 3)"),
        (
            True,
            "Fruit: 2 (caller bonus 3, or 4 if short of the water holes)",
            "Fruta: 2 (bonificación por cantar 3, o 4 si te faltan pozas de agua)",
        ),
    ):
        view = ng.view_for(build(rig(fruit_for_all=variant), 0, PARTIAL), 0)
        for language, line in ((None, english), ("es", spanish)):
            with typeset.fit_log() as log:
                R.render(view, names=["Ana", "Bruno"], language=language)
            assert line in [f.text for f in log if not f.cut], (variant, language)


def test_the_hut_charts_alt_text_counts_the_orientations_it_draws():
    """The chart draws each hut once per orientation that looks different (X once, I twice), so
    its alt text gives those counts, not 8 for every hut, in English and in Spanish."""
    import languages
    from bot import alt
    from engines.nowa_gwinea.geometry import DISTINCT, PIECES

    counts: dict[int, list[str]] = {}
    for piece in PIECES:
        counts.setdefault(len(DISTINCT[piece]), []).append(piece)
    english = alt.hut_chart()
    spanish = alt.hut_chart(languages.language("es"))
    assert "8 orientations" not in english
    for n, pieces in counts.items():
        assert f"{n} for {' '.join(pieces)}" in english, (n, english)
        assert f"{n} para {' '.join(pieces)}" in spanish, (n, spanish)
