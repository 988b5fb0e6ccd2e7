"""Renderer: spectator and seat views at several points of a game give valid, distinct PNGs."""

from __future__ import annotations

import io
import random

from PIL import Image

from engines import guanga as G
from engines.guanga.rules import Mode
from renderers.guanga import render
from renderers.typeset import fit_log
from tests.guanga.util import game, play


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
