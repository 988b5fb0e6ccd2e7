"""P'achakuna's sentences kept for translation: every event, refusal, outcome, summary and move
label carries its English template and values (engines.core.Said), reads in English exactly as
its text, and reads in Spanish through the catalogue with the values in place."""

from __future__ import annotations

import dataclasses
import random
from functools import partial

import pytest

import engines.pachakuna as P
from engines.core import (
    GameOver,
    IllegalMove,
    MalformedMove,
    MoveError,
    NotYourTurn,
    Said,
    SetupError,
)
from tests.support import sentences
from tests.support.sentences import ES

from .helpers import all_tiles, fresh, give, play, put, set_demand
from .test_contract import candidates

# Every P'achakuna sentence reads differently in Spanish.
check_kept = partial(sentences.check_said, differs=True)
check_event = partial(sentences.check_event, differs=True)
check_refusal = partial(sentences.check_refusal, differs=True)
# its outcome's details hold sentences, which storage keeps as JSON
check_outcome = partial(sentences.check_outcome, differs=True, whole=False)


def check_summary(view: P.View) -> None:
    told = P.summary(view)
    if view.seat is None:
        assert told == ""
        return
    assert isinstance(told, Said)
    check_kept(told, told.in_words())
    assert told.in_words(ES).startswith("Tienes: ") and "\nTus llamas: " in told.in_words(ES)


# --------------------------------------------------------------------------- whole games


@pytest.mark.parametrize(
    ("board", "max_turns", "seed"),
    [("A", 0, 11), ("B", 0, 12), ("random", 0, 13), ("A", 8, 14), ("B", 6, 15), ("random", 7, 16)],
)
def test_every_event_of_a_game_is_a_kept_sentence(board, max_turns, seed):
    """Seeded playouts of each board, to the win and to a turn limit: every event, the outcome and
    each seat's summary keep their sentences, translated, and survive storage."""
    config = P.Config(board=P.Board(board), max_turns=max_turns)
    s = P.new_game(config, 2, seed)
    rng = random.Random(seed)
    kinds: set[str] = set()
    for step in range(4000):
        if P.outcome(s) is not None:
            break
        seat = s.turn
        legal = P.legal_moves(s, seat)
        if rng.random() < 0.3:
            move = rng.choice(legal)
        else:
            move = P.computer_move(P.view_for(s, seat), legal, rng)
        s, events = P.apply_move(s, seat, move)
        for e in events:
            check_event(e)
            kinds.add(e.kind)
        if step % 7 == 0:
            for who in (None, 0, 1):
                check_summary(P.view_for(s, who))
    out = P.outcome(s)
    assert out is not None
    check_outcome(out)
    assert {"rotate", "move", "sell", "end_turn", "refill", "reload", "end"} <= kinds
    if max_turns:
        assert "turn limit" in out.reason and str(max_turns) in out.reason_in(ES)
    else:
        winner = out.winners[0]
        side = ("Blanco", "Negro")[winner]
        assert out.reason_in(ES) == f"{{p{winner}}}, {side}, reunió los siete colores"


@pytest.mark.parametrize(("board", "seed"), [("A", 21), ("random", 22)])
def test_every_refusal_on_a_game_is_a_kept_sentence(board, seed):
    """Every notation the contract test tries, on states along a seeded game, for the seat to
    move and the other: each refusal keeps its sentence and values, translated."""
    s = P.new_game(P.Config(board=P.Board(board)), 2, seed)
    rng = random.Random(seed)
    refused: set[str] = set()
    for step in range(120):
        if P.outcome(s) is not None:
            break
        seat = s.turn
        legal = P.legal_moves(s, seat)
        if step % 6 == 0:
            for who in (seat, 1 - seat):
                for text in candidates(s, who):
                    try:
                        P.apply_move(s, who, P.parse_move(text))
                    except MoveError as exc:
                        check_refusal(exc)
                        why = exc.said.args.get("refusal", exc.said)  # the rule, before the moves allowed
                        refused.add(type(exc).__name__ + ":" + why.msg)
        s, _ = P.apply_move(s, seat, P.computer_move(P.view_for(s, seat), legal, rng))
    assert any(r.startswith("NotYourTurn:") for r in refused)
    assert len({r for r in refused if r.startswith("IllegalMove:")}) >= 8, refused
    for text in ("", "x", "r34+9", "r34+2/zz", "b1/rr", "m4-56", "r3+2"):
        with pytest.raises(MalformedMove) as caught:
            P.parse_move(text)
        check_refusal(caught.value)


