"""The engine contract on seeded random games: legal_moves is complete (compared with every
placement, removal and word the notation can write that apply_move accepts, for every seat and
the table), the saved state comes back field by field at every step, and the seed plus the log
replay the game exactly."""

from __future__ import annotations

import random

import pytest

import engines.nowa_gwinea as ng
from engines.core import TABLE
from engines.nowa_gwinea.data import board_side
from engines.nowa_gwinea.geometry import PIECES, PLACEMENTS, placement_from_text
from tests.support.contract import assert_events_tell, assert_replays, check_steps, playout

WORDS = ["gwinea", "done", "timeout", *(f"remove {p}" for p in PIECES)]
EVERY_PLACEMENT = [pl.text for pl in PLACEMENTS]


def placements_by_the_book(state, seat) -> list[str]:
    """The placements the rules allow, written out here apart from the engine: a hut not yet
    built, inside the board, on no hut, on no other totem, touching no hut along an edge; the
    first on the rolled totem, each later one touching a hut at a corner."""
    if seat not in ng.to_move(state):
        return []
    task = board_side(state.boards[seat], state.sides[seat])
    huts = [placement_from_text(t) for t in state.villages[seat]]
    totems = [c for i, c in enumerate(task.totems) if i != state.totem]
    out = []
    for pl in PLACEMENTS:
        if any(h.piece == pl.piece for h in huts) or any(pl.mask >> c & 1 for c in totems):
            continue
        if any(pl.mask & (h.mask | h.edge) for h in huts):
            continue
        if huts and not any(pl.mask & h.corner for h in huts):
            continue
        if not huts and not pl.mask >> task.totems[state.totem] & 1:
            continue
        out.append(pl.text)
    return out


def candidates(state, seat):
    """The placements by the book, 60 others drawn at random (each must be refused), and every
    word of the notation."""
    legal = placements_by_the_book(state, seat)
    rng = random.Random(state.step * 7 + seat)
    others = rng.sample([t for t in EVERY_PLACEMENT if t not in set(legal)], 60)
    return legal + others + WORDS


KINDS = {
    "Place": {"place"},
    "Remove": {"remove"},
    "Gwinea": {"gwinea"},
    "Done": {"done"},
    "Timeout": {"deadline"},
}


def choose(state, seat, legal, rng):
    """Mostly random huts and removals; a call or a stop now and then, so rounds end."""
    calls = [m for m in legal if isinstance(m, (ng.Gwinea, ng.Done))]
    if calls and rng.random() < 0.15:
        return rng.choice(calls)
    return rng.choice(legal)


@pytest.mark.parametrize(
    "players,seed,options",
    [
        (2, 3, {}),
        (3, 8, {"boards": ng.Deal.EACH, "side": ng.Side.HARD, "fruit_for_all": True}),
        (1, 5, {"water_target": 3, "hard_seats": "1"}),
    ],
)
def test_contract_on_random_games(players, seed, options):
    """legal_moves equals the accepted candidates for every seat and the table, at the start of
    every round and along it; the round trip holds at every step; the log replays."""
    config = ng.Config(players=players, **options)
    steps = playout(
        ng, config, players, seed, random.Random(seed), max_moves=900, table_every=60, choose=choose
    )
    assert ng.outcome(steps[-1].after) is not None, "the game should end within the moves"
    seen = check_steps(
        ng, steps, [*range(players), TABLE], candidates, key=lambda s: s.round, first=2, every=30
    )
    assert set(seen) == set(range(1, 10))
    assert_replays(ng, config, players, seed, steps)
    assert_events_tell(steps, KINDS)
    assert all(step.after.step == step.state.step + 1 for step in steps)
