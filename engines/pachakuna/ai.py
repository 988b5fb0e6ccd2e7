"""The computer players, reading only their seat's view.

``normal`` is a greedy one-ply trader; ``easy`` takes a random legal move now
and then; ``strong`` samples the order of the demand bag (:func:`determinize`)
and plays candidates out in those worlds (:mod:`engines.search`): the sharp
player's move (:func:`sharp_move`, the normal trader with readier paid tile
turns, watching the last colour), its best llama actions and the tile turns
that open its best plans, each followed by the normal player at both seats
(:data:`ROLLOUT`) to the start of the seat's next turn, where the position is
scored.  Another move replaces the
sharp one only when it is better on the same worlds beyond the noise.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from engines import search
from engines.core import DEFAULT_LEVEL

from . import data as D
from . import rules
from .rules import (
    Board,
    Buy,
    Config,
    End,
    Llama,
    Move,
    MoveLlama,
    Rotate,
    Sell,
    State,
    View,
    colours_held,
    open_mask,
    outcome,
    total,
)
from .ways import NONE as _NONE
from .ways import Search as _Search
from .ways import board as _board
from .ways import board_masks as _board_masks
from .ways import search as _search


@dataclass(frozen=True)
class Tune:
    """The greedy trader's weights (the normal player's unless others are given)."""

    decay: float = 0.6  # a way's worth falls by this for every tile it needs turned
    approach: float = 0.45  # the share of a sale's worth a tile on the way to it counts
    paid_margin: float = 2.0  # loose pieces kept after paying for a further tile turn
    paid_rich: float = 2.0  # the least worth of the plan a paid turn opens, with plenty of loose pieces
    paid_poor: float = 5.0  # and with few


NORMAL = Tune()

SHARP = Tune(decay=0.8, approach=0.8, paid_margin=0, paid_rich=0.0, paid_poor=2.0)
"""The sharp player's weights: it heads for sales that need tile turns more readily, and it
pays for further turns with its loose pieces down to the last (a way to a sale brings pieces
back; the normal player keeps two)."""

LAST_ONE = {"paid_margin": 0, "paid_rich": 0.0, "paid_poor": 0.0}
"""The sharp player's paid turns when one colour short: any it can pay with loose pieces."""


class _Eval:
    def __init__(self, view: View, me: int):
        self.me = me
        self.sup = dict(view.supply[me])
        self.demands = dict(view.demands)
        self.wanted = {c for d in self.demands.values() if d for c in D.demand_colours(d)}

    def lack(self, colour: str) -> bool:
        return self.sup.get(colour, 0) == 0

    def hold(self, colour: str | None) -> float:
        if colour is None:
            return 0.0
        # a missing colour is worth keeping only while some village asks for it
        return 3.0 if self.lack(colour) and colour in self.wanted else 0.5

    def reload(self, village: int) -> float:
        return 4.0 if self.lack(D.VILLAGES[village]) else 1.0

    def sale(self, load: str | None, village: int) -> float | None:
        """Value of selling ``load`` at ``village`` now (None if no sale is possible)."""
        demand = self.demands.get(village)
        if load is None or demand is None or load == D.VILLAGES[village]:
            return None
        big, small = D.demand_colours(demand)
        if load == big:
            gain = (10.0 if self.lack(load) else 2.0) + 2.0
        elif load == small:
            gain = 10.0 if self.lack(load) else 1.5
        else:
            gain = 0.0
        return gain + self.reload(village) - self.hold(load)


def normal_move(view: View, legal: list[Move], rng: random.Random) -> Move:
    """Greedy: sell where it pays, buy llamas with spare pieces, turn tiles toward good villages."""
    if not legal:
        raise ValueError("no legal move to choose from")
    me = view.seat if view.seat is not None else view.turn
    rotation = _rotation(view, me, legal, rng)
    if rotation is not None:
        return rotation
    scored = _rank_actions(view, me, legal, rng)
    if not scored:
        return rng.choice(legal)
    return scored[0][1]