# --------------------------------------------------------------------------- the Spanish read


def spanish_of_refusal(state: P.State, seat: int, text: str) -> str:
    with pytest.raises(MoveError) as caught:
        P.apply_move(state, seat, P.parse_move(text))
    check_refusal(caught.value)
    return caught.value.said.in_words(ES)


def test_typical_events_in_spanish():
    s = fresh()
    give(s, 0, red=3, blue=1)
    s, ev = P.apply_move(s, 0, P.parse_move("r36+2"))
    assert ev[0].words_for(None, ES) == "{p0} giró la loseta 36 dos sextos en sentido horario"
    s, ev = P.apply_move(s, 0, P.parse_move("r34+1"))
    assert ev[0].words_for(1, ES) == "{p0} giró la loseta 34 un sexto en sentido horario, pagando 2 recursos"

    s = fresh()
    put(s, 0, 1, 11, "red")
    set_demand(s, 11, "RB")
    give(s, 0, white=9)
    s, ev = P.apply_move(s, 0, P.parse_move("s1"))
    assert ev[0].words_for(None, ES) == "{p0} vendió rojo en la aldea 11 y ganó 2 piezas de rojo"
    s, ev = P.apply_move(s, 0, P.parse_move("b1"))
    assert ev[0].words_for(None, ES) == "{p0} compró la llama 2 en la aldea 11"
    s, ev = P.apply_move(s, 0, P.parse_move("end"))
    spanish = [e.words_for(None, ES) for e in ev]
    assert spanish[0] == "{p0} terminó el turno"
    assert "{p0} recarga: la llama 1 carga amarillo en 11, la llama 2 carga amarillo en 11" in spanish
    refill = next(t for e, t in zip(ev, spanish, strict=True) if e.kind == "refill")
    assert refill.startswith("nuevas demandas: 11 (amarillo) pide ") and "(bandera grande)" in refill
    assert "(bandera pequeña)" in refill

    s = fresh()
    put(s, 1, 1, 11, "red")
    set_demand(s, 11, "BR")
    s = play(s, 0, "end")
    s, ev = P.apply_move(s, 1, P.parse_move("s1"))
    assert ev[0].words_for(0, ES) == "{p1} vendió rojo en la aldea 11 y ganó 1 pieza de rojo"
    assert ev[0].text == "{p1} sold red at village 11 and gained 1 red"


def black_about_to_win() -> P.State:
    """Black to play, with six colours and a llama that sells red on village 11's big flag."""
    s = play(fresh(), 0, "end")
    put(s, 1, 1, 11, "red")
    set_demand(s, 11, "RB")
    give(s, 1, white=1, orange=1, purple=1, blue=1, green=1, yellow=1)
    return s


def test_a_win_and_a_turn_limit_in_spanish():
    s, ev = P.apply_move(black_about_to_win(), 1, P.parse_move("s1"))
    assert ev[-1].words_for(None, ES) == "{p1} tiene los siete colores y gana"
    out = P.outcome(s)
    assert (
        out.reason == "{p1}, Black, collected all seven colours"
        and out.reason_in(ES) == "{p1}, Negro, reunió los siete colores"
    )

    s = fresh(max_turns=2)
    give(s, 0, red=3)
    give(s, 1, blue=1)
    s = play(s, 0, "end")
    s, ev = P.apply_move(s, 1, P.parse_move("end"))
    assert ev[-1].words_for(None, ES) == "se alcanzó el límite de 2 turnos; la partida termina"
    out = P.outcome(s)
    assert out.reason_in(ES) == "se alcanzó el límite de turnos (2)"
    assert (out.tiebreak, out.tiebreak_in(ES)) == ("resources", "recursos")


