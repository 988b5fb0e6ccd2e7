"""What the ``board`` job keeps of a board Discord refused inside a turn (bot.surface.unposted.Inside)."""

from __future__ import annotations

import json

from bot.surface.unposted import HANDED, Inside
from engines.core import Said, said
from languages import language

SPANISH = language("es")


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


def test_the_payload_keeps_the_header_and_the_lines_as_sentences_and_whom_they_ping():
    """A seat handed over: the board's header and the handover's line the channel refused are kept
    as sentences (said again in the channel's language at the try), with the substitute to ping;
    the payload is JSON."""
    line = said("🔁 {substitute} takes {name}'s seat", substitute="<@7>", name="Ana", credit=Said("nobody"))
    inside = Inside(
        1234, header=said("**{league}**: the board now", league="Avocado"), lines=(line,), pings=(7,)
    )
    payload = json.loads(json.dumps({"guild": 5, "since": 10.0, **inside.payload()}))
    assert Inside.of(payload) == inside
    assert Inside.of(payload).header.in_words(SPANISH) == "**Avocado**: el tablero ahora"


def test_lines_refused_twice_inside_one_turn_are_all_carried_in_order():
    """The handover's line, then the answer "more time" inside the same turn: the retry's one board
    says both, in the order they came, under the header, pinging whom either line would have."""
    handed = Inside(
        1234, header=said("**{league}**: the board now", league="A"), lines=(said("one"),), pings=(7,)
    )
    more_time = Inside(1234, ping=True, restarted=(1,), lines=(said("two"),))
    joined = more_time.joined(handed)
    assert joined.lines == (said("one"), said("two")) and joined.header == handed.header
    assert joined.pings == (7,) and joined.ping and joined.restarted == (1,)
    assert more_time.joined(Inside(999, lines=(said("one"),))) == more_time  # a board posted between


def test_a_first_board_refused_twice_keeps_the_header_it_was_first_refused_with():
    """A league game's first board (``after`` 0) refused under the round's header, then a seat handed
    over before it was posted: the retry's first board is the round's, with the handover's line."""
    opening = Inside(0, header=said("round"))
    handed = Inside(0, header=said("the board now"), lines=(said("takes the seat"),))
    assert handed.joined(opening) == Inside(0, header=said("round"), lines=(said("takes the seat"),))
    inside = Inside(1234, header=said("the board now")).joined(Inside(1234, header=said("earlier")))
    assert inside.header == said("the board now")  # inside a turn, the latest header


def test_the_notes_of_boards_refused_in_one_turn_are_all_kept_in_order_each_once():
    """Beto resigned (a board refused), then Ana's time ran out (refused too, inside the same turn):
    the retry's board tells both of the table's own lines, in the order they came; a board kept
    again with the note it was kept with tells it once."""
    beto, ana = said("{name} resigned", name="Beto"), said("⏰ Time is up.")
    first = Inside(1234, notes=(beto,))
    both = Inside(1234, notes=(ana,)).joined(first)
    assert both.notes == (beto, ana)
    assert Inside(1234, notes=(beto, ana)).joined(both).notes == (beto, ana)
    assert Inside(HANDED, notes=(ana,)).joined(Inside(1234, notes=(beto,))).notes == (beto, ana)
    payload = json.loads(json.dumps({"guild": 5, "since": 10.0, **both.payload()}))
    assert Inside.of(payload) == both


def test_a_job_kept_with_one_note_before_notes_were_a_list_is_read_with_it():
    """A ``board`` job armed before the upgrade keeps one note (a sentence, not a list): its try
    tells it, and the job kept again keeps it in the list that replaces it."""
    beto = said("{name} resigned", name="Beto")
    payload = {"guild": 5, "since": 10.0, "inside": 1234, "lines": [], "note": beto.to_dict()}
    kept = Inside.of(payload)
    assert kept is not None and kept.notes == (beto,)
    payload.update(Inside(1234, notes=(said("⏰ Time is up."),)).joined(kept).payload())
    assert Inside.of(payload).notes == (beto, said("⏰ Time is up."))
