"""Tiwanaku's words kept for translation: every event, refusal, outcome, summary and move label
is a sentence (engines.core.Said) whose English is the text shown, and whose Spanish comes from
the catalogue with the rulebook's terms."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

import engines.tiwanaku as T
from engines.core import (
    Event,
    GameOver,
    IllegalMove,
    MalformedMove,
    MoveError,
    MoveWords,
    NotYourTurn,
    Said,
    SetupError,
    rng_for,
)
from engines.tiwanaku.rules import DIVINING, FINAL, BoardSize
from tests.support import sentences
from tests.support.sentences import ES, untranslated, values_problems
from tests.tiwanaku.helpers import cell, discover, fixed, play, put

# every mode: player counts 1-4 and both boards (3-4 players always play long)
MODES = [(1, "auto"), (1, "long"), (2, "short"), (2, "long"), (3, "auto"), (4, "auto")]


# Tiwanaku's seats are named by the table, never given as values.
check_event = partial(sentences.check_event, seats_in_values=False)
spanish_ok = partial(sentences.check_said, seats_in_values=False)


def values_match(s: Said) -> bool:
    return not values_problems(s, seats_in_values=False)


def once_each(check: Callable[[Any], object]) -> Callable[[Any], None]:
    """``check`` run on each value once within a test: a value whose ``repr`` equals one already
    checked (the same texts, sentences, values and value types, so the same answers to every
    check) has passed already.  Games repeat most of their events and move labels."""
    done: set[str] = set()

    def run(value: Any) -> None:
        key = repr(value)
        if key not in done:
            check(value)
            done.add(key)

    return run


def check_words(words: MoveWords) -> None:
    """A move's label reads whole in Spanish and every sentence among its values is translated."""
    assert "{" not in words.full(T.WORDS, ES)
    for value in words.args.values():
        if isinstance(value, Said):
            assert not untranslated(value)


def check_summary(summary: Any) -> None:
    assert isinstance(summary, Said) and values_match(summary)
    spanish_ok(summary)


def playout(players: int, board: str, seed: int):
    """A seeded game with the computer players and now and then a random move; yields each step."""
    state = T.new_game(T.Config(players=players, board=BoardSize(board)), players, seed)
    rng = rng_for(seed, "sentences")
    while T.to_move(state):
        (seat,) = T.to_move(state)
        legal = T.legal_moves(state, seat)
        move = (
            rng.choice(legal) if rng.random() < 0.3 else T.computer_move(T.view_for(state, seat), legal, rng)
        )
        new, events = T.apply_move(state, seat, move)
        yield state, seat, legal, events, new
        state = new


@pytest.mark.parametrize(("players", "board"), MODES)
def test_every_event_of_seeded_games_is_a_kept_sentence(players, board):
    kinds: set[str] = set()
    event_ok, words_ok, summary_ok = once_each(check_event), once_each(check_words), once_each(check_summary)
    for seed in range(3):
        state = None
        for state, seat, legal, events, _ in playout(players, board, seed):
            for e in events:
                event_ok(e)
                kinds.add(e.kind)
            for m in legal:
                words_ok(T.move_words(state, seat, m))
            summary_ok(T.summary(T.view_for(state, seat)))
        assert state is not None
    assert {"explore", "divine", "final", "end"} <= kinds


@pytest.mark.slow
@pytest.mark.parametrize(("players", "board"), MODES)
def test_every_event_of_many_games_is_a_kept_sentence(players, board):
    """More seeds, every event checked, and every outcome's reason and tiebreak kept."""
    event_ok = once_each(check_event)
    for seed in range(3, 40):
        steps = list(playout(players, board, seed))
        for *_, events, _ in steps:
            for e in events:
                event_ok(e)
        final = steps[-1][-1]
        out = T.outcome(final)
        assert out is not None
        sentences.check_outcome(out, seats_in_values=False)
        # (with the right guesses of the seats it separated: "more correct divinations ({p2} 6, {p0} 5)")
        assert out.tiebreak is None or re.fullmatch(
            r"more correct divinations \(\{p\d\} \d+(, \{p\d\} \d+)+(; \{p\d\} \d+(, \{p\d\} \d+)+)*\)",
            out.tiebreak,
        ), out.tiebreak


# ------------------------------------------------------------------ refusals