class _Plan:
    """What the greedy player works from: its llamas, the open edges, sale values."""

    def __init__(self, view: View, me: int, tune: Tune = NORMAL):
        self.view = view
        self.me = me
        self.tune = tune
        self.black = me == 1
        self.ev = _Eval(view, me)
        self.mine = [lm for lm in view.llamas if lm.seat == me]
        self.by_id = {lm.id: lm for lm in self.mine}
        self.board = _board(view.tiles, self.black)
        self.masks = self.board.masks
        self.tcache: dict[str | None, list[tuple[float, int]]] = {}
        self.ranks: dict[str | None, list[tuple[float, int]]] = {}

    def targets(self, load: str | None) -> list[tuple[float, int]]:
        if load in self.tcache:
            return self.tcache[load]
        out = []
        for v in D.VILLAGE_ORDER:
            val = self.ev.sale(load, v)
            if val is not None and val > 0:
                out.append((val, v))
        self.tcache[load] = out
        return out

    def ranked(self, load: str | None) -> list[tuple[float, int]]:
        """:meth:`targets`, the worthiest first."""
        found = self.ranks.get(load)
        if found is None:
            found = self.ranks[load] = sorted(self.targets(load), key=lambda t: -t[0])
        return found

    def potential(self, cell: int, load: str | None) -> float:
        """The best worth of a sale ``load`` could make from ``cell``, less for every tile turn
        on the way.  The ways from the worthiest villages are looked at first: once a village's
        whole worth is no more than the best found, no way from it or from a less worthy one
        could do better (the worth only falls with the turns), and the ways from those are
        not searched for; nor are ways searched further than could still do better."""
        best = 0.0
        decay = self.tune.decay
        prune = 0.0 <= decay <= 1.0
        way = self.board.way
        for val, v in self.ranked(load):
            if prune and val <= best:
                break
            d = way(v).cost_worth(cell, val, decay, best) if prune else way(v).cost(cell)
            if d < 99:
                worth = val * decay**d
                if worth > best:
                    best = worth
        return best


def _rotation(view: View, me: int, legal: list[Move], rng: random.Random, tune: Tune = NORMAL) -> Move | None:
    """The rotation the greedy player makes now, if any."""
    if view.phase != "rotate":
        return None
    rotations = [m for m in legal if isinstance(m, Rotate)]
    if not rotations:
        return None
    plan = _Plan(view, me, tune)
    cost = view.rotation_cost
    if cost == 0 or view.loose[me] >= cost + tune.paid_margin:
        move = _choose_rotation(
            view, me, plan.masks, plan.mine, rotations, plan.targets, cost, rng, plan.ev, tune=tune
        )
        if move is not None:
            return move
    if cost == 0:
        # No rotation the planner can see helps.  Now and then turn a free tile at random
        # anyway: when every path is shut (both players shuttling between the same two
        # tiles), that is what opens the board again; otherwise it costs nothing.
        free = [m for m in rotations if not m.pay and m.steps]
        if free and rng.random() < 0.3:
            return rng.choice(free)
    return None


def _rank_actions(
    view: View, me: int, legal: list[Move], rng: random.Random, tune: Tune = NORMAL
) -> list[tuple[float, Move]]:
    """Every llama action and ``end``, scored, best first."""
    plan = _Plan(view, me, tune)
    ev, by_id, mine = plan.ev, plan.by_id, plan.mine
    villages = D.VILLAGES
    selling: dict[int, float | None | bool] = {}  # each llama's sale where it stands
    scored: list[tuple[float, Move]] = []
    for mv in legal:
        if isinstance(mv, Rotate):
            continue
        if isinstance(mv, MoveLlama):
            lm = by_id[mv.llama]
            to = mv.to
            if to in villages:
                v = ev.sale(lm.load, to)
                score = v if v is not None else 0.2
            else:
                score = tune.approach * plan.potential(to, lm.load) + 0.1
            if lm.cell in villages:
                here = selling.get(lm.id, False)
                if here is False:
                    here = selling[lm.id] = ev.sale(lm.load, lm.cell)
                if here is not None and here >= score:
                    score -= 1.0  # better to sell where it stands
        elif isinstance(mv, Sell):
            lm = by_id[mv.llama]
            v = ev.sale(lm.load, lm.cell)
            score = v if v is not None and v > 0 else -1.0
        elif isinstance(mv, Buy):
            lm = by_id[mv.llama]
            here = ev.sale(lm.load, lm.cell) if lm.stage <= 1 else None
            if mv.pay or len(mine) >= D.MAX_LLAMAS:
                score = -5.0
            elif here is not None and here > 0:
                score = -2.0  # sell first
            else:
                score = 3.0
        elif isinstance(mv, End):
            score = 0.0
        else:  # pragma: no cover
            score = -10.0
        scored.append((score + rng.random() * 0.01, mv))
    scored.sort(key=lambda t: t[0], reverse=True)
    return scored


