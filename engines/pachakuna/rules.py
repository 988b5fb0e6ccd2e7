"""The rules of P'achakuna: state, moves, legality and effects."""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from engines.core import (
    N_,
    PUBLIC,
    Event,
    GameOver,
    IllegalMove,
    MalformedMove,
    NotYourTurn,
    Outcome,
    Privacy,
    Said,
    SetupError,
    can_read,
    echo,
    listed,
    quoted,
    rank_by,
    rng_for,
    said,
    said_n,
    term,
)

from . import data as D

TITLE = "P'achakuna"
MIN_PLAYERS = 2
MAX_PLAYERS = 2
SCHEMA = 1

# The game's words put into sentences as values (translated by the table): the colours of the
# pieces, the two sides, and the terrain each side's llamas walk.
COLOUR_WORDS: dict[str, Said] = {
    "white": term("pachakuna term", "white"),
    "yellow": term("pachakuna term", "yellow"),
    "orange": term("pachakuna term", "orange"),
    "red": term("pachakuna term", "red"),
    "purple": term("pachakuna term", "purple"),
    "blue": term("pachakuna term", "blue"),
    "green": term("pachakuna term", "green"),
    "brown": term("pachakuna term", "brown"),
}
SIDE_WORDS: tuple[Said, Said] = (term("pachakuna term", "White"), term("pachakuna term", "Black"))
EARLIER_REASONS = (
    said("{side} collected all seven colours"),
    said("{p0} ({side}) collected all seven colours"),
)
"""Why a game ended, as outcomes stored before edition 3 (the side alone) and edition 4 (the side
in brackets after the name) say it: kept in the catalogues, so that those games' results still
read in every language."""
TERRAIN_WORDS: tuple[Said, Said] = (
    term("pachakuna term", "the valleys"),
    term("pachakuna term", "the mountains"),
)
TIEBREAK_WORDS: dict[str, Said] = {"resources": term("pachakuna term", "resources")}


def who(seat: int) -> str:
    """The value of ``{p0}`` in a sentence about ``seat`` (the table puts the name in)."""
    return f"{{p{seat}}}"


# --------------------------------------------------------------------------- config


class Board(enum.Enum):
    A = "A"
    B = "B"
    RANDOM = "random"


@dataclass(frozen=True)
class Config:
    players: int = 2
    board: Board = field(
        default=Board.A,
        metadata={"help": N_("board layout: assembly plan A, plan B, or a random fair board")},
    )
    max_turns: int = field(
        default=0,
        metadata={
            "help": N_(
                "stop after this many turns (0: play until someone has all 7 colours); "
                "then most colours wins, ties by most resources"
            ),
            "choices": (0, 40, 60, 80, 100, 150, 200),
        },
    )

    def validate(self) -> None:
        if self.players != 2:
            raise SetupError("P'achakuna is for exactly 2 players, not {players}", players=self.players)
        if not isinstance(self.board, Board):
            raise SetupError("{option board} must be A, B or random")
        if not isinstance(self.max_turns, int) or self.max_turns < 0:
            raise SetupError("{option max_turns} must be 0 (no limit) or a positive number of turns")


# --------------------------------------------------------------------------- moves


@dataclass(frozen=True)
class Rotate:
    """Turn a tile ``steps`` sixths clockwise; ``pay`` lists cut-out colours given up (letters)."""

    cell: int
    steps: int
    pay: str = ""

    def __str__(self) -> str:
        return f"r{self.cell}+{self.steps}" + (f"/{self.pay.lower()}" if self.pay else "")


@dataclass(frozen=True)
class MoveLlama:
    llama: int
    to: int

    def __str__(self) -> str:
        return f"m{self.llama}-{self.to}"


@dataclass(frozen=True)
class Sell:
    llama: int

    def __str__(self) -> str:
        return f"s{self.llama}"


@dataclass(frozen=True)
class Buy:
    llama: int
    pay: str = ""

    def __str__(self) -> str:
        return f"b{self.llama}" + (f"/{self.pay.lower()}" if self.pay else "")


@dataclass(frozen=True)
class End:
    def __str__(self) -> str:
        return "end"


Move = Rotate | MoveLlama | Sell | Buy | End


def _not_a_move(text: str) -> MalformedMove:
    """The refusal of ``text`` (already quoted), which is no move in the notation, with the notation."""
    return MalformedMove(
        "{text} is not a P'achakuna move; moves look like r34+2 (turn tile 34 two sixths clockwise), "
        "m1-56 (move your llama 1 to 56), s1 (llama 1 sells its load), b1 (buy a llama where llama 1 "
        "stands) or end (finish the turn); add /ry to r or b moves to name the cut-out colours you "
        "give up when loose resources are short",
        text=text,
    )


_ROT = re.compile(r"^r\s*(\d\d)\s*([+-]?)\s*(\d)\s*(?:/\s*([a-z]*))?$")
_MOV = re.compile(r"^m\s*(\d)\s*(?:[-> @]\s*)?(\d\d)$")
_SELL = re.compile(r"^s\s*(\d)$")
_BUY = re.compile(r"^b\s*(\d)\s*(?:/\s*([a-z]*))?$")


def _llama_number(text: str, example: str) -> int:
    """The llama a move names: 1 to 3, the most llamas a player owns."""
    n = int(text)
    if not 1 <= n <= D.MAX_LLAMAS:
        raise MalformedMove(
            "there is no llama {llama}: a player's llamas are numbered 1 to {most}; e.g. {example}",
            llama=n,
            most=D.MAX_LLAMAS,
            example=example,
        )
    return n


def _norm_pay(text: str | None) -> str:
    if not text:
        return ""
    letters = []
    for ch in text.upper():
        if ch not in D.FROM_LETTER:
            raise MalformedMove(
                "{letter} is not a colour letter; use W Y O R P B G (white, yellow, orange, red, purple, "
                "blue, green), e.g. r34+2/ry",
                letter=echo(ch),
            )
        if ch in letters:
            raise MalformedMove(
                "colour {letter} is named twice in the payment; name each colour once, e.g. r34+2/ry",
                letter=ch,
            )
        letters.append(ch)
    order = [D.LETTER[c] for c in D.COLOURS]
    return "".join(sorted(letters, key=order.index))


