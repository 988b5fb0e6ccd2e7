"""Bad input never crashes an engine and never changes a game (every game): an explicit list of
odd texts, and property tests under the fixed Hypothesis profile of tests/conftest.py."""

from __future__ import annotations

import random
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from engines.core import MalformedMove, MoveError, config_from_options

GAMES = ("guanga", "tiwanaku", "pachakuna", "nowa_gwinea", "guacamole")

# Text shaped like the games' notations (letters, digits, the punctuation they use), plus anything.
NOTATIONY = st.text(alphabet="ABCDEFGHILMNOPRSTUVWXYZabcdefgilmnoprstuvwxyz0123456789 +-=:/>,", max_size=24)
ANY_TEXT = st.one_of(NOTATIONY, st.text(max_size=40))


def started(game: str, seed: int, moves: int):
    """A game a few (computer-chosen) moves in, so that later phases are reached too."""
    module = engines.get(game).load()
    info = engines.get(game)
    players = max(2, info.min_players) if info.max_players >= 2 else 1
    state = module.new_game(config_from_options(module.Config, players, {}), players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if module.outcome(state) is not None:
            break
        seat = min(module.to_move(state))
        legal = list(module.legal_moves(state, seat))
        state, _ = module.apply_move(
            state, seat, module.computer_move(module.view_for(state, seat), legal, rng)
        )
    return module, state, players


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=ANY_TEXT, seed=st.integers(0, 5), depth=st.integers(0, 12))
def test_any_text_is_a_move_or_a_clear_refusal(game, text, seed, depth):
    """parse_move and apply_move either accept or raise a MoveError with a message; the state is untouched."""
    module, state, players = started(game, seed, depth)
    _refused_cleanly_or_played(module, state, players, text)


def _refused_cleanly_or_played(module, state, players, text):
    """``text`` parses to a move or is refused as malformed, with a message of sensible length;
    a parsed move is played or refused (a MoveError that says why) by every seat, and the state
    given to apply_move never changes."""
    before = module.to_dict(state)
    try:
        move = module.parse_move(text)
    except MalformedMove as exc:
        assert str(exc).strip() and len(str(exc)) <= 600, str(exc)[:200]
        return
    for seat in range(players):
        try:
            module.apply_move(state, seat, move)
        except MoveError as exc:
            assert str(exc).strip()
        assert module.to_dict(state) == before


ODD = [
    "",
    " ",
    "   ",
    "\t",
    "\n",
    "\r\n",
    " \t\n ",
    "\u00a0",
    "\u2003",
    "\u200b",
    "\ufeff",
    *string.punctuation,
    *(ch * 3 for ch in string.punctuation),
    *(f" {ch} " for ch in string.punctuation),
    ",",
    ";",
    ",,",
    ";;",
    " ; ",
    " , ",
    ", ;",
    ",;,;",
    "-",
    "--",
    "+",
    "=",
    ">",
    ":",
    "->",
    "=>",
    "+-",
    "\x00",
    "\x07",
    "\x1b[31m",
    "\x7f",
    "é",
    "ñandú",
    "日本語",
    "🦙",
    "\U0010ffff",
    "\ud800",
    "A" * 10_000,
    "1" * 5_000,
    " " * 5_000,
    "," * 5_000,
    ",".join(["5T"] * 1_000),
    "prep " + "5T" * 3_000,
    "{p0}",
    "%s%s",
    "None",
    "0",
    "-1",
    "nan",
    "inf",
    "1e309",
    "9" * 400,
]


@pytest.mark.parametrize("game", GAMES)
def test_odd_texts_are_refused_cleanly(game):
    """Punctuation-only, whitespace-only and separator-only texts, control characters, unicode and
    very long texts: parse_move raises only MalformedMove (with a message that still fits a
    Discord message); anything that parses is played or refused cleanly by every seat, at the
    start and a few moves in; no state changes."""
    for depth in (0, 9):
        module, state, players = started(game, 3, depth)
        for text in ODD:
            _refused_cleanly_or_played(module, state, players, text)


@pytest.mark.parametrize("game", GAMES)
def test_parse_move_of_a_non_text_is_malformed(game):
    """A value that is not text at all (None) is refused as malformed, not with a TypeError."""
    module = engines.get(game).load()
    with pytest.raises(MalformedMove):
        module.parse_move(None)


def test_property_tests_run_under_the_fixed_profile():
    """The same commit gives the same examples: derandomized draws and no example database."""
    current = settings()
    assert current.derandomize is True
    assert current.database is None
