"""Random playouts with invariants: the game ends, cards are conserved, views keep secrets,
the JSON round trip holds, apply_move never changes its input, and logs replay exactly."""

from __future__ import annotations

import dataclasses
import random

import pytest

import engines.guacamole as g
from engines.core import IllegalMove, MoveError, jsonable
from engines.guacamole.rules import visible_places
from tests.support.seeds import playout_seeds

from .helpers import total_cards

MAX_STEPS = 2500
MAX_TURNS = 160


def perturb_hidden(state: g.State, seat: int | None, rng: random.Random) -> g.State:
    """The same public position with the cards ``seat`` cannot see dealt differently."""
    n = state.config.players
    hidden = [c for p in range(n) if p != seat for c in state.hands[p]]
    hidden += state.deck + [c for x in state.discards for c in x[:-1]]
    rng.shuffle(hidden)
    it = iter(hidden)
    hands = [list(h) if p == seat else sorted(next(it) for _ in h) for p, h in enumerate(state.hands)]
    discards = [[next(it) for _ in x[:-1]] + x[-1:] for x in state.discards]
    deck = [next(it) for _ in state.deck]
    return dataclasses.replace(state, hands=hands, discards=discards, deck=deck)


def check_views(state: g.State, rng: random.Random, full: bool = True) -> None:
    n = state.config.players
    for seat in [None, rng.randrange(n)]:
        v = g.view_for(state, seat)
        if seat is None:
            assert v.hand is None
        elif full:
            data = jsonable(v)
            assert len(data["hand"]) == len(state.hands[seat])
        other = g.view_for(perturb_hidden(state, seat, rng), seat)
        assert other == v, f"view of seat {seat} depends on hidden cards"
        if full:
            assert jsonable(other) == jsonable(v)


def candidate_moves(state: g.State, seat: int, rng: random.Random) -> list:
    """A superset sample of plausible moves, legal or not."""
    codes = [f"{n}{t}" for n in range(1, 10) for t in "PLOTA"]
    n = state.config.players
    places = visible_places(state) + [f"p{p + 1}d{k}" for p in range(n) for k in (1, 2, 3)] + ["x1", "x2"]
    places += [f"p{p + 1}z{rng.choice(codes)}" for p in range(n)]
    out = [g.Pass(), g.End(), g.Done(), g.Cancel(), g.Draw("deck"), g.Draw("x1"), g.Draw("x2")]
    out += [g.Prep(c) for c in rng.sample(codes, 8)]
    out += [g.Free(rng.choice(codes), k) for k in (1, 2)]
    out += [g.Discard(rng.choice(codes), k) for k in (1, 2)]
    out += [g.Steal(p) for p in range(n)]
    out += [g.Take(p) for p in places]
    mine = [f"p{seat + 1}z{c}" for c in rng.sample(codes, 3)] + rng.sample(codes, 3) + places[:3]
    out += [g.Swap(a, b) for a in mine for b in rng.sample(places, min(4, len(places)))]
    refs = [str(c) for c in rng.sample(codes, 6)] + ["z" + c for c in rng.sample(codes, 3)]
    from engines.guacamole.data import card_code

    refs += [card_code(c) for c in state.hands[seat]] + ["z" + card_code(c) for c in state.prep[seat]]
    for _ in range(6):
        out.append(g.Dish(rng.choice(refs)))
        out.append(g.Add(rng.randint(1, 3), tuple(rng.choice(refs) for _ in range(rng.randint(1, 3)))))
    return out


def random_move(legal: list, rng: random.Random):
    """A random legal move that cancels a dish in progress only when nothing else is possible."""
    keep = [m for m in legal if not isinstance(m, g.Cancel)] or legal
    kinds = sorted({type(m).__name__ for m in keep})
    kind = rng.choice(kinds)
    return rng.choice([m for m in keep if type(m).__name__ == kind])


