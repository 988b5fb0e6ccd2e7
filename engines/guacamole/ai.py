"""The computer players, reading only their seat's view.

``normal`` is a greedy one-ply evaluation; ``easy`` takes a random legal move
now and then; ``strong`` samples the unseen cards (:func:`determinize`) and
plays the normal player's candidates out in those worlds (:mod:`engines.search`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from engines import search
from engines.core import DEFAULT_LEVEL

from . import rules
from .data import CODES, DECK_SIZE, code_key, dish_kind, dish_points
from .moves import Add, Cancel, Discard, Dish, Done, Draw, End, Free, Move, Pass, Prep, Steal, Swap, Take
from .rules import Config, State, outcome, scores

if TYPE_CHECKING:
    from .rules import View


def _code(ref: str) -> str:
    return ref[1:] if ref.startswith("z") else ref


def plan_dish(building: Sequence[str], pool: Sequence[str]) -> list[str] | None:
    """The best dish containing ``building`` (codes) from ``pool`` (refs ``5T``/``z5T``).

    Returns the refs still to lay, the intended top card last, or None if no valid dish can be
    completed.  Greedy: every card of a number, every card of a type, or the longest run,
    choosing run cards of new types first (towards a guacamole).
    """
    plan = _plan_dish(tuple(building), tuple(pool))
    return None if plan is None else list(plan)


@lru_cache(maxsize=4096)
def _plan_dish(building_cards: tuple[str, ...], pool: tuple[str, ...]) -> tuple[str, ...] | None:
    """:func:`plan_dish`, kept: a function of the cards alone, asked again and again about the
    same hand in the playouts of a search."""
    building = list(building_cards)
    nums_b = [int(c[0]) for c in building]
    best: tuple[float, list[str]] | None = None

    def consider(adds: list[str]) -> None:
        nonlocal best
        codes = building + [_code(r) for r in adds]
        if dish_kind(codes) is None:
            return
        value = dish_points(codes) + 0.1 * sum(1 for r in adds if r.startswith("z"))
        if best is None or value > best[0]:
            best = (value, adds)

    for n in range(1, 10):
        if all(x == n for x in nums_b):
            consider([r for r in pool if int(_code(r)[0]) == n])
    for t in "PLOTA":
        if all(c[1] == t for c in building):
            consider([r for r in pool if _code(r)[1] == t])
    if len(set(nums_b)) == len(nums_b):
        by_num: dict[int, list[str]] = {}
        for r in pool:
            by_num.setdefault(int(_code(r)[0]), []).append(r)
        have = set(nums_b)
        span = (min(have), max(have)) if have else None
        for a in range(1, 10):
            for b in range(9, a + 1, -1):
                if span is not None and not (a <= span[0] and span[1] <= b):
                    continue
                if all(k in have or k in by_num for k in range(a, b + 1)):
                    types = {c[1] for c in building}
                    adds = []
                    for k in range(a, b + 1):
                        if k in have:
                            continue
                        opts = by_num[k]
                        pick = next((r for r in opts if _code(r)[1] not in types), opts[0])
                        types.add(_code(pick)[1])
                        adds.append(pick)
                    consider(adds)
                    break
    if best is None:
        return None
    adds = list(best[1])
    codes = building + [_code(r) for r in adds]
    if adds and dish_kind(codes) == "straight":
        # a run should show one of its ends on top, so losing the top keeps it a run
        ends = {min(int(c[0]) for c in codes), max(int(c[0]) for c in codes)}
        last = next((r for r in reversed(adds) if int(_code(r)[0]) in ends), None)
        if last is not None:
            adds.remove(last)
            adds.append(last)
    return tuple(adds)


def _fit(code: str, pool: Sequence[str]) -> float:
    """How well a card goes with the cards we hold (shared numbers, types, neighbours)."""
    n, t = int(code[0]), code[1]
    score = 0.0
    for c in pool:
        m = int(c[0])
        if m == n:
            score += 1.0
        if c[1] == t:
            score += 0.6
        if 0 < abs(m - n) <= 2:
            score += 0.25
    return score


class _Eval:
    def __init__(self, view: View, seat: int) -> None:
        self.v = view
        self.me = seat
        self.hand = list(view.hand or ())
        self.zone = list(view.prep[self.me])
        self.pool = self.hand + self.zone

    # visible places -------------------------------------------------------------
    def card_at(self, place: str) -> str | None:
        v = self.v
        if place[0] == "x":
            return v.discard_tops[int(place[1]) - 1]
        if place[0] != "p":
            return place
        if place[2] == "z":
            return place[3:]
        dish = v.dishes[int(place[1]) - 1][int(place[3:]) - 1]
        return dish.cards[-1] if dish.cards else None

    def dish_delta(self, place: str, new: str | None) -> tuple[int, int]:
        """(owner seat, change in that dish's points) if the top of ``place`` becomes ``new`` (None: removed)."""
        if place[0] != "p" or place[2] != "d":
            return -1, 0
        owner, k = int(place[1]) - 1, int(place[3:]) - 1
        cards = list(self.v.dishes[owner][k].cards)
        before = dish_points(cards)
        if new is None:
            cards.pop()
        else:
            cards[-1] = new
        return owner, dish_points(cards) - before

    def gain(self, owner: int, delta: int) -> float:
        if owner < 0:
            return 0.0
        return float(delta) if owner == self.me else -0.8 * delta

    # per move ---------------------------------------------------------------------
    def value(self, m: Move) -> float:
        v = self.v
        if isinstance(m, Add):
            dish = v.dishes[self.me][m.dish - 1].cards
            codes = [_code(r) for r in m.cards]
            return 20 + dish_points(list(dish) + codes) - dish_points(dish)
        if isinstance(m, Prep):
            return self.prep_value(m.card)
        if isinstance(m, Free):
            return 5 - _fit(m.card, self.hand)
        if isinstance(m, Steal):
            return 1 + 0.1 * v.hand_sizes[m.target] if v.hand_sizes[m.target] else -1
        if isinstance(m, Swap):
            src = self.card_at(m.source)
            dst = self.card_at(m.target)
            if src is None or dst is None:
                return -5
            val = self.gain(*self.dish_delta(m.source, dst)) + self.gain(*self.dish_delta(m.target, src))
            if m.source[0] != "p":  # the visible card comes into our hand
                rest = [c for c in self.pool if c != src]
                val += 0.3 * (_fit(dst, rest) - _fit(src, rest))
            return val
        if isinstance(m, Take):
            card = self.card_at(m.target)
            if card is None:
                return -5
            val = 0.5 + 0.3 * _fit(card, self.pool) + self.gain(*self.dish_delta(m.target, None))
            if m.target[0] == "p" and m.target[2] == "z" and m.target[1] != str(self.me + 1):
                val += 0.3
            return val
        if isinstance(m, Draw):
            if m.source == "deck":
                return 1.0
            top = v.discard_tops[int(m.source[1]) - 1]
            return 0.4 * _fit(top, self.pool) if top else 0.0
        if isinstance(m, Discard):
            rest = list(self.pool)
            rest.remove(m.card)
            return -_fit(m.card, rest)
        if isinstance(m, Pass):
            return -1.0 if v.phase == "onion" else 0.0
        if isinstance(m, End):
            return 0.0
        return 0.0

    def prep_value(self, code: str) -> float:
        v = self.v
        t = code[1]
        pool = list(self.pool)
        if t == "P":
            best = 0.0
            for d in v.dishes[self.me]:
                if not d.valid:
                    continue
                for c in pool:
                    if dish_kind(list(d.cards) + [c]) is not None:
                        best = 6.0
            base = best or 0.5
        elif t == "A":
            base = 1.5
            for p, ds in enumerate(v.dishes):
                if p != self.me and any(d.valid and len(d.cards) == 3 for d in ds):
                    base = 3.5
        elif t == "T":
            base = 1.2
            for p, ds in enumerate(v.dishes):
                if p != self.me and any(d.valid for d in ds):
                    base = 3.0
        elif t == "O":
            base = 2.5
        else:
            base = 2.0 if any(n for p, n in enumerate(v.hand_sizes) if p != self.me) else 0.2
        others = list(pool)
        others.remove(code)
        return base - 0.15 * _fit(code, others)


def normal_move(view: View, legal: Sequence[Move], rng: random.Random) -> Move:
    """Pick a good move using only ``view``: prepare, then dish, then draw, each scored greedily."""
    legal = list(legal)
    if not legal:
        raise ValueError("no legal move to choose from")
    if len(legal) == 1 or view.seat is None:
        return legal[0] if len(legal) == 1 else rng.choice(legal)
    ev = _Eval(view, view.seat)
    if view.phase == "dish" or (view.phase == "main" and any(isinstance(m, Dish) for m in legal)):
        pool = [c for c in ev.hand] + ["z" + c for c in ev.zone]
        plan = plan_dish(view.building, pool)
        if view.phase == "dish":
            if plan is None:
                return Cancel() if Cancel() in legal else legal[-1]
            if not plan and Done() in legal:
                return Done()
            if plan and Dish(plan[0]) in legal:
                return Dish(plan[0])
            return Cancel() if Cancel() in legal else legal[-1]
        can_prep = any(isinstance(m, (Prep, Free)) for m in legal)
        if plan and not can_prep and Dish(plan[0]) in legal:
            return Dish(plan[0])
    if view.phase == "main":
        for kind in (Free, Prep):
            group = [m for m in legal if isinstance(m, kind)]
            if group:
                best = max(group, key=lambda m: ev.value(m) + rng.random() * 0.01)
                return best
    return max(legal, key=lambda m: ev.value(m) + rng.random() * 0.01)


# --------------------------------------------------------------------------- levels

EASY_RANDOM = 0.3
"""How often the easy player takes a random legal move instead of the normal one."""

SIMULATIONS_PER_SECOND = 150
"""Simulations the strong player plans its search rounds for, per second of thinking (by count
it runs exactly these; by the clock, as at the table, it runs until its deadline): the playouts
per CPU second measured on the development machine (2 cores), ``python bench/strength.py --parts
calibrate``."""

HORIZON = 40
"""Moves played after a candidate before the position is scored."""


def computer_move(
    view,
    legal: Sequence[Move],
    rng: random.Random,
    level: str = DEFAULT_LEVEL,
    seconds: float | None = None,
    deadline: search.Deadline | None = None,
) -> Move:
    """The ``level`` player's move (see :data:`engines.core.LEVELS`), from ``view`` alone."""
    return search.by_level(
        view,
        legal,
        rng,
        level,
        seconds,
        normal=normal_move,
        strong=strong_move,
        easy_chance=EASY_RANDOM,
        deadline=deadline,
    )


def determinize(view, rng: random.Random):
    """A full state agreeing with ``view``: the cards its seat cannot see dealt at random.

    Unseen are the other hands, the draw pile and the discard piles under their
    tops; every other card (own hand, preparation zones, dishes, the dish being
    made, discard tops) is where the view shows it.
    """
    ids: dict[str, list[int]] = {}
    for cid in range(DECK_SIZE):
        ids.setdefault(CODES[cid], []).append(cid)

    def take(code: str) -> int:
        return ids[code].pop()

    me = view.seat
    n = view.players
    hand = sorted(take(c) for c in view.hand or ())
    prep = [[take(c) for c in zone] for zone in view.prep]
    dishes = [[[take(c) for c in d.cards] for d in ds] for ds in view.dishes]
    building = [take(c) for c in view.building]
    tops = [None if t is None else take(t) for t in view.discard_tops]
    unseen = sorted(c for left in ids.values() for c in left)
    rng.shuffle(unseen)
    hands = []
    for p in range(n):
        if p == me:
            hands.append(hand)
        else:
            hands.append(sorted(unseen.pop() for _ in range(view.hand_sizes[p])))
    discards: list[list[int]] = []
    for k in (0, 1):
        top = tops[k]
        if top is None:
            discards.append([])
        else:
            discards.append([unseen.pop() for _ in range(view.discard_sizes[k] - 1)] + [top])
    deck = list(unseen)
    assert len(deck) == view.deck_size, "the view's card counts do not add up"
    return State(
        config=Config(players=n, dishes_per_turn=view.dishes_per_turn),
        seed=rng.getrandbits(48),
        hands=hands,
        prep=prep,
        dishes=dishes,
        discards=discards,
        deck=deck,
        turn=view.turn if view.turn is not None else 0,
        phase=view.phase,
        prep_at_start=4 if view.can_free else 0,
        freed=any(m.startswith("free") for m in view.turn_moves),
        prepared=view.prepared,
        dishes_made=view.dishes_made,
        draws_left=view.draws_left,
        end_triggered=view.end_triggered,
        over=view.over,
        steals=0,
        turn_number=view.turn_number,
        turn_moves=list(view.turn_moves),
        prev_turn=list(view.prev_turn),
        prev_seat=view.prev_seat,
        marks=list(view.marks),
        building=building,
        build_zone=[False] * len(building),
        # the view shows this turn's changed places, or the previous turn's before a move
        turn_marks=list(view.turn_marks) if view.turn_moves else [],
        prev_marks=[] if view.turn_moves else list(view.turn_marks),
        # the takes this seat knows of, all dated to this turn (so the view keeps them)
        taken=[[view.turn_number, thief, victim, card] for thief, victim, card in view.taken],
    )


def _potential(hand: list[str], zone: list[str]) -> float:
    """Points a hand could still serve: the best dish it holds now."""
    plan = plan_dish([], list(hand) + ["z" + c for c in zone])
    if not plan:
        return 0.0
    return float(dish_points([_code(r) for r in plan]))


def _evaluate(state, seat: int) -> float:
    result = outcome(state)
    if result is not None:
        return search.outcome_reward(result, seat, 8.0)
    pts = scores(state)
    value = []
    for p in range(state.config.players):
        hand = [CODES[c] for c in state.hands[p]]
        zone = [CODES[c] for c in state.prep[p]]
        value.append(pts[p] + 0.5 * _potential(hand, zone) + 0.1 * len(hand))
    best_other = max(v for p, v in enumerate(value) if p != seat)
    return search.margin_value(value[seat] - best_other, 8.0)


class _Seen:
    """The part of a view the normal player reads (:func:`normal_move`, :class:`_Eval` and
    :func:`plan_dish`), built from a state as :func:`rules.view_for` builds those fields; the
    search's playouts hand it to the policy at every move instead of the whole view (the step
    told in words, the outcome, the marks), which costs about as much as the move."""

    __slots__ = ("seat", "phase", "hand", "hand_sizes", "prep", "dishes", "discard_tops", "building")

    def __init__(self, s: State, seat: int | None) -> None:
        self.seat = seat
        self.phase = s.phase
        self.hand = tuple(sorted(rules._codes(s.hands[seat]), key=code_key)) if seat is not None else None
        self.hand_sizes = tuple(len(h) for h in s.hands)
        self.prep = tuple(tuple(rules._codes(p)) for p in s.prep)
        self.dishes = tuple(tuple([rules._dish_view(d) for d in ds]) for ds in s.dishes)
        self.discard_tops = tuple(CODES[x[-1]] if x else None for x in s.discards)
        self.building = tuple(rules._codes(s.building))


def _game():
    return search.Game(search.Viewed(rules, _Seen), determinize, normal_move, _evaluate, HORIZON)


CANDIDATES = 8
"""At most this many moves are compared by the strong player (the normal player's favourites)."""


def candidates(view, legal: list[Move], rng: random.Random) -> list[Move]:
    """The moves worth searching: the normal player's pick and the best-valued others."""
    first = normal_move(view, legal, rng)
    if view.phase == "dish":
        return [first]  # laying a planned dish card by card: the plan stands
    ev = _Eval(view, view.seat)
    ranked = sorted(legal, key=lambda m: -ev.value(m))
    out = [first]
    if view.phase == "main":
        # every kind of start: each card to prepare, the planned dish, a draw
        out += [m for m in legal if isinstance(m, (Prep, Free))]
        out += [m for m in ranked if isinstance(m, Draw)][:2]
        pool = list(ev.hand) + ["z" + c for c in ev.zone]
        plan = plan_dish(view.building, pool)
        if plan and Dish(plan[0]) in legal:
            out.append(Dish(plan[0]))
    out += ranked
    return list(dict.fromkeys(out))[:CANDIDATES]


def strong_move(
    view,
    legal: list[Move],
    rng: random.Random,
    seconds: float | None,
    deadline: search.Deadline | None = None,
) -> Move:
    """Search the best candidates in sampled deals of the unseen cards."""
    options = candidates(view, legal, rng)
    return search.choose(
        _game(),
        view,
        options,
        rng,
        simulations=search.simulations_for(seconds, SIMULATIONS_PER_SECOND),
        deadline=deadline,
    )


__all__ = ["computer_move", "determinize", "normal_move", "strong_move", "plan_dish"]
