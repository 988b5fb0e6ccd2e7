"""The terminal table run for real: its exports and the sample ones in examples/, stepping through a
replay, the seed, the words at the prompt, the language, line editing, a closed pipe, an unwritable
--out, the thinking notice, and Guanga's options and boards."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import bot.terminal.prompt as local
import engines
from bot import export
from bot.terminal import main as local_main
from bot.terminal.prompt import with_notice
from tests.table.test_history import GAMES

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def run(argv, typed: str = "", **kwargs):
    out, err = io.StringIO(), io.StringIO()
    code = local_main(argv, io.StringIO(typed), out, err, **kwargs)
    return code, out.getvalue(), err.getvalue()


# ------------------------------------------------------------------ exports and examples


def test_a_finished_game_writes_its_export_which_replays(tmp_path):
    """Two computers play Tiwanaku to the end: the export is written beside the boards, replays to
    the same result, and keeps each peek (secret for good) as its mask with no notation."""
    argv = ["tiwanaku", "--computer", "2", "--seed", "3", "--no-images", "--out", str(tmp_path)]
    code, out, err = run(argv)
    assert code == 0 and not err
    path = tmp_path / "tiwanaku-seed3" / "tiwanaku-seed3.json"
    assert f"The game's export (replay it with --replay): {path}" in out
    data = export.load(path.read_bytes())
    assert data["status"] == "finished" and data["seed"] == 3 and len(data["players"]) == 2
    peeks = [m for m in data["moves"] if m.get("secret")]
    assert peeks and all(m["move"] is None and m["secret"] == "peek" for m in peeks)
    assert "view" in data["moves"][-1] and "after" not in data["moves"][-1]
    steps = list(export.replay(data))
    assert len(steps) == len(data["moves"]) and data["rules_outcome"] == data["result"]
    code, replayed, err = run(["--replay", str(path), "--no-images"])
    assert code == 0 and not err and "agrees with the export" in replayed
    assert out.split("Game over")[1].split("The game's")[0] in replayed


def test_no_export_and_an_unfinished_game_write_none(tmp_path):
    argv = ["guacamole", "--computer", "2", "--seed", "3", "--no-images", "--out", str(tmp_path)]
    assert run([*argv, "--no-export"])[0] == 0
    assert run([*argv, "--max-moves", "5"])[0] == 0
    assert not list(tmp_path.rglob("*.json"))


@pytest.mark.parametrize("game", GAMES)
def test_each_example_replays_to_its_recorded_result(game):
    """examples/<game>.json: a finished two-player game that replays, move by move, to its result."""
    data = export.load((EXAMPLES / f"{game}.json").read_bytes())
    assert data["game"] == game and len(data["players"]) == 2 and data["status"] == "finished"
    steps = list(export.replay(data))  # checks every move, every digest and the rules' result
    module = engines.get(game).load()
    assert module.outcome(steps[-1].state).to_dict() == data["rules_outcome"] == data["result"]
    code, out, err = run(["--replay", str(EXAMPLES / f"{game}.json"), "--no-images"])
    assert code == 0 and not err and "Game over" in out and "agrees with the export" in out


def test_the_examples_are_what_the_generator_writes(tmp_path):
    """examples/make.py writes each file as it is (rerun it when the rules or computers change)."""
    sys.path.insert(0, str(EXAMPLES))
    try:
        import make  # type: ignore[import-not-found]  # examples/ is not a package
    finally:
        sys.path.remove(str(EXAMPLES))
    assert sorted(p.stem for p in EXAMPLES.glob("*.json")) == sorted(GAMES)
    for game in GAMES:
        assert make.make(game, tmp_path).read_bytes() == (EXAMPLES / f"{game}.json").read_bytes(), game


# ------------------------------------------------------------------ stepping through a replay


def test_replay_steps_move_by_move_jumps_and_stops():
    """--step: Enter shows the next move, a number goes forward or back to that move, a number out
    of range is refused, q stops."""
    path = str(EXAMPLES / "guanga.json")
    total = len(json.loads(Path(path).read_text())["moves"])
    code, out, err = run(["--replay", path, "--step", "--no-images"], "\n\n7\n2\n999\nq\n")
    assert code == 0 and not err
    shown = re.findall(r"(?:^|stop> )(\d+)\. ", out, re.M)
    assert shown == ["1", "2", "3", "7", "2"]
    assert f"there is no move 999; the moves are 1 to {total}" in out
    assert out.rstrip().endswith(f"replay stopped at move 2 of {total}")
    assert out.count(f"go to that move (1 to {total}); q: stop>") == 6


def test_replay_steps_to_the_end_with_boards(tmp_path):
    path = str(EXAMPLES / "tiwanaku.json")
    total = len(json.loads(Path(path).read_text())["moves"])
    code, out, _ = run(["--replay", path, "--step", "--out", str(tmp_path)], f"{total}\n")
    assert code == 0 and "agrees with the export" in out
    boards = sorted(p.name for p in tmp_path.rglob("move-*.png"))
    assert boards == ["move-0001.png", f"move-{total:04d}.png"]


def test_step_is_for_replays():
    code, out, err = run(["guacamole", "--step"])
    assert code == 2 and not out and err == "python -m bot.terminal: --step is for --replay FILE\n"


# ------------------------------------------------------------------ seed, words, language


def test_the_seed_is_random_by_default_and_printed(monkeypatch, tmp_path):
    assert len({local.random_seed() for _ in range(20)}) > 1
    monkeypatch.setattr(local, "random_seed", lambda: 4242)
    code, out, _ = run(["guacamole", "--computer", "2", "--max-moves", "2", "--out", str(tmp_path)])
    assert code == 0 and out.startswith("Guacamole: 2 players, seed 4242, options standard\n")
    assert (tmp_path / "guacamole-seed4242" / "turn-0000.png").exists()


def test_the_words_are_named_at_the_first_prompt_and_after_an_unknown_word():
    hint = (
        "Type a move, or moves (the legal moves), view (your picture), describe (the board in words), "
        "help (the rules), quit (stop)."
    )
    code, out, _ = run(["guacamole", "--no-images"], "moves\nfrobnicate\nquit\n")
    assert code == 0
    assert out.count(hint) == 2
    assert out.index(hint) < out.index("P1 to play>")
    after = out.split("P1 to play>")[2]
    assert hint in after
    code, out, _ = run(["nowa_gwinea", "--players", "1"], "quit\n")
    assert "huts (the hut chart)" in out


def test_enter_alone_plays_the_only_legal_move_and_lists_them_when_there_are_several(tmp_path):
    """P'achakuna, seed 1, typed on the table's standard input: at the start of P1's turn many moves
    are legal, so an empty line lists them and plays nothing; after a tile turned and a llama
    moved, ending the turn is the only move, which the prompt offers and Enter alone plays.  The
    hint says so."""
    typed = "\nr12+0\nm1-45\n\nquit\n"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = [sys.executable, "-m", "bot.terminal", "pachakuna", "--seed", "1", "--no-images", "--no-export"]
    result = subprocess.run(argv, input=typed, capture_output=True, text=True, env=env, cwd=tmp_path)
    out = result.stdout
    assert result.returncode == 0 and not result.stderr, result.stderr
    assert "quit (stop). When only one move is legal, Enter alone plays it.\n" in out
    listed = out.split("P1 to play> ")[1]
    assert listed.startswith("  Several moves are legal: type the one you choose.\n  335 legal moves:\n")
    assert "End the turn (1): end" in listed
    assert "P1: r12+0" not in listed  # the empty line played nothing
    assert "P1 to play (Enter: end)> P1: end\n  P1 ended the turn\n" in out
    assert out.rstrip().endswith("P2 to play>")  # P2's turn came, and quit stopped the game there
    # The same in Spanish, through the same loop.
    code, out, err = run(["pachakuna", "--seed", "1", "--no-images", "--language", "es"], typed)
    assert code == 0 and not err
    assert "Si solo hay una jugada legal, Intro sin escribir nada la juega." in out
    assert "Hay varias jugadas legales: escribe la que elijas." in out
    assert "turno de P1 (Intro: end)> P1: end" in out


def test_the_words_in_the_games_language():
    """Spanish: the hint names jugadas, ver, ayuda, salir, and those words work (English too)."""
    code, out, err = run(
        ["guacamole", "--no-images", "--language", "es"], "JUGADAS\nayuda\nmoves\nfoo\nsalir\n"
    )
    assert code == 0 and not err
    hint = (
        "Escribe una jugada, o jugadas (las jugadas legales), ver (tu imagen), describir (el tablero en "
        "palabras), ayuda (las reglas), salir (terminar)."
    )
    assert out.count(hint) == 2
    assert out.count("jugadas legales:") == 2
    assert out.rstrip().endswith("turno de P1>")  # salir stopped the game at once


@pytest.mark.parametrize("code", ["xx", "klingon", "fr-FR"])
def test_an_unknown_language_is_refused_in_one_line(code):
    status, out, err = run(["guacamole", "--language", code])
    assert status == 2 and not out
    assert err == f"python -m bot.terminal: no language called {code!r}; the languages are: en, es\n"
    status, out, err = run(["--replay", str(EXAMPLES / "nowa_gwinea.json"), "--language", code])
    assert status == 2 and not out and err.count("\n") == 1


@pytest.mark.parametrize("code", ["en", "es", "es-ES", "ES"])
def test_known_languages_are_accepted(code):
    status, _, err = run(
        ["guacamole", "--computer", "2", "--max-moves", "1", "--no-images", "--language", code]
    )
    assert status == 0 and not err


# ------------------------------------------------------------------ the terminal and its output


def test_line_editing_only_on_a_terminal():
    """readline is imported for a terminal (a pseudo-terminal here), never for piped input."""
    probe = (
        "import io, sys; from bot.terminal.prompt import line_editing; "
        "print(line_editing(io.StringIO()), 'readline' in sys.modules)"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True
    )
    assert result.stdout == "False False\n"
    leader, follower = os.openpty()
    try:
        with open(follower, closefd=False) as terminal:
            assert local.line_editing(terminal) is True
        assert "readline" in sys.modules
    finally:
        os.close(leader)
        os.close(follower)


def test_output_piped_into_head_ends_in_one_line(tmp_path):
    """A real pipe into ``head -1``: the first line, then one line on stderr and status 1."""
    command = (
        f"{sys.executable} -m bot.terminal pachakuna --seed 1 --no-images --no-export | head -1; "
        "exit ${PIPESTATUS[0]}"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        ["bash", "-c", command],
        input="moves\n" * 3000,  # far more output than a pipe holds
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert result.stdout == "P'achakuna: 2 players, seed 1, options standard\n"
    assert result.returncode == 1
    assert result.stderr == (
        "python -m bot.terminal: the output was closed before the end (piped into head?)\n"
    ), result.stderr


def test_out_naming_a_file_is_refused_in_one_line(tmp_path):
    taken = tmp_path / "taken"
    taken.write_text("not a folder")
    for argv in (
        ["guacamole", "--computer", "2", "--max-moves", "1", "--out", str(taken)],
        ["guacamole", "--computer", "2", "--no-images", "--out", str(taken)],
        ["--replay", str(EXAMPLES / "guanga.json"), "--out", str(taken)],
    ):
        code, out, err = run(argv)
        assert code == 2 and err.count("\n") == 1, err
        assert (
            err.startswith(f"python -m bot.terminal: cannot write into {taken}/") and "Traceback" not in err
        )
    assert taken.read_text() == "not a folder"


# ------------------------------------------------------------------ thinking...


def test_the_notice_comes_only_when_the_computer_is_slower_than_the_threshold():
    said: list[str] = []
    # Quick: done long before the threshold, so no notice.
    assert with_notice(lambda: 7, 60.0, lambda: said.append("thinking")) == 7
    assert said == []
    # Slow: the computation waits for the notice, so it cannot end before the threshold passes.
    noticed = threading.Event()

    def slow():
        assert noticed.wait(60)
        return 8

    assert with_notice(slow, 0.0, lambda: (said.append("thinking"), noticed.set())) == 8
    assert said == ["thinking"]
    with pytest.raises(ZeroDivisionError):
        with_notice(lambda: 1 / 0, 60.0, lambda: None)


def test_the_table_says_a_slow_computer_is_thinking(monkeypatch):
    """A computer that takes longer than the threshold: "P2 (cpu, normal) is thinking..." first."""
    module = engines.get("guacamole").load()
    original = module.computer_move
    noticed = threading.Event()

    class Out(io.StringIO):
        def write(self, text):
            if "is thinking..." in text:
                noticed.set()
            return super().write(text)

    def slow(*args):
        assert noticed.wait(60)
        return original(*args)

    monkeypatch.setattr(module, "computer_move", slow)
    out, err = Out(), io.StringIO()
    code = local_main(
        ["guacamole", "--computer", "2", "--max-moves", "1", "--no-images", "--seed", "1"],
        io.StringIO(),
        out,
        err,
        thinking_after=0.0,
    )
    text = out.getvalue()
    assert code == 0 and text.splitlines()[1] == "  P1 (cpu, normal) is thinking..."
    code, quick, _ = run(["guacamole", "--computer", "2", "--max-moves", "3", "--no-images"])
    assert "thinking" not in quick


# ------------------------------------------------------------------ Guanga


def test_guanga_options_in_words_and_a_board_after_the_order_phase(tmp_path):
    """The options read as words (not a dict), and once every order is kept the board is drawn
    again, though the same player is still to move."""
    from engines import guanga
    from engines.core import config_from_options

    config = config_from_options(guanga.Config, 2, {"mode": "apprentice"})
    keep = str(guanga.legal_moves(guanga.new_game(config, 2, 1), 0)[0])
    argv = ["guanga", "--computer", "1", "--seed", "1", "--option", "mode=apprentice", "--out", str(tmp_path)]
    code, out, _ = run(argv, f"{keep}\nquit\n")
    assert code == 0
    assert out.startswith("Guanga: Tejidos Andinos: 2 players, seed 1, options apprentice mode\n")
    after = out.split(f"P1: {keep}")[1]
    assert "Every order is chosen" in after and "board: " in after.split("P1 to play>")[0]


def test_a_replay_says_which_options_the_game_was_played_with(tmp_path):
    """A replay's second line names the variant, as the table's first line did: a Guanga game in
    master mode says so (in Spanish too), an example played with the defaults says "standard rules"."""
    code, out, err = run(
        ["guanga", "--players", "2", "--computer", "2", "--seed", "5", "--option", "mode=master", "--no-images",
         "--out", str(tmp_path)]
    )  # fmt: skip
    assert code == 0 and not err, err
    (path,) = tmp_path.rglob("*.json")
    code, replayed, err = run(["--replay", str(path), "--no-images"])
    assert code == 0 and not err and replayed.splitlines()[1] == "Options: master mode", replayed[:300]
    code, spanish, err = run(["--replay", str(path), "--no-images", "--language", "es"])
    assert spanish.splitlines()[1] == "Opciones: modo Maestra", spanish[:300]
    code, plain, err = run(["--replay", str(EXAMPLES / "pachakuna.json"), "--no-images"])
    assert plain.splitlines()[1] == "Options: standard rules", plain[:300]


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_guacamole_replay_names_the_cards_of_each_move_in_words(language):
    """Each replayed move's lines name Guacamole's cards in words, as the history does ("took 9
    Aji from discard pile 1", "tomó 9 Ají ..."); the notation before them keeps its codes."""
    path = str(EXAMPLES / "guacamole.json")
    code, out, err = run(["--replay", path, "--no-images", "--language", language])
    assert code == 0 and not err
    moves = re.findall(r"^\d+\. [^:]+: (\S+ ?\S*) \((.*)\)$", out, re.M)
    assert len(moves) > 50
    assert any(re.search(r"\b[1-9][PLOTA]\b", notation) for notation, _ in moves)
    coded = [words for _, words in moves if re.search(r"\b[1-9][PLOTA]\b", words)]
    assert not coded, coded[:3]
    assert any(("Aji" if language == "en" else "Ají") in words for _, words in moves)
