"""Scenario tests: one per rule of the Guacamole rulebook and ruling."""

from __future__ import annotations

import dataclasses
import json

import pytest

import engines.guacamole as g
from bot.sessions.model import named, refusal
from engines.core import (
    GameOver,
    IllegalMove,
    MalformedMove,
    NotYourTurn,
    SetupError,
    config_from_options,
    echo,
    jsonable,
)
from engines.guacamole.data import dish_kind, dish_points, is_guacamole
from engines.guacamole.rules import (
    AJI,
    AVOCALDO,
    DRAW,
    LIMA,
    MAIN,
    ONION,
    ONION_DISCARD,
    TOMATHOR,
    step_said,
)
from languages import ENGLISH, language
from tests.support.contract import assert_round_trip
from tests.support.sentences import ES

from .helpers import codes, rig, tied_before_last_draw, total_cards


def play(state, seat, *moves):
    """Apply moves (text) in order, checking the input state is never changed."""
    events = []
    for text in moves:
        state, ev = apply(state, seat, text)
        events += ev
    return state, events


def apply(state, seat, text):
    before = json.dumps(g.to_dict(state), sort_keys=True)
    new, events = g.apply_move(state, seat, g.parse_move(text))
    assert json.dumps(g.to_dict(state), sort_keys=True) == before, "apply_move changed its input"
    return new, events


def refused(state, seat, text, exc, fragment):
    before = json.dumps(g.to_dict(state), sort_keys=True)
    with pytest.raises(exc) as info:
        g.apply_move(state, seat, g.parse_move(text))
    assert fragment.lower() in str(info.value).lower(), str(info.value)
    assert json.dumps(g.to_dict(state), sort_keys=True) == before
    assert g.parse_move(text) not in g.legal_moves(state, seat)
    return str(info.value)


def legal_strs(state, seat=None):
    seat = state.turn if seat is None else seat
    return {str(m) for m in g.legal_moves(state, seat)}


# --------------------------------------------------------------------------- setup


@pytest.mark.parametrize("players,pile,deck", [(2, 12, 50), (3, 12, 42), (4, 6, 46), (5, 6, 38), (6, 6, 30)])
def test_setup_by_player_count(players, pile, deck):
    """Setup: 7 in hand, 1 face up in the zone, two discard piles of 12 (2-3p) or 6 (4+p), the rest drawn."""
    s = g.new_game(g.Config(players=players), players, 5)
    assert [len(h) for h in s.hands] == [7] * players
    assert [len(z) for z in s.prep] == [1] * players
    assert [len(x) for x in s.discards] == [pile, pile]
    assert len(s.deck) == deck
    assert total_cards(s) == list(range(90))
    assert g.to_move(s) == {0} and s.phase == MAIN


def test_deck_composition():
    """Components: 90 cards, 5 types x numbers 1-9 x 2 copies."""
    from collections import Counter

    from engines.guacamole.data import card_code

    counts = Counter(card_code(c) for c in range(90))
    assert len(counts) == 45 and set(counts.values()) == {2}


def test_setup_refusals():
    """Setup: 2 to 6 players, seats must match, dishes_per_turn among its choices."""
    with pytest.raises(SetupError, match="2 to 6"):
        g.new_game(g.Config(players=7), 7, 1)
    with pytest.raises(SetupError, match="2 to 6"):
        g.Config(players=1).validate()
    with pytest.raises(SetupError, match="seats"):
        g.new_game(g.Config(players=3), 2, 1)
    with pytest.raises(SetupError, match="dishes_per_turn"):
        g.Config(players=3, dishes_per_turn=5).validate()
    cfg = config_from_options(g.Config, 4, {"dishes_per_turn": "2"})
    assert cfg == g.Config(players=4, dishes_per_turn=2)


def test_config_options_for_lobbies():
    """Options: dishes_per_turn is listed with its help and choices; players is not an option."""
    from engines.core import config_options

    opts = {o.name: o for o in config_options(g.Config)}
    assert list(opts) == ["dishes_per_turn"]
    assert opts["dishes_per_turn"].choices == (1, 2, 3, 0) and opts["dishes_per_turn"].default == 1
    assert config_from_options(g.Config, 3, {"dishes_per_turn": "0"}).dishes_per_turn == 0
    with pytest.raises(SetupError):
        config_from_options(g.Config, 3, {"dishes_per_turn": "7"})


def test_setup_is_seeded():
    """Setup: the shuffle depends only on the seed."""
    a = g.to_dict(g.new_game(g.Config(players=3), 3, 42))
    b = g.to_dict(g.new_game(g.Config(players=3), 3, 42))
    c = g.to_dict(g.new_game(g.Config(players=3), 3, 43))
    assert a == b and a != c


# --------------------------------------------------------------------------- notation


def test_parse_is_tolerant_and_canonical():
    """Notation: case-insensitive, tolerant of spaces and commas; str() is canonical."""
    assert str(g.parse_move("  PREP   5t ")) == "prep 5T"
    assert str(g.parse_move("dish  z5t")) == "dish z5T"
    assert str(g.parse_move("DONE")) == "done" and str(g.parse_move("cancel ")) == "cancel"
    assert str(g.parse_move("add 2 z6t 7T")) == "add d2 z6T,7T"
    assert str(g.parse_move("swap P1Z5T X2")) == "swap p1z5T x2"
    assert str(g.parse_move("take p2D1")) == "take p2d1"
    assert str(g.parse_move("draw DECK")) == "draw deck"
    assert str(g.parse_move("draw 2")) == "draw x2"
    assert str(g.parse_move("discard 5t 1")) == "discard 5T x1"
    assert str(g.parse_move("free 5t x2")) == "free 5T x2"
    assert str(g.parse_move("steal 3")) == "steal p3"
    assert str(g.parse_move("Pass")) == "pass" and str(g.parse_move("END")) == "end"


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("", "empty"),
        (",", "only spaces or separators"),
        (" ;, ", "only spaces or separators"),
        ("prep 0T", "prep 5T"),
        ("prep 5X", "prep 5T"),
        ("dish", "dish z5T"),
        ("dish 5T,6T,7T", "one card per move"),
        ("dish 5T z6T", "one card per move"),
        ("add d1 1T,2T,3T,4T", "1 to 3 cards"),
        ("add d1", "1 to 3 cards"),
        ("add 1 ,;", "1 to 3 cards"),
        ("add", "1 to 3 cards"),
        ("add 5T 6T", "1 to 3 cards"),
        ("add d1 5T x1", "1 to 3 cards"),
        ("steal p9", "steal p2"),
        ("swap x1 p2d1", "swap 5T p2d1"),
        ("take 5T", "take p2d1"),
        ("draw x3", "draw deck"),
        ("cook 5T", "not one of its words"),
        ("cook", '"cook" is not one of its words'),
    ],
)
def test_malformed_moves_explain_notation(text, fragment):
    """Notation: a malformed text raises MalformedMove naming the notation with an example."""
    with pytest.raises(MalformedMove) as info:
        g.parse_move(text)
    assert fragment.lower() in str(info.value).lower()


@pytest.mark.parametrize("text", [",", ";", ",,", " ; ", " , ;", "\t,\n", ""])
def test_separators_alone_are_no_move(text):
    """Notation: spaces, commas and semicolons only separate words; a text of nothing else is
    refused as malformed (it once raised IndexError), naming what a move looks like."""
    with pytest.raises(MalformedMove, match="empty or holds only spaces or separators") as info:
        g.parse_move(text)
    assert "prep 5T" in str(info.value)
    assert str(info.value).startswith(f"{echo(text)} is not a Guacamole move")


def test_notation_fits_a_custom_id():
    """Notation: every move text fits a 100-character button custom_id."""
    s = rig(hands={0: [f"{n}T" for n in range(1, 10)] + [f"{n}T" for n in range(1, 10)]}, prep={0: ["1P"]})
    moves = g.legal_moves(s, 0)
    assert moves and max(len(str(m)) for m in moves) <= 100


# --------------------------------------------------------------------------- turn order


