"""The engine package imports only the standard library (and itself / engines.core)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import engines.nowa_gwinea as ng

PKG = Path(ng.__file__).parent


def test_engine_imports_only_stdlib():
    """engines/nowa_gwinea imports nothing outside the standard library."""
    for path in PKG.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    continue
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or name in ("engines.core", "engines"), (
                    path.name,
                    name,
                )


def test_contract_names_exported():
    """The package exports every name of the engine contract and a short help."""
    for name in (
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
        "Move",
        "State",
        "View",
        "RULES_HELP",
    ):
        assert hasattr(ng, name), name
    assert len(ng.RULES_HELP) <= 1800
    assert (ng.MIN_PLAYERS, ng.MAX_PLAYERS) == (1, 4)
