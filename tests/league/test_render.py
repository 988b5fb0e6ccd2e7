"""The league pictures: real PNGs opened with Pillow, sized to read on a phone."""

from __future__ import annotations

import io

from PIL import Image

from renderers.league import (
    COLUMNS,
    MAX_ROWS,
    ROW,
    SIZE,
    STANDINGS_WIDTH,
    BracketMatch,
    StandingLine,
    bracket,
    movement_text,
    standings,
)
from renderers.typeset import clip, ink_height


def opened(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image


def lines(n: int) -> list[StandingLine]:
    return [
        StandingLine(
            i + 1, f"Player {i}", float(n - i), 3, 1, 4.5, 1.5 if i % 2 else None, (i % 3) - 1, i == n - 1
        )
        for i in range(n)
    ]


def test_the_standings_read_at_400_pixels():
    """Text stands at least 1/45 of the width tall, so it is 9 px or more when shown 400 px wide."""
    assert ink_height(SIZE) >= STANDINGS_WIDTH / 45
    assert sum(width for _, width, _ in COLUMNS) <= STANDINGS_WIDTH - 20
    image = opened(standings("Autumn", "after round 1", lines(7)))
    assert image.width == STANDINGS_WIDTH
    small = image.resize((400, round(image.height * 400 / image.width)))
    assert small.height > 200


def test_the_standings_grow_with_the_rows_and_cut_a_long_list():
    seven = opened(standings("A", "b", lines(7)))
    eight = opened(standings("A", "b", lines(8)))
    assert eight.height > seven.height
    many = opened(standings("A", "b", lines(MAX_ROWS + 20)))
    exact = opened(standings("A", "b", lines(MAX_ROWS)))
    assert many.height == exact.height + ROW  # one line says how many more there are


def test_rows_differ_in_the_picture():
    """A different name or points changes the pixels (the table is drawn from its values)."""
    one = standings("A", "b", lines(3))
    changed = lines(3)
    changed[0] = StandingLine(1, "Someone else", 9.0, 3, 3, 1.0, 2.0, 1)
    assert standings("A", "b", changed) != one
    assert standings("A", "b", lines(3)) == one  # the same values draw the same image


def test_movement_and_clipping():
    assert movement_text(None)[0] == "new" and movement_text(2)[0] == "▲2"
    assert movement_text(-1)[0] == "▼1" and movement_text(0)[0] == "="
    assert clip("short", 500, SIZE) == "short"
    cut = clip("a very long name " * 5, 200, SIZE)
    assert cut.endswith("…") and len(cut) < 40


def test_the_bracket_picture():
    rounds = [
        [BracketMatch("Ana", None, "Ana", True), BracketMatch("Dora", "Eloy", "Eloy", True)],
        [BracketMatch("Ana", "Eloy")],
    ]
    image = opened(bracket("Cup", rounds))
    assert image.width >= 640 and image.height > 200
    bigger = opened(
        bracket(
            "Cup",
            [
                [BracketMatch(f"p{i}", f"q{i}", first_round=True) for i in range(8)],
                *[[BracketMatch(None, None)] * n for n in (4, 2, 1)],
            ],
        )
    )
    assert bigger.height > image.height and bigger.width > image.width
