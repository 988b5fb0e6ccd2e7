"""Long names: in the final ranking box a name is shortened where it reads (a whole word,
an ellipsis), stays tall enough to read at 400 px, sits on its row's line and never reaches the
points; in the score strip and the games' seat panels the name is shortened, never the ▶ or
"(you)" beside it."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

import engines
from renderers import layout, samples, typeset
from renderers.colours import GOLD, INK, seat_colour

# Discord display names hold 32 characters
LONG = "Bartolomé de las Casas Quispe 99"
ONE_WORD = "W" * 32


def _ranking(names: list[str]) -> tuple[Image.Image, list[typeset.Fit], list[layout.SeatLine]]:
    seats = [
        layout.SeatLine(k, name, score, detail="12 dishes · 3 stars", place=k + 1)
        for k, (name, score) in enumerate(zip(names, ("128", "1 045", "7"), strict=False))
    ]
    image = Image.new("RGB", (layout.WIDTH, layout.ranking_height(seats)), "white")
    with typeset.fit_log() as log:
        layout.draw_ranking(ImageDraw.Draw(image), seats, 0)
    return image, log, seats


def _ink(image: Image.Image, box: tuple[int, int, int, int], colour) -> tuple[int, int, int, int]:
    """The bounding box of the pixels of exactly ``colour`` inside ``box``."""
    region = image.crop(box)
    wanted = tuple(colour)
    mask = Image.new("L", region.size)
    mask.putdata(
        [
            255 if region.getpixel((x, y)) == wanted else 0
            for y in range(region.height)
            for x in range(region.width)
        ]
    )
    found = mask.getbbox()
    assert found, (box, colour)
    return found[0] + box[0], found[1] + box[1], found[2] + box[0], found[3] + box[1]


def test_a_long_name_is_read_whole_with_the_counts_under_the_names():
    """32 characters do not fit the column of names the counts leave: every row takes two lines,
    the counts go under the names, and a name of words is drawn whole at the names' size; only a
    name wider than the whole row (32 W's) is shortened, after as many letters as fit and with an
    ellipsis, no smaller than the header's smallest text (which reads at 400 px), never cut."""
    image, log, seats = _ranking([LONG, ONE_WORD, "Ana"])
    assert image.height == layout.ranking_height(seats)
    assert layout.ranking_row(seats) == layout.RANK_ROW + layout.RANK_COUNTS_ROW
    drawn = {f.text: f for f in log}
    assert not drawn[LONG].cut and drawn[LONG].size >= layout.HEADER_MIN, drawn[LONG]
    letters = next(f for t, f in drawn.items() if t.startswith("WWW"))
    assert not letters.cut and letters.text.endswith("…") and len(letters.text) > 20, letters
    assert letters.size >= layout.HEADER_MIN and typeset.ink_height(letters.size) >= layout.WIDTH / 45
    assert drawn["Ana"].size == layout.RANK_NAME and not drawn["Ana"].cut
    counts = [f for f in log if f.text == seats[0].detail]
    assert len(counts) == 3 and not any(f.cut for f in counts), counts
    assert {f.box[0] for f in counts} == {layout.PAD + 146}  # under the names


def test_names_that_fit_beside_the_counts_keep_one_line_a_row():
    """Short names (and a computer's) leave the rows one line high, the counts beside them."""
    seats = [
        layout.SeatLine(k, n, "12", detail="12 dishes · 3 stars", place=k + 1)
        for k, n in enumerate(("Ana", "Bo", "P3 (computer, strong)"))
    ]
    assert not layout.ranking_two_lines(seats, layout.WIDTH - 2 * layout.PAD)
    assert layout.ranking_row(seats) == layout.RANK_ROW
    no_counts = [layout.SeatLine(0, LONG, "12", place=1), layout.SeatLine(1, "Ana", "3", place=2)]
    assert layout.ranking_row(no_counts) == layout.RANK_ROW  # nothing to put under a name


def test_a_long_name_sits_on_its_rows_line_and_never_reaches_the_points():
    """In the drawn pixels: each name ends left of its points, its letters stand on the same
    baseline as the place ("1st"), not raised above it, and its counts are under it."""
    image, _, seats = _ranking([LONG, ONE_WORD, "Ana"])
    top, row = layout.PAD + 54, layout.ranking_row(seats)
    right = layout.WIDTH - layout.PAD - 6
    for i, seat in enumerate(seats):
        ry = top + i * row
        line = (layout.PAD + 146, ry - 4, right, ry + layout.RANK_ROW - 8)
        name = _ink(image, line, seat_colour(seat.seat))
        points = _ink(image, (name[2], line[1], right, line[3]), INK)
        assert name[2] + 8 <= points[0], (seat.name, name, points)
        counts = _ink(image, (layout.PAD + 146, ry + layout.RANK_ROW - 8, right, ry + row - 8), INK)
        assert counts[0] < name[2] and counts[1] > name[3], (seat.name, name, counts)
    place = _ink(image, (layout.PAD + 22, top - 4, layout.PAD + 110, top + layout.RANK_ROW - 8), GOLD)
    words = layout.PAD + 146 + int(typeset.text_width("Bartolomé de las", layout.RANK_NAME, True))
    name = _ink(image, (layout.PAD + 146, top - 4, words, top + layout.RANK_ROW - 8), seat_colour(0))
    assert abs(name[3] - place[3]) <= 1, (name, place)  # "1st" and "Bartolomé de las": no descenders


def test_final_boards_name_long_names_whole_in_the_ranking():
    """Real final boards (PNG) of every game under 32-character names: every name in the ranking
    box is drawn whole (the one of 32 W's, wider than a row, shortened with an ellipsis), the
    counts whole under the names, nothing cut by the fitting."""
    names = (LONG, ONE_WORD, "Guadalupe Quispe Mamani Condori", "Ana")
    for game in ("tiwanaku", "guacamole", "guanga", "nowa_gwinea", "pachakuna"):
        end = next(p for p in samples.positions(game) if p.label.endswith("-end") and p.players > 1)
        renderer = engines.get(game).load_renderer()
        assert renderer is not None
        with typeset.fit_log() as log:
            png = renderer.render(end.view(None), names=names[: end.players])
        assert Image.open(io.BytesIO(png)).format == "PNG"
        ranking = [f for f in log if f.box[0] == layout.PAD + 146]
        assert not any(f.cut for f in ranking), (game, ranking)
        texts = {f.text for f in ranking}
        assert set(names[: end.players]) - {ONE_WORD} <= texts, (game, sorted(texts))
        shortened = [t for t in texts if t.endswith("…")]
        assert shortened == (
            ["W" * len(shortened[0][:-1]) + "…"] if ONE_WORD in names[: end.players] else []
        ), (game, shortened)
        counts = texts - set(names) - set(shortened)
        assert len(counts) >= 1, (game, sorted(texts))  # the counts, under the names


def test_a_long_name_in_the_score_strip_keeps_the_turn_mark_and_you():
    """In the score strip a name too long for its cell is shortened, never the ▶ before it or the
    "(you)" after it: the reader still finds their own seat and whose turn it is."""
    seats = [
        layout.SeatLine(0, LONG, "128", "hand 5", active=True, you=True),
        layout.SeatLine(1, ONE_WORD, "7", "hand 4", you=True),
        layout.SeatLine(2, "Ana", "12", "hand 3", active=True),
    ]
    image = Image.new("RGB", (layout.WIDTH, layout.strip_height(seats)), "white")
    with typeset.fit_log() as log:
        layout.draw_strip(ImageDraw.Draw(image), seats, 0)
    names = [f for f in log if f.size >= layout.STRIP_NAME_MIN and f.lines == 1 and "hand" not in f.text]
    assert [f.text for f in names][2] == "▶ Ana"
    long, one = names[0], names[1]
    assert long.text.startswith("▶ Barto") and long.text.endswith("… (you)"), long.text
    assert one.text.startswith("WWW") and one.text.endswith("… (you)"), one.text
    assert not any(f.cut for f in names), names
    for seat in seats[:2]:
        room = names[seats.index(seat)].box[2] - names[seats.index(seat)].box[0]
        assert typeset.text_width(layout.strip_name(seat, room), layout.STRIP_NAME_MIN, True) <= room


@pytest.mark.parametrize("game", ["guacamole", "guanga", "pachakuna", "tiwanaku"])
def test_a_long_name_on_a_seats_own_panel_keeps_you(game):
    """Each game's panel for a seat heads it with the name and, on that seat's own picture,
    "(you)": a 32-character name is shortened there so that "(you)" still shows, uncut."""
    middles = [p for p in samples.positions(game) if p.label.endswith("-middle")]
    position = max(middles, key=lambda p: p.players)  # the narrowest panels
    names = (LONG, *position.names[1:])
    renderer = engines.get(game).load_renderer()
    with typeset.fit_log() as log:
        renderer.render(position.view(0), names=names, last_action=position.last_action)
    yours = [f for f in log if f.text.endswith("(you)")]
    assert yours, [f.text for f in log][:20]
    for fit in yours:
        assert not fit.cut and fit.text.startswith(("Barto", "▶ Barto")), fit
        assert "…" in fit.text or LONG in fit.text, fit


@pytest.mark.parametrize(
    "computer", ["P2 (computer, normal)", "P2 (máquina, normal)", "P3 (computer, strong)"]
)
def test_a_computers_name_is_read_whole_while_the_key_counts_leave_room(computer):
    """A computer's name is longer than the column's least width: the column grows for it, the
    same for every row (the points stand in one column), while each seat's key counts still fit
    whole at their smallest size; counts that need the room keep it, and the name is shortened."""
    _, log, seats = _ranking([computer, "Ana", "Bo"])
    drawn = {f.text: f for f in log}
    assert computer in drawn and not drawn[computer].cut, sorted(drawn)
    widths = {f.box[2] - f.box[0] for f in log if f.text in (computer, "Ana", "Bo")}
    assert len(widths) == 1 and widths.pop() > 330
    assert all(not f.cut for f in log if f.text == seats[0].detail)

    long_counts = "aciertos 13 · fallos 0 · en reserva 0 · consultas 1 · +4 cubos"
    crowded = [
        layout.SeatLine(k, name, "53", detail=long_counts, place=1)
        for k, name in enumerate([computer, "Ana"])
    ]
    image = Image.new("RGB", (layout.WIDTH, layout.ranking_height(crowded)), "white")
    with typeset.fit_log() as log:
        layout.draw_ranking(ImageDraw.Draw(image), crowded, 0)
    counts = [f for f in log if f.text == long_counts]
    assert counts and not any(f.cut for f in counts), counts
    # counts that need the room keep it: the computer's name goes whole on a line of its own
    assert layout.ranking_row(crowded) == layout.RANK_ROW + layout.RANK_COUNTS_ROW
    assert any(f.text == computer and not f.cut for f in log), [f.text for f in log]
