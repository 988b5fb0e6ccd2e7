"""A Guacamole turn post names its cards in words, as the menus do ("3 Avocaldo", not "3P"), in
English and Spanish: a card that moved says whose it was and where it lay, a dish's change of
validity stays beside the dish, a refilled discard pile names the card it got; the history
pages keep each event's own line (:mod:`tests.table.test_turn_posts`)."""

from __future__ import annotations

import re

import pytest

from bot import texts
from bot.records import MoveRecord
from engines.core import Event
from languages import ENGLISH, language
from tests.guacamole.helpers import rig
from tests.table.test_turn_posts import played, session_for

CODE = re.compile(r"\b[1-9][PLOTA]\b")
"""A card written as its code."""


def told(state, moves: tuple[str, ...], code: str = "en", reader: int | None = None) -> list[str]:
    """The post's lines for seat 0 playing ``moves`` from ``state`` (Alice and Bob), the events
    read back as the log keeps them."""
    session, module = session_for("guacamole", 2, 7)
    events: list[Event] = []
    for move in moves:
        state, more = module.apply_move(state, 0, move)
        events += [Event.from_dict(e.to_dict()) for e in more]
    session.state = state
    record = MoveRecord(0, moves[-1], False, tuple(events), None, 1)
    t = ENGLISH if code == "en" else language(code)
    return texts.turn_lines(session, [record], reader=reader, t=t)


def test_a_hand_card_swapped_for_another_players_zone_card_names_both_in_words():
    state = rig(hands={0: ["5T", "3P"]}, prep={1: ["9O"]})
    assert told(state, ("prep 5T", "swap 3P p2z9O")) == [
        "Alice prepared 5 Tomathor and swapped their 3 Avocaldo (hand) for Bob's 9 Onion (preparation zone)."
    ]
    assert told(state, ("prep 5T", "swap 3P p2z9O"), "es") == [
        "Alice preparó 5 Tomathor y cambió su 3 Avocaldo (mano) por 9 Onion de Bob (zona de preparación)."
    ]


def test_a_dish_top_swapped_for_a_discard_says_the_dish_is_no_longer_valid_beside_it():
    state = rig(hands={0: ["5T"]}, dishes={0: [["1O", "2O", "3O"]]})
    assert told(state, ("prep 5T", "swap p1d1 x1")) == [
        "Alice prepared 5 Tomathor and swapped their 3 Onion (top of dish 1, no longer valid) "
        "for 9 Aji (discard pile 1)."
    ]
    assert told(state, ("prep 5T", "swap p1d1 x1"), "es") == [
        "Alice preparó 5 Tomathor y cambió su 3 Onion (lo alto del plato 1, que ya no es válido) "
        "por 9 Ají (la pila de descarte 1)."
    ]


def test_a_card_taken_from_another_players_dish_and_a_refilled_pile_are_named_in_words():
    state = rig(hands={0: ["5A"]}, dishes={1: [["1O", "2O", "3O", "7L"]]})
    assert told(state, ("prep 5A", "take p2d1")) == [
        "Alice prepared 5 Aji and took Bob's 7 Lima (top of dish 1, valid again) into their hand."
    ]
    taken = rig(hands={0: ["5A"]}, deck_top=("4L",))
    assert told(taken, ("prep 5A", "take x2")) == [
        "Alice prepared 5 Aji and took 9 Avocaldo (discard pile 2) into their hand. "
        "Discard pile 2 ran out and was refilled with 4 Lima."
    ]
    assert told(taken, ("prep 5A", "take x2"), "es") == [
        "Alice preparó 5 Ají y tomó 9 Avocaldo (la pila de descarte 2) para su mano. "
        "La pila de descarte 2 se vació y se rellenó con 4 Lima."
    ]


def test_a_stolen_card_and_a_card_freed_from_the_zone_are_named_in_words():
    state = rig(hands={0: ["5L"], 1: ["8T"]}, prep={0: ["1P", "2P", "3P", "4P"]})
    moves = ("free 4P x1", "prep 5L", "steal p2")
    assert told(state, moves, reader=0) == [
        "Alice put 4 Avocaldo from their preparation zone on discard pile 1, prepared 5 Lima and "
        "took 8 Tomathor at random from Bob's hand."
    ]
    assert told(state, moves) == [  # the channel does not see which card
        "Alice put 4 Avocaldo from their preparation zone on discard pile 1, prepared 5 Lima and "
        "took a random card from Bob's hand."
    ]


@pytest.mark.parametrize("code", ["en", "es"])
def test_no_turn_post_of_a_whole_game_writes_a_card_as_its_code(code):
    t = ENGLISH if code == "en" else language(code)
    lines = [line for _, post in played("guacamole", t) for line in post.told]
    assert len(lines) > 50
    coded = [line for line in lines if CODE.search(line)]
    assert not coded, coded[:3]
    served = "Served dish" if code == "en" else "Sirvió el plato"
    assert any(line.startswith(served) and "Tomathor" in line for line in lines)
