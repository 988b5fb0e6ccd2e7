"""Determinized Monte Carlo search: the engine behind every game's ``strong`` level.

A strong computer player reads only its seat's view, like the others.  What it
cannot see it samples: each game's ``determinize(view, rng)`` builds a full
state that agrees with the view (unseen cards dealt at random, a hidden map
that fits everything discovered, the order of a bag).  In each sampled world
every candidate move is played and the game goes on with the ``normal`` player
at every seat, to the end or for a fixed number of moves, and the position is
scored for the seat.  The candidate with the best average wins.

Candidates are compared on the same worlds with the same continuations (common
random numbers), and sequential halving spends the budget on the promising
ones: each round plays every surviving candidate in a fresh batch of worlds and
keeps the better half.

Budget.  The search plans its rounds for a number of simulations (one
simulation = one candidate played out in one world); each game converts the
table's thinking time into that plan with a rate measured on the development
machine (``SIMULATIONS_PER_SECOND`` in its ``ai`` module).  Two ways to spend it:

* by count (no ``deadline``): exactly the planned simulations, so the same view,
  legal moves and generator (seeded from the game's seed and the move number)
  always give the same move (the tests and the benches);
* by the clock (a ``deadline`` callable, what the table uses): the deadline is
  asked before every simulation and the search stops at the first ``True``; the
  last round goes on past the plan until then.  The move is a function of the
  number of simulations run, so a replay with the same count gives the same
  move; only that count depends on the machine's speed.

The engine never reads a clock itself: the caller's ``deadline`` does (a test
passes a counter).

Standard library only, like every engine.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from engines.core import Outcome, Rules, check_level

M = TypeVar("M")
"""A game's move type: what the search and the levels hand back is one of the moves given."""

DEFAULT_SECONDS = 1.0
"""The strong level's thinking time per move when the table names none."""

KEEP_MARGIN = 0.02
"""How much better (on the 0..1 value scale) a move must average to replace the default."""

Deadline = Callable[[], bool]
"""Asked before every simulation of a search by the clock: True when the time is up."""


class NoWorld(Exception):
    """``determinize`` could not find a state agreeing with the view within its budget."""


@dataclass(frozen=True)
class Game:
    """What the search needs from one game, bundled by its ``ai`` module."""

    module: Rules
    determinize: Callable[[Any, random.Random], Any]
    policy: Callable[[Any, list, random.Random], Any]
    evaluate: Callable[[Any, int], float]
    horizon: int | None = None  # moves played after the candidate before evaluating (None: to the end)
    until: Callable[[Any], Callable[[Any], bool] | None] | None = None
    """Optional: given a sampled world before the candidate, a test that ends its playouts early
    (for example "the seat is about to start its turn again"); checked before every policy move."""


class Viewed:
    """A game's rules as a search plays them out, its policy seeing ``view_for`` instead of the
    rules' own view (a lighter view holding only the fields the game's normal player reads)."""

    def __init__(self, rules: Rules, view_for: Callable[[Any, int | None], Any]) -> None:
        self.legal_moves = rules.legal_moves
        self.apply_move = rules.apply_move
        self.to_move = rules.to_move
        self.outcome = rules.outcome
        self.view_for = view_for


def simulations_for(seconds: float | None, per_second: float, minimum: int = 4) -> int:
    """The simulation budget standing for ``seconds`` of thinking (at least ``minimum``)."""
    if seconds is None:
        seconds = DEFAULT_SECONDS
    return max(minimum, int(round(seconds * per_second)))


def outcome_reward(result: Outcome, seat: int, scale: float) -> float:
    """A finished game's value for ``seat``, between 0 and 1.

    Mostly the place (first 1, last 0, shared places share the value), plus a
    little for the score margin over the best opponent (``scale`` points of
    margin count fully), so that near misses and narrow wins are told apart.
    Alone at the table the score itself, over ``scale``, is the value.
    """
    n = len(result.scores)
    if n == 1:
        return max(0.0, min(1.0, result.scores[0] / scale))
    place = result.place_of(seat)
    group = next(len(g) for g in result.ranking if seat in g)
    # the average of the places the tied seats share
    mean_place = place + (group - 1) / 2
    rank_value = (n - mean_place) / (n - 1)
    best_other = max(s for i, s in enumerate(result.scores) if i != seat)
    return 0.8 * rank_value + 0.2 * margin_value(result.scores[seat] - best_other, scale)


def margin_value(margin: float, scale: float) -> float:
    """A score margin squeezed into 0..1 (0.5 for a tie)."""
    return 0.5 + 0.5 * math.tanh(margin / scale)


def playout(
    game: Game,
    state: Any,
    rng: random.Random,
    horizon: int | None,
    seat: int,
    done: Callable[[Any], bool] | None = None,
) -> float:
    """Play on with the policy at every seat, then score the position for ``seat``.

    The playout stops at the end of the game, after ``horizon`` moves, or when ``done(state)``."""
    m = game.module
    steps = 0
    while m.outcome(state) is None:
        if horizon is not None and steps >= horizon:
            break
        if done is not None and done(state):
            break
        acting = m.to_move(state)
        if not acting:
            break
        who = min(acting)
        legal = list(m.legal_moves(state, who))
        if not legal:
            break
        move = game.policy(m.view_for(state, who), legal, rng)
        state, _ = m.apply_move(state, who, move)
        steps += 1
    return game.evaluate(state, seat)