def test_typical_refusals_in_spanish():
    s = all_tiles(fresh(), "F1")
    put(s, 0, 1, 43, None)
    spanish = spanish_of_refusal(s, 0, "m1-33")
    assert spanish.startswith(
        "la llama 1 no puede llegar a 33 desde 43 por los valles; puede llegar a 41, 42, 44, "
    )
    assert spanish.endswith(
        ". Jugadas posibles ahora: giros de loseta como r12+1, m1-41, m1-42, m1-44, m1-45, m1-46, m1-47, m1-48"
    )

    assert spanish_of_refusal(fresh(), 1, "end") == "es el turno de Blanco, no el tuyo"

    s = fresh()
    give(s, 0, red=2, blue=1, green=1)
    s = play(s, 0, "r34+1")
    spanish = spanish_of_refusal(s, 0, "r33+1")
    assert spanish.startswith(
        "otro giro cuesta 2 pero solo tienes 1 recurso suelto, así que nombra exactamente 1 color"
    )
    assert "(tienes rbg), p. ej. /r. Jugadas posibles ahora: giros de loseta como " in spanish

    s = fresh()
    put(s, 0, 2, 15, "white")
    put(s, 0, 3, 51, "white")
    give(s, 0, white=9)
    assert spanish_of_refusal(s, 0, "b1").startswith("ya tienes 3 llamas, el máximo que se puede tener.")

    with pytest.raises(MalformedMove) as caught:
        P.parse_move("zz")
    assert caught.value.said.in_words(ES).startswith(
        '"zz" no es una jugada de P\'achakuna; las jugadas se escriben r34+2'
    )
    with pytest.raises(MalformedMove) as caught:
        P.parse_move("r34+2/ryr")
    assert caught.value.said.in_words(ES).startswith("el color R aparece dos veces en el pago")

    s = play(black_about_to_win(), 1, "s1")
    with pytest.raises(GameOver) as over:
        play(s, 0, "end")
    check_refusal(over.value)
    assert over.value.said.in_words(ES) == "la partida ha terminado"

    with pytest.raises(SetupError) as setup:
        P.new_game(P.Config(), 3, 1)
    check_refusal(setup.value)
    assert setup.value.said.in_words(ES) == "la configuración es para 2 jugadores, pero se dieron 3 asientos"
    assert str(setup.value) == "the config is for 2 players but 3 seats were given"


def test_a_rotations_row_is_named_by_its_fields_villages_too():
    """A menu's row of rotations is named by the numbers of its end fields, which are villages on
    rows 1, 5 and 9 (55 too): "fields", not "tiles", in each language."""
    from engines.sentences import say

    s = fresh()
    rows = {
        row: P.move_words(s, 0, P.Rotate(cell, 1)).regions[0] for row, cell in ((1, 12), (5, 52), (7, 72))
    }
    assert {row: say(P.WORDS, r.text, r.args) for row, r in rows.items()} == {
        1: "Row 1: fields 11 to 15",
        5: "Row 5: fields 51 to 59",
        7: "Row 7: fields 71 to 77",
    }
    assert say(P.WORDS, rows[5].text, rows[5].args, ES) == "Fila 5: campos 51 a 59"


def test_not_your_turn_and_tiles_listed():
    with pytest.raises(NotYourTurn) as caught:
        play(fresh(), 1, "end")
    assert caught.value.said.args["side"] == P.rules.SIDE_WORDS[0]
    s = fresh()
    give(s, 0, white=3)  # enough for another turn: the tiles listed may turn
    s = play(s, 0, "r34+1")
    with pytest.raises(IllegalMove) as again:
        play(s, 0, "r34+2")
    said = again.value.said
    # the list of tiles is cut (more than 20 may turn), so its ellipsis ends the refusal
    assert said.msg == "{refusal} {allowed}" and said.args["refusal"].args["reason"].args["cell"] == 34
    assert said.in_words(ES).startswith(
        "la loseta 34 ya se giró este turno; losetas que puedes girar: 12, 13"
    )