def _choose_rotation(
    view, me, masks, mine, rotations, targets, cost, rng, ev, every=None, tune: Tune = NORMAL
) -> Move | None:
    """The greedy rotation: one that opens the way of one of the three best plans.

    With a list ``every``, the rotations opening each of those plans' ways are added to it
    instead (all the turns that work on the first tile in the way), and None is returned."""
    black = me == 1
    allowed = {m.cell for m in rotations if m.pay == ""}
    if not allowed:
        return None
    tiles = dict(view.tiles)
    plans = []  # (score, llama cell, village, search)
    for lm in mine:
        if lm.stage != 0:
            continue
        search = _search(view.tiles, black, masks, lm.cell)
        reach_best = 0.0
        for val, v in targets(lm.load):
            if search.to_village(v) == 0:
                reach_best = max(reach_best, val)
        for val, v in targets(lm.load):
            d = search.to_village(v)
            if d is None or d == 0 or val <= reach_best:
                continue
            plans.append(((val - reach_best) * tune.decay ** (d - 1), rng.random(), v, search))
    if not plans:
        return None
    plans.sort(key=lambda p: (p[0], p[1]), reverse=True)
    if cost == 0:
        threshold = 0.0
    else:
        threshold = tune.paid_rich if view.loose[me] >= 3 * cost else tune.paid_poor
    for score, _, village, search in plans[:3]:
        if score <= threshold:
            break
        for cell, e_in, e_out in search.steps_to(village):
            mc = masks[cell]
            if (mc >> e_out) & 1 and (e_in == _NONE or (mc >> e_in) & 1):
                continue
            if cell not in allowed:
                continue
            code = tiles[cell]
            options = []
            for k in range(1, 6):
                m2 = D.mountain_mask(f"{code[0]}{(int(code[1]) + k) % 6}")
                om = m2 if black else 63 ^ m2
                if (om >> e_out) & 1 and (e_in == _NONE or (om >> e_in) & 1):
                    options.append(k)
            if options and every is not None:
                every.extend(Rotate(cell, k) for k in options)
                break
            if options:
                return Rotate(cell, rng.choice(options))
    return None


# --------------------------------------------------------------------------- levels

EASY_RANDOM = 0.3
"""How often the easy player takes a random legal move instead of the normal one."""

SIMULATIONS_PER_SECOND = 330
"""Simulations the strong player plans its search rounds for, per second of thinking (by count
it runs exactly these; by the clock, as at the table, it runs until its deadline): the playouts
per CPU second measured on the development machine (2 cores), ``python bench/strength.py --parts
calibrate``."""

HORIZON = 60
"""At most this many moves are played after a candidate (a safety bound: :data:`ROUNDS` ends
playouts first)."""