def _refusals() -> list[tuple[str, MoveError | SetupError]]:
    """Refusals of every kind: (what, the error)."""
    found: list[tuple[str, MoveError | SetupError]] = []

    def catch(what, call, *args):
        try:
            call(*args)
        except (MoveError, SetupError) as exc:
            found.append((what, exc))
        else:
            raise AssertionError(f"{what} was not refused")

    s = fixed()
    catch("not notation", T.parse_move, "hello")
    catch("crop 6", T.parse_move, "C3=6")
    catch("cell off every board", T.parse_move, "+F1")
    catch("wrong seat", play, s, 1, "+A1")
    catch("off the board", play, s, 0, "+A7")
    catch("not on the edge", play, s, 0, "+C3")
    catch("done now", play, s, 0, "done")
    catch("pass now", play, s, 0, "pass")
    catch("no cubes to trade", play, s, 0, "SD>M")
    catch("no offering", play, s, 0, "extra")
    catch("no explorer to move", play, s, 0, "B2-B3")
    catch("no explorer to take off", play, s, 0, "B2-out")
    catch("no explorer to divine", play, s, 0, "C3=2")
    catch("cultivated peek", lambda: play(_with_cubes(fixed()), 0, "peek:A3"))
    put(s, 1, "A1")
    catch("occupied", play, s, 0, "+A1")
    s.cubes[0] = [2, 1, 0, 0]
    catch("cubes not held", play, s, 0, "MF>S")
    full = fixed()
    put(full, 0, "A1", "A2", "A5", "E1", "E5")
    catch("no reserve", play, full, 0, "+B1")
    discover(full, "B1")
    catch("cannot reach", play, full, 0, "A1-C1")
    catch("cultivated divine", play, full, 0, "A3=1")
    hemmed = fixed()
    put(hemmed, 0, "A1")
    put(hemmed, 1, "A2", "B1")
    discover(hemmed, "A1", "A2", "B1")
    catch("hemmed in", play, hemmed, 0, "A1-B2")
    peeked = _with_cubes(fixed())
    peeked, _ = play(peeked, 0, "peek:C2")
    peeked.turn, peeked.cubes[0] = 0, [1, 1, 1, 1]
    catch("second peek", play, peeked, 0, "peek:C2")
    divining = fixed()
    divining.phase = DIVINING
    catch("action while divining", play, divining, 0, "+A1")
    catch("pass while divining", play, divining, 0, "pass")
    final = fixed()
    final.phase = FINAL
    catch("action in the final round", play, final, 0, "+A1")
    catch("done in the final round", play, final, 0, "done")
    catch("extra in the final round", play, final, 0, "extra")
    over = fixed()
    over.phase = "over"
    catch("game over", play, over, 0, "+A1")
    catch("not a move", T.apply_move, fixed(), 0, "+A1")
    catch("five players", T.Config(players=5).validate)
    catch("short for three", T.Config(players=3, board=BoardSize.SHORT).validate)
    catch("not a board", T.Config(players=2, board="huge").validate)  # type: ignore[arg-type]
    catch("seats", T.new_game, T.Config(players=2), 3, 1)
    catch("schema", T.from_dict, {"schema": 99})
    return found


def _with_cubes(s: T.State) -> T.State:
    s.cubes[0] = [1, 1, 1, 1]
    return s


def test_every_refusal_is_a_kept_sentence_with_its_values():
    found = _refusals()
    assert len(found) == 33
    for what, exc in found:
        assert exc.said.in_words() == str(exc), what
        assert values_match(exc.said), (what, exc.said)
        text = spanish_ok(exc.said)
        assert text != str(exc), (what, text)
    by_kind = {type(exc) for _, exc in found}
    assert {MalformedMove, NotYourTurn, IllegalMove, GameOver, SetupError} <= by_kind
    with_values = [what for what, exc in found if exc.said.args]
    assert len(with_values) >= 20


def _refusal(what: str) -> MoveError | SetupError:
    return dict(_refusals())[what]


