"""What the ``board`` job keeps of a board Discord refused inside a turn (bot.surface.unposted.Inside)."""

from __future__ import annotations

from bot.surface.unposted import Inside


def test_the_payload_keeps_the_board_to_follow_and_whom_it_calls_on():
    inside = Inside(1234, ping=True, restarted=(1,))
    payload = {"guild": 5, "since": 10.0, **inside.payload()}
    assert Inside.of(payload) == inside
    assert Inside.of({"guild": 5, "since": 10.0, "told": "forbidden"}) is None  # a turn's board: none kept


def test_two_boards_refused_inside_one_turn_are_one_retry_calling_on_whom_either_would():
    """More time (a ping, the late seat's turn starting again), then an undo inside the same turn
    (no ping): the retry's one board still calls on the late seat."""
    more_time = Inside(1234, ping=True, restarted=(1,))
    undo = Inside(1234)
    assert undo.joined(more_time) == Inside(1234, ping=True, restarted=(1,))
    assert Inside(1234, restarted=(0,)).joined(more_time).restarted == (0, 1)
    assert undo.joined(None) == undo
    assert undo.joined(Inside(999, ping=True, restarted=(1,))) == undo  # a board posted between: not joined
