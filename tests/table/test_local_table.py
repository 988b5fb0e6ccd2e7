"""The terminal table as a newcomer meets it: arguments, meta-commands, texts and images."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image

import engines
from bot.terminal import main as local_main

ROOT = Path(__file__).resolve().parents[2]


def run(argv, typed: str = ""):
    out, err = io.StringIO(), io.StringIO()
    code = local_main(argv, io.StringIO(typed), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(("players", "expected"), [("0", "not 0"), ("-2", "not -2"), ("7", "not 7")])
def test_players_out_of_range_are_refused_naming_players(players, expected):
    """--players 0, -2 or too many: refused on stderr, naming --players and the range."""
    code, out, err = run(["guacamole", "--players", players, "--no-images"])
    assert code == 2 and not out
    assert (
        "--players must be from 2 to 6 for Guacamole" in err and expected in err and "--computer" not in err
    )


def test_a_game_for_one_count_of_players_says_exactly_that_in_the_tables_language():
    """P'achakuna is for 2: --players 3 is refused as "must be 2", not "from 2 to 2", in Spanish too."""
    code, out, err = run(["pachakuna", "--players", "3", "--no-images"])
    assert code == 2 and not out and "--players must be 2 for P'achakuna, not 3" in err
    code, out, err = run(["pachakuna", "--players", "3", "--no-images", "--language", "es"])
    assert code == 2 and not out and "--players debe ser 2 en P'achakuna, no 3" in err


@pytest.mark.parametrize(
    "name",
    [
        "Guacamole",
        "GUACAMOLE",
        "nowa-gwinea",
        "Nowa_Gwinea",
        "NOWA-GWINEA",
        "P'achakuna",
        "Guanga: Tejidos Andinos",
    ],
)
def test_game_names_in_any_case_with_dash_or_underscore(name):
    """A game's key in any case, with dashes, spaces or underscores; or its title as the table
    prints it (``P'achakuna``)."""
    code, out, err = run([name, "--players", "2", "--computer", "2", "--no-images", "--max-moves", "3"])
    assert code == 0 and not err and "stopped after 3 moves" in out


def test_help_lists_every_games_options(capsys):
    """--help names each game with its player range and options."""
    assert local_main(["--help"]) == 0
    text = capsys.readouterr().out
    for name, info in engines.available().items():
        assert f"{name}: {info.title}" in text
        for option in info.options():
            assert f"{option.name}=" in text
    assert "mode=beginner (beginner / apprentice / master / artisan)" in text
    # a game for exactly two says so, not "2-2 players"
    assert "pachakuna: P'achakuna, 2 players\n" in text and "2-2 players" not in text
    assert "guanga: Guanga: Tejidos Andinos, 1-4 players\n" in text


def test_meta_commands_ignore_case_and_help_is_plain_text():
    """MOVES, Help and QUIT work like moves, help and quit; help has no Discord markdown."""
    code, out, _ = run(["pachakuna", "--no-images"], "MOVES\nHelp\nQUIT\n")
    assert code == 0
    assert "legal moves:" in out
    rules = out[out.index("P'achakuna: collect") :]
    assert "**" not in rules and "`" not in rules
    assert "r34+2 turn tile 34" in rules


def test_moves_are_grouped_by_kind_with_counts():
    """P'achakuna's first moves, by kind in words: tile turns in groups with counts, the llama's
    moves and end one by one."""
    code, out, _ = run(["pachakuna", "--no-images"], "moves\nmoves r2\nmoves r23\nquit\n")
    assert code == 0
    listing = out[out.index("legal moves:") :]
    first = listing.split("P1 to play>")[0]
    assert re.search(r"Turn a tile \(\d+\): r1…\(\d+\), r2…\(\d+\)", first)
    assert re.search(r"Move a llama \(\d+\): m1-\d\d", first) and "End the turn (1): end" in first
    second = listing.split("P1 to play>")[1]
    assert "legal moves starting with r2:" in second and "r23+…(6)" in second and "m1" not in second
    third = listing.split("P1 to play>")[2]
    assert "r23+0" in third and "r23+5" in third


def test_own_hand_is_shown_as_text_at_each_prompt():
    """Guacamole: the hand and zone of the player to move are printed at each prompt."""
    code, out, _ = run(["guacamole", "--players", "2", "--no-images"], "moves\nquit\n")
    assert code == 0
    assert out.count("Your hand (7):") == 2 and "Your zone:" in out


def test_huts_writes_the_hut_chart(tmp_path):
    """Nowa Gwinea: 'huts' writes the chart of huts and orientations as a PNG."""
    code, out, _ = run(
        ["nowa_gwinea", "--players", "1", "--seed", "1", "--out", str(tmp_path)], "huts\nquit\n"
    )
    assert code == 0
    chart = tmp_path / "nowa_gwinea-seed1" / "huts.png"
    assert f"hut chart: {chart}" in out
    with Image.open(chart) as img:
        assert img.format == "PNG" and img.height > 600