@pytest.mark.parametrize(
    ("what", "english", "spanish"),
    [
        ("not notation", '"hello" is not a Tiwanaku move;', '"hello" no es una jugada de Tiwanaku;'),
        ("crop 6", '"C3=6": a crop is 1 to 5', '"C3=6": un cultivo va de 1 a 5'),
        (
            "cell off every board",
            '"+F1": cells are rows A-E and columns 1-5 (short board) or 1-9 (long board), like C3',
            '"+F1": las casillas van de la fila A a la E y de la columna 1 a la 5 (tablero corto) o a la 9',
        ),
        (
            "wrong seat",
            "it is {p0}'s turn, not yours",
            "es el turno de {p0}, no el tuyo",
        ),
        (
            "cubes not held",
            "you hold two swamp cubes and a desert cube; you cannot give a mountain cube and a forest cube",
            "tienes dos cubos de pantano y un cubo de desierto; no puedes dar un cubo de montaña y un cubo de bosque",
        ),
        (
            "no offering",
            "you hold no cubes",
            "una ofrenda necesita un cubo de cada terreno (pantano, desierto, montaña y bosque); no tienes ningún cubo, "
            "y detener un explorador en una casilla oculta te da un cubo de su terreno",
        ),
        (
            "no cubes to trade",
            "you hold no cubes, so you cannot give a swamp cube and a desert cube; stopping an explorer on a "
            "hidden space gives you a cube of its terrain",
            "no tienes ningún cubo, así que no puedes dar un cubo de pantano y un cubo de desierto; detener un "
            "explorador en una casilla oculta te da un cubo de su terreno",
        ),
        (
            "occupied",
            "A1 is occupied; you may enter",
            "A1 está ocupada; puedes entrar por las casillas libres",
        ),
        (
            "no explorer to divine",
            "you cannot divine on C3: none of your explorers stands on a discovered tile without a crop",
            "no puedes adivinar en C3: ninguno de tus exploradores está en una loseta descubierta sin cultivo",
        ),
        (
            "no explorer to move",
            "you have no explorer on B2, nor anywhere on the board; bring one in on a free edge cell, like +A1",
            "no tienes ningún explorador en B2 ni en ninguna otra casilla del tablero; mete uno por una "
            "casilla libre del borde, como +A1",
        ),
        (
            "hemmed in",
            "the explorer on A1 is hemmed in and cannot move; take it off the board (A1-out)",
            "el explorador de A1 está encerrado y no puede moverse; sácalo del tablero (A1-out)",
        ),
        (
            "cannot reach",
            "the explorer on A1 cannot stop on C1; it can reach A3, A4, B1, B2, B3, B4, B5",
            "el explorador de A1 no puede detenerse en C1; puede llegar a: A3, A4, B1, B2, B3, B4, B5",
        ),
        (
            "off the board",
            "A7 is off the board",
            "A7 está fuera del tablero; las filas son A-E y las columnas 1-5",
        ),
        ("second peek", "you have already looked at C2", "ya consultaste C2"),
        ("game over", "the game is over", "la partida ha terminado"),
        (
            "seats",
            "the config is for 2 players but 3 seats were given",
            "es para 2 jugadores, pero se dieron 3",
        ),
        (
            "five players",
            "Tiwanaku takes 1 to 4 players, not 5",
            "Tiwanaku se juega con 1 a 4 jugadores, no con 5",
        ),
    ],
)
def test_a_refusal_in_english_and_in_spanish(what, english, spanish):
    exc = _refusal(what)
    assert english in str(exc)
    assert spanish in exc.said.in_words(ES)


# ------------------------------------------------------------------ events in Spanish


def test_an_exploration_and_a_move_in_spanish():
    s = fixed()
    s2, ev = play(s, 0, "+A1")  # A1 is forest on the fixed map
    (e,) = ev
    assert e.text == "{p0} enters on A1 and discovers forest and takes a forest cube"
    assert e.said.in_words(ES) == "{p0} entra en A1, descubre una loseta de bosque y toma un cubo de bosque"
    s2.turn = 0
    discover(s2, "A2")
    _, ev = play(s2, 0, "A1-A2")
    assert ev[0].said.in_words(ES) == "{p0} se mueve de A1 a A2"


def test_a_fifth_cube_in_spanish_names_the_count():
    s = fixed()
    s.cubes[1] = [1, 1, 1, 1]
    s.turn = 1
    _, ev = play(s, 1, "+A1")
    assert (
        ev[0].text
        == "{p1} enters on A1 and discovers forest; already holding 4 cubes, the forest cube is not taken"
    )
    assert ev[0].said.in_words(ES) == (
        "{p1} entra en A1 y descubre una loseta de bosque; como ya tiene 4 cubos, no toma el cubo de bosque"
    )


def test_divinations_in_spanish_with_their_points():
    s = fixed()
    discover(s, "C2", "C3")
    put(s, 0, "C2", "C3")
    s2, ev = play(s, 0, "C2=3")
    assert ev[0].said.in_words(ES) == "{p0} acierta el cultivo 3 en C2: 3 puntos y 1 por diversidad"
    _, ev = play(s2, 0, "C3=2")
    assert ev[0].said.in_words(ES) == (
        "{p0} propone el 2 en C3, pero el disco muestra 1: se planta el 1 y {p0} pierde 1 punto"
    )


