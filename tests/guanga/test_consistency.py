"""legal_moves and apply_move agree: listed moves are accepted, every other candidate is refused."""

from __future__ import annotations

import random

import pytest

from engines import guanga as G
from engines.core import IllegalMove, NotYourTurn
from engines.guanga import data as D
from engines.guanga.rules import Buy, Claim, Done, Keep, Mode, Place, Refresh, Return, Stopper, legal_kinds
from engines.guanga.shapes import PLACEMENT_CELLS, PLACEMENTS


def _candidates(rng: random.Random, s) -> list:
    out = [Refresh(), Done()]
    out += [Keep(o[0]) for o in D.ORDERS]
    for _ in range(20):
        out.append(Place(rng.randint(1, 8), rng.randrange(25)))
        out.append(Buy(rng.randint(1, 8), rng.randrange(25)))
        out.append(Stopper(rng.randrange(4), rng.randrange(25)))
        a, b = sorted(rng.sample(range(25), 2))
        out.append(Return((a, b)))
    for card in D.CARDS:
        for attr in (card[6], card[7], rng.choice(D.COLOURS + D.SYMBOLS)):
            pls = PLACEMENTS[card[0]]
            for pl in rng.sample(pls, min(2, len(pls))):
                out.append(Claim(card[0], attr, PLACEMENT_CELLS[pl]))
    if s.pending:
        cells = s.pending["cells"]
        out += [Return((a, b)) for i, a in enumerate(cells) for b in cells[i + 1 :]]
    return out


@pytest.mark.slow
@pytest.mark.parametrize(
    "mode,stoppers", [("beginner", True), ("apprentice", True), ("master", False), ("artisan", False)]
)
def test_listed_moves_exactly_the_accepted_ones(mode, stoppers):
    """Contract: apply_move accepts a move exactly when legal_moves lists it."""
    for seed in range(4):
        players = seed % 4 + 1
        s = G.new_game(G.Config(players=players, mode=Mode(mode), stoppers=stoppers), players, seed)
        rng = random.Random(seed)
        step = 0
        while not s.finished:
            seat = min(G.to_move(s))
            legal = G.legal_moves(s, seat)
            if step % 7 == 0:
                listed = set(legal)
                for m in rng.sample(legal, min(30, len(legal))):
                    G.apply_move(s, seat, m)
                for m in _candidates(rng, s):
                    if m in listed:
                        continue
                    with pytest.raises((IllegalMove, NotYourTurn)):
                        G.apply_move(s, seat, m)
            s, _ = G.apply_move(s, seat, G.computer_move(G.view_for(s, seat), legal, rng))
            step += 1


@pytest.mark.parametrize(
    "mode,stoppers", [("beginner", True), ("apprentice", True), ("master", False), ("artisan", False)]
)
def test_the_kinds_a_refusal_names_are_those_listed(mode, stoppers):
    """A refusal names the kinds of move allowed now (legal_kinds, which does not list every
    move): at every step of seeded games, for every seat, they are the kinds legal_moves lists."""
    for seed in range(4):
        players = seed % 4 + 1
        s = G.new_game(G.Config(players=players, mode=Mode(mode), stoppers=stoppers), players, seed)
        rng = random.Random(seed)
        while not s.finished:
            for seat in range(players):
                assert legal_kinds(s, seat) == {type(m).__name__ for m in G.legal_moves(s, seat)}
            seat = min(G.to_move(s))
            s, _ = G.apply_move(s, seat, rng.choice(G.legal_moves(s, seat)))
        assert all(legal_kinds(s, seat) == set() for seat in range(players))