def test_not_your_turn_and_game_over():
    """Turn: only the player whose turn it is may act; nothing after the end."""
    s = rig(hands={0: ["1T"], 1: ["2T"]})
    refused(s, 1, "prep 2T", NotYourTurn, "{p0}'s turn")
    with pytest.raises(NotYourTurn) as early:
        g.apply_move(s, 1, g.parse_move("prep 2T"))
    assert refusal(named(early.value, ["Ana", "Beto"]), ENGLISH) == "it is Ana's turn, not yours"
    assert refusal(named(early.value, ["Ana", "Beto"]), language("es")) == "es el turno de Ana, no el tuyo"
    assert g.legal_moves(s, 1) == []
    over = dataclasses.replace(s, over=True, phase="over")
    with pytest.raises(GameOver):
        g.apply_move(over, 0, g.parse_move("end"))
    assert g.to_move(over) == set() and g.legal_moves(over, 0) == []


# --------------------------------------------------------------------------- step 1: prepare


def test_prepare_moves_card_to_zone_and_starts_ability():
    """Step 1: a prepared card goes face up into the zone and its ability step begins."""
    s = rig(hands={0: ["5L", "2T"], 1: ["1A"]}, prep={0: ["3O"]})
    s2, ev = apply(s, 0, "prep 5L")
    assert codes(s2.prep[0]) == ["3O", "5L"] and codes(s2.hands[0]) == ["2T"]
    assert s2.phase == LIMA and "prepared 5 Lima" in ev[0].text
    assert legal_strs(s2) == {"steal p2", "pass"}


def test_prepare_refusals():
    """Step 1: only a hand card, only one per turn, and before any dish."""
    s = rig(hands={0: ["5L", "2T", "3T", "4T"], 1: ["1A"]}, prep={0: []})
    refused(s, 0, "prep 9L", IllegalMove, "no 9L in hand")
    s2, _ = apply(s, 0, "prep 5L")
    s2, _ = apply(s2, 0, "pass")
    refused(s2, 0, "prep 2T", IllegalMove, "already prepared")
    s3, _ = serve(s, 0, ["2T", "3T", "4T"])
    refused(s3, 0, "prep 5L", IllegalMove, "before dishes")


def test_zone_limit_and_free():
    """Step 1: the zone holds at most 4; with 4 at turn start one may first go to a discard pile."""
    s = rig(hands={0: ["5L"]}, prep={0: ["1P", "2P", "3P", "4P"]}, discards=(["9A"], ["9P"]))
    refused(s, 0, "prep 5L", IllegalMove, "full (4 cards); first free one onto a discard pile (free 1P x1)")
    assert "free 2P x1" in legal_strs(s) and "free 2P x2" in legal_strs(s)
    s2, ev = apply(s, 0, "free 2P x2")
    assert codes(s2.discards[1]) == ["9P", "2P"] and codes(s2.prep[0]) == ["1P", "3P", "4P"]
    refused(s2, 0, "free 1P x1", IllegalMove, "first thing")
    s3, _ = apply(s2, 0, "prep 5L")
    assert len(s3.prep[0]) == 4


def test_free_needs_four_at_turn_start():
    """Step 1: with fewer than 4 zone cards at turn start, nothing may be freed."""
    s = rig(hands={0: ["5L"], 1: ["1A"]}, prep={0: ["1P", "2P", "3P"]})
    refused(s, 0, "free 1P x1", IllegalMove, "held 4")
    s4 = rig(hands={0: ["5L"]}, prep={0: ["1P", "2P", "3P", "4P"]})
    refused(s4, 0, "free 9A x1", IllegalMove, "your preparation zone has no 9A; it holds 1P, 2P, 3P, 4P")
    s2, _ = apply(s, 0, "prep 5L")  # zone now 4, but it held 3 at turn start
    s2, _ = apply(s2, 0, "pass")
    refused(s2, 0, "free 1P x1", IllegalMove, "first thing")


def test_free_is_optional_and_does_not_force_prepare():
    """Step 1 (choice): freeing is optional and does not oblige a preparation."""
    s = rig(hands={0: ["5L"]}, prep={0: ["1P", "2P", "3P", "4P"]}, discards=(["9A"], ["9P"]))
    s2, _ = apply(s, 0, "free 1P x1")
    s3, _ = apply(s2, 0, "draw deck")
    assert s3.phase == DRAW


# --------------------------------------------------------------------------- step 2: dishes


def serve(state, seat, cards):
    """Lay the cards one per move, then finish the dish with done."""
    return play(state, seat, *[f"dish {c}" for c in cards], "done")


@pytest.mark.parametrize(
    "cards,kind",
    [
        (["5T", "5L", "5O"], "number"),
        (["1T", "7T", "9T"], "type"),
        (["2P", "3L", "4O", "5T"], "straight"),
        (["6A", "4A", "5T"], "straight"),
    ],
)
def test_dish_kinds(cards, kind):
    """Step 2: a dish is 3+ cards of one number, of one type, or a run (in any order)."""
    s = rig(hands={0: cards})
    s2, ev = serve(s, 0, cards)
    assert [codes(d) for d in s2.dishes[0]] == [cards]
    assert s2.hands[0] == [] and s2.building == [] and s2.phase == MAIN
    assert dish_kind(codes(s2.dishes[0][0])) == kind
    assert "served dish 1" in ev[-1].text and ev[0].text.startswith("{p0} started a dish with")


@pytest.mark.parametrize(
    "cards,fragment",
    [
        (["5T", "5L"], "at least 3"),
        (["8T", "9L", "1O"], "unbroken run"),
        (["5T", "6L", "8O"], "unbroken run"),
    ],
)
def test_invalid_dishes_cannot_be_served(cards, fragment):
    """Step 2: fewer than 3 cards, a gap or a 9-1 wrap is no dish: done is refused."""
    s = rig(hands={0: cards})
    s2, _ = play(s, 0, *[f"dish {c}" for c in cards])
    refused(s2, 0, "done", IllegalMove, fragment)
    assert "done" not in legal_strs(s2) and "cancel" in legal_strs(s2)


def test_dish_cards_must_stay_compatible():
    """Step 2: a card that breaks every dish kind cannot be laid (a run with a repeated number, mixed sets)."""
    s = rig(hands={0: ["4T", "5L", "5O", "6A", "5P"]})
    s2, _ = play(s, 0, "dish 4T", "dish 5L")
    msg = refused(s2, 0, "dish 5O", IllegalMove, "cannot join")
    assert "6A" in msg
    assert legal_strs(s2) == {"dish 6A", "cancel"}
    s3, _ = play(s, 0, "dish 5L", "dish 5O")
    assert "dish 4T" not in legal_strs(s3) and "dish 5P" in legal_strs(s3)


def test_dish_from_hand_and_zone_last_card_on_top():
    """Step 2: dishes use hand and zone cards; the last card laid is the visible top."""
    s = rig(hands={0: ["5T", "5L"]}, prep={0: ["5O", "2A"]})
    s2, _ = serve(s, 0, ["5T", "5L", "z5O"])
    assert codes(s2.dishes[0][0]) == ["5T", "5L", "5O"]
    assert codes(s2.prep[0]) == ["2A"] and s2.hands[0] == []
    v = g.view_for(s2, 1)
    assert v.dishes[0][0].cards[-1] == "5O" and "p1d1" in g.rules.visible_places(s2)
    s3, _ = play(rig(hands={0: ["5T", "5L"]}, prep={0: ["2A"]}), 0, "dish 5T")
    refused(s3, 0, "dish z5O", IllegalMove, "preparation zone")


def test_dish_in_progress_is_public_and_can_be_cancelled():
    """Step 2 (choice): a dish in progress is shown to all; cancel returns its cards to hand and zone."""
    s = rig(hands={0: ["5T", "5L"]}, prep={0: ["5O"]})
    s2, _ = play(s, 0, "dish z5O", "dish 5T")
    assert g.view_for(s2, None).building == ("5O", "5T") and s2.phase == "dish"
    refused(s2, 0, "draw deck", IllegalMove, "cannot draw")
    s3, ev = apply(s2, 0, "cancel")
    assert codes(s3.prep[0]) == ["5O"] and sorted(codes(s3.hands[0])) == ["5L", "5T"]
    assert s3.phase == MAIN and s3.dishes_made == 0 and "took back" in ev[0].text
    assert total_cards(s3) == total_cards(s)


