"""The cheap scripts of ``bench/`` run as their docstrings say, with their smallest parameters: each
exits 0 and prints its labels (the figures themselves are the machine's and are not checked).

The heavy ones (``suite.py``, ``mutation.py``, ``checks.py``, ``sessions.py``'s paced games,
``pairing.py``, ``summary.py``, ``web.py``, ``turns.py``, ``render.py``, the games' own
benchmarks) are left out; so is ``standin_checks.py``, which runs
pytest itself."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# script, its arguments, the labels it prints (each the start of a line, spaces at its start aside)
CHEAP: list[tuple[str, list[str], list[str]]] = [
    (
        "catalogues",
        [],
        [
            "compile the Spanish catalogue (first use):",
            "one lookup with a placeholder:",
            "registration payload of 12 commands:",
            "guacamole board drawn: English",
            "tiwanaku board drawn: English",
        ],
    ),
    (
        "database_check",
        ["--sessions", "20", "--moves", "5"],
        ["database: 20 sessions x 5 moves", "full integrity_check"],
    ),
    (
        "discord_roundtrip",
        ["--rounds", "2", "--seed", "1"],
        [
            "start to READY (with sync)",
            "/game status answered",
            "autocomplete answered",
            "move -> board in channel",
        ],
    ),
    (
        "history",
        ["--seeds", "1", "--every", "16", "--repeat", "1"],
        [
            "game         moves  none ms  K=16",
            "guanga ",
            "tiwanaku ",
            "pachakuna ",
            "nowa_gwinea ",
            "guacamole ",
        ],
    ),
    (
        "log",
        ["--moves", "60", "--repeat", "1"],
        ["/game log of the last 50 of 60 moves, stored marks:", "ratio replayed/stored:"],
    ),
    (
        "menus",
        ["--games", "pachakuna", "--positions", "1", "--repeat", "1"],
        ["game         positions", "pachakuna "],
    ),
    (
        "mine_waits",
        ["--games", "1"],
        ["1 games of 200 moves (the last rows tell):", "1 games of 1000 moves (whole log read):"],
    ),
    (
        "profiles",
        ["--moves", "500", "--per-game", "50"],
        ["500 moves in 10 games", "cold profile", "warm profile:", "after one move:", "ok: under a second"],
    ),
    (
        "queue_day",
        ["--people", "200"],
        ["200 people over a day (seed 1)", "seated:", "wait to a table:", "tables formed:"],
    ),
    (
        "reminders",
        ["--games", "100", "--due", "10"],
        ["25 live games, 10 reminders due:", "100 live games, 10 reminders due:"],
    ),
    (
        "league",
        [],
        [
            "Swiss, 1,000 players in 4-player groups:",
            "Swiss season, 64 players",
            "Swiss season, 65 players",
            "totals correct",
        ],
    ),
    (
        "computer",
        ["--parts", "think", "--positions", "1", "--seconds", "0.1", "--workers", "1"],
        [
            "2. The strong player's think time per move, budget 0.1 s",
            "game         moves   p50 s   p99 s   max s p99/budget  simulations p50    normal ms p50/max",
            "nowa_gwinea      1",
        ],
    ),
    (
        "strength",
        ["--games", "1", "--only", "pachakuna", "--seconds", "0.05", "--workers", "1", "--parts", "duel"],
        [
            "strong level: 0.05 s of thinking per move",
            "pachakuna    strong v normal",
            "pachakuna    normal v easy",
        ],
    ),
]


def run(script: str, args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / f"{script}.py"), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.slow  # about 18 s of CPU in all: each script a second or two
@pytest.mark.parametrize(("script", "args", "labels"), CHEAP, ids=[c[0] for c in CHEAP])
def test_a_bench_script_runs_and_prints_its_labels(script, args, labels, tmp_path):
    done = run(script, args, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [line.lstrip() for line in done.stdout.splitlines()]
    missing = [label for label in labels if not any(line.startswith(label) for line in lines)]
    assert not missing, done.stdout


def test_code_size_counts_its_checkout_from_any_folder(tmp_path):
    """``code_size.py`` counts ``bot/`` and ``cogs/`` of the checkout that holds it, wherever it is
    run from, and a git ``REF`` too."""
    done = run("code_size", ["HEAD"], tmp_path)
    assert done.returncode == 0, done.stderr
    rows = {line.split("  ")[0]: line.split()[-2:] for line in done.stdout.splitlines()[1:]}
    assert list(rows) == [
        "lines",
        "Any annotations",
        "of them bare",
        "ModuleType annotations",
        "parameters without one",
        "per 1,000 lines",
    ]
    assert all(int(count) > 1000 for count in rows["lines"]), done.stdout


def test_code_size_lists_each_files_any_annotations_in_the_order_of_its_lines(tmp_path):
    """``code_size.py --list`` prints each ``Any`` annotation as ``file:line: text``, a file's
    lines in order, as many as the table counts."""
    done = run("code_size", ["--list"], tmp_path)
    assert done.returncode == 0, done.stderr
    listed, table = done.stdout.split("\n\n", 1)
    places = [line.split(": ", 1)[0].rsplit(":", 1) for line in listed.splitlines()]
    by_file: dict[str, list[int]] = {}
    for path, line in places:
        by_file.setdefault(path, []).append(int(line))
    assert by_file and all(lines == sorted(lines) for lines in by_file.values()), listed
    counted = next(line for line in table.splitlines() if line.startswith("Any annotations"))
    assert int(counted.split()[-1]) == len(places), done.stdout
