"""Bad input never crashes an engine and never changes a game (property tests, every game)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from engines.core import MoveError, config_from_options

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
    before = module.to_dict(state)
    try:
        move = module.parse_move(text)
    except MoveError as exc:
        assert str(exc).strip()
        return
    for seat in range(players):
        try:
            module.apply_move(state, seat, move)
        except MoveError as exc:
            assert str(exc).strip()
        assert module.to_dict(state) == before
