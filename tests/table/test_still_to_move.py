"""The board's turn line, in English and Spanish: a board that begins a turn calls on those to move
by mention ("**Next:**"); a board inside a turn names them without a mention, as still to move;
one that starts a single seat's turn again (more time on its clock) inside a shared round mentions
that seat and names the others."""

from __future__ import annotations

import pytest

from bot import texts
from languages import language
from tests.table.test_turn_posts import session_for

LINES = {
    "en": ("**Next:** <@100>, <@101>", "**Still to move:** Alice, Bob", "**Next:** Alice, <@101>"),
    "es": (
        "**Turno de:** <@100>, <@101>",
        "**Sigue el turno de:** Alice, Bob",
        "**Turno de:** Alice, <@101>",
    ),
}


@pytest.mark.parametrize("code", ["en", "es"])
def test_the_turn_line_mentions_only_those_whose_turn_begins(code):
    t = language(code)
    session, _ = session_for("nowa_gwinea", 2, 3)
    assert session.to_move() == {0, 1}  # a round both play at once
    begins, inside, again = LINES[code]
    assert texts.board_text(session, [], t=t).splitlines()[-1] == begins
    assert texts.board_text(session, [], already={0, 1}, t=t).splitlines()[-1] == inside
    assert texts.board_text(session, [], already={0}, t=t).splitlines()[-1] == again
    assert texts.board_text(session, [], ping=False, t=t).splitlines()[-1] == inside
