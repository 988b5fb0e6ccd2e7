"""A P'achakuna win is told with the winner's name, not only their side ("White"), wherever the
table says why the game ended: the result message, the alt text and the board in words."""

from __future__ import annotations

import dataclasses

import pytest

from bot import alt, texts
from bot.describe import described
from engines import pachakuna as P
from engines.core import Said
from languages import language
from tests.pachakuna.test_sentences import black_about_to_win
from tests.table.test_turn_posts import session_for


@pytest.mark.parametrize(
    ("code", "why"),
    [("en", "Bob (Black) collected all seven colours"), ("es", "Bob (Negro) reunió los siete colores")],
)
def test_the_winner_of_the_seven_colours_is_named(code, why):
    t = language(code)
    state, _ = P.apply_move(black_about_to_win(), 1, P.parse_move("s1"))
    out = P.outcome(state)
    assert out is not None and out.ranking == ((1,), (0,))
    session, _ = session_for("pachakuna", 2, 3)
    session.state = state
    session.row = dataclasses.replace(session.row, status="finished", outcome=out.to_dict())
    assert why in texts.outcome_lines(session, out, t)[0]
    assert why in alt.board(session, None, None, t)
    assert why in "\n".join(described(session, None, t))


def test_a_result_stored_before_edition_3_still_reads_in_spanish():
    stored = P.rules.EARLIER_REASONS[0]
    old = Said(stored.msg, {"side": P.rules.SIDE_WORDS[0]})
    assert old.in_words(language("es")) == "Blanco reunió los siete colores"
