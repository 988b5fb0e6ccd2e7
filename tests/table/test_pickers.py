"""How the Play menu and autocomplete offer moves: by kind, in words, within Discord's limits."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

import pytest

import engines
from bot import choices
from bot.choices import MENU_BUDGET, complete, entries, group_moves, plan_menu
from bot.surface.menus import menu_layout
from engines.core import config_from_options, rng_for

GAMES = (("guacamole", 3), ("tiwanaku", 2), ("nowa_gwinea", 2), ("guanga", 2), ("pachakuna", 2))
NAMES = ["Ana", "Bob", "Cy"]


def states(game: str, players: int, seed: int = 5, limit: int = 4000):
    """Every position of one seeded game played by the computer, with the seat to move."""
    m = engines.get(game).load()
    state = m.new_game(config_from_options(m.Config, players, {}), players, seed)
    for i in range(limit):
        if m.outcome(state) is not None:
            return
        seat = min(m.to_move(state))
        legal = list(m.legal_moves(state, seat))
        yield m, state, seat, legal
        move = m.computer_move(m.view_for(state, seat), legal, rng_for(seed, "test", i))
        state, _ = m.apply_move(state, seat, move)


def menu_of(m, state, seat, legal, opened=None):
    found = entries(m, state, seat, legal, NAMES)
    return found, plan_menu(m.KINDS, lambda k: choices.kind_label(m, k), found, opened=opened)


def one_click(plans) -> set[str]:
    return {p.value[2:] for c in plans for p in c.picks if p.value.startswith("m:")}


def first(game: str, players: int, test: Callable) -> tuple:
    for found in states(game, players):
        if test(*found):
            return found
    raise AssertionError(f"no {game} position found")


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_every_move_is_reachable_within_discords_limits(game, players):
    """In every position of a whole game: the menu fits one message, every legal move is one
    click away or inside a group offered, labels and ids fit, and turn-ending moves are buttons."""
    for m, state, seat, legal in itertools.islice(states(game, players), 0, None, 3):
        found, plans = menu_of(m, state, seat, legal)
        assert sum(c.cost for c in plans) <= MENU_BUDGET
        view = menu_layout("text", None, plans, session_id=2**53, stamp="999.9999")
        assert view.total_children_count <= 40
        assert all(len(getattr(i, "custom_id", None) or "") <= 100 for i in view.walk_children())
        reachable = one_click(plans)
        for c in plans:
            assert c.kind == "buttons" and len(c.picks) <= 5 or c.kind == "select" and len(c.picks) <= 25
            for p in c.picks:
                assert len(p.value) <= 100 and len(p.label) > 0
                if c.kind == "buttons":
                    assert len(choices.cap(p.label, choices.LABEL_LIMIT)) <= 80
        for value in {p.value for c in plans for p in c.picks if p.value.startswith("g:")}:
            kind, _, group = value[2:].partition(":")
            _, opened = menu_of(m, state, seat, legal, opened=(kind, group))
            assert sum(c.cost for c in opened) <= MENU_BUDGET
            assert any(p.value == "back" for c in opened for p in c.picks)
            reachable |= one_click(opened)
        assert reachable == {str(x) for x in legal}, (game, sorted({str(x) for x in legal} - reachable)[:5])
        enders = {k.key for k in m.KINDS if k.ends_turn}
        for e in found:
            if e.kind in enders:
                assert any(
                    c.kind == "buttons" and any(p.value == f"m:{e.move}" for p in c.picks) for c in plans
                ), e


def test_guacamole_main_step_reads_by_kind():
    """Prepare and dish are selects in words; draws are buttons, the draw pile first."""
    m, state, seat, legal = first("guacamole", 3, lambda m, s, seat, legal: s.phase == "main")
    _, plans = menu_of(m, state, seat, legal)
    selects = [c for c in plans if c.kind == "select"]
    assert selects[0].placeholder == "Prepare a card" and selects[1].placeholder == "Make a dish"
    prep = selects[0].picks[0]
    assert prep.label.startswith("prepare ") and ":" in prep.label and prep.description.startswith("prep ")
    draws = [p for c in plans if c.kind == "buttons" for p in c.picks]
    assert draws[0].label == "draw from the deck" and all(p.ends for p in draws)
    assert not any("moves)" in p.label for c in plans for p in c.picks)


def test_a_big_tomathor_swap_is_one_click():
    """Two hundred swaps or more: selects of one's own card each, every swap one click away."""
    m, state, seat, legal = first(
        "guacamole", 3, lambda m, s, seat, legal: s.phase == "tomathor" and len(legal) > 150
    )
    found, plans = menu_of(m, state, seat, legal)
    assert one_click(plans) == {str(x) for x in legal}
    assert sum(c.cost for c in plans) <= MENU_BUDGET
    swap_selects = [c for c in plans if c.kind == "select"]
    assert all("Swap" in c.placeholder for c in swap_selects)
    assert any(p.value == "m:pass" for c in plans if c.kind == "buttons" for p in c.picks)