def test_one_dish_per_turn_and_option():
    """Ruling: one new dish per turn; the dishes_per_turn option allows more (0 = no limit)."""
    hand = ["1T", "2T", "3T", "5L", "5O", "5A", "7P", "7L", "7O"]
    s = rig(hands={0: hand})
    s2, _ = serve(s, 0, ["1T", "2T", "3T"])
    refused(s2, 0, "dish 5L", IllegalMove, "1 new dish per turn")
    assert not any(m.startswith("dish") for m in legal_strs(s2))
    s = rig(hands={0: hand}, dishes_per_turn=2)
    s2, _ = serve(s, 0, ["1T", "2T", "3T"])
    s2, _ = serve(s2, 0, ["5L", "5O", "5A"])
    refused(s2, 0, "dish 7P", IllegalMove, "2 new dishes")
    s = rig(hands={0: hand}, dishes_per_turn=0)
    s2, _ = serve(s, 0, ["1T", "2T", "3T"])
    s2, _ = serve(s2, 0, ["5L", "5O", "5A"])
    s2, _ = serve(s2, 0, ["7P", "7L", "7O"])
    assert len(s2.dishes[0]) == 3


# --------------------------------------------------------------------------- step 3: draw


def test_draw_two_any_mix_ends_turn():
    """Step 3: draw 2 from any mix of the draw pile and discard piles; then the next player."""
    s = rig(hands={0: []}, discards=(["1A", "2A"], ["3P"]), deck_top=["4L", "5L"])
    s2, ev = apply(s, 0, "draw x1")
    assert s2.phase == DRAW and codes(s2.hands[0]) == ["2A"]
    refused(s2, 0, "prep 2A", IllegalMove, "draw 1 more")
    s3, ev = apply(s2, 0, "draw deck")
    assert codes(s3.hands[0]) == ["4L", "2A"] or sorted(codes(s3.hands[0])) == ["2A", "4L"]
    assert s3.turn == 1 and s3.phase == MAIN


def test_draw_from_deck_is_private():
    """Hidden information: a card drawn from the draw pile is seen only by its drawer."""
    s = rig(deck_top=["4L"])
    _, ev = apply(s, 0, "draw deck")
    e = ev[0]
    assert e.visible_to == frozenset({0}) and "4L" in e.text and "4L" not in e.public_text


def test_empty_discard_pile_refilled_at_once():
    """Step 3: an emptied discard pile gets the draw pile's top card at once."""
    s = rig(discards=(["1A"], ["3P"]), deck_top=["4L", "5L"])
    s2, ev = apply(s, 0, "draw x1")
    assert codes(s2.discards[0]) == ["4L"] and codes(s2.hands[0]) == ["1A"]
    assert any("refilled with 4L" in e.text for e in ev)


def test_turn_passes_in_order():
    """Turn order: clockwise from the starting player (seat 0)."""
    s = rig(players=3)
    for expected in (1, 2, 0, 1):
        s, _ = play(s, s.turn, "draw deck", "draw deck")
        assert s.turn == expected


# --------------------------------------------------------------------------- abilities


def test_avocaldo_adds_up_to_three_cards():
    """Patricia & Avocaldo: up to 3 hand/zone cards into one valid dish, which stays valid."""
    s = rig(hands={0: ["1P", "5A", "6A", "7A"]}, prep={0: ["5L"]}, dishes={0: [["5T", "5O", "5P"]]})
    s2, _ = apply(s, 0, "prep 1P")
    assert s2.phase == AVOCALDO
    s3, ev = apply(s2, 0, "add d1 5A,z5L")
    assert codes(s3.dishes[0][0]) == ["5T", "5O", "5P", "5A", "5L"]
    assert s3.phase == MAIN and "added" in ev[0].text
    refused(s2, 0, "add d1 5A,6A", IllegalMove, "invalid")
    refused(
        s2,
        0,
        "add d1 5A,5A",
        IllegalMove,
        "the move uses 5A 2 times but your hand has only 1; your hand holds 5A, 6A, 7A",
    )
    refused(
        s2,
        0,
        "add d1 z5A",
        IllegalMove,
        "you have no 5A in your preparation zone; your preparation zone holds",
    )
    refused(s2, 0, "add d2 5A", IllegalMove, "no dish 2")
    for cards in ((), ("5A", "6A", "7A", "z5L")):  # the parser never makes these; the rules refuse them too
        with pytest.raises(IllegalMove, match=f"add 1 to 3 cards .* not {len(cards)}"):
            g.apply_move(s2, 0, g.Add(1, cards))


def test_avocaldo_can_add_itself_and_extend_runs():
    """Patricia & Avocaldo: the prepared card itself may be added; a run takes the next numbers."""
    s = rig(hands={0: ["6P", "7A", "2L"]}, dishes={0: [["3T", "4L", "5O"]]})
    s2, _ = apply(s, 0, "prep 6P")
    assert "add d1 z6P,7A" in legal_strs(s2) and "add d1 2L,z6P,7A" in legal_strs(s2)
    s3, _ = apply(s2, 0, "add d1 2L,z6P,7A")
    assert codes(s3.dishes[0][0])[-1] == "7A" and dish_kind(codes(s3.dishes[0][0])) == "straight"
    assert s3.prep[0] == []


def test_avocaldo_refuses_invalid_dish_and_passes():
    """Effects on dishes: an invalid dish accepts no cards; the ability may be passed."""
    s = rig(hands={0: ["1P", "5A"]}, dishes={0: [["5T", "5O", "6P"], ["2T", "3T", "4T"]]})
    s2, _ = apply(s, 0, "prep 1P")
    refused(s2, 0, "add d1 5A", IllegalMove, "not valid")
    s3, ev = apply(s2, 0, "pass")
    assert s3.phase == MAIN and "did not use" in ev[0].text


def test_ability_skipped_when_nothing_to_act_on():
    """Choice: an ability with nothing to act on is skipped (Avocaldo without a dish)."""
    s = rig(hands={0: ["1P", "5A"]})
    s2, ev = apply(s, 0, "prep 1P")
    assert s2.phase == MAIN and any("nothing to act on" in e.text and e.kind == "ability" for e in ev)


def test_lima_kahlo_steals_random_card_privately():
    """Lima Kahlo: a random card of a chosen player's hand; only the two players see which."""
    s = rig(players=3, hands={0: ["5L"], 1: ["1A", "2A", "3A"], 2: ["9T"]})
    s2, _ = apply(s, 0, "prep 5L")
    refused(s2, 0, "steal p1", IllegalMove, "another player")
    s3, ev = apply(s2, 0, "steal p2")
    assert len(s3.hands[0]) == 1 and len(s3.hands[1]) == 2
    stolen = codes(s3.hands[0])[0]
    assert stolen in {"1A", "2A", "3A"}
    e = ev[0]
    assert e.visible_to == frozenset({0, 1}) and stolen in e.text
    assert e.public_text and stolen not in e.public_text
    assert e.text_for(2) == e.public_text and e.text_for(None) == e.public_text
    assert e.text_for(1) == e.text


def test_lima_kahlo_tells_the_victim_which_card_they_lost():
    """Rulebook: only the two players involved see which card moved.  The victim is told which
    card left their hand (their view and its summary) as the thief is told which came in; a third
    player and a spectator are not, and their views are the same whichever card it was."""
    hidden = {}
    for seed in range(12):
        s = rig(players=3, hands={0: ["5L"], 1: ["1A", "2A", "3A"], 2: ["9T"]}, seed=seed)
        s2, _ = play(s, 0, "prep 5L", "steal p2")
        stolen = codes(s2.hands[0])[0]
        victim, thief = g.view_for(s2, 1), g.view_for(s2, 0)
        assert victim.taken == thief.taken == ((0, 1, stolen),)
        assert f"Lima Kahlo: {{p0}} took {stolen} from your hand." in str(g.summary(victim))
        assert f"Lima Kahlo: you took {stolen} from {{p1}}'s hand." in str(g.summary(thief))
        for reader in (2, None):
            view = g.view_for(s2, reader)
            assert view.taken == () and stolen not in str(g.summary(view))
            hidden.setdefault(reader, {})[stolen] = view
        assert_round_trip(g, s2)
    for reader, views in hidden.items():
        assert len(views) == 3, views.keys()  # every card was taken by some seed...
        first = next(iter(views.values()))
        assert all(v == first for v in views.values()), reader  # ...and the others' views cannot tell which


