"""The values P'achakuna's kept sentences carry (which llama, which village, which cell, which
letter, how many players) and the engine's own choices behind them (which loose piece pays a
rotation).  The tests read the sentences' values and the English line's facts, never the
wording."""

from __future__ import annotations

import pytest

from engines import pachakuna as P
from engines.core import IllegalMove, MalformedMove, Said, SetupError
from engines.pachakuna import data as D

from .helpers import all_tiles, fresh, give, play, put, set_demand


def _refusal(s: P.State, seat: int, text: str) -> tuple[Said, str]:
    """The reason a move is refused (the part before the list of allowed moves) and the English."""
    with pytest.raises(IllegalMove) as info:
        play(s, seat, text)
    reason = info.value.said.args["refusal"]
    assert isinstance(reason, Said)
    return reason, str(info.value)


def test_a_second_move_names_the_llama_that_already_moved():
    s = all_tiles(fresh(), "F1")
    put(s, 0, 1, 43, None)
    put(s, 0, 2, 33, None)
    s = play(s, 0, "m2-34")
    reason, text = _refusal(s, 0, "m2-35")
    assert reason.args == {"llama": 2}
    assert text.startswith("llama 2 ")


def test_a_move_to_a_tile_names_where_the_llama_started():
    s = all_tiles(fresh(), "F1")
    put(s, 0, 1, 43, None)
    s, ev = P.apply_move(s, 0, P.parse_move("m1-44"))
    assert [e.kind for e in ev] == ["move"]
    assert ev[0].said is not None
    assert {k: ev[0].said.args[k] for k in ("llama", "start", "cell")} == {
        "llama": 1,
        "start": 43,
        "cell": 44,
    }
    assert "43" in ev[0].text and "44" in ev[0].text


def test_a_sale_nobody_asked_for_names_the_village():
    """Selling a load the village's demand does not name gains nothing, at that village."""
    s = fresh()
    set_demand(s, 55, "RY")
    put(s, 0, 1, 55, "blue")
    s, ev = P.apply_move(s, 0, P.parse_move("s1"))
    assert [e.kind for e in ev] == ["sell"]
    assert ev[0].said is not None and ev[0].said.args["village"] == 55
    assert ev[0].said.args["load"].msg == "blue"
    assert "55" in ev[0].text
    assert s.supply[0]["blue"] == 0 and s.demands[55] is None


def test_an_empty_llama_on_a_village_is_named_when_it_cannot_sell():
    s = fresh()
    set_demand(s, 55, "RY")
    put(s, 0, 1, 55, None)
    put(s, 0, 2, 55, None)
    reason, text = _refusal(s, 0, "s2")
    assert reason.args == {"llama": 2}
    assert text.startswith("llama 2 ")


def test_a_rotation_that_cannot_be_paid_says_the_rotation_costs():
    """The second rotation of a turn costs 2; with nothing to pay, the refusal is about the
    rotation (not about a llama's price) and gives the cost and what the player has."""
    s = fresh()
    first = next(m for m in P.legal_moves(s, 0) if isinstance(m, P.rules.Rotate))
    s = play(s, 0, str(first))
    second = next(c for c in P.rules.rotatable(s) if c != first.cell)
    reason, _ = _refusal(s, 0, f"r{second}+1")
    assert "rotation" in reason.msg and "llama" not in reason.msg
    assert reason.args["n"] == D.ROTATION_PRICE and reason.args["have"] == 0


def test_a_rotation_named_colours_it_need_not_give_up_says_so():
    """Loose pieces pay the second rotation; naming a colour to give up is refused, and the
    refusal is about the rotation, with the number of loose pieces."""
    s = fresh()
    give(s, 0, red=4)
    first = next(m for m in P.legal_moves(s, 0) if isinstance(m, P.rules.Rotate))
    s = play(s, 0, str(first))
    second = next(c for c in P.rules.rotatable(s) if c != first.cell)
    reason, _ = _refusal(s, 0, f"r{second}+1/r")
    assert "rotation" in reason.msg and "llama" not in reason.msg
    assert reason.args == {"n": 3}


def test_loose_pieces_are_paid_from_the_colour_held_most():
    """A paid rotation takes loose pieces first from the colour with the most pieces (red 4,
    yellow 2: two reds go, whatever the colours' names)."""
    s = fresh()
    give(s, 0, red=4, yellow=2)
    first = next(m for m in P.legal_moves(s, 0) if isinstance(m, P.rules.Rotate))
    s = play(s, 0, str(first))
    second = next(c for c in P.rules.rotatable(s) if c != first.cell)
    s, ev = P.apply_move(s, 0, P.parse_move(f"r{second}+1"))
    assert s.supply[0]["red"] == 2 and s.supply[0]["yellow"] == 2
    assert ev[0].kind == "rotate" and ev[0].said is not None and ev[0].said.args["cell"] == second


def test_a_wrong_payment_letter_is_quoted():
    with pytest.raises(MalformedMove) as info:
        P.parse_move("r34+2/rx")
    assert info.value.said.args == {"letter": '"X"'}
    assert '"X"' in str(info.value)


def test_the_player_count_is_named_when_refused():
    with pytest.raises(SetupError) as info:
        P.Config(players=3).validate()
    assert info.value.said.args == {"players": 3}
    assert "3" in str(info.value)


def test_scores_now_counts_each_seats_colours():
    s = fresh()
    give(s, 0, red=2, yellow=1, brown=5)
    give(s, 1, white=1, green=1, blue=1, purple=3)
    assert P.scores_now(s) == (2.0, 4.0)
    assert P.scores_now(fresh()) == (0.0, 0.0)


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("r44+1", "tile 44 was already turned this turn"),
        ("r12+3", "a llama stands on tile 12, so the tile cannot be turned"),
        ("r13+1", "tile 13 carries your opponent's rock from their last turn"),
        ("r14+1", ""),
    ],
)
def test_a_rotation_nobody_can_pay_is_refused_for_its_tile_then_its_cost(text, rule):
    """After the free rotation, with fewer than 2 resources no tile may turn: a second rotation is
    refused for the tile's own rule first (turned already, a llama on it, the opponent's rock:
    before, the cost hid the rule broken), then for its cost, never with a list of "tiles you may
    turn" that cannot be paid for."""
    s = fresh()
    s.rocks = [13]
    give(s, 0, red=1)
    s = play(s, 0, "r44+2")
    put(s, 1, 1, 12)
    assert not [m for m in P.legal_moves(s, 0) if isinstance(m, P.Rotate)]
    _, text_en = _refusal(s, 0, text)
    cost = "another rotation costs 2 resources and you have only 1"
    assert "tiles you may turn" not in text_en
    assert text_en.startswith(f"{rule}; {cost}." if rule else f"{cost}."), text_en


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("r44+1/r", "tile 44 was already turned this turn"),
        ("r12+3/r", "a llama stands on tile 12, so the tile cannot be turned"),
        ("r13+1/r", "tile 13 carries your opponent's rock from their last turn"),
    ],
)
def test_a_rotation_that_could_be_paid_names_the_tiles_rule_and_the_tiles_to_turn(text, rule):
    """With the price at hand, a tile that may not turn is refused for its rule, with the tiles
    that may turn instead."""
    s = fresh()
    s.rocks = [13]
    give(s, 0, red=3)
    s = play(s, 0, "r44+2")
    put(s, 1, 1, 12)
    _, text_en = _refusal(s, 0, text)
    assert text_en.startswith(f"{rule}; tiles you may turn: 14, 21, 22,"), text_en
