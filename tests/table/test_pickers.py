"""How the Play menu and autocomplete offer moves: by kind, in words, within Discord's limits."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

import pytest

import engines
from bot import choices
from bot.choices import complete, entries, group_moves, plan_menu
from bot.surface.menus import menu_layout
from engines.core import config_from_options, rng_for
from tests.table import test_menu_steps as steps

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
    """In every third position of a whole game: each step of the menu fits one message with one
    select of at most 25, every legal move is reachable through the steps, and turn-ending moves
    are buttons on the whole menu."""
    every = 9 if game == "pachakuna" else 3  # its menus have up to two thousand moves: fewer positions
    for m, state, seat, _legal in itertools.islice(states(game, players), 0, None, every):
        offered = choices.offered(m, state, seat)
        done = steps.check(m, state, seat, offered)
        plans = done.steps[None]
        enders = {k.key for k in m.KINDS if k.ends_turn}
        for e in entries(m, state, seat, offered, NAMES):
            if e.kind in enders:
                assert any(
                    c.kind == "buttons" and any(p.value == f"m:{e.move}" for p in c.picks) for c in plans
                ), e


def test_guacamole_main_step_reads_by_kind():
    """Prepare and dish are one select in words; draws are buttons, the draw pile first."""
    m, state, seat, legal = first("guacamole", 3, lambda m, s, seat, legal: s.phase == "main")
    _, plans = menu_of(m, state, seat, legal)
    (select,) = [c for c in plans if c.kind == "select"]
    labels = [p.label for p in select.picks]
    prep = next(p for p in select.picks if p.value.startswith("m:prep "))
    assert prep.label.startswith("prepare ") and ":" in prep.label and prep.description.startswith("prep ")
    assert any(label.startswith(("start a dish", "Make a dish")) for label in labels), labels
    draws = [p for c in plans if c.kind == "buttons" for p in c.picks]
    assert draws[0].label == "draw from the deck" and all(p.ends for p in draws)


def test_a_big_tomathor_swap_is_two_choices():
    """Two hundred swaps or more: one's own card first, then the card taken (by whose it is when
    there are more than 25)."""
    m, state, seat, legal = first(
        "guacamole", 3, lambda m, s, seat, legal: s.phase == "tomathor" and len(legal) > 150
    )
    found, plans = menu_of(m, state, seat, legal)
    (select,) = [c for c in plans if c.kind == "select"]
    assert all(p.label.startswith("Swap your ") and p.value.startswith("g:swap:") for p in select.picks)
    assert any(p.value == "m:pass" for c in plans if c.kind == "buttons" for p in c.picks)
    source = select.picks[0].value.split(":")[2]
    _, opened = menu_of(m, state, seat, legal, opened=("swap", source))
    (inside,) = [c for c in opened if c.kind == "select"]
    assert inside.placeholder.startswith("Swap your ")
    assert [p.label for c in opened if c.kind == "buttons" for p in c.picks][0] == "All moves"


def test_nowa_gwinea_offers_each_hut_then_where():
    """The huts in one select ("Hut F", with how many placements), each opening the squares each
    placement covers."""
    m, state, seat, legal = first("nowa_gwinea", 2, lambda m, s, seat, legal: len(legal) > 200)
    found, plans = menu_of(m, state, seat, legal)
    (select,) = [c for c in plans if c.kind == "select"]
    huts = [p for p in select.picks if p.value.startswith("g:build:")]
    assert huts and all(re.fullmatch(r"Hut [A-Z]", p.label) for p in huts)
    _, opened = menu_of(m, state, seat, legal, opened=("build", huts[0].value.split(":")[2]))
    (inside,) = [c for c in opened if c.kind == "select"]
    assert re.fullmatch(r"Hut [A-Z]…", inside.placeholder)
    label = next(p.label for p in inside.picks)
    assert label.startswith(("on ", "highest square in row "))
    assert {p.value for c in plans if c.kind == "buttons" for p in c.picks} >= {"m:done"}


def test_too_many_moves_for_one_step_go_down_by_level():
    """Moves too many for one select are reached by their levels: the group, then the region,
    each opening its own step with a way back and the turn-ending moves."""
    found = [
        choices.Entry(
            f"{hut}{row}{i}",
            "build",
            f"on {row}{i}",
            hut,
            f"Hut {hut}",
            ((hut, f"Hut {hut}"), (row, f"row {row}")),
        )
        for hut in "FILNPTUVWXYZ"
        for row in "ABC"
        for i in range(20)
    ] + [choices.Entry("done", "done", "done building")]
    kinds = engines.get("nowa_gwinea").load().KINDS
    plans = plan_menu(kinds, str.title, found)
    groups = [p for c in plans for p in c.picks if p.value.startswith("g:")]
    assert [p.label for p in groups] == [f"Hut {h}" for h in "FILNPTUVWXYZ"]
    assert groups[0].description == "60 moves"
    opened = plan_menu(kinds, str.title, found, opened=("build", "F"))
    rows = [p for c in opened for p in c.picks if p.value.startswith("g:")]
    assert [(p.value, p.label) for p in rows] == [(f"g:build:F/{r}", f"row {r}") for r in "ABC"]
    assert [p.value for c in opened if c.kind == "buttons" for p in c.picks] == ["back", "m:done"]
    inner = plan_menu(kinds, str.title, found, opened=("build", "F", "B"))
    assert one_click(inner) == {f"FB{i}" for i in range(20)} | {"done"}
    assert [p.label for c in inner if c.kind == "buttons" for p in c.picks][0] == "Back"
    assert any(p.value == "back:build:F" for c in inner for p in c.picks)


def test_parts_of_a_step_no_level_splits_count_their_own_moves():
    """30 moves with no level to split them are offered in parts of 25; each part said "30 moves"
    (all of the step's), so two choices promised 60: now each says its own, 25 and 5."""
    found = [choices.Entry(f"x{i:02}", "build", f"at {i}") for i in range(30)]
    kinds = engines.get("nowa_gwinea").load().KINDS
    plans = plan_menu(kinds, str.title, found)
    parts = [p for c in plans for p in c.picks if p.value.startswith("g:")]
    assert [p.value for p in parts] == ["g:build:~0", "g:build:~1"]
    assert [p.description for p in parts] == ["25 moves", "5 moves"]
    opened = plan_menu(kinds, str.title, found, opened=("build", "~1"))
    assert one_click(opened) == {f"x{i}" for i in range(25, 30)}


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


def test_pachakuna_rotations_open_by_row_then_tile():
    """Thousands of rotations: the row first (named by its fields' numbers, villages too), then the tile."""
    m, state, seat, legal = first("pachakuna", 2, lambda m, s, seat, legal: len(legal) > 1000)
    found, plans = menu_of(m, state, seat, legal)
    rows = [p for c in plans if c.kind == "select" for p in c.picks if p.value.startswith("g:rotate:")]
    assert 1 < len(rows) <= 9 and rows[0].label.startswith("Turn a tile › Row 1: fields 11 to ")
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


def test_autocomplete_groups_what_was_typed_whatever_its_case():
    """Typing `d` after a right guess in Tiwanaku, with explorers on D1 to D5 (25 guesses), a trade
    and `done` to choose from: the matches were grouped by the first one's `D`, which dropped
    `done` (and `dF>S` would have been), a legal move autocomplete no longer offered."""
    guesses = [
        choices.Entry(f"D{c}={crop}", "divine", f"crop {crop}") for c in range(1, 6) for crop in range(1, 6)
    ]
    found = [
        *guesses,
        choices.Entry("DF>S", "trade", "trade"),
        choices.Entry("done", "done", "stop divining"),
    ]
    offered = complete(found, "d", str.title)
    assert "done" in [value for _, value in offered], offered
    reached = [m.move for m in found if any(m.move.lower().startswith(v.lower()) for _, v in offered)]
    assert reached == [m.move for m in found]


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


def test_autocomplete_finds_moves_by_their_words_after_the_notation():
    """Typed words a move's notation lacks (a name, an accent left out) find it by its words;
    moves whose notation matches keep coming first, and words fill only the room they leave, so
    a few more words never turn a list of moves into groups to keep typing."""
    found = [
        choices.Entry(f"take p2d{i}", "take", f"take {i} Ají (top of Bob's dish {i})") for i in range(1, 4)
    ]
    found += [choices.Entry(f"b{i:02}", "draw", "draw a card") for i in range(24)]
    offered = [value for _, value in complete(found, "aji bob", str.title)]
    assert offered == ["take p2d1", "take p2d2", "take p2d3"]
    assert [value for _, value in complete(found, "dish 2", str.title)] == ["take p2d2"]
    firsts = [value for _, value in complete(found, "b", str.title)]
    assert firsts == [f"b{i:02}" for i in range(24)] + ["take p2d1"]  # a letter of "Bob": in the room left
    assert complete(found, "zebra", str.title) == []
