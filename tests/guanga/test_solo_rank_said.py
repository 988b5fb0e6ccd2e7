"""The solo version is played for a rank (the rulebook's table): the game's end says the final
score and the rank in words, not only on the picture, so a player without images (the terminal's
--no-images, a screen reader) learns it too."""

from __future__ import annotations

import io
import re

from bot.terminal import main as local_main
from engines.guanga.rules import solo_rank


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    code = local_main(argv, io.StringIO(""), out, err)
    return code, out.getvalue(), err.getvalue()


# a solo game the easy computer plays to its end, in the terminal without pictures
SOLO = ["guanga", "--players", "1", "--computer", "1", "--computer-level", "easy", "--seed", "2"]
SOLO += ["--no-images", "--no-export"]


def test_the_solo_end_says_the_score_and_the_rank():
    code, out, err = run(SOLO)
    assert code == 0 and not err
    said = re.search(r"P1's final score: (-?\d+) VP, rank (.+)\.\n", out)
    assert said, out[-600:]
    points = int(said.group(1))
    assert f"1. P1 (cpu, easy): {points} points" in out
    assert said.group(2) == solo_rank(points)  # the rulebook's table: 0-39 Apprentice, ...


def test_the_solo_rank_in_spanish():
    code, out, err = run([*SOLO, "--language", "es"])
    assert code == 0 and not err
    assert re.search(r"Puntos finales de P1 \(máquina, fácil\): -?\d+ PV, rango \w+\.\n", out), out[-600:]


def test_a_game_of_two_says_no_rank():
    code, out, _ = run(
        [
            "guanga",
            "--players",
            "2",
            "--computer",
            "2",
            "--computer-level",
            "easy",
            "--seed",
            "5",
            "--no-images",
            "--no-export",
        ]
    )
    assert code == 0 and "Game over" in out and "rank" not in out
