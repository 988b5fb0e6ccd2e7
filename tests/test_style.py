"""The tree is linted, formatted and type-checked as ``pyproject.toml`` says (ruff and mypy, pinned),
so CI fails on drift."""

from __future__ import annotations

import re
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


IGNORE = re.compile(r"#\s*type:\s*ignore(?:\[[^\]]*\])?(?P<rest>.*)$")


def test_every_type_ignore_gives_its_reason():
    """A ``# type: ignore[code]`` silences the checker, so the same line says why it must."""
    bare = []
    for folder in ("engines", "bot", "renderers", "cogs", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                found = IGNORE.search(line)
                if found and not re.search(r"[A-Za-z]{3,}", found["rest"]):
                    bare.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not bare, "type: ignore without a reason on the same line:\n" + "\n".join(bare)
