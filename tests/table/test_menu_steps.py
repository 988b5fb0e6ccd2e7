"""Every step of the Play menu, walked in the positions with the most moves of each game: one
select of at most 25 choices a step, every legal move reachable, nothing else offered, the way
down named by the game (piece, then region, then place), and Back returning a step."""

from __future__ import annotations

import functools
import heapq
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

import engines
from bot import choices
from bot.choices import MENU_BUDGET, Control, plan_menu
from bot.surface.menus import menu_layout
from engines.core import config_from_options, rng_for
from languages import language

NAMES = ["Ana", "Bob", "Cy"]


def positions(game: str, players: int, seed: int, limit: int = 4000) -> Iterator[tuple[Any, Any, int, list]]:
    """Every position of one seeded game played by the computer, with the seat to move and the
    moves a menu offers it."""
    m = engines.get(game).load()
    state = m.new_game(config_from_options(m.Config, players, {}), players, seed)
    for i in range(limit):
        if m.outcome(state) is not None:
            return
        seat = min(m.to_move(state))
        yield m, state, seat, choices.offered(m, state, seat)
        legal = list(m.legal_moves(state, seat))
        state, _ = m.apply_move(
            state, seat, m.computer_move(m.view_for(state, seat), legal, rng_for(seed, "t", i))
        )


@functools.cache
def busiest(
    game: str, players: int, seed: int, count: int = 3, where: Callable[..., bool] | None = None
) -> list:
    """The ``count`` positions with the most moves (among those ``where`` accepts)."""
    found = (p for p in positions(game, players, seed) if where is None or where(*p))
    return [p for _, _, p in heapq.nlargest(count, ((len(p[3]), i, p) for i, p in enumerate(found)))]


@dataclass
class Walk:
    """What walking every step of one position's menu found."""

    steps: dict[tuple[str, ...] | None, list[Control]] = field(default_factory=dict)
    offered: set[str] = field(default_factory=set)
    opens: dict[tuple[str, ...], tuple[str, ...] | None] = field(default_factory=dict)  # step -> where from


def opened_by(value: str) -> tuple[str, ...]:
    kind, _, keys = value.partition(":")[2].partition(":")
    return (kind, *(k for k in keys.split("/") if k))


def walk(m, state, seat, moves, language=None) -> Walk:
    found = choices.entries(m, state, seat, moves, NAMES, *([language] if language else []))
    titles = lambda k: choices.kind_label(m, k, *([language] if language else []))  # noqa: E731
    out = Walk()
    todo: list[tuple[str, ...] | None] = [None]
    while todo:
        step = todo.pop()
        plans = plan_menu(m.KINDS, titles, found, opened=step, **({"t": language} if language else {}))
        out.steps[step] = plans
        for c in plans:
            for p in c.picks:
                if p.value.startswith("m:"):
                    out.offered.add(p.value[2:])
                elif p.value.startswith("g:") and opened_by(p.value) not in out.opens:
                    out.opens[opened_by(p.value)] = step
                    todo.append(opened_by(p.value))
    return out


def check(m, state, seat, moves) -> Walk:
    """The menu's every step within the limits; every move reachable, nothing else offered."""
    done = walk(m, state, seat, moves)
    legal = {str(x) for x in m.legal_moves(state, seat)}
    for step, plans in done.steps.items():
        selects = [c for c in plans if c.kind == "select"]
        assert len(selects) <= 1, (step, [c.placeholder for c in selects])
        assert all(len(c.picks) <= 25 for c in selects), (step, [len(c.picks) for c in selects])
        assert all(c.kind == "select" or len(c.picks) <= 5 for c in plans)
        assert sum(c.cost for c in plans) <= MENU_BUDGET
        view = menu_layout("text", None, plans, session_id=2**53, stamp="999.9999")
        assert view.total_children_count <= 40
        for item in view.walk_children():
            assert len(getattr(item, "custom_id", None) or "") <= 100
            assert len(getattr(item, "label", None) or "") <= 80
            for option in getattr(item, "options", ()):
                assert 0 < len(option.label) <= 100 and len(option.value) <= 100
        # never a step that only says "part 2 of 13": every way down is named by the game
        assert not any("~" in p.value for c in plans for p in c.picks), step
        if step is not None:  # Back, and the turn-ending moves, on every step below the whole menu
            backs = [
                p.value for c in plans if c.kind == "buttons" for p in c.picks if p.value.startswith("back")
            ]
            assert len(backs) == 1, (step, backs)
    assert done.offered == {str(x) for x in moves}
    assert done.offered <= legal  # nothing illegal
    return done


