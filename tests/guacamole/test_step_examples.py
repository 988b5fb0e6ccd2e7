"""The step's example moves name cards the reader may play: in a refusal, told to the mover
alone, cards of the mover's own hand; in what everyone reads, the zones' public cards."""

from __future__ import annotations

import engines.guacamole as g
from engines.core import IllegalMove
from tests.guacamole.helpers import rig


def _legal(state, seat=0) -> list[str]:
    return [str(m) for m in g.legal_moves(state, seat)]


def _refusal(state, move: str, seat=0) -> str:
    try:
        g.apply_move(state, seat, move)
    except IllegalMove as refusal:
        return str(refusal)
    raise AssertionError(f"{move} was accepted")  # pragma: no cover - the test's own mistake


def test_a_refusal_shows_the_mover_a_prep_and_dishes_of_their_own_cards():
    """P1 holding 1O and 8A with 7O in the zone was told 'prep 5T' and 'dish z5T'; typing
    either was refused, as P1 has no 5T anywhere."""
    s = rig(hands={0: ["8A", "1O"]}, prep={0: ["7O"]})
    words = _refusal(s, "take x1")
    assert "(prep 1O)" in words and "(dish 1O or dish z7O," in words, words
    for example in ("prep 1O", "dish 1O", "dish z7O"):
        assert example in _legal(s), example
    for seat in (None, 0, 1):  # the step everyone reads names the zone's card, no hand card
        public = g.view_for(s, seat).step
        assert "(dish 5T or dish z7O," in public and "1O" not in public and "8A" not in public, public


def test_the_dish_being_made_is_offered_cards_that_may_join_it():
    """Making a dish of 5L, 5O, the step offered 'dish 5T / dish z5T' whatever the player held:
    5T may join (a 5) but P1 has none, and z5T named a card P1's zone does not hold; now it names
    the zone's 5P, or with nothing of P1's to add, a card of the notation that would join."""
    s = rig(hands={0: ["2O", "5L", "9A"]}, prep={0: ["6T", "5O", "5P"]})
    for move in ("dish 5L", "dish z5O"):
        s, _ = g.apply_move(s, 0, move)
    words = _refusal(s, "draw deck")
    assert "(5L, 5O) with dish z5P," in words, words
    assert "dish z5P" in _legal(s)
    public = g.view_for(s, None).step
    assert "(5L, 5O) with dish z5P," in public, public

    s = rig(hands={0: ["1T", "1A", "3O"]})
    for move in ("dish 1T", "dish 3O"):
        s, _ = g.apply_move(s, 0, move)
    assert "(1T, 3O) with dish 2P," in g.view_for(s, None).step  # a run's missing 2, not 5T
    assert "(1T, 3O) with dish 2P," in _refusal(s, "draw deck")


def test_onion_and_avocaldo_examples_come_from_the_movers_hand():
    onion, _ = g.apply_move(rig(hands={0: ["1O", "4L"]}), 0, "prep 1O")
    for source in ("deck", "deck", "deck"):
        onion, _ = g.apply_move(onion, 0, f"draw {source}")
    words = _refusal(onion, "take x1")
    (example,) = [m for m in _legal(onion) if f"({m})" in words]
    assert example.startswith("discard "), words

    s = rig(hands={0: ["1P", "4L"]}, dishes={0: [["1L", "2L", "3L"]]})
    s, _ = g.apply_move(s, 0, "prep 1P")
    words = _refusal(s, "take x1")
    assert "(add d1 4L)" in words and "add d1 4L" in _legal(s), words
    assert "4L" not in g.view_for(s, None).step


def test_a_zone_card_is_freed_written_as_a_dish_writes_it():
    """'dish z6T' lays the zone's 6T, but 'free z6T x1' was refused as no move; it frees 6T."""
    assert g.parse_move("free z6T x1") == g.parse_move("free 6T x1")
    s = rig(hands={0: ["1A"]}, prep={0: ["6T", "7T", "8T", "9T"]})
    s, _ = g.apply_move(s, 0, "free z6T x1")
    assert g.view_for(s, 0).prep[0] == ("7T", "8T", "9T")
    assert g.view_for(s, 0).discard_tops[0] == "6T"
