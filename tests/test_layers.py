"""The layers import only what they may (read from the source, not by importing it)."""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STDLIB = set(sys.stdlib_module_names)


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def files(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


GAMES = ("guanga", "tiwanaku", "pachakuna", "nowa_gwinea", "guacamole")
CONTRACT = (
    "TITLE",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "Config",
    "new_game",
    "parse_move",
    "legal_moves",
    "apply_move",
    "to_move",
    "view_for",
    "outcome",
    "to_dict",
    "from_dict",
    "computer_move",
    "RULES_HELP",
    "move_privacy",
    "readable",
    "summary",
    "turn_number",
    "move_words",
    "KINDS",
    "WORDS",
)


def test_engine_core_imports_only_the_standard_library():
    """engines/core.py and the registry import the standard library only."""
    for p in (ROOT / "engines" / "core.py", ROOT / "engines" / "__init__.py"):
        assert imports(p) - {"engines"} <= STDLIB, p


@pytest.mark.parametrize("game", GAMES)
def test_engine_imports_only_the_standard_library(game):
    """engines/<game> imports the standard library and engines.*, nothing else."""
    paths = files(f"engines/{game}")
    assert paths, f"engines/{game} is missing"
    bad = {str(p.relative_to(ROOT)): sorted(imports(p) - STDLIB - {"engines"}) for p in paths}
    assert {k: v for k, v in bad.items() if v} == {}


@pytest.mark.parametrize("game", GAMES)
def test_engine_never_uses_the_module_level_random(game):
    """All randomness comes from the seed: no random.random(), random.shuffle(), ... in engines."""
    for p in files(f"engines/{game}"):
        tree = ast.parse(p.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "random"
                and node.func.attr != "Random"
            ):
                raise AssertionError(f"{p.relative_to(ROOT)}:{node.lineno} calls random.{node.func.attr}()")
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                assert all(a.name == "Random" for a in node.names), f"{p} imports functions from random"


@pytest.mark.parametrize("game", GAMES)
def test_engine_exports_the_contract(game):
    """Every engine package exposes the contract's names, so the table drives any game alike."""
    module = importlib.import_module(f"engines.{game}")
    missing = [name for name in CONTRACT if not hasattr(module, name)]
    assert not missing, f"engines.{game} lacks {missing}"
    assert len(module.RULES_HELP) <= 2000


def test_renderers_never_import_discord_or_storage():
    """renderers/ draws with Pillow from views; no discord, no SQL, no bot."""
    for p in files("renderers"):
        assert not imports(p) & {"discord", "aiosqlite", "sqlite3", "bot", "cogs"}, p


def test_session_service_has_no_discord():
    """The session service and storage work without discord.py."""
    for name in ("sessions.py", "settings.py", "local.py", "scheduler.py", "clock.py"):
        assert "discord" not in imports(ROOT / "bot" / name), name
    for p in files("bot/storage"):
        assert "discord" not in imports(p), p


def test_sql_lives_only_in_storage():
    """No module but those of bot/storage/ talks to a database."""
    for folder in ("bot", "cogs", "engines", "renderers"):
        for p in files(folder):
            if (ROOT / "bot" / "storage") in p.parents:
                continue
            assert not imports(p) & {"sqlite3", "aiosqlite", "asyncpg"}, p


def test_cogs_hold_no_rules():
    """Cogs reach engines only through the registry and the table, never a game's rules module."""
    for p in files("cogs"):
        engine_imports = {m for m in imports(p) if m == "engines"}
        text = p.read_text()
        assert "apply_move(" not in text and "legal_moves(" not in text, p
        assert engine_imports <= {"engines"}