def back_returns(done: Walk) -> None:
    """Back from a step shows the step whose choice opened it (or one that offers it too)."""
    for step, plans in done.steps.items():
        if step is None:
            continue
        (back,) = [p.value for c in plans for p in c.picks if p.value.startswith("back")]
        target = None if back == "back" else opened_by("g" + back[4:])
        shown = done.steps.get(target) if target in done.steps else None
        if shown is None:  # a step Back names without a choice opening it: where a single choice led down
            continue
        values = {p.value for c in shown for p in c.picks}
        assert any(opened_by(v) == step for v in values if v.startswith("g:")) or step[:-1] == target, step


def round_two(m, state, seat, moves) -> bool:
    return state.round == 2


def after_tomathor(m, state, seat, moves) -> bool:
    return state.phase == "tomathor"


GAMES = {
    # game: (players, positions to walk)
    "nowa_gwinea": (2, lambda: busiest("nowa_gwinea", 2, 5, where=round_two)),
    "guanga": (2, lambda: busiest("guanga", 2, 5)),
    "pachakuna": (2, lambda: busiest("pachakuna", 2, 5, 2)),
    "guacamole": (
        3,
        lambda: busiest("guacamole", 3, 5, where=after_tomathor),
    ),
    "tiwanaku": (2, lambda: busiest("tiwanaku", 2, 5) + busiest("tiwanaku", 2, 9, 2)),
}


@pytest.mark.parametrize("game", GAMES)
def test_every_step_one_select_of_at_most_25_every_move_reachable(game):
    players, found = GAMES[game]
    walked = found()
    assert walked
    for m, state, seat, moves in walked:
        done = check(m, state, seat, moves)
        back_returns(done)
        assert len(moves) <= 25 or len(done.steps) > 1


def first(game: str, players: int, test: Callable[..., bool]) -> tuple:
    for found in positions(game, players, 5):
        if test(*found):
            return found
    raise AssertionError(f"no {game} position found")


def crowded_hut(m, state, seat, moves) -> bool:
    """Some hut has more than 25 placements."""
    huts = [str(x)[0] for x in moves if str(x)[0].isupper() and str(x)[1:2].isdigit()]
    return any(huts.count(h) > 25 for h in set(huts))


def test_nowa_gwinea_hut_then_row_then_place():
    """Many placements: the huts first, a crowded hut by the row of its highest square, then
    the squares each placement covers (the board's own coordinates)."""
    m, state, seat, moves = busiest("nowa_gwinea", 2, 5, 1, where=crowded_hut)[0]
    done = check(m, state, seat, moves)
    (top,) = [c for c in done.steps[None] if c.kind == "select"]
    huts = [p for p in top.picks if p.value.startswith("g:build:")]
    assert huts and all(p.label.startswith("Hut ") and p.description.endswith(" moves") for p in huts)
    rows = [
        p
        for plans in done.steps.values()
        for c in plans
        for p in c.picks
        if p.value.startswith("g:build:") and "/" in p.value
    ]
    assert rows and all(p.label.startswith("highest square in row ") for p in rows)
    for p in rows:  # each row's placements have their highest square in that row
        (select,) = [c for c in done.steps[opened_by(p.value)] if c.kind == "select"]
        row = p.label[-1]
        assert all(q.label.split()[1][0] == row for q in select.picks if q.value.startswith("m:"))
        assert all(len(q.label.split()) == 6 for q in select.picks if q.value.startswith("m:"))


