"""The tree is linted and formatted as ``pyproject.toml`` says (ruff, pinned), so CI fails on drift."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def ruff(*args: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if exe is None:
        pytest.fail("ruff is not installed; install the project with its dev extras: pip install -e '.[dev]'")
    return subprocess.run([exe, *args], cwd=ROOT, capture_output=True, text=True, check=False)


def test_lint_is_clean():
    result = ruff("check", "--no-cache", ".")
    assert result.returncode == 0, "ruff check found problems:\n" + result.stdout + result.stderr


def test_format_is_clean():
    result = ruff("format", "--no-cache", "--check", "--diff", ".")
    assert result.returncode == 0, (
        "files are not formatted; run `ruff format .`:\n" + result.stdout[-4000:] + result.stderr
    )
