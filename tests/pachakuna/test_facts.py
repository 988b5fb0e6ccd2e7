"""The facts P'achakuna's answers carry (where a llama went, why a sale is refused, what may be
done, the turn limit's end) and the bookkeeping behind them (the seed's draws, the recycled bag,
the cells of a turn, the config in a save, undo by consent).  The wording stays free: the tests
read numbers, notation, colours and kinds."""

from __future__ import annotations

import json

import pytest

from engines import pachakuna as P
from engines.core import IllegalMove, MalformedMove, SetupError, quoted
from engines.pachakuna import data as D

from .helpers import all_tiles, fresh, give, play, put, set_demand


def _refusal(s, seat, text) -> str:
    with pytest.raises(IllegalMove) as info:
        play(s, seat, text)
    return str(info.value)


def test_a_seed_deals_the_same_demands_as_before():
    """Replays from a seed and a move log stay valid across versions: seed 5 always deals these."""
    s = fresh(seed=5)
    assert s.seed == 5
    assert sorted(s.demands.items()) == [
        (11, "GO"),
        (15, "GB"),
        (51, "OY"),
        (55, "PG"),
        (59, "PO"),
        (91, "PR"),
        (95, "BG"),
    ]
    assert s.bag[:8] == ["BW", "RY", "OB", "RO", "GP", "YR", "YG", "GW"]


def test_recycled_demands_are_reshuffled_the_same_way_and_told():
    """A recycle shuffles the used demands back by the game's seed (the same on every replay)
    and says so in an event of its own."""
    s = fresh(seed=1)
    put(s, 0, 1, 11, "red")
    set_demand(s, 11, "RB")
    on_board = [d for d in s.demands.values() if d] + ["RB"]
    rest = [d for d in D.DEMANDS if d not in on_board]
    s.bag = [d for d in rest if "Y" in d]  # none fits village 11 (yellow)
    s.used = [d for d in rest if "Y" not in d]
    s = play(s, 0, "s1")
    s, ev = P.apply_move(s, 0, P.parse_move("end"))
    assert [e.kind for e in ev] == ["end_turn", "recycle", "refill", "reload"]
    assert s.recycles == 1 and s.demands[11] == "BO"
    assert s.bag[:8] == ["PY", "GO", "RY", "OG", "WB", "WY", "YW", "YG"] and len(s.bag) == 35


def test_the_turn_limit_ends_the_game_with_an_end_event():
    """The turn limit: the last turn's end says the game ends, with the limit, and is final."""
    s = fresh(max_turns=2)
    s = play(s, 0, "end")
    assert P.undoable(s, 1, "end") is False  # it ends the game
    s, ev = P.apply_move(s, 1, P.parse_move("end"))
    ends = [e for e in ev if e.kind == "end"]
    assert len(ends) == 1 and "2" in ends[0].text
    assert s.phase == "over" and P.outcome(s) is not None


def test_undo_by_consent():
    """Undoable: turning a tile and moving a llama; not an end that draws new demands."""
    s = all_tiles(fresh(), "M0")
    put(s, 0, 1, 34, "red")
    s.tiles[33] = "F1"
    s.tiles[34] = "F1"
    assert P.undoable(s, 0, P.parse_move("r12+1")) is True
    assert P.undoable(s, 0, "m1-33") is True
    s = fresh()
    put(s, 0, 1, 11, "red")
    set_demand(s, 11, "RB")
    assert P.undoable(s, 0, "s1") is True  # the sold demand is laid aside; nothing is drawn yet
    s = play(s, 0, "s1")
    assert P.undoable(s, 0, "end") is False  # village 11 draws a new demand


def test_a_sale_can_be_taken_back():
    """Seed 0: llama 1 walks to village 91 and sells there.  The sale draws nothing (the demand
    bag is refilled only when the turn ends), so it can be taken back; the end that follows draws
    and cannot."""
    s = play(fresh(seed=0), 0, "r72+3", "m1-91")
    after = play(s, 0, "s1")
    assert after.bag == s.bag and after.recycles == s.recycles and after.demands[91] is None
    assert P.undoable(s, 0, "s1") is True
    assert P.undoable(after, 0, "end") is False


def test_a_winning_sale_cannot_be_taken_back():
    s = fresh()
    put(s, 0, 1, 11, "red")
    set_demand(s, 11, "RB")
    give(s, 0, white=1, orange=1, purple=1, blue=1, green=1, yellow=1)
    assert play(s, 0, "s1").winner == 0
    assert P.undoable(s, 0, "s1") is False