def test_summary_and_move_labels_in_spanish():
    s = fresh()
    give(s, 0, white=2, brown=1)
    told = P.summary(P.view_for(s, 0))
    assert told.in_words() == (
        "You hold: white 2, brown 1 (1 of 7 colours, 3 resources, 2 loose)\nYour llamas: llama 1 on 55 carrying white"
    )
    assert told.in_words(ES) == (
        "Tienes: blanco 2, marrón 1 (1 de 7 colores, 3 recursos, 2 sueltos)\nTus llamas: llama 1 en 55, cargada de blanco"
    )
    assert (
        P.summary(P.view_for(fresh(), 0)).in_words(ES).startswith("Tienes: nada (0 de 7 colores, 0 sueltos)")
    )
    words = P.move_words(s, 0, P.Rotate(34, 2, "YR"))
    assert words.full(P.WORDS) == "Tile 34: turn two sixths clockwise, giving up yellow and red"
    assert words.full(P.WORDS, ES) == "Loseta 34: girar dos sextos en sentido horario, dando amarillo y rojo"
    buy = P.move_words(s, 0, P.Buy(1, "WYG"))
    assert buy.label(P.WORDS, ES) == "comprar una llama donde está la llama 1, dando blanco, amarillo y verde"
    assert buy.label(P.WORDS) == "buy a llama where llama 1 stands, giving up white, yellow and green"
    # the longest payment, four colours, fits a button's 80 characters whole in either language
    for t in (None, ES):
        label = P.move_words(s, 0, P.Buy(1, "WYRG")).label(P.WORDS, *([t] if t else []))
        assert len(label) <= 80 and label.endswith(("y verde", "and green")), label
    assert P.move_words(s, 0, P.Buy(1)).label(P.WORDS) == "buy a llama where llama 1 stands"
    assert (
        P.move_words(s, 0, P.Rotate(34, 0)).label(P.WORDS, ES)
        == "girar cero sextos (cuenta igual como girada)"
    )


def test_every_word_and_the_rules_help_are_translated():
    for message in P.WORDS.values():
        assert ES.has(message) and ES.gettext(
            message, value=40, cell=1, llama=1, steps="", colours="", colour="", row=4, first=41, last=48
        )
    for words in (P.rules.COLOUR_WORDS.values(), P.rules.SIDE_WORDS, P.rules.TERRAIN_WORDS):
        for word in words:
            assert ES.has(word.msg, word.context) and word.in_words(ES) != word.msg
    spanish = ES.gettext(P.RULES_HELP)
    assert spanish != P.RULES_HELP and len(spanish) <= 1800
    assert "`r34+2`" in spanish and "`end`" in spanish and "**P'achakuna**" in spanish
    helps = [f.metadata["help"] for f in dataclasses.fields(P.Config) if "help" in f.metadata]
    assert len(helps) == 2 and all(ES.has(h) and ES.gettext(h) != h for h in helps)


def test_one_rock_and_two_rocks_agree_in_number():
    """The rocks a player left are counted: one is "a rock on tile 45" ("una roca en la loseta
    45"), two are "rocks on tiles 45, 56", in the turn's words for the next player and for the
    player still turning."""

    def turn_lines(state: P.State) -> tuple[list[str], list[str]]:
        (section, *_) = P.describe(P.view_for(state, None))
        return [s.in_words() for s in section.lines], [s.in_words(ES) for s in section.lines]

    s = fresh()
    give(s, 0, white=2, red=1)
    one = play(s, 0, "r45+1", "end")
    english, spanish = turn_lines(one)
    assert "a rock on tile 45: it may not be turned this turn" in english
    assert "una roca en la loseta 45: no se puede girar este turno" in spanish
    two = play(s, 0, "r45+1", "r56+1/w", "end")
    english, spanish = turn_lines(two)
    assert "rocks on tiles 45, 56: they may not be turned this turn" in english
    assert "rocas en las losetas 45, 56: no se pueden girar este turno" in spanish


def test_a_rock_left_by_a_player_still_moving_is_counted():
    """While the player who turned the tiles still moves their llamas, the rocks wait for the
    next player: "a rock on tile 45: the next player may not turn it"."""
    s = fresh()
    give(s, 0, white=2, red=1)
    s = play(s, 0, "r45+1")
    s = play(s, 0, next(str(m) for m in P.legal_moves(s, 0) if str(m).startswith("m")))
    (section, *_) = P.describe(P.view_for(s, None))
    assert section.lines[-1].in_words() == "a rock on tile 45: the next player may not turn it"
    assert section.lines[-1].in_words(ES) == "una roca en la loseta 45: quien juega después no puede girarla"


