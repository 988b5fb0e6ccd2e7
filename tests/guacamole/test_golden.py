"""Golden games: recorded move lists replayed from the seed reproduce the hand-checked result.

game_3p_seed2026.json (3 players, one dish per turn, 180 moves), checked by hand:
P1: 4L 4L 6L 9A invalid 4; 3O 1O 2O 5O 6O one type 5+1=6; 7P 8P 2; 1L 1L 2;
    2T 3O 4O 5T 6T 5L (5 twice: no run) invalid 6; 7A 3A 8A one type 4; 3L 5L 8L one type 4 -> 28
P2: 1O 4O 2; 7L 7T 2; 6P 8P 2; 4A 5A 1A one type 4; 2L 8L 9L one type 4; 2O 6O 2;
    1T 6T 3T one type 4                                                                  -> 20
P3: 5O 6P 7O 8A 9P run 5-9 valid 6 (three types, no guacamole); 3A 5A 6A 1T invalid 4;
    1P 1P 2; 3P 3L 2; 8O 9O 4P invalid 3; 7O 7T 7A one number 4                          -> 21
Ranking P1, P3, P2 with no tiebreak needed.

Each golden game also has a transcript (``*.events.json``): for every move, the kind, the
audience and the facts (seats, cards, numbers) of each event, and the highlighted places;
the wording is free.  After a deliberate change of what the events say, rewrite it with
``python -c "from tests.guacamole.test_golden import write_transcripts; write_transcripts()"``
and read the difference.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engines.guacamole as g
from engines.guacamole.data import card_code
from tests.support.contract import transcript

GOLDEN = sorted(
    p for p in (Path(__file__).parent / "golden").glob("*.json") if not p.stem.endswith(".events")
)


def _transcript(data: dict) -> list[dict]:
    cfg = g.Config(**data["config"])
    out = transcript(g, cfg, cfg.players, data["seed"], data["moves"])
    state = g.new_game(cfg, cfg.players, data["seed"])
    for row in out:  # the places each move highlights
        state, _ = g.apply_move(state, row["seat"], g.parse_move(row["move"]))
        row["marks"] = list(state.marks)
    return out


def write_transcripts() -> None:
    for path in GOLDEN:
        out = path.with_name(path.stem + ".events.json")
        rows = _transcript(json.loads(path.read_text()))
        out.write_text("[\n" + ",\n".join(json.dumps(row) for row in rows) + "\n]\n")


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_events(path):
    """Golden game: every move's events keep their kinds, audiences and facts (who, which
    cards, how many), and the places highlighted."""
    want = json.loads(path.with_name(path.stem + ".events.json").read_text())
    got = _transcript(json.loads(path.read_text()))
    for w, h in zip(want, got, strict=True):
        assert h == w, f"move {w['move']!r} of seat {w['seat']}"


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_game(path):
    """Golden game: replaying the recorded moves gives the recorded, hand-checked scores."""
    data = json.loads(path.read_text())
    cfg = g.Config(**data["config"])
    state = g.new_game(cfg, cfg.players, data["seed"])
    for text in data["moves"]:
        assert not state.over
        (seat,) = g.to_move(state)
        state, _ = g.apply_move(state, seat, g.parse_move(text))
    assert state.over
    oc = g.outcome(state)
    assert list(oc.scores) == data["final_scores"]
    assert [list(r) for r in oc.ranking] == data["ranking"]
    assert oc.tiebreak == data["tiebreak"]
    dishes = [[[card_code(c) for c in d] for d in state.dishes[p]] for p in range(cfg.players)]
    assert dishes == data["final_dishes"]


def test_golden_exists():
    """At least one golden game is recorded."""
    assert GOLDEN