def test_pachakuna_row_then_tile_then_turn():
    m, state, seat, moves = first("pachakuna", 2, lambda m, s, seat, moves: len(moves) > 1000)
    done = check(m, state, seat, moves)
    (top,) = [c for c in done.steps[None] if c.kind == "select"]
    rows = [p.label for p in top.picks if p.value.startswith("g:rotate:")]
    assert rows[0] == "Turn a tile › Row 1: fields 11 to 15", rows
    tiles = [
        p.label
        for plans in done.steps.values()
        for c in plans
        for p in c.picks
        if p.value.startswith("g:rotate:") and p.value.count("/") == 1
    ]
    assert tiles and all(label.startswith("Tile ") for label in tiles)


def test_guacamole_tomathor_own_card_then_the_card_taken():
    m, state, seat, moves = first(
        "guacamole", 3, lambda m, s, seat, moves: s.phase == "tomathor" and len(moves) > 150
    )
    done = check(m, state, seat, moves)
    (top,) = [c for c in done.steps[None] if c.kind == "select"]
    assert all(p.label.startswith("Swap your ") for p in top.picks)
    assert any(p.value == "m:pass" for c in done.steps[None] if c.kind == "buttons" for p in c.picks)


def test_spanish_steps_fit_too():
    """The words of each step in Spanish, within Discord's limits."""
    es = language("es")
    for game, (_players, found) in GAMES.items():
        m, state, seat, moves = found()[0]
        done = walk(m, state, seat, moves, es)
        assert done.offered == {str(x) for x in moves}, game
        labels = [p.label for plans in done.steps.values() for c in plans for p in c.picks]
        assert all(0 < len(choices.cap(label, 100)) <= 100 for label in labels)
        assert not any(label in ("Back", "All moves") for label in labels), game


def crowded(game: str, players: int, seed: int, options: dict, kind: str) -> tuple:
    """The first position of a seeded game (with ``options``) where one group of ``kind`` holds
    more than 25 moves."""
    m = engines.get(game).load()
    state = m.new_game(config_from_options(m.Config, players, options), players, seed)
    for i in range(4000):
        assert m.outcome(state) is None, f"no crowded {kind} in {game}"
        seat = min(m.to_move(state))
        moves = choices.offered(m, state, seat)
        groups = [
            m.move_words(state, seat, x).group for x in moves if m.move_words(state, seat, x).kind == kind
        ]
        if any(groups.count(g) > 25 for g in set(groups)):
            return m, state, seat, moves
        legal = list(m.legal_moves(state, seat))
        state, _ = m.apply_move(
            state, seat, m.computer_move(m.view_for(state, seat), legal, rng_for(seed, "t", i))
        )
    raise AssertionError(f"no crowded {kind} in {game}")


@pytest.mark.parametrize(
    "game, players, seed, options, kind",
    [
        ("tiwanaku", 3, 1, {}, "walk"),  # an explorer with 26 places to go on the long board
        ("tiwanaku", 1, 1, {"board": "long"}, "walk"),
        ("guanga", 1, 7, {"mode": "artisan"}, "return"),  # 28 pairs of the 8 cells of a big claim
    ],
)
def test_a_crowded_step_is_split_by_the_game_s_words_not_in_numbered_parts(
    game, players, seed, options, kind
):
    """An explorer with more than 25 places to go, or a claim of 8 cells and more (28 pairs to
    return), showed two choices "Explore A4 … walk to D5", each saying "28 moves" (all of them):
    parts of 25 that the game did not name.  Now the destination's row, or the first patch
    returned, names the way down."""
    m, state, seat, moves = crowded(game, players, seed, options, kind)
    done = check(m, state, seat, moves)
    back_returns(done)
