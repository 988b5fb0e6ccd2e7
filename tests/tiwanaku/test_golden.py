"""Golden games: replay recorded move lists and compare with scores checked by hand."""

from __future__ import annotations

import json
import pathlib

import pytest

import engines.tiwanaku as T
from engines.core import config_from_options

GOLDEN = sorted((pathlib.Path(__file__).parent / "golden").glob("*.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_game(path):
    """A recorded game replays move by move to the scores worked out by hand."""
    g = json.loads(path.read_text())
    options = dict(g["config"])
    players = options.pop("players")
    config = config_from_options(T.Config, players, options)
    state = T.new_game(config, players, g["seed"])
    for text in g["moves"]:
        (seat,) = T.to_move(state)
        state, _ = T.apply_move(state, seat, T.parse_move(text))
    out = T.outcome(state)
    assert out is not None
    assert list(state.scores) == g["scores"]
    assert state.correct == g["correct"] and state.wrong == g["wrong"]
    assert [list(grp) for grp in out.ranking] == g["ranking"]


def test_golden_files_exist():
    """At least one golden game is recorded."""
    assert GOLDEN