def test_images_one_folder_per_game_and_seed_one_per_turn(tmp_path):
    """Images go to <out>/<game>-seed<seed>/, one per turn (not per step); a rerun clears the folder."""
    argv = ["guacamole", "--players", "2", "--computer", "2", "--seed", "5", "--max-moves", "40"]
    code, out, _ = run([*argv, "--out", str(tmp_path)])
    assert code == 0
    folder = tmp_path / "guacamole-seed5"
    images = sorted(folder.glob("*.png"))
    turns = out.count("board: ")
    assert len(images) == turns and 3 <= turns < 40 // 2
    (folder / "turn-9999.png").write_bytes(b"old")
    run([*argv, "--max-moves", "10", "--out", str(tmp_path)])
    assert not (folder / "turn-9999.png").exists()
    assert not list(tmp_path.glob("*.png"))  # nothing outside the game's folder
    assert "/pukllay-local/" in (ROOT / ".gitignore").read_text().splitlines()


def test_nowa_gwinea_computers_keep_the_persons_pace():
    """One person and two computers: each computer builds once per hut the person builds."""
    from engines import nowa_gwinea as ng

    state = ng.new_game(ng.Config(players=3), 3, 4)
    first = next(str(m) for m in ng.legal_moves(state, 0) if isinstance(m, ng.Place))
    code, out, _ = run(
        ["nowa_gwinea", "--players", "3", "--computer", "2", "--seed", "4", "--no-images"], f"{first}\nquit\n"
    )
    assert code == 0
    before, after = out.split("P1 to play>")[:2]
    assert before.count("built a hut") == 2  # each computer once, then the person
    assert (
        after.count("P2 (cpu, normal) built a hut") == 1 and after.count("P3 (cpu, normal) built a hut") == 1
    )
    assert f"P1: {first}" in after


def test_scores_are_integers_with_the_right_plural():
    """Nim to the end: '1 point' and '0 points', not 1.0."""
    code, out, _ = run(["nim", "--players", "2", "--computer", "2", "--no-images"])
    assert code == 0
    assert re.search(r"1\. P\d \(cpu, normal\): 1 point$", out, re.M) and re.search(
        r"2\. P\d \(cpu, normal\): 0 points$", out, re.M
    )
    assert ".0" not in out.split("Game over")[1]


class Interrupted(io.StringIO):
    def readline(self, *args):
        raise KeyboardInterrupt


def test_ctrl_c_ends_quietly():
    out, err = io.StringIO(), io.StringIO()
    code = local_main(["nim", "--no-images"], Interrupted(), out, err)
    assert code == 130 and out.getvalue().rstrip().endswith("stopped") and not err.getvalue()


def test_options_that_contradict_each_other_are_refused_as_a_new_table_refuses_them():
    """Nowa Gwinea's hard side for everyone with hard_seats naming seats: a lobby, a league and the
    queue refuse these for a new table, and so does the terminal, in one line, before any move."""
    argv = ["nowa-gwinea", "--computer", "2", "--no-images", "--no-export", "--max-moves", "2"]
    code, out, err = run([*argv, "--option", "side=hard", "--option", "hard_seats=1"])
    assert code == 2 and not out, out
    assert err.startswith("python -m bot.terminal: cannot set up Nowa Gwinea: with side hard every seat")
    code, out, err = run([*argv, "--option", "hard_seats=1"])
    assert code == 0 and not err and "seats on the hard side: 1" in out


@pytest.mark.parametrize(
    ("argv", "english", "spanish"),
    [
        (
            ["nowa_gwinea", "--players", "1", "--no-images"],
            "huts: the hut chart is a picture; start without --no-images for it",
            "chozas: la tabla de chozas es una imagen; empieza sin --no-images para tenerla",
        ),
        (
            ["tiwanaku", "--players", "1", "--no-images"],
            "huts: only Nowa Gwinea has a hut chart",
            "chozas: solo Nowa Gwinea tiene tabla de chozas",
        ),
    ],
)
def test_huts_without_a_chart_says_why(argv, english, spanish):
    """'huts' in Nowa Gwinea with images off was told "the hut chart is for Nowa Gwinea (and needs
    images on)", as in a game without a chart: each case says its own reason."""
    code, out, _ = run([*argv, "--seed", "1", "--no-export"], "huts\nquit\n")
    assert code == 0 and english in out
    code, out, _ = run([*argv, "--seed", "1", "--no-export", "--language", "es"], "chozas\nsalir\n")
    assert code == 0 and spanish in out


def test_moves_name_the_basket_patch_and_a_short_list_says_each_move():
    """Guanga: `moves` names each slot's patch, as the Discord menu's groups do (the bare
    notation ``P1…(25)`` told nothing of the basket); a list of a few moves gives each its words."""
    code, out, _ = run(["guanga", "--no-images", "--seed", "3"], "moves\nmoves P1A\nquit\n")
    assert code == 0
    first = out.split("P1 to play>")[1]
    assert "    P1…(25): Slot 1 (red amaru)\n" in first and "    P8…(25): Slot 8 (blue kuntur)\n" in first
    second = out.split("P1 to play>")[2]
    assert (
        "  5 legal moves starting with P1A:\n  Place a basket patch:\n    P1A1: Slot 1 (red amaru) on A1\n"
        in second
    )
    code, out, _ = run(["guanga", "--no-images", "--seed", "3", "--language", "es"], "jugadas P1A\nsalir\n")
    assert code == 0 and "    P1A1: " in out and "A1" in out.split("P1A1: ", 1)[1].splitlines()[0]


def test_option_names_in_any_case():
    """``--option Mode=apprentice`` is ``mode=apprentice`` (the value's case did not count either)."""
    code, out, err = run(["guanga", "--option", "Mode=Apprentice", "--no-images"], "quit\n")
    assert code == 0 and not err and "options apprentice mode" in out.splitlines()[0]
