"""Facts the full mutation sample found untested after Guacamole's sentences were kept for
translation: undo of a dish card from the hand, the view's prepared flag, scores now, a move given
as text, and the order the dish cards are offered in."""

from __future__ import annotations

import engines.guacamole as g
from engines.guacamole.moves import ref_key
from engines.guacamole.rules import scores

from .helpers import rig


def test_a_dish_card_from_the_hand_cannot_be_undone_but_one_from_the_zone_can():
    s = rig(hands={0: ["5T", "1P"]}, prep={0: ["5A"]})
    assert g.undoable(s, 0, g.parse_move("dish 5T")) is False
    assert g.undoable(s, 0, g.parse_move("dish z5A")) is True


def test_the_view_says_whether_the_seat_has_prepared_this_turn():
    s = rig(hands={0: ["5T", "1P"]})
    assert g.view_for(s, 0).prepared is False
    after, _ = g.apply_move(s, 0, g.parse_move("prep 1P"))
    assert after.prepared is True
    assert g.view_for(after, 0).prepared is True and g.view_for(after, None).prepared is True


def test_scores_now_are_each_seats_dish_scores():
    s = rig(dishes={0: [["5T", "5O", "5P"]], 1: [["1A", "2A", "3A"]]})
    assert g.scores_now(s) == tuple(float(v) for v in scores(s))
    assert g.scores_now(s)[0] > 0 and g.scores_now(s)[1] > 0


def test_a_move_given_as_text_is_played_as_its_notation():
    s = rig(hands={0: ["5T", "1P"]})
    by_text, _ = g.apply_move(s, 0, "prep 1P")
    by_move, _ = g.apply_move(s, 0, g.parse_move("prep 1P"))
    assert g.to_dict(by_text) == g.to_dict(by_move)


def test_dish_cards_are_offered_in_the_games_order():
    s = rig(hands={0: ["9T", "1P", "5A", "5T"]}, prep={0: ["5L"]})
    dishes = [m for m in g.legal_moves(s, 0) if isinstance(m, g.Dish)]
    refs = [m.card for m in dishes]
    assert len(refs) >= 3 and refs == sorted(refs, key=ref_key)
