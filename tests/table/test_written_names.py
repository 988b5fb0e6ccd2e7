"""Names as the bot's Discord messages write them (:mod:`bot.surface.written`): markdown escaped,
in a session's seats and in the table's notes, also where a note lists several seats."""

from __future__ import annotations

import dataclasses

from bot.surface import written
from engines.core import said
from tests.table.test_turn_posts import session_for

MARKED = ("**ana", "bo||", "x_y")


def marked_session():
    session, _ = session_for("guacamole", 3, 3)
    session.seats = [dataclasses.replace(s, name=n) for s, n in zip(session.seats, MARKED, strict=True)]
    return session


def test_a_sessions_names_are_escaped_and_the_session_itself_is_not_changed():
    session = marked_session()
    assert written.session(session).names() == ["\\*\\*ana", "bo\\|\\|", "x\\_y"]
    assert session.names() == list(MARKED)  # the pictures, the alt text and the store keep them


def test_a_note_escapes_a_seats_name_and_a_list_of_seats_names_and_nothing_else():
    session = marked_session()
    one = written.note(said("{name} resigned", name="**ana"), session)
    assert one is not None and one.in_words() == "\\*\\*ana resigned"
    late = written.note(
        said("⏰ Time ran out for {names}; the computer made the move.", names="**ana, bo||"), session
    )
    assert late is not None and late.in_words().startswith("⏰ Time ran out for \\*\\*ana, bo\\|\\|;")
    other = written.note(said("`{move}` was played", move="**x"), session)  # not a name: as it was
    assert other is not None and other.in_words() == "`**x` was played"
    assert written.note(None, session) is None
