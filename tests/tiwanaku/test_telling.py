"""How Tiwanaku tells a seat's run of moves (``tell_turn``): the lines keep the order things
happened in, when one run holds the discovery of the last space and the final divinations
that follow it (the discoverer divines first; the table tells a computer's moves, or the moves
made while a player waited, as one run)."""

from __future__ import annotations

import engines.tiwanaku as T
from bot import texts
from bot.records import MoveRecord
from engines.core import Event
from tests.table.test_turn_posts import session_for

from .helpers import cell, fixed, play, put


def _lines(events) -> list[str]:
    """The run's lines as the channel reads them, in English (seats as ``{pN}``)."""
    told = [(e.kind, e.said_for(None)) for e in events]
    return [" ".join(s.in_words() for s in line) for line in T.tell_turn(told)]


def _at(lines: list[str], words: str) -> int:
    found = [i for i, line in enumerate(lines) if words in line]
    assert len(found) == 1, (words, lines)
    return found[0]


def _last_space_then_final_round():
    """p1 discovers the last space, then (first in the final round) peeks and guesses right:
    the state after, and each move's events."""
    s = fixed()
    for c in range(25):
        s.discovered[c] = True
    s.discovered[cell("E5")] = False
    put(s, 0, "C2")
    put(s, 1, "C3")
    s.cubes[1] = [1, 1, 1, 1]
    s.turn = 1
    moves = []
    for text in ("+E5", "peek:C3", "C3=1"):  # the last space, then the final round starts with p1
        s, events = play(s, 1, text)
        moves.append((text, events))
    assert s.turn == 0  # the run ends here: C3's crop is 1
    return s, moves


def test_the_final_divinations_are_told_after_their_announcement():
    """The discovery, the announcement, the peek and the guess, in that order."""
    _, moves = _last_space_then_final_round()
    lines = _lines([e for _, events in moves for e in events])
    explored = _at(lines, "enters on E5")
    announced = _at(lines, "Final divinations")
    peeked = _at(lines, "looks at the disc in secret")
    guessed = _at(lines, "crop 1 on C3 correctly")
    assert explored < announced < peeked < guessed, lines
    assert "C3" not in lines[peeked]  # where the player looked stays theirs


def test_a_turn_without_the_final_divinations_keeps_its_lines():
    """An ordinary turn: the offering first, then the actions in order, the name once."""
    s = fixed()
    put(s, 0, "C2")
    s.discovered[cell("C2")] = True
    s.cubes[0] = [1, 1, 1, 1]
    s, extra = play(s, 0, "extra")
    s, guess = play(s, 0, "C2=3")  # right: C2's crop is 3, and the run of guesses ends
    s, enter = play(s, 0, "+A1")
    assert s.turn == 1
    lines = _lines(extra + guess + enter)
    assert lines == [
        "{p0} makes an offering to Pachamama for an extra action",
        "divines crop 3 on C2 correctly (3 points + 1 for diversity) and enters on A1, discovers forest "
        "and takes a forest cube",
    ]


def test_one_right_guess_then_a_stop_reads_as_one_list_of_points():
    """A right guess with more said after it takes the form a run of guesses has: "correctly:
    2 points and 1 for diversity and stops divining" read the stop as one more of the points.  A
    guess that ends its line keeps its own form."""
    s = fixed()
    put(s, 0, "C2")
    put(s, 0, "D2")
    s.discovered[cell("C2")] = s.discovered[cell("D2")] = True
    s, guess = play(s, 0, "C2=3")
    s, stop = play(s, 0, "done")
    assert _lines(guess + stop) == [
        "{p0} divines crop 3 on C2 correctly (3 points + 1 for diversity) and stops divining"
    ]
    assert _lines(guess) == ["{p0} divines crop 3 on C2 correctly: 3 points and 1 for diversity"]


def test_the_player_who_waited_reads_the_run_in_order():
    """At the table: what the other seat is told of the run (as after its own turn, when the
    computer played on), the seats named."""
    session, _ = session_for("tiwanaku", 2, 3)
    state, moves = _last_space_then_final_round()
    session.state = state
    records = [
        MoveRecord(
            1,
            text,
            False,
            tuple(Event.from_dict(e.to_dict()) for e in events),
            T.move_privacy(state, 1, T.parse_move(text)),
            number,
        )
        for number, (text, events) in enumerate(moves, start=1)
    ]
    lines = texts.turn_lines(session, records, reader=0)
    assert _at(lines, "Bob enters on E5") < _at(lines, "Final divinations") < _at(lines, "crop 1 on C3")
    assert not any("C3" in line and "disc" in line for line in lines), lines
