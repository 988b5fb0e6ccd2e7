"""Scenario tests: one per rule and ruling of Nowa Gwinea.

Most tests play on the hand-made board 99 (side A) of ``conftest.py``, with the parrot rolled
(``rig()``): ``FULL`` covers all its water holes, ``PARTIAL`` four of them.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

import engines.nowa_gwinea as ng
from engines.core import (
    TABLE,
    UNKNOWN,
    GameOver,
    IllegalMove,
    MalformedMove,
    NotYourTurn,
    SetupError,
    jsonable,
    rng_for,
)
from engines.nowa_gwinea.data import FRUIT_BONUS, board_side
from engines.nowa_gwinea.geometry import (
    CANONICAL,
    DISTINCT,
    PLACEMENTS,
    SHAPES,
    parse_cell,
    shape,
)
from engines.nowa_gwinea.rules import copy_state, deadline_caller, status
from tests.nowa_gwinea.conftest import FULL, PARTIAL, rig
from tests.nowa_gwinea.util import build, play, rigged
from tests.support.sentences import ES

pytestmark = pytest.mark.usefixtures("board99")


# --------------------------------------------------------------------------- setup


def test_player_count_checked():
    """The game takes 1 to 4 players and the seats must match the config."""
    with pytest.raises(SetupError, match="1 to 4"):
        ng.Config(players=5).validate()
    with pytest.raises(SetupError, match="seats"):
        ng.new_game(ng.Config(players=2), 3, 1)
    assert ng.to_move(ng.new_game(ng.Config(players=1), 1, 1)) == {0}


def test_options_validated():
    """Variant options are checked with a clear message."""
    with pytest.raises(SetupError, match="water_target"):
        ng.Config(players=2, water_target=6).validate()
    with pytest.raises(SetupError, match="hard_seats"):
        ng.Config(players=2, hard_seats="3").validate()


def test_hard_side_and_hard_seats():
    """Side B holds the hard tasks; hard_seats puts chosen seats on side B (the rulebook's tip)."""
    s = ng.new_game(ng.Config(players=3, hard_seats="1,3"), 3, 5)
    assert s.sides == ["B", "A", "B"]
    s = ng.new_game(ng.Config(players=2, side=ng.Side.HARD), 2, 5)
    assert s.sides == ["B", "B"]


def test_shared_board_by_default_and_one_each_option():
    """Ruling: everyone gets the same board each round; 'each' deals one board per player."""
    s = ng.new_game(ng.Config(players=3), 3, 5)
    assert len(set(s.boards)) == 1
    s = ng.new_game(ng.Config(players=3, boards=ng.Deal.EACH), 3, 5)
    assert len(set(s.boards)) == 3


def test_four_players_one_board_each_reshuffle():
    """With one board each, 4 players need 36 boards: the used 32 are reshuffled into a new stack."""
    s = ng.new_game(ng.Config(players=4, boards=ng.Deal.EACH), 4, 5)
    assert len(s.deck) == 64
    assert sorted(s.deck[:32]) == list(range(1, 33)) == sorted(s.deck[32:])


def test_die_roll_deterministic_and_public():
    """The die roll picks one of the 6 totems, the same for everyone and reproducible from the seed."""
    a = ng.new_game(ng.Config(players=2), 2, 42)
    b = ng.new_game(ng.Config(players=2), 2, 42)
    assert a.totem == b.totem and 0 <= a.totem < 6
    assert ng.view_for(a, None).animal == ng.view_for(a, 0).animal


def _rounds(config: ng.Config, seed: int):
    """(state, round events) at the start of each of the 9 rounds, everyone saying done."""
    s = ng.new_game(config, config.players, seed)
    events = []
    while True:
        yield s, events
        events = []
        for seat in range(config.players):
            if s.over:
                return
            s, ev = ng.apply_move(s, seat, ng.Done())
            events += ev
        if s.over:
            return


def _task_huts(s, seat):
    return board_side(s.boards[seat], s.sides[seat]).sizes[s.totem]


def test_hard_side_rerolls_to_tasks_needing_six_huts():
    """Ruling (hard tasks need 6+ huts): on the hard side the die is rolled again until the
    totem's task needs 6 huts or more; the round's announcement says so."""
    rerolled = 0
    for seed in range(40):
        for s, events in _rounds(ng.Config(players=2, side=ng.Side.HARD), seed):
            assert _task_huts(s, 0) >= 6
            text = " ".join(e.text for e in events if e.kind == "round")
            plain = rng_for(seed, "die", s.round).randrange(6)
            if plain != s.totem and s.round > 1:
                rerolled += 1
                assert "rolled again" in text
            elif s.round > 1:
                assert "rolled again" not in text
    assert rerolled > 0


def test_the_reroll_says_its_sizes_are_for_all_five_water_holes():
    """The recorded sizes are those of covering all 5 water holes, and the die is rolled by them
    whatever ``water_target`` says: a round that rolled again with 3 water holes needed says the
    6 huts are for all 5 (fewer may cover 3), in English and in Spanish, shared or one board each."""
    seen = set()
    for boards in ng.Deal:
        for seed in range(10):
            config = ng.Config(players=2, side=ng.Side.HARD, water_target=3, boards=boards)
            for _s, events in _rounds(config, seed):
                for e in events:
                    if e.kind == "round" and "rolled again" in e.text:
                        assert "6 huts or more for all 5 water holes" in e.text
                        assert "6 chozas o más para cubrir las 5 pozas de agua" in e.words_for(None, ES)
                        seen.add(boards)
    assert seen == set(ng.Deal)


def test_hard_reroll_off_keeps_the_first_roll():
    """Option hard_reroll=no: the hard side keeps the first roll, 5-hut tasks included."""
    easy = 0
    for seed in range(40):
        for s, _ in _rounds(ng.Config(players=1, side=ng.Side.HARD, hard_reroll=False), seed):
            assert s.totem == rng_for(seed, "die", s.round).randrange(6)
            easy += _task_huts(s, 0) < 6
    assert easy > 0


def test_standard_side_never_rerolls():
    """The standard side rolls once, whatever hard_reroll says."""
    for seed in range(20):
        for s, events in _rounds(ng.Config(players=2), seed):
            assert s.totem == rng_for(seed, "die", s.round).randrange(6)
            assert all("rolled again" not in e.text for e in events)


def test_hard_reroll_with_one_board_each():
    """One board each on the hard side: every hard seat's task needs 6+ huts, boards in a round
    differ, and each stack of 32 is dealt once before it is reshuffled."""
    short = 0
    for seed in range(30):
        config = ng.Config(players=3, side=ng.Side.STANDARD, hard_seats="1,3", boards=ng.Deal.EACH)
        dealt = []
        for s, _ in _rounds(config, seed):
            dealt += s.boards
            assert len(set(s.boards)) == 3
            assert s.sides == ["B", "A", "B"]
            short += _task_huts(s, 0) < 6 or _task_huts(s, 2) < 6
        assert sorted(s.deck[:32]) == list(range(1, 33))
        assert len(dealt) == 27 == len(set(dealt)), "a board came round twice in one stack"
    assert short == 0


def test_states_saved_before_hard_reroll_keep_one_roll():
    """A state saved before the hard_reroll option existed loads with it off."""
    s = ng.new_game(ng.Config(players=1, side=ng.Side.HARD), 1, 3)
    d = ng.to_dict(s)
    assert d["config"]["hard_reroll"] is True
    del d["config"]["hard_reroll"]
    assert ng.from_dict(d).config.hard_reroll is False


# --------------------------------------------------------------------------- notation


def test_parse_notation():
    """Moves parse case-insensitively with spaces; bad text names the notation with an example."""
    assert ng.parse_move(" f 3 c4 ") == ng.Place("F", 3, parse_cell("C4"))
    assert str(ng.parse_move("F3C4")) == "F3C4"
    assert ng.parse_move("remove f") == ng.Remove("F")
    assert ng.parse_move("-Z") == ng.Remove("Z")
    assert ng.parse_move("Gwinea!") == ng.Gwinea() == ng.parse_move("call")
    assert [str(m) for m in (ng.Gwinea(), ng.Done(), ng.Timeout(), ng.Remove("F"))] == [
        "gwinea",
        "done",
        "timeout",
        "remove F",
    ]
    with pytest.raises(MalformedMove, match='"hello" is not a Nowa Gwinea move'):
        ng.parse_move("hello")
    assert ng.parse_move("done") == ng.Done()
    assert ng.parse_move("timeout") == ng.Timeout()
    for bad in ("", "hello", "F3C4X"):  # each part's own mistake: test_notation_refusals.py
        with pytest.raises(MalformedMove, match="F3C4"):
            ng.parse_move(bad)


def test_orientations():
    """Huts turn and flip freely: 8 orientation indices, equal shapes share the smallest index."""
    counts = {p: len(DISTINCT[p]) for p in DISTINCT}
    assert counts == {
        "F": 8,
        "I": 2,
        "L": 8,
        "N": 8,
        "P": 8,
        "T": 4,
        "U": 4,
        "V": 4,
        "W": 4,
        "X": 1,
        "Y": 8,
        "Z": 4,
    }
    assert sum(counts.values()) == 63
    assert ng.parse_move("X5C4") == ng.Place("X", 0, parse_cell("C4"))
    assert str(ng.Place("I", 2, 0)) == "I0A1"
    assert shape("I", 0) == tuple((r, 0) for r in range(5))  # I0 stands upright
    assert shape("I", 1) == tuple((0, c) for c in range(5))  # I1 lies flat
    assert shape("L", 1) == ((0, 0), (0, 1), (0, 2), (0, 3), (1, 0))  # a quarter turn clockwise
    assert shape("L", 4) == ((0, 1), (1, 1), (2, 1), (3, 0), (3, 1))  # mirrored
    for p in SHAPES:
        for k in range(8):
            assert SHAPES[p][CANONICAL[p][k]] == SHAPES[p][k]
    assert len(PLACEMENTS) == 2308


# --------------------------------------------------------------------------- placement


def test_first_hut_must_cover_rolled_totem():
    """Each player's first hut covers the totem the die shows."""
    s = rig()
    with pytest.raises(IllegalMove, match="first hut must cover the rolled parrot totem at C3"):
        play(s, 0, "I0D7")
    s = play(s, 0, "X0B3")
    assert s.villages[0] == ["X0B3"]


def test_hut_may_not_leave_board():
    """No part of a hut may stick out over the board."""
    s = rig()
    with pytest.raises(IllegalMove, match="stick out"):
        play(s, 0, "I0E1")


def test_huts_may_not_overlap():
    """No part of a hut may lie on another hut."""
    s = play(rig(), 0, "X0B3")
    with pytest.raises(IllegalMove, match="lie on hut X at C4"):
        play(s, 0, "I0A4")


def test_huts_may_not_touch_along_edges():
    """Huts touch only at their corners, never along an edge."""
    s = play(rig(), 0, "X0B3")
    with pytest.raises(IllegalMove, match="along an edge"):
        play(s, 0, "I0C5")


def test_hut_must_touch_another():
    """Each hut must touch at least one other hut (at a corner)."""
    s = play(rig(), 0, "X0B3")
    with pytest.raises(IllegalMove, match="touches none of your huts") as err:
        play(s, 0, "I0D7")
    assert "I0D5" in str(err.value) or "fits at" in str(err.value)
    s = play(s, 0, "I0D5")
    assert s.villages[0] == ["X0B3", "I0D5"]


def test_other_totems_stay_uncovered():
    """The other five totems must not be covered."""
    s = play(rig(), 0, "X0B3")
    with pytest.raises(IllegalMove, match="lizard totem at F6"):
        play(s, 0, "I1F2")
    s2 = rig()
    with pytest.raises(IllegalMove, match="butterfly"):
        play(s2, 0, "P0A1")


def test_each_hut_once():
    """A player has one of each of the 12 huts."""
    s = play(rig(), 0, "X0B3")
    with pytest.raises(IllegalMove, match="already in your village"):
        play(s, 0, "X0E6")


def test_one_hut_may_cover_several_symbols():
    """A single hut may cover the totem, water holes and fruit at once."""
    s = play(rig(), 0, "X0B3")
    st = status(s, 0)
    assert (st.water, st.fruit, st.broken) == (2, 1, None)


def test_remove_hut():
    """A hut can be taken back to try again; removing a missing hut is refused."""
    s = build(rig(), 0, PARTIAL)
    s = play(s, 0, "remove I")
    assert s.villages[0] == ["X0B3"]
    with pytest.raises(IllegalMove, match="not in your village"):
        play(s, 0, "remove Z")
    s = play(s, 0, "I0D5")
    assert s.villages[0] == PARTIAL


def test_totem_hut_goes_last():
    """The village grows from the hut on the rolled totem: taking it back while other huts
    stand is refused with the reason and the huts that may go; as the last hut it may go."""
    s = build(rig(), 0, FULL)
    with pytest.raises(IllegalMove, match="covers the rolled parrot totem") as err:
        play(s, 0, "remove X")
    assert "you may take back I, L" in str(err.value)
    removes = [m for m in ng.legal_moves(s, 0) if isinstance(m, ng.Remove)]
    assert removes == [ng.Remove("I"), ng.Remove("L")]
    s = build(s, 0, ["remove I", "remove L"])
    assert ng.legal_moves(s, 0)[-2:] == [ng.Remove("X"), ng.Done()]
    s = play(s, 0, "remove X")
    assert s.villages[0] == [] and status(s, 0).broken is None


def test_remove_that_splits_the_village_is_refused():
    """Taking back the hut that links others to the totem hut would split the village: refused,
    naming the huts cut off; the state is unchanged and the refused removal is not offered."""
    s = build(rig(), 0, PARTIAL + ["P4B6"])  # P (B6 B7 C6 C7 D7) touches only I, at C6/D5
    before = ng.to_dict(s)
    with pytest.raises(IllegalMove, match="would split your village: hut P would no longer be linked") as err:
        play(s, 0, "remove I")
    assert "hut X on the parrot totem" in str(err.value) and "you may take back P" in str(err.value)
    assert ng.to_dict(s) == before
    assert [m for m in ng.legal_moves(s, 0) if isinstance(m, ng.Remove)] == [ng.Remove("P")]
    s = play(s, 0, "remove P")
    s = play(s, 0, "remove I")  # now I is at the end of the only branch
    assert s.villages[0] == ["X0B3"]


def test_split_village_neither_calls_nor_scores():
    """A village in two groups (each hut touching another) is broken: on board 1 side B with the
    parrot, taking I out of the witness and building Y0B5 used to call Gwinea for 11 points.
    The removal is refused now; a split village in a saved state may not call and scores 0."""
    s = rigged(players=1, board=1, side="B", totem=0)
    s = build(s, 0, ["N0B8", "Z1F8", "I0B5", "L3G4", "P2D3", "F3A1"])
    with pytest.raises(IllegalMove, match="would split your village: huts L, P, F"):
        play(s, 0, "remove I")
    split = copy_state(s)
    split.villages[0] = ["N0B8", "Z1F8", "L3G4", "P2D3", "F3A1", "Y0B5"]
    st = status(split, 0)
    assert st.water == 5 and not st.complete
    assert "huts L, P, F, Y are not linked corner to corner to the hut on the rolled totem" in str(st.broken)
    assert ng.Gwinea() not in ng.legal_moves(split, 0) and not ng.view_for(split, 0).can_call
    with pytest.raises(IllegalMove, match="cannot call Gwinea: huts L, P, F, Y are not linked"):
        play(split, 0, "gwinea")
    ended, events = ng.apply_move(split, TABLE, ng.Timeout())
    assert ended.history[-1]["rows"][0]["points"] == 0 and ended.scores == [0]
    assert ended.history[-1]["caller"] is None
    assert any(e.kind == "score" and "{p0} 0 points (the village breaks the rules" in e.text for e in events)


def test_broken_village_from_an_old_save_may_lose_any_hut():
    """A village already split (saved under the old rules) may give back any hut, to repair it."""
    s = rigged(players=1, board=1, side="B", totem=0)
    s.villages[0] = ["N0B8", "Z1F8", "L3G4", "P2D3", "F3A1"]  # I taken out: L, P, F cut off
    assert status(s, 0).broken
    assert {m.piece for m in ng.legal_moves(s, 0) if isinstance(m, ng.Remove)} == set("NZLPF")
    s, events = ng.apply_move(s, 0, ng.parse_move("remove Z"))
    assert "breaks the rules now" in events[0].text
    s = play(s, 0, "remove N")  # the totem hut too
    assert s.villages[0] == ["L3G4", "P2D3", "F3A1"] and "no hut covers the rolled totem" in str(
        status(s, 0).broken
    )


def test_refusal_lists_alternatives():
    """A refused placement says what is wrong and what is allowed."""
    s = play(rig(), 0, "X0B3")
    with pytest.raises(IllegalMove) as err:
        play(s, 0, "I0C5")
    assert "fits at" in str(err.value)


# --------------------------------------------------------------------------- simultaneous play


def test_everyone_builds_at_once():
    """All players act in the same state: to_move holds every seat."""
    s = rig(players=3)
    assert ng.to_move(s) == {0, 1, 2}
    a = play(s, 0, "X0B3")
    b = play(s, 2, "X0B3")
    assert a.villages[0] and b.villages[2]
    assert ng.to_move(a) == {0, 1, 2}


def test_apply_does_not_mutate():
    """apply_move never changes its input state."""
    s = rig()
    before = json.dumps(ng.to_dict(s), sort_keys=True)
    play(s, 0, "X0B3")
    with pytest.raises(IllegalMove):
        play(s, 0, "I0D7")
    assert json.dumps(ng.to_dict(s), sort_keys=True) == before


# --------------------------------------------------------------------------- gwinea and scoring


def test_gwinea_needs_all_water():
    """Only a village covering all the water holes may call Gwinea."""
    s = build(rig(), 0, PARTIAL)
    with pytest.raises(IllegalMove, match="4 of the 5"):
        play(s, 0, "gwinea")
    assert ng.Gwinea() not in ng.legal_moves(s, 0)
    s = play(s, 0, "L0E2")
    assert ng.Gwinea() in ng.legal_moves(s, 0)


def test_gwinea_ends_round_and_scores():
    """The call ends the round for all: 1 point per water hole, fruit bonus for the caller only."""
    s = build(rig(players=3), 0, PARTIAL)
    s = build(s, 1, FULL)
    s = play(s, 1, "gwinea")
    rows = s.history[-1]["rows"]
    assert [r["points"] for r in rows] == [4, 5 + 6, 0]
    assert s.history[-1]["caller"] == 1 and s.history[-1]["how"] == "gwinea"
    assert s.scores == [4, 11, 0]
    assert s.round == 2 and s.villages == [[], [], []]


def test_fruit_bonus_table():
    """Fruit bonus for the caller: 1, 3, 6, 10, 15 points for 1-5 fruit."""
    assert FRUIT_BONUS == (0, 1, 3, 6, 10, 15)


def test_variant_fruit_for_all():
    """Variant: only players who did not cover all the water holes get 2 points per fruit bush;
    the caller gets the usual bonus; another player who covered them all scores the water only."""
    s = build(rig(players=3, fruit_for_all=True), 0, PARTIAL)
    s = build(s, 1, FULL)
    s = build(s, 2, FULL)
    s = play(s, 1, "gwinea")
    rows = s.history[-1]["rows"]
    assert [(r["water"], r["fruit"]) for r in rows] == [(4, 2), (5, 3), (5, 3)]
    assert [r["points"] for r in rows] == [4 + 2 * 2, 5 + 6, 5]


def test_variant_fruit_for_all_with_water_target():
    """Both variants: "all the water holes" are the ones needed to call, so a player with enough
    water who did not call scores no fruit, one with fewer scores 2 per fruit bush."""
    s = build(rig(players=3, fruit_for_all=True, water_target=4), 0, PARTIAL)  # 4 water, 2 fruit
    s = play(s, 1, "X0B3")  # 2 water, 1 fruit
    s = build(s, 2, FULL)
    s = play(s, 2, "gwinea")
    assert [r["points"] for r in s.history[-1]["rows"]] == [4, 2 + 2, 5 + 6]


def test_variant_water_target():
    """Variant: an agreed number of water holes is enough to call; each covered hole scores."""
    s = play(rig(water_target=2), 0, "X0B3")
    s = play(s, 0, "gwinea")
    assert s.history[-1]["rows"][0]["points"] == 2 + 1


def test_timeout_only_by_table():
    """The deadline is triggered by the table (seat None), not by a player."""
    s = rig()
    with pytest.raises(NotYourTurn, match="table"):
        ng.apply_move(s, 0, ng.Timeout())
    assert ng.legal_moves(s, None) == [ng.Timeout()]
    new, events = ng.apply_move(s, None, ng.Timeout())
    assert new.round == 2 and any(e.kind == "deadline" for e in events)


def test_deadline_caller_first_finished():
    """At a deadline the caller is whoever completed a legal village first."""
    s = build(rig(), 1, FULL)
    s = build(s, 0, FULL)
    assert deadline_caller(s) == 1
    new, _ = ng.apply_move(s, None, ng.Timeout())
    assert [r["points"] for r in new.history[-1]["rows"]] == [5, 11]
    assert new.history[-1]["how"] == "deadline"


def test_deadline_caller_most_water():
    """If nobody finished, the one with most water holes counts as caller; a tie goes to the earlier."""
    s = play(rig(), 0, "X0B3")
    s = build(s, 1, PARTIAL)
    assert deadline_caller(s) == 1
    s = play(s, 0, "I0D5")
    assert deadline_caller(s) == 1  # both have 4; seat 1 got there first
    new, _ = ng.apply_move(s, None, ng.Timeout())
    assert [r["points"] for r in new.history[-1]["rows"]] == [4, 4 + 3]
    assert deadline_caller(rig()) is None


def test_fruit_variant_deadline_caller_must_cover_the_water():
    """Fruit variant at a deadline: a village short of the water holes is nobody's caller, so the
    first to reach the most water scores 2 per fruit bush like a rival level with it, not the
    caller's bonus (the choice where the texts are silent); a completed village still is."""
    s = rig(fruit_for_all=True)
    s = build(s, 1, PARTIAL)
    s = build(s, 0, PARTIAL)  # both 4 water holes and 2 fruit bushes; seat 1 got there first
    assert deadline_caller(s) is None
    ended, events = ng.apply_move(s, TABLE, ng.Timeout())
    h = ended.history[-1]
    assert h["caller"] is None and [r["points"] for r in h["rows"]] == [4 + 2 * 2, 4 + 2 * 2]
    assert "no fruit bonus, and every legal village scores 2 per fruit bush" in events[1].text
    assert "+ fruit bonus" not in events[1].text
    done = ng.apply_move(play(s, 0, "done"), 1, ng.Done())[0]  # everyone says done: the same
    assert [r["points"] for r in done.history[-1]["rows"]] == [8, 8]
    s = play(s, 0, "L0E2")  # seat 0 completes the village: the caller, with the bonus
    assert deadline_caller(s) == 0
    ended, _ = ng.apply_move(s, TABLE, ng.Timeout())
    assert [r["points"] for r in ended.history[-1]["rows"]] == [5 + FRUIT_BONUS[3], 4 + 2 * 2]


def test_done_then_round_ends_when_all_done():
    """A player may stop building; the round ends when everyone has stopped."""
    s = play(rig(), 0, "X0B3")
    s = play(s, 0, "done")
    assert ng.to_move(s) == {1}
    assert ng.legal_moves(s, 0) == []
    with pytest.raises(NotYourTurn, match="finished building"):
        play(s, 0, "I0D5")
    s = play(s, 1, "done")
    assert s.round == 2
    assert s.history[-1]["caller"] == 0
    assert s.scores == [2 + 1, 0]


def test_nine_rounds_then_over():
    """The game lasts 9 rounds; the most points wins, a tie is shared."""
    s = ng.new_game(ng.Config(players=2), 2, 3)
    for _ in range(9):
        s, _ = ng.apply_move(s, None, ng.Timeout())
    assert s.over and ng.to_move(s) == set()
    out = ng.outcome(s)
    assert out is not None and out.ranking == ((0, 1),)
    with pytest.raises(GameOver):
        play(s, 0, "done")
    assert ng.legal_moves(s, 0) == []


def test_ranking_by_points():
    """The player with the most points wins."""
    s = rig()
    s = dataclasses.replace(s, round=9)
    s = build(s, 1, FULL)
    s = play(s, 1, "gwinea")
    out = ng.outcome(s)
    assert out.winners == (1,) and out.scores == (0.0, 11.0)


# --------------------------------------------------------------------------- views and events


def test_villages_hidden_while_round_runs():
    """Each village is seen only by its owner; others and spectators see counts."""
    s = build(rig(), 0, PARTIAL)
    v0, v1, spec = ng.view_for(s, 0), ng.view_for(s, 1), ng.view_for(s, None)
    assert v0.villages[0] == tuple(PARTIAL)
    assert v1.villages[0] == UNKNOWN and spec.villages[0] == UNKNOWN
    assert v1.huts == (2, 0) and spec.huts == (2, 0)
    assert "X0B3" not in json.dumps(jsonable(v1)) and "X0B3" not in json.dumps(jsonable(spec))
    assert v1.water is not None and spec.water is None


def test_villages_revealed_after_round():
    """When the round ends everyone's village is revealed in the view."""
    s = build(rig(), 0, FULL)
    s = play(s, 0, "gwinea")
    spec = ng.view_for(s, None)
    assert spec.last_round["villages"][0] == FULL
    assert ng.view_for(s, 1).last_round["rows"][0]["points"] == 11


def test_private_events():
    """Building events show the squares to the builder only; the others learn only that a hut was built."""
    state = rig()
    _, events = ng.apply_move(state, 0, ng.parse_move("X0B3"))
    e = events[0]
    assert e.visible_to == frozenset({0}) and "C3" in e.text
    assert e.text_for(1) == e.text_for(None) == "{p0} built a hut"
    mark = ng.move_privacy(state, 0, ng.parse_move("X0B3"))
    assert mark.owner == 0 and mark.quiet and mark.mask == "hut ?"


def test_legal_moves_match_apply():
    """Every listed placement is accepted and every other placement is refused."""
    for s in (rig(), play(rig(), 0, "X0B3"), build(rig(), 0, PARTIAL)):
        legal = {str(m) for m in ng.legal_moves(s, 0)}
        for pl in PLACEMENTS:
            move = ng.Place(pl.piece, pl.orient, pl.anchor)
            try:
                ng.apply_move(s, 0, move)
                ok = True
            except IllegalMove:
                ok = False
            assert ok == (str(move) in legal), str(move)
        assert "done" in legal


def test_round_trip():
    """to_dict/from_dict round-trips a state."""
    s = build(rig(), 0, PARTIAL)
    d = ng.to_dict(s)
    assert ng.to_dict(ng.from_dict(json.loads(json.dumps(d)))) == d
    with pytest.raises(SetupError, match="schema 99"):
        ng.from_dict({**d, "schema": 99})


def test_options_from_table_strings():
    """The table can build a Config from option strings (lobby settings)."""
    import engines
    from engines.core import config_from_options

    info = engines.get("nowa_gwinea")
    names = {o.name for o in info.options()}
    assert names == {"side", "hard_seats", "boards", "water_target", "fruit_for_all", "hard_reroll"}
    c = config_from_options(
        ng.Config,
        3,
        {"side": "hard", "boards": "each", "water_target": "3", "fruit_for_all": "yes", "hard_seats": "1,2"},
    )
    assert c.side is ng.Side.HARD and c.boards is ng.Deal.EACH and c.water_target == 3 and c.fruit_for_all
    with pytest.raises(SetupError):
        config_from_options(ng.Config, 2, {"water_target": "7"})


# --------------------------------------------------------------------------- bookkeeping


def test_one_board_each_deals_new_boards_every_round():
    """One board each: every round deals the next boards of the stack, never a board again
    before the stack is used up (2 players x 9 rounds = 18 different boards)."""
    config = ng.Config(players=2, boards=ng.Deal.EACH)
    dealt = []
    for s, _ in _rounds(config, 5):
        assert s.drawn == 2 * s.round
        assert s.boards == s.deck[s.drawn - 2 : s.drawn]
        dealt += s.boards
    assert len(dealt) == 18 and len(set(dealt)) == 18


def test_shared_board_moves_one_board_a_round():
    """Shared boards: one board a round, a new one each round."""
    boards = [s.boards[0] for s, _ in _rounds(ng.Config(players=3), 9)]
    assert len(boards) == 9 and len(set(boards)) == 9


def test_deadline_caller_with_exactly_one_water_hole():
    """At a deadline the only village with any water (exactly one hole) is the caller and scores
    the fruit bonus; when no village covers water, nobody is the caller."""
    s = play(rig(players=2), 1, "I0A3")  # A3-E3: the parrot, one water hole (D3), one fruit (A3)
    st = status(s, 1)
    assert (st.broken, st.water, st.fruit) == (None, 1, 1)
    assert deadline_caller(s) == 1
    ended, events = ng.apply_move(s, TABLE, ng.Timeout())
    h = ended.history[-1]
    assert (h["caller"], h["how"]) == (1, "deadline")
    assert [r["points"] for r in h["rows"]] == [0, 1 + FRUIT_BONUS[1]]
    assert [e.kind for e in events[:2]] == ["deadline", "score"]
    assert "the fruit bonus goes to {p1}, whose legal village covers the most water holes" in events[1].text
    assert "{p1} 2 points (1 water hole, 1 fruit bush + fruit bonus)" in events[1].text
    assert deadline_caller(rig(players=2)) is None
    nobody, events = ng.apply_move(rig(players=2), TABLE, ng.Timeout())
    assert nobody.history[-1]["caller"] is None and nobody.scores == [0, 0]
    assert "Caller" not in events[1].text


def test_every_round_ends_with_its_scores():
    """Each of the 9 rounds ends with a score event naming every seat's points, and the
    history, the per-round table and the totals agree."""
    s = rig(players=2)
    score_events = []
    for rnd in range(1, 10):
        s.boards, s.sides, s.totem = [99, 99], ["A", "A"], 0
        s = build(s, 0, PARTIAL if rnd % 2 else FULL)
        s, events = ng.apply_move(s, 0, ng.Gwinea() if rnd % 2 == 0 else ng.Done())
        if rnd % 2:
            s, more = ng.apply_move(s, 1, ng.Done())
            events += more
        score_events += [e for e in events if e.kind == "score"]
        assert s.history[-1]["round"] == rnd
    assert len(score_events) == 9
    assert score_events[0].text == (
        "Round 1 scores: {p0} 7 points (4 water holes, 2 fruit bushes + fruit bonus); {p1} 0 points"
        " (0 water holes, 0 fruit bushes). Nobody called Gwinea: the fruit bonus goes to {p0}, whose legal"
        " village covers the most water holes."
    )
    for rnd, e in enumerate(score_events, start=1):
        assert e.text.startswith(f"Round {rnd} scores: ")
        # odd rounds end when both stop: the most water makes seat 0 the caller at the deadline
        mine = (
            "{p0} 7 points (4 water holes, 2 fruit bushes + fruit bonus)"
            if rnd % 2
            else "{p0} 11 points (5 water holes, 3 fruit bushes + fruit bonus)"
        )
        assert mine in e.text and "{p1} 0 points (0 water holes, 0 fruit bushes)" in e.text
    per_round = [[7, 0] if rnd % 2 else [11, 0] for rnd in range(1, 10)]
    assert ng.outcome(s).details["per_round"] == per_round
    assert ng.view_for(s, None).per_round == tuple(map(tuple, per_round))
    assert s.scores == [5 * 7 + 4 * 11, 0] and s.over
    assert events[-1].kind == "end"
    assert events[-1].text == "The game is over after 9 rounds; {p0} wins with 79 points."
    assert set(s.history[0]) == {"round", "boards", "sides", "totem", "villages", "caller", "how", "rows"}
    assert s.history[0]["totem"] == 0 and s.history[1]["villages"][0] == FULL
    end = ng.view_for(s, 0)
    assert end.over and end.done == (True, True) and end.to_move == () and end.scores == (79, 0)
    assert [h["how"] for h in s.history] == ["deadline", "gwinea"] * 4 + ["deadline"]


def test_view_can_call_only_with_a_complete_village():
    """view.can_call: True for the seat whose legal village covers the water, never for others,
    for a spectator, or once the seat has stopped."""
    s = build(rig(players=2), 0, PARTIAL)
    assert not ng.view_for(s, 0).can_call
    s = play(s, 0, "L0E2")
    assert ng.view_for(s, 0).can_call
    assert not ng.view_for(s, 1).can_call and not ng.view_for(s, None).can_call
    stopped = play(s, 0, "done")
    assert not ng.view_for(stopped, 0).can_call


def test_hard_seats_survive_saving():
    """The hard_seats option (and every other option) comes back from the saved state."""
    config = ng.Config(players=3, hard_seats="1,3", water_target=4, fruit_for_all=True, boards=ng.Deal.EACH)
    s = ng.new_game(config, 3, 4)
    back = ng.from_dict(json.loads(json.dumps(ng.to_dict(s))))
    assert back.config == config and back.config.hard_seat_set() == {0, 2}
    assert back.sides == ["B", "A", "B"]


def test_place_and_remove_events_tell_what_happened():
    """The private building lines give the cells, the placement and the water and fruit counts
    (one water hole, several); a removal from an empty village names no huts."""
    s, ev = ng.apply_move(rig(), 0, ng.parse_move("I0A3"))
    assert ev[0].kind == "place" and ev[0].visible_to == frozenset({0})
    assert ev[0].text == "{p0} built hut I on A3 B3 C3 D3 E3 (I0A3): 1 water hole and 1 fruit bush covered"
    s, ev = ng.apply_move(rig(), 0, ng.parse_move("X0B3"))
    assert ev[0].text == "{p0} built hut X on B3 C2 C3 C4 D3 (X0B3): 2 water holes and 1 fruit bush covered"
    s, ev = ng.apply_move(s, 0, ng.parse_move("remove X"))
    assert (ev[0].kind, ev[0].text) == ("remove", "{p0} took hut X back")
    assert s.step == 2 and s.last[0] == "remove X"
    # it read "your huts are: none"
    with pytest.raises(IllegalMove) as err:
        play(s, 0, "remove X")
    assert str(err.value) == "hut X is not in your village; you have no huts on the board"
    assert err.value.said.in_words(ES) == "la choza X no está en tu aldea; no tienes chozas en el tablero"


def test_call_and_done_are_told_and_remembered():
    """A call is announced (kind gwinea) before the scores; done is remembered as the seat's
    last move and announced."""
    s = build(rig(), 0, FULL)
    _, ev = ng.apply_move(s, 0, ng.Gwinea())
    assert [e.kind for e in ev[:4]] == ["gwinea", "cut_off", "score", "round"]
    assert ev[0].text == "{p0} calls Gwinea! Round 1 ends."
    assert ev[3].text.startswith("Round 2 of 9: board ")
    s, ev = ng.apply_move(s, 1, ng.Done())
    assert (ev[0].kind, ev[0].text) == ("done", "{p1} has finished building for this round")
    assert ng.view_for(s, 1).last_move == "done" and s.step == 4


def test_seats_outside_the_game():
    """A seat number outside the game may not build and sees what a spectator sees."""
    s = rig(players=2)
    with pytest.raises(NotYourTurn, match="only the seated players"):
        ng.apply_move(s, 2, ng.parse_move("X0B3"))
    assert ng.view_for(s, 2).villages == ng.view_for(s, None).villages
    assert ng.view_for(s, 2).water is None


def test_view_counts():
    """The view shows the scores and the boards left in the stack."""
    s = rig(players=4)
    s.scores = [3, 1, 4, 1]
    v = ng.view_for(s, None)
    assert v.scores == (3, 1, 4, 1) and v.deck_left == len(s.deck) - s.drawn == 32 - 1


def test_shared_win_is_told():
    """Equal totals after 9 rounds share the win, and the last line says so."""
    s = rig(players=2)
    for _ in range(9):
        s, events = ng.apply_move(s, 0, ng.Done())
        s, events = ng.apply_move(s, 1, ng.Done())
    assert s.over and ng.outcome(s).winners == (0, 1)
    assert events[-1].text == "The game is over after 9 rounds; {p0} and {p1} win with 0 points."


def test_taking_a_hut_back_stays_secret_until_the_round_ends():
    """A removal is the builder's secret: the others read only that a hut was taken back, and the
    move itself becomes readable to all when the round is over."""
    s = build(rig(), 0, PARTIAL)
    move = ng.parse_move("remove I")
    mark = ng.move_privacy(s, 0, move)
    assert mark.owner == 0 and mark.quiet and mark.mask == "remove ?"
    assert ng.readable(s, mark, 0) and not ng.readable(s, mark, 1) and not ng.readable(s, mark, None)
    s2, (ev,) = ng.apply_move(s, 0, move)
    assert ev.kind == "remove" and ev.text_for(1) == ev.text_for(None) == "{p0} took a hut back"
    assert ev.text_for(0) == "{p0} took hut I back"
    s3 = play(build(s2, 0, ["I0D5", "L0E2"]), 0, "gwinea")
    assert ng.readable(s3, mark, 1) and ng.readable(s3, mark, None)
    assert not ng.readable(s3, ng.move_privacy(s3, 0, ng.parse_move("X0B3")), 1)  # round 2's huts


def test_round_scores_name_the_fruit_bonus_for_the_caller_only():
    s = build(build(rig(), 0, FULL), 1, FULL)
    s2, events = ng.apply_move(s, 1, ng.parse_move("gwinea"))
    (score,) = [e for e in events if e.kind == "score"]
    p0, p1 = score.text.split(". ")[0].removeprefix("Round 1 scores: ").split("; ")
    assert p0.startswith("{p0} 5 points") and "fruit bonus" not in p0
    assert p1.startswith("{p1} 11 points") and "+ fruit bonus)" in p1
    assert ng.scores_now(s2) == (5.0, 11.0) and ng.scores_now(s) == (0.0, 0.0)


def test_deadline_scores_tell_who_gets_the_fruit_bonus():
    s = build(build(rig(), 1, FULL), 0, FULL)
    _, events = ng.apply_move(s, None, ng.Timeout())
    (score,) = [e for e in events if e.kind == "score"]
    assert score.text.startswith("Round 1 scores: {p0} 5 points")
    assert "Nobody called Gwinea: the fruit bonus goes to {p1}, who completed a village first." in score.text


def test_summary_tells_the_village_and_the_call():
    s = build(rig(), 0, PARTIAL)
    text = str(ng.summary(ng.view_for(s, 0)))
    assert text.splitlines()[1].startswith("Your village: X0B3 I0D5 (water 4 of 5, fruit ")
    assert str(ng.summary(ng.view_for(s, 1))).splitlines()[1] == "Your village: no huts yet"
    assert ng.summary(ng.view_for(s, None)) == ""
    full = play(s, 0, "L0E2")
    assert str(ng.summary(ng.view_for(full, 0))).splitlines()[-1] == "You may call 'gwinea'."


def test_building_is_undoable_calling_and_ending_the_round_are_not():
    s = build(rig(), 0, FULL)
    assert ng.undoable(s, 1, ng.parse_move("X0B3")) is True
    assert ng.undoable(s, 0, "remove I") is True
    assert ng.undoable(s, 0, ng.parse_move("gwinea")) is False
    assert ng.undoable(s, 0, ng.parse_move("done")) is True  # seat 1 still builds
    assert ng.undoable(play(s, 1, "done"), 0, ng.parse_move("done")) is False  # the round ends


def test_the_view_names_the_reader_the_round_the_boards_and_a_broken_rule():
    s = build(rig(), 0, PARTIAL)
    for seat in (0, 1, None):
        view = ng.view_for(s, seat)
        assert view.seat == seat and view.round == s.round == 1
        assert view.boards == tuple(
            ng.rules.board_info(b, side) for b, side in zip(s.boards, s.sides, strict=True)
        )
    split = rigged(players=1, board=1, side="B", totem=0)
    split.villages[0] = ["N0B8", "Z1F8", "L3G4", "P2D3", "F3A1", "Y0B5"]
    assert ng.view_for(split, 0).broken == status(split, 0).broken
    assert "are not linked corner to corner" in str(ng.view_for(split, 0).broken)
    assert ng.view_for(split, None).broken is None


def test_the_last_call_of_the_game_stays_in_the_callers_view():
    s = dataclasses.replace(rig(), round=9)
    s = play(build(s, 1, FULL), 1, "gwinea")
    assert s.over and ng.view_for(s, 1).last_move == "gwinea" and ng.view_for(s, 0).last_move is None


def test_removing_a_missing_hut_names_that_hut():
    """The refusal says which hut is not in the village, and which huts are."""
    s = build(rig(), 0, PARTIAL)
    with pytest.raises(IllegalMove, match=r"hut Z is not in your village; your huts are: .*X.*I") as err:
        play(s, 0, "remove Z")
    assert err.value.said.args["hut"] == "Z"


def test_a_hut_placed_twice_is_refused_with_six_legal_placements():
    """A hut already in the village: the hint lists six legal placements of any hut, no more."""
    s = play(rig(), 0, "X0B3")
    with pytest.raises(IllegalMove, match="already") as err:
        play(s, 0, "X0E5")
    places = str(err.value.said.args["hint"].args["places"]).split(", ")
    legal = {str(m) for m in ng.legal_moves(s, 0)}
    assert len(places) == 6 and set(places) <= legal


def test_the_view_names_each_seats_board():
    """Every seat's board number and side reach the view (the renderer draws them)."""
    s = ng.new_game(ng.Config(players=3, boards=ng.Deal.EACH), 3, 5)
    assert len(set(s.boards)) > 1
    for seat in (None, 0, 1, 2):
        view = ng.view_for(s, seat)
        assert [(b.board, b.side) for b in view.boards] == list(zip(s.boards, s.sides, strict=True))


def test_the_listed_placements_are_exactly_those_the_rules_allow():
    """legal_moves finds the placements from sets of placements (those covering a needed cell and
    no blocked one); at every step of seeded games they are exactly the placements for which the
    rules find nothing wrong (_placement_error, the refusal's own reasoning)."""
    import random

    from engines.nowa_gwinea.geometry import PLACEMENTS
    from engines.nowa_gwinea.rules import _placement_error

    for seed in range(3):
        s = ng.new_game(ng.Config(players=2), 2, seed)
        rng = random.Random(seed)
        checked = 0
        while not s.over and checked < 25:
            seat = min(ng.to_move(s))
            legal = ng.legal_moves(s, seat)
            listed = {str(m) for m in legal if isinstance(m, ng.Place)}
            allowed = {pl.text for pl in PLACEMENTS if _placement_error(s, seat, pl) is None}
            assert listed == allowed, (seed, checked)
            checked += 1
            s, _ = ng.apply_move(s, seat, rng.choice(legal))
        assert checked == 25


def test_the_stack_holds_the_32_boards_less_those_drawn_since_the_last_shuffle():
    """With one board each for 4 players the deal runs past the 32 boards: the stack empties in
    round 8 and the used boards are shuffled into a new one for round 9; the view counts the
    stack on the table (28, 24, ... 0, then 28), not the whole planned deal (60 in round 1)."""
    s = ng.new_game(ng.Config(players=4, boards=ng.Deal.EACH), 4, 3)
    left = []
    while not s.over:
        left.append(ng.view_for(s, None).stack_left)
        s, _ = ng.apply_move(s, TABLE, ng.Timeout())
    assert left == [28, 24, 20, 16, 12, 8, 4, 0, 28]
    assert ng.view_for(ng.new_game(ng.Config(players=3), 3, 3), 0).stack_left == 31


@pytest.mark.parametrize("side", [ng.Side.STANDARD, ng.Side.HARD])
def test_a_solo_game_plays_nine_rounds_for_a_score(side):
    """Solo (1 player): each round the village built from the rolled totem and covering the
    water holes calls Gwinea and scores its water holes plus the fruit bonus; after 9 rounds the
    game is over, the one seat wins with the sum of its rounds."""
    s = ng.new_game(ng.Config(players=1, side=side), 1, 5)
    expected = []
    for round_no in range(1, 10):
        assert (s.round, ng.to_move(s)) == (round_no, {0})
        task = board_side(s.boards[0], s.sides[0])
        s = build(s, 0, list(task.witnesses[s.totem]))
        st = status(s, 0)
        assert st.complete and st.water == 5
        expected.append(st.water + FRUIT_BONUS[st.fruit])
        s = play(s, 0, "gwinea")
        assert s.history[-1]["caller"] == 0 and s.history[-1]["rows"][0]["points"] == expected[-1]
    assert s.over and ng.to_move(s) == set() and ng.legal_moves(s, 0) == []
    out = ng.outcome(s)
    assert out.winners == (0,) and out.ranking == ((0,),) and out.scores == (float(sum(expected)),)
    assert out.details["per_round"] == [[p] for p in expected]


def test_a_builder_done_in_the_last_round_is_told_the_game_ends_with_it():
    """In round 9 no round follows: a builder who said done and tries to build again is told
    that the game ends when this round does, not that the next round will mention them."""
    s = ng.new_game(ng.Config(players=2), 2, 3)
    for _ in range(8):
        s, _ = ng.apply_move(s, None, ng.Timeout())
    assert s.round == 9 and not s.over
    s = play(s, 0, "done")
    why = ng.waiting(s, 0)
    assert why is not None
    english, spanish = why.in_words(), why.in_words(ES)
    assert "round 9, the last" in english and "game ends when this round does" in english, english
    assert "next round" not in english, english
    assert "última" in spanish and "partida" in spanish and "próxima ronda" not in spanish, spanish
    with pytest.raises(NotYourTurn, match="game ends when this round does"):
        play(s, 0, "gwinea")
    # before the last round the builder still hears of the next one
    early = play(ng.new_game(ng.Config(players=2), 2, 3), 0, "done")
    assert "next round" in ng.waiting(early, 0).in_words()


def test_deadline_caller_tied_on_water_is_said_to_have_reached_it_first():
    """Two legal villages cover as many water holes: the bonus goes to the one that reached that
    count first, and the score line says so (not merely "covers the most water holes", which the
    other village does as well)."""
    for first, second in ((0, 1), (1, 0)):
        s = play(play(rig(players=2), first, "I0A3"), second, "I0A3")  # the same one hole each
        assert status(s, 0).water == status(s, 1).water == 1
        ended, events = ng.apply_move(s, TABLE, ng.Timeout())
        assert ended.history[-1]["caller"] == first
        assert (
            f"the fruit bonus goes to {{p{first}}}, whose legal village covers the most water holes and "
            "reached that count first." in events[1].text
        )
