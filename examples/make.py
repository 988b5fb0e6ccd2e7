"""Write the sample exports in this folder: one seeded two-player game of each game, played by
computers at the terminal table and exported as ``/game export`` exports a finished game.

    .venv/bin/python examples/make.py

Replay one with ``.venv/bin/python -m bot.terminal --replay examples/guacamole.json`` (``--step`` to
go move by move).  tests/table/test_local_examples.py replays every file here to its recorded
result, so a change to the rules or the format that leaves them stale fails the tests: run this
again then.
"""

from __future__ import annotations

import io
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import engines  # noqa: E402  (after the checkout is on the path)
from bot.terminal import main  # noqa: E402

SEED = 3
LEVEL = "normal"
MOMENT = "2026-01-01T12:00:00+00:00"  # every move's time, so the same code writes the same files


def make(game: str, folder: Path) -> Path:
    """Play ``game`` (two computers, seed :data:`SEED`) and write its export into ``folder``."""
    with tempfile.TemporaryDirectory() as boards:
        err = io.StringIO()
        argv = [game, "--players", "2", "--computer", "2", "--computer-level", LEVEL]
        argv += ["--seed", str(SEED), "--no-images", "--out", boards]
        code = main(argv, io.StringIO(), io.StringIO(), err, clock=lambda: MOMENT)
        if code != 0:
            raise SystemExit(f"{game}: the game did not finish ({err.getvalue().strip()})")
        target = folder / f"{game}.json"
        shutil.copyfile(Path(boards) / f"{game}-seed{SEED}" / f"{game}-seed{SEED}.json", target)
    return target


if __name__ == "__main__":
    for name in sorted(engines.available()):
        print(make(name, HERE))
