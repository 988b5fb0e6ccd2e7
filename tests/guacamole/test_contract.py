"""The engine contract on seeded random games: legal_moves is complete (compared with every move
the notation can write that apply_move accepts), the saved state comes back field by field at
every step, and the seed plus the log replay the game exactly."""

from __future__ import annotations

import itertools
import random

import pytest

import engines.guacamole as g
from engines.guacamole.data import TYPES
from engines.guacamole.rules import (
    AJI,
    AVOCALDO,
    BUILD,
    DRAW,
    LIMA,
    MAIN,
    ONION,
    ONION_DISCARD,
    TOMATHOR,
    _codes,
)
from tests.support.contract import assert_events_tell, assert_replays, check_steps, playout

CODES = [f"{n}{t}" for n in range(1, 10) for t in TYPES]


def candidates(state: g.State, seat: int) -> set[str]:
    """Every move text worth trying, written from the notation alone (a superset of the legal
    moves): all cards for prep, free, dish, discard; every place of every player for take and
    swap; every dish and every 1-3 cards of hand and zone (each order) for add."""
    n = state.config.players
    out = {"done", "cancel", "pass", "end", "draw deck", "draw x1", "draw x2"}
    out |= {f"steal p{p}" for p in range(1, 7)}
    for c in CODES:
        out |= {f"prep {c}", f"dish {c}", f"dish z{c}", f"free {c} x1", f"free {c} x2"}
        out |= {f"discard {c} x1", f"discard {c} x2"}
    dishes = max(len(d) for d in state.dishes) + 1
    places = ["x1", "x2"]
    for p in range(1, n + 1):
        places += [f"p{p}d{k}" for k in range(1, dishes + 1)]
        places += [f"p{p}z{c}" for c in sorted({*_codes(state.prep[p - 1])})]
    out |= {f"take {x}" for x in places}
    if state.phase == TOMATHOR:
        sources = sorted(set(_codes(state.hands[seat]))) + [x for x in places if not x.startswith("x")]
        out |= {f"swap {a} {b}" for a in sources for b in places}
    if state.phase == AVOCALDO:
        refs = sorted(set(_codes(state.hands[seat]))) + sorted({"z" + c for c in _codes(state.prep[seat])})
        for size in (1, 2, 3):
            for combo in itertools.product(refs, repeat=size):
                for k in range(1, dishes + 1):
                    out.add(f"add d{k} " + ",".join(combo))
    return out


KINDS = {
    "Prep": {"prep"},
    "Free": {"free"},
    "Dish": {"dish"},
    "Done": {"dish"},
    "Cancel": {"cancel"},
    "Add": {"add"},
    "Steal": {"steal"},
    "Swap": {"swap"},
    "Take": {"take"},
    "Draw": {"draw"},
    "Discard": {"discard"},
    "Pass": {"pass"},
    "End": {"end"},
}
PHASES = {MAIN, BUILD, DRAW, AVOCALDO, LIMA, ONION, ONION_DISCARD, TOMATHOR, AJI}


@pytest.mark.parametrize("players,seed", [(2, 5), (3, 11), (4, 2)])
def test_contract_on_random_games(players, seed):
    """Every seat, every phase: legal_moves equals the accepted candidates; the round trip holds
    at every step; the log replays; each finished game reached the ability phases."""
    config = g.Config(players=players)
    steps = playout(g, config, players, seed, random.Random(seed), max_moves=700)
    seen = check_steps(g, steps, range(players), candidates, key=lambda s: s.phase)
    assert_replays(g, config, players, seed, steps)
    assert_events_tell(steps, KINDS)
    for step in steps:  # the turn counter moves on with each turn, and the views show it
        passed = step.after.turn != step.state.turn or step.after.over
        assert step.after.turn_number == step.state.turn_number + (passed and not step.after.over)
        assert g.view_for(step.after, None).turn_number == step.after.turn_number
        if step.state.phase == MAIN:  # the step's words offer exactly the kinds of move listed
            said = g.view_for(step.state, None).step
            kinds = {type(m).__name__ for m in g.legal_moves(step.state, step.state.turn)}
            assert ("free a preparation-zone card" in said) == ("Free" in kinds), said
            assert ("prepare a card" in said) == ("Prep" in kinds), said
            assert ("start a dish" in said) == ("Dish" in kinds), said
            assert ("draw 2 to end the turn" in said) == ("Draw" in kinds), said
            assert ("end the turn (end)" in said) == ("End" in kinds), said
        if step.state.phase == ONION:  # Onion Musk may be passed only before its first draw
            said = g.view_for(step.state, None).step
            kinds = {type(m).__name__ for m in g.legal_moves(step.state, step.state.turn)}
            assert said.endswith(" or pass") == ("Pass" in kinds), said
    outcome = g.outcome(steps[-1].after)
    if outcome is not None:  # the last move says who scored what and who won
        (over,) = [e for e in steps[-1].events if e.kind == "end"]
        assert all(f"{{p{p}}} {int(v)}" in over.text for p, v in enumerate(outcome.scores))
        assert all(f"{{p{p}}}" in over.text.split(".")[-2] for p in outcome.winners)
    assert PHASES - {ONION_DISCARD} <= set(seen), f"phases never reached: {PHASES - set(seen)}"
