"""Renderer tests: PNG images of spectator and seat views at several points of a game."""

from __future__ import annotations

import io
import random

from PIL import Image

from engines import pachakuna as P
from renderers import pachakuna as R


def _states():
    s = P.new_game(P.Config(board=P.Board.B), 2, 7)
    rng = random.Random(7)
    out = [s]
    for i in range(160):
        seat = s.turn
        legal = P.legal_moves(s, seat)
        s, _ = P.apply_move(s, seat, P.computer_move(P.view_for(s, seat), legal, rng))
        if i in (3, 40, 159) or P.outcome(s):
            out.append(s)
        if P.outcome(s):
            break
    return out


def test_render_spectator_and_seats():
    """Renderer: spectator and seat views give phone-sized PNGs that change with the game."""
    images = set()
    for s in _states():
        for seat in (None, 0, 1):
            png = R.render(P.view_for(s, seat), names=["Ana", "Bob"])
            img = Image.open(io.BytesIO(png))
            assert img.format == "PNG" and 1000 <= img.size[0] <= 1400 and img.size[1] >= 700
            img.convert("RGB")
            images.add(png)
    assert len(images) >= 8


def test_render_finished_game_and_limit():
    """Renderer: a won game and a turn-limited game draw without names."""
    s = P.new_game(P.Config(max_turns=2), 2, 1)
    s, _ = P.apply_move(s, 0, P.End())
    s, _ = P.apply_move(s, 1, P.End())
    assert P.outcome(s) is not None
    png = R.render(P.view_for(s, None))
    assert Image.open(io.BytesIO(png)).width == R.WIDTH
    s2 = P.new_game(P.Config(), 2, 1)
    s2.phase, s2.winner = "over", 1
    assert R.render(P.view_for(s2, 0)) != png