def parse_move(text: str) -> Move:
    raw = text or ""
    t = " ".join(raw.strip().lower().split())
    if t in ("end", "done", "pass", "e"):
        return End()
    m = _ROT.match(t)
    if m:
        cell, sign, n = int(m.group(1)), m.group(2), int(m.group(3))
        if n > 5:
            raise MalformedMove("a tile turns 0 to 5 sixths, not {steps}; e.g. r34+2", steps=n)
        steps = (-n) % 6 if sign == "-" else n
        return Rotate(cell, steps, _norm_pay(m.group(4)))
    m = _MOV.match(t)
    if m:
        return MoveLlama(_llama_number(m.group(1), "m1-56"), int(m.group(2)))
    m = _SELL.match(t)
    if m:
        return Sell(_llama_number(m.group(1), "s1"))
    m = _BUY.match(t)
    if m:
        return Buy(_llama_number(m.group(1), "b1"), _norm_pay(m.group(2)))
    raise _not_a_move(quoted(raw))


# --------------------------------------------------------------------------- state


@dataclass
class Llama:
    seat: int
    id: int
    cell: int
    load: str | None  # colour name, None while empty (sold or just bought)
    stage: int = 0  # this turn: 0 fresh, 1 moved, 2 sold, 3 finished
    new: bool = False  # bought this turn


@dataclass
class State:
    config: Config
    seed: int
    tiles: dict[int, str]
    demands: dict[int, str | None]
    bag: list[str]
    used: list[str]
    llamas: list[Llama]
    supply: list[dict[str, int]]
    rocks: list[int] = field(default_factory=list)
    rotated: list[int] = field(default_factory=list)
    phase: str = "rotate"  # rotate | llamas | over
    turn: int = 0
    turn_number: int = 1
    active: int | None = None
    recycles: int = 0
    winner: int | None = None
    end_reason: str | None = None
    last: str | None = None
    last_seat: int | None = None
    turn_log: list[str] = field(default_factory=list)
    turn_cells: list[int] = field(default_factory=list)
    prev_log: list[str] = field(default_factory=list)
    prev_cells: list[int] = field(default_factory=list)
    moves: int = 0
    turn_routes: list[list[int]] = field(default_factory=list)  # each llama move's fields, this turn
    prev_routes: list[list[int]] = field(default_factory=list)


def _copy(state: State) -> State:
    """A copy of ``state`` that shares nothing mutable with it (the config is frozen)."""
    return State(
        state.config,
        state.seed,
        dict(state.tiles),
        dict(state.demands),
        list(state.bag),
        list(state.used),
        [Llama(lm.seat, lm.id, lm.cell, lm.load, lm.stage, lm.new) for lm in state.llamas],
        [dict(s) for s in state.supply],
        list(state.rocks),
        list(state.rotated),
        state.phase,
        state.turn,
        state.turn_number,
        state.active,
        state.recycles,
        state.winner,
        state.end_reason,
        state.last,
        state.last_seat,
        list(state.turn_log),
        list(state.turn_cells),
        list(state.prev_log),
        list(state.prev_cells),
        state.moves,
        [list(r) for r in state.turn_routes],
        [list(r) for r in state.prev_routes],
    )