def test_a_llama_entering_a_village_is_told_with_the_village_colour():
    """Moving into a village: the event names the village and its colour."""
    s = all_tiles(fresh(), "M0")
    s = play(s, 0, "end")
    put(s, 1, 1, 52, "red")
    s, ev = P.apply_move(s, 1, P.parse_move("m1-51"))
    assert ev[0].kind == "move" and "51" in ev[0].text and D.VILLAGES[51] in ev[0].text
    s, ev = P.apply_move(play(play(s, 1, "end"), 0, "end"), 1, P.parse_move("m1-53"))
    assert "53" in ev[0].text and not any(colour in ev[0].text for colour in D.VILLAGES.values())


def test_the_turn_keeps_each_cell_it_touched_once_in_order():
    """The turn's cells: the turned tile, then each llama's start and end, none twice."""
    s = all_tiles(fresh(), "M0")
    put(s, 0, 1, 34, "red")
    s.tiles[33] = "F1"
    s.tiles[34] = "F1"
    s = play(s, 0, "r12+1", "m1-33")
    assert s.turn_cells == [12, 34, 33]
    assert P.view_for(s, 1).turn_cells == (12, 34, 33)
    s = play(s, 0, "end")
    assert s.prev_cells == [12, 34, 33] and s.turn_cells == []


def test_a_bought_llama_is_no_longer_new_after_the_turn():
    """A llama bought this turn is marked new until the turn ends, then like the others."""
    s = fresh()
    put(s, 0, 1, 11, "red")
    set_demand(s, 11, "RB")
    give(s, 0, white=9)
    s = play(s, 0, "b1")
    assert P.rules.llama(s, 0, 2).new is True
    s = play(s, 0, "end")
    assert [lm.new for lm in s.llamas] == [False] * len(s.llamas)
    assert not any(lm.new for lm in P.view_for(s, None).llamas)


def test_a_llama_on_a_tile_is_refused_a_sale_because_it_must_move():
    """Selling with a llama that stands on a tile it can leave: the reason is that it must move."""
    s = all_tiles(fresh(), "M0")
    put(s, 0, 1, 34, "red")
    s.tiles[33] = "F1"
    s.tiles[34] = "F1"
    assert "must move" in _refusal(s, 0, "s1")


def test_black_llamas_must_move_along_mountains():
    """Black (the second seat) climbs mountains: on a tile with a mountain road it must move,
    though no valley road leaves it."""
    s = play(all_tiles(fresh(), "M0"), 0, "end")
    put(s, 1, 1, 34, "red")
    assert P.rules.reachable(s.tiles, 34, black=False) == set()
    assert P.rules.must_move(s, P.rules.llama(s, 1, 1)) is True
    assert P.End() not in P.legal_moves(s, 1)
    assert "must move" in _refusal(s, 1, "end")


def test_rotations_that_must_give_up_cut_outs_are_listed_with_them():
    """A second rotation without loose resources: every listed turn names the cut-outs to give up,
    and each is accepted."""
    s = fresh()
    give(s, 0, red=1, blue=1)
    s = play(s, 0, "r12+1")
    turns = [m for m in P.legal_moves(s, 0) if isinstance(m, P.Rotate)]
    assert turns and {m.pay for m in turns} == {P.parse_move("r34+1/rb").pay}
    for m in turns[:: max(1, len(turns) // 7)]:
        after, _ = P.apply_move(s, 0, m)
        assert after.supply[0]["red"] == 0 and after.supply[0]["blue"] == 0
    with pytest.raises(IllegalMove):
        play(s, 0, "r34+1")


def test_a_refusal_lists_ten_moves_then_dots():
    """The moves a refusal suggests: at most ten besides a tile turn, then "..." (eleven here)."""
    s = all_tiles(fresh(), "M0")
    s.tiles[12] = "F0"  # village 11 has no road out
    s = play(s, 0, "end")
    put(s, 1, 1, 41, "red")
    put(s, 1, 2, 11, "red")
    others = [str(m) for m in P.legal_moves(s, 1) if not isinstance(m, P.Rotate)]
    assert len(others) == 11
    msg = _refusal(s, 1, "s3")
    assert sum(1 for m in others if m in msg) == 10 and msg.rstrip().endswith("...")


def test_a_save_keeps_the_turn_limit():
    """Persistence: the config's turn limit survives to_dict/from_dict."""
    s = fresh(board="B", max_turns=40)
    back = P.from_dict(json.loads(json.dumps(P.to_dict(s))))
    assert back.config == s.config and back.config.max_turns == 40


def test_an_unknown_save_schema_is_named():
    """Loading a save of another schema: the refusal names that schema."""
    data = {**P.to_dict(fresh()), "schema": 99}
    with pytest.raises(SetupError, match="99"):
        P.from_dict(data)


@pytest.mark.parametrize("text", ["", "   ", "zz"])
def test_a_move_that_is_not_one_is_quoted_as_written(text):
    """Bad text: the answer quotes what was written (an empty move as empty)."""
    with pytest.raises(MalformedMove) as info:
        P.parse_move(text)
    assert quoted(text) in str(info.value)
