"""The package's facts (the engine contract's names and the imports are checked in tests/test_layers.py)."""

from __future__ import annotations

import engines.guacamole as g


def test_player_counts_and_title():
    """The package's facts (every engine's contract names: tests/test_layers.py)."""
    assert (g.MIN_PLAYERS, g.MAX_PLAYERS, g.TITLE) == (2, 6, "Guacamole")
