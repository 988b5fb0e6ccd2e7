"""The widest names Discord allows (32 characters: "WWWW…", "ÆÆÆÆ…", or CJK letters and emoji) fit every
game's board in English and Spanish: each name is shortened with "…" (or shrunk) within its own
place, never drawn over other text or off the picture, and the header's sentence about whose turn
it is keeps its words ("to play", "Black", "building"): the names are shortened, not the words.

Measured with :func:`renderers.typeset.text_log` (the box each text's ink covers) and
:func:`renderers.typeset.fit_log` (which fitted text had to be cut)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import engines
import languages
from engines.core import name_seats
from renderers.samples import SETUPS, positions
from renderers.typeset import Drawn, clear_art, fit_log, text_log

WIDEST = {"W": "W" * 32, "Æ": "Æ" * 32, "CJK": "龍" * 16 + "😀" * 16}  # Æ: the widest bold capital


def is_name(text: str) -> bool:
    return any(mark in text for mark in ("WW", "ÆÆ", "龍", "😀"))


def overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def crossings(log: list[Drawn], size: tuple[int, int]) -> list[str]:
    """The names drawn off the picture or over another text (on the board itself: a card drawn
    once and pasted has its own pixels)."""
    drawn = [d for d in log if d.canvas == size and d.box[2] > d.box[0]]
    out = []
    for d in drawn:
        if not is_name(d.text):
            continue
        x0, y0, x1, y1 = d.box
        if x0 < 0 or y0 < 0 or x1 > size[0] or y1 > size[1]:
            out.append(f"{d.text!r} off the picture at {d.box}")
        out.extend(f"{d.text!r} over {e.text!r}" for e in drawn if e is not d and overlap(d.box, e.box))
    return out


@pytest.mark.parametrize("language", [None, "es"])
@pytest.mark.parametrize("game", sorted(SETUPS))
def test_the_widest_names_stay_in_their_place(game, language):
    renderer = engines.get(game).load_renderer()
    found: dict[str, str] = {}
    for pos in positions(game):
        if pos.label.endswith("-start"):
            continue
        for kind, name in WIDEST.items():
            names = [name] * pos.players
            last = pos.last_event.words_for(None, languages.language(language)) if pos.last_event else None
            for seat in (None, 0):
                clear_art()
                with text_log() as log, fit_log() as fitted:
                    png = renderer.render(
                        pos.view(seat),
                        names=names,
                        last_action=name_seats(last, names) if last else None,
                        language=language,
                    )
                where = f"{pos.label} seat {seat} {kind}"
                for problem in crossings(log, Image.open(io.BytesIO(png)).size):
                    found.setdefault(problem, where)
                for f in fitted:
                    if f.header and f.cut:
                        found.setdefault(f"the header's {f.text!r} was cut", where)
    assert not found, found


def test_the_log_holds_where_each_text_was_inked():
    """A logged box is the ink the text left on its picture, stamped, narrowed or fitted."""
    from PIL import ImageDraw

    from renderers.typeset import draw_text, label, narrow_label

    for drawing in (
        lambda d: label(d, (30, 20), "Wg", 28, True, (255,)),
        lambda d: narrow_label(d, (100, 50), "WWWWWWWW", 28, 60, fill=(255,)),
        lambda d: draw_text(d, (12, 40), "W" * 32, 150, 24, fill=(255,)),
    ):
        image = Image.new("L", (240, 120), 0)
        with text_log() as log:
            drawing(ImageDraw.Draw(image))
        assert [d.box for d in log] == [image.getbbox()] and log[0].canvas == (240, 120)


@pytest.mark.parametrize("language", [None, "es"])
def test_a_resigned_games_last_header_shortens_the_names_not_the_reason(language):
    """The last board of a game ended by a resignation says so in its header instead of whose
    turn it is; with two 32-letter names it was cut before "resigned)"."""
    t = languages.language(language)
    a, b = WIDEST["W"], "M" * 32
    ended = t.ngettext(
        "Game over: {names} wins ({reason})",
        "Game over: {names} share the win ({reason})",
        1,
        names=a,
        reason=t.gettext("{name} resigned", name=b),
    )
    renderer = engines.get("guacamole").load_renderer()
    pos = next(p for p in positions("guacamole") if p.label == "2p-end")
    with fit_log() as fitted:
        renderer.render(pos.view(None), names=[a, b], language=language, ended=ended)
    (status,) = [f for f in fitted if f.header and f.text.startswith(ended[:8])]
    assert not status.cut and status.text.endswith(ended.rsplit(" ", 1)[-1]), status  # "resigned)"
    assert "W…" in status.text and "M…" in status.text