def test_a_trade_a_peek_and_an_offering_in_spanish():
    s = fixed()
    s.cubes[0] = [2, 1, 1, 1]
    s2, ev = play(s, 0, "SS>M")
    assert ev[0].said.in_words(ES) == "{p0} cambia dos cubos de pantano por un cubo de montaña"
    s3, ev = play(s, 0, "peek:C2")
    (peek,) = ev
    assert peek.words_for(0, ES) == "{p0} hace una ofrenda y ve en el disco que C2 es de desierto"
    assert peek.words_for(1, ES) == "{p0} hace una ofrenda a la Pachamama y consulta el disco en secreto"
    assert peek.words_for(None, ES) == peek.words_for(1, ES)
    s.cubes[0] = [1, 1, 1, 1]
    _, ev = play(s, 0, "extra")
    assert ev[0].said.in_words(ES) == "{p0} hace una ofrenda a la Pachamama a cambio de una acción adicional"


def test_the_final_round_and_the_end_in_spanish():
    s = fixed()
    s.discovered = [True] * 25
    s.discovered[cell("E5")] = False
    put(s, 0, "D2")
    s.cubes[0] = [1, 1, 0, 0]
    s.turn = 1
    s2, ev = play(s, 1, "+E5")
    (final,) = [e for e in ev if e.kind == "final"]
    assert final.said.in_words(ES).startswith(
        "Toda la tierra está descubierta. Adivinaciones finales: empezando por {p1}, cada quien"
    )
    s2, _ = play(s2, 1, "pass")
    s3, ev = play(s2, 0, "pass")
    assert [e.said.in_words(ES) for e in ev] == [
        "{p0} pasa y sale de las adivinaciones finales",
        "{p0} gana 2 puntos por los cubos de ofrenda que le quedan",
        "{p1} gana 1 punto por el cubo de ofrenda que le queda",
        "La partida ha terminado. Puntos finales: {p0} 2, {p1} 1.",
    ]
    out = T.outcome(s3)
    assert out is not None
    assert out.reason_in(ES) == "se descubrió toda la tierra y terminaron las adivinaciones finales"
    assert out.tiebreak is None and out.tiebreak_in(ES) is None
    assert type(out).from_dict(out.to_dict()) == out


def test_the_tiebreak_in_spanish():
    s = fixed()
    s.phase, s.scores, s.correct = "over", [4, 4], [2, 1]
    out = T.outcome(s)
    assert out is not None and out.ranking == ((0,), (1,))
    assert out.tiebreak == "more correct divinations ({p0} 2, {p1} 1)"
    assert out.tiebreak_in(ES) == "más adivinaciones acertadas ({p0} 2, {p1} 1)"


# ------------------------------------------------------------------ summary, words, help


def test_the_summary_in_spanish():
    s = fixed()
    s.cubes[0] = [2, 1, 1, 1]
    s2, _ = play(s, 0, "peek:C2")
    summary = T.summary(T.view_for(s2, 0))
    assert isinstance(summary, Said)
    assert summary.in_words(ES) == (
        "Tú: puntos 0; cubos: pantano 1; exploradores fuera del tablero: 5\n"
        "Lo que viste en el disco: C2 desierto"
    )
    s.cubes[0] = [0, 2, 0, 3]
    assert T.summary(T.view_for(s, 0)).in_words(ES) == (
        "Tú: puntos 0; cubos: desierto 2, bosque 3; exploradores fuera del tablero: 5"
    )
    s.cubes[0] = [0, 0, 0, 0]
    assert str(T.summary(T.view_for(s, 0))) == "You: score 0; cubes: none; explorers off the board: 5"
    assert T.summary(T.view_for(s, 0)).in_words(ES) == (
        "Tú: puntos 0; cubos: ninguno; exploradores fuera del tablero: 5"
    )


def test_move_labels_in_spanish():
    s = fixed()
    s.cubes[0] = [0, 2, 0, 0]
    trade = T.move_words(s, 0, T.parse_move("DD>M"))
    assert trade.label(T.WORDS) == "trade two desert cubes for a mountain cube"
    assert trade.label(T.WORDS, ES) == "cambiar dos cubos de desierto por un cubo de montaña"
    put(s, 0, "A1")
    discover(s, "A1")
    assert T.move_words(s, 0, T.parse_move("A1-A2")).full(T.WORDS, ES) == "Explorador en A1: explorar A2"
    assert T.move_words(s, 0, T.parse_move("A1=2")).full(T.WORDS, ES) == "Adivinar en A1: cultivo 2"
    for key, english in T.WORDS.items():
        assert ES.has(english) and ES.gettext(english) != english, key


