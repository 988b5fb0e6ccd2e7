"""Names as the bot's Discord messages write them (:mod:`bot.surface.written`): markdown escaped,
in a session's seats and in the table's notes, also where a note lists several seats."""

from __future__ import annotations

import dataclasses

import pytest

from bot import texts
from bot.sessions import seats_said
from bot.surface import written
from engines.core import said
from languages import language
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


@pytest.mark.parametrize("code", ["en", "es"])
def test_a_notes_seats_are_named_as_every_sentence_names_them(code):
    """The table's notes write seats as ``{p0}`` (:func:`bot.sessions.seats_said`): on a board
    built from :func:`written.session`, each is named escaped, one or several (listed as the
    language lists them), also a name holding a comma; a value that is not a seat stays as it
    is, even when it reads like a player's name."""
    session = marked_session()
    session.seats[1] = dataclasses.replace(session.seats[1], name="bo, **x")
    t = language(code)

    def board(note):
        return texts.board_text(written.session(session), [], notes=(note,), t=t).splitlines()[0]

    one = board(said("{name} resigned", name=seats_said([0])))
    assert one == {"en": "\\*\\*ana resigned.", "es": "\\*\\*ana se rindió."}[code], one
    late = board(
        said("⏰ Time ran out for {names}; the computer made the move.", names=seats_said([0, 1, 2]))
    )
    listed = {"en": "\\*\\*ana, bo, \\*\\*x and x\\_y", "es": "\\*\\*ana, bo, \\*\\*x y x\\_y"}[code]
    assert listed in late, late
    other = board(said("`{move}` was played", move="**ana"))  # not a seat: as it was
    assert other == "`**ana` was played."