def test_the_victim_is_told_until_the_thief_plays_again():
    """The victim keeps the news through their own turn (they may not have looked before it);
    it goes when the thief's next turn begins."""
    s = rig(players=3, hands={0: ["5L", "4T"], 1: ["1A"], 2: ["9T"]})
    s, _ = play(s, 0, "prep 5L", "steal p2", "draw deck", "draw deck")
    for seat in (1, 2):
        assert g.view_for(s, 1).taken == ((0, 1, "1A"),), seat
        s, _ = play(s, seat, "draw deck", "draw deck")
    assert s.turn == 0 and g.view_for(s, 1).taken == () and g.view_for(s, 0).taken == ()
    assert "Lima Kahlo" not in str(g.summary(g.view_for(s, 1)))


def test_lima_kahlo_is_uniform_and_seeded():
    """Lima Kahlo: the stolen card is uniformly random, fixed by the seed and the steal count."""
    seen = set()
    for seed in range(40):
        s = rig(hands={0: ["5L"], 1: ["1A", "2A", "3A"]}, seed=seed)
        s2, _ = play(s, 0, "prep 5L", "steal p2")
        seen.add(codes(s2.hands[0])[0])
        again, _ = play(s, 0, "prep 5L", "steal p2")
        assert again.hands == s2.hands
    assert seen == {"1A", "2A", "3A"}


def test_lima_kahlo_empty_hand_gives_nothing():
    """Ruling: stealing from an empty hand gives nothing (another player's hand holds a card, so
    Lima Kahlo has something to act on and is not skipped)."""
    s = rig(players=3, hands={0: ["5L"], 1: [], 2: ["9A"]})
    s2, ev = play(s, 0, "prep 5L", "steal p2")
    assert (
        s2.hands[:2] == [[], []]
        and codes(s2.hands[2]) == ["9A"]
        and "empty" in ev[-1].text
        and s2.phase == MAIN
    )
    assert (ev[-1].kind, ev[-1].text) == ("steal", "{p0} tried to steal from {p1}, whose hand is empty.")


def test_onion_musk_draws_three_then_discards():
    """Onion Musk: draw 3 in any mix from the draw pile and both discard piles, then discard 1."""
    s = rig(hands={0: ["5O"]}, discards=(["1A", "2A"], ["3P", "4P"]), deck_top=["7L"])
    s2, _ = apply(s, 0, "prep 5O")
    assert s2.phase == ONION and "pass" in legal_strs(s2)
    s3, _ = play(s2, 0, "draw x1", "draw x2")
    refused(s3, 0, "pass", IllegalMove, "have begun")
    s4, _ = apply(s3, 0, "draw deck")
    assert s4.phase == ONION_DISCARD and sorted(codes(s4.hands[0])) == ["2A", "4P", "7L"]
    refused(s4, 0, "discard 9T x1", IllegalMove, "no 9T")
    s5, ev = apply(s4, 0, "discard 7L x2")
    assert codes(s5.discards[1])[-1] == "7L" and s5.phase == MAIN
    assert "discarded 7L onto discard pile 2" in ev[0].text


def test_onion_musk_all_from_one_discard_pile():
    """Onion Musk: all three may come from one discard pile."""
    s = rig(hands={0: ["5O"]}, discards=(["1A", "2A", "3A", "4A"], ["3P"]))
    s2, _ = play(s, 0, "prep 5O", "draw x1", "draw x1", "draw x1")
    assert s2.phase == ONION_DISCARD and codes(s2.discards[0]) == ["1A"]


def test_onion_musk_pass():
    """Choice: Onion Musk may be declined before its first draw."""
    s = rig(hands={0: ["5O"]})
    s2, _ = play(s, 0, "prep 5O", "pass")
    assert s2.phase == MAIN and s2.hands[0] == []


def test_tomathor_swaps_in_place():
    """Tomathor: swap a hand card with a visible card of any player; both change places."""
    s = rig(hands={0: ["5T", "9L"], 1: []}, dishes={1: [["1A", "2A", "3A"]]})
    s2, _ = apply(s, 0, "prep 5T")
    assert s2.phase == TOMATHOR
    s3, ev = apply(s2, 0, "swap 9L p2d1")
    assert codes(s3.dishes[1][0]) == ["1A", "2A", "9L"]
    assert codes(s3.hands[0]) == ["3A"]
    assert any("no longer valid" in e.text for e in ev)
    assert "p2d1" in s3.marks


def test_tomathor_own_zone_and_dish_sources():
    """Tomathor: the swapped card may be from your zone or your dish top; targets include discard tops."""
    s = rig(hands={0: ["5T"]}, prep={0: ["4O"]}, dishes={0: [["1A", "2A", "3A"]]}, discards=(["8P"], ["9P"]))
    s2, _ = apply(s, 0, "prep 5T")
    legal = legal_strs(s2)
    assert {"swap p1z4O x1", "swap p1d1 x2", "swap p1d1 p1z5T", "swap p1z5T p1d1"} <= legal
    assert "swap p1z4O p1z5T" not in legal
    refused(s2, 0, "swap p1z4O p1z5T", IllegalMove, "same preparation zone")
    refused(s2, 0, "swap p2z1T x1", IllegalMove, "must be yours")
    s3, _ = apply(s2, 0, "swap p1z4O x1")
    assert codes(s3.prep[0]) == ["8P", "5T"] and codes(s3.discards[0]) == ["4O"]


def test_tomathor_swap_reads_z5T_as_ones_own_zone_card():
    """Dishes and free write one's own zone card z4O, but 'swap z4O x1' was refused (the swap
    only read p1z4O): the swap now reads z4O as the mover's zone card, as p1z4O still is."""
    s = rig(
        hands={0: ["5T"], 1: ["5T"]},
        prep={0: ["4O"], 1: ["3A"]},
        dishes={0: [["1A", "2A", "3A"]]},
        discards=(["8P"], ["9P"]),
    )
    s2, _ = apply(s, 0, "prep 5T")
    assert str(g.parse_move("SWAP Z4o x1")) == "swap z4O x1"
    s3, _ = apply(s2, 0, "swap z4O x1")
    s3b, _ = apply(s2, 0, "swap p1z4O x1")
    assert g.to_dict(s3) == g.to_dict(s3b)  # the same move, written as the log keeps it
    assert codes(s3.prep[0]) == ["8P", "5T"] and codes(s3.discards[0]) == ["4O"]
    assert s3.turn_moves[-1] == "swap p1z4O x1"
    assert g.undoable(s2, 0, g.parse_move("swap z4O x1")) is True
    assert g.undoable(s2, 0, "swap z4O p1d1") is True
    assert g.undoable(s2, 0, "swap 5T x1") is False  # a hand card is shown
    refused(s2, 0, "swap z4O p1z5T", IllegalMove, "same preparation zone")
    refused(s2, 0, "swap z3A x1", IllegalMove, "your preparation zone has no 3A")
    # seat 2 (p2) writing z3A means its own zone, never seat 1's
    t = rig(hands={0: [], 1: ["5T"]}, prep={0: ["3A"], 1: ["4O"]}, discards=(["8P"], ["9P"]), turn=1)
    t2, _ = apply(t, 1, "prep 5T")
    t3, _ = apply(t2, 1, "swap z4O x2")
    assert codes(t3.prep[1]) == ["9P", "5T"] and codes(t3.prep[0]) == ["3A"]
    refused(t2, 1, "swap z3A x2", IllegalMove, "your preparation zone has no 3A")


def test_tomathor_does_not_trigger_abilities():
    """Choice: a card moved into a zone by Tomathor does not fire its ability."""
    s = rig(hands={0: ["5T", "2L"]}, prep={1: ["6O"]})
    s2, _ = play(s, 0, "prep 5T", "swap 2L p2z6O")
    assert s2.phase == MAIN and codes(s2.prep[1]) == ["2L"]


