"""The tree is linted, formatted and type-checked as ``pyproject.toml`` says (ruff and mypy, pinned),
so CI fails on drift."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def tool(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if exe is None:
        pytest.fail(
            f"{name} is not installed; install the project with its dev extras: pip install -e '.[dev]'"
        )
    return subprocess.run([exe, *args], cwd=ROOT, capture_output=True, text=True, check=False)


def ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return tool("ruff", *args)


def test_lint_is_clean():
    result = ruff("check", "--no-cache", ".")
    assert result.returncode == 0, "ruff check found problems:\n" + result.stdout + result.stderr


def test_format_is_clean():
    result = ruff("format", "--no-cache", "--check", "--diff", ".")
    assert result.returncode == 0, (
        "files are not formatted; run `ruff format .`:\n" + result.stdout[-4000:] + result.stderr
    )


def test_types_are_clean(tmp_path):
    """mypy checks engines, bot, renderers, cogs and bench as ``[tool.mypy]`` says, from an empty
    cache (so no earlier run can hide or invent an error)."""
    result = tool(
        "mypy", "--cache-dir", str(tmp_path / "mypy-cache"), "--no-error-summary", "--hide-error-context"
    )
    assert result.returncode == 0, "mypy found type errors:\n" + result.stdout[-6000:] + result.stderr[-2000:]