def playout(config: g.Config, seed: int, *, consistency: bool = False):
    """A seeded game to its end, every invariant checked at every step.  With ``consistency``,
    every other step (which ones alternates with the seed) also checks ``legal_moves`` against
    ``apply_move`` over a wide sample of moves."""
    n = config.players
    rng = random.Random(seed * 7919 + n)
    state = g.new_game(config, n, seed)
    log: list[str] = []
    steps = 0
    data = g.to_dict(state)  # the state as it stands, checked unchanged until apply_move returns
    while not state.over:
        assert steps < MAX_STEPS and state.turn_number <= MAX_TURNS
        (seat,) = g.to_move(state)
        for other in range(n):
            if other != seat:
                assert g.legal_moves(state, other) == []
        legal = g.legal_moves(state, seat)
        assert legal, "the player to move has no move"
        if consistency and (steps + seed) % 2 == 0:
            legal_set = set(legal)
            for cand in candidate_moves(state, seat, rng):
                try:
                    g.apply_move(state, seat, cand)
                    accepted = True
                except IllegalMove:
                    accepted = False
                assert accepted == (cand in legal_set), (str(cand), state.phase)
        if (seat + seed) % 2 == 0:
            move = g.computer_move(g.view_for(state, seat), legal, rng)
        else:
            move = random_move(legal, rng)
        assert move in legal
        new, events = g.apply_move(state, seat, move)
        assert g.to_dict(state) == data, "apply_move (or a look at the state before it) changed its input"
        for e in events:
            assert e.text
            if e.visible_to is not None:
                assert e.public_text is not None
        state = new
        log.append(str(move))
        steps += 1
        assert total_cards(state) == list(range(90))
        data = g.to_dict(state)
        assert g.to_dict(g.from_dict(data)) == data
        if steps % 4 == 0 or state.over:
            check_views(state, rng, full=steps % 16 == 0 or state.over)
    oc = g.outcome(state)
    assert oc is not None and len(oc.scores) == n
    assert sorted(s for grp in oc.ranking for s in grp) == list(range(n))
    # replay the log from the seed
    replay = g.new_game(config, n, seed)
    for text in log:
        (seat,) = g.to_move(replay)
        replay, _ = g.apply_move(replay, seat, g.parse_move(text))
    assert g.to_dict(replay) == g.to_dict(state)
    with pytest.raises(MoveError):
        g.apply_move(state, 0, g.Pass())
    return state, log


@pytest.mark.slow
@pytest.mark.parametrize("dishes_per_turn", [1, 0])
def test_random_playouts(dishes_per_turn):
    """Playouts: a quarter of 200 seeds per dish limit, another as the engines change (tests/support/seeds.py), 2-6 players,
    every invariant each step."""
    for seed in playout_seeds(range(200)):
        n = 2 + seed % 5
        playout(g.Config(players=n, dishes_per_turn=dishes_per_turn), seed)


@pytest.mark.parametrize("dishes_per_turn", [2, 3])
def test_random_playouts_other_limits(dishes_per_turn):
    """Playouts: the intermediate dish limits, fewer seeds."""
    for seed in range(25):
        n = 2 + seed % 5
        playout(g.Config(players=n, dishes_per_turn=dishes_per_turn), seed + 1000)


def test_legal_moves_match_apply_move():
    """Contract: listed moves are accepted and a wide sample of unlisted moves is refused, at every
    other step of 8 games (2-6 players)."""
    for seed in range(8):
        n = 2 + seed % 5
        playout(g.Config(players=n), seed + 5000, consistency=True)


def test_computer_beats_random():
    """computer_move is better than random: it wins most 2-player games against random moves."""
    wins = 0
    games = 40
    for seed in range(games):
        rng = random.Random(seed)
        s = g.new_game(g.Config(players=2), 2, seed + 777)
        ai = seed % 2
        while not s.over:
            (seat,) = g.to_move(s)
            legal = g.legal_moves(s, seat)
            m = g.computer_move(g.view_for(s, seat), legal, rng) if seat == ai else random_move(legal, rng)
            s, _ = g.apply_move(s, seat, m)
        if ai in g.outcome(s).winners:
            wins += 1
    assert wins >= games * 0.7, wins
