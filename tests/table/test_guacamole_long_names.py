"""Guacamole's swap choices fit Discord's 100 characters with the longest display names Discord
allows (32 characters), in English and Spanish: the names are shortened with "…", never the cards'
words or where the cards lie ("Cambiar tu 3 Avocaldo (mano) por 6 Tomathor (lo alto del plato 1
de ЖЖЖЖ…)"), in the Play menu's select options and in autocomplete's choices."""

from __future__ import annotations

import re

import discord
import pytest

import engines.guacamole as g
from bot import choices
from bot.surface.menus import menu_layout
from languages import ENGLISH, language
from tests.guacamole.helpers import rig

LONGEST = ("Ж" * 32, "Æ" * 32, "龍" * 32)
"""Three players' display names of Discord's greatest length, of letters no word of the menus has."""
SHORT = ("A", "B", "C")


def tomathor():
    """A Tomathor to use with every kind of visible card about: zones, dish tops, discard piles."""
    state = rig(
        3,
        hands={0: ["5T", "3P", "4L"]},
        prep={1: ["9O"], 2: ["8A"]},
        dishes={0: [["1O", "2O", "3O"]], 1: [["1L", "2L", "3L"]], 2: [["4T", "5T", "6T"]]},
    )
    state, _ = g.apply_move(state, 0, "prep 5T")
    return state


def as_short(text: str) -> str:
    """``text`` with each long name, whole or shortened, written as the short one."""
    for long, short in zip(LONGEST, SHORT, strict=True):
        text = re.sub(f"{long[0]}+…?", short, text)
    return text


@pytest.mark.parametrize("code", ["en", "es"])
def test_every_swap_choice_fits_with_the_names_shortened_and_the_cards_whole(code):
    t = ENGLISH if code == "en" else language(code)
    state = tomathor()
    moves = choices.offered(g, state, 0)
    found = choices.entries(g, state, 0, moves, LONGEST, t)
    plain = {e.move: e for e in choices.entries(g, state, 0, moves, SHORT, t)}
    swaps = [e for e in found if e.kind == "swap"]
    assert len(swaps) > 25
    for e in swaps:
        assert len(e.full) <= choices.OPTION_LIMIT, e.full
        assert as_short(e.full) == plain[e.move].full, e.full  # every word but the names as it was
    if code == "es":  # "(lo alto del plato 1 de ...)": too long with a whole name, which is shortened
        assert any("…" in e.full for e in swaps)
    assert LONGEST[1] in " ".join(e.full for e in swaps)  # a name where the choice has room for it

    titles = lambda kind: choices.kind_label(g, kind, t)  # noqa: E731
    step = choices.plan_menu(g.KINDS, titles, found, opened=("swap",), t=t)[0]
    offered = list(step.picks)
    for pick in offered:
        assert len(pick.label) <= choices.OPTION_LIMIT and not pick.label.endswith("…"), pick.label
    for typed in ("", "swap 3P", "龍"):
        named = choices.complete(found, typed, titles, t, LONGEST)
        assert named, typed
        for name, _ in named:
            assert len(name) <= choices.OPTION_LIMIT and not name.endswith("…"), name


@pytest.mark.parametrize("code", ["en", "es"])
def test_a_move_on_a_button_fits_its_80_characters_with_the_names_shortened(code):
    """A Tomathor with a single card to swap with offers that swap as a button, whose label
    Discord holds to 80 characters: with names of 32 characters the label was cut at its end
    (where the card lies lost, and in Spanish a name already shortened for a select's 100 cut
    again); the names are shortened further instead, the words around them kept whole, and the
    button under the menu carries that label."""
    t = ENGLISH if code == "en" else language(code)
    state = rig(3, hands={0: ["5T"]}, dishes={0: [], 1: [], 2: [["4T"]]}, discards=((), ()))
    state, _ = g.apply_move(state, 0, "prep 5T")
    moves = choices.offered(g, state, 0)
    found = choices.entries(g, state, 0, moves, LONGEST, t)
    plain = {e.move: e for e in choices.entries(g, state, 0, moves, SHORT, t)}
    titles = lambda kind: choices.kind_label(g, kind, t)  # noqa: E731
    plans = choices.plan_menu(g.KINDS, titles, found, t=t, names=LONGEST)
    swap = [p for c in plans if c.kind == "buttons" for p in c.picks if p.value.startswith("m:swap ")]
    assert len(swap) == 1 and len(found[0].full) > choices.LABEL_LIMIT, found[0].full
    label = swap[0].label
    assert len(label) <= choices.LABEL_LIMIT and "…" in label, label
    assert as_short(label) == plain[swap[0].value[2:]].full, label  # every word but the names whole
    assert "龍" in label  # whose dish it is still shows
    view = menu_layout("text", None, plans, session_id=2**40, stamp="123.45", t=t)
    buttons = [getattr(item, "item", item) for item in view.walk_children()]  # a move's: a DynamicItem
    labels = [b.label for b in buttons if isinstance(b, discord.ui.Button)]
    assert label[0].upper() + label[1:] in labels, labels
