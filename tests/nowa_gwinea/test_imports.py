"""The package's facts (its imports and the engine contract's names are checked in tests/test_layers.py)."""

from __future__ import annotations

import engines.nowa_gwinea as ng


def test_short_help_and_player_counts():
    """A short help and the player counts (every engine's contract names: tests/test_layers.py)."""
    assert len(ng.RULES_HELP) <= 1800
    assert (ng.MIN_PLAYERS, ng.MAX_PLAYERS) == (1, 4)
