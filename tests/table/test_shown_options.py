"""What a game's options change is said wherever its board is: its picture (a line of the header,
unless the game's own header states the option already), the picture's alt text and the board in
words (``/game describe``, the terminal's ``describe``), in the reader's language.

A Guacamole game allowing two new dishes a turn showed a board, an alt text and a board in words
no different from the standard game's."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

import engines
from bot import alt, results
from bot.describe import described
from bot.optionline import board_options
from bot.texts import game_option_words
from engines.core import config_from_options, options_of
from languages import ENGLISH, Language, language
from renderers import typeset
from renderers.layout import WIDTH
from tests.table.test_turn_posts import session_for

ES = language("es")
GAMES = ("guacamole", "guanga", "tiwanaku", "nowa_gwinea", "pachakuna")


def _other_value(option: Any) -> Any:
    """A value of ``option`` other than its default (a seat list for Nowa Gwinea's hard seats)."""
    if option.choices:
        return next(c for c in option.choices if c != option.default)
    if option.kind is bool:
        return not option.default
    return "1"


def _cases() -> list[tuple[str, str, Any]]:
    return [
        (game, option.name, _other_value(option))
        for game in GAMES
        for option in engines.get(game).options()
        if not option.always_said
    ]


def _session(game: str, options: dict[str, Any]):
    """A two-player game of ``game`` started with ``options`` (its row holds them as stored)."""
    session, module = session_for(game, 2, 5)
    config = config_from_options(module.Config, 2, options)
    session.row = replace(session.row, options=options_of(config))
    session.state = module.new_game(config, 2, 5)
    return session, module


def _header_texts(session, module, t: Language) -> tuple[list[str], int]:
    """The texts a board's header draws (the public board, in ``t``), and the smallest size of
    them, as the table draws it."""
    renderer = session.info.load_renderer()
    with typeset.fit_log() as log:
        renderer.render(
            module.view_for(session.state, None),
            names=session.names(),
            language=t.code,
            options=board_options(session.row.game, session.row.options, t),
        )
    header = [f for f in log if f.header]
    assert not [f.text for f in header if f.cut]
    return [f.text for f in header], min(f.size for f in header)


@pytest.mark.parametrize(("game", "name", "value"), _cases())
@pytest.mark.parametrize("t", [ENGLISH, ES], ids=["en", "es"])
def test_a_non_default_option_is_said_on_the_board_its_alt_text_and_in_words(game, name, value, t):
    session, module = _session(game, {name: value})
    (words,) = game_option_words(game, {name: value}, t)
    label = t.gettext("Options: {options}", options="")
    first = described(session, None, t)[0].splitlines()[0]  # the line before the board in words
    if name in getattr(module, "OPTIONS_SAID", ()):  # the engine's own lines state it
        assert not first.startswith(label) or words not in first.removeprefix(label).split("; "), first
    else:
        assert first.startswith(label) and words in first.removeprefix(label).split("; "), first
    text = alt.board(session, None, None, t)
    chosen = text[text.index(label) + len(label) :].split(". ")[0]  # "Options: a; b." in the alt text
    assert words in chosen.split("; "), text
    texts, smallest = _header_texts(session, module, t)
    renderer = session.info.load_renderer()
    if name in getattr(renderer, "OPTIONS_SHOWN", ()):  # the header states it its own way
        assert not board_options(game, session.row.options, t)
    else:
        assert any(words in text for text in texts), (words, texts)
        # readable on a phone, where Discord shows the board 400 px wide
        assert typeset.ink_height(smallest) * 400 / WIDTH >= 4.7


@pytest.mark.parametrize("game", GAMES)
def test_a_game_by_its_standard_rules_says_no_options(game):
    """The defaults add no line (nor a Guanga's mode, which its header and its words' first line
    say), so the standard game's board and words are as they were."""
    session, module = _session(game, {})
    assert not board_options(game, session.row.options)
    first = described(session, None)[0]
    assert not first.startswith("Options:"), first


@pytest.mark.parametrize("t", [ENGLISH, ES], ids=["en", "es"])
@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("guanga", {}),
        ("guanga", {"mode": "master"}),
        ("guanga", {"mode": "apprentice", "stoppers": True}),
        ("nowa_gwinea", {"fruit_for_all": True}),
    ],
)
def test_an_option_the_board_in_words_states_is_said_once(game, options, t):
    """``/game describe`` of a Guanga said its mode twice ("Options: beginner mode", then "beginner
    mode, side A"), and of a Nowa Gwinea with fruit for all said the variant's whole sentence twice:
    each option is said once."""
    session, _ = _session(game, options)
    text = "\n".join(described(session, None, t)).lower()
    chosen = game_option_words(game, session.row.options, t)
    assert chosen
    for words in chosen:
        assert text.count(words.lower()) == 1, (words, text)


