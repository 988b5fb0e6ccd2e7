"""Renderer: board pictures for seats and spectators, and the hut chart."""

from __future__ import annotations

import io
import random

from PIL import Image

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
        for language, called in ((None, "(called)"), ("es", "(cantó)")):
            with typeset.fit_log() as log:
                R.render(view, names=LONG_NAMES[: pos.players], language=language)
            whole = [f.text for f in log if not f.cut]
            for seat, row in enumerate(last["rows"]):
                suffix = f"+{row['points']}" + (f" {called}" if last["caller"] == seat else "")
                assert any(t.strip() == suffix or t.endswith(" " + suffix) for t in whole), (pos.label, seat)
                seen += 1
    assert seen >= 8


def test_the_hut_charts_lines_stay_inside_the_picture():
    """The hut chart's title and help fit its width in every language (the Spanish title ran
    over the right edge): nothing is cut, and the margin right of them is bare paper."""
    from renderers import typeset

    for language in (None, "es"):
        R._huts_chart.cache_clear()
        with typeset.fit_log() as log:
            img = _open(R.render_huts(language)).convert("RGB")
        assert len([f for f in log if not f.cut and f.box[1] < 80]) == 2, language
        margin = img.crop((img.width - 16, 0, img.width, 75))
        assert len(margin.getcolors()) == 1, language  # one colour: the paper


def test_the_board_counts_the_boards_left_in_the_stack_on_the_table():
    """One board each for 4 players: round 1 leaves 28 of the 32 boards in the stack (not 60)."""
    from renderers import typeset

    s = ng.new_game(ng.Config(players=4, boards=ng.Deal.EACH), 4, 3)
    with typeset.fit_log() as log:
        R.render(ng.view_for(s, None))
    assert "Boards left in the stack: 28" in [f.text for f in log]
