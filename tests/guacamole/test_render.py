"""Renderer tests: spectator and seat views at several points of a game."""

from __future__ import annotations

import io
import random

from PIL import Image

import engines.guacamole as g
from renderers.guacamole import render


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
