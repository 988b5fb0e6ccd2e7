"""Random playouts: every mode and variant, 1-4 players, with invariants checked along the way."""

from __future__ import annotations

import json
import random

import pytest

from engines import guanga as G
from engines.core import UNKNOWN, jsonable
from engines.guanga import data as D
from engines.guanga.rules import Mode, marker_totals, patch_counts, patches_per_kind
from tests.support.seeds import playout_seeds

COMBOS = [
    ("beginner", False),
    ("beginner", True),
    ("apprentice", False),
    ("apprentice", True),
    ("master", False),
    ("artisan", False),
]
SEEDS = 200
MAX_STEPS = 1500


def _cards_in_game(s) -> int:
    return (
        len(s.market)
        - s.market.count(None)
        + sum(len(d) for d in s.decks.values())
        + sum(len(c) for c in s.claimed)
    )


def _check_components(s, cards: int) -> None:
    per = patches_per_kind(s.config)
    assert patch_counts(s) == [per] * D.KINDS, "patches conserved per kind"
    assert _cards_in_game(s) == cards, "market cards conserved"
    totals = marker_totals(s.config)
    assert all(0 <= s.markers[k] <= totals[k] for k in totals)
    flips = sum(totals.values()) - sum(s.markers.values())
    assert flips == sum(len(c) for c in s.claimed), "one marker flipped per claim"
    if s.config.mode is Mode.APPRENTICE:
        assert sum(s.shells) + s.shells_spent == 3 * s.n, "apprentice shells conserved"
    if s.config.mode in (Mode.MASTER, Mode.ARTISAN):
        assert s.shells == [len(p) for p in s.shell_patches]
    assert all(len(x) <= D.STOPPERS_PER_GUANGA for x in s.stoppers)
    assert sum(len(x) for x in s.stoppers) + sum(s.stoppers_left) == (
        D.STOPPERS_PER_PLAYER * s.n if s.config.stoppers else 0
    )
    if s.config.mode is Mode.ARTISAN:
        for g in s.guangas:
            assert g[D.CENTRE], "the mother patch never leaves C3"


def _check_views(s) -> None:
    for viewer in [*range(s.n), None]:
        view = G.view_for(s, viewer)
        plain = jsonable(view)
        text = json.dumps(plain)
        for other in range(s.n):
            if other == viewer or s.finished:
                continue
            for oid in set(s.orders_dealt[other]) | ({s.orders[other]} - {None}):
                if viewer is not None and oid in s.orders_dealt[viewer]:
                    continue
                leaks = (f'"{oid}"' in text) or (f'keep {oid}"' in text)
                assert not leaks, f"seat {viewer} sees {other}'s order {oid}"
        if not s.finished:
            for p in view.guangas:
                if p.seat != viewer and s.orders[p.seat] is not None:
                    assert p.order == UNKNOWN
        assert view.pile == len(s.pile) and view.bag == len(s.bag)
        assert isinstance(plain["pile"], int) and isinstance(plain["decks"]["A"], int)


def _playout(mode: str, stoppers: bool, players: int, seed: int, computer: str):
    cfg = G.Config(players=players, mode=Mode(mode), stoppers=stoppers)
    s = G.new_game(cfg, players, seed)
    cards = _cards_in_game(s)
    rng = random.Random(seed * 7 + 1)
    log: list[str] = []
    steps = 0
    while not s.finished:
        seats = sorted(G.to_move(s))
        assert seats, "someone must be able to act until the end"
        seat = rng.choice(seats)
        legal = G.legal_moves(s, seat)
        assert legal, f"seat {seat} has no legal move in phase {s.phase}"
        use_ai = computer == "all" or (computer == "seat0" and seat == 0)
        if use_ai:
            move = G.computer_move(G.view_for(s, seat), legal, rng)
            assert move in legal
        else:
            move = rng.choice(legal)
        check = steps % 6 == 0
        before = G.to_dict(s) if check else None
        new, events = G.apply_move(s, seat, move)
        if check:
            assert G.to_dict(s) == before, "apply_move must not change its input"
            d = G.to_dict(new)
            assert G.to_dict(G.from_dict(json.loads(json.dumps(d)))) == d
        if steps % 60 == 0 or s.phase == "order":
            _check_views(new)
        for e in events:
            assert e.text
        s = new
        _check_components(s, cards)
        log.append(str(move))
        steps += 1
        assert steps < MAX_STEPS, "the game must end"
    _check_views(s)
    out = G.outcome(s)
    assert out is not None and len(out.scores) == players
    assert sorted(x for g in out.ranking for x in g) == list(range(players))
    if players == 1:
        assert out.details["rank"]
    for seat in range(players):
        assert G.legal_moves(s, seat) == []
    return s, log


def _replay(mode, stoppers, players, seed, log):
    cfg = G.Config(players=players, mode=Mode(mode), stoppers=stoppers)
    s = G.new_game(cfg, players, seed)
    for text in log:
        move = G.parse_move(text)
        seat = next(iter(G.to_move(s))) if len(G.to_move(s)) == 1 else None
        if seat is None:  # simultaneous order choice: the seat holding that order
            seat = next(i for i in G.to_move(s) if move.order in s.orders_dealt[i])
        s, _ = G.apply_move(s, seat, move)
    return s


@pytest.mark.slow
@pytest.mark.parametrize("mode,stoppers", COMBOS)
def test_random_playouts(mode, stoppers):
    """Playouts (a quarter of 200 seeds, another as the engines change, tests/support/seeds.py): games end, components are
    conserved, views keep secrets, JSON round trips, replays match."""
    for seed in playout_seeds(range(SEEDS)):
        players = seed % 4 + 1
        computer = "all" if seed % 10 == 0 else ("seat0" if seed % 3 == 0 else "none")
        final, log = _playout(mode, stoppers, players, seed, computer)
        if seed % 8 == 0:
            assert G.to_dict(_replay(mode, stoppers, players, seed, log)) == G.to_dict(final)


def test_computer_beats_random():
    """Computer player: greedy play scores better than random legal moves."""
    wins = 0
    for seed in range(12):
        s = G.new_game(G.Config(players=2, mode=Mode.APPRENTICE), 2, seed)
        rng = random.Random(seed)
        while not s.finished:
            seat = min(G.to_move(s))
            legal = G.legal_moves(s, seat)
            move = G.computer_move(G.view_for(s, seat), legal, rng) if seat == 0 else rng.choice(legal)
            s, _ = G.apply_move(s, seat, move)
        out = G.outcome(s)
        wins += out.scores[0] > out.scores[1]
    assert wins >= 9
