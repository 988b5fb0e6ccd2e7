"""The board's turn line names a player taking time away without brackets in brackets: it read
"**Next:** <@100> (away until 1971-02-04 19:00 (America/Lima))"; the player is called on as
before and their time away follows on a line of its own, as ``/game status`` says it
("Alice, away until 1971-02-04 19:00 (America/Lima)"), in English and Spanish."""

from __future__ import annotations

import pytest

from bot import notices, texts
from bot.storage import PersonRow
from languages import language
from tests.table.test_turn_posts import session_for

AWAY = {
    "en": "Alice, away until 1971-02-04 19:00 (America/Lima)",
    "es": "Alice, de descanso hasta el 1971-02-04 19:00 (America/Lima)",
}
NEXT = {"en": "**Next:** <@100>", "es": "**Turno de:** <@100>"}


@pytest.mark.parametrize("code", ["en", "es"])
def test_the_turn_line_says_time_away_on_a_line_of_its_own(code):
    t = language(code)
    session, _ = session_for("guacamole", 2, 3)
    first = session.seat_of(100)
    assert first is not None and session.waiting_on() == [first]  # Alice (user 100) is to play
    person = PersonRow(100, away_since=0.0, away_until=86400.0 * 400, time_zone="America/Lima")
    away = notices.away_labels({100: person}, 10.0, t)
    post = texts.board_text(session, [], away=away, t=t).splitlines()
    assert post[-2:] == [NEXT[code], AWAY[code]], post
    assert not any(") (" in line or "))" in line for line in post), post
    status = texts.status_text(session, 0, away=away, t=t).splitlines()
    assert f"1. {AWAY[code]}" in status, status  # the same words as /game status
    assert texts.board_text(session, [], t=t).splitlines()[-1] == NEXT[code]  # nobody away: one line
