"""The engine contract on seeded random games: legal_moves equals what apply_move accepts among
every placement, purchase, return, order, stopper and word the notation can write, and every
claim of a market card's shape (turned, mirrored and moved over the whole guanga by the test's own
geometry, in the card's colour and symbol), the saved state comes back field by field at every
step, the seed plus the log replay the game, and each move's first event names it and the
mover."""

from __future__ import annotations

import random

import pytest

from engines import guanga as G
from engines.core import config_from_options
from engines.guanga import data as D
from engines.guanga.rules import CELL_NAMES, Claim
from tests.support.contract import (
    accepted,
    assert_complete,
    assert_events_tell,
    assert_replays,
    check_steps,
    playout,
)

CELLS = list(CELL_NAMES)
WRITTEN = (
    ["done", "refresh"]
    + [f"keep O{k}" for k in range(1, 11)]
    + [f"{verb}{slot}{c}" for verb in "PS" for slot in range(1, 9) for c in CELLS]
    + [f"T{p}{c}" for p in range(1, 5) for c in CELLS]
    + [f"R {a}{b}" for i, a in enumerate(CELLS) for b in CELLS[i + 1 :]]
)
KINDS = {
    "Place": {"place"},
    "Buy": {"buy"},
    "Claim": {"claim"},
    "Return": {"return"},
    "Keep": {"order"},
    "Refresh": {"refresh"},
    "Done": {"done"},
    "Stopper": {"stopper"},
}


def shape_cells(rows: str) -> list[str]:
    """Every placement of a card's shape (``"#../.#./..#"``) on the 5 x 5 guanga, as cell texts
    (``"A1B2C3"``): the drawing turned a quarter at a time, each turn also mirrored, at every
    offset where it fits."""
    width = max(len(r) for r in rows.split("/"))
    grid = [r.ljust(width, ".") for r in rows.split("/")]
    drawings = set()
    for _ in range(4):
        grid = ["".join(col) for col in zip(*grid[::-1], strict=True)]  # a quarter turn clockwise
        drawings.add(tuple(grid))
        drawings.add(tuple(r[::-1] for r in grid))
    out = set()
    for d in drawings:
        for dr in range(D.SIZE - len(d) + 1):
            for dc in range(D.SIZE - len(d[0]) + 1):
                out.add(
                    "".join(
                        f"{D.ROWS[r + dr]}{c + dc + 1}"
                        for r, line in enumerate(d)
                        for c, ch in enumerate(line)
                        if ch == "#"
                    )
                )
    return sorted(out)


CARD_ROWS = {c[0]: c for c in D.CARDS}
SHAPES = {cid: shape_cells(row[5]) for cid, row in CARD_ROWS.items()}


def claim_texts(state) -> list[str]:
    """Every claim of a card in the market: each placement of its shape, in its colour and its symbol."""
    return [
        f"C {cid} {attr} {cells}"
        for cid in state.market
        if cid
        for attr in CARD_ROWS[cid][6:8]
        for cells in SHAPES[cid]
    ]


def candidates(state, seat):
    return WRITTEN + (claim_texts(state) if state.phase == "claim" else [])


def test_shape_geometry():
    """The test's own placements: a straight three fits 3 ways in a row, turned 2 ways (30); an
    L of three 4 turns x 16 offsets (64); a diagonal of three 2 ways x 9 offsets (18)."""
    assert len(shape_cells("###")) == 30
    assert len(shape_cells("##/#.")) == 64
    assert shape_cells("#../.#./..#") == sorted(
        {f"{'ABC'[r]}{1 + c}{'BCD'[r]}{2 + c}{'CDE'[r]}{3 + c}" for r in range(3) for c in range(3)}
        | {f"{'ABC'[r]}{3 + c}{'BCD'[r]}{2 + c}{'CDE'[r]}{1 + c}" for r in range(3) for c in range(3)}
    )


@pytest.mark.parametrize(
    "players,mode,seed", [(2, "beginner", 2), (3, "master", 1), (2, "artisan", 2), (1, "apprentice", 1)]
)
def test_claims_and_what_follows_are_complete(players, mode, seed):
    """At every claim step of a seeded game (claims preferred, so that many are made), and every
    step after one (return, extra patch, after): the listed moves are exactly the generated
    moves that apply_move accepts."""

    def choose(state, seat, legal, rng):
        claims = [m for m in legal if isinstance(m, Claim)]
        return rng.choice(claims) if claims and rng.random() < 0.8 else rng.choice(legal)

    config = config_from_options(G.Config, players, {"mode": mode})
    steps = playout(G, config, players, seed, random.Random(seed), max_moves=1000, choose=choose)
    checked = with_claims = 0
    kinds_after: set[str] = set()
    parsed: dict = {}  # each candidate text parsed once (parse_move depends on the text alone)
    for step in steps:
        if step.state.phase not in ("claim", "return", "extra", "after"):
            continue
        assert_complete(G, step.state, [step.seat], candidates, parsed)
        if step.state.phase == "claim":
            checked += 1
            with_claims += bool(accepted(G, step.state, step.seat, claim_texts(step.state), parsed))
        else:
            kinds_after |= {
                f"{step.state.phase} {type(m).__name__}" for m in G.legal_moves(step.state, step.seat)
            }
    assert checked >= 5 and with_claims >= 3, (checked, with_claims)  # the seeds give 5-8 and 3-6
    assert "return Return" in kinds_after


@pytest.mark.parametrize("phase", ["place1", "claim", "after", "extra"])
def test_shells_and_stoppers_in_every_phase_that_allows_them(phase):
    """With shells and stoppers in hand: buying, refreshing and stoppers are listed (and
    accepted) before the take, at the claim and after it, never on the blanket's extra patch;
    ending the turn only once the take is over.  The list is complete in each of these phases."""
    s = G.new_game(config_from_options(G.Config, 2, {"mode": "apprentice", "stoppers": True}), 2, 4)
    for seat in (0, 1):
        s, _ = G.apply_move(s, seat, G.parse_move(f"keep {s.orders_dealt[seat][0]}"))
    s.phase = phase
    s.shells[0] = 3
    assert_complete(G, s, [0, 1], candidates)
    kinds = {type(m).__name__ for m in G.legal_moves(s, 0)}
    spend = phase != "extra"
    assert {"Buy", "Refresh", "Stopper"} <= kinds if spend else not kinds & {"Buy", "Refresh", "Stopper"}
    assert ("Done" in kinds) == (phase != "place1")
    if spend:
        after, events = G.apply_move(s, 0, G.parse_move("refresh"))
        assert events[0].kind == "refresh" and after.shells[0] == 2


@pytest.mark.parametrize(
    "players,mode,options",
    [(2, "beginner", {"stoppers": True}), (3, "apprentice", {}), (2, "master", {}), (1, "artisan", {})],
)
def test_contract_on_random_games(players, mode, options):
    config = config_from_options(G.Config, players, {"mode": mode, **options})
    steps = playout(G, config, players, 7, random.Random(7), max_moves=400)
    check_steps(G, steps, range(players), candidates, key=lambda s: s.phase, first=3, every=15)
    assert_replays(G, config, players, 7, steps)
    assert_events_tell(steps, KINDS)
