"""The package exports the whole engine contract (imports are checked in tests/test_layers.py)."""

from __future__ import annotations

from pathlib import Path

import engines.guacamole as g

ENGINE = Path(g.__file__).parent


def test_contract_names():
    """Contract: the package exports every name of the engine contract."""
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
        assert hasattr(g, name), name
    assert (g.MIN_PLAYERS, g.MAX_PLAYERS, g.TITLE) == (2, 6, "Guacamole")
