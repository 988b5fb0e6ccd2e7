"""A P'achakuna win is told with the winner's name, not only their side ("White"), wherever the
table says why the game ended: the result message, the alt text and the board in words."""

from __future__ import annotations

import dataclasses
import io

import pytest

from bot import alt, texts
from bot.describe import described
from bot.terminal import main
from engines import pachakuna as P
from engines.core import Said
from languages import language
from tests.pachakuna.test_sentences import black_about_to_win
from tests.table.test_turn_posts import session_for


@pytest.mark.parametrize(
    ("code", "why"),
    [("en", "Bob, Black, collected all seven colours"), ("es", "Bob, Negro, reunió los siete colores")],
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


@pytest.mark.parametrize(
    ("code", "end"),
    [
        ("en", "Game over: P1 (cpu, normal), White, collected all seven colours"),
        ("es", "Fin de la partida: P1 (máquina, normal), Blanco, reunió los siete colores"),
    ],
)
def test_a_computers_side_follows_its_name_apart(code, end, tmp_path):
    """A computer seat's name ends in brackets ("P1 (cpu, normal)"), and the side in brackets after
    it ran into it: "P1 (máquina, normal) (Blanco) reunió los siete colores".  The side follows the
    name after a comma, in the result and in every line of the game."""
    out, err = io.StringIO(), io.StringIO()
    argv = ["pachakuna", "--players", "2", "--computer", "2", "--seed", "3", "--language", code]
    assert main([*argv, "--no-images", "--no-export", "--out", str(tmp_path)], io.StringIO(), out, err) == 0
    assert end in out.getvalue().splitlines()
    assert ") (" not in out.getvalue()


def test_a_result_stored_in_edition_3_still_reads_in_spanish():
    """Edition 3 stored the side in brackets after the name; its results keep their Spanish."""
    stored = P.rules.EARLIER_REASONS[1]
    old = Said(stored.msg, {"p0": "{p0}", "side": P.rules.SIDE_WORDS[1]})
    assert old.in_words(language("es")) == "{p0} (Negro) reunió los siete colores"
