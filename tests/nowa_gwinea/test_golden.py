"""Golden game: a recorded 2-player game replays to the same scores.

Checked by hand: round 1 (board 18A, butterfly E5): seat 0 built X0D4 (D4 E3
E4 E5 F4), T1E8 (E8 F6 F7 F8 G8) and W2B4 (B4 B5 C5 C6 D6): water E3 F4 B4 F8
D4 all covered, fruit G8 E8 -> 5 + 3 = 8 as caller; seat 1 built nothing -> 0.
Round 2 ended when both said done: seat 1 had 4 water and 4 fruit, the most
water, so counts as caller: 4 + 10 = 14; seat 0 had 3 water -> 3.
"""

from __future__ import annotations

import json
from pathlib import Path

import engines.nowa_gwinea as ng
from engines.core import config_from_options
from engines.nowa_gwinea.data import FRUIT_BONUS, board_side
from engines.nowa_gwinea.geometry import placement_from_text

GOLDEN = Path(__file__).with_name("golden")


def _independent_points(h, seat):
    """Score a revealed village straight from the board data."""
    t = board_side(h["boards"][seat], h["sides"][seat])
    occ = 0
    for text in h["villages"][seat]:
        occ |= placement_from_text(text).mask
    if h["rows"][seat]["broken"]:
        return 0
    water = (occ & t.water_mask).bit_count()
    fruit = (occ & t.fruit_mask).bit_count()
    return water + (FRUIT_BONUS[fruit] if h["caller"] == seat else 0)


def test_golden_games():
    """Each golden game replays move by move to its recorded round points and final scores."""
    files = sorted(GOLDEN.glob("*.json"))
    assert files
    for path in files:
        data = json.loads(path.read_text())
        opts = dict(data["config"])
        players = opts.pop("players")
        config = config_from_options(ng.Config, players, opts)
        s = ng.new_game(config, players, data["seed"])
        for seat, text in data["moves"]:
            s, _ = ng.apply_move(s, seat, ng.parse_move(text))
        assert s.over
        assert [[r["points"] for r in h["rows"]] for h in s.history] == data["round_points"]
        assert [h["caller"] for h in s.history] == data["callers"]
        for h in s.history:
            for seat in range(players):
                assert h["rows"][seat]["points"] == _independent_points(h, seat)
        out = ng.outcome(s)
        assert (
            list(s.scores)
            == data["scores"]
            == [sum(r[i] for r in data["round_points"]) for i in range(players)]
        )
        assert list(out.winners) == data["winners"]
