"""The rules of Guanga: configuration, state, moves and their effects."""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from engines.core import (
    AT_END,
    N_,
    PUBLIC,
    UNKNOWN,
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
    quoted,
    rank_by,
    rng_for,
    said,
    said_n,
    term,
)

from . import data as D
from . import terms as W
from .shapes import (
    CELL_INDEX,
    CELL_NAMES,
    CELLS,
    LINE_MASKS,
    NEIGHBOURS,
    PLACEMENT_CELLS,
    PLACEMENT_SETS,
    PLACEMENTS,
    SHAPE_SIZE,
    cells_of,
    mask_of,
    parse_cells,
)

TITLE = "Guanga: Tejidos Andinos"
MIN_PLAYERS = 1
MAX_PLAYERS = 4
SCHEMA = 1

CARD = {c[0]: c for c in D.CARDS}
ORDER = {o[0]: o for o in D.ORDERS}
CENTRE = D.CENTRE


class Mode(enum.Enum):
    BEGINNER = "beginner"
    APPRENTICE = "apprentice"
    MASTER = "master"
    ARTISAN = "artisan"


class Stuck(enum.Enum):
    """What happens, with 2 to 4 players, when a player cannot place the two basket patches at
    the start of their turn: the round is completed (everyone has played as many turns), or
    the game ends at once (as the solo version does)."""

    FINISH_ROUND = "finish_round"
    END_NOW = "end_now"


@dataclass(frozen=True)
class Config:
    players: int = 2
    mode: Mode = field(
        default=Mode.BEGINNER,
        metadata={
            "help": N_(
                "beginner (side A, free placement), apprentice (orders, shells, paired placement), "
                "master (side B, shells from lines, blankets), artisan (master + everything joined to C3)"
            ),
            # the four modes are four games: the lobby, the status and a league say which one
            "always_said": True,
        },
    )
    stoppers: bool = field(
        default=False,
        metadata={
            "help": N_("stoppers variant (Beginner and Apprentice only): 2 blockers per player"),
            "choices": (False, True),
        },
    )
    cannot_place: Stuck = field(
        default=Stuck.FINISH_ROUND,
        metadata={
            "help": N_(
                "2-4 players: when a player cannot place the two basket patches at the start of "
                "their turn, finish_round lets the rest of the round play and then ends the game, "
                "end_now ends it at once (the solo version always ends at once)"
            )
        },
    )

    def validate(self) -> None:
        if not isinstance(self.players, int) or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise SetupError(
                "Guanga takes {least} to {most} players, not {players}",
                least=MIN_PLAYERS,
                most=MAX_PLAYERS,
                players=self.players,
            )
        if not isinstance(self.mode, Mode):
            raise SetupError("{option mode} must be one of beginner, apprentice, master, artisan")
        if self.stoppers and self.mode not in (Mode.BEGINNER, Mode.APPRENTICE):
            raise SetupError(
                "the {option stoppers} variant is only played in the modes {choice guanga new mode beginner} "
                "and {choice guanga new mode apprentice}"
            )
        if not isinstance(self.cannot_place, Stuck):
            raise SetupError("{option cannot_place} must be finish_round or end_now")
        if self.players == 1 and self.cannot_place is not Stuck.FINISH_ROUND:
            raise SetupError(
                "{option cannot_place} is an option for 2 to 4 players: the solo version always ends at "
                "once when the two basket patches cannot be placed"
            )


# --------------------------------------------------------------------------- mode hooks


def _m(config: Config) -> str:
    return config.mode.value


def uses_shells(config: Config) -> bool:
    return config.mode is not Mode.BEGINNER


def uses_orders(config: Config) -> bool:
    return config.mode is not Mode.BEGINNER and config.players > 1


def paired_placement(config: Config) -> bool:
    return config.mode is not Mode.BEGINNER


def connected_rule(config: Config) -> bool:
    return config.mode is Mode.ARTISAN


def shells_from_lines(config: Config) -> bool:
    return config.mode in (Mode.MASTER, Mode.ARTISAN)


def recycles_bag(config: Config) -> bool:
    return config.mode is not Mode.BEGINNER


def side(config: Config) -> str:
    return "B" if config.mode in (Mode.MASTER, Mode.ARTISAN) else "A"


def buy_cost(config: Config) -> int:
    return D.SHELL_BUY_COST.get(_m(config), 0)


def patches_per_kind(config: Config) -> int:
    if config.players == 1:
        return D.SOLO_PATCHES_PER_KIND["beginner" if config.mode is Mode.BEGINNER else "other"]
    return D.PATCHES_PER_KIND


def marker_totals(config: Config) -> dict[str, int]:
    per = D.SOLO_MARKERS_PER_ATTRIBUTE if config.players == 1 else D.MARKERS_PER_ATTRIBUTE
    out = {name: per for name in D.COLOURS + D.SYMBOLS}
    out["grey"] = D.GREY_MARKERS[config.players]
    return out