def test_nowa_gwinea_offers_each_hut_then_where():
    """A select per hut ("Hut F…") listing the squares each placement covers: one click a hut."""
    m, state, seat, legal = first("nowa_gwinea", 2, lambda m, s, seat, legal: len(legal) > 200)
    found, plans = menu_of(m, state, seat, legal)
    assert one_click(plans) == {str(x) for x in legal}
    selects = [c for c in plans if c.kind == "select" and c.picks[0].value[2] in "FILNPTUVWXYZ"]
    assert selects and all(
        re.fullmatch(r"Hut [A-Z]…( \(\d of \d\))?|Build a hut.*", c.placeholder) for c in selects
    )
    label = next(p.label for c in selects if c.placeholder.startswith("Hut") for p in c.picks)
    assert label.startswith("on ") and len(label.split()) == 6  # "on" and the five squares covered
    assert {p.value for c in plans if c.kind == "buttons" for p in c.picks} >= {"m:done"}


def test_too_many_moves_for_one_message_open_by_group():
    """When one click per move would not fit in a message, the groups come first, each opening
    its own moves with a way back and the turn-ending moves."""
    found = [
        choices.Entry(f"{hut}{i}", "build", f"on {i}", hut, f"Hut {hut}")
        for hut in "FILNPTUVWXYZ"
        for i in range(60)
    ] + [choices.Entry("done", "done", "done building")]
    kinds = engines.get("nowa_gwinea").load().KINDS
    plans = plan_menu(kinds, str.title, found)
    assert sum(c.cost for c in plans) <= MENU_BUDGET
    groups = [p for c in plans for p in c.picks if p.value.startswith("g:")]
    assert [p.label for p in groups] == [f"Hut {h}" for h in "FILNPTUVWXYZ"]
    assert groups[0].description == "60 moves"
    opened = plan_menu(kinds, str.title, found, opened=("build", "F"))
    assert one_click(opened) == {f"F{i}" for i in range(60)} | {"done"}
    assert sum(c.cost for c in opened) <= MENU_BUDGET


def test_tiwanaku_says_enter_at_a_cell():
    """An explorer entering is "enter at B1", walks are grouped by explorer."""
    m, state, seat, legal = first(
        "tiwanaku", 2, lambda m, s, seat, legal: any(str(x).startswith("+") for x in legal)
    )
    found, _ = menu_of(m, state, seat, legal)
    enter = next(e for e in found if e.move.startswith("+"))
    assert enter.label == f"enter at {enter.move[1:]}"
    walks = [e for e in found if e.kind == "walk"]
    for e in walks:
        assert e.full.startswith(f"Explorer on {e.move.split('-')[0]}: ")


def test_pachakuna_rotations_open_by_tile():
    """Thousands of rotations: tiles first, then how far."""
    m, state, seat, legal = first("pachakuna", 2, lambda m, s, seat, legal: len(legal) > 1000)
    found, plans = menu_of(m, state, seat, legal)
    tiles = [p for c in plans if c.kind == "select" for p in c.picks if p.value.startswith("g:rotate:")]
    assert len(tiles) > 25 and tiles[0].label.startswith("Tile ") and not tiles[0].label.endswith(":")
    assert any(p.value == "m:end" and p.ends for c in plans for p in c.picks)


def test_the_menu_becomes_components_within_discords_limits():
    """The layout of the biggest menus holds at most 40 components and ids of at most 100 characters."""
    m, state, seat, legal = first(
        "guacamole", 3, lambda m, s, seat, legal: s.phase == "tomathor" and len(legal) > 150
    )
    _, plans = menu_of(m, state, seat, legal)
    view = menu_layout("text", None, plans, session_id=2**40, stamp="123.45")
    assert view.total_children_count <= 40
    for item in view.walk_children():
        custom_id = getattr(item, "custom_id", None)
        assert custom_id is None or len(custom_id) <= 100


def test_group_moves_keeps_at_most_25_choices():
    """More than 25 moves are grouped by the longest prefix that keeps 25 groups or fewer."""
    moves = [f"P{s}{r}{c}" for s in range(1, 9) for r in "ABCDE" for c in range(1, 6)]
    groups = group_moves(moves)
    assert len(groups) == 8 and groups[0][0] == "P1" and len(groups[0][1]) == 25
    assert group_moves(moves, "P3")[0][0] == "P3A1"


def test_autocomplete_offers_groups_first_in_words():
    """More than 25 matches: groups to keep typing, named in words with a count; few: moves in words."""
    m, state, seat, legal = first(
        "guacamole", 3, lambda m, s, seat, legal: s.phase == "tomathor" and len(legal) > 150
    )
    found = entries(m, state, seat, legal, NAMES)
    titles = lambda k: choices.kind_label(m, k)  # noqa: E731
    top = complete(found, "", titles)
    assert len(top) <= 25 and any("keep typing" in name for name, _ in top)
    target = next(e.move for e in found if e.move.startswith("swap"))
    typed, requests = "", 0
    while True:
        requests += 1
        offered = complete(found, typed, titles)
        if target in [v for _, v in offered]:
            break
        typed = next(v for _, v in offered if target.startswith(v) and v != typed)
    assert requests <= 3, requests
    name = next(n for n, v in complete(found, typed, titles) if v == target)
    assert name.startswith(target + " — ")
