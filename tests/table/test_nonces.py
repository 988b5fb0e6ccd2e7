"""The nonce of a post told again after a stop (bot.surface.nonces.post_nonce): the same for the
same thing told, different for anything else, within Discord's 25 characters."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.league.organiser import told
from bot.surface import nonces
from bot.surface.nonces import post_nonce, told_nonce


def game(number: int = 12, channel: int = 555, seed: int = 7, created: str = "2026-01-01 10:00:00") -> Any:
    """A game as the nonce reads it: its row's number, channel, seed and creation."""
    return SimpleNamespace(row=SimpleNamespace(id=number, channel_id=channel, seed=seed, created_at=created))


def test_the_same_post_gets_the_same_nonce_and_any_other_another():
    board = post_nonce(game(), nonces.BOARD, 900, 3, "active")
    assert board == post_nonce(game(), nonces.BOARD, 900, 3, "active")
    assert board.startswith("b12.") and len(board) == nonces.LENGTH
    others = {
        post_nonce(game(), nonces.BOARD, 901, 3, "active"),  # after another board
        post_nonce(game(), nonces.BOARD, 900, 4, "active"),  # telling another move
        post_nonce(game(), nonces.BOARD, 900, 3, "finished"),  # the game's end
        post_nonce(game(), nonces.ABANDON),
        post_nonce(game(), nonces.CARD),
        post_nonce(game(13), nonces.BOARD, 900, 3, "active"),  # another game
        # a game given the same number again (a database restored from a backup), elsewhere or later
        post_nonce(game(channel=556), nonces.BOARD, 900, 3, "active"),
        post_nonce(game(created="2026-01-02 10:00:00"), nonces.BOARD, 900, 3, "active"),
    }
    assert board not in others and len(others) == 8


def test_a_nonce_never_holds_the_seed():
    """A nonce comes back with its message, and all else hashed in it is known to the channel: the
    seed (which fixes the hidden shuffle) is left out, so no one can try seeds against it."""
    board = post_nonce(game(), nonces.BOARD, 900, 3, "active")
    assert post_nonce(game(seed=8), nonces.BOARD, 900, 3, "active") == board
    league = SimpleNamespace(id=1, channel_id=555, seed=7, created_at="2026-01-01 10:00:00")
    assert told(league, "check-in", 1) == told(SimpleNamespace(**{**vars(league), "seed": 8}), "check-in", 1)
    assert 7 not in told(league, "check-in", 1)


def test_a_nonce_never_passes_25_characters():
    for number in (1, 10**9, 10**12, 10**18):
        made = post_nonce(game(number), nonces.LINES, "a line\n" * 300)
        assert len(made) == nonces.LENGTH, made
    assert post_nonce(game(10**18), nonces.CARD) != post_nonce(game(10**18 + 1), nonces.CARD)


def test_a_league_post_s_nonce_names_the_league_the_post_and_its_piece():
    league = (1, 555, "2026-01-01 10:00:00")
    call = told_nonce(nonces.LEAGUE, *league, "check-in", 1, 1800000000.0, 0)
    assert call == told_nonce(nonces.LEAGUE, *league, "check-in", 1, 1800000000.0, 0)
    assert call.startswith("L1.") and len(call) == nonces.LENGTH
    others = {
        told_nonce(nonces.LEAGUE, *league, "check-in", 1, 1800000000.0, 1),  # its next piece
        told_nonce(nonces.LEAGUE, *league, "check-in", 2, 1800000000.0, 0),  # another round's
        told_nonce(nonces.LEAGUE, *league, "sat out", 1, 0),
        told_nonce(nonces.LEAGUE, 1, 556, "2026-01-01 10:00:00", "check-in", 1, 1800000000.0, 0),
    }
    assert call not in others and len(others) == 4


def test_a_game_s_nonce_is_the_told_nonce_of_its_number_and_what_makes_it_unique():
    assert post_nonce(game(), nonces.QUESTION, 0, 900) == told_nonce(
        nonces.QUESTION, 12, 555, "2026-01-01 10:00:00", nonces.QUESTION, 0, 900
    )
    assert post_nonce(game(), nonces.QUESTION, 0, 900) != post_nonce(game(), nonces.QUESTION, 0, 901)
    assert post_nonce(game(), nonces.QUESTION, 0, 900) != post_nonce(game(), nonces.CLOCK_LINE, 0, 900)
