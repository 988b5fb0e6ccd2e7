"""How a Guanga game ended, in the words the table gives it: the player whose turn could not start
named (never "player 2"), and a tie broken by fewer negative points explained with each tied
player's negative points, in the result message, the alt text, the results card and the board in
words, in English and Spanish."""

from __future__ import annotations

import dataclasses

import pytest

from bot import alt, results, texts
from bot.describe import described
from engines import guanga as G
from engines.core import Said
from languages import language
from tests.guanga.test_round_end import stuck_at_seat_1
from tests.guanga.util import clear, game, kind, play, put
from tests.i18n.test_spanish_boards import drawn_texts
from tests.table.test_turn_posts import session_for

ES = language("es")
EN = language("en")


def finished(state, seats: int):
    """A finished Guanga session of ``seats`` (Alice, Bob, Carol) at ``state``, as stored."""
    session, _ = session_for("guanga", seats, 5)
    session.state = state
    out = G.outcome(state)
    assert out is not None
    session.row = dataclasses.replace(session.row, status="finished", outcome=out.to_dict())
    return session, out


def tied():
    """Alice and Bob tied on -40 points: Alice with 40 negative points, Bob with 50."""
    s = game(2, "beginner")
    clear(s, 0)
    clear(s, 1)
    for name in ("A1", "A2", "A3", "A4", "A5"):
        put(s, 0, {name: kind("red", "inti")})
    s.claimed[1] = ["A01", "A02"]
    s.finished, s.phase = True, "over"
    s.end_said = G.rules.said("the workshop reached its end and the round was completed")
    s.end_reason = s.end_said.in_words()
    return finished(s, 2)


@pytest.mark.parametrize(
    ("code", "why"),
    [
        ("en", "Tie broken by: fewer negative points (Alice -40, Bob -50)."),
        ("es", "Desempate por: menos puntos negativos (Alice -40, Bob -50)."),
    ],
)
def test_a_tie_broken_by_fewer_negative_points_says_each_tied_players_negative_points(code, why):
    t = language(code)
    session, out = tied()
    assert out.scores == (-40.0, -40.0) and out.ranking == ((0,), (1,))
    assert why in texts.outcome_lines(session, out, t)
    assert why in alt.results_card(session, t)
    assert why in alt.board(session, None, None, t)
    assert why in "\n".join(described(session, None, t))


@pytest.mark.parametrize(
    ("code", "why"),
    [
        (
            "en",
            "at the start of Bob's turn the basket patches could not be placed, and the round was completed",
        ),
        (
            "es",
            "al empezar el turno de Bob, los parches de la canasta no se podían colocar, y se completó la ronda",
        ),
    ],
)
def test_the_end_of_a_round_nobody_could_start_names_the_player(code, why):
    t = language(code)
    s, _ = play(stuck_at_seat_1(shells=(0, 0, 0)), 0, "P1A2", "P2A3")
    session, out = finished(s, 3)
    for words in (
        texts.outcome_lines(session, out, t)[0],
        alt.results_card(session, t),
        "\n".join(described(session, None, t)),
    ):
        assert why in words, words
        assert "player 2" not in words.lower() and "jugador 2" not in words.lower(), words


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
async def test_the_results_card_draws_the_reason_and_the_tiebreak_in_the_readers_language(service):
    session, _ = tied()
    with drawn_texts() as (found, _log):
        await results.card(service, session, language="es")
    drawn = " ".join(found)
    assert "el taller llegó a su fin y se completó la ronda" in drawn, found
    assert "menos puntos negativos (Alice -40, Bob -50)" in drawn, found


def test_a_result_stored_before_edition_3_still_reads_in_spanish():
    ended, completed = (Said(s.msg, {"number": 2}) for s in G.rules.EARLIER_REASONS)
    assert (
        ended.in_words(ES)
        == "al empezar el turno del asiento 2, los parches de la canasta no se podían colocar"
    )
    assert completed.in_words(ES).endswith(", y se completó la ronda")


@pytest.mark.parametrize(("code", "rank"), [("en", "rank "), ("es", "rango ")])
def test_a_solo_games_alt_text_gives_its_points_and_rank_not_a_place(code, rank):
    """A solo game ends with the player's points and rank, as the picture's header says it; the
    alt text says the same (never "1st" of one)."""
    t = language(code)
    s = game(1, "artisan")
    s.finished, s.phase = True, "over"
    s.end_said = G.rules.said("the workshop reached its end and the round was completed")
    s.end_reason = s.end_said.in_words()
    session, out = finished(s, 1)
    points = int(out.scores[0])
    words = alt.board(session, None, None, t)
    said_rank = G.solo_result(out)
    assert said_rank is not None and f"{points} " in said_rank.in_words(t)
    assert f"Alice: {said_rank.in_words(t)}." in words, words
    assert rank in words and "1st" not in words and "1.º" not in words
    assert G.solo_result(tied()[1]) is None  # two players: places, as before