def test_invalid_dish_restored_by_tomathor():
    """Effects on dishes: a dish broken by a swap takes no cards until a swap makes it valid again."""
    s = rig(hands={0: ["5T", "1P", "1P", "4A"]}, prep={1: ["3A"]}, dishes={0: [["1A", "2A", "9L"]]})
    s2, _ = apply(s, 0, "prep 1P")
    assert s2.phase == MAIN  # dish 1 invalid: Avocaldo skipped
    s = dataclasses.replace(s2, prepared=False)
    s3, ev = play(s, 0, "prep 5T", "swap p1d1 p2z3A")
    assert codes(s3.dishes[0][0]) == ["1A", "2A", "3A"] and any("valid again" in e.text for e in ev)
    assert codes(s3.prep[1]) == ["9L"]
    s4 = dataclasses.replace(s3, prepared=False)
    s5, _ = play(s4, 0, "prep 1P", "add d1 4A")
    assert codes(s5.dishes[0][0]) == ["1A", "2A", "3A", "4A"]


def test_aji_styles_takes_visible_card():
    """Aji Styles: take any visible card (zone, dish top, discard top) into hand."""
    s = rig(hands={0: ["5A"]}, prep={1: ["6O"]}, dishes={1: [["1T", "2T", "3T"]]}, discards=(["8P"], ["9P"]))
    s2, _ = apply(s, 0, "prep 5A")
    assert s2.phase == AJI
    assert legal_strs(s2) == {"take p1z5A", "take p2z6O", "take p2d1", "take x1", "take x2", "pass"}
    s3, ev = apply(s2, 0, "take p2d1")
    assert codes(s3.dishes[1][0]) == ["1T", "2T"] and codes(s3.hands[0]) == ["3T"]
    assert any("no longer valid" in e.text for e in ev)
    refused(s2, 0, "take p2z7O", IllegalMove, "no 7O")
    refused(s2, 0, "take p3d1", IllegalMove, "no player 3")


def test_aji_styles_own_card_and_discard_refill():
    """Aji Styles: one's own zone card may be taken; an emptied discard pile is refilled."""
    s = rig(hands={0: ["5A"]}, discards=(["8P"], ["9P"]), deck_top=["2L"])
    s2, _ = play(s, 0, "prep 5A", "take x1")
    assert codes(s2.discards[0]) == ["2L"] and codes(s2.hands[0]) == ["8P"]
    s3, _ = play(s, 0, "prep 5A", "take p1z5A")
    assert codes(s3.hands[0]) == ["5A"] and s3.prep[0] == []


def test_only_dish_tops_are_visible():
    """Visible cards: only the top of a dish may be taken or swapped; lower cards are not places."""
    s = rig(hands={0: ["5A"]}, dishes={1: [["1T", "2T", "3T"]]})
    s2, _ = apply(s, 0, "prep 5A")
    assert not any("1T" in m or "2T" in m for m in legal_strs(s2))


def test_emptied_dish_counts_as_no_dish():
    """Choice: a dish emptied by Aji stays numbered, shows no visible card and counts as no dish."""
    s = rig(hands={0: ["5A"]}, dishes={1: [["1T"], ["4T", "5T", "6T"]]})
    s2, _ = play(s, 0, "prep 5A", "take p2d1")
    assert s2.dishes[1][0] == [] and "p2d1" not in g.rules.visible_places(s2)
    keys = dict(g.rules.tiebreak_keys(s2)[1:])
    assert keys["more dishes"][1] == 1


# --------------------------------------------------------------------------- game end


def test_last_deck_card_triggers_end_and_round_completes():
    """Game end: drawing the last draw-pile card triggers the end; the round is finished."""
    s = rig(
        players=3,
        discards=(["1A", "2A"], ["3P", "4P"]),
        deck_top=["7L"],
        fill_deck=False,
        turn=1,
        dishes={0: [["1T", "2T", "3T"]]},
    )
    s, ev = apply(s, 1, "draw deck")
    assert s.end_triggered and any(e.kind == "end_triggered" for e in ev)
    s, _ = apply(s, 1, "draw x1")
    assert s.turn == 2 and not s.over
    s, _ = play(s, 2, "draw x1", "draw x2")
    assert s.over and g.to_move(s) == set()
    oc = g.outcome(s)
    assert oc.scores == (4.0, 0.0, 0.0) and oc.winners == (0,)


def test_end_triggered_by_refill():
    """Ruling: the last draw-pile card leaving by a refill also triggers the end."""
    s = rig(discards=(["1A"], ["3P"]), deck_top=["7L"], fill_deck=False)
    s2, ev = apply(s, 0, "draw x1")
    assert s2.deck == [] and s2.end_triggered and codes(s2.discards[0]) == ["7L"]


def test_after_deck_empty_draw_from_discards_then_nothing():
    """Ruling: with the draw pile empty, draws come from discard piles; when all is empty, nothing."""
    s = rig(players=2, discards=(["1A"], []), fill_deck=False, end_triggered=True)
    assert legal_strs(s) >= {"draw x1"} and "draw deck" not in legal_strs(s)
    refused(s, 0, "end", IllegalMove, "must draw")
    refused(s, 0, "draw deck", IllegalMove, "draw pile is empty")
    s2, _ = apply(s, 0, "draw x1")  # the only card: the turn ends
    assert s2.turn == 1 and s2.phase == MAIN
    assert legal_strs(s2) == {"end"}
    s3, ev = apply(s2, 1, "end")
    assert s3.over


def test_game_ends_only_after_last_seat():
    """Game end: everyone has the same number of turns (ends after the last seat's turn)."""
    s = rig(players=2, deck_top=["7L", "8L"], fill_deck=False, discards=(["1A", "2A"], ["3P"]))
    s, _ = play(s, 0, "draw deck", "draw deck")
    assert s.end_triggered and not s.over and s.turn == 1
    s, _ = play(s, 1, "draw x1", "draw x1")
    assert s.over


def test_onion_musk_drawing_the_last_card_triggers_the_end_and_the_turn_goes_on():
    """Game end: the draw pile's last card taken by Onion Musk triggers the end in the middle of
    the ability; the draws go on from the discard piles, the turn ends as usual, and the game
    ends only after the last seat has played."""
    s = rig(
        players=2,
        hands={0: ["5O"]},
        deck_top=["7L"],
        fill_deck=False,
        discards=(["1A", "2A"], ["3P", "4P"]),
    )
    s, ev = play(s, 0, "prep 5O", "draw deck")
    assert s.end_triggered and s.phase == ONION and s.draws_left == 2
    assert any(e.kind == "end_triggered" for e in ev)
    s, _ = play(s, 0, "draw x1", "draw x1")  # pile 1 runs out and stays empty
    assert s.phase == ONION_DISCARD and s.discards[0] == []
    s, _ = play(s, 0, "discard 7L x1", "draw x2", "draw x2")
    assert not s.over and s.turn == 1
    s, _ = play(s, 1, "draw x1")  # the only card left: the turn and the game end
    assert s.over


def test_an_aji_take_whose_refill_empties_the_draw_pile_in_the_last_seats_turn_ends_the_game():
    """Game end: Aji Styles takes a discard pile's only card, the pile is refilled with the draw
    pile's last card, and as it is the last seat's turn the game ends when that turn does."""
    s = rig(
        players=3,
        turn=2,
        hands={2: ["5A"]},
        deck_top=["7L"],
        fill_deck=False,
        discards=(["1T"], ["3P", "4P"]),
    )
    s, ev = play(s, 2, "prep 5A", "take x1")
    assert s.end_triggered and codes(s.discards[0]) == ["7L"] and not s.over
    assert [e.kind for e in ev][-2:] == ["refill", "end_triggered"]
    s, _ = play(s, 2, "draw x1", "draw x2")
    assert s.over and "1T" in codes(s.hands[2])


# --------------------------------------------------------------------------- scoring


