"""The terminal table in Spanish (``--language es``): its own words, and what the engines say where
their sentences are kept for translation (the English text where they are not yet)."""

from __future__ import annotations

import io

import pytest

import engines
from bot.terminal import main as local_main
from bot.terminal.prompt import moves_text, print_outcome
from engines.core import Event, IllegalMove, MoveError, Outcome, said
from languages import ENGLISH, language

ES = language("es")


def run(argv, typed: str = ""):
    out, err = io.StringIO(), io.StringIO()
    code = local_main(argv, io.StringIO(typed), out, err)
    return code, out.getvalue(), err.getvalue()


def test_the_tables_own_words_in_spanish_and_in_english():
    argv = [
        "guacamole",
        "--players",
        "2",
        "--computer",
        "2",
        "--seed",
        "1",
        "--no-images",
        "--max-moves",
        "3",
    ]
    code, out, err = run([*argv, "--language", "es"])
    assert code == 0 and not err
    assert out.startswith("Guacamole: 2 jugadores, semilla 1, opciones estándar\n")
    assert "P1 (máquina, normal): " in out and out.endswith("detenida tras 3 jugadas\n")
    code, english, err = run(argv)
    assert english.startswith("Guacamole: 2 players, seed 1, options standard\n")
    assert "P1 (cpu, normal): " in english and english.endswith("stopped after 3 moves\n")


@pytest.mark.parametrize(
    ("argv", "spanish", "english"),
    [
        (
            ["--players", "2", "--computer", "3"],
            "--computer debe ir de 0 a 2 (el número de asientos), no 3",
            "--computer must be from 0 to 2 (the number of seats), not 3",
        ),
        (
            ["--computer", "1", "--computer-seconds", "90"],
            "--computer-seconds debe ir de 0.01 a 60, no 90.0",
            "--computer-seconds must be from 0.01 to 60, not 90.0",
        ),
        (
            ["--option", "edition"],
            "--option se escribe NOMBRE=VALOR, no 'edition'",
            "--option takes NAME=VALUE, not 'edition'",
        ),
    ],
    ids=["computers", "seconds", "option"],
)
def test_a_refused_argument_is_told_in_the_tables_language(argv, spanish, english):
    """Arguments that set up no game are refused in one line of ``--language``, before any play."""
    for words, extra in ((spanish, ["--language", "es"]), (english, [])):
        code, out, err = run(["guacamole", "--no-images", *argv, *extra])
        assert code == 2 and not out
        assert err.strip().splitlines() == [f"python -m bot.terminal: {words}"], err


def test_a_person_at_the_spanish_table_lists_moves_and_is_refused_in_the_engines_words():
    code, out, err = run(
        ["guacamole", "--players", "2", "--no-images", "--language", "es"],
        "moves\nmoves zz\nnot-a-move\nquit\n",
    )
    assert code == 0 and not err
    assert "turno de P1> " in out and "jugadas legales:" in out
    assert "ninguna jugada legal empieza por 'zz'" in out
    # The refusal is the engine's: in Spanish once its sentence is kept, else its English text.
    module = engines.get("guacamole").load()
    with pytest.raises(MoveError) as refused:
        module.parse_move("not-a-move")
    assert f"  {refused.value.said.in_words(ES)}\n" in out


def test_engine_sentences_are_put_in_the_tables_language(monkeypatch):
    """An event kept as a sentence (here one whose message the catalogue knows) is printed in the
    table's language, seats named; a plain English event line is printed as it is."""
    module = engines.get("guacamole").load()
    original = module.apply_move

    def apply_move(state, seat, move):
        state, events = original(state, seat, move)
        told = Event.told(said("{person} answered: {decided}.", person="{p0}", decided="5T"))
        return state, [told, Event(text="{p0} hums in English"), *events]

    monkeypatch.setattr(module, "apply_move", apply_move)
    argv = ["guacamole", "--players", "2", "--computer", "2", "--no-images", "--max-moves", "1"]
    code, out, err = run([*argv, "--language", "es"])
    assert (
        code == 0
        and "  P1 (máquina, normal) respondió: 5T.\n" in out
        and "P1 (máquina, normal) hums in English" in out
    )
    code, out, err = run(argv)
    assert code == 0 and "  P1 (cpu, normal) answered: 5T.\n" in out


