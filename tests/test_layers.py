"""The layers import only what they may (read from the source, not by importing it)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

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


def test_engines_import_only_the_standard_library():
    """engines/ imports the standard library and itself, nothing else."""
    bad = {
        str(p.relative_to(ROOT)): sorted(m for m in imports(p) if m not in STDLIB and m != "engines")
        for p in files("engines")
    }
    assert {k: v for k, v in bad.items() if v} == {}
    assert any(p.name == "core.py" for p in files("engines"))


def test_renderers_never_import_discord_or_storage():
    """renderers/ draws with Pillow from views; no discord, no SQL, no bot."""
    for p in files("renderers"):
        assert not imports(p) & {"discord", "aiosqlite", "sqlite3", "bot", "cogs"}, p


def test_session_service_has_no_discord():
    """The session service and storage work without discord.py."""
    for name in ("sessions.py", "storage.py", "settings.py", "local.py"):
        assert "discord" not in imports(ROOT / "bot" / name), name


def test_sql_lives_only_in_storage():
    """No module but bot/storage.py talks to SQLite."""
    for folder in ("bot", "cogs", "engines", "renderers"):
        for p in files(folder):
            if p == ROOT / "bot" / "storage.py":
                continue
            assert not imports(p) & {"sqlite3", "aiosqlite"}, p


def test_cogs_hold_no_rules():
    """Cogs reach engines only through the registry and the table, never a game's rules module."""
    for p in files("cogs"):
        engine_imports = {m for m in imports(p) if m == "engines"}
        text = p.read_text()
        assert "apply_move(" not in text and "legal_moves(" not in text, p
        assert engine_imports <= {"engines"}