def test_the_turn_so_far_and_the_last_turn_are_said_as_the_picture_marks_them():
    """The picture outlines what the turn so far (or, before the next player's first move, the
    last turn) changed: the words list those moves, with who made them, in English and Spanish."""

    def turn_lines(state: P.State) -> tuple[list[str], list[str]]:
        (section, *_) = P.describe(P.view_for(state, None))
        return [s.in_words() for s in section.lines], [s.in_words(ES) for s in section.lines]

    s = fresh()
    english, _ = turn_lines(s)
    assert not any("turn:" in line or "so far" in line for line in english)  # nothing played yet
    s = play(s, 0, "r45+1")
    english, spanish = turn_lines(s)
    assert "this turn so far: {p0}, White, played r45+1" in english
    assert "en este turno, por ahora: {p0}, Blanco, jugó r45+1" in spanish
    s = play(s, 0, "end")
    english, spanish = turn_lines(s)
    assert "last turn: {p0}, White, played r45+1, end" in english
    assert "último turno: {p0}, Blanco, jugó r45+1, end" in spanish
    assert not any("so far" in line for line in english)


def test_the_rules_help_says_a_village_never_buys_its_own_colour():
    """The rulebook lets a llama sell only at a village of another colour than its load; the
    rules help says so (a sale there is refused), in English and in Spanish."""
    s = P.new_game(P.Config(), 2, 1)
    with pytest.raises(IllegalMove, match="a village does not buy its own colour"):
        P.apply_move(s, 0, P.parse_move("s1"))  # the white load at the white centre
    assert "Sell: never at a village of the load's colour;" in P.RULES_HELP
    assert "Venta: nunca en una aldea del color de la carga;" in ES.gettext(P.RULES_HELP)


def test_a_tile_turned_by_nothing_reads_as_spanish():
    """`r36+0` (a turn that leaves the tile as it is) read "giró la loseta 36 nada" in the post and
    "Loseta 36: girar nada" in the menu; it is "cero sextos", as one or two sixths are."""
    s = fresh()
    words = P.move_words(s, 0, P.parse_move("r36+0"))
    assert words.full(P.WORDS, ES) == "Loseta 36: girar cero sextos (cuenta igual como girada)"
    assert words.full(P.WORDS) == "Tile 36: turn not at all (it still counts as turned)"
    _, ev = P.apply_move(s, 0, P.parse_move("r36+0"))
    assert ev[0].words_for(None, ES) == "{p0} giró la loseta 36 cero sextos (cuenta igual como girada)"


def test_a_tile_turns_by_sixths_in_every_text_that_names_the_turn():
    """The posts, the menus and /pachakuna rotate say a tile turns by sixths ("two sixths
    clockwise"); the rules help and the refusals said "two steps" ("dos pasos") for the same turn."""
    s = fresh()
    _, ev = P.apply_move(s, 0, P.parse_move("r36+2"))
    assert "two sixths clockwise" in ev[0].text
    refusals = []
    for text in ("xyz", "r34+7"):
        with pytest.raises(MalformedMove) as caught:
            P.parse_move(text)
        refusals.append(caught.value.said)
    with pytest.raises(IllegalMove) as caught:
        P.apply_move(s, 0, P.Rotate(36, 7))  # the parser never makes it; the rules refuse it too
    refusals.append(caught.value.said)
    english = [P.RULES_HELP, *(r.in_words() for r in refusals)]
    spanish = [ES.gettext(P.RULES_HELP), *(r.in_words(ES) for r in refusals)]
    assert all("sixth" in t and "step" not in t for t in english), english
    assert all("sexto" in t and "paso" not in t for t in spanish), spanish


def test_a_tile_under_a_llama_is_the_one_that_cannot_be_turned():
    """ "hay una llama en la loseta 12, así que no puede girar" read as the llama being unable to
    turn; it is the tile that cannot be turned, in both languages."""
    s = fresh()
    put(s, 1, 1, 12)
    with pytest.raises(IllegalMove) as caught:
        P.apply_move(s, 0, P.parse_move("r12+3"))
    check_refusal(caught.value)
    assert str(caught.value).startswith("a llama stands on tile 12, so the tile cannot be turned")
    assert caught.value.said.in_words(ES).startswith(
        "hay una llama en la loseta 12, así que la loseta no se puede girar"
    )