def test_the_outcome_in_spanish():
    outcome = Outcome.told((3.0, 1.0, 2.5), ((0,), (2,), (1,)), said("the game is abandoned"), said("nobody"))
    out = io.StringIO()
    print_outcome(outcome, ["Ana", "Beto", "Cusi"], out, ES)
    assert out.getvalue().splitlines() == [
        "Fin de la partida: la partida queda abandonada",
        "  1. Ana: 3 puntos",
        "  2. Cusi: 2,5 puntos",
        "  3. Beto: 1 punto",
        "  desempate: nadie",
    ]
    out = io.StringIO()
    print_outcome(outcome, ["Ana", "Beto", "Cusi"], out, ENGLISH)
    assert out.getvalue().splitlines()[0] == "Game over: the game is abandoned"
    assert "  3. Beto: 1 point" in out.getvalue().splitlines()


def test_a_tiebreak_that_names_players_is_printed_with_their_names():
    """Guanga's tiebreak says each tied player's negative points: the players are named, never
    written ``{p1}``."""
    tiebreak = said("fewer negative points ({points})", points="{p1} -16, {p0} -24")
    outcome = Outcome.told((24.0, 24.0), ((1,), (0,)), said("nobody"), tiebreak)
    out = io.StringIO()
    print_outcome(outcome, ["Ana", "Beto"], out, ES)
    assert out.getvalue().splitlines()[-1] == "  desempate: menos puntos negativos (Beto -16, Ana -24)"


def test_moves_text_in_spanish_counts_in_spanish():
    module = engines.get("guacamole").load()
    state = module.new_game(module.Config(), 2, 1)
    legal = list(module.legal_moves(state, 0))
    text = moves_text(module, state, 0, legal, "", ES)
    assert text.splitlines()[0] == f"  {len(legal)} jugadas legales:"
    assert moves_text(module, state, 0, legal, "zz", ES) == "  ninguna jugada legal empieza por 'zz'"


def test_the_rules_help_in_the_tables_language():
    module = engines.get("tiwanaku").load()
    code, out, err = run(["tiwanaku", "--players", "2", "--no-images", "--language", "es"], "help\nquit\n")
    assert code == 0 and not err
    spanish = ES.gettext(module.RULES_HELP)
    assert spanish != module.RULES_HELP and spanish.splitlines()[-1].replace("*", "") in out
    code, out, err = run(["tiwanaku", "--players", "2", "--no-images"], "help\nquit\n")
    assert module.RULES_HELP.splitlines()[-1].replace("*", "") in out


def test_a_refusal_that_speaks_of_another_player_names_them(monkeypatch):
    """An engine refusal about another seat (``{p1}``'s zone) is printed with that player's name,
    in the table's language, not as ``{p1}`` or "player 2"."""
    module = engines.get("guacamole").load()

    def apply_move(state, seat, move):
        raise IllegalMove(
            "{player}'s preparation zone has no {card} (it holds {cards}); visible cards are: {places}",
            player="{p1}",
            card="6T",
            cards="4O",
            places="p2z4O",
        )

    monkeypatch.setattr(module, "apply_move", apply_move)
    argv = ["guacamole", "--players", "2", "--seed", "3", "--no-images"]
    code, out, err = run([*argv, "--language", "es"], "prep 2O\nquit\n")
    assert code == 0 and "  la zona de preparación de P2 no tiene 6T (tiene: 4O)" in out, out
    assert "{p1}" not in out
    code, out, err = run(argv, "prep 2O\nquit\n")
    assert code == 0 and "  P2's preparation zone has no 6T (it holds 4O)" in out, out


def test_a_file_that_cannot_be_replayed_is_refused_in_the_tables_language(tmp_path):
    """``--replay`` of a file that is missing, or holds no export, is refused in one line of
    ``--language`` (what the system or the export's check said, as they said it)."""
    missing, other = tmp_path / "missing.json", tmp_path / "other.json"
    other.write_text('{"hello": 1}')
    for path, spanish, english in (
        (missing, f"no se puede leer {missing}: ", f"cannot read {missing}: "),
        (other, f"{other} no se puede reproducir: ", f"{other} cannot be replayed: "),
    ):
        for words, extra in ((spanish, ["--language", "es"]), (english, [])):
            code, out, err = run(["--replay", str(path), *extra])
            assert code == 2 and not out
            [line] = err.strip().splitlines()
            assert line.startswith(f"python -m bot.terminal: {words}"), err
