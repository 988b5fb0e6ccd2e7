"""How long the README's code checks take: ruff check, ruff format --check and mypy, each from a
cold cache (mypy's in a fresh temporary folder), as tests/test_style.py runs them.

    .venv/bin/python bench/checks.py

prints the wall-clock and CPU seconds of each and their sum.
"""

from __future__ import annotations

import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(args: list[str]) -> tuple[float, float, int]:
    exe = shutil.which(args[0], path=str(Path(sys.executable).parent)) or shutil.which(args[0])
    if exe is None:
        raise SystemExit(f"{args[0]} is not installed; pip install -e '.[dev]'")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    code = subprocess.run([exe, *args[1:]], cwd=ROOT, capture_output=True, check=False).returncode
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, code


def main() -> None:
    with tempfile.TemporaryDirectory() as cache:
        checks = {
            "ruff check": ["ruff", "check", "--no-cache", "."],
            "ruff format --check": ["ruff", "format", "--no-cache", "--check", "."],
            "mypy (cold cache)": ["mypy", "--cache-dir", str(Path(cache) / "mypy"), "--no-error-summary"],
        }
        total_wall = total_cpu = 0.0
        for label, args in checks.items():
            wall, cpu, code = run(args)
            total_wall += wall
            total_cpu += cpu
            verdict = "clean" if code == 0 else f"FOUND PROBLEMS (exit {code})"
            print(f"{label:<22} {wall:6.1f} s wall  {cpu:6.1f} s CPU  {verdict}")
        print(f"{'all checks':<22} {total_wall:6.1f} s wall  {total_cpu:6.1f} s CPU")


if __name__ == "__main__":
    main()
