"""One Guacamole event's own sentence as a player reads it (:func:`engines.guacamole.worded`): its
cards named in words, as the menus and the turn post name them, in English and Spanish, while the
event itself keeps the codes the log stores."""

from __future__ import annotations

import random
import re

import pytest

import engines.guacamole as g
from engines.core import Event, config_from_options
from languages import ENGLISH, language
from renderers.samples import positions

from .helpers import rig

CODE = re.compile(r"\b[1-9][PLOTA]\b")
"""A card written as its code."""


def events(state, seat: int, *moves: str) -> list[Event]:
    out: list[Event] = []
    for move in moves:
        state, more = g.apply_move(state, seat, move)
        out += more
    return out


def test_a_swap_names_both_cards_in_words_and_the_event_keeps_their_codes():
    state = rig(hands={0: ["5T", "3P"]}, prep={1: ["9O"]})
    swap = events(state, 0, "prep 5T", "swap 3P p2z9O")[-1]
    assert swap.text == "{p0} swapped 3P from their hand with 9O from {p1}'s preparation zone."
    assert swap.said is not None
    assert g.worded(swap.said).in_words() == (
        "{p0} swapped 3 Avocaldo from their hand with 9 Onion from {p1}'s preparation zone."
    )
    assert g.worded(swap.said).in_words(language("es")) == (
        "{p0} cambió 3 Avocaldo de su mano por 9 Onion de la zona de preparación de {p1}."
    )


def test_cards_added_to_a_dish_are_listed_in_words():
    state = rig(hands={0: ["5P", "4T", "7T"]}, dishes={0: [["1T", "2T", "3T"]]})
    added = events(state, 0, "prep 5P", "add d1 4T")[-1]
    assert added.said is not None
    assert g.worded(added.said).in_words() == "{p0} added 4 Tomathor to their dish 1."


def test_a_refilled_discard_pile_names_its_new_card_in_words():
    state = rig(hands={0: ["5A"]}, deck_top=("4L",))
    refill = events(state, 0, "prep 5A", "take x2")[-1]
    assert refill.kind == "refill" and refill.said is not None
    assert g.worded(refill.said).in_words(language("es")) == (
        "La pila de descarte 2 se vació y se rellenó con 4 Lima."
    )


def test_a_sentence_without_a_card_is_the_same_sentence():
    state = rig(hands={0: ["5T", "3P"]})
    passed = events(state, 0, "prep 5T", "pass")[-1]
    assert passed.said is not None and g.worded(passed.said) is passed.said


@pytest.mark.parametrize("code", ["en", "es"])
def test_no_event_of_a_whole_game_reads_a_card_as_its_code(code):
    """Every kind of event a game of three says (swaps, takes, steals, cards added, dishes laid
    and served, draws, discards) reads with no card code, to its mover and to everyone else."""
    t = ENGLISH if code == "en" else language(code)
    state = g.new_game(config_from_options(g.Config, 3, {}), 3, 2026)
    rng = random.Random(7)
    kinds: set[str] = set()
    lines: list[str] = []
    while g.outcome(state) is None:
        (seat,) = g.to_move(state)
        move = g.computer_move(g.view_for(state, seat), list(g.legal_moves(state, seat)), rng)
        state, said = g.apply_move(state, seat, move)
        for event in said:
            kinds.add(event.kind)
            for reader in (seat, None):
                kept = event.said_for(reader)
                if kept is not None:
                    lines.append(g.worded(kept).in_words(t))
    assert {"swap", "take", "steal", "add", "discard", "draw", "dish"} <= kinds, kinds
    coded = [line for line in lines if CODE.search(line)]
    assert not coded, coded[:3]


@pytest.mark.parametrize("code", ["en", "es"])
def test_the_sample_boards_last_actions_name_cards_in_words(code):
    """The gallery, the render benchmark and the palettes draw the samples' boards with their last
    action: it read the event's raw line ("Beto took 8P from discard pile 2."), the cards as codes
    the table never shows a player; it now names them as the table does ("8 Avocaldo")."""
    shown = [p.last_action_in(code) for p in positions("guacamole")]
    lines = [line for line in shown if line is not None]
    assert len(lines) >= 5 and any(re.search(r"\b[1-9] (Avocaldo|Tomathor|Lima)\b", x) for x in lines), lines
    coded = [line for line in lines if CODE.search(line)]
    assert not coded, coded
    assert not any("{p" in line for line in lines), lines  # the seats still named
