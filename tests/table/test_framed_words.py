"""The board in words says what the picture frames as changed by the latest turn: Tiwanaku's
spaces, and Guanga's cells of each guanga and the market slot a claim took its card from (as
Guacamole's words say its changed places), so that a screen-reader player need not read the log
to find what a sighted player sees at a glance.  Seeded games, half random moves, half the normal computer's."""

from __future__ import annotations

import pytest

import engines
from engines.guanga.shapes import CELL_NAMES
from engines.tiwanaku.board import cell_name
from languages import language
from tests.test_computer_levels import playout

LINE = "Framed on the board as changed by the latest turn: "


def positions(game: str, seats: int, options: dict, seed: int, moves: int):
    """The engine and each position of a seeded game (half random moves, half the normal player's)."""
    module = engines.get(game).load()
    for state, _ in playout(game, seats, options, seed, moves):
        yield module, state


def framed_line(module, view, code: str = "en") -> str | None:
    t = language(code)
    lines = [line.in_words(t) for section in module.describe(view) for line in section.lines]
    found = [line for line in lines if line.startswith(LINE if code == "en" else "Enmarcado en el tablero")]
    assert len(found) <= 1
    return found[0] if found else None


@pytest.mark.parametrize("seed", [3, 4])
def test_tiwanakus_words_name_the_spaces_its_picture_frames(seed):
    seen = 0
    for module, state in positions("tiwanaku", 2, {}, seed, 60):
        view = module.view_for(state, None)
        line = framed_line(module, view)
        if not view.last_cells:
            assert line is None
            continue
        seen += 1
        names = list(dict.fromkeys(cell_name(c, view.cols) for c in view.last_cells))
        assert line == LINE + " ".join(names)
    assert seen > 10
    assert framed_line(module, view, "es") is not None or not view.last_cells


@pytest.mark.parametrize(("seats", "mode"), [(3, "master"), (2, "beginner")])
def test_guangas_words_name_the_cells_and_the_market_slot_its_picture_frames(seats, mode):
    seen = slots = 0
    for module, state in positions("guanga", seats, {"mode": mode}, 3, 120):
        view = module.view_for(state, None)
        line = framed_line(module, view)
        if view.finished or (not view.highlight and view.lit_slot is None):
            assert line is None  # (the end's words give the final scores, as its header does)
            continue
        seen += 1
        assert line is not None
        for seat in {s for s, _ in view.highlight}:
            cells = " ".join(CELL_NAMES[c] for s, c in view.highlight if s == seat)
            assert f"{cells}" in line
        if view.lit_slot is not None:
            slots += 1
            assert f"market slot {view.lit_slot + 1}" in line
    assert seen > 10 and slots > 0
