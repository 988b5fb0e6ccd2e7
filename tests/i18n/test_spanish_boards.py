"""Every game drawn in Spanish: no English message of the catalogue on any board, nothing cut.

The text drawn is collected as Pillow draws it (every ``ImageDraw.text`` call, and each whole text
``draw_text`` fits), while the gallery's positions of every game (start, middle and end of seeded
computer games, each setup) are rendered in Spanish, the public board and every seat's view.
What the engine itself says (Guacamole's next step, a broken village's reason, card names) is
the engine's, in English until engines speak in message ids, and is left out of the check.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import re
import sys
from contextlib import contextmanager

import pytest
from PIL import Image, ImageDraw

import engines
import languages
from bot import i18n
from renderers import nowa_gwinea, typeset
from renderers.layout import WIDTH
from renderers.results import Card, Row
from renderers.results import render as render_card
from renderers.samples import SETUPS, positions
from tests.support import catalogue as shared

ES = languages.language("es")


@contextmanager
def drawn_texts():
    """Every text drawn while the block runs: whole texts given to draw_text, and every other
    ``ImageDraw.text`` (the pieces draw_text draws of its whole text are not counted twice)."""
    found: list[str] = []
    original = ImageDraw.ImageDraw.text
    fitted = typeset.draw_text.__code__

    def text(self, xy, text, *args, **kwargs):
        if sys._getframe(1).f_code is not fitted:
            found.append(str(text))
        return original(self, xy, text, *args, **kwargs)

    ImageDraw.ImageDraw.text = text  # type: ignore[method-assign]
    try:
        with typeset.fit_log() as log:
            yield found, log
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]
    found.extend(f.text for f in log)


@functools.cache
def english_patterns() -> list[tuple[str, re.Pattern]]:
    """A pattern per English message of the catalogue whose Spanish differs: its words as they
    would be drawn, each placeholder standing for anything.  Built on first use, once per process
    (building the template takes a second, which collecting the tests need not pay)."""
    out = []
    for m in shared.template():
        if not m.id or m.context == i18n.NAME_CONTEXT:
            continue
        forms = [m.id] if isinstance(m.id, str) else list(m.id)
        if isinstance(m.id, str):
            spanish = {ES.catalogue.gettext(m.id)}
        else:
            spanish = {ES.catalogue.ngettext(m.id[0], m.id[1], n) for n in (1, 2)}
        for english in forms:
            literal = re.sub(r"\{[^}]*\}", " ", english)
            if english in spanish or not re.search(r"[A-Za-z]{2,}", literal):
                continue
            parts = [re.escape(p) for p in re.split(r"\{[^}]*\}", english)]
            body = ".*?".join(parts).strip()
            out.append((english, re.compile(r"(?<![A-Za-z])" + body + r"(?![A-Za-z])")))
    return out


def engine_strings(value) -> set[str]:
    """Every text a view carries (what the engine says), to leave out of the check."""
    out: set[str] = set()
    if isinstance(value, str):
        out.add(value)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            out |= engine_strings(getattr(value, f.name))
    elif isinstance(value, dict):
        for k, v in value.items():
            out |= engine_strings(k) | engine_strings(v)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            out |= engine_strings(v)
    return out


def english_in(texts: list[str], engine: set[str]) -> list[str]:
    """The English messages of the catalogue in ``texts``; what the engine says is left out unless
    the catalogue translates it (a terrain, an animal, a typology must be drawn translated)."""
    engine = {s for s in engine if ES.catalogue.gettext(s) == s}
    bad = []
    long_engine = sorted((s for s in engine if len(s) >= 4), key=len, reverse=True)
    for text in set(texts):
        if text in engine:
            continue
        for s in long_engine:
            text = text.replace(s, "\x00")
        bad += [f"{english!r} in {text!r}" for english in english_messages(text)]
    return sorted(bad)


@functools.cache
def any_english() -> re.Pattern:
    """One pattern that matches where any of :func:`english_patterns` does."""
    return re.compile("|".join(f"(?:{pattern.pattern})" for _, pattern in english_patterns()))


@functools.cache
def english_messages(text: str) -> tuple[str, ...]:
    """The English messages of the catalogue found in ``text``.  The boards draw the same texts
    again and again (headings, legends, names), so each text is searched once; one search with
    every pattern at once passes over most texts, which hold no English message at all."""
    if any_english().search(text) is None:
        return ()
    return tuple(english for english, pattern in english_patterns() if pattern.search(text))


def test_the_check_finds_english():
    """The check itself: an English board is full of catalogue messages, a Spanish one has none."""
    pos = positions("guacamole")[1]
    renderer = engines.get("guacamole").load_renderer()
    engine = engine_strings(pos.view(0))
    with drawn_texts() as (texts, _):
        renderer.render(pos.view(0), names=pos.names)
    assert len(english_in(texts, engine)) >= 5
    with drawn_texts() as (texts, _):
        renderer.render(pos.view(0), names=pos.names, language="es")
    assert english_in(texts, engine) == []


@pytest.mark.parametrize("game", list(SETUPS))
def test_every_board_in_spanish_draws_no_english_message(game):
    renderer = engines.get(game).load_renderer()
    problems: list[str] = []
    drawn = 0
    for pos in positions(game):
        for seat in (None, *range(pos.players)):
            view = pos.view(seat)
            with drawn_texts() as (texts, log):
                last = pos.last_action_in("es") or "Ana jugó."  # the engine's own line, in Spanish
                png = renderer.render(view, names=pos.names, last_action=last, language="es")
            Image.open(io.BytesIO(png)).verify()
            drawn += len(texts)
            where = f"{pos.label} seat {seat}"
            problems += [f"{where}: {p}" for p in english_in(texts, engine_strings(view))]
            problems += [f"{where}: cut {f.text!r}" for f in log if f.cut]
            assert any("Última:" in t for t in texts), where
    assert drawn > 100
    assert problems == []


def test_the_hut_chart_and_the_results_card_in_spanish():
    with drawn_texts() as (texts, log):
        nowa_gwinea.render_huts("es")
        card = Card(
            "Guacamole, partida n.º 3",
            "Fin de la partida.",
            [Row(1, 0, "Ana", "40"), Row(2, 1, "Beto", "31", note="se rindió")],
            series=[[0, 10, 40], [0, 12, 31]],
            figures=[("Turns", "3"), ("Moves", "9")],
        )
        render_card(card, language="es")
    assert english_in(texts, set()) == []
    assert {"Turnos: ", "Jugadas: ", "inicio", "turno 2", "1.º", "2.º"} <= set(texts)
    assert not [f for f in log if f.cut]


def test_the_animals_marked_for_translation_are_the_engines():
    from engines.nowa_gwinea.data import ANIMALS

    assert nowa_gwinea.ANIMAL_WORDS == ANIMALS


def league_pictures(language: str | None) -> list[str]:
    """The words drawn in a standings picture (cut after its rows, a dropped player, each kind of
    movement) and a bracket (byes, a winner), in ``language``."""
    from renderers import league

    lines = [
        league.StandingLine(i + 1, f"P{i}", 9 - i / 2, 5, 3, 12.5, 1500.0 if i else None, m, dropped=i == 2)
        for i, m in enumerate([None, 2, -1, 0] + [0] * 34)
    ]
    rounds = [
        [league.BracketMatch("Ana", None, "Ana", True), league.BracketMatch("Beto", "Cleo", None, True)],
        [league.BracketMatch("Ana", None)],
    ]
    with drawn_texts() as (texts, _):
        for png in (
            league.standings("Liga", "ronda 2 de 5", lines, language=language),
            league.bracket("Liga: cuadro", rounds, language=language),
        ):
            Image.open(io.BytesIO(png)).verify()
    return texts


def test_the_league_pictures_in_spanish():
    texts = league_pictures("es")
    assert english_in(texts, set()) == []
    assert {"Nombre", "Val.", "estreno", "P2 (baja)", "pase directo", "… y 6 más abajo"} <= set(texts)
    english = league_pictures(None)
    assert len(english_in(english, set())) >= 5 and "P2 (dropped)" in english


@pytest.mark.parametrize("language", [None, "es"])
@pytest.mark.parametrize("game", sorted(SETUPS))
def test_a_boards_header_lines_begin_with_a_capital(game, language):
    """The header's lines (the title, whose turn it is, the last action) are sentences and begin
    with a capital in either language: the Spanish status said "le toca a Ana"."""
    renderer = engines.get(game).load_renderer()
    low = set()
    for pos in positions(game):
        for seat in (None, *range(pos.players)):
            with typeset.fit_log() as log:
                renderer.draw_board(
                    pos.view(seat),
                    names=pos.names,
                    last_action=pos.last_action_in(language),
                    language=language,
                )
            # the header's left-hand lines (the right-hand one, "round 4 of 9", is a label)
            low.update(f.text for f in log if f.header and f.box[0] < WIDTH / 2 and f.text[:1].islower())
    assert not low, (game, language, sorted(low)[:5])
