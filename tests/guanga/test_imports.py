"""The engine package imports only the standard library (and engines.core)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engines" / "guanga"


def test_engine_imports_only_stdlib():
    """Layers: engines/guanga imports the standard library, engines.core and itself only."""
    allowed = set(sys.stdlib_module_names) | {"engines"}
    for path in ENGINE.glob("*.py"):
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
                assert name.split(".")[0] in allowed, f"{path.name} imports {name}"


def test_no_module_level_random_calls():
    """Randomness: engines never call the module-level random functions."""
    for path in ENGINE.glob("*.py"):
        text = path.read_text()
        for fn in ("random.shuffle(", "random.choice(", "random.randint(", "random.random(", "random.seed("):
            assert fn not in text, f"{path.name} uses {fn}"