def colour_of(kind: int) -> str:
    return D.COLOURS[kind // 5]


def symbol_of(kind: int) -> str:
    return D.SYMBOLS[kind % 5]


def patch_name(kind: int) -> str:
    return f"{colour_of(kind)} {symbol_of(kind)}"


def patch_term(kind: int) -> Said:
    """The patch of ``kind`` as a word of the game, for sentences."""
    return W.PATCHES[patch_name(kind)]


def seat_word(seat: int) -> str:
    """A seat as sentences write it, for the table to name: ``{p0}``."""
    return f"{{p{seat}}}"


def has_attr(kind: int, attr: str) -> bool:
    return colour_of(kind) == attr or symbol_of(kind) == attr


def differ(a: int, b: int) -> bool:
    return a // 5 != b // 5 and a % 5 != b % 5


# --------------------------------------------------------------------------- moves


@dataclass(frozen=True)
class Keep:
    """Keep one of the two dealt orders (the other leaves the game)."""

    order: str

    def __str__(self) -> str:
        return f"keep {self.order}"


@dataclass(frozen=True)
class Place:
    """Take the patch in basket slot ``slot`` (1-8) and put it on ``cell``."""

    slot: int
    cell: int

    def __str__(self) -> str:
        return f"P{self.slot}{CELL_NAMES[self.cell]}"


@dataclass(frozen=True)
class Buy:
    """Spend shells to take basket slot ``slot`` and put it on ``cell``."""

    slot: int
    cell: int

    def __str__(self) -> str:
        return f"S{self.slot}{CELL_NAMES[self.cell]}"


@dataclass(frozen=True)
class Refresh:
    """Spend a shell to replace every patch in the basket."""

    def __str__(self) -> str:
        return "refresh"


@dataclass(frozen=True)
class Stopper:
    """Put one of your stoppers on seat ``target``'s guanga at ``cell``."""

    target: int
    cell: int

    def __str__(self) -> str:
        return f"T{self.target + 1}{CELL_NAMES[self.cell]}"


@dataclass(frozen=True)
class Claim:
    """Claim market card ``card`` with ``attr`` (its colour or symbol) shown on ``cells``."""

    card: str
    attr: str
    cells: tuple[int, ...]

    def __str__(self) -> str:
        return f"C {self.card} {self.attr} {''.join(CELL_NAMES[c] for c in self.cells)}"


@dataclass(frozen=True)
class Return:
    """Return the top patches of two cells of the claimed shape to the bag."""

    cells: tuple[int, int]

    def __str__(self) -> str:
        return f"R {''.join(CELL_NAMES[c] for c in self.cells)}"


@dataclass(frozen=True)
class Done:
    """End the turn (skipping a claim or the blanket's extra patch)."""

    def __str__(self) -> str:
        return "done"


Move = Keep | Place | Buy | Refresh | Stopper | Claim | Return | Done

# Frozen move values are immutable: build the common ones once and reuse them.
_PLACE = tuple(tuple(Place(a + 1, c) for c in range(CELLS)) for a in range(D.BASKET_SIZE))
_BUY = tuple(tuple(Buy(a + 1, c) for c in range(CELLS)) for a in range(D.BASKET_SIZE))
_STOPPER = tuple(tuple(Stopper(g, c) for c in range(CELLS)) for g in range(MAX_PLAYERS))

NOTATION = said(
    "moves look like: P3B2 (basket slot 3 to B2), S3B2 (buy slot 3 with shells), refresh, "
    "T2C4 (stopper on player 2's C4), C A03 yellow B2C3D4 (claim), R B2D4 (return two), "
    "keep O3, done"
)

_SLOT_CELL = re.compile(r"^([PST])\s*([1-8])\s*[- >]*\s*([A-E])\s*([1-5])$")
_SLOT_CELL_LOOSE = re.compile(r"^([PST])\s*\d+\s*[- >]*\s*[A-Z]\s*\d+$")
_CLAIM = re.compile(r"^C\s*([AGMB]\s*\d{1,2})\s+([A-Z]+)\s+(.*)$")
_ATTRS = {a.upper(): a for a in D.COLOURS + D.SYMBOLS}


def parse_move(text: str) -> Move:
    raw = text if isinstance(text, str) else ""
    t = re.sub(r"\s+", " ", raw.strip()).upper()
    if not t:
        raise MalformedMove("an empty move is not a Guanga move; {notation}", notation=NOTATION)
    if t in ("DONE", "PASS", "END"):
        return Done()
    if t in ("REFRESH", "X"):
        return Refresh()
    m = re.match(r"^(?:KEEP\s*)?O\s*(\d{1,2})$", t)
    if m:
        oid = f"O{int(m.group(1))}"
        if oid not in ORDER:
            raise MalformedMove("there is no order {order}; orders are O1 to O10, e.g. keep O3", order=oid)
        return Keep(oid)
    m = _SLOT_CELL.match(t)
    if m:
        kind, num, cell = m.group(1), int(m.group(2)), CELL_INDEX[m.group(3) + m.group(4)]
        if kind == "P":
            return Place(num, cell)
        if kind == "S":
            return Buy(num, cell)
        if not 1 <= num <= D.SIZE - 1:
            raise MalformedMove("a stopper names a player 1-4 and a cell, e.g. T2C4")
        return Stopper(num - 1, cell)
    m = re.match(r"^P\s*([1-8])\s*([A-E][1-5])\s*,?\s*P?\s*([1-8])\s*([A-E][1-5])$", t)
    if m:
        raise MalformedMove(
            "place one patch per move: first {first}, then {second}",
            first=f"P{m.group(1)}{m.group(2)}",
            second=f"P{m.group(3)}{m.group(4)}",
        )
    m = _SLOT_CELL_LOOSE.match(t)
    if m:  # the shape of a take, a buy or a stopper, with a slot, player or cell out of range
        if m.group(1) == "T":
            raise MalformedMove(
                "{text}: a stopper names a player 1-4 and a cell A1 to E5 (rows A-E, columns 1-5), like T2C4",
                text=quoted(raw.strip()),
            )
        raise MalformedMove(
            "{text}: basket slots are 1 to 8 and cells A1 to E5 (rows A-E, columns 1-5), like {example}",
            text=quoted(raw.strip()),
            example=f"{m.group(1)}3B2",
        )
    m = _CLAIM.match(t)
    if m:
        card = m.group(1).replace(" ", "")
        card = f"{card[0]}{int(card[1:]):02d}"
        if card not in CARD:
            raise MalformedMove(
                "there is no market card {card}; cards are A01-A10, G01-G10, M01-M10, "
                "B01-B10, e.g. C A03 yellow B2C3D4",
                card=card,
            )
        word = m.group(2)
        attr = _ATTRS.get(word)
        if word in ("COL", "COLOUR", "COLOR"):
            attr = CARD[card][6]
        elif word in ("SYM", "SYMBOL"):
            attr = CARD[card][7]
        if attr is None:
            raise MalformedMove(
                "{word} is not a colour or symbol; write the card's colour or "
                "symbol (or col/sym), e.g. C A03 yellow B2C3D4",
                word=m.group(2).lower(),
            )
        rest = m.group(3)
        cells = parse_cells(rest)
        if not cells or re.sub(r"[A-E][1-5]|[ ,;]", "", rest):
            raise MalformedMove(
                "list the cells of the shape after the colour or symbol, e.g. C A03 yellow B2C3D4"
            )
        if len(set(cells)) != len(cells):
            raise MalformedMove("a cell is listed twice in the claim")
        return Claim(card, attr, tuple(sorted(cells)))
    m = re.match(r"^(?:RETURN|RET|R)\s*(.*)$", t)
    if m:
        rest = m.group(1)
        cells = parse_cells(rest)
        if len(cells) != 2 or re.sub(r"[A-E][1-5]|[ ,;]", "", rest) or cells[0] == cells[1]:
            raise MalformedMove("return exactly two different cells of the claimed shape, e.g. R B2D4")
        a, b = sorted(cells)
        return Return((a, b))
    raise MalformedMove(
        "{text} is not a Guanga move; {notation}", text=quoted(raw.strip()), notation=NOTATION
    )


# --------------------------------------------------------------------------- state


@dataclass
class State:
    config: Config
    seed: int
    pile: list[int]  # face down; the last element is the top
    bag: list[int]
    basket: list[int | None]
    market: list[str | None]
    market_levels: list[str]
    decks: dict[str, list[str]]  # face down; the last element is the top
    guangas: list[list[list[int]]]  # seat -> cell -> stack (bottom first)
    stoppers: list[list[int]]  # cells with a stopper, per guanga
    stoppers_left: list[int]
    claimed: list[list[str]]
    shells: list[int]
    shell_patches: list[list[int]]  # Master/Artisan: the basket patches turned into shells
    shells_spent: int
    markers: dict[str, int]  # face-up markers
    orders_dealt: list[list[str]]
    orders: list[str | None]
    tile: int | None = None
    turn: int = 0
    phase: str = "place1"
    placed: list[int] = field(default_factory=list)  # cells of this turn's take
    first_kind: int | None = None
    pending: dict[str, Any] | None = None
    claimed_this_turn: bool = False
    end_triggered: bool = False
    # the seat whose turn began with basket patches that could not be placed, when that (not the
    # workshop) triggered the end of a game of 2-4 (cannot_place finish_round)
    stuck: int | None = None
    finished: bool = False
    end_reason: str = ""
    end_said: Said | None = None  # end_reason kept for translation
    recycles: int = 0
    turns: int = 0
    last: str | None = None
    last_seat: int | None = None
    # [seat, cell] touched by this turn's moves (the previous turn's until this turn's first move)
    highlight: list[list[int]] = field(default_factory=list)
    lit_slot: int | None = None  # the market slot of the highlighted turn's claim
    fresh_turn: bool = False  # the next move starts the highlight afresh

    @property
    def n(self) -> int:
        return self.config.players


def _clone(s: State) -> State:
    return State(
        config=s.config,
        seed=s.seed,
        pile=list(s.pile),
        bag=list(s.bag),
        basket=list(s.basket),
        market=list(s.market),
        market_levels=list(s.market_levels),
        decks={k: list(v) for k, v in s.decks.items()},
        guangas=[[list(st) for st in g] for g in s.guangas],
        stoppers=[list(x) for x in s.stoppers],
        stoppers_left=list(s.stoppers_left),
        claimed=[list(x) for x in s.claimed],
        shells=list(s.shells),
        shell_patches=[list(x) for x in s.shell_patches],
        shells_spent=s.shells_spent,
        markers=dict(s.markers),
        orders_dealt=[list(x) for x in s.orders_dealt],
        orders=list(s.orders),
        tile=s.tile,
        turn=s.turn,
        phase=s.phase,
        placed=list(s.placed),
        first_kind=s.first_kind,
        pending=None if s.pending is None else {**s.pending, "cells": list(s.pending["cells"])},
        claimed_this_turn=s.claimed_this_turn,
        end_triggered=s.end_triggered,
        stuck=s.stuck,
        finished=s.finished,
        end_reason=s.end_reason,
        end_said=s.end_said,
        recycles=s.recycles,
        turns=s.turns,
        last=s.last,
        last_seat=s.last_seat,
        highlight=[list(x) for x in s.highlight],
        lit_slot=s.lit_slot,
        fresh_turn=s.fresh_turn,
    )


# --------------------------------------------------------------------------- supply


def _draw(s: State) -> int | None:
    if not s.pile and s.bag and recycles_bag(s.config):
        bag = sorted(s.bag)
        rng_for(s.seed, "recycle", s.recycles).shuffle(bag)
        s.recycles += 1
        s.pile = bag
        s.bag = []
    return s.pile.pop() if s.pile else None


def _refill_basket(s: State) -> bool:
    """Fill the empty basket slots from the pile; False if it could not be filled."""
    for i in range(D.BASKET_SIZE):
        if s.basket[i] is None:
            s.basket[i] = _draw(s)
            if s.basket[i] is None:
                return False
    return True


def new_game(config: Config, seats: int, seed: int) -> State:
    if not isinstance(config, Config):
        raise SetupError("new_game needs a guanga Config")
    config.validate()
    if seats != config.players:
        raise SetupError(
            said_n(
                seats,
                "the config is for {players} but {n} seat were given",
                "the config is for {players} but {n} seats were given",
                players=said_n(config.players, "{n} player", "{n} players"),
            )
        )
    n = config.players
    per = patches_per_kind(config)
    pile = [k for k in range(D.KINDS) for _ in range(per)]
    rng_for(seed, "patches").shuffle(pile)
    layout = D.MARKET_LAYOUT[_m(config)]
    decks: dict[str, list[str]] = {}
    market: list[str | None] = []
    levels: list[str] = []
    for level, count in layout:
        deck = [c[0] for c in D.CARDS if c[0][0] == level]
        rng_for(seed, "market", level).shuffle(deck)
        for _ in range(count):
            market.append(deck.pop())
            levels.append(level)
        decks[level] = deck
    orders_dealt: list[list[str]] = [[] for _ in range(n)]
    if uses_orders(config):
        odeck = [o[0] for o in D.ORDERS]
        rng_for(seed, "orders").shuffle(odeck)
        for _ in range(D.ORDERS_DEALT):
            for seat in range(n):
                orders_dealt[seat].append(odeck.pop())
    start_shells = D.SHELLS_AT_START[_m(config)]
    s = State(
        config=config,
        seed=seed,
        pile=pile,
        bag=[],
        basket=[None] * D.BASKET_SIZE,
        market=market,
        market_levels=levels,
        decks=decks,
        guangas=[[[] for _ in range(CELLS)] for _ in range(n)],
        stoppers=[[] for _ in range(n)],
        stoppers_left=[D.STOPPERS_PER_PLAYER if config.stoppers else 0 for _ in range(n)],
        claimed=[[] for _ in range(n)],
        shells=[start_shells] * n,
        shell_patches=[[] for _ in range(n)],
        shells_spent=0,
        markers=marker_totals(config),
        orders_dealt=orders_dealt,
        orders=[None] * n,
    )
    _refill_basket(s)
    # Mother patches: each player takes a patch of their colour from the basket (refilled at
    # once); with none there, the first one found going down the pile.
    for seat in range(n):
        _take_mother(s, seat)
    if uses_orders(config):
        s.phase = "order"
    else:
        _start_turn(s, 0, [])
    return s


def _take_mother(s: State, seat: int) -> None:
    """Put the seat's mother patch (a patch of its colour) on C3: from the basket if there is one
    (the basket is refilled at once), else the topmost one of the pile."""
    found = next(((i, k) for i, k in enumerate(s.basket) if k is not None and k // 5 == seat), None)
    if found is not None:
        slot, kind = found
        s.basket[slot] = None
        _refill_basket(s)
    else:
        idx = max(i for i, k in enumerate(s.pile) if k // 5 == seat)
        kind = s.pile.pop(idx)
    s.guangas[seat][CENTRE].append(kind)


# --------------------------------------------------------------------------- queries


def tops(s: State, seat: int) -> list[int | None]:
    return [st[-1] if st else None for st in s.guangas[seat]]


def occupied_mask(s: State, seat: int) -> int:
    return mask_of(i for i, st in enumerate(s.guangas[seat]) if st)


def attr_masks(s: State, seat: int) -> dict[str, int]:
    """For every colour and symbol, the cells whose top patch shows it (stopper cells excluded)."""
    out = dict.fromkeys(D.COLOURS + D.SYMBOLS, 0)
    stop = s.stoppers[seat]
    for i, st in enumerate(s.guangas[seat]):
        if st and i not in stop:
            k = st[-1]
            out[D.COLOURS[k // 5]] |= 1 << i
            out[D.SYMBOLS[k % 5]] |= 1 << i
    return out


def attr_mask(s: State, seat: int, attr: str) -> int:
    return attr_masks(s, seat)[attr]


def _near_mask(occ: int) -> int:
    """Occupied cells and their orthogonal neighbours."""
    m = occ
    for i in range(CELLS):
        if occ >> i & 1:
            for j in NEIGHBOURS[i]:
                m |= 1 << j
    return m


def joined_to_centre(occ: int) -> int:
    """The occupied cells (a bit mask) that join C3 orthogonally through occupied cells."""
    if not occ >> CENTRE & 1:
        return 0
    seen = 1 << CENTRE
    todo = [CENTRE]
    while todo:
        i = todo.pop()
        for j in NEIGHBOURS[i]:
            if occ >> j & 1 and not seen >> j & 1:
                seen |= 1 << j
                todo.append(j)
    return seen


def _connected(occ: int) -> bool:
    """Whether every occupied cell joins C3 orthogonally through occupied cells."""
    return joined_to_centre(occ) == occ


FULL_MASK = (1 << CELLS) - 1
NB_MASK = tuple(mask_of(NEIGHBOURS[i]) for i in range(CELLS))
DIFFER = tuple(tuple(differ(a, b) for b in range(D.KINDS)) for a in range(D.KINDS))
_ALL_CELLS = tuple(range(CELLS))


@lru_cache(maxsize=8192)
def _cells(mask: int) -> tuple[int, ...]:
    return _ALL_CELLS if mask == FULL_MASK else cells_of(mask)


def _free_mask(s: State, seat: int) -> int:
    m = FULL_MASK
    for c in s.stoppers[seat]:
        m &= ~(1 << c)
    return m


def single_place_cells(s: State, seat: int) -> tuple[int, ...]:
    """Cells where one extra patch (bought or from a blanket) may go."""
    free = _free_mask(s, seat)
    if connected_rule(s.config):
        free &= _near_mask(occupied_mask(s, seat))
    return _cells(free)


def place_parts(s: State, seat: int) -> tuple[list[int], tuple[int, ...]]:
    """The basket slots (0-7) and the cells legal for the current take step; any slot of the
    first list may go on any cell of the second."""
    basket = s.basket
    slots = [i for i, k in enumerate(basket) if k is not None]
    if s.phase == "extra":
        return slots, single_place_cells(s, seat)
    free = _free_mask(s, seat)
    if not paired_placement(s.config):
        if s.phase == "place1" and len(slots) < 2:
            return [], ()
        return slots, _cells(free)
    if s.phase == "place2":
        row = DIFFER[_first_kind(s)]
        good = [b for b in slots if row[_basket_kind(s, b)]]
        cells = NB_MASK[s.placed[0]] & free
        if connected_rule(s.config):
            occ = occupied_mask(s, seat)
            cells = mask_of(y for y in cells_of(cells) if _connected(occ | 1 << y))
        return good, _cells(cells)
    # place1: the first patch must leave a legal second one
    good_slots = [a for a in slots if any(DIFFER[_basket_kind(s, a)][_basket_kind(s, b)] for b in slots)]
    if not good_slots:
        return [], ()
    if connected_rule(s.config):
        near = _near_mask(occupied_mask(s, seat))
        # x itself near the weave, or x next to a free cell that is near it
        first = free & (near | mask_of(x for x in range(CELLS) if NB_MASK[x] & free & near))
        first = mask_of(x for x in cells_of(first) if NB_MASK[x] & free)
    elif free == FULL_MASK:
        first = FULL_MASK
    else:
        first = mask_of(x for x in range(CELLS) if free >> x & 1 and NB_MASK[x] & free)
    return good_slots, _cells(first)


def marker_for(s: State, attr: str) -> str | None:
    """The workshop marker a claim with ``attr`` would flip, or None if none is available."""
    if s.markers.get(attr, 0) > 0:
        return attr
    if attr in D.COLOURS and s.markers.get("grey", 0) > 0 and all(s.markers[c] == 0 for c in D.COLOURS):
        return "grey"
    return None


def claim_options(s: State, seat: int, first: bool = False) -> list[Claim]:
    """Every claim the seat could make now (only the first one found when ``first``)."""
    out: list[Claim] = []
    masks = attr_masks(s, seat)
    for cid in s.market:
        if cid is None:
            continue
        card = CARD[cid]
        for attr in (card[6], card[7]):
            mask = masks[attr]
            if mask.bit_count() < SHAPE_SIZE[cid] or marker_for(s, attr) is None:
                continue
            inv = ~mask
            for pl in PLACEMENTS[cid]:
                if not pl & inv:
                    out.append(Claim(cid, attr, PLACEMENT_CELLS[pl]))
                    if first:
                        return out
    return out


def return_options(s: State, seat: int) -> list[Return]:
    cells = _pending(s)["cells"]
    g = s.guangas[seat]
    out: list[Return] = []
    for i, a in enumerate(cells):
        for b in cells[i + 1 :]:
            if connected_rule(s.config) and CENTRE in (a, b) and len(g[CENTRE]) == 1:
                continue
            out.append(Return((a, b)))
    return out


def stopper_options(s: State, seat: int) -> list[Stopper]:
    if not s.config.stoppers or s.stoppers_left[seat] <= 0:
        return []
    out: list[Stopper] = []
    for g in range(s.n):
        if len(s.stoppers[g]) >= D.STOPPERS_PER_GUANGA:
            continue
        stop = set(s.stoppers[g])
        row = _STOPPER[g]
        out.extend(row[c] for c in range(CELLS) if c not in stop)
    return out


def _can_buy(s: State, seat: int) -> bool:
    return (
        uses_shells(s.config)
        and s.shells[seat] >= buy_cost(s.config)
        and any(k is not None for k in s.basket)
    )


def _can_refresh(s: State, seat: int) -> bool:
    return uses_shells(s.config) and s.shells[seat] >= D.SHELL_REFRESH_COST


def turn_number(s: State) -> int:
    """Turns so far plus one; 0 while everyone picks an order at the start (that is one round)."""
    return 0 if s.phase == "order" else s.turns + 1


def to_move(s: State) -> set[int]:
    if s.finished:
        return set()
    if s.phase == "order":
        return {i for i in range(s.n) if s.orders[i] is None}
    return {s.turn}


def legal_moves(s: State, seat: int) -> list[Move]:
    if seat not in to_move(s):
        return []
    ph = s.phase
    if ph == "order":
        return [Keep(o) for o in s.orders_dealt[seat]]
    out: list[Move] = []
    if ph in ("place1", "place2", "extra"):
        slots, cells = place_parts(s, seat)
        for a in slots:
            row = _PLACE[a]
            out.extend([row[c] for c in cells])
    if ph == "claim":
        out.extend(claim_options(s, seat))
    if ph == "return":
        return list(return_options(s, seat))
    if ph in ("place1", "stuck", "claim", "after"):
        if _can_buy(s, seat):
            cells = single_place_cells(s, seat)
            for a, k in enumerate(s.basket):
                if k is not None:
                    buys = _BUY[a]
                    out.extend([buys[c] for c in cells])
        if _can_refresh(s, seat):
            out.append(Refresh())
        out.extend(stopper_options(s, seat))
    if ph in ("stuck", "claim", "after", "extra"):
        out.append(Done())
    return out


# --------------------------------------------------------------------------- applying


def _spend_shells(s: State, seat: int, count: int) -> None:
    s.shells[seat] -= count
    if shells_from_lines(s.config):
        for _ in range(count):
            s.bag.append(s.shell_patches[seat].pop(0))
    else:
        s.shells_spent += count


def _check_tile(s: State, seat: int, events: list[Event]) -> None:
    if s.tile is not None or s.n == 1:
        return
    stop = set(s.stoppers[seat])
    if all(st or i in stop for i, st in enumerate(s.guangas[seat])):
        s.tile = seat
        events.append(
            Event.told(
                said(
                    "{player} is the first to complete their guanga and takes the "
                    "complete-guanga tile ({vp} VP)",
                    player=seat_word(seat),
                    vp=D.COMPLETE_TILE_VP,
                ),
                kind="tile",
            )
        )


def _take_possible_now(s: State, seat: int) -> bool:
    slots, cells = place_parts(s, seat)
    return bool(slots and cells)


def _start_turn(s: State, seat: int, events: list[Event]) -> None:
    s.turn = seat
    s.phase = "place1"
    s.placed = []
    s.first_kind = None
    s.pending = None
    s.claimed_this_turn = False
    s.fresh_turn = True
    if _take_possible_now(s, seat):
        return
    if s.n == 1 or s.config.cannot_place is Stuck.END_NOW:
        _finish(
            s,
            events,
            said(
                "at the start of {player}'s turn the basket patches could not be placed",
                player=seat_word(seat),
            ),
        )
        return
    _stuck_turn(s, seat, events)


def _stuck_turn(s: State, seat: int, events: list[Event]) -> None:
    """A game of 2-4 with ``cannot_place`` finish_round: the seat cannot place the two basket
    patches at the start of its turn.  The end comes with this round, if it had not already;
    the seat may still do what the rules allow before a take (buy a patch or refresh the basket
    with shells, put a stopper) and then pass with ``done``; with none of those it passes at
    once.  A passed turn counts: after the round's last seat the game ends.  When what the seat
    does makes the take possible, the end its turn triggered is lifted
    (:func:`_after_extra_action`): the game ends only if the seat's turn ends without a take."""
    triggers = not s.end_triggered
    if triggers:
        s.end_triggered = True
        s.stuck = seat
    if _before_take_options(s, seat):
        s.phase = "stuck"
        if triggers:  # the last seat too: its shells may lift the end, so the end is said first
            told = said(
                "{player} cannot place the two basket patches: the game ends when this round is complete.",
                player=seat_word(seat),
            )
        else:
            told = said(
                "{player} cannot place the two basket patches this turn.",
                player=seat_word(seat),
            )
        events.append(Event.told(told, kind="trigger" if triggers else "stuck"))
        return
    if triggers and seat < s.n - 1:  # (the last seat's pass ends the game at once, which is said)
        events.append(
            Event.told(
                said(
                    "{player} cannot place the two basket patches and passes: the game ends when "
                    "this round is complete.",
                    player=seat_word(seat),
                ),
                kind="trigger",
            )
        )
    else:
        events.append(_passes(seat))
    _next_turn(s, seat, events)


def _passes(seat: int) -> Event:
    return Event.told(
        said("{player} cannot place the two basket patches and passes.", player=seat_word(seat)),
        kind="pass",
    )


def _before_take_options(s: State, seat: int) -> bool:
    """Whether the seat may do anything the rules allow before a take: buy, refresh, stopper."""
    return (
        (_can_buy(s, seat) and bool(single_place_cells(s, seat)))
        or _can_refresh(s, seat)
        or bool(stopper_options(s, seat))
    )


def _finish(s: State, events: list[Event], reason: Said) -> None:
    s.finished = True
    s.end_reason = reason.in_words()
    s.end_said = reason
    s.phase = "over"
    orders = [
        said(
            "{player} {points} VP for order {order}",
            player=seat_word(i),
            points=order_points(s, i),
            order=order_said(oid),
        )
        for i, oid in enumerate(s.orders)
        if oid is not None
    ]
    if orders and s.n > 1:  # the secret orders, scored now: the last scores are read with them,
        # before the end's own line (its places and scores, the last word)
        events.append(
            Event.told(
                said("The secret orders: {orders}.", orders=listed(orders, semicolons=True)), kind="score"
            )
        )
    events.append(Event.told(said("The game is over: {reason}.", reason=reason), kind="end"))
    if s.n == 1:  # the solo player plays for a rank (the rulebook's table), said with the end
        points = breakdown(s, 0)["total"]
        events.append(
            Event.told(
                said(
                    "{player}'s final score: {points} VP, rank {rank}.",
                    player=seat_word(0),
                    points=points,
                    rank=W.word(W.RANKS, solo_rank(points)),
                ),
                kind="score",
            )
        )


def _end_turn(s: State, seat: int, events: list[Event]) -> None:
    full = _refill_basket(s)
    # the solo version has its own end (the two basket patches cannot be placed at the start of a
    # turn, :func:`_start_turn`): a basket left short by beginner's pile ends only games of 2-4
    if not full and not recycles_bag(s.config) and s.n > 1:
        s.turns += 1
        s.phase = "between"
        _finish(s, events, said("the basket could not be refilled to 8 patches"))
        return
    _next_turn(s, seat, events)


def _next_turn(s: State, seat: int, events: list[Event]) -> None:
    """``seat``'s turn is over: the game ends after the round's last seat once the end is
    triggered, else the next seat's turn begins."""
    s.turns += 1
    s.phase = "between"
    if s.end_triggered and seat == s.n - 1:
        if s.stuck is not None:
            reason = said(
                "at the start of {player}'s turn the basket patches could not be placed, "
                "and the round was completed",
                player=seat_word(s.stuck),
            )
        else:
            reason = said("the workshop reached its end and the round was completed")
        _finish(s, events, reason)
        return
    _start_turn(s, (seat + 1) % s.n, events)


def _maybe_auto_end(s: State, seat: int, events: list[Event]) -> None:
    """End the turn by itself when `done` is the only thing left to do."""
    if s.finished:
        return
    if s.phase == "extra" and not _take_possible_now(s, seat):
        s.phase = "after"
    if s.phase in ("claim", "after"):
        if s.phase == "claim" and claim_options(s, seat, first=True):
            return
        if _can_buy(s, seat) and single_place_cells(s, seat):
            return
        if _can_refresh(s, seat) or stopper_options(s, seat):
            return
        _end_turn(s, seat, events)


_ALLOWED = {  # each kind of move with one of its legal moves now (:func:`_examples`)
    "Keep": N_("keep an order ({move})"),
    "Place": N_("place a basket patch ({move})"),
    "Buy": N_("buy a patch with shells ({move})"),
    "Refresh": N_("refresh the basket"),
    "Stopper": N_("place a stopper ({move})"),
    "Claim": N_("claim a market card ({move})"),
    "Return": N_("return two patches ({move})"),
    "Done": N_("end your turn (done)"),
}

_PHASES = {
    "order": said("choosing orders"),
    "place1": said("taking the first of your two patches"),
    "stuck": said("unable to place the two basket patches"),
    "place2": said("taking the second of your two patches"),
    "claim": said("claiming a market item"),
    "return": said("returning two patches of the claimed shape"),
    "extra": said("placing the blanket's extra patch"),
    "after": said("finishing your turn"),
}

NONE = said("none")
NONE_F = term("guanga: no cell or card", "none")  # feminine in Spanish (casilla, carta)
FEWER_NEGATIVE = said("fewer negative points")
"""The tiebreak's name (an outcome stored before :func:`fewer_negative` said the points too)."""
EARLIER_REASONS = (
    said("at the start of player {number}'s turn the basket patches could not be placed"),
    said(
        "at the start of player {number}'s turn the basket patches could not be placed, and the round was completed"
    ),
)
"""Why a game ended, as outcomes stored before edition 3 say it: kept in the catalogues, so that
those games' results still read in every language."""


def fewer_negative(totals: Sequence[int], penalties: Sequence[int]) -> Said | None:
    """The tiebreak as it decided, or None when it decided nothing: fewer negative points, with
    each seat's negative points where seats tied on points were separated by them, fewest first
    (``fewer negative points ({p1} -2, {p0} -6)``; two such ties apart by a semicolon)."""
    ties = []
    for total in sorted(set(totals), reverse=True):
        tied = sorted((penalties[i], i) for i in range(len(totals)) if totals[i] == total)
        if len({p for p, _ in tied}) > 1:
            ties.append(", ".join(f"{seat_word(i)} -{p}" if p else f"{seat_word(i)} 0" for p, i in tied))
    return said("fewer negative points ({points})", points="; ".join(ties)) if ties else None


def listed(items: Sequence[Said | str], *, semicolons: bool = False) -> Said | str:
    """Words in a list (``a, b, c``; ``a; b; c``), each put in the reader's language."""
    out = items[-1]
    for item in reversed(items[:-1]):
        out = (
            said("{item}; {more}", item=item, more=out)
            if semicolons
            else said("{item}, {more}", item=item, more=out)
        )
    return out


def legal_kinds(s: State, seat: int) -> set[str]:
    """The kinds of move (class names) among ``legal_moves(s, seat)``."""
    return set(_examples(s, seat))


def _examples(s: State, seat: int) -> dict[str, Move]:
    """One of ``legal_moves(s, seat)`` of each kind (class name), found without listing every
    move: a refusal names them.  A stopper's is one on another player's guanga if it may."""
    if seat not in to_move(s):
        return {}
    ph = s.phase
    if ph == "order":
        return {"Keep": Keep(s.orders_dealt[seat][0])} if s.orders_dealt[seat] else {}
    if ph == "return":
        back = return_options(s, seat)
        return {"Return": back[0]} if back else {}
    out: dict[str, Move] = {}
    if ph in ("place1", "place2", "extra"):
        slots, cells = place_parts(s, seat)
        if slots and cells:
            out["Place"] = _PLACE[slots[0]][cells[0]]
    if ph == "claim" and (claims := claim_options(s, seat, first=True)):
        out["Claim"] = claims[0]
    if ph in ("place1", "stuck", "claim", "after"):
        if _can_buy(s, seat) and (cells := single_place_cells(s, seat)):  # _can_buy: a slot is filled
            slot = next(i for i, k in enumerate(s.basket) if k is not None)
            out["Buy"] = _BUY[slot][cells[0]]
        if _can_refresh(s, seat):
            out["Refresh"] = Refresh()
        if stoppers := stopper_options(s, seat):
            out["Stopper"] = next((m for m in stoppers if m.target != seat), stoppers[0])
    if ph in ("stuck", "claim", "after", "extra"):
        out["Done"] = Done()
    return out


def _allowed_text(s: State, seat: int) -> Said | str:
    examples = _examples(s, seat)
    kinds = [
        said(_ALLOWED[k], move=str(examples[k])) if "{move}" in _ALLOWED[k] else said(_ALLOWED[k])
        for k in sorted(examples)
    ]
    return listed(kinds, semicolons=True) if kinds else said("nothing")


def _phase_words(phase: str) -> Said:
    return _PHASES.get(phase) or Said(phase)


def _refuse(s: State, seat: int, what: Said) -> IllegalMove:
    return IllegalMove(
        "{what}; now ({phase}) you may: {allowed}",
        what=what,
        phase=_phase_words(s.phase),
        allowed=_allowed_text(s, seat),
    )


def _cells_list(cells) -> str | Said:
    """Cells in notation (``A1, B2``), the first twelve of a long list; ``none`` in words."""
    cells = sorted(cells)
    if len(cells) > 12:
        return ", ".join(CELL_NAMES[c] for c in cells[:12]) + ", ..."
    return ", ".join(CELL_NAMES[c] for c in cells) or NONE_F


def _filled_slots(s: State, slot: int) -> IllegalMove:
    """The refusal of an empty basket slot, naming the filled ones."""
    filled = [str(i + 1) for i, k in enumerate(s.basket) if k is not None]
    return IllegalMove(
        "basket slot {slot} is empty; the filled slots are {filled}",
        slot=slot,
        filled=", ".join(filled) or NONE,
    )


def apply_move(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    if state.finished:
        raise GameOver("the game is over; no more moves are taken")
    if not isinstance(seat, int) or not 0 <= seat < state.n:
        raise NotYourTurn("seat {seat} is not at this table", seat=str(seat))
    if seat not in to_move(state):
        if state.phase == "order":
            raise NotYourTurn("you have already kept your order; waiting for the others")
        raise NotYourTurn("it is {player}'s turn, not yours", player=seat_word(state.turn))
    if isinstance(move, str):
        move = parse_move(move)
    handler = _HANDLERS.get(type(move))
    if handler is None:
        raise MalformedMove("{text} is not a Guanga move; {notation}", text=echo(move), notation=NOTATION)
    s = _clone(state)
    events: list[Event] = []
    handler(s, seat, move, events)
    s.last = str(move)
    s.last_seat = seat
    return s, events


def _do_keep(s: State, seat: int, m: Keep, events: list[Event]) -> None:
    if s.phase != "order":
        raise _refuse(s, seat, said("orders are chosen only before the first turn"))
    if m.order not in s.orders_dealt[seat]:
        raise IllegalMove(
            "you were not dealt {order}; keep one of {orders}",
            order=m.order,
            orders=", ".join(s.orders_dealt[seat]),
        )
    s.orders[seat] = m.order
    events.append(
        Event.told(
            said("{player} kept order {order}", player=seat_word(seat), order=order_said(m.order)),
            visible_to={seat},
            public=said("{player} kept a secret order", player=seat_word(seat)),
            kind="order",
        )
    )
    s.highlight = []
    if all(o is not None for o in s.orders):
        events.append(Event.told(said("Every order is chosen; {p0} begins."), kind="turn"))
        _start_turn(s, 0, events)


def _basket_kind(s: State, slot: int) -> int:
    """The patch in a basket slot that the phase or a check before guarantees is filled."""
    kind = s.basket[slot]
    if kind is None:
        raise IllegalMove("basket slot {slot} is empty", slot=slot + 1)
    return kind


def _first_kind(s: State) -> int:
    """The first patch of a pair, which the second placement (phase place2) always has."""
    if s.first_kind is None:
        raise IllegalMove("no first patch has been placed this turn")
    return s.first_kind


def _pending(s: State) -> dict[str, Any]:
    """The claim waiting for its returned patches (phase return and the claim that made it)."""
    if s.pending is None:
        raise IllegalMove("no claim is waiting for its patches")
    return s.pending


def _put(s: State, seat: int, slot: int, cell: int) -> int:
    kind = _basket_kind(s, slot)
    s.basket[slot] = None
    s.guangas[seat][cell].append(kind)
    return kind


def _mark(s: State, cells: list[list[int]], slot: int | None = None) -> None:
    """Add ``cells`` ([seat, cell]) and a claim's market ``slot`` to what the turn changed; the
    first move of a turn clears the previous turn's."""
    if s.fresh_turn:
        s.highlight = []
        s.lit_slot = None
        s.fresh_turn = False
    s.highlight.extend(c for c in cells if c not in s.highlight)
    if slot is not None:
        s.lit_slot = slot


def _do_place(s: State, seat: int, m: Place, events: list[Event]) -> None:
    if s.phase == "stuck":
        raise _refuse(s, seat, said("the two basket patches cannot be placed this turn"))
    if s.phase not in ("place1", "place2", "extra"):
        raise _refuse(s, seat, said("you cannot take a basket patch now"))
    slot = m.slot - 1
    if s.basket[slot] is None:
        raise _filled_slots(s, m.slot)
    ok_slots, ok_cells = place_parts(s, seat)
    if slot not in ok_slots or m.cell not in ok_cells:
        cells = sorted(ok_cells) if slot in ok_slots else []
        where = CELL_NAMES[m.cell]
        if m.cell in s.stoppers[seat]:
            why = said("{cell} has a stopper; nothing may go on it", cell=where)
        elif s.phase == "place2" and not differ(_first_kind(s), _basket_kind(s, slot)):
            why = said(
                "the {patch} patch shares a colour or symbol with your first patch "
                "({first}); the two patches must differ in both",
                patch=patch_term(_basket_kind(s, slot)),
                first=patch_term(_first_kind(s)),
            )
        elif s.phase == "place2" and m.cell not in NEIGHBOURS[s.placed[0]]:
            why = said(
                "the second patch must go orthogonally next to {cell} (the first patch)",
                cell=CELL_NAMES[s.placed[0]],
            )
        elif s.phase == "place1" and paired_placement(s.config) and slot not in ok_slots:
            why = said(
                "slot {slot} leaves no legal second patch (it must differ in colour and symbol)", slot=m.slot
            )
        elif s.phase == "place1" and paired_placement(s.config) and not NB_MASK[m.cell] & _free_mask(s, seat):
            why = said(
                "{cell} has no free neighbour, and the second patch must go orthogonally next to the first",
                cell=where,
            )
        elif connected_rule(s.config):
            why = said("{cell} would not stay orthogonally connected to the centre C3", cell=where)
        else:
            why = said("slot {slot} cannot go on {cell}", slot=m.slot, cell=where)
        if slot not in ok_slots and ok_slots:  # no cell would take it: name the slots that may be taken
            raise IllegalMove(
                "{why}; the slots you may take now: {slots}",
                why=why,
                slots=", ".join(str(i + 1) for i in sorted(ok_slots)),
            )
        raise IllegalMove(
            "{why}; slot {slot} may go on: {cells}", why=why, slot=m.slot, cells=_cells_list(cells)
        )
    kind = _put(s, seat, slot, m.cell)
    cell = CELL_NAMES[m.cell]
    if s.phase == "extra":
        events.append(
            Event.told(
                said(
                    "{player} placed the blanket's extra patch, {patch}, on {cell}",
                    player=seat_word(seat),
                    patch=patch_term(kind),
                    cell=cell,
                ),
                kind="place",
            )
        )
        _mark(s, [[seat, m.cell]])
        s.phase = "after"
        _check_tile(s, seat, events)
        _maybe_auto_end(s, seat, events)
        return
    events.append(
        Event.told(
            said(
                "{player} placed {patch} (basket slot {slot}) on {cell}",
                player=seat_word(seat),
                patch=patch_term(kind),
                slot=m.slot,
                cell=cell,
            ),
            kind="place",
        )
    )
    _mark(s, [[seat, m.cell]])
    if s.phase == "place1":
        s.placed = [m.cell]
        s.first_kind = kind
        s.phase = "place2"
    else:
        s.placed.append(m.cell)
        s.phase = "claim"
    _check_tile(s, seat, events)
    if s.phase == "claim":
        _maybe_auto_end(s, seat, events)


def _do_buy(s: State, seat: int, m: Buy, events: list[Event]) -> None:
    if not uses_shells(s.config):
        raise _refuse(
            s, seat, said("a buy ({move}) spends Mullu shells, and beginner mode has none", move=str(m))
        )
    if s.phase not in ("place1", "stuck", "claim", "after"):
        raise _refuse(
            s, seat, said("shells can be spent before you take your two patches or after placing them")
        )
    cost = buy_cost(s.config)
    if s.shells[seat] < cost:
        raise IllegalMove(
            said_n(
                cost,
                "buying a patch costs {n} shell and you have {have}",
                "buying a patch costs {n} shells and you have {have}",
                have=s.shells[seat],
            )
        )
    slot = m.slot - 1
    if s.basket[slot] is None:
        raise _filled_slots(s, m.slot)
    cells = single_place_cells(s, seat)
    if m.cell not in cells:
        if m.cell in s.stoppers[seat]:
            raise IllegalMove(
                "{cell} has a stopper; a bought patch may go on: {cells}",
                cell=CELL_NAMES[m.cell],
                cells=_cells_list(cells),
            )
        raise IllegalMove(
            "{cell} would not be connected to the centre C3; a bought patch may go on: {cells}",
            cell=CELL_NAMES[m.cell],
            cells=_cells_list(cells),
        )
    _spend_shells(s, seat, cost)
    kind = _put(s, seat, slot, m.cell)
    events.append(
        Event.told(
            said_n(
                cost,
                "{player} spent {n} shell on {patch} and placed it on {cell}",
                "{player} spent {n} shells on {patch} and placed it on {cell}",
                player=seat_word(seat),
                patch=patch_term(kind),
                cell=CELL_NAMES[m.cell],
            ),
            kind="buy",
        )
    )
    _mark(s, [[seat, m.cell]])
    _check_tile(s, seat, events)
    _after_extra_action(s, seat, events)


def _after_extra_action(s: State, seat: int, events: list[Event]) -> None:
    """After a buy, refresh or stopper: a take that has become possible (or impossible) opens
    (or is skipped).  A skipped take skips the claim too: the rulebook allows a claim only
    after the turn's take, so the turn goes on to its end (more shells or stoppers, or done).
    A seat that could not place at the start of its turn stays so until a refresh (or a buy)
    makes the take possible, which lifts the end that its turn triggered; with nothing left to
    try, it passes."""
    if s.phase == "stuck":
        if _take_possible_now(s, seat):
            s.phase = "place1"
            if s.stuck == seat:  # this turn's start triggered the end: it is lifted
                s.end_triggered = False
                s.stuck = None
                events.append(
                    Event.told(
                        said(
                            "{player} can now place two basket patches: the game no longer ends "
                            "with this round.",
                            player=seat_word(seat),
                        ),
                        kind="lifted",
                    )
                )
        elif not _before_take_options(s, seat):
            events.append(_passes(seat))
            _end_turn(s, seat, events)
        return
    if s.phase == "place1" and not _take_possible_now(s, seat):
        events.append(
            Event.told(
                said(
                    "{player} can no longer take two patches this turn; the take is skipped",
                    player=seat_word(seat),
                ),
                kind="skip",
            )
        )
        s.phase = "after"
    _maybe_auto_end(s, seat, events)


def _do_refresh(s: State, seat: int, m: Refresh, events: list[Event]) -> None:
    if not uses_shells(s.config):  # (``x`` is short for refresh: say what it asked for)
        raise _refuse(
            s, seat, said("refresh (x) replaces the basket for a Mullu shell, and beginner mode has none")
        )
    if s.phase not in ("place1", "stuck", "claim", "after"):
        raise _refuse(
            s, seat, said("shells can be spent before you take your two patches or after placing them")
        )
    if s.shells[seat] < D.SHELL_REFRESH_COST:
        raise IllegalMove("refreshing the basket costs 1 shell and you have none")
    _spend_shells(s, seat, D.SHELL_REFRESH_COST)
    old = [k for k in s.basket if k is not None]
    s.bag.extend(old)
    s.basket = [None] * D.BASKET_SIZE
    _refill_basket(s)
    events.append(
        Event.told(
            said("{player} spent a shell to replace the basket", player=seat_word(seat)), kind="refresh"
        )
    )
    _mark(s, [])
    _after_extra_action(s, seat, events)


def _do_stopper(s: State, seat: int, m: Stopper, events: list[Event]) -> None:
    if not s.config.stoppers:
        raise _refuse(s, seat, said("this game is played without the stoppers variant"))
    if s.phase not in ("place1", "stuck", "claim", "after"):
        raise _refuse(
            s, seat, said("stoppers go down before you take your two patches or after placing them")
        )
    if s.stoppers_left[seat] <= 0:
        raise _refuse(s, seat, said("you have no stoppers left"))
    if not 0 <= m.target < s.n:
        raise IllegalMove(
            "there is no player {number}; players are 1 to {most}", number=m.target + 1, most=s.n
        )
    if len(s.stoppers[m.target]) >= D.STOPPERS_PER_GUANGA:
        raise IllegalMove(
            said_n(
                D.STOPPERS_PER_GUANGA,
                "{player}'s guanga already has {n} stopper",
                "{player}'s guanga already has {n} stoppers",
                player=seat_word(m.target),
            )
        )
    if m.cell in s.stoppers[m.target]:
        raise IllegalMove("{cell} already has a stopper", cell=CELL_NAMES[m.cell])
    s.stoppers_left[seat] -= 1
    s.stoppers[m.target].append(m.cell)
    if m.target == seat:
        put = said(
            "{player} put a stopper on their own {cell}", player=seat_word(seat), cell=CELL_NAMES[m.cell]
        )
    else:
        put = said(
            "{player} put a stopper on {target}'s {cell}",
            player=seat_word(seat),
            target=seat_word(m.target),
            cell=CELL_NAMES[m.cell],
        )
    events.append(Event.told(put, kind="stopper"))
    _mark(s, [[m.target, m.cell]])
    _check_tile(s, m.target, events)
    _after_extra_action(s, seat, events)


def _do_claim(s: State, seat: int, m: Claim, events: list[Event]) -> None:
    if s.phase != "claim":
        if s.claimed_this_turn:
            raise _refuse(s, seat, said("you may claim only one market item per turn"))
        raise _refuse(s, seat, said("you may claim only after taking and placing your two patches"))
    if m.card not in s.market:
        shown = ", ".join(c for c in s.market if c) or NONE_F
        raise IllegalMove("{card} is not in the market; the market shows {shown}", card=m.card, shown=shown)
    card = CARD[m.card]
    attr = W.word(W.ATTRS, m.attr)
    if m.attr not in (card[6], card[7]):
        raise IllegalMove(
            "{card} is claimed in {colour} or in {symbol}, not {attr}",
            card=m.card,
            colour=W.word(W.ATTRS, card[6]),
            symbol=W.word(W.ATTRS, card[7]),
            attr=attr,
        )
    marker = marker_for(s, m.attr)
    if marker is None:
        # a grey marker up here is of no use: it stands in for a colour once every colour is down
        up = [
            said(
                "{grey} (it stands in for a colour only once every colour marker is face down)",
                grey=W.ATTRS[k],
            )
            if k == "grey"
            else W.word(W.ATTRS, k)
            for k, v in s.markers.items()
            if v > 0
        ]
        raise IllegalMove(
            "no workshop marker for {attr} is face up; face-up markers: {up}",
            attr=attr,
            up=listed(up) if up else NONE,
        )
    pl = mask_of(m.cells)
    if pl not in PLACEMENT_SETS[m.card]:
        raise IllegalMove(
            said_n(
                len(m.cells),
                "{cells} is not the shape of {card} {name} ({shape}) in any rotation or reflection",
                "{cells} do not make the shape of {card} {name} ({shape}) in any rotation or reflection",
                cells=_cells_list(m.cells),
                card=m.card,
                name=card[1],
                shape=card[5],
            )
        )
    stop = set(s.stoppers[seat]) & set(m.cells)
    if stop:
        raise IllegalMove(
            said_n(
                len(stop),
                "{cells} has a stopper and cannot be part of a shape",
                "{cells} have stoppers and cannot be part of a shape",
                cells=_cells_list(stop),
            )
        )
    t = tops(s, seat)
    bad = [c for c in m.cells if (top := t[c]) is None or not has_attr(top, m.attr)]
    if bad:
        raise IllegalMove(
            said_n(
                len(bad),
                "the top patch of {cells} does not show {attr}; every cell of the shape must show {attr}",
                "the top patches of {cells} do not show {attr}; every cell of the shape must show {attr}",
                cells=_cells_list(bad),
                attr=attr,
            )
        )
    slot = s.market.index(m.card)
    s.claimed[seat].append(m.card)
    refill = None
    if s.n > 1 and s.decks.get(s.market_levels[slot]):
        refill = s.decks[s.market_levels[slot]].pop()
    s.market[slot] = refill
    s.markers[marker] -= 1
    s.claimed_this_turn = True
    told = {
        "player": seat_word(seat),
        "card": m.card,
        "name": card[1],
        "vp": card[4],
        "attr": attr,
        "cells": _cells_list(m.cells),
    }
    if refill:
        told.update(refill=refill, refill_name=CARD[refill][1])
    if marker == m.attr and refill:
        claimed = said(
            "{player} claimed {card} {name} ({vp} VP) with {attr} on {cells}, flipping the {attr} marker; "
            "{refill} {refill_name} joins the market",
            **told,
        )
    elif marker == m.attr:
        claimed = said(
            "{player} claimed {card} {name} ({vp} VP) with {attr} on {cells}, flipping the {attr} marker",
            **told,
        )
    elif refill:
        claimed = said(
            "{player} claimed {card} {name} ({vp} VP) with {attr} on {cells}, flipping a grey marker; "
            "{refill} {refill_name} joins the market",
            **told,
        )
    else:
        claimed = said(
            "{player} claimed {card} {name} ({vp} VP) with {attr} on {cells}, flipping a grey marker", **told
        )
    events.append(Event.told(claimed, kind="claim"))
    if shells_from_lines(s.config):
        mask = attr_mask(s, seat, m.attr)
        lines = sum(1 for lm in LINE_MASKS if mask & lm == lm)
        want = D.SHELLS_PER_LINE * lines
        got = 0
        for i in range(D.BASKET_SIZE):
            if got >= want:
                break
            kind = s.basket[i]
            if kind is not None:
                s.shell_patches[seat].append(kind)
                s.basket[i] = None
                got += 1
        s.shells[seat] += got
        if lines:
            events.append(
                Event.told(
                    said_n(
                        lines,
                        "{player} completed {n} {attr} line and gained {shells}",
                        "{player} completed {n} {attr} lines and gained {shells}",
                        player=seat_word(seat),
                        attr=attr,
                        shells=said_n(got, "{n} Mullu shell", "{n} Mullu shells"),
                    ),
                    kind="shells",
                )
            )
    if s.n > 1 and not s.end_triggered:
        visible = sum(s.markers.values())
        if visible <= D.END_VISIBLE_MARKERS[s.n]:
            s.end_triggered = True
            events.append(
                Event.told(
                    said_n(
                        visible,
                        "Only {n} workshop marker remains visible: the game ends when this round is complete.",
                        "Only {n} workshop markers remain visible: the game ends when this round is complete.",
                    ),
                    kind="trigger",
                )
            )
    s.pending = {"card": m.card, "attr": m.attr, "cells": list(m.cells)}
    _mark(s, [[seat, c] for c in m.cells], slot)
    s.phase = "return"


def _do_return(s: State, seat: int, m: Return, events: list[Event]) -> None:
    if s.phase != "return":
        raise _refuse(s, seat, said("patches are returned only right after a claim"))
    cells = _pending(s)["cells"]
    if any(c not in cells for c in m.cells):
        raise IllegalMove("return two cells of the claimed shape: {cells}", cells=_cells_list(cells))
    g = s.guangas[seat]
    if connected_rule(s.config) and CENTRE in m.cells and len(g[CENTRE]) == 1:
        raise IllegalMove(
            "the mother patch on C3 can be covered but never removed; choose two other cells of the shape: {cells}",
            cells=_cells_list(c for c in cells if c != CENTRE),
        )
    back = []
    for c in m.cells:
        k = g[c].pop()
        s.bag.append(k)
        back.append((patch_term(k), CELL_NAMES[c]))
    (first, first_cell), (second, second_cell) = back
    events.append(
        Event.told(
            said(
                "{player} returned {first} from {first_cell} and {second} from {second_cell} to the bag",
                player=seat_word(seat),
                first=first,
                first_cell=first_cell,
                second=second,
                second_cell=second_cell,
            ),
            kind="return",
        )
    )
    _mark(s, [[seat, c] for c in m.cells])
    if connected_rule(s.config):
        occ = occupied_mask(s, seat)
        if not _connected(occ):
            seen = 1 << CENTRE
            todo = [CENTRE]
            while todo:
                i = todo.pop()
                for j in NEIGHBOURS[i]:
                    if occ >> j & 1 and not seen >> j & 1:
                        seen |= 1 << j
                        todo.append(j)
            cut = cells_of(occ & ~seen)
            removed = 0
            for c in cut:
                removed += len(g[c])
                s.bag.extend(g[c])
                g[c] = []
                _mark(s, [[seat, c]])
            events.append(
                Event.told(
                    said_n(
                        removed,
                        "{n} patch cut off from the centre ({cells}) went to the bag",
                        "{n} patches cut off from the centre ({cells}) went to the bag",
                        cells=_cells_list(cut),
                    ),
                    kind="cutoff",
                )
            )
    card = _pending(s)["card"]
    s.pending = None
    s.phase = "extra" if card[0] == "B" else "after"
    _maybe_auto_end(s, seat, events)


def _do_done(s: State, seat: int, m: Done, events: list[Event]) -> None:
    if s.phase == "stuck":  # the end is coming with this round; the seat passes
        events.append(_passes(seat))
        _end_turn(s, seat, events)
        return
    if s.phase not in ("claim", "after", "extra"):
        raise _refuse(s, seat, said("you cannot end your turn yet"))
    events.append(Event.told(said("{player} ended their turn", player=seat_word(seat)), kind="done"))
    _end_turn(s, seat, events)


_HANDLERS: dict[type, Callable[[State, int, Any, list[Event]], None]] = {
    Keep: _do_keep,
    Place: _do_place,
    Buy: _do_buy,
    Refresh: _do_refresh,
    Stopper: _do_stopper,
    Claim: _do_claim,
    Return: _do_return,
    Done: _do_done,
}


# --------------------------------------------------------------------------- scoring


def empty_cells(s: State, seat: int) -> int:
    stop = set(s.stoppers[seat])
    return sum(1 for i, st in enumerate(s.guangas[seat]) if not st and i not in stop)


def order_points(s: State, seat: int) -> int:
    oid = s.orders[seat]
    if oid is None:
        return 0
    _, flag, fpts, typ, tpts = ORDER[oid]
    cards = [CARD[c] for c in s.claimed[seat]]
    pts = 0
    if sum(1 for c in cards if c[2] == flag) >= D.ORDER_PART_NEEDS:
        pts += fpts
    if sum(1 for c in cards if c[3] == typ) >= D.ORDER_PART_NEEDS:
        pts += tpts
    return pts


def shell_points(s: State, seat: int) -> int:
    per = D.SHELLS_PER_VP.get(_m(s.config))
    return s.shells[seat] // per if per else 0


def breakdown(s: State, seat: int, *, with_order: bool = True) -> dict[str, int]:
    market = sum(CARD[c][4] for c in s.claimed[seat])
    orders = order_points(s, seat) if with_order else 0
    shells = shell_points(s, seat)
    tile = D.COMPLETE_TILE_VP if s.tile == seat else 0
    penalty = D.EMPTY_CELL_PENALTY * empty_cells(s, seat)
    return {
        "market": market,
        "orders": orders,
        "shells": shells,
        "tile": tile,
        "penalty": penalty,
        "total": market + orders + shells + tile - penalty,
    }


def solo_rank(points: int) -> str:
    for low, name in D.SOLO_RANKS:
        if points >= low:
            return name
    return D.SOLO_LOWEST_RANK


def scores_now(s: State) -> tuple[float, ...]:
    """Each seat's total if the game were scored now, orders included (for the results card's
    chart, drawn once the game is over and the orders are shown)."""
    return tuple(float(breakdown(s, i)["total"]) for i in range(s.n))


def solo_result(result: Outcome) -> Said | None:
    """A solo game's result as its header says it (``61 VP, rank Guardian``), for the table's
    words about the last board (the alt text); None for a game of two or more."""
    rank = result.details.get("rank")
    if len(result.scores) != 1 or not isinstance(rank, str):
        return None
    return said("{points} VP, rank {rank}", points=int(result.scores[0]), rank=W.word(W.RANKS, rank))


def outcome(s: State) -> Outcome | None:
    if not s.finished:
        return None
    parts = [breakdown(s, i) for i in range(s.n)]
    scores = {i: parts[i]["total"] for i in range(s.n)}
    fewer_neg = {i: -parts[i]["penalty"] for i in range(s.n)}
    ranking, tiebreak = rank_by(range(s.n), [("score", scores), (FEWER_NEGATIVE.msg, fewer_neg)])
    details: dict[str, Any] = {"breakdown": parts, "orders": list(s.orders)}
    if s.n == 1:
        details["rank"] = solo_rank(scores[0])
        details["rank_table"] = [[low, name] for low, name in D.SOLO_RANKS] + [[0, D.SOLO_LOWEST_RANK]]
    final = tuple(float(scores[i]) for i in range(s.n))
    told = fewer_negative([p["total"] for p in parts], [p["penalty"] for p in parts]) if tiebreak else None
    if s.end_said is None:  # a game that ended before its reasons were kept for translation
        words = None if told is None else told.in_words()
        return Outcome(scores=final, ranking=ranking, reason=s.end_reason, tiebreak=words, details=details)
    return Outcome.told(final, ranking, s.end_said, told, details)


# --------------------------------------------------------------------------- persistence


def to_dict(s: State) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "config": {
            "players": s.config.players,
            "mode": s.config.mode.value,
            "stoppers": s.config.stoppers,
            "cannot_place": s.config.cannot_place.value,
        },
        "seed": s.seed,
        "pile": list(s.pile),
        "bag": list(s.bag),
        "basket": list(s.basket),
        "market": list(s.market),
        "market_levels": list(s.market_levels),
        "decks": {k: list(v) for k, v in s.decks.items()},
        "guangas": [[list(st) for st in g] for g in s.guangas],
        "stoppers": [list(x) for x in s.stoppers],
        "stoppers_left": list(s.stoppers_left),
        "claimed": [list(x) for x in s.claimed],
        "shells": list(s.shells),
        "shell_patches": [list(x) for x in s.shell_patches],
        "shells_spent": s.shells_spent,
        "markers": dict(s.markers),
        "orders_dealt": [list(x) for x in s.orders_dealt],
        "orders": list(s.orders),
        "tile": s.tile,
        "turn": s.turn,
        "phase": s.phase,
        "placed": list(s.placed),
        "first_kind": s.first_kind,
        "pending": None if s.pending is None else {**s.pending, "cells": list(s.pending["cells"])},
        "claimed_this_turn": s.claimed_this_turn,
        "end_triggered": s.end_triggered,
        "stuck": s.stuck,
        "finished": s.finished,
        "end_reason": s.end_reason,
        "end_said": None if s.end_said is None else s.end_said.to_dict(),
        "recycles": s.recycles,
        "turns": s.turns,
        "last": s.last,
        "last_seat": s.last_seat,
        "highlight": [list(x) for x in s.highlight],
        "lit_slot": s.lit_slot,
        "fresh_turn": s.fresh_turn,
    }


def from_dict(d: dict[str, Any]) -> State:
    if d.get("schema") != SCHEMA:
        raise SetupError("unsupported Guanga state schema {schema}", schema=repr(d.get("schema")))
    c = d["config"]
    config = Config(
        players=c["players"],
        mode=Mode(c["mode"]),
        stoppers=bool(c["stoppers"]),
        # saves from before the option: the default, as a replay of their moves builds it
        cannot_place=Stuck(c.get("cannot_place", Stuck.FINISH_ROUND.value)),
    )
    return State(
        config=config,
        seed=d["seed"],
        pile=list(d["pile"]),
        bag=list(d["bag"]),
        basket=list(d["basket"]),
        market=list(d["market"]),
        market_levels=list(d["market_levels"]),
        decks={k: list(v) for k, v in d["decks"].items()},
        guangas=[[list(st) for st in g] for g in d["guangas"]],
        stoppers=[list(x) for x in d["stoppers"]],
        stoppers_left=list(d["stoppers_left"]),
        claimed=[list(x) for x in d["claimed"]],
        shells=list(d["shells"]),
        shell_patches=[list(x) for x in d["shell_patches"]],
        shells_spent=d["shells_spent"],
        markers=dict(d["markers"]),
        orders_dealt=[list(x) for x in d["orders_dealt"]],
        orders=list(d["orders"]),
        tile=d["tile"],
        turn=d["turn"],
        phase=d["phase"],
        placed=list(d["placed"]),
        first_kind=d["first_kind"],
        pending=None if d["pending"] is None else {**d["pending"], "cells": list(d["pending"]["cells"])},
        claimed_this_turn=d["claimed_this_turn"],
        end_triggered=d["end_triggered"],
        stuck=d.get("stuck"),
        finished=d["finished"],
        end_reason=d["end_reason"],
        end_said=Said.from_dict(d["end_said"]) if d.get("end_said") else None,
        recycles=d["recycles"],
        turns=d["turns"],
        last=d["last"],
        last_seat=d["last_seat"],
        highlight=[list(x) for x in d["highlight"]],
        lit_slot=d.get("lit_slot"),  # saves from before it was kept: no slot lit
        fresh_turn=bool(d.get("fresh_turn", False)),
    )


# --------------------------------------------------------------------------- views


@dataclass(frozen=True)
class CardView:
    id: str
    name: str
    flag: str
    typology: str
    vp: int
    shape: tuple[str, ...]
    colour: str
    symbol: str
    level: str


def card_view(cid: str) -> CardView:
    c = CARD[cid]
    return CardView(c[0], c[1], c[2], c[3], c[4], tuple(c[5].split("/")), c[6], c[7], cid[0])


@dataclass(frozen=True)
class PlayerView:
    seat: int
    colour: str
    tops: tuple[str | None, ...]  # 25 cells A1..E5, "colour/symbol" of the top patch
    heights: tuple[int, ...]
    stoppers: tuple[int, ...]
    stoppers_left: int
    claimed: tuple[str, ...]
    shells: int
    order: str | None  # own order, every order once the game is over, else UNKNOWN
    score: dict[str, Any]  # market, orders (UNKNOWN when hidden), shells, tile, penalty, total


@dataclass(frozen=True)
class View:
    seat: int | None
    players: int
    mode: str
    side: str
    stoppers_variant: bool
    phase: str
    turn: int
    to_move: tuple[int, ...]
    turns: int
    basket: tuple[str | None, ...]
    pile: int
    bag: int
    market: tuple[CardView | None, ...]
    decks: dict[str, int]
    markers: dict[str, int]
    markers_total: dict[str, int]
    visible_markers: int
    end_at: int | None
    end_triggered: bool
    guangas: tuple[PlayerView, ...]
    tile: int | None
    dealt_orders: tuple[str, ...]  # the seat's own dealt orders while choosing
    pending: dict[str, Any] | None
    placed: tuple[int, ...]
    first_patch: str | None
    buy_cost: int
    shells_per_vp: int
    last: str | None
    last_seat: int | None
    highlight: tuple[tuple[int, int], ...]  # (seat, cell) changed in the turn shown
    finished: bool
    end_reason: str
    final_scores: tuple[int, ...] | None
    solo_rank: str | None
    ranking: tuple[tuple[int, ...], ...] = ()  # the outcome's ranking once the game is over
    lit_slot: int | None = None  # the market slot of that turn's claim (its card's replacement)
    cannot_place: str = Stuck.FINISH_ROUND.value  # the option (2-4 players)
    stuck: int | None = None  # the seat that could not place and so triggered the end

    @property
    def scores(self) -> tuple[int, ...]:
        """Each seat's points as this view shows them, the board's numbers: a secret order
        counts only in its owner's own view, and in everyone's once the game is over."""
        return tuple(p.score["total"] for p in self.guangas)


PATCH_NAMES = tuple(f"{c}/{y}" for c in D.COLOURS for y in D.SYMBOLS)
"""A patch kind's name as views show it ("red/inti"), by kind number."""


def _pstr(kind: int | None) -> str | None:
    return None if kind is None else PATCH_NAMES[kind]


def _pending_view(s: State) -> dict[str, Any]:
    """The claim waiting for its returns: card, attribute, the shape's cells, and those of them
    whose top patch may go back (in artisan a bare mother patch on C3 may not)."""
    pending = _pending(s)
    returnable = sorted({c for r in return_options(s, s.turn) for c in r.cells})
    return {**pending, "cells": tuple(pending["cells"]), "returnable": tuple(returnable)}


def view_for(s: State, seat: int | None) -> View:
    players = []
    for i in range(s.n):
        visible = s.finished or i == seat
        b: dict[str, Any] = breakdown(s, i, with_order=visible)
        if not visible and uses_orders(s.config):
            b["orders"] = UNKNOWN
        if s.orders[i] is None:
            order = None
        else:
            order = s.orders[i] if visible else UNKNOWN
        g = s.guangas[i]
        players.append(
            PlayerView(
                seat=i,
                colour=D.COLOURS[i],
                tops=tuple(PATCH_NAMES[st[-1]] if st else None for st in g),
                heights=tuple(len(st) for st in g),
                stoppers=tuple(sorted(s.stoppers[i])),
                stoppers_left=s.stoppers_left[i],
                claimed=tuple(s.claimed[i]),
                shells=s.shells[i],
                order=order,
                score=b,
            )
        )
    dealt = tuple(s.orders_dealt[seat]) if seat is not None and s.phase == "order" else ()
    last = s.last
    if last is not None and s.last_seat is not None:
        mark = move_privacy(s, s.last_seat, parse_move(last))
        if not readable(s, mark, seat):
            last = mark.mask
    out = outcome(s)
    return View(
        seat=seat,
        players=s.n,
        mode=s.config.mode.value,
        side=side(s.config),
        stoppers_variant=s.config.stoppers,
        phase=s.phase,
        turn=s.turn,
        to_move=tuple(sorted(to_move(s))),
        turns=s.turns,
        basket=tuple(_pstr(k) for k in s.basket),
        pile=len(s.pile),
        bag=len(s.bag),
        market=tuple(None if c is None else card_view(c) for c in s.market),
        decks={k: len(v) for k, v in s.decks.items()},
        markers=dict(s.markers),
        markers_total=marker_totals(s.config),
        visible_markers=sum(s.markers.values()),
        end_at=D.END_VISIBLE_MARKERS.get(s.n),
        end_triggered=s.end_triggered,
        guangas=tuple(players),
        tile=s.tile,
        dealt_orders=dealt,
        pending=None if s.pending is None else _pending_view(s),
        placed=tuple(s.placed),
        first_patch=_pstr(s.first_kind) if s.phase == "place2" else None,
        buy_cost=buy_cost(s.config),
        shells_per_vp=D.SHELLS_PER_VP.get(_m(s.config), 0),
        last=last,
        last_seat=s.last_seat,
        highlight=tuple((a, b) for a, b in s.highlight),
        finished=s.finished,
        end_reason=s.end_reason,
        final_scores=None if out is None else tuple(int(x) for x in out.scores),
        solo_rank=None if out is None or s.n != 1 else out.details["rank"],
        ranking=() if out is None else out.ranking,
        lit_slot=s.lit_slot,
        cannot_place=s.config.cannot_place.value,
        stuck=s.stuck,
    )


# --------------------------------------------------------------------------- what is public


KEPT_SECRETLY = "keep ?"
"""What the others read of an order kept (which one is its keeper's until the end)."""


def move_privacy(s: State, seat: int, move: Move | str) -> Privacy:
    """Which order a player keeps is theirs alone until the game ends; every other move is public."""
    if isinstance(move, str):
        move = parse_move(move)
    if isinstance(move, Keep):
        return Privacy(owner=seat, until=AT_END, mask=KEPT_SECRETLY)
    return PUBLIC


def undoable(s: State, seat: int, move: Move | str) -> bool:
    """Whether ``move``, played by ``seat`` from ``s``, could be taken back by consent: it
    shows nothing hidden and involves no chance.

    Not undoable: a take from the basket (``P``/``S``: the basket is refilled from the face-down
    pile, and the turn's take is then committed), a refresh (8 patches drawn), a claim (the
    market card is replaced from its face-down deck), and any move after which the pile, the
    bag's draws, a market deck or the game's end changed.  Undoable: keeping an order (a secret
    choice nobody else has seen), a stopper, the returns after a claim, and ``done`` when it
    draws nothing.
    """
    if isinstance(move, str):
        move = parse_move(move)
    if isinstance(move, Place | Buy | Refresh | Claim):
        return False
    after, _ = apply_move(s, seat, move)
    return (
        after.pile == s.pile
        and after.decks == s.decks
        and after.basket == s.basket
        and after.recycles == s.recycles
        and not after.finished
    )


def readable(s: State, privacy: Privacy, reader: int | None) -> bool:
    return can_read(privacy, reader, over=s.finished)


def order_said(order: str) -> Said:
    """An order with its two parts: ``O3 (Ecuador 5 VP / Waist 5 VP)``."""
    o = ORDER[order]
    return said(
        "{order} ({flag} {flag_vp} VP / {typology} {typology_vp} VP)",
        order=order,
        flag=W.word(W.FLAGS, o[1]),
        flag_vp=o[2],
        typology=W.word(W.TYPOLOGIES, o[3]),
        typology_vp=o[4],
    )


def extras(view: View) -> tuple[bool, bool]:
    """What the view's game gives a seat besides the basket's patches: ``(shells, stoppers)``.
    Beginner has no shells; stoppers are the variant's.  The board's words and its picture say
    what a seat that cannot place, or that is finishing its turn, may still do from this."""
    return view.mode != Mode.BEGINNER.value, view.stoppers_variant


def summary(view: View) -> Said | str:
    """The seat's own order, shells, stoppers, cards and score, in a line or two of words."""
    if view.seat is None:
        return ""
    me = view.guangas[view.seat]
    extras = []
    if view.mode != "beginner" or me.shells:
        extras.append(said("shells {shells}", shells=me.shells))
    if view.stoppers_variant:
        extras.append(said("stoppers left {stoppers}", stoppers=me.stoppers_left))
    extras.append(said("cards {cards}", cards=", ".join(me.claimed)) if me.claimed else said("no cards yet"))
    empty = me.score["penalty"] // D.EMPTY_CELL_PENALTY if D.EMPTY_CELL_PENALTY else 0
    if empty:  # a score of -48 at the start says nothing without its empty cells
        extras.append(
            said_n(
                empty,
                "score {score}, counting {penalty} for {n} empty cell",
                "score {score}, counting {penalty} for {n} empty cells",
                score=me.score["total"],
                penalty=-me.score["penalty"],
            )
        )
    else:
        extras.append(said("score {score}", score=me.score["total"]))
    you = listed(extras)
    if view.dealt_orders:
        dealt = listed([order_said(o) for o in view.dealt_orders])
        return said("Orders dealt to you: {orders}\nYou: {you}", orders=dealt, you=you)
    if me.order not in (None, UNKNOWN):
        return said("Your order: {order}\nYou: {you}", order=order_said(me.order), you=you)
    return said("You: {you}", you=you)


def patch_total(s: State) -> int:
    return D.KINDS * patches_per_kind(s.config)


def patch_counts(s: State) -> list[int]:
    """How many patches of each kind are in all zones together (for conservation checks)."""
    counts = [0] * D.KINDS
    zones = [s.pile, s.bag, [k for k in s.basket if k is not None]]
    zones += [st for g in s.guangas for st in g]
    zones += s.shell_patches
    for z in zones:
        for k in z:
            counts[k] += 1
    return counts
