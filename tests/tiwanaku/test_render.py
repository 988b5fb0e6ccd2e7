"""Renderer: spectator and seat pictures at several points of a game."""

from __future__ import annotations

import io
import random

from PIL import Image

import engines.tiwanaku as T
from renderers import tiwanaku as R

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
            img = _open(R.render(T.view_for(s, seat), names=[f"P{i}" for i in range(players)]))
            assert img.format == "PNG" and img.mode == "RGB"
            assert 1000 <= img.width <= 1400 and 700 <= img.height <= 1400


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
    mine = R.render(T.view_for(s, 0))
    other = R.render(T.view_for(s, 1))
    spectator = R.render(T.view_for(s, None))
    assert mine != spectator
    # the opponent's picture differs from the spectator's only by the "(you)" label, not the board
    crop = (0, 100, 680, 800)
    assert _open(other).crop(crop).tobytes() == _open(spectator).crop(crop).tobytes()
    assert _open(mine).crop(crop).tobytes() != _open(spectator).crop(crop).tobytes()