@pytest.mark.parametrize(
    "cards,points",
    [
        (["1T", "2T"], 2),
        (["5T", "5L", "5O"], 4),
        (["5T", "5L", "6O"], 3),
        ([f"{n}T" for n in range(1, 10)], 12),
        (["1P", "3L", "5O", "7T", "9A"], 8),
        (["1P", "2L", "3O", "4T", "5A"], 9),
        ([f"{n}T" for n in range(1, 10)] + ["1A", "2P", "3L", "4O"], 16),
    ],
)
def test_dish_scoring(cards, points):
    """Scoring: 1 per card, +1 valid dish, +2 feast of 9+, +3 guacamole (valid or not)."""
    assert dish_points(cards) == points


def test_guacamole_needs_all_five_types():
    """Scoring: a guacamole has every ingredient type at least once."""
    assert is_guacamole(["1P", "1L", "1O", "1T", "1A"])
    assert not is_guacamole(["1P", "1L", "1O", "1T", "2T"])


def test_hand_and_zone_do_not_score():
    """Scoring: cards in hand and preparation zone score nothing."""
    s = rig(hands={0: ["1T", "2T", "3T"]}, prep={0: ["4T"]}, dishes={1: [["5A", "6A"]]})
    assert g.rules.scores(s) == (0, 2)


def _ended(**kw):
    s = rig(**kw)
    return dataclasses.replace(s, over=True, phase="over")


def test_tiebreak_guacamole():
    """Tiebreaker 1: more guacamole dishes wins a tie."""
    s = _ended(dishes={0: [["1P", "3L", "5O", "7T", "9A"]], 1: [["1T", "2T", "3T", "4T", "5T", "6T", "7T"]]})
    oc = g.outcome(s)
    assert (
        oc.scores == (8.0, 8.0)
        and oc.ranking == ((0,), (1,))
        and oc.tiebreak == "more guacamole dishes ({p0} 1, {p1} 0)"
    )
    assert oc.details["more guacamole dishes"] == [1, 0] and oc.details["more dishes"] == [1, 1]
    assert oc.details["score"] == [8, 8]
    v = g.view_for(s, None)
    assert v.ranking == oc.ranking and v.winners == (0,) and v.over and v.turn is None


def test_tiebreak_more_dishes():
    """Tiebreaker 2: then more dishes."""
    s = _ended(dishes={0: [["1T", "2T", "3T"], ["9A", "9P"]], 1: [["1A", "2A", "3A", "4A", "5A"]]})
    oc = g.outcome(s)
    assert oc.scores == (6.0, 6.0) and oc.winners == (0,) and oc.tiebreak == "more dishes ({p0} 2, {p1} 1)"


def test_tiebreak_fewer_cards():
    """Tiebreaker 3: then fewer cards in hand and preparation zone."""
    s = _ended(
        dishes={0: [["1T", "2T", "3T"]], 1: [["1A", "2A", "3A"]]},
        hands={0: ["9L"], 1: []},
        prep={1: ["9O"], 0: ["8O"]},
    )
    oc = g.outcome(s)
    assert oc.winners == (1,) and oc.tiebreak == "fewer cards in hand and preparation zone ({p1} 1, {p0} 2)"


def test_shared_victory():
    """Tiebreaker 4: still tied, the victory is shared."""
    s = _ended(players=3, dishes={0: [["1T", "2T", "3T"]], 1: [["1A", "2A", "3A"]], 2: [["5L", "5O"]]})
    oc = g.outcome(s)
    assert oc.ranking == ((0, 1), (2,)) and oc.winners == (0, 1) and oc.tiebreak is None


def test_game_over_event_names_winner():
    """Game end: the last move announces the scores and the (shared) win."""
    s = rig(players=2, discards=(["1A"], []), fill_deck=False, turn=1, dishes={1: [["1T", "2T", "3T"]]})
    _, ev = play(s, 1, "draw x1")
    assert ev[-1].kind == "end" and "{p1} wins" in ev[-1].text


def test_game_over_event_says_a_tied_game_is_shared():
    """A tie through every tiebreak ends with both named and the win shared."""
    s = tied_before_last_draw()
    end, ev = play(s, 1, "draw x1")
    assert g.outcome(end).winners == (0, 1)
    assert ev[-1].kind == "end" and "{p0} and {p1} share the win" in ev[-1].text


def test_an_add_writes_its_lower_cards_by_number_then_type_then_hand_before_zone():
    """The top card (last) stays last; the others follow the game's order, not the text's."""
    assert str(g.Add(1, ("1A", "1P", "3T"))) == "add d1 1P,1A,3T"  # types in the order P L O T A
    assert str(g.Add(1, ("3T", "z1L", "5O"))) == "add d1 z1L,3T,5O"  # numbers before places
    assert str(g.Add(2, ("z2P", "2P", "9A"))) == "add d2 2P,z2P,9A"  # the hand before the zone


def test_a_missing_zone_card_of_another_player_names_that_player():
    """Tomathor's target in another player's zone: the refusal names that player's zone."""
    s = rig(players=3, hands={0: ["5T", "9L"]}, prep={1: ["4O"]})
    s2, _ = apply(s, 0, "prep 5T")
    refused(s2, 0, "swap 9L p2z6T", IllegalMove, "{p1}'s preparation zone has no 6T (it holds 4O)")
    with pytest.raises(IllegalMove) as missing:
        g.apply_move(s2, 0, g.parse_move("swap 9L p2z6T"))
    names = ["Ana", "Beto", "Cusi"]  # as the table and the terminal read it: the player named
    assert refusal(named(missing.value, names), ENGLISH).startswith(
        "Beto's preparation zone has no 6T (it holds 4O)"
    )
    assert refusal(named(missing.value, names), language("es")).startswith(
        "la zona de preparación de Beto no tiene 6T"
    )


# --------------------------------------------------------------------------- views and serialisation


def test_views_hide_hands_and_deck():
    """Hidden information: hands are secret (sizes public), the draw pile order hidden."""
    s = g.new_game(g.Config(players=3), 3, 9)
    for seat in (None, 0, 1, 2):
        v = g.view_for(s, seat)
        data = jsonable(v)
        json.dumps(data)
        assert data["hand_sizes"] == [7, 7, 7]
        assert data["deck_size"] == len(s.deck)
        if seat is None:
            assert data["hand"] is None
        else:
            assert sorted(data["hand"]) == sorted(codes(s.hands[seat]))
        assert "deck" not in data and "hands" not in data
        assert data["discard_sizes"] == [12, 12]
        assert data["discard_tops"] == [codes(x)[-1] for x in s.discards]


def test_view_shows_step_and_marks():
    """View: whose turn, which step and the last move's place are in the view."""
    s = rig(hands={0: ["5L"], 1: ["1A"]})
    s2, _ = apply(s, 0, "prep 5L")
    v = g.view_for(s2, None)
    assert v.turn == 0 and v.phase == LIMA and "steal" in v.step and v.marks == ("p1z5L",)
    assert v.turn_moves == ("prep 5L",)


def test_round_trip():
    """Serialisation: to_dict/from_dict round trip is exact and JSON."""
    s = rig(hands={0: ["5L"]}, dishes={1: [["1T", "2T", "3T"]]})
    s2, _ = apply(s, 0, "prep 5L")
    d = g.to_dict(s2)
    json.dumps(d)
    assert g.to_dict(g.from_dict(d)) == d
    with pytest.raises(SetupError):
        g.from_dict({**d, "schema": 99})
    older = {k: v for k, v in d.items() if k not in ("turn_marks", "prev_marks")}  # saved before marks
    back = g.from_dict(json.loads(json.dumps(older)))
    assert back.turn_marks == [] and back.prev_marks == [] and back.turn_moves == s2.turn_moves


def test_view_marks_the_turn_so_far_then_the_last_turn():
    """The turn's places are marked as it goes; at the start of the next turn, until its first
    move, the view marks the places of the turn just played."""
    s = rig(hands={0: ["5L"], 1: ["6L"]})
    s, _ = play(s, 0, "prep 5L", "pass")
    marked = g.view_for(s, None).turn_marks
    assert marked and marked == tuple(s.turn_marks)
    s, _ = play(s, 0, "draw deck", "draw deck")
    assert s.turn == 1 and not s.turn_moves
    assert g.view_for(s, 1).turn_marks == tuple(s.prev_marks) and s.prev_marks


