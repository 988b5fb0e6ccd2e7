"""Golden games: recorded move lists replayed move by move to hand-checked final scores."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engines import guanga as G
from engines.guanga.rules import Mode

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_game(path):
    """Golden: replaying the recorded moves reproduces the final scores, ranking and breakdown."""
    data = json.loads(path.read_text())
    c = data["config"]
    cfg = G.Config(players=c["players"], mode=Mode(c["mode"]), stoppers=c["stoppers"])
    s = G.new_game(cfg, c["players"], data["seed"])
    for seat, text in data["moves"]:
        assert seat in G.to_move(s)
        s, _ = G.apply_move(s, seat, G.parse_move(text))
    out = G.outcome(s)
    assert out is not None
    assert [int(x) for x in out.scores] == data["scores"]
    assert [list(g) for g in out.ranking] == data["ranking"]
    assert out.reason == data["reason"]
    assert out.tiebreak == data.get("tiebreak")
    assert out.details["breakdown"] == data["breakdown"]
    if "rank" in data:
        assert out.details["rank"] == data["rank"]