def computer_move(
    view: View,
    legal: list[Move],
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


def determinize(view: View, rng: random.Random) -> State:
    """A full state agreeing with ``view``: the demand bag (whose content is known) in a random order."""
    shown = [d for _, d in view.demands if d is not None]
    bag = [d for d in D.DEMANDS if d not in shown and d not in view.used]
    rng.shuffle(bag)
    assert len(bag) == view.bag_count, "the view's demands do not add up"
    return State(
        config=Config(players=view.players, board=Board(view.board), max_turns=view.max_turns),
        seed=rng.getrandbits(48),
        tiles=dict(view.tiles),
        demands=dict(view.demands),
        bag=bag,
        used=list(view.used),
        llamas=[Llama(lm.seat, lm.id, lm.cell, lm.load, lm.stage, lm.new) for lm in view.llamas],
        supply=[dict(s) for s in view.supply],
        rocks=list(view.rocks),
        rotated=list(view.rotated),
        phase=view.phase,
        turn=view.turn,
        turn_number=view.turn_number,
        active=view.active,
        recycles=0,
        winner=view.winner,
        end_reason=view.end_reason,
        last=view.last,
        last_seat=view.last_seat,
        turn_log=list(view.turn_log),
        turn_cells=list(view.turn_cells),
        prev_log=list(view.prev_log),
        prev_cells=list(view.prev_cells),
        # the view shows this turn's roads, or the previous turn's before a move
        turn_routes=[list(r) for r in view.routes] if view.turn_log else [],
        prev_routes=[] if view.turn_log else [list(r) for r in view.routes],
    )


def _worth(state: State, seat: int) -> float:
    """How far a seat is towards the seven colours: colours, then pieces, llamas and loads."""
    sup = state.supply[seat]
    held = colours_held(sup)
    lms = [lm for lm in state.llamas if lm.seat == seat]
    loads = sum(1 for lm in lms if lm.load is not None and sup.get(lm.load, 0) == 0)
    return 3.0 * held + 0.4 * total(sup) + 1.0 * len(lms) + 0.8 * loads


def _evaluate(state: State, seat: int) -> float:
    result = outcome(state)
    if result is not None:
        return search.outcome_reward(result, seat, 3.0)
    return search.margin_value(_worth(state, seat) - _worth(state, 1 - seat), 4.0)


ROUNDS: int | None = 1
"""Playouts stop when the seat is about to start its turn for the ``ROUNDS``-th time after the
move searched (None: after :data:`HORIZON` moves only).  One round (the rest of this turn and
the opponent's reply) keeps playouts short, so a second of thinking affords hundreds, and
every playout is scored at the same point of the turn order, whatever the candidate."""

KEEP_MARGIN = search.KEEP_MARGIN
"""How much better on average another candidate must be than the normal player's move."""

CONFIDENCE = 1.64
"""And by how many standard errors of the paired differences over the same sampled worlds
(one-sided, about 95 %): with few simulations, noise alone would otherwise pick a worse move."""


def _until(world: State) -> Callable[[State], bool] | None:
    """The test ending a playout from ``world``: the seat to move is about to start its turn
    for the :data:`ROUNDS`-th time (None: no such test)."""
    if ROUNDS is None:
        return None
    stop = world.turn_number + 2 * ROUNDS
    return lambda state: state.turn_number >= stop


ROLLOUT = "normal"
"""Who plays both seats in the strong player's playouts: ``normal`` or ``sharp``.  The normal
player measured better (and is cheaper): it is also the opponent the strong level is measured
against, so it models that opponent exactly."""


def _game() -> search.Game:
    policy = sharp_move if ROLLOUT == "sharp" else normal_move
    return search.Game(rules, determinize, policy, _evaluate, HORIZON, _until)


CANDIDATES = 7
"""At most this many moves are compared by the strong player."""

ROTATION_CANDIDATES = 3
"""At most this many tile turns (other than the normal player's) among the candidates."""


def candidates(view: View, legal: list[Move], rng: random.Random) -> list[Move]:
    """The sharp player's pick, then the normal player's best llama action (no rotation at all),
    the tile turns that open the best plans, and its other llama actions."""
    me = view.seat if view.seat is not None else view.turn
    out = [sharp_move(view, legal, rng)]
    actions = [m for _, m in _rank_actions(view, me, legal, rng)]
    turns: list[Move] = []
    if ROTATION_CANDIDATES and view.phase == "rotate" and any(isinstance(m, Rotate) for m in legal):
        plan = _Plan(view, me)
        rotations = [m for m in legal if isinstance(m, Rotate)]
        _choose_rotation(
            view, me, plan.masks, plan.mine, rotations, plan.targets, view.rotation_cost, rng, plan.ev, turns
        )
        legal_set = set(legal)
        turns = [m for m in turns if m in legal_set][:ROTATION_CANDIDATES]
    # the best llama action (no rotation) first, then the other rotations, then more actions
    out += actions[:1] + turns + actions[1:]
    return list(dict.fromkeys(out))[:CANDIDATES]


def strong_move(
    view: View,
    legal: list[Move],
    rng: random.Random,
    seconds: float | None,
    deadline: search.Deadline | None = None,
) -> Move:
    """Search the best candidates in sampled orders of the demand bag."""
    return search.choose(
        _game(),
        view,
        candidates(view, legal, rng),
        rng,
        simulations=search.simulations_for(seconds, SIMULATIONS_PER_SECOND),
        deadline=deadline,
        keep_margin=KEEP_MARGIN,
        confidence=CONFIDENCE,
    )


# --------------------------------------------------------------------------- the sharp player

BLOCK = True
"""Whether the sharp player turns a tile to shut the opponent's way to its seventh colour."""

DENY = True
"""Whether the sharp player sells first at the village where the opponent would take its
seventh colour (and keeps its tile turns from spoiling its own way there)."""

ENDGAME_PAY = True
"""Whether the sharp player, one colour short itself, pays for any further tile turn it can
afford with loose pieces that opens a way to a sale."""

BLOCK_CELLS = 5
"""At most this many tiles on the opponent's ways are tried for a block."""

WIN_THREAT = 60.0
"""The worth of a sale that would give the opponent its seventh colour."""


def _threat_list(
    view: View, me: int, fixed: frozenset[int] = frozenset()
) -> list[tuple[float, int, int, int]]:
    """(worth, village, llama cell, tiles to turn) of every sale the opponent could make next
    turn for a colour it lacks, with at most one tile turned (its free turn); tiles in
    ``fixed`` are marked and cannot be turned by it."""
    opp = 1 - me
    ev = _Eval(view, opp)
    black = opp == 1
    masks = _board_masks(view.tiles, black)
    wins = view.colours[opp] == len(D.COLOURS) - 1
    out = []
    for lm in view.llamas:
        if lm.seat != opp or lm.load is None or not ev.lack(lm.load):
            continue
        way = _Search(masks, lm.cell, fixed) if fixed else _search(view.tiles, black, masks, lm.cell)
        for v in D.VILLAGE_ORDER:
            demand = ev.demands.get(v)
            if demand is None or lm.load not in D.demand_colours(demand) or D.VILLAGES[v] == lm.load:
                continue
            d = 0 if v == lm.cell else way.to_village(v)
            if d is None or d > 1:
                continue
            big = D.demand_colours(demand)[0] == lm.load
            worth = WIN_THREAT if wins else 12.0 if big else 10.0
            out.append((worth * (0.7 if d else 1.0), v, lm.cell, d))
    return out


def _best_at(worths) -> dict[int, float]:
    """For each village, the best of the (worth, village) pairs at it."""
    best: dict[int, float] = {}
    for value, v in worths:
        best[v] = max(best.get(v, 0.0), value)
    return best


def _by_village(worths) -> float:
    """The sum over villages of the best of the (worth, village) pairs at each."""
    return sum(_best_at(worths).values())


def _block(
    view: View, me: int, legal: list[Move], threats: list[tuple[float, int, int, int]]
) -> tuple[float, Move | None]:
    """The tile turn (paid with loose pieces, or free) that best shuts the opponent's ways to
    its sales next turn (``threats``, from :func:`_threat_list` with this turn's marked tiles),
    and how much of their worth it shuts away."""
    if view.phase != "rotate":
        return 0.0, None
    # the tiles turned this turn stay marked through the opponent's turn
    fixed = frozenset(view.rotated)
    if all(start == v for _, v, start, _ in threats):
        return 0.0, None
    allowed = {(m.cell, m.steps) for m in legal if isinstance(m, Rotate) and not m.pay}
    opp = 1 - me
    black = opp == 1
    masks = _board_masks(view.tiles, black)
    tiles = dict(view.tiles)
    cells: list[int] = []
    for _, v, start, _ in sorted(threats, reverse=True):
        if start == v:
            continue
        for cell, _, _ in _Search(masks, start, fixed).steps_to(v):
            if cell not in cells and any((cell, k) in allowed for k in range(1, 6)):
                cells.append(cell)
    # one sale at a village is all the opponent needs: the best threat at each village counts
    before = _by_village((value, v) for value, v, _, _ in threats)
    best: tuple[float, Move | None] = (0.0, None)
    for cell in cells[:BLOCK_CELLS]:
        code = tiles[cell]
        for steps in range(1, 6):
            if (cell, steps) not in allowed:
                continue
            new_code = f"{code[0]}{(int(code[1]) + steps) % 6}"
            changed = dict(masks)
            changed[cell] = open_mask(new_code, black)
            ways: dict[int, _Search] = {}
            marked = fixed | {cell}
            still = []
            for value, v, start, d0 in threats:
                if start == v:
                    still.append((value, v))
                    continue
                if start not in ways:
                    ways[start] = _Search(changed, start, marked)
                d = ways[start].to_village(v)
                if d is not None and d <= 1:
                    still.append((value if d <= d0 else value * 0.7, v))
            left = _by_village(still)
            if before - left > best[0]:
                best = (before - left, Rotate(cell, steps))
                if left == 0:
                    return best
    return best


def _can_deny(view: View, me: int, legal: list[Move], threats: dict[int, float]) -> bool:
    """Whether a llama of ours can sell, this turn and without turning a tile, at a village
    where the opponent would take its seventh colour (``threats``: the worth of the opponent's
    best sale at each village)."""
    urgent = {v for v, worth in threats.items() if worth >= WIN_THREAT * 0.5}
    if not urgent:
        return False
    loads = {lm.id: lm.load for lm in view.llamas if lm.seat == me}
    for mv in legal:
        target = mv.to if isinstance(mv, MoveLlama) else None
        if isinstance(mv, Sell):
            target = next(lm.cell for lm in view.llamas if lm.seat == me and lm.id == mv.llama)
        load = loads.get(getattr(mv, "llama", -1))
        if target in urgent and load is not None and load != D.VILLAGES[target]:
            return True
    return False


def sharp_move(view: View, legal: list[Move], rng: random.Random) -> Move:
    """The normal player's trade with readier paid tile turns (:data:`SHARP`) and an eye on the
    last colour: when the opponent is one colour short, it shuts the opponent's way to a village
    asking for that colour with a tile turn its own ways do not need, or sells at that village
    first; one colour short itself, it pays for any tile turn that opens its own way."""
    if not legal:
        raise ValueError("no legal move to choose from")
    me = view.seat if view.seat is not None else view.turn
    tune = replace(SHARP, **LAST_ONE) if ENDGAME_PAY and view.colours[me] == len(D.COLOURS) - 1 else SHARP
    short = view.colours[1 - me] == len(D.COLOURS) - 1
    # the opponent's sales next turn, with this turn's marked tiles (looked at only when it is
    # one colour short); for each village, the best of them
    threat_list = _threat_list(view, me, frozenset(view.rotated)) if short else []
    threats = _best_at((value, v) for value, v, _, _ in threat_list)
    rotation = None
    if view.phase == "rotate":
        # with a way to sell first where the opponent would win, a tile turn could only spoil it
        if not (short and DENY and _can_deny(view, me, legal, threats)):
            rotation = _rotation(view, me, legal, rng, tune)
        # its own way comes first: a player that only blocks makes no progress, and two sharp
        # players would block each other turn after turn
        if rotation is None and short and BLOCK:
            worth, shut = _block(view, me, legal, threat_list)
            if shut is not None and worth >= WIN_THREAT * 0.5:
                return shut
    if rotation is not None:
        return rotation
    scored = _rank_actions(view, me, legal, rng, tune)
    if not scored:
        return rng.choice(legal)
    if DENY and threats:
        by_id = {lm.id: lm for lm in view.llamas if lm.seat == me}
        demands = dict(view.demands)
        rescored = []
        for score, mv in scored:
            if isinstance(mv, Sell):
                v = by_id[mv.llama].cell
                if v in threats:
                    score = max(score, 0.0) + threats[v]
            elif isinstance(mv, MoveLlama) and mv.to in threats:
                lm = by_id[mv.llama]
                if lm.load is not None and lm.load != D.VILLAGES[mv.to] and demands.get(mv.to) is not None:
                    score = max(score, 0.0) + threats[mv.to]
            rescored.append((score, mv))
        rescored.sort(key=lambda t: t[0], reverse=True)
        scored = rescored
    return scored[0][1]
