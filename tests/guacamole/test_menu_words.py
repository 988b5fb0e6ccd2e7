"""Tomathor's swap and Aji's take in the Play menu and autocomplete: every choice says in words
whose card it is, where it lies and which card it is (both cards, for a swap), in English and
Spanish, within Discord's limits, and every legal move stays reachable."""

from __future__ import annotations

import re

import pytest

from bot import choices
from languages import language
from tests.table import test_menu_steps as steps

NAMES = ["Ana", "Bob", "Cy", "Dee", "Eva", "Fede"]
CODE = re.compile(r"\b(?:p\d[zd]\w*|x[12]|z?\d[PLOTA])\b")
"""The notation of a place or a card (``p1z7T``, ``p2d1``, ``x1``, ``z5T``, ``5T``)."""

CARD = {"en": r"\d (?:Avocaldo|Lima|Onion|Tomathor|Aji)", "es": r"\d (?:Avocaldo|Lima|Onion|Tomathor|Ají)"}
NAME = "|".join([*steps.NAMES, r"P\d"])  # the menus' names (P4 for a fourth seat)
MINE = {  # one's own card given in a swap: in hand, in the zone, on top of a dish
    "en": r"\((?:hand|zone|top of dish \d+)\)",
    "es": r"\((?:mano|zona|lo alto del plato \d+)\)",
}
PLACE = {  # the visible card: whose, and where
    "en": rf"\((?:your zone|top of your dish \d+|(?:{NAME})'s zone|top of (?:{NAME})'s dish \d+|discard pile [12])\)",
    "es": rf"\((?:tu zona|lo alto de tu plato \d+|zona de (?:{NAME})|lo alto del plato \d+ de (?:{NAME})|la pila de descarte [12])\)",
}
SWAP = {
    "en": re.compile(rf"Swap your {CARD['en']} {MINE['en']} for {CARD['en']} {PLACE['en']}"),
    "es": re.compile(rf"Cambiar tu {CARD['es']} {MINE['es']} por {CARD['es']} {PLACE['es']}"),
}
TAKE = {
    "en": re.compile(rf"Take {CARD['en']} {PLACE['en']}"),
    "es": re.compile(rf"Tomar {CARD['es']} {PLACE['es']}"),
}
POSITIONS = [(3, 5, "tomathor"), (5, 2, "tomathor"), (3, 5, "aji"), (5, 3, "aji")]


def busiest(players: int, seed: int, phase: str):
    """The position of a seeded game with the most moves in ``phase``."""
    found = steps.busiest("guacamole", players, seed, 1, lambda m, s, seat, moves: s.phase == phase)
    assert found, (players, seed, phase)
    return found[0]


@pytest.mark.parametrize("code", ["en", "es"])
@pytest.mark.parametrize(("players", "seed", "phase"), POSITIONS)
def test_every_swap_and_take_choice_names_both_cards_in_words(players, seed, phase, code):
    """Each choice of every step of the menu reads on its own, also inside the step of one of
    one's own cards (where it said only "for 9 Onion (Ana's zone)", the card given away being in
    the placeholder alone): whose, where and which card, with no notation; a label of at most 100
    characters, at most 25 choices a select; every legal swap or take reached."""
    m, state, seat, moves = busiest(players, seed, phase)
    walked = steps.walk(m, state, seat, moves, language(code))
    pattern = (SWAP if phase == "tomathor" else TAKE)[code]
    labels = {}
    for plans in walked.steps.values():
        for control in plans:
            assert len(control.picks) <= choices.CHOICE_LIMIT
            for pick in control.picks:
                label = choices.cap(pick.label, choices.OPTION_LIMIT)
                assert not CODE.search(label), label
                if pick.value.startswith("m:") and pick.value[2:] != "pass":
                    labels[pick.value[2:]] = label
    assert set(labels) == {str(x) for x in moves} - {"pass"}
    for move, label in labels.items():
        assert len(label) <= choices.OPTION_LIMIT and pattern.fullmatch(label), (move, label)
    if phase == "tomathor" and players == 5:  # so many that a step goes by whose card is taken
        assert any(len(step or ()) == 3 for step in walked.steps), list(walked.steps)


def test_a_swap_names_the_card_given_and_the_card_taken():
    """One swap of each source, as the menu and autocomplete name it."""
    m, state, seat, moves = busiest(3, 5, "tomathor")
    found = {e.move: e for e in choices.entries(m, state, seat, moves, NAMES)}
    for move, e in found.items():
        if move == "pass":
            continue
        source, target = move.split()[1:]
        assert e.label == e.full and e.label.startswith(f"s{e.group_title[1:]} for "), e
        if target.startswith("x"):
            assert e.label.endswith(f"(discard pile {target[1]})"), e.label
        elif target[1] == str(seat + 1):
            assert "(your zone)" in e.label or "(top of your dish" in e.label, e.label
        else:
            assert f"{NAMES[int(target[1]) - 1]}'s" in e.label, e.label


def test_autocomplete_names_whose_cards_a_group_holds_and_finds_them_by_words():
    """``/guacamole move`` with two hundred swaps: a group to keep typing says whose cards it
    holds ("Swap your 3 Avocaldo (hand) › Ana's cards", where it said only the first half); typing
    words of the menu (a name, a dish, a pile) finds the swaps it names."""
    m, state, seat, moves = busiest(3, 5, "tomathor")
    found = choices.entries(m, state, seat, moves, NAMES[:3])
    titles = lambda k: choices.kind_label(m, k)  # noqa: E731
    top = choices.complete(found, "", titles)
    assert any(name.endswith("keep typing)") for name, _ in top), top
    offered = [offer for typed in ("", "swap p") for offer in choices.complete(found, typed, titles)]
    grouped = [name for name, value in offered if re.search(r" p\d$", value)]  # one player's cards
    assert grouped, offered
    for name in grouped:  # the group's words, then whose cards
        assert re.search(r"Swap your .+ › (?:Ana's cards|Bob's cards|Cy's cards|your own cards) \(", name), (
            name
        )
    other = NAMES[(seat + 1) % 3]
    dish = next(e for e in found if f"top of {other}'s dish 1" in e.full)
    typed = choices.complete(found, f"{other.lower()} dish 1", titles)
    values = [value for _, value in typed]
    assert dish.move in values or any(dish.move.startswith(v) for v in values), typed
    assert all(f"{other}'s" in name and "dish 1" in name for name, value in typed if " — " in name), typed


def test_autocomplete_keeps_a_long_swap_in_whole_words():
    """A swap's notation and words together may pass the 100 characters of a name (in Spanish,
    with a longer name): the words were cut ("…lo alto del plato 4 de Maximil…"); now such a swap
    is named by its words alone, whole, as the menu names it, and the others keep the notation
    first."""
    m, state, seat, moves = busiest(3, 5, "tomathor")
    names = ["Maximiliano_G", "Bartolomeo_X", "Guadalupe_RR"]
    spanish = language("es")
    found = choices.entries(m, state, seat, moves, names, spanish)
    titles = lambda k: choices.kind_label(m, k, spanish)  # noqa: E731
    long = [e for e in found if len(f"{e.move} — {e.full}") > choices.OPTION_LIMIT]
    assert long, max(len(f"{e.move} — {e.full}") for e in found)
    for e in long + [e for e in found if e.move not in {x.move for x in long}][:5]:
        offered = dict((value, name) for name, value in choices.complete(found, e.move, titles))
        name = offered[e.move]
        assert len(name) <= choices.OPTION_LIMIT and not name.endswith("…"), name
        assert name == (e.full if e in long else f"{e.move} — {e.full}"), name
