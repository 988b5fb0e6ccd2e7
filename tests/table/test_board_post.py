"""What a board post keeps for the ``board`` job's try (bot.surface.boardpost.Post): its sentences
handed over when another process posts the game's board, and what a refused board leaves owed."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.surface.boardpost import Post
from bot.surface.unposted import HANDED, Inside
from engines.core import said

HEADER, LINE, NOTE = said("**A**: the board now"), said("🔁 a seat handed over"), said("⏰ Time is up.")


def game(board: int | None, status: str = "active", turn: int = 3) -> Any:
    """A game as a post reads it: its last board, its status, the turn it is on."""
    engine = SimpleNamespace(turn_number=lambda state: turn)
    return SimpleNamespace(
        row=SimpleNamespace(board_message_id=board), status=status, engine=engine, state=None
    )


def post(session: Any, **asked: Any) -> Post:
    values: dict[str, Any] = {
        "header": None,
        "own": (),
        "outcome": None,
        "ratings": (),
        "ping": True,
        "begins": False,
        "catching_up": False,
        "restarted": (),
        "lines": (),
        "pings": (),
        "again": False,
    }
    made = Post(session, **{**values, **asked})
    made.notes = made.own
    return made


def moves(*turns: int) -> Any:
    return [SimpleNamespace(turn=turn) for turn in turns]


def test_a_post_finding_the_board_held_hands_over_its_sentences_but_a_first_boards_header():
    asked = {"header": HEADER, "lines": (LINE,), "pings": (7,), "own": (NOTE,), "restarted": (1,)}
    handed = post(game(99), **asked).handed()
    assert handed == Inside(HANDED, True, (1,), HEADER, (LINE,), (7,), (NOTE,))
    assert post(game(99), **asked, begins=True).handed().header is None  # it heads that first board
    assert post(game(99), header="text").handed().header is None  # only a sentence is said again


def test_a_board_refused_inside_a_turn_keeps_all_it_was_posted_with():
    refused = post(game(99), header=HEADER, lines=(LINE,), pings=(7,), own=(NOTE,), restarted=(1,))
    assert refused.refused(moves(3)) == Inside(99, True, (1,), HEADER, (LINE,), (7,), (NOTE,))


def test_a_turns_board_refused_keeps_only_its_lines_and_notes_and_a_first_board_its_header():
    turn = post(game(99), header=HEADER, lines=(LINE,), pings=(7,), restarted=(1,))
    assert turn.refused(moves(2, 3)) == Inside(99, lines=(LINE,), pings=(7,))  # the turn ended: posted again
    first = post(game(None), header=HEADER, begins=True)
    assert first.refused([]) == Inside(0, header=HEADER)
    assert post(game(99), header=HEADER).refused(moves(2)) is None  # nothing the catch-up does not post
    assert post(game(99, "finished"), own=(NOTE,)).refused([]) == Inside(99, notes=(NOTE,))