def test_summary_tells_hand_zone_and_score():
    s = rig(hands={0: ["5L", "1T"], 1: []}, prep={1: ["2P"]}, dishes={0: [["1T", "2T", "3T"]]})
    assert g.summary(g.view_for(s, None)) == ""
    mine = str(g.summary(g.view_for(s, 0)))
    assert mine == f"Your hand (2): 1T 5L\nYour zone: empty; your score: {g.view_for(s, 0).scores[0]}"
    assert str(g.summary(g.view_for(s, 1))) == "Your hand (0): empty\nYour zone: 2P; your score: 0"
    for reader in (None, 0, 1):
        assert g.readable(s, g.move_privacy(s, 0, g.parse_move("prep 5L")), reader)


def test_rules_help_size():
    """RULES_HELP: short enough for a Discord message."""
    assert 200 < len(g.RULES_HELP) <= 1800


def test_onion_musk_with_nothing_to_draw_is_skipped():
    """Choice: an ability with nothing to act on is skipped; with every pile empty Onion Musk
    draws nothing, so it asks for no discard either and the hand keeps its cards."""
    s = rig(hands={0: ["5O", "1T", "6T"]}, discards=([], []), fill_deck=False, end_triggered=True)
    s2, ev = apply(s, 0, "prep 5O")
    assert s2.phase == MAIN and s2.draws_left == 0 and codes(s2.hands[0]) == ["1T", "6T"]
    assert any("nothing left to draw" in e.text and e.kind == "ability" for e in ev)
    assert not any(m.startswith("discard") for m in legal_strs(s2)) and "end" in legal_strs(s2)


def test_lima_kahlo_is_skipped_when_every_other_hand_is_empty():
    """Choice: Lima Kahlo has nothing to act on when no other player holds a card, so it is skipped;
    with one other hand holding cards it is offered (an empty hand still gives nothing)."""
    s = rig(players=3, hands={0: ["1L", "5T"]})
    s2, ev = apply(s, 0, "prep 1L")
    assert s2.phase == MAIN and any("nothing to act on" in e.text and e.kind == "ability" for e in ev)
    s3, _ = apply(rig(players=3, hands={0: ["1L", "5T"], 2: ["9A"]}), 0, "prep 1L")
    assert s3.phase == LIMA and {"steal p2", "steal p3", "pass"} <= set(legal_strs(s3))


def test_onion_musk_stops_when_piles_run_out():
    """Ruling: Onion Musk draws what there is when fewer than 3 cards remain anywhere."""
    s = rig(hands={0: ["5O"]}, discards=(["1A"], []), fill_deck=False, end_triggered=True)
    s2, _ = play(s, 0, "prep 5O", "draw x1")
    assert s2.phase == ONION_DISCARD and codes(s2.hands[0]) == ["1A"]


def test_no_prepare_with_empty_hand():
    """Step 1: with an empty hand there is nothing to prepare; drawing is still possible."""
    s = rig(hands={0: []})
    assert not any(m.startswith("prep") for m in legal_strs(s))
    assert "draw deck" in legal_strs(s)


def test_wrong_step_messages_say_what_is_allowed():
    """Errors: a move in the wrong step says what may be done now."""
    s = rig(hands={0: ["5L", "1T"], 1: ["1A"]})
    s2, _ = apply(s, 0, "prep 5L")
    msg = refused(s2, 0, "draw deck", IllegalMove, "cannot draw now")
    assert "steal p2" in msg
    refused(s, 0, "pass", IllegalMove, "no ability to decline")
    refused(s, 0, "done", IllegalMove, "cannot serve a dish now")
    refused(s, 0, "discard 1T x1", IllegalMove, "cannot discard now")


def test_computer_move_is_legal():
    """computer_move: picks a listed move from the view alone (its speed is measured in bench/)."""
    import random

    rng = random.Random(3)
    s = g.new_game(g.Config(players=4), 4, 3)
    while not s.over:
        seat = s.turn
        legal = g.legal_moves(s, seat)
        view = g.view_for(s, seat)
        m = g.computer_move(view, legal, rng)
        assert m in legal
        s, _ = g.apply_move(s, seat, m)


# --------------------------------------------------------------------------- words and facts


def test_parse_synonyms_and_bad_arguments():
    """prepare / play mean prep; a move with missing or wrong arguments is malformed and the
    refusal quotes it."""
    assert g.parse_move("prepare 5t") == g.parse_move("PLAY 5T") == g.Prep("5T")
    for text in ("free 5T", "free ZZ x1", "free x1"):
        with pytest.raises(MalformedMove, match=f'"{text}" is not a Guacamole move'):
            g.parse_move(text)


def test_end_of_turn_with_nothing_to_draw_is_told():
    """With every pile empty the turn ends by 'end', told as such."""
    s = rig(hands={0: ["1T"], 1: ["2T"]}, discards=((), ()), fill_deck=False)
    s2, ev = g.apply_move(s, 0, g.parse_move("end"))
    assert (ev[0].kind, ev[0].text) == ("end", "{p0} ended the turn with nothing left to draw.")
    assert s2.turn == 1 and s2.turn_number == 2


def test_refusals_list_the_hand_in_order():
    """A card not in hand is refused, listing the hand in card order."""
    s = rig(hands={0: ["9A", "1T", "5P"]})
    refused(s, 0, "prep 2O", IllegalMove, "you have no 2O in hand; your hand holds 1T, 5P, 9A")


def test_fewer_cards_in_hand_and_zone_breaks_ties():
    """Last tiebreak: fewer cards in hand and preparation zone together."""
    s = rig(
        hands={0: ["1T", "2T"], 1: ["3T", "4T", "5T"]},
        prep={0: ["1P", "2P"]},
        dishes={0: [["6L", "6O", "6A"]], 1: [["7L", "7O", "7A"]]},
        over=True,
        phase="over",
    )
    oc = g.outcome(s)
    assert oc.scores == (4.0, 4.0)
    assert (
        oc.ranking == ((1,), (0,))
        and oc.tiebreak == "fewer cards in hand and preparation zone ({p1} 3, {p0} 4)"
    )


def test_unknown_schema_is_named():
    """A saved state of another schema is refused, naming it."""
    data = g.to_dict(rig())
    with pytest.raises(SetupError, match="schema 99"):
        g.from_dict({**data, "schema": 99})


def test_stealing_from_oneself_names_the_others():
    s = rig(players=3, hands={0: ["5L"], 1: ["1T"], 2: ["2T"]})
    s2, _ = apply(s, 0, "prep 5L")
    refused(
        s2, 0, "steal p1", IllegalMove, "you cannot steal from your own hand; choose another player: p2, p3"
    )
    refused(
        s2, 0, "steal p4", IllegalMove, "there is no player 4 in this game; choose another player: p2, p3"
    )


def test_view_tells_when_a_card_may_be_freed_and_when_the_end_is_triggered():
    """The view carries whether the player to move may free a zone card now, and whether the last
    round has begun."""
    s = rig(hands={0: ["5L"]}, prep={0: ["1P", "2P", "3P", "4P"]})
    assert g.view_for(s, 0).can_free is True and g.view_for(s, 1).can_free is True
    assert g.view_for(s, None).end_triggered is False
    s2, _ = apply(s, 0, "free 1P x1")
    assert g.view_for(s2, 0).can_free is False
    s3 = rig(hands={0: ["5L"]}, end_triggered=True)
    assert g.view_for(s3, 1).end_triggered is True and g.view_for(s3, 0).can_free is False


def test_onion_musk_step_counts_the_draws_left():
    """Onion Musk's step names the draws left, and offers pass only before the first draw."""
    s = rig(hands={0: ["5O"]}, discards=(["1A", "2A"], ["3P", "4P"]))
    s2, _ = apply(s, 0, "prep 5O")
    assert g.view_for(s2, 1).step == (
        "use Onion Musk to draw 3 (draw deck / x1 / x2), then discard 1; or pass"
    )
    s3, _ = apply(s2, 0, "draw x1")
    assert g.view_for(s3, 1).step == "draw 2 more for Onion Musk (draw deck / x1 / x2)"