def choose(
    game: Game,
    view: Any,
    candidates: Sequence[M],
    rng: random.Random,
    *,
    simulations: int,
    deadline: Deadline | None = None,
    keep_margin: float = KEEP_MARGIN,
    confidence: float = 0.0,
) -> M:
    """The candidate with the best average value over sampled worlds (sequential halving).

    ``candidates[0]`` is the default (the normal player's move): it is never
    eliminated, and another candidate replaces it only when its average is
    better by ``keep_margin``, so that noise alone never changes a good move.
    ``view.seat`` is the seat to play.  A candidate that turns out illegal in a
    sampled world (it never should) scores 0 there.

    ``simulations`` plans the rounds.  Without ``deadline`` exactly that many
    are run; with it, ``deadline()`` is asked before every simulation, the search
    stops at the first ``True`` and the last round runs on until then.
    """
    arms = list(dict.fromkeys(candidates))
    if len(arms) == 1:
        return arms[0]
    seat = view.seat
    m = game.module
    total = [0.0] * len(arms)
    count = [0] * len(arms)
    values: list[list[float]] = [[] for _ in arms]  # per arm, in the order of the worlds
    alive = list(range(len(arms)))
    rounds = max(1, math.ceil(math.log2(len(arms))))
    left = simulations
    stopped = False

    def mean(i: int) -> float:
        return total[i] / count[i] if count[i] else 0.0

    for r in range(rounds):
        if len(alive) == 1:
            break
        per_arm = max(1, (left // (len(alive) * (rounds - r))))
        # by the clock, the last round goes on until the deadline
        worlds = itertools.count() if deadline is not None and r == rounds - 1 else range(per_arm)
        for _ in worlds:
            if deadline is not None and deadline():
                stopped = True
                break
            try:
                world = game.determinize(view, rng)
            except NoWorld:
                left -= len(alive)
                continue
            seed = rng.getrandbits(64)
            done = game.until(world) if game.until is not None else None
            for n, i in enumerate(alive):
                if n and deadline is not None and deadline():
                    stopped = True
                    break
                try:
                    after, _ = m.apply_move(world, seat, arms[i])
                except ValueError:
                    value = 0.0
                else:
                    value = playout(game, after, random.Random(seed), game.horizon, seat, done)
                total[i] += value
                count[i] += 1
                values[i].append(value)
                left -= 1
            if stopped:
                break
        alive.sort(key=lambda i: (-mean(i), i))
        if stopped:
            break
        # the first candidate (the normal player's move) stays in to the end
        keep = alive[: max(1, (len(alive) + 1) // 2)]
        if 0 not in keep:
            keep.append(0)
        alive = keep
    best = min(alive, key=lambda i: (-mean(i), i))
    # leave the normal player's move only for a clearly better one
    if best != 0 and count[0] and mean(best) < mean(0) + keep_margin:
        return arms[0]
    if best != 0 and confidence > 0 and not clearly_better(values[best], values[0], confidence):
        return arms[0]
    return arms[best]


def clearly_better(values: Sequence[float], default: Sequence[float], confidence: float) -> bool:
    """Whether ``values`` beat ``default`` on the same worlds by ``confidence`` standard errors.

    Both lists hold one value per sampled world, in the same order (the default
    is played in every world the other was); fewer than two worlds never suffice."""
    diffs = [a - b for a, b in zip(values, default, strict=False)]
    n = len(diffs)
    if n < 2:
        return False
    avg = sum(diffs) / n
    var = sum((d - avg) ** 2 for d in diffs) / (n - 1)
    return avg > confidence * math.sqrt(var / n)


def by_level(
    view: Any,
    legal: Sequence[M],
    rng: random.Random,
    level: str,
    seconds: float | None,
    *,
    normal: Callable[[Any, list[M], random.Random], M],
    strong: Callable[..., M],
    easy_chance: float,
    deadline: Deadline | None = None,
) -> M:
    """Play ``level``: ``easy`` takes a random legal move with probability
    ``easy_chance`` and the normal player's otherwise; ``strong`` searches
    (by the clock when ``deadline`` is given, see :func:`choose`)."""
    legal = list(legal)
    if not legal:
        raise ValueError("no legal move to choose from")
    check_level(level)
    if level == "easy":
        if len(legal) > 1 and rng.random() < easy_chance:
            return rng.choice(legal)
        return normal(view, legal, rng)
    if level == "strong" and len(legal) > 1 and view.seat is not None:
        return strong(view, legal, rng, seconds, deadline=deadline)
    return normal(view, legal, rng)


__all__ = [
    "DEFAULT_SECONDS",
    "Deadline",
    "Game",
    "NoWorld",
    "choose",
    "by_level",
    "clearly_better",
    "margin_value",
    "outcome_reward",
    "playout",
    "simulations_for",
]
