"""The engine imports only the standard library (and engines.core / itself)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import engines.guacamole as g

ENGINE = Path(g.__file__).parent


def test_engine_imports_only_stdlib():
    """Layers: engines/guacamole imports nothing but the standard library and engines.core."""
    stdlib = set(sys.stdlib_module_names)
    for path in ENGINE.glob("*.py"):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative: inside the package
                    continue
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in stdlib or name in ("engines.core",) or top == "__future__", (path.name, name)


def test_no_module_level_random():
    """Randomness: the engine never calls the module-level random functions."""
    for path in ENGINE.glob("*.py"):
        text = path.read_text()
        for fn in ("random.random(", "random.choice(", "random.shuffle(", "random.randint(", "random.seed("):
            assert fn not in text, (path.name, fn)


def test_contract_names():
    """Contract: the package exports every name of the engine contract."""
    for name in ("TITLE", "MIN_PLAYERS", "MAX_PLAYERS", "Config", "new_game", "parse_move", "legal_moves",
                 "apply_move", "to_move", "view_for", "outcome", "to_dict", "from_dict", "computer_move",
                 "Move", "State", "View", "RULES_HELP"):
        assert hasattr(g, name), name
    assert (g.MIN_PLAYERS, g.MAX_PLAYERS, g.TITLE) == (2, 6, "Guacamole")