def test_the_step_offers_only_the_piles_one_can_draw_from():
    """Once the draw pile is spent, the step (the board in words, the picture's Now line) offers
    the discard piles alone, as the rules allow, never `draw deck`, which would be refused; an
    empty discard pile is left out too."""
    from engines.guacamole.rules import DRAW

    spent = rig(fill_deck=False, phase=DRAW, draws_left=1, discards=(["1A"], ["3P"]))
    assert g.view_for(spent, None).step == "draw 1 more (draw x1 / x2)"
    assert "draw deck" not in [m for m in g.legal_moves(spent, 0)]
    main = rig(fill_deck=False, discards=(["1A"], []))
    assert "draw 2 to end the turn (draw x1)" in g.view_for(main, None).step
    assert "draw 2 to end the turn (draw deck / x1 / x2)" in g.view_for(rig(), None).step


def test_an_avocaldo_add_is_undoable_only_from_the_zone():
    """Undo by consent: adding zone cards (face up already) to a dish may be taken back; adding a
    hand card shows it, so it may not."""
    s = rig(hands={0: ["1P", "5A"]}, prep={0: ["5L"]}, dishes={0: [["5T", "5O", "5P"]]})
    s2, _ = apply(s, 0, "prep 1P")
    assert s2.phase == AVOCALDO
    assert g.undoable(s2, 0, g.parse_move("add d1 z5L")) is True
    assert g.undoable(s2, 0, "add d1 z5L") is True  # the notation is read too
    assert g.undoable(s2, 0, g.parse_move("add d1 5A")) is False
    assert g.undoable(s2, 0, g.parse_move("add d1 z5L,5A")) is False


@pytest.mark.parametrize("text", [None, 5, b"prep 5T", ["prep", "5T"]])
def test_a_move_that_is_not_text_is_refused(text):
    """Bad input: something that is not text is no move, refused as such, never a crash."""
    with pytest.raises(MalformedMove):
        g.parse_move(text)


def test_every_word_for_the_draw_pile_is_read():
    """Notation: the draw pile is ``deck``, ``d`` or ``pile``, in any case."""
    for word in ("deck", "D", "d", "pile", "PILE"):
        assert g.parse_move(f"draw {word}") == g.Draw("deck")


def test_a_discard_without_a_pile_quotes_the_text():
    with pytest.raises(MalformedMove) as info:
        g.parse_move("discard 5t")
    assert str(info.value).startswith('"discard 5t" is not a Guacamole move')
    assert "discard 5T x2" in str(info.value)


def test_avocaldo_offers_a_card_that_shares_only_the_type_of_a_far_run():
    """Patricia & Avocaldo: a card of the dish's type far from its numbers still fits a one-type
    dish, and is offered."""
    s = rig(hands={0: ["1P", "9T"]}, dishes={0: [["1T", "2T", "3T"]]})
    s2, _ = apply(s, 0, "prep 1P")
    assert s2.phase == AVOCALDO
    assert dish_kind(["1T", "2T", "3T", "9T"]) is not None
    assert "add d1 9T" in legal_strs(s2)
    apply(s2, 0, "add d1 9T")


def test_an_add_to_a_missing_dish_names_the_valid_ones():
    s = rig(hands={0: ["1P", "5A"]}, dishes={0: [["5T", "5O", "5P"], ["1T", "2O"]]})
    s2, _ = apply(s, 0, "prep 1P")
    refused(s2, 0, "add d3 5A", IllegalMove, "you have no dish 3; your valid dishes are d1")


def test_a_swap_outside_tomathor_is_refused_with_what_is_allowed():
    s = rig(hands={0: ["5L"]}, dishes={0: [["5T", "5O", "5P"]]})
    refused(s, 0, "swap 5L p1d1", IllegalMove, "now; you may")


def test_onion_musk_has_no_draws_left_once_done():
    s = rig(hands={0: ["5O"]}, discards=(["1A", "2A"], ["3P", "4P"]), deck_top=["7L"])
    s2, _ = play(s, 0, "prep 5O", "draw x1", "draw x2", "draw deck")
    assert s2.phase == ONION_DISCARD and s2.draws_left == 0 and g.view_for(s2, 0).draws_left == 0


@pytest.mark.parametrize("seat", [2, 5, -1])
def test_a_seat_outside_the_game_is_named(seat):
    s = rig(hands={0: ["5L"]})
    with pytest.raises(NotYourTurn, match=f"seat {seat} is not in this game"):
        g.apply_move(s, seat, g.parse_move("prep 5L"))


def test_both_copies_of_a_card_in_the_zone_count_twice():
    """Every card has two copies; both may sit in a preparation zone and both count."""
    s = rig(hands={0: ["1P"]}, prep={0: ["5A", "5A"]}, dishes={0: [["5T", "5O", "5P"]]})
    s2, _ = apply(s, 0, "prep 1P")
    refused(s2, 0, "add d1 z5A,z5A,z5A", IllegalMove, "uses 5A 3 times but your preparation zone has only 2")


@pytest.mark.parametrize("text", ["serve", "Serve", "serve dish", "serve d1"])
def test_serve_is_pointed_at_done(text):
    """The menus call the move that ends a dish "serve the dish" (its kind is serve), and its
    notation is `done`: a player who writes serve is told to write done, in both languages."""
    with pytest.raises(MalformedMove) as info:
        g.parse_move(text)
    assert "to serve the dish you are making, write `done`" in str(info.value), str(info.value)
    spanish = info.value.said.in_words(ES)
    assert "para servir el plato que estás haciendo, escribe `done`" in spanish, spanish


def test_an_unknown_word_is_refused_in_plain_words():
    """An unknown first word is named, and what moves look like follows (no dangling "like")."""
    with pytest.raises(MalformedMove) as info:
        g.parse_move("cook 5T")
    text = str(info.value)
    assert text.startswith('"cook 5T" is not a Guacamole move: "cook" is not one of its words'), text
    assert "like `prep 5T`" not in text and "Moves look like: prep 5T" in text, text


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_the_step_shows_a_steal_and_a_free_the_player_to_move_may_make(seat):
    """The step every reader sees (and each refusal repeats) writes its example moves so the
    player to move may play them: player 2 was shown Lima Kahlo's 'steal p2', a steal from
    themselves that is refused, and a full zone of 1P-4P was told to 'free 5T x1'."""
    others = {p: ["1A"] for p in range(3) if p != seat}  # Lima Kahlo has hands to take from
    s = rig(players=3, hands={seat: ["5L"], **others}, turn=seat)
    s2, _ = apply(s, seat, "prep 5L")
    step = g.view_for(s2, None).step
    (example,) = [m for m in legal_strs(s2, seat) if m.startswith("steal") and f"({m})" in step]
    assert example != f"steal p{seat + 1}", step
    spanish = step_said(s2).in_words(ES)
    assert f"({example})" in spanish, spanish

    full = rig(players=3, hands={seat: ["5L"]}, prep={seat: ["1P", "2P", "3P", "4P"]}, turn=seat)
    step = g.view_for(full, None).step
    assert "(free 1P x1)" in step and "free 1P x1" in legal_strs(full, seat), step
    refused(full, seat, "prep 5L", IllegalMove, "first free one onto a discard pile (free 1P x1)")


def test_late_in_the_game_the_take_and_swap_examples_name_a_visible_card():
    """With the draw pile gone a discard pile may be empty: Aji Styles' and Tomathor's step then
    names a place that shows a card ('take x2'), not the empty discard pile 1 ('take x1'),
    and not a dish nobody has made ('swap 5T p2d1')."""
    late = {"discards": ((), ("9P",)), "fill_deck": False, "end_triggered": True}
    s, _ = apply(rig(hands={0: ["5A", "1T"]}, **late), 0, "prep 5A")
    step = g.view_for(s, None).step
    assert "(take x2)" in step and "take x2" in legal_strs(s), step
    assert "x1" not in step, step
    s, _ = apply(rig(hands={0: ["5T", "1A"]}, **late), 0, "prep 5T")
    step = g.view_for(s, None).step
    assert "(swap 5T x2)" in step, step
    assert "swap 1A x2" in legal_strs(s), legal_strs(s)
    assert "(swap 5T x2)" in step_said(s).in_words(ES)