def test_the_rules_help_and_option_help_in_spanish():
    spanish = ES.gettext(T.RULES_HELP)
    assert spanish != T.RULES_HELP and len(spanish) <= 1800
    for notation in (
        "`+A1`",
        "`B3-C3`",
        "`B3-out`",
        "`C3=2`",
        "`done`",
        "`pass`",
        "`SD>M`",
        "`peek:C4`",
        "`extra`",
    ):
        assert notation in T.RULES_HELP and notation in spanish
    assert "pantano, desierto, montaña o bosque" in spanish and "ofrenda" in spanish
    # an explorer's path, said in full (it read "nunca sobre ajenos")
    assert "(o más, saltando tus exploradores y losetas cultivadas, nunca los de otra persona)" in spanish
    (board,) = [f for f in dataclasses.fields(T.Config) if f.name == "board"]
    assert ES.gettext(board.metadata["help"]).startswith("short: 5 x 5 (solo para 1-2 jugadores)")


def test_the_rules_help_says_what_the_final_round_allows():
    """The ruling: in the final divinations a player may still trade cubes and make an offering
    for a peek, but not one for an extra action.  The help's line on trades and offerings says
    so, in English and in Spanish."""
    for text, final, not_final in (
        (
            T.RULES_HELP,
            "on your turn in the final round",
            "`extra` buys another action (not in the final round)",
        ),
        (ES.gettext(T.RULES_HELP), "en la ronda final", "`extra` te da otra acción (no en la ronda final)"),
    ):
        (line,) = [row for row in text.splitlines() if "`SD>M`" in row]
        before_trades = line.split("`SD>M`")[0]
        assert final in before_trades and "`peek:C4`" in line and not_final in line, line


def test_a_sentence_keeps_its_terms_through_storage():
    s = fixed()
    s.cubes[0] = [2, 0, 0, 0]
    _, ev = play(s, 0, "SS>F")
    back = Event.from_dict(ev[0].to_dict())
    assert back == ev[0] and back.said is not None
    assert back.said.in_words(ES) == "{p0} cambia dos cubos de pantano por un cubo de bosque"
    terrain = back.said.args["terrain"]
    assert isinstance(terrain, Said) and terrain.context == "tiwanaku term" and terrain.msg == "forest"


@pytest.mark.parametrize(
    ("counts", "english", "spanish"),
    [
        ([0, 0, 0, 0], "no cubes", "ningún cubo"),
        ([1, 0, 0, 0], "a swamp cube", "un cubo de pantano"),
        ([0, 2, 0, 1], "two desert cubes and a forest cube", "dos cubos de desierto y un cubo de bosque"),
        ([3, 0, 1, 0], "three swamp cubes and a mountain cube", "tres cubos de pantano y un cubo de montaña"),
        ([0, 0, 0, 4], "four forest cubes", "cuatro cubos de bosque"),
        (
            [1, 1, 1, 1],
            "a swamp cube, a desert cube, a mountain cube and a forest cube",
            "un cubo de pantano, un cubo de desierto, un cubo de montaña y un cubo de bosque",
        ),
        ([0, 0, 5, 0], "5 mountain cubes", "5 cubos de montaña"),
    ],
)
def test_cubes_in_words(counts, english, spanish):
    """Cubes as players read them: counted in words up to four (a hand never holds more), in a
    list that ends with "and"."""
    from engines.tiwanaku.rules import cube_words

    words = cube_words(counts)
    assert words.in_words() == english
    assert spanish_ok(words) == spanish


def test_a_refusal_for_cubes_not_held_says_how_cubes_are_had():
    """Trading or offering with no cube said only "you hold no cubes"; the rulebook gives a cube
    for each terrain discovered ("el jugador toma un cubo de ofrenda correspondiente a la Loseta
    de Tierra que acaba de descubrir"), and the refusal says so in both languages."""
    s = fixed()
    s.cubes[0] = [0, 0, 0, 0]
    for text in ("SD>M", "extra"):
        with pytest.raises(IllegalMove) as caught:
            play(s, 0, text)
        assert "stopping an explorer on a hidden space gives you a cube of its terrain" in str(caught.value)
        assert "detener un explorador en una casilla oculta te da un cubo de su terreno" in spanish_ok(
            caught.value.said
        )
