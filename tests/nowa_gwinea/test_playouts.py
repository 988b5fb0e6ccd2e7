"""Random playouts with the computer player: invariants over many seeds and replay."""

from __future__ import annotations

import json
import random
from functools import partial

import pytest

import engines.nowa_gwinea as ng
from engines.core import UNKNOWN, MoveError, Outcome, jsonable
from engines.nowa_gwinea.data import ROUNDS
from engines.nowa_gwinea.geometry import PIECES
from tests.support import sentences
from tests.support.seeds import playout_seeds

COMBOS = {
    "standard-shared": {},
    "hard-each": {"side": ng.Side.HARD, "boards": ng.Deal.EACH},
    "variants-mixed": {"water_target": 3, "fruit_for_all": True, "hard_seats": "1"},
}
SEEDS = range(200)

# Nowa Gwinea joins the lines of a list with templates that hold no words ("{part0}; {part1}"),
# which need no translation.
check_event = partial(sentences.check_event, wordless_ok=True)
check_refusal = partial(sentences.check_refusal, wordless_ok=True)


def _check_conservation(s: ng.State) -> None:
    n = s.config.players
    for seat in range(n):
        pieces = [t[0] for t in s.villages[seat]]
        assert len(pieces) == len(set(pieces)) <= 12
        assert set(pieces) <= set(PIECES)
    assert 0 <= s.drawn <= len(s.deck)
    per_round = s.config.players if s.config.boards is ng.Deal.EACH else 1
    assert s.drawn == per_round * s.round
    assert s.scores == [sum(h["rows"][i]["points"] for h in s.history) for i in range(n)]
    assert len(s.history) == (s.round if s.over else s.round - 1)


def _check_views(s: ng.State) -> None:
    n = s.config.players
    for seat in [None, *range(n)]:
        view = ng.view_for(s, seat)
        data = jsonable(view)
        json.dumps(data)
        for other in range(n):
            if other == seat:
                assert data["villages"][other] == list(s.villages[other])
                continue
            assert data["villages"][other] == UNKNOWN
            data_wo_reveal = dict(data, last_round=None)
            text = json.dumps(data_wo_reveal)
            mine = set(s.villages[seat]) if seat is not None else set()
            for hut in s.villages[other]:
                if hut not in mine:
                    assert f'"{hut}"' not in text, (seat, other, hut)


def _choose(s: ng.State, seat: int, rng: random.Random, smart: bool, budget: list[int]):
    legal = ng.legal_moves(s, seat)
    assert legal
    if smart:
        return ng.computer_move(ng.view_for(s, seat), legal, rng)
    budget[seat] += 1
    if budget[seat] > 14 or rng.random() < 0.08:
        return ng.Done()
    return rng.choice(legal)


def _refused(s: ng.State, seat: int, rng: random.Random) -> None:
    """A hut put anywhere (even off the board) where ``seat`` may not build now is refused with a
    kept sentence."""
    legal = set(ng.legal_moves(s, seat))
    while (move := ng.Place(rng.choice(PIECES), rng.randrange(8), rng.randrange(64))) in legal:
        pass
    try:
        ng.apply_move(s, seat, move)
    except MoveError as refusal:
        check_refusal(refusal)
    else:
        raise AssertionError(f"{move} was accepted though not legal")


def playout(config: ng.Config, seed: int, heavy_every: int = 7):
    n = config.players
    rng = random.Random(seed)
    probe = random.Random(seed + 10_000)  # the refused moves tried on the way, apart from the game's choices
    s = ng.new_game(config, n, seed)
    log: list[tuple[int | None, str]] = []
    smart = [seat == 0 or rng.random() < 0.5 for seat in range(n)]
    budget = [0] * n
    current_round = s.round
    steps = 0
    while not s.over:
        steps += 1
        assert steps <= ROUNDS * n * 40, "the game does not end"
        if rng.random() < 0.01:
            seat, move = None, ng.Timeout()
        else:
            seat = rng.choice(sorted(ng.to_move(s)))
            move = _choose(s, seat, rng, smart[seat], budget)
        before = ng.to_dict(s) if steps % heavy_every == 0 else None
        if before is not None and seat is not None:
            _refused(s, seat, probe)
        new, events = ng.apply_move(s, seat, move)
        assert all(e.text for e in events)
        if (
            before is not None
        ):  # the kept sentences are checked on the heavy steps (test_sentences.py checks every event of its own playouts)
            for e in events:
                check_event(e)
        if before is not None:
            assert ng.to_dict(s) == before, "apply_move changed its input"
            d = ng.to_dict(new)
            assert ng.to_dict(ng.from_dict(json.loads(json.dumps(d)))) == d
            _check_views(new)
        s = new
        log.append((seat, str(move)))
        _check_conservation(s)
        if s.round != current_round:
            current_round = s.round
            budget = [0] * n
            _check_views(s)
    out = ng.outcome(s)
    assert out is not None and len(s.history) == ROUNDS
    assert out.reason_said is not None and out.reason_said.in_words() == out.reason
    assert Outcome.from_dict(json.loads(json.dumps(out.to_dict()))) == out
    return s, log


def replay(config: ng.Config, seed: int, log) -> ng.State:
    s = ng.new_game(config, config.players, seed)
    for seat, text in log:
        s, _ = ng.apply_move(s, seat, ng.parse_move(text))
    return s


@pytest.mark.slow
@pytest.mark.parametrize("combo", sorted(COMBOS))
def test_random_playouts(combo):
    """Seeded games per option mix (a quarter of 200, another as the engines change, tests/support/seeds.py) end, conserve huts
    and boards, hide villages and replay exactly."""
    for seed in playout_seeds(SEEDS):
        config = ng.Config(players=1 + seed % 4, **COMBOS[combo])
        final, log = playout(config, seed)
        if seed % 10 == 0:
            assert ng.to_dict(replay(config, seed, log)) == ng.to_dict(final)
        out = ng.outcome(final)
        assert sorted(s for g in out.ranking for s in g) == list(range(config.players))