def random_fair_board(seed: int) -> dict[int, str]:
    """A random board that the 180-degree turn with valley/mountain swapped maps onto itself."""
    rng = rng_for(seed, "board")
    firsts = [c for c in D.TILE_CELLS if c < D.mirror(c)]
    kinds = ["N"] * (D.KIND_COUNTS["N"] // 2) + ["FM"] * D.KIND_COUNTS["F"]
    assert len(kinds) == len(firsts)
    rng.shuffle(kinds)
    tiles: dict[int, str] = {}
    for cell, kind in zip(firsts, kinds, strict=True):
        if kind == "FM":
            kind = rng.choice("FM")
        code = f"{kind}{rng.randrange(6)}"
        tiles[cell] = code
        tiles[D.mirror(cell)] = D.complement(code)
    return tiles


def new_game(config: Config, seats: int, seed: int) -> State:
    config.validate()
    if seats != config.players:
        raise SetupError(
            said_n(
                seats,
                "the config is for {players} but {n} seat was given",
                "the config is for {players} but {n} seats were given",
                players=said_n(config.players, "{n} player", "{n} players"),
            )
        )
    if config.board is Board.RANDOM:
        tiles = random_fair_board(seed)
    else:
        tiles = dict(D.PLANS[config.board.value])
    bag = list(D.DEMANDS)
    rng_for(seed, "bag").shuffle(bag)
    demands: dict[int, str | None] = {}
    for v in D.VILLAGE_ORDER:
        i = next(i for i, d in enumerate(bag) if D.demand_fits(d, v, setup=True))
        demands[v] = bag.pop(i)
    supply = [{k: 0 for k in D.SUPPLY_KINDS} for _ in range(2)]
    supply[1][D.BROWN] = 1
    llamas = [Llama(0, 1, 55, "white"), Llama(1, 1, 55, "white")]
    return State(config, seed, tiles, demands, bag, [], llamas, supply)


# --------------------------------------------------------------------------- paths


def open_mask(code: str, black: bool) -> int:
    return _OPEN[black][code]


_CODES = tuple(f"{kind}{rot}" for kind in D.KIND_MOUNTAINS for rot in range(6))
_OPEN: dict[bool, dict[str, int]] = {
    black: {code: D.mountain_mask(code) ^ (0 if black else 63) for code in _CODES} for black in (False, True)
}
"""The open edges of each tile code, for white (False) and black (True) llamas."""


def reachable(tiles: dict[int, str], start: int, black: bool) -> set[int]:
    """Cells a llama on ``start`` may end on this turn (never ``start`` itself).

    White (``black`` False) crosses valley edges, black crosses mountain edges; both facing
    edges must be of the llama's terrain; a village has no edges of its own and stops the llama.
    """
    opened = _OPEN[black]
    villages = D.VILLAGES
    sides = _OPEN_SIDES
    seen = {start}
    stack = [start]
    while stack:
        c = stack.pop()
        if c in villages:
            if c != start:
                continue
            mc = 63
        else:
            mc = opened[tiles[c]]
        for n, back, village in sides[c][mc]:
            if n in seen:
                continue
            if not village and not opened[tiles[n]] & back:
                continue
            seen.add(n)
            stack.append(n)
    seen.discard(start)
    return seen


_OPEN_SIDES: dict[int, tuple[tuple[tuple[int, int, bool], ...], ...]] = {
    c: tuple(
        tuple((n, 1 << ((d + 3) % 6), n in D.VILLAGES) for d, n in D.NEIGHBOURS[c] if open_edges >> d & 1)
        for open_edges in range(64)
    )
    for c in D.CELLS
}
"""Each cell's sides as :func:`reachable` crosses them, for each set of its open edges (bit d:
edge d): the neighbour beyond each open side, the bit of the neighbour's facing side, and
whether the neighbour is a village."""


def route(tiles: dict[int, str], start: int, end: int, black: bool) -> list[int]:
    """A shortest road from ``start`` to ``end`` (both included) by :func:`reachable`'s rules."""
    opened = _OPEN[black]
    villages = D.VILLAGES
    came = {start: start}
    queue = [start]
    for c in queue:
        if c == end:
            break
        if c in villages and c != start:
            continue
        mc = 63 if c in villages else opened[tiles[c]]
        for d, n in D.NEIGHBOURS[c]:
            if n in came or not (mc >> d) & 1:
                continue
            if n not in villages and not (opened[tiles[n]] >> ((d + 3) % 6)) & 1:
                continue
            came[n] = c
            queue.append(n)
    if end not in came:
        return [start, end]
    path = [end]
    while path[-1] != start:
        path.append(came[path[-1]])
    return path[::-1]


# --------------------------------------------------------------------------- supplies


def colours_held(sup: dict[str, int]) -> int:
    return sum(1 for c in D.COLOURS if sup[c] > 0)


def loose(sup: dict[str, int]) -> int:
    """Resources lying loose: brown and every piece beyond the first of a colour."""
    return sup[D.BROWN] + sum(max(0, sup[c] - 1) for c in D.COLOURS)


def total(sup: dict[str, int]) -> int:
    return sum(sup.values())


def pay_options(sup: dict[str, int], cost: int) -> list[str]:
    """The payment suffixes allowed for ``cost`` ("" when loose pieces suffice), [] if unaffordable."""
    if total(sup) < cost:
        return []
    need = cost - loose(sup)
    if need <= 0:
        return [""]
    held = [D.LETTER[c] for c in D.COLOURS if sup[c] > 0]
    return ["".join(combo) for combo in combinations(held, need)]


def _too_dear(cost: int, have: int, llama: bool) -> Said:
    """Why ``have`` resources buy no llama (``llama``) or no further rotation costing ``cost``."""
    if llama:
        return said_n(
            cost,
            "a llama costs {n} resource and you have only {have}",
            "a llama costs {n} resources and you have only {have}",
            have=have,
        )
    return said_n(
        cost,
        "another rotation costs {n} resource and you have only {have}",
        "another rotation costs {n} resources and you have only {have}",
        have=have,
    )


def _check_pay(sup: dict[str, int], cost: int, pay: str, llama: bool) -> None:
    """Refuse ``pay`` unless it pays ``cost`` from ``sup``, for a llama (``llama``) or a rotation."""
    have = total(sup)
    if have < cost:
        raise IllegalMove(_too_dear(cost, have, llama))
    opts = pay_options(sup, cost)
    if pay in opts:
        return
    free = loose(sup)
    need = cost - free
    if need <= 0:
        raise IllegalMove(
            said_n(
                free,
                "a llama is paid from your {n} loose resource; leave out the /colours part",
                "a llama is paid from your {n} loose resources; leave out the /colours part",
            )
            if llama
            else said_n(
                free,
                "another rotation is paid from your {n} loose resource; leave out the /colours part",
                "another rotation is paid from your {n} loose resources; leave out the /colours part",
            )
        )
    held = "".join(D.LETTER[c] for c in D.COLOURS if sup[c] > 0).lower()
    values = {"cost": cost, "loose": _loose_words(free), "held": held, "example": held[:need]}
    raise IllegalMove(
        said_n(
            need,
            "a llama costs {cost} but you have only {loose}, so name exactly {n} different colour you "
            "hold to give up from your cut-outs (you hold {held}), e.g. /{example}",
            "a llama costs {cost} but you have only {loose}, so name exactly {n} different colours you "
            "hold to give up from your cut-outs (you hold {held}), e.g. /{example}",
            **values,
        )
        if llama
        else said_n(
            need,
            "another rotation costs {cost} but you have only {loose}, so name exactly {n} different "
            "colour you hold to give up from your cut-outs (you hold {held}), e.g. /{example}",
            "another rotation costs {cost} but you have only {loose}, so name exactly {n} different "
            "colours you hold to give up from your cut-outs (you hold {held}), e.g. /{example}",
            **values,
        )
    )


def _loose_words(n: int) -> Said:
    return said_n(n, "{n} loose resource", "{n} loose resources")


def _pay(sup: dict[str, int], cost: int, pay: str) -> None:
    left = cost
    take = min(left, sup[D.BROWN])
    sup[D.BROWN] -= take
    left -= take
    while left > 0:
        extra = [c for c in D.COLOURS if sup[c] > 1]
        if not extra:
            break
        c = max(extra, key=lambda k: sup[k])
        sup[c] -= 1
        left -= 1
    for ch in pay:
        sup[D.FROM_LETTER[ch]] -= 1
        left -= 1
    assert left == 0 and all(v >= 0 for v in sup.values())


# --------------------------------------------------------------------------- queries


def to_move(state: State) -> set[int]:
    return set() if state.phase == "over" else {state.turn}


def turn_number(state: State) -> int:
    """Turns so far plus one: up when a player ends the turn (``end``)."""
    return state.turn_number


def llama(state: State, seat: int, ident: int) -> Llama | None:
    for lm in state.llamas:
        if lm.seat == seat and lm.id == ident:
            return lm
    return None


def own_llamas(state: State, seat: int) -> list[Llama]:
    return [lm for lm in state.llamas if lm.seat == seat]


def occupied(state: State) -> set[int]:
    return {lm.cell for lm in state.llamas}


STEP_WORDS = (
    N_("not at all (it still counts as turned)"),
    N_("one sixth clockwise"),
    N_("two sixths clockwise"),
    N_("half a turn"),
    N_("two sixths anticlockwise"),
    N_("one sixth anticlockwise"),
)
"""How far a tile turns, by its steps clockwise (0-5): the same words in menus and in posts."""


def rotation_cost(state: State) -> int:
    return 0 if not state.rotated else D.ROTATION_PRICE


def rotatable(state: State) -> list[int]:
    if state.phase != "rotate":
        return []
    blocked = occupied(state).union(state.rocks, state.rotated)
    return [c for c in D.TILE_CELLS if c not in blocked]


def can_act(state: State, lm: Llama) -> bool:
    """Whether the llama may still take an action (it is fresh, or the one acting now)."""
    return lm.stage == 0 or (lm.stage < 3 and state.active == lm.id)


def acting(state: State, seat: int) -> list[int]:
    """The llamas of ``seat`` that may still act: each one a legal move, sale or purchase names
    (the llama acting now, after its move onto a tile, may do nothing more)."""
    return sorted({m.llama for m in _actions(state, seat) if isinstance(m, (MoveLlama, Sell, Buy))})


def must_move(state: State, lm: Llama) -> bool:
    return lm.stage == 0 and lm.cell not in D.VILLAGES and bool(reachable(state.tiles, lm.cell, lm.seat == 1))


def legal_moves(state: State, seat: int) -> list[Move]:
    if state.phase == "over" or seat != state.turn:
        return []
    out: list[Move] = []
    if state.phase == "rotate":
        pays = pay_options(state.supply[seat], rotation_cost(state))
        if len(pays) == 1:
            turns = _turns(pays[0])
            for c in rotatable(state):
                out.extend(turns[c])
        elif pays:
            each = [_turns(p) for p in pays]
            for c in rotatable(state):
                for steps in zip(*(turns[c] for turns in each), strict=True):
                    out.extend(steps)  # each payment of this many steps, then the next steps
    out.extend(_actions(state, seat))
    return out


_TURNS: dict[str, dict[int, tuple[Rotate, ...]]] = {}


def _turns(pay: str) -> dict[int, tuple[Rotate, ...]]:
    """Each tile's six turns (0 to 5 steps) paid with ``pay``: made once, since moves are frozen
    (at most 29 payments: none, one or two of the seven colours)."""
    found = _TURNS.get(pay)
    if found is None:
        found = _TURNS[pay] = {c: tuple(Rotate(c, k, pay) for k in range(6)) for c in D.TILE_CELLS}
    return found


def _actions(state: State, seat: int) -> list[Move]:
    """The legal moves that are no tile turn: llama moves, sales, purchases and the end, in the
    order :func:`legal_moves` lists them (``seat`` is the seat to move, the game not over)."""
    out: list[Move] = []
    sup = state.supply[seat]
    own = own_llamas(state, seat)
    count = len(own)
    stuck = False  # a llama must move (must_move), which needs the cells it reaches anyway
    for lm in own:
        if not can_act(state, lm):
            continue
        village = lm.cell in D.VILLAGES
        if lm.stage == 0:
            dests = reachable(state.tiles, lm.cell, seat == 1)
            stuck = stuck or (bool(dests) and not village)
            moves = _MOVES.get(lm.id)
            if moves is None:
                out.extend([MoveLlama(lm.id, dest) for dest in sorted(dests)])
            else:
                out.extend([moves[dest] for dest in sorted(dests)])
        if village:
            if lm.stage <= 1 and _sell_problem(state, lm) is None:
                out.append(_SELLS.get(lm.id) or Sell(lm.id))
            if lm.stage <= 2 and count < D.MAX_LLAMAS:
                for p in pay_options(sup, D.LLAMA_PRICE):
                    out.append(Buy(lm.id, p))
    if not stuck:
        out.append(_END)
    return out


# The llama actions, made once (moves are frozen): llama moves by llama and field, sales, the end.
_MOVES = {ident: {c: MoveLlama(ident, c) for c in D.CELLS} for ident in range(1, D.MAX_LLAMAS + 1)}
_SELLS = {ident: Sell(ident) for ident in range(1, D.MAX_LLAMAS + 1)}
_END = End()


def _sell_problem(state: State, lm: Llama) -> Said | None:
    if lm.cell not in D.VILLAGES:
        return said(
            "llama {llama} is on tile {cell}, not on a village; only llamas on villages trade",
            llama=lm.id,
            cell=lm.cell,
        )
    if lm.load is None:
        return said("llama {llama} carries nothing to sell", llama=lm.id)
    vcol = D.VILLAGES[lm.cell]
    if lm.load == vcol:
        return said(
            "llama {llama} carries {load} and village {village} is {colour}; "
            "a village does not buy its own colour",
            llama=lm.id,
            load=COLOUR_WORDS[lm.load],
            village=lm.cell,
            colour=COLOUR_WORDS[vcol],
        )
    if state.demands[lm.cell] is None:
        return said("village {village} has no demand left this turn (one sale per demand)", village=lm.cell)
    return None


# --------------------------------------------------------------------------- applying


def apply_move(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    if state.phase == "over":
        raise GameOver("the game is over")
    if seat != state.turn:
        raise NotYourTurn("it is {side}'s turn, not yours", side=SIDE_WORDS[state.turn])
    handler = _HANDLERS.get(type(move))
    if handler is None:
        raise _not_a_move(echo(move))
    try:
        return handler(state, seat, move)
    except IllegalMove as exc:
        if exc.said.in_words().endswith(MORE):  # a cut list ends the refusal: no full stop after it
            raise IllegalMove("{refusal} {allowed}", refusal=exc.said, allowed=_hint(state, seat)) from None
        raise IllegalMove("{refusal}. {allowed}", refusal=exc.said, allowed=_hint(state, seat)) from None


def _hint(state: State, seat: int) -> Said:
    """A short list of what the player may do now, for refusal messages: the first tile turn
    :func:`legal_moves` lists, then its other moves, ends first, then sales, purchases, moves."""
    if state.phase == "over" or seat != state.turn:
        turn, legal = None, []
    else:
        turn = _first_turn(state, seat)
        legal = _actions(state, seat)
    rank = {End: 0, Sell: 1, Buy: 2, MoveLlama: 3}
    ordered = sorted(legal, key=lambda m: rank[type(m)])
    others = [str(m) for m in ordered[:10]]
    if len(ordered) > 10:
        others.append("...")
    moves = ", ".join(others)
    if turn and others:
        return said("Allowed now: tile turns such as {turn}, {moves}", turn=str(turn), moves=moves)
    if turn:
        return said("Allowed now: tile turns such as {turn}", turn=str(turn))
    return said("Allowed now: {moves}", moves=moves)


def _first_turn(state: State, seat: int) -> Rotate | None:
    """The first tile turn :func:`legal_moves` lists that turns the tile (one sixth: a turn by
    0 steps is legal, but as an example it would show no turn at all), without listing them all."""
    if state.phase != "rotate":
        return None
    pays = pay_options(state.supply[seat], rotation_cost(state))
    cells = rotatable(state)
    return Rotate(cells[0], 1, pays[0]) if pays and cells else None


def _record(new: State, seat: int, move: Move, cells: list[int]) -> None:
    new.last = str(move)
    new.last_seat = seat
    new.turn_log.append(str(move))
    new.turn_cells.extend(c for c in cells if c not in new.turn_cells)
    new.moves += 1


MORE = "..."  # ends a list cut short in a refusal


def _turnable_words(state: State) -> str:
    """The tiles that may turn now, for a refusal: the first 20, then ``, ...`` (the last thing
    in its refusal, which then takes no full stop)."""
    free = rotatable(state)
    shown = [str(cell) for cell in free[:20]]
    return ", ".join(shown + [MORE] if len(free) > 20 else shown)


def _rotate(state: State, seat: int, move: Rotate) -> tuple[State, list[Event]]:
    if state.phase != "rotate":
        raise IllegalMove("rotations come first in a turn; you have already started moving your llamas")
    if move.cell not in D.CELLS:
        raise IllegalMove("there is no field {cell}; the fields are 11-15, 21-26, ... 91-95", cell=move.cell)
    if move.cell in D.VILLAGES:
        raise IllegalMove("{cell} is a village, not a terrain tile", cell=move.cell)
    if not 0 <= move.steps <= 5:
        raise IllegalMove("a tile turns 0 to 5 sixths clockwise")
    cost = rotation_cost(state)
    sup = state.supply[seat]
    # the tile's own rules first, so that the refusal names the rule broken; then the price
    if move.cell in state.rotated:
        reason = said("tile {cell} was already turned this turn", cell=move.cell)
    elif move.cell in occupied(state):
        reason = said("a llama stands on tile {cell}, so the tile cannot be turned", cell=move.cell)
    elif move.cell in state.rocks:
        reason = said("tile {cell} carries your opponent's rock from their last turn", cell=move.cell)
    else:
        reason = None
    if reason is not None and cost and total(sup) < cost:  # no tile may turn: no tiles to turn listed
        raise IllegalMove(listed([reason, _too_dear(cost, total(sup), llama=False)], semicolons=True))
    if reason is not None:
        raise IllegalMove(
            said("{reason}; tiles you may turn: {tiles}", reason=reason, tiles=_turnable_words(state))
        )
    if cost == 0:
        if move.pay:
            raise IllegalMove("your first rotation is free; leave out the /colours part")
    else:
        _check_pay(sup, cost, move.pay, llama=False)
    new = _copy(state)
    code = new.tiles[move.cell]
    new.tiles[move.cell] = f"{code[0]}{(int(code[1]) + move.steps) % 6}"
    if cost:
        _pay(new.supply[seat], cost, move.pay)
    new.rotated.append(move.cell)
    _record(new, seat, move, [move.cell])
    turn = Said(STEP_WORDS[move.steps % 6])
    if cost:
        text = said(
            "{p0} turned tile {cell} {steps}, paying {cost}",
            p0=who(seat),
            cell=move.cell,
            steps=turn,
            cost=said_n(cost, "{n} resource", "{n} resources"),
        )
    else:
        text = said("{p0} turned tile {cell} {steps}", p0=who(seat), cell=move.cell, steps=turn)
    return new, [Event.told(text, kind="rotate")]


def _start_llamas(new: State) -> None:
    if new.phase == "rotate":
        new.phase = "llamas"
        new.rocks = list(new.rotated)


def _copy_of(new: State, lm: Llama) -> Llama:
    """The llama ``lm`` in ``new``, a copy of the state it was found in."""
    found = llama(new, lm.seat, lm.id)
    if found is None:
        raise ValueError(f"llama {lm.id} of seat {lm.seat} is missing from the copied state")
    return found


def _get_llama(state: State, seat: int, ident: int) -> Llama:
    lm = llama(state, seat, ident)
    if lm is None:
        ids = ", ".join(str(x.id) for x in own_llamas(state, seat))
        raise IllegalMove("you have no llama {llama}; your llamas are {llamas}", llama=ident, llamas=ids)
    if not can_act(state, lm):
        ready = ", ".join(map(str, acting(state, seat)))
        if lm.new and ready:
            raise IllegalMove(
                "llama {llama} was just bought; llamas that may still act: {ready}", llama=ident, ready=ready
            )
        if lm.new:
            raise IllegalMove(
                "llama {llama} was just bought; no llama may act any more; write end", llama=ident
            )
        if ready:
            raise IllegalMove(
                "llama {llama} has finished its actions this turn; llamas that may still act: {ready}",
                llama=ident,
                ready=ready,
            )
        raise IllegalMove(
            "llama {llama} has finished its actions this turn; no llama may act any more; write end",
            llama=ident,
        )
    return lm


def _switch_to(new: State, lm: Llama) -> None:
    if new.active is not None and new.active != lm.id:
        prev = llama(new, lm.seat, new.active)
        if prev is not None and prev.stage < 3:
            prev.stage = 3
    new.active = lm.id


def _move(state: State, seat: int, move: MoveLlama) -> tuple[State, list[Event]]:
    lm = _get_llama(state, seat, move.llama)
    if lm.stage != 0:
        raise IllegalMove(
            "llama {llama} has already moved or traded this turn; it cannot move again", llama=lm.id
        )
    dests = sorted(reachable(state.tiles, lm.cell, seat == 1))
    if move.to not in dests:
        terrain = TERRAIN_WORDS[1 if seat == 1 else 0]
        if not dests:
            raise IllegalMove(
                "llama {llama} on {cell} has no open path through {terrain}; it stays",
                llama=lm.id,
                cell=lm.cell,
                terrain=terrain,
            )
        raise IllegalMove(
            "llama {llama} cannot reach {cell} from {start} through {terrain}; it can reach {cells}",
            llama=lm.id,
            cell=move.to,
            start=lm.cell,
            terrain=terrain,
            cells=", ".join(map(str, dests)),
        )
    new = _copy(state)
    _start_llamas(new)
    nl = _copy_of(new, lm)
    _switch_to(new, nl)
    start = nl.cell
    nl.cell = move.to
    nl.stage = 1
    new.turn_routes.append(route(state.tiles, start, move.to, seat == 1))
    _record(new, seat, move, [start, move.to])
    if move.to in D.VILLAGES:
        text = said(
            "{p0} moved llama {llama} from {start} to village {cell} ({colour})",
            p0=who(seat),
            llama=lm.id,
            start=start,
            cell=move.to,
            colour=COLOUR_WORDS[D.VILLAGES[move.to]],
        )
    else:
        text = said(
            "{p0} moved llama {llama} from {start} to tile {cell}",
            p0=who(seat),
            llama=lm.id,
            start=start,
            cell=move.to,
        )
    return new, [Event.told(text, kind="move")]


def _sell(state: State, seat: int, move: Sell) -> tuple[State, list[Event]]:
    lm = _get_llama(state, seat, move.llama)
    if lm.stage >= 2:
        raise IllegalMove("llama {llama} has already sold this turn", llama=lm.id)
    if lm.stage == 0 and must_move(state, lm):
        raise IllegalMove("llama {llama} stands on a tile and must move first", llama=lm.id)
    problem = _sell_problem(state, lm)
    if problem:
        raise IllegalMove(problem)
    new = _copy(state)
    _start_llamas(new)
    nl = _copy_of(new, lm)
    _switch_to(new, nl)
    village = nl.cell
    demand, load = new.demands[village], nl.load
    if demand is None or load is None:  # refused by _sell_problem above
        raise IllegalMove(
            "llama {llama} has nothing to sell at village {village}", llama=lm.id, village=village
        )
    big, small = D.demand_colours(demand)
    gain = 2 if load == big else 1 if load == small else 0
    if gain:
        new.supply[seat][load] += gain
    new.used.append(demand)
    new.demands[village] = None
    nl.load = None
    nl.stage = 2
    _record(new, seat, move, [village])
    if gain:
        text = said_n(
            gain,
            "{p0} sold {load} at village {village} and gained {n} {load}",
            "{p0} sold {load} at village {village} and gained {n} {load}",
            p0=who(seat),
            load=COLOUR_WORDS[load],
            village=village,
        )
    else:
        text = said(
            "{p0} sold {load} at village {village}, which did not ask for it, and gained nothing",
            p0=who(seat),
            load=COLOUR_WORDS[load],
            village=village,
        )
    events = [Event.told(text, kind="sell")]
    if colours_held(new.supply[seat]) == len(D.COLOURS):
        new.phase = "over"
        new.winner = seat
        new.end_reason = f"{D.SEAT_NAMES[seat]} collected all seven colours"
        new.active = None
        events.append(Event.told(said("{p0} has all seven colours and wins", p0=who(seat)), kind="end"))
    return new, events


def _buy(state: State, seat: int, move: Buy) -> tuple[State, list[Event]]:
    lm = _get_llama(state, seat, move.llama)
    if lm.cell not in D.VILLAGES:
        raise IllegalMove(
            "llama {llama} is on tile {cell}; llamas are bought only in villages", llama=lm.id, cell=lm.cell
        )
    if lm.stage == 0 and must_move(state, lm):
        raise IllegalMove("llama {llama} stands on a tile and must move first", llama=lm.id)
    count = len(own_llamas(state, seat))
    if count >= D.MAX_LLAMAS:
        raise IllegalMove(
            said_n(
                D.MAX_LLAMAS,
                "you already have {n} llama, the most a player may own",
                "you already have {n} llamas, the most a player may own",
            )
        )
    _check_pay(state.supply[seat], D.LLAMA_PRICE, move.pay, llama=True)
    new = _copy(state)
    _start_llamas(new)
    nl = _copy_of(new, lm)
    _switch_to(new, nl)
    _pay(new.supply[seat], D.LLAMA_PRICE, move.pay)
    nl.stage = 3
    new.llamas.append(Llama(seat, count + 1, nl.cell, None, stage=3, new=True))
    _record(new, seat, move, [nl.cell])
    text = said(
        "{p0} bought llama {llama} at village {village}", p0=who(seat), llama=count + 1, village=nl.cell
    )
    return new, [Event.told(text, kind="buy")]


def _draw_demand(new: State, village: int) -> str | None:
    for attempt in range(2):
        for i, d in enumerate(new.bag):
            if D.demand_fits(d, village):
                return new.bag.pop(i)
        if attempt == 0 and new.used:
            new.bag.extend(new.used)
            new.used = []
            rng_for(new.seed, "recycle", new.recycles).shuffle(new.bag)
            new.recycles += 1
    return None


def _end(state: State, seat: int, move: End | None = None) -> tuple[State, list[Event]]:
    stuck = [lm.id for lm in own_llamas(state, seat) if must_move(state, lm)]
    if stuck:
        raise IllegalMove(
            said_n(
                len(stuck),
                "llama {llamas} stands on a tile and must move at least one tile (only llamas on villages may rest)",
                "llamas {llamas} stand on a tile and must move at least one tile (only llamas on villages may rest)",
                llamas=", ".join(map(str, stuck)),
            )
        )
    new = _copy(state)
    _start_llamas(new)
    _record(new, seat, End(), [])
    events: list[Event] = []
    recycled = new.recycles
    drawn: list[Said] = []
    for v in D.VILLAGE_ORDER:
        if new.demands[v] is None:
            new.demands[v] = fresh = _draw_demand(new, v)
            if fresh:
                big, small = D.demand_colours(fresh)
                drawn.append(
                    said(
                        "{village} ({colour}) wants {big} (big flag) and {small} (small flag)",
                        village=v,
                        colour=COLOUR_WORDS[D.VILLAGES[v]],
                        big=COLOUR_WORDS[big],
                        small=COLOUR_WORDS[small],
                    )
                )
    if new.recycles != recycled:
        events.append(Event.told(said("the used demands went back into the bag"), kind="recycle"))
    if drawn:
        events.append(Event.told(said("new demands: {demands}", demands=listed(drawn, True)), kind="refill"))
    loaded: list[Said] = []
    for lm in new.llamas:
        if lm.seat == seat and lm.load is None:
            lm.load = D.VILLAGES[lm.cell]
            loaded.append(
                said(
                    "llama {llama} takes {load} at {cell}",
                    llama=lm.id,
                    load=COLOUR_WORDS[lm.load],
                    cell=lm.cell,
                )
            )
        lm.stage = 0
        lm.new = False
    if loaded:
        events.append(
            Event.told(said("{p0} reloads: {loads}", p0=who(seat), loads=listed(loaded)), kind="reload")
        )
    new.active = None
    new.rotated = []
    new.prev_log = new.turn_log
    new.prev_cells = new.turn_cells
    new.turn_log = []
    new.turn_cells = []
    new.prev_routes = new.turn_routes
    new.turn_routes = []
    events.insert(0, Event.told(said("{p0} ended the turn", p0=who(seat)), kind="end_turn"))
    limit = new.config.max_turns
    if limit and new.turn_number >= limit:
        new.phase = "over"
        new.end_reason = f"the turn limit ({limit}) was reached"
        events.append(
            Event.told(
                said_n(
                    limit,
                    "the turn limit of {n} turn was reached; the game ends",
                    "the turn limit of {n} turns was reached; the game ends",
                ),
                kind="end",
            )
        )
        return new, events
    new.turn = 1 - seat
    new.turn_number += 1
    new.phase = "rotate"
    return new, events


# --------------------------------------------------------------------------- outcome


def scores_now(state: State) -> tuple[float, ...]:
    """Each seat's colours held now (the score; for the results card's chart)."""
    return tuple(float(colours_held(state.supply[s])) for s in range(2))


def outcome(state: State) -> Outcome | None:
    if state.phase != "over":
        return None
    colours = {s: colours_held(state.supply[s]) for s in range(2)}
    totals = {s: total(state.supply[s]) for s in range(2)}
    if state.winner is not None:
        loser = 1 - state.winner
        ranking: tuple[tuple[int, ...], ...] = ((state.winner,), (loser,))
        return Outcome.told(
            tuple(float(colours[s]) for s in range(2)),
            ranking,
            said(
                "{p0}, {side}, collected all seven colours",
                p0=who(state.winner),
                side=SIDE_WORDS[state.winner],
            ),
            None,
            {"colours": colours, "resources": totals},
        )
    ranking, tiebreak = _rank_at_limit(colours, totals)
    return Outcome.told(
        tuple(float(colours[s]) for s in range(2)),
        ranking,
        said("the turn limit ({limit}) was reached", limit=state.config.max_turns),
        None if tiebreak is None else TIEBREAK_WORDS[tiebreak],
        {"colours": colours, "resources": totals},
    )


def _rank_at_limit(
    colours: dict[int, int], totals: dict[int, int]
) -> tuple[tuple[tuple[int, ...], ...], str | None]:
    """The places when the turn limit ends the game: most colours, then most resources."""
    return rank_by(range(2), [("colours", colours), ("resources", totals)])


def final_ranking(view: View) -> tuple[tuple[int, ...], ...]:
    """The places :func:`outcome` gives, from what a view of the ended game shows (best first;
    seats tied on colours and resources share a place)."""
    if view.winner is not None:
        return ((view.winner,), (1 - view.winner,))
    colours = dict(enumerate(view.colours))
    totals = {s: sum(n for _, n in view.supply[s]) for s in range(view.players)}
    return _rank_at_limit(colours, totals)[0]


# --------------------------------------------------------------------------- serialisation


def to_dict(state: State) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "config": {
            "players": state.config.players,
            "board": state.config.board.value,
            "max_turns": state.config.max_turns,
        },
        "seed": state.seed,
        "tiles": {str(c): t for c, t in sorted(state.tiles.items())},
        "demands": {str(v): d for v, d in sorted(state.demands.items())},
        "bag": list(state.bag),
        "used": list(state.used),
        "llamas": [
            {"seat": lm.seat, "id": lm.id, "cell": lm.cell, "load": lm.load, "stage": lm.stage, "new": lm.new}
            for lm in state.llamas
        ],
        "supply": [dict(s) for s in state.supply],
        "rocks": list(state.rocks),
        "rotated": list(state.rotated),
        "phase": state.phase,
        "turn": state.turn,
        "turn_number": state.turn_number,
        "active": state.active,
        "recycles": state.recycles,
        "winner": state.winner,
        "end_reason": state.end_reason,
        "last": state.last,
        "last_seat": state.last_seat,
        "turn_log": list(state.turn_log),
        "turn_cells": list(state.turn_cells),
        "prev_log": list(state.prev_log),
        "prev_cells": list(state.prev_cells),
        "moves": state.moves,
        "turn_routes": [list(r) for r in state.turn_routes],
        "prev_routes": [list(r) for r in state.prev_routes],
    }


def from_dict(data: dict[str, Any]) -> State:
    if data.get("schema") != SCHEMA:
        raise SetupError("unsupported P'achakuna state schema {schema}", schema=repr(data.get("schema")))
    cfg = data["config"]
    config = Config(players=cfg["players"], board=Board(cfg["board"]), max_turns=cfg["max_turns"])
    return State(
        config=config,
        seed=data["seed"],
        tiles={int(c): t for c, t in data["tiles"].items()},
        demands={int(v): d for v, d in data["demands"].items()},
        bag=list(data["bag"]),
        used=list(data["used"]),
        llamas=[Llama(**lm) for lm in data["llamas"]],
        supply=[dict(s) for s in data["supply"]],
        rocks=list(data["rocks"]),
        rotated=list(data["rotated"]),
        phase=data["phase"],
        turn=data["turn"],
        turn_number=data["turn_number"],
        active=data["active"],
        recycles=data["recycles"],
        winner=data["winner"],
        end_reason=data["end_reason"],
        last=data["last"],
        last_seat=data["last_seat"],
        turn_log=list(data["turn_log"]),
        turn_cells=list(data["turn_cells"]),
        prev_log=list(data["prev_log"]),
        prev_cells=list(data["prev_cells"]),
        moves=data["moves"],
        turn_routes=[list(r) for r in data.get("turn_routes", [])],
        prev_routes=[list(r) for r in data.get("prev_routes", [])],
    )


# --------------------------------------------------------------------------- views


@dataclass(frozen=True)
class LlamaView:
    seat: int
    id: int
    cell: int
    load: str | None
    stage: int
    new: bool


@dataclass(frozen=True)
class View:
    """What a seat (or a spectator, ``seat`` None) sees: everything but the bag's order."""

    seat: int | None
    players: int
    board: str
    tiles: tuple[tuple[int, str], ...]
    villages: tuple[tuple[int, str], ...]
    demands: tuple[tuple[int, str | None], ...]
    llamas: tuple[LlamaView, ...]
    supply: tuple[tuple[tuple[str, int], ...], ...]
    colours: tuple[int, ...]
    scores: tuple[int, ...]  # the colours each seat holds: the score, as the outcome counts it
    loose: tuple[int, ...]
    rocks: tuple[int, ...]
    rotated: tuple[int, ...]
    rotation_cost: int
    phase: str
    turn: int
    turn_number: int
    max_turns: int
    active: int | None
    bag_count: int
    used: tuple[str, ...]
    winner: int | None
    end_reason: str | None
    last: str | None
    last_seat: int | None
    turn_log: tuple[str, ...]
    turn_cells: tuple[int, ...]
    prev_log: tuple[str, ...]
    prev_cells: tuple[int, ...]
    routes: tuple[tuple[int, ...], ...]  # the llamas' roads this turn (the previous turn's before a move)


_VILLAGE_ITEMS = tuple(sorted(D.VILLAGES.items()))


def view_for(state: State, seat: int | None) -> View:
    held = tuple(colours_held(s) for s in state.supply)  # the colours held: the score too
    return View(
        seat=seat,
        players=state.config.players,
        board=state.config.board.value,
        tiles=tuple(sorted(state.tiles.items())),
        villages=_VILLAGE_ITEMS,
        demands=tuple(sorted(state.demands.items())),
        llamas=tuple(LlamaView(lm.seat, lm.id, lm.cell, lm.load, lm.stage, lm.new) for lm in state.llamas),
        supply=tuple(tuple((k, s[k]) for k in D.SUPPLY_KINDS) for s in state.supply),
        colours=held,
        scores=held,
        loose=tuple(loose(s) for s in state.supply),
        rocks=tuple(state.rocks),
        rotated=tuple(state.rotated),
        rotation_cost=rotation_cost(state) if state.phase == "rotate" else 0,
        phase=state.phase,
        turn=state.turn,
        turn_number=state.turn_number,
        max_turns=state.config.max_turns,
        active=state.active,
        bag_count=len(state.bag),
        used=tuple(state.used),
        winner=state.winner,
        end_reason=state.end_reason,
        last=state.last,
        last_seat=state.last_seat,
        turn_log=tuple(state.turn_log),
        turn_cells=tuple(state.turn_cells),
        prev_log=tuple(state.prev_log),
        prev_cells=tuple(state.prev_cells),
        routes=tuple(tuple(r) for r in (state.turn_routes if state.turn_log else state.prev_routes)),
    )


# --------------------------------------------------------------------------- what is public


def move_privacy(state: State, seat: int, move: Move) -> Privacy:
    """Every P'achakuna move is public (only the bag's order is hidden, and no move shows it)."""
    return PUBLIC


def undoable(state: State, seat: int, move: Move) -> bool:
    """Whether ``move``, played by ``seat`` from ``state``, could be taken back by consent: it
    involves no chance (P'achakuna hides nothing but the order of the demand bag).

    Not undoable: a move after which demands were drawn from the bag or the used demands were
    shuffled back into it (the end of a turn that refills them), and a move that ends the game
    (a winning sale, the last turn's end).  Undoable: turning tiles, moving a llama, selling
    (the sold demand is laid aside face up; nothing is drawn until the turn ends), buying, and
    an end that leaves every village its demand.  Only the bag is compared: a sale changes the
    demands on the board and the used ones, but all of them are public.
    """
    if isinstance(move, str):
        move = parse_move(move)
    after, _ = apply_move(state, seat, move)
    return (
        after.bag == state.bag
        and after.recycles == state.recycles
        and after.winner is None
        and after.phase != "over"
    )


def readable(state: State, privacy: Privacy, reader: int | None) -> bool:
    return can_read(privacy, reader, over=state.phase == "over")


def loose_words(n: int) -> Said:
    """A count of loose resources, agreeing with it (``1 loose``; in Spanish ``1 suelto``)."""
    return said_n(n, "{n} loose", "{n} loose")


def summary(view: View) -> str | Said:
    """The seat's resources and llamas, in two lines of words ("" for a spectator)."""
    if view.seat is None:
        return ""
    seat = view.seat
    pieces = [
        said("{colour} {count}", colour=COLOUR_WORDS[kind], count=n) for kind, n in view.supply[seat] if n
    ]
    counts = {"colours": view.colours[seat], "loose": loose_words(view.loose[seat])}
    if pieces:  # all resources held, then the loose ones, as the board in words tells every seat
        total = sum(n for _, n in view.supply[seat])
        held = said(
            "You hold: {pieces} ({colours} of 7 colours, {resources}, {loose})",
            pieces=listed(pieces),
            resources=said_n(total, "{n} resource", "{n} resources"),
            **counts,
        )
    else:
        held = said("You hold: nothing ({colours} of 7 colours, {loose})", **counts)
    mine = [
        said("llama {llama} on {cell} carrying {load}", llama=lm.id, cell=lm.cell, load=COLOUR_WORDS[lm.load])
        if lm.load
        else said("llama {llama} on {cell}", llama=lm.id, cell=lm.cell)
        for lm in view.llamas
        if lm.seat == seat
    ]
    llamas = said("Your llamas: {llamas}", llamas=listed(mine)) if mine else said("Your llamas: none")
    return said("{holdings}\n{llamas}", holdings=held, llamas=llamas)


_HANDLERS: dict[type, Callable[[State, int, Any], tuple[State, list[Event]]]] = {
    Rotate: _rotate,
    MoveLlama: _move,
    Sell: _sell,
    Buy: _buy,
    End: _end,
}
