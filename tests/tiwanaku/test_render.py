"""Renderer: spectator and seat pictures at several points of a game."""

from __future__ import annotations

import io
import random

from PIL import Image

import engines.tiwanaku as T
from renderers import tiwanaku as R
from renderers.layout import header_height, strip_height

from .helpers import cell, discover, fixed, put


def _play(players, seed, stop):
    s = T.new_game(T.Config(players=players), players, seed)
    rng = random.Random(seed)
    k = 0
    while T.to_move(s) and k < stop:
        seat = min(T.to_move(s))
        s, _ = T.apply_move(s, seat, T.computer_move(T.view_for(s, seat), T.legal_moves(s, seat), rng))
        k += 1
    return s


def _open(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def test_render_sizes_and_modes():
    """Pictures are phone-sized RGB PNGs, for each board size and player count."""
    for players in (1, 2, 3, 4):
        s = _play(players, 11, 25)
        for seat in (None, 0):
            png = R.render(T.view_for(s, seat), names=[f"P{i}" for i in range(players)])
            img = _open(png)
            assert img.format == "PNG" and img.mode in ("P", "RGB") and len(png) < 150 * 1024
            assert img.width == 1200 and 700 <= img.height <= 2000


def test_render_changes_with_the_game():
    """Different states give different pictures; a finished game renders too."""
    a = R.render(T.view_for(_play(2, 4, 5), None))
    b = R.render(T.view_for(_play(2, 4, 15), None))
    c = R.render(T.view_for(_play(3, 4, 10_000), 1))
    assert a != b and b != c


def test_private_picture_adds_peeks():
    """A seat's picture shows its peeks; the spectator's and the opponent's do not."""
    s = fixed()
    put(s, 0, "C2")
    discover(s, "C2")
    s.peeks[0][cell("B3")] = "D"
    s.peeks[0][cell("C2")] = "3"
    mine = R.draw_board(T.view_for(s, 0))
    other = R.draw_board(T.view_for(s, 1))
    spectator = R.draw_board(T.view_for(s, None))
    assert mine.tobytes() != spectator.tobytes()
    # the opponent's picture differs from the spectator's in its labels, not on the board
    view = T.view_for(s, None)
    top = header_height(R._header(view, None, None)) + strip_height(R._seat_lines(view, None)) + 12
    bw, bh = R._board_size(view.cols)
    crop = (0, top, R.MARGIN + bw, top + bh)
    assert other.crop(crop).tobytes() == spectator.crop(crop).tobytes()
    assert mine.crop(crop).tobytes() != spectator.crop(crop).tobytes()