@pytest.mark.parametrize("t", [ENGLISH, ES], ids=["en", "es"])
def test_nowa_gwineas_goal_is_drawn_once(t):
    """A Nowa Gwinea needing 3 water holes drew its goal twice: "goal 3 water holes" on the die's
    line and "Options: Gwinea with 3 water holes" in the header; the picture says it once."""
    session, module = _session("nowa_gwinea", {"water_target": 3})
    assert not board_options("nowa_gwinea", session.row.options, t)
    renderer = session.info.load_renderer()
    with typeset.fit_log() as log:
        renderer.render(
            module.view_for(session.state, None),
            names=session.names(),
            language=t.code,
            options=board_options(session.row.game, session.row.options, t),
        )
    three = [f.text for f in log if ("3 water hole" if t is ENGLISH else "3 pozas") in f.text]
    assert len(three) == 1, three


def test_guacamoles_dishes_per_turn_in_spanish():
    """The case as a Spanish table saw it: two dishes a turn, said on the board, its alt text and
    the board in words."""
    session, module = _session("guacamole", {"dishes_per_turn": 2})
    assert described(session, 0, ES)[0].startswith("Opciones: hasta 2 platos nuevos por turno\n")
    texts, _ = _header_texts(session, module, ES)
    assert "Opciones: hasta 2 platos nuevos por turno" in texts


def test_one_hard_seat_reads_as_one():
    """Nowa Gwinea's hard seats said "seats 1 play the hard side" of a single seat; the words read
    for one seat as for several, in English and Spanish."""
    assert game_option_words("nowa_gwinea", {"hard_seats": "1"}) == ["seats on the hard side: 1"]
    assert game_option_words("nowa_gwinea", {"hard_seats": "1,2"}, ES) == ["asientos en la cara difícil: 1,2"]


@pytest.mark.parametrize("t", [ENGLISH, ES], ids=["en", "es"])
def test_nowa_gwineas_goal_is_drawn_on_its_last_board_too(t):
    """The options line leaves the goal to the picture, so the last board (the game over) says it
    as every board before it did."""
    session, module = _session("nowa_gwinea", {"water_target": 3})
    state = session.state
    while not state.over:
        state, _ = module.apply_move(state, None, module.Timeout())
    with typeset.fit_log() as log:
        session.info.load_renderer().render(
            module.view_for(state, None), names=session.names(), language=t.code
        )
    three = [f.text for f in log if ("3 water holes" if t is ENGLISH else "3 pozas de agua") in f.text]
    assert len(three) == 1 and not [f.text for f in log if f.cut], three


@pytest.mark.parametrize("t", [ENGLISH, ES], ids=["en", "es"])
@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("guacamole", {"dishes_per_turn": 2}),
        ("nowa_gwinea", {"boards": "each"}),
        ("guanga", {"cannot_place": "end_now"}),
    ],
)
def test_the_animated_summarys_frames_say_the_options(game, options, t):
    """A finished game's animated summary drew its boards without the options line that every
    other picture of the game has: a frame of a game played with other rules looked like the
    standard game's."""
    session, _ = _session(game, options)
    words = board_options(game, session.row.options, t)
    assert words
    with typeset.fit_log() as log:
        made = results.frames(session, [], t.code)
    assert len(made) == 1  # the start: no moves played
    header = [f.text for f in log if f.header]
    assert any(words in text for text in header), (words, header)
