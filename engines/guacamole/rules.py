"""Guacamole's rules: state, setup, legal moves, applying moves, views, scoring."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
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
    rank_by,
    rng_for,
    said,
    said_n,
    term,
    tiebreak_said,
)

from .data import (
    ABILITIES_TOLD,
    CODES,
    DECK_SIZE,
    HAND_SIZE,
    PREP_LIMIT,
    SHORT_WORDS,
    card_code,
    code_key,
    describe,
    dish_kind,
    dish_points,
    is_guacamole,
)
from .moves import (
    Add,
    Cancel,
    Discard,
    Dish,
    Done,
    Draw,
    End,
    Free,
    Move,
    Pass,
    Prep,
    Steal,
    Swap,
    Take,
    parse_move,
    ref_key,
)

TITLE = "Guacamole"
MIN_PLAYERS = 2
MAX_PLAYERS = 6
SCHEMA = 1

MAIN = "main"
BUILD = "dish"
DRAW = "draw"
AVOCALDO = "avocaldo"
LIMA = "lima"
ONION = "onion"
ONION_DISCARD = "onion_discard"
TOMATHOR = "tomathor"
AJI = "aji"
OVER = "over"

ABILITY_PHASE = {"P": AVOCALDO, "L": LIMA, "O": ONION, "T": TOMATHOR, "A": AJI}
ONION_DRAWS = 3
TURN_DRAWS = 2


@dataclass(frozen=True)
class Config:
    players: int = 2
    dishes_per_turn: int = field(
        default=1,
        metadata={
            "help": N_("how many new dishes a player may make in one turn (0 = no limit)"),
            "choices": (1, 2, 3, 0),
        },
    )

    def validate(self) -> None:
        if not isinstance(self.players, int) or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise SetupError(
                "Guacamole takes {least} to {most} players, not {players}",
                least=MIN_PLAYERS,
                most=MAX_PLAYERS,
                players=str(self.players),
            )
        if self.dishes_per_turn not in (0, 1, 2, 3):
            raise SetupError(
                "{option dishes_per_turn} must be 1, 2, 3 or 0 (no limit), not {value}",
                value=repr(self.dishes_per_turn),
            )

    @property
    def discard_setup(self) -> int:
        """Cards dealt onto each discard pile at setup: 12 with 2-3 players, 6 with 4 or more."""
        return 12 if self.players <= 3 else 6


@dataclass
class State:
    config: Config
    seed: int
    hands: list[list[int]]
    prep: list[list[int]]
    dishes: list[list[list[int]]]
    discards: list[list[int]]
    deck: list[int]
    turn: int = 0
    phase: str = MAIN
    prep_at_start: int = 0
    freed: bool = False
    prepared: bool = False
    dishes_made: int = 0
    draws_left: int = 0
    end_triggered: bool = False
    over: bool = False
    steals: int = 0
    turn_number: int = 1
    turn_moves: list[str] = field(default_factory=list)
    prev_turn: list[str] = field(default_factory=list)
    prev_seat: int | None = None
    marks: list[str] = field(default_factory=list)
    building: list[int] = field(default_factory=list)
    build_zone: list[bool] = field(default_factory=list)
    turn_marks: list[str] = field(default_factory=list)  # places changed so far this turn
    prev_marks: list[str] = field(default_factory=list)  # places changed in the previous turn
    # Lima Kahlo's takes of the last round: [turn number, thief, victim, card code], told in
    # the views of the thief and the victim only (see ``view_for``)
    taken: list[list[Any]] = field(default_factory=list)


# --------------------------------------------------------------------------- views


@dataclass(frozen=True)
class DishView:
    cards: tuple[str, ...]
    kind: str | None
    valid: bool
    guacamole: bool
    points: int


@dataclass(frozen=True)
class View:
    seat: int | None
    players: int
    turn: int | None
    phase: str
    step: str
    turn_number: int
    hand: tuple[str, ...] | None
    hand_sizes: tuple[int, ...]
    prep: tuple[tuple[str, ...], ...]
    dishes: tuple[tuple[DishView, ...], ...]
    discard_tops: tuple[str | None, ...]
    discard_sizes: tuple[int, ...]
    deck_size: int
    scores: tuple[int, ...]
    dishes_per_turn: int
    dishes_made: int
    prepared: bool
    can_free: bool
    draws_left: int
    end_triggered: bool
    over: bool
    winners: tuple[int, ...]
    turn_moves: tuple[str, ...]
    prev_turn: tuple[str, ...]
    prev_seat: int | None
    marks: tuple[str, ...]
    building: tuple[str, ...]
    turn_marks: tuple[str, ...]  # public places changed this turn (the previous turn's before a move)
    ranking: tuple[tuple[int, ...], ...] = ()  # the outcome's ranking once the game is over
    step_said: Said | None = None  # ``step`` kept for translation (boards draw it in their language)
    # Lima Kahlo's takes of the last round that this seat made or suffered, as (thief, victim,
    # card); only those two players ever learn the card, so nobody else's view has them
    taken: tuple[tuple[int, int, str], ...] = ()
    # what the seat may type with a card of its hand now, one move each of prep and dish
    # ("prep 2T", "dish 2T"): empty when neither may be played (not its turn, an ability, drawing)
    hand_moves: tuple[str, ...] = ()


# --------------------------------------------------------------------------- helpers


def _codes(cards: list[int]) -> list[str]:
    return [CODES[c] for c in cards]


def _find(cards: list[int], code: str) -> int:
    for i, c in enumerate(cards):
        if card_code(c) == code:
            return i
    return -1


def _seat(seat: int) -> str:
    """A seat as sentences write it, ``{p0}`` (the table puts the name in)."""
    return f"{{p{seat}}}"


def _not_in_hand(s: State, seat: int, code: str) -> IllegalMove:
    return IllegalMove(
        "you have no {card} in hand; your hand holds {cards}", card=code, cards=_list_codes(s.hands[seat])
    )


def _distinct(cards: list[int]) -> list[str]:
    out: list[str] = []
    for c in cards:
        code = card_code(c)
        if code not in out:
            out.append(code)
    return out


HAND = term("guacamole term", "hand")
ZONE = term("guacamole term", "preparation zone")
NONE = term("guacamole term", "none")
DISH_KINDS: dict[str, Said] = {
    "number": term("guacamole term", "same number"),
    "type": term("guacamole term", "same type"),
    "straight": term("guacamole term", "a run"),
}
"""Why a dish is valid, in words (:func:`engines.guacamole.data.dish_kind`'s answers)."""


def _list_codes(cards: list[int]) -> str | Said:
    """Card codes in notation, by number then type (``none`` in words for no card)."""
    codes = sorted(_codes(cards), key=code_key)
    return ", ".join(codes) if codes else NONE


def _either(options: list[Said]) -> Said:
    """Alternatives in one sentence: ``a; or b; or c``."""
    out = options[-1]
    for first in reversed(options[:-1]):
        out = said("{first}; or {rest}", first=first, rest=out)
    return out


def seats_together(seats: list[str]) -> str | Said:
    """Seats named together: ``{p0} and {p1}``, ``{p0}, {p1} and {p2}``."""
    out: str | Said = seats[-1]
    if len(seats) > 1:
        out = said("{first} and {rest}", first=seats[-2], rest=out)
    for first in reversed(seats[:-2]):
        out = said("{a}, {b}", a=first, b=out)
    return out


def _clone(s: State) -> State:
    """A copy sharing nothing mutable with ``s`` (what ``dataclasses.replace`` with fresh lists
    gives, without its per-field work)."""
    new = object.__new__(State)
    new.__dict__.update(s.__dict__)
    new.hands = [list(h) for h in s.hands]
    new.prep = [list(p) for p in s.prep]
    new.dishes = [[list(d) for d in ds] for ds in s.dishes]
    new.discards = [list(x) for x in s.discards]
    new.deck = list(s.deck)
    new.turn_moves = list(s.turn_moves)
    new.prev_turn = list(s.prev_turn)
    new.marks = list(s.marks)
    new.building = list(s.building)
    new.build_zone = list(s.build_zone)
    new.turn_marks = list(s.turn_marks)
    new.prev_marks = list(s.prev_marks)
    new.taken = [list(t) for t in s.taken]
    return new


def _sources(s: State) -> list[str]:
    out = []
    if s.deck:
        out.append("deck")
    for k in (0, 1):
        if s.discards[k]:
            out.append(f"x{k + 1}")
    return out


def _draws(s: State) -> str:
    """The draws open now, in the moves' notation: ``draw deck / x1 / x2`` (a source left out
    when empty: no more ``deck`` once the draw pile is spent)."""
    found = _sources(s)
    return "draw " + " / ".join(found) if found else "end"


def _limit_reached(s: State) -> bool:
    lim = s.config.dishes_per_turn
    return lim != 0 and s.dishes_made >= lim


def _can_free(s: State) -> bool:
    return (
        s.phase == MAIN
        and s.prep_at_start >= PREP_LIMIT
        and not s.freed
        and not s.prepared
        and s.dishes_made == 0
        and bool(s.prep[s.turn])
    )


def visible_places(s: State) -> list[str]:
    """Every visible card's place: preparation zones, dish tops, discard tops."""
    out = []
    for p in range(s.config.players):
        out += [f"p{p + 1}z{code}" for code in _distinct(s.prep[p])]
        out += [f"p{p + 1}d{k + 1}" for k, d in enumerate(s.dishes[p]) if d]
    out += [f"x{k + 1}" for k in (0, 1) if s.discards[k]]
    return out


def _place_name(place: str) -> Said:
    """Words for a place, seats as {pN}."""
    if place.startswith("x"):
        return said("discard pile {pile}", pile=place[1])
    seat = f"{{p{int(place[1]) - 1}}}"
    if place[2] == "z":
        return said("{player}'s preparation zone", player=seat)
    return said("the top of {player}'s dish {dish}", player=seat, dish=place[3:])


def _resolve(s: State, place: str) -> tuple[list[int], int]:
    """The list holding a visible card and its index; IllegalMove if there is no such visible card."""
    allowed = ", ".join(visible_places(s))
    if place.startswith("x"):
        pile = s.discards[int(place[1]) - 1]
        if not pile:
            raise IllegalMove(
                "discard pile {pile} is empty; visible cards are: {places}", pile=place[1], places=allowed
            )
        return pile, len(pile) - 1
    seat = int(place[1]) - 1
    if seat >= s.config.players:
        raise IllegalMove(
            "there is no player {number} in this game; visible cards are: {places}",
            number=seat + 1,
            places=allowed,
        )
    if place[2] == "z":
        code = place[3:]
        idx = _find(s.prep[seat], code)
        if idx < 0:
            values = {"card": code, "cards": _list_codes(s.prep[seat]), "places": allowed}
            if seat == s.turn:  # the player to move asked for their own card
                raise IllegalMove(
                    "your preparation zone has no {card} (it holds {cards}); visible cards are: {places}",
                    **values,
                )
            raise IllegalMove(
                "{player}'s preparation zone has no {card} (it holds {cards}); visible cards are: {places}",
                player=_seat(seat),
                **values,
            )
        return s.prep[seat], idx
    k = int(place[3:])
    if k > len(s.dishes[seat]) or not s.dishes[seat][k - 1]:
        if seat == s.turn:  # the player to move asked for their own dish
            raise IllegalMove(
                "you have no dish {dish} with cards; visible cards are: {places}", dish=k, places=allowed
            )
        raise IllegalMove(
            "{player} has no dish {dish} with cards; visible cards are: {places}",
            player=_seat(seat),
            dish=k,
            places=allowed,
        )
    dish = s.dishes[seat][k - 1]
    return dish, len(dish) - 1


def _pool(s: State, seat: int) -> Counter[str]:
    pool: Counter[str] = Counter(_codes(s.hands[seat]))
    for code in _codes(s.prep[seat]):
        pool["z" + code] += 1
    return pool


def _ref_code(ref: str) -> str:
    return ref[1:] if ref.startswith("z") else ref


def _check_refs(s: State, seat: int, refs: tuple[str, ...]) -> None:
    need = Counter(refs)
    pool = _pool(s, seat)
    for ref, n in need.items():
        if pool[ref] < n:
            where = ZONE if ref.startswith("z") else HAND
            have = _list_codes(s.prep[seat] if ref.startswith("z") else s.hands[seat])
            values = {"card": _ref_code(ref), "where": where, "cards": have}
            if pool[ref]:  # the count is said as a number of times: "uses 1" read as a card
                raise IllegalMove(
                    said_n(
                        n,
                        "the move uses {card} {n} time but your {where} has only {have}; "
                        "your {where} holds {cards} (write z5T for a preparation-zone card)",
                        "the move uses {card} {n} times but your {where} has only {have}; "
                        "your {where} holds {cards} (write z5T for a preparation-zone card)",
                        have=pool[ref],
                        **values,
                    )
                )
            raise IllegalMove(
                "you have no {card} in your {where}; "
                "your {where} holds {cards} (write z5T for a preparation-zone card)",
                **values,
            )


def _take_refs(s: State, seat: int, refs: tuple[str, ...]) -> list[int]:
    """Remove the referenced cards from hand/zone, in the order given; return their ids."""
    out = []
    for ref in refs:
        zone = s.prep[seat] if ref.startswith("z") else s.hands[seat]
        out.append(zone.pop(_find(zone, _ref_code(ref))))
    return out


def _multisets(items: list[tuple[str, int]], lo: int, hi: int) -> list[tuple[str, ...]]:
    """All multisets of size lo..hi drawn from (ref, available count) items."""
    out: list[tuple[str, ...]] = []

    def rec(i: int, acc: list[str]) -> None:
        if len(acc) > hi:
            return
        if i == len(items):
            if len(acc) >= lo:
                out.append(tuple(acc))
            return
        ref, n = items[i]
        for k in range(n + 1):
            if len(acc) + k > hi:
                break
            rec(i + 1, acc + [ref] * k)

    rec(0, [])
    return out


def _with_tops(ms: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Each distinct card of a multiset as the top (last) card."""
    base = sorted(ms, key=ref_key)
    out = []
    for top in dict.fromkeys(base):
        rest = list(base)
        rest.remove(top)
        out.append(tuple(rest) + (top,))
    return out


def build_ok(codes: list[str]) -> bool:
    """Can these cards still grow into a dish: one number, one type, or all numbers different."""
    if len({c[0] for c in codes}) <= 1 or len({c[1] for c in codes}) <= 1:
        return True
    return len({c[0] for c in codes}) == len(codes)


def _build_options(s: State, seat: int) -> list[Dish]:
    have = _codes(s.building)
    refs = sorted((r for r, n in _pool(s, seat).items() if n > 0), key=ref_key)
    return [Dish(r) for r in refs if build_ok(have + [_ref_code(r)])]


def _add_options(s: State, seat: int) -> list[Add]:
    pool = _pool(s, seat)
    out: list[Add] = []
    for k, dish in enumerate(s.dishes[seat]):
        codes = _codes(dish)
        if dish_kind(codes) is None:
            continue
        nums = {int(c[0]) for c in codes}
        types = {c[1] for c in codes}
        lo, hi = min(nums) - 3, max(nums) + 3
        items = []
        for r, n in pool.items():
            code = _ref_code(r)
            if n > 0 and (int(code[0]) in nums or code[1] in types or lo <= int(code[0]) <= hi):
                items.append((r, min(n, 3)))
        for ms in _multisets(items, 1, 3):
            if dish_kind(codes + [_ref_code(r) for r in ms]) is not None:
                for order in _with_tops(ms):
                    out.append(Add(k + 1, order))
    return out


def _swap_options(s: State, seat: int) -> list[Swap]:
    me = f"p{seat + 1}"
    sources = _distinct(s.hands[seat])
    sources += [f"{me}z{c}" for c in _distinct(s.prep[seat])]
    sources += [f"{me}d{k + 1}" for k, d in enumerate(s.dishes[seat]) if d]
    targets = visible_places(s)
    out = []
    for src in sources:
        for dst in targets:
            # the swaps _swap_problem allows (without wording the refusals of the others)
            if src != dst and not (src[0] == "p" and src[2] == "z" and dst[:3] == src[:3]):
                out.append(Swap(src, dst))
    return out


def _swap_problem(src: str, dst: str) -> Said | None:
    if src == dst:
        return said("a card cannot be swapped with itself; pick a different visible card")
    if src[0] == "p" and src[2] == "z" and dst[:3] == src[:3]:
        return said(
            "swapping two cards of the same preparation zone changes nothing; pick a different visible card"
        )
    return None


# --------------------------------------------------------------------------- setup


def new_game(config: Config, seats: int, seed: int) -> State:
    config.validate()
    if seats != config.players:
        raise SetupError(
            "the config is for {players} but {seats} were given",
            players=said_n(config.players, "{n} player", "{n} players"),
            seats=said_n(seats, "{n} seat", "{n} seats"),
        )
    deck = list(range(DECK_SIZE))
    rng_for(seed, "setup").shuffle(deck)
    n = config.players
    hands = [sorted(deck.pop() for _ in range(HAND_SIZE)) for _ in range(n)]
    prep = [[deck.pop()] for _ in range(n)]
    discards = [[deck.pop() for _ in range(config.discard_setup)] for _ in range(2)]
    return State(
        config=config,
        seed=seed,
        hands=hands,
        prep=prep,
        dishes=[[] for _ in range(n)],
        discards=discards,
        deck=deck,
        prep_at_start=len(prep[0]),
    )


# --------------------------------------------------------------------------- legal moves


def to_move(state: State) -> set[int]:
    return set() if state.over else {state.turn}


def turn_number(state: State) -> int:
    """Turns played so far plus one: it goes up when a player's second draw (or ``end``) ends a turn."""
    return state.turn_number


def legal_moves(state: State, seat: int) -> list[Move]:
    """Every move ``seat`` may make now (empty when it may not act)."""
    if state.over or seat != state.turn:
        return []
    s, ph = state, state.phase
    draws: list[Move] = [Draw(src) for src in _sources(s)]
    if ph == MAIN:
        out: list[Move] = []
        if _can_free(s):
            out += [Free(c, k) for c in _distinct(s.prep[seat]) for k in (1, 2)]
        if not s.prepared and s.dishes_made == 0 and len(s.prep[seat]) < PREP_LIMIT:
            out += [Prep(c) for c in sorted(_distinct(s.hands[seat]), key=code_key)]
        if not _limit_reached(s):
            out += _build_options(s, seat)
        out += draws
        if not draws:
            out.append(End())
        return out
    if ph == DRAW:
        return draws
    if ph == BUILD:
        done: list[Move] = [Done()] if dish_kind(_codes(s.building)) else []
        return [*_build_options(s, seat), *done, Cancel()]
    if ph == ONION:
        return draws + ([Pass()] if s.draws_left == ONION_DRAWS else [])
    if ph == ONION_DISCARD:
        return [Discard(c, k) for c in sorted(_distinct(s.hands[seat]), key=code_key) for k in (1, 2)]
    if ph == AVOCALDO:
        return [*_add_options(s, seat), Pass()]
    if ph == LIMA:
        return [*(Steal(p) for p in range(s.config.players) if p != seat), Pass()]
    if ph == TOMATHOR:
        return [*_swap_options(s, seat), Pass()]
    if ph == AJI:
        return [*(Take(p) for p in visible_places(s)), Pass()]
    return []


def _free_example(s: State) -> str:
    """A ``free`` the player to move may write: a card of their zone (which everyone sees)."""
    zone = _codes(s.prep[s.turn])
    return f"free {zone[0]} x1" if zone else "free 5T x1"


def _visible_example(s: State) -> str:
    """A visible card's place for an example move: a discard pile's top while one holds a card
    (once the draw pile is empty they run out), else the first visible card."""
    places = [x for x in ("x1", "x2") if s.discards[int(x[1]) - 1]] or visible_places(s) or ["x1"]
    return places[0]


def _own_cards(s: State, seat: int | None) -> list[str]:
    """The hand cards an example may name: the mover's own, read by the mover only."""
    return sorted(_distinct(s.hands[s.turn]), key=code_key) if seat == s.turn else []


def _dish_examples(s: State, seat: int | None) -> list[str]:
    """``dish`` moves for the step's words, one from hand and one from the zone. The zone is
    public, so its cards are named for everyone; a hand card only for the mover (others read a card
    of the notation). While a dish is being made only cards that may join it are named."""
    if s.phase == BUILD:
        have = _codes(s.building)
        refs = [m.card for m in _build_options(s, s.turn)]
        hand = [r for r in refs if not r.startswith("z") and seat == s.turn]
        zone = [r for r in refs if r.startswith("z")]
        if not hand and not zone:  # a card of the notation that would join
            hand = [c for c in sorted(CODES, key=code_key) if build_ok([*have, c])][:1]
        return [f"dish {r[0]}" for r in (hand, zone) if r] or ["dish 5T", "dish z5T"]
    hand = _own_cards(s, seat) or ["5T"]
    zone = ["z" + c for c in _distinct(s.prep[s.turn])] or ["z5T"]
    return [f"dish {hand[0]}", f"dish {zone[0]}"]


def _add_example(s: State, seat: int | None) -> str:
    """Patricia & Avocaldo's example: the mover's first possible addition, for the mover."""
    options = _add_options(s, s.turn) if seat == s.turn else []
    return str(options[0]) if options else "add d1 6T,z7T"


def step_said(s: State, seat: int | None = None) -> Said:
    """What the player to move may do now, in words (the moves' notation as values). Told to the
    mover alone (``seat``, in a refusal), the examples name cards of their own hand; otherwise
    only cards everyone can see, or the notation's own."""
    ph = s.phase
    own = [*_own_cards(s, seat), "5T"][0]
    dishes = _dish_examples(s, seat)
    draws = _draws(s)
    if ph == OVER:
        return said("the game is over")
    if ph == MAIN:
        parts = []
        if _can_free(s):
            parts.append(said("free a preparation-zone card ({move})", move=_free_example(s)))
        if not s.prepared and s.dishes_made == 0:
            if len(s.prep[s.turn]) < PREP_LIMIT:
                parts.append(said("prepare a card ({move})", move=f"prep {own}"))
        if not _limit_reached(s):
            parts.append(
                said(
                    "start a dish ({move} or {zone_move}, one card per move)",
                    move=dishes[0],
                    zone_move=dishes[1],
                )
            )
        if _sources(s):
            parts.append(said("draw 2 to end the turn ({moves})", moves=draws))
        else:
            parts.append(said("end the turn ({move})", move="end"))
        return _either(parts)
    if ph == DRAW:
        return said("draw {n} more ({moves})", n=s.draws_left, moves=draws)
    if ph == BUILD:
        building = {"cards": ", ".join(_codes(s.building)), "moves": " / ".join(dishes), "cancel": "cancel"}
        if dish_kind(_codes(s.building)):
            return said(
                "add a card to the new dish ({cards}) with {moves}, {done} to serve it, or {cancel}",
                done="done",
                **building,
            )
        return said("add a card to the new dish ({cards}) with {moves}, or {cancel}", **building)
    if ph == ONION:
        if s.draws_left == ONION_DRAWS:
            return said(
                "use Onion Musk to draw {n} ({moves}), then discard 1; or {skip}",
                n=s.draws_left,
                moves=draws,
                skip="pass",
            )
        return said("draw {n} more for Onion Musk ({moves})", n=s.draws_left, moves=draws)
    if ph == ONION_DISCARD:
        return said(
            "discard a hand card onto a discard pile for Onion Musk ({move})", move=f"discard {own} x1"
        )
    if ph == AVOCALDO:
        return said(
            "use Patricia & Avocaldo to add 1-3 cards to one valid dish ({move}) or {skip}",
            move=_add_example(s, seat),
            skip="pass",
        )
    if ph == LIMA:
        return said(
            "use Lima Kahlo to take a random card from a player's hand ({move}) or {skip}",
            move=f"steal p{2 if s.turn == 0 else 1}",  # another player: p2 may not steal from p2
            skip="pass",
        )
    # the mover's own cards are "your" in their refusals; everyone's words (the board's "Now:",
    # "Beto may now: ...") are the mover's "own", as the card powers told in a post are
    if ph == TOMATHOR:
        tomathor = {"move": f"swap {own} {_visible_example(s)}", "skip": "pass"}
        if seat == s.turn:
            return said(
                "use Tomathor to swap one of your cards with a visible card ({move}) or {skip}", **tomathor
            )
        return said(
            "use Tomathor to swap one of their own cards with a visible card ({move}) or {skip}", **tomathor
        )
    if ph == AJI:
        aji = {"move": f"take {_visible_example(s)}", "skip": "pass"}
        if seat == s.turn:
            return said("use Aji Styles to take a visible card into your hand ({move}) or {skip}", **aji)
        return said("use Aji Styles to take a visible card into their own hand ({move}) or {skip}", **aji)
    return Said(ph)


# --------------------------------------------------------------------------- applying moves


def _trigger_end(s: State, events: list[Event]) -> None:
    if not s.deck and not s.end_triggered:
        s.end_triggered = True
        last = s.config.players
        events.append(
            Event.told(
                said(
                    "The draw pile is empty: the game ends after {player}'s turn, "
                    "so that everyone has the same number of turns.",
                    player=f"{{p{last - 1}}}",
                ),
                kind="end_triggered",
            )
        )


def _refill(s: State, events: list[Event]) -> None:
    for k in (0, 1):
        if not s.discards[k] and s.deck:
            c = s.deck.pop()
            s.discards[k].append(c)
            events.append(
                Event.told(
                    said(
                        "Discard pile {pile} ran out and was refilled with {card}.",
                        pile=k + 1,
                        card=card_code(c),
                    ),
                    kind="refill",
                )
            )
    _trigger_end(s, events)


def _draw_one(s: State, seat: int, source: str, events: list[Event]) -> None:
    if source == "deck":
        c = s.deck.pop()
        s.hands[seat].append(c)
        events.append(
            Event.told(
                said("{player} drew {card} from the draw pile.", player=_seat(seat), card=card_code(c)),
                visible_to={seat},
                public=said("{player} drew a card from the draw pile.", player=_seat(seat)),
                kind="draw",
            )
        )
    else:
        pile = s.discards[int(source[1]) - 1]
        c = pile.pop()
        s.hands[seat].append(c)
        events.append(
            Event.told(
                said(
                    "{player} took {card} from discard pile {pile}.",
                    player=_seat(seat),
                    card=card_code(c),
                    pile=source[1],
                ),
                kind="draw",
            )
        )
    s.hands[seat].sort()
    _refill(s, events)


def _end_turn(s: State, events: list[Event]) -> None:
    n = s.config.players
    s.prev_turn = list(s.turn_moves)
    s.prev_seat = s.turn
    s.turn_moves = []
    if s.end_triggered and s.turn == n - 1:
        s.over = True
        s.phase = OVER
        oc = outcome(s)
        assert oc is not None
        scores = ", ".join(f"{{p{p}}} {int(v)}" for p, v in enumerate(oc.scores))
        if len(oc.winners) > 1:
            over = said(
                "The game is over. Scores: {scores}. {winners} share the win.",
                scores=scores,
                winners=seats_together([_seat(p) for p in oc.winners]),
            )
        else:
            over = said(
                "The game is over. Scores: {scores}. {winner} wins.",
                scores=scores,
                winner=_seat(oc.winners[0]),
            )
        events.append(Event.told(over, kind="end"))
        return
    s.turn = (s.turn + 1) % n
    s.phase = MAIN
    s.freed = s.prepared = False
    s.dishes_made = 0
    s.draws_left = 0
    s.prep_at_start = len(s.prep[s.turn])
    s.turn_number += 1


def _after_ability(s: State) -> None:
    s.phase = MAIN


def _enter_ability(s: State, seat: int, code: str, events: list[Event]) -> None:
    """The prepared card's ability step, skipped when it has nothing to act on: Onion Musk with
    nothing to draw (so nothing is discarded either), Lima Kahlo when every other hand is empty,
    any ability whose only move would be ``pass``."""
    s.phase = ABILITY_PHASE[code[1]]
    if s.phase == ONION:
        s.draws_left = ONION_DRAWS
        if _sources(s):
            return
        skipped = said("There is nothing left to draw for Onion Musk, so nothing is discarded either.")
    elif legal_moves(s, seat) == [Pass()] or (
        s.phase == LIMA and not any(h for p, h in enumerate(s.hands) if p != seat)
    ):
        skipped = said("{name}'s ability has nothing to act on.", name=SHORT_WORDS[code[1]])
    else:
        return
    events.append(Event.told(skipped, kind="ability"))
    s.draws_left = 0
    _after_ability(s)


def _onion_done(s: State, events: list[Event]) -> None:
    s.draws_left = 0
    if s.hands[s.turn]:
        s.phase = ONION_DISCARD
    else:
        events.append(
            Event.told(said("Onion Musk: the hand is empty, so nothing is discarded."), kind="ability")
        )
        _after_ability(s)


_VERB_WORDS: dict[str, str] = {
    "prep": N_("you cannot prepare a card now; you may {step}"),
    "free": N_("you cannot free a zone card now; you may {step}"),
    "dish": N_("you cannot lay a dish card now; you may {step}"),
    "done": N_("you cannot serve a dish now; you may {step}"),
    "cancel": N_("you cannot take back a dish now; you may {step}"),
    "add": N_("you cannot add cards to a dish now; you may {step}"),
    "steal": N_("you cannot steal a card now; you may {step}"),
    "swap": N_("you cannot swap cards now; you may {step}"),
    "take": N_("you cannot take a visible card now; you may {step}"),
    "draw": N_("you cannot draw now; you may {step}"),
    "discard": N_("you cannot discard now; you may {step}"),
    "end": N_("you cannot end the turn now; you may {step}"),
}
"""The refusal of a move made out of its step, by the move's first word."""


def _wrong_phase(s: State, move: Move) -> IllegalMove:
    verb = str(move).split()[0]
    return IllegalMove(_VERB_WORDS[verb], step=step_said(s, s.turn))


def _validity_notes(s: State, places: list[str], before: dict[str, bool]) -> list[Event]:
    out = []
    for place in places:
        if place[0] == "p" and place[2] == "d":
            seat, k = int(place[1]) - 1, int(place[3:])
            now = dish_kind(_codes(s.dishes[seat][k - 1])) is not None
            if now != before.get(place, now):
                if now:
                    note = said("{player}'s dish {dish} is valid again.", player=_seat(seat), dish=k)
                else:
                    note = said("{player}'s dish {dish} is no longer valid.", player=_seat(seat), dish=k)
                out.append(Event.told(note, kind="validity"))
    return out


def _dish_validity(s: State, places: list[str]) -> dict[str, bool]:
    out = {}
    for place in places:
        if place[0] == "p" and place[2] == "d":
            seat, k = int(place[1]) - 1, int(place[3:])
            if k <= len(s.dishes[seat]):
                out[place] = dish_kind(_codes(s.dishes[seat][k - 1])) is not None
    return out


def apply_move(state: State, seat: int, move: Move | str) -> tuple[State, list[Event]]:
    """Check and play ``move`` for ``seat``; returns the new state and what happened."""
    if isinstance(move, str):
        move = parse_move(move)
    if state.over:
        raise GameOver("the game is over; no more moves are taken")
    if not isinstance(seat, int) or not 0 <= seat < state.config.players:
        raise NotYourTurn("seat {seat} is not in this game", seat=str(seat))
    if seat != state.turn:
        raise NotYourTurn("it is {player}'s turn, not yours", player=_seat(state.turn))
    if not isinstance(move, Move):
        raise MalformedMove("{move} is not a Guacamole move", move=echo(move))
    if isinstance(move, Swap) and move.source.startswith("z"):  # z5T: the mover's own zone card
        move = Swap(f"p{seat + 1}{move.source}", move.target)
    s = _clone(state)
    events: list[Event] = []
    s.turn_moves.append(str(move))
    s.marks = []
    handler = _HANDLERS[type(move)]
    handler(s, seat, move, events)
    marks = s.turn_marks + [m for m in s.marks if m not in s.turn_marks]
    if s.turn_moves:
        s.turn_marks = marks
    else:  # the move ended the turn
        s.prev_marks, s.turn_marks = marks, []
    return s, events


def _do_prep(s: State, seat: int, m: Prep, events: list[Event]) -> None:
    if s.phase != MAIN:
        raise _wrong_phase(s, m)
    if s.prepared:
        raise IllegalMove("you already prepared a card this turn; you may {step}", step=step_said(s, s.turn))
    if s.dishes_made:
        raise IllegalMove(
            "ingredients are prepared before dishes, and you made a dish; you may {step}",
            step=step_said(s, s.turn),
        )
    zone = s.prep[seat]
    if len(zone) >= PREP_LIMIT:
        full = said_n(PREP_LIMIT, "{n} card", "{n} cards")
        if _can_free(s):
            raise IllegalMove(
                "your preparation zone is full ({cards}); first free one onto a discard pile ({move})",
                cards=full,
                move=_free_example(s),
            )
        raise IllegalMove("your preparation zone is full ({cards}); wait until it has room", cards=full)
    idx = _find(s.hands[seat], m.card)
    if idx < 0:
        raise _not_in_hand(s, seat, m.card)
    c = s.hands[seat].pop(idx)
    zone.append(c)
    s.prepared = True
    s.marks = [f"p{seat + 1}z{m.card}"]
    t = m.card[1]
    events.append(
        Event.told(
            said(
                "{player} prepared {card} ({ability}).",
                player=_seat(seat),
                card=describe(m.card),
                ability=ABILITIES_TOLD[t],
            ),
            kind="prep",
        )
    )
    _enter_ability(s, seat, m.card, events)


def _do_free(s: State, seat: int, m: Free, events: list[Event]) -> None:
    if not _can_free(s):
        if s.phase != MAIN:
            raise _wrong_phase(s, m)
        raise IllegalMove(
            "you may free a preparation-zone card only as the first thing in your turn, when the zone "
            "held {cards} as the turn began; you may {step}",
            cards=said_n(PREP_LIMIT, "{n} card", "{n} cards"),
            step=step_said(s, s.turn),
        )
    idx = _find(s.prep[seat], m.card)
    if idx < 0:
        raise IllegalMove(
            "your preparation zone has no {card}; it holds {cards}",
            card=m.card,
            cards=_list_codes(s.prep[seat]),
        )
    c = s.prep[seat].pop(idx)
    s.discards[m.pile - 1].append(c)
    s.freed = True
    s.marks = [f"x{m.pile}"]
    events.append(
        Event.told(
            said(
                "{player} moved {card} from their preparation zone to discard pile {pile}.",
                player=_seat(seat),
                card=m.card,
                pile=m.pile,
            ),
            kind="free",
        )
    )


def _do_dish(s: State, seat: int, m: Dish, events: list[Event]) -> None:
    if s.phase not in (MAIN, BUILD):
        raise _wrong_phase(s, m)
    if s.phase == MAIN and _limit_reached(s):
        lim = s.config.dishes_per_turn
        raise IllegalMove(
            said_n(
                lim,
                "you may make {n} new dish per turn; now draw 2 cards",
                "you may make {n} new dishes per turn; now draw 2 cards",
            )
        )
    _check_refs(s, seat, (m.card,))
    code = _ref_code(m.card)
    have = _codes(s.building)
    if not build_ok(have + [code]):
        raise IllegalMove(
            "{card} cannot join {cards}: a dish's cards must all share a number, or all share a "
            "type, or all have different numbers for a run; you may add {options}",
            card=code,
            cards=", ".join(have),
            options=_options_text(s, seat),
        )
    zone = m.card.startswith("z")
    (c,) = _take_refs(s, seat, (m.card,))
    s.building.append(c)
    s.build_zone.append(zone)
    s.phase = BUILD
    s.marks = ["build"]
    where = ZONE if zone else HAND
    if len(s.building) == 1:
        laid = said(
            "{player} started a dish with {card} from their {where}.",
            player=_seat(seat),
            card=code,
            where=where,
        )
    else:
        laid = said(
            "{player} laid {card} from their {where} on the new dish.",
            player=_seat(seat),
            card=code,
            where=where,
        )
    events.append(Event.told(laid, kind="dish"))


def _options_text(s: State, seat: int) -> str | Said:
    opts = [str(m).split()[1] for m in _build_options(s, seat)]
    return ", ".join(opts) if opts else said("nothing more (cancel)")


def _do_done(s: State, seat: int, m: Done, events: list[Event]) -> None:
    if s.phase != BUILD:
        raise _wrong_phase(s, m)
    codes = _codes(s.building)
    kind = dish_kind(codes)
    if kind is None:
        values = {"cards": ", ".join(codes), "options": _options_text(s, seat)}
        if len(codes) < 3:
            raise IllegalMove(
                "{cards} is not a dish yet: a dish needs at least 3 cards; add {options}, or cancel", **values
            )
        raise IllegalMove(
            "{cards} is not a dish yet: its numbers do not form an unbroken run (no 9-1 wrap); add {options}, or cancel",
            **values,
        )
    s.dishes[seat].append(list(s.building))
    s.building, s.build_zone = [], []
    s.dishes_made += 1
    s.phase = MAIN
    k = len(s.dishes[seat])
    s.marks = [f"p{seat + 1}d{k}"]
    events.append(
        Event.told(
            said(
                "{player} served dish {dish} ({why}): {cards}.",
                player=_seat(seat),
                dish=k,
                why=DISH_KINDS[kind],
                cards=", ".join(codes),
            ),
            kind="dish",
        )
    )


def _do_cancel(s: State, seat: int, m: Cancel, events: list[Event]) -> None:
    if s.phase != BUILD:
        raise _wrong_phase(s, m)
    for c, zone in zip(s.building, s.build_zone, strict=True):
        (s.prep[seat] if zone else s.hands[seat]).append(c)
    s.hands[seat].sort()
    s.building, s.build_zone = [], []
    s.phase = MAIN
    events.append(
        Event.told(said("{player} took back the dish they were making.", player=_seat(seat)), kind="cancel")
    )


def _do_add(s: State, seat: int, m: Add, events: list[Event]) -> None:
    if s.phase != AVOCALDO:
        raise _wrong_phase(s, m)
    if not 1 <= len(m.cards) <= 3:
        raise IllegalMove(
            "add 1 to 3 cards of your hand or zone to a dish, not {n}, e.g. add d1 6T,z7T", n=len(m.cards)
        )
    dishes = s.dishes[seat]
    valid_nos = [str(k + 1) for k, d in enumerate(dishes) if dish_kind(_codes(d))]
    allowed = ", ".join(f"d{k}" for k in valid_nos) or said("none (pass)")
    if m.dish > len(dishes):
        raise IllegalMove(
            "you have no dish {dish}; your valid dishes are {dishes}", dish=m.dish, dishes=allowed
        )
    dish = dishes[m.dish - 1]
    if dish_kind(_codes(dish)) is None:
        raise IllegalMove(
            "your dish {dish} is not valid, so it takes no cards; your valid dishes are {dishes}",
            dish=m.dish,
            dishes=allowed,
        )
    _check_refs(s, seat, m.cards)
    codes = [_ref_code(r) for r in m.cards]
    if dish_kind(_codes(dish) + codes) is None:
        raise IllegalMove(
            "adding {cards} would make dish {dish} ({dish_cards}) invalid; "
            "added cards must keep its number, its type, or extend its run",
            cards=", ".join(codes),
            dish=m.dish,
            dish_cards=", ".join(_codes(dish)),
        )
    dish.extend(_take_refs(s, seat, m.cards))
    s.marks = [f"p{seat + 1}d{m.dish}"]
    events.append(
        Event.told(
            said(
                "{player} added {cards} to their dish {dish}.",
                player=_seat(seat),
                cards=", ".join(codes),
                dish=m.dish,
            ),
            kind="add",
        )
    )
    _after_ability(s)


def _do_steal(s: State, seat: int, m: Steal, events: list[Event]) -> None:
    if s.phase != LIMA:
        raise _wrong_phase(s, m)
    n = s.config.players
    others = ", ".join(f"p{p + 1}" for p in range(n) if p != seat)
    if m.target == seat:
        raise IllegalMove(
            "you cannot steal from your own hand; choose another player: {players}", players=others
        )
    if m.target >= n:
        raise IllegalMove(
            "there is no player {number} in this game; choose another player: {players}",
            number=m.target + 1,
            players=others,
        )
    victim = s.hands[m.target]
    if not victim:
        events.append(
            Event.told(
                said(
                    "{player} tried to steal from {other}, whose hand is empty.",
                    player=_seat(seat),
                    other=_seat(m.target),
                ),
                kind="steal",
            )
        )
    else:
        rng = rng_for(s.seed, "lima", s.steals)
        c = victim.pop(rng.randrange(len(victim)))
        s.hands[seat].append(c)
        s.hands[seat].sort()
        s.taken = [t for t in s.taken if _this_round(s, t[0])] + [
            [s.turn_number, seat, m.target, card_code(c)]
        ]
        who = {"player": _seat(seat), "other": _seat(m.target)}
        events.append(
            Event.told(
                said("{player} took {card} at random from {other}'s hand.", card=card_code(c), **who),
                visible_to={seat, m.target},
                public=said("{player} took a random card from {other}'s hand.", **who),
                kind="steal",
            )
        )
    s.steals += 1
    _after_ability(s)


def _do_swap(s: State, seat: int, m: Swap, events: list[Event]) -> None:
    if s.phase != TOMATHOR:
        raise _wrong_phase(s, m)
    me = f"p{seat + 1}"
    if m.source[0] == "p" and m.source[:2] != me:
        raise IllegalMove(
            "the first card must be yours: a hand card (5T), your zone (z5T or {me}z5T) or your dish top ({me}d1)",
            me=me,
        )
    problem = _swap_problem(m.source, m.target)
    if problem:
        raise IllegalMove(problem)
    if m.source[0] == "p":
        src_list, si = _resolve(s, m.source)
    else:
        si = _find(s.hands[seat], m.source)
        if si < 0:
            raise _not_in_hand(s, seat, m.source)
        src_list = s.hands[seat]
    dst_list, di = _resolve(s, m.target)
    before = _dish_validity(s, [m.source, m.target])
    a, b = src_list[si], dst_list[di]
    src_list[si], dst_list[di] = b, a
    s.hands[seat].sort()
    ca, cb = card_code(a), card_code(b)
    values = {"player": _seat(seat), "card": ca, "other": cb, "to": _place_name(m.target)}
    if m.source[0] != "p":
        swapped = said("{player} swapped {card} from their hand with {other} from {to}.", **values)
    else:
        swapped = said(
            "{player} swapped {card} from {place} with {other} from {to}.",
            place=_place_name(m.source),
            **values,
        )
    events.append(Event.told(swapped, kind="swap"))
    marks = []
    for place, new in ((m.source, cb), (m.target, ca)):
        if place[0] == "p" and place[2] == "z":
            marks.append(place[:3] + new)
        elif place[0] in "px":
            marks.append(place)
    s.marks = marks
    events += _validity_notes(s, [m.source, m.target], before)
    _after_ability(s)


def _do_take(s: State, seat: int, m: Take, events: list[Event]) -> None:
    if s.phase != AJI:
        raise _wrong_phase(s, m)
    lst, i = _resolve(s, m.target)
    before = _dish_validity(s, [m.target])
    c = lst.pop(i)
    s.hands[seat].append(c)
    s.hands[seat].sort()
    events.append(
        Event.told(
            said(
                "{player} took {card} from {place} into their hand.",
                player=_seat(seat),
                card=card_code(c),
                place=_place_name(m.target),
            ),
            kind="take",
        )
    )
    s.marks = [m.target] if m.target[0] != "p" or m.target[2] == "d" else []
    events += _validity_notes(s, [m.target], before)
    _refill(s, events)
    _after_ability(s)


def _do_draw(s: State, seat: int, m: Draw, events: list[Event]) -> None:
    if s.phase not in (MAIN, DRAW, ONION):
        raise _wrong_phase(s, m)
    srcs = _sources(s)
    if m.source not in srcs:
        allowed = ", ".join(srcs) or said("nothing (end)")
        if m.source == "deck":
            raise IllegalMove("the draw pile is empty; you can draw from: {sources}", sources=allowed)
        raise IllegalMove(
            "discard pile {pile} is empty; you can draw from: {sources}", pile=m.source[1], sources=allowed
        )
    if s.phase == MAIN:
        s.phase = DRAW
        s.draws_left = TURN_DRAWS
    _draw_one(s, seat, m.source, events)
    s.draws_left -= 1
    s.marks = [m.source] if m.source != "deck" else []
    if s.phase == ONION:
        if s.draws_left == 0 or not _sources(s):
            _onion_done(s, events)
    elif s.draws_left == 0 or not _sources(s):
        _end_turn(s, events)


def _do_discard(s: State, seat: int, m: Discard, events: list[Event]) -> None:
    if s.phase != ONION_DISCARD:
        raise _wrong_phase(s, m)
    idx = _find(s.hands[seat], m.card)
    if idx < 0:
        raise _not_in_hand(s, seat, m.card)
    c = s.hands[seat].pop(idx)
    s.discards[m.pile - 1].append(c)
    s.marks = [f"x{m.pile}"]
    events.append(
        Event.told(
            said(
                "{player} discarded {card} onto discard pile {pile}.",
                player=_seat(seat),
                card=m.card,
                pile=m.pile,
            ),
            kind="discard",
        )
    )
    _after_ability(s)


def _do_pass(s: State, seat: int, m: Pass, events: list[Event]) -> None:
    if s.phase in (AVOCALDO, LIMA, TOMATHOR, AJI) or (s.phase == ONION and s.draws_left == ONION_DRAWS):
        events.append(Event.told(said("{player} did not use the ability.", player=_seat(seat)), kind="pass"))
        s.draws_left = 0
        _after_ability(s)
        return
    if s.phase == ONION:
        raise IllegalMove(
            "Onion Musk's draws have begun; draw {n} more ({moves})", n=s.draws_left, moves=_draws(s)
        )
    if s.phase == ONION_DISCARD:
        card = min(_codes(s.hands[seat]), key=code_key)
        raise IllegalMove(
            "Onion Musk's draws are made, so a hand card must be discarded ({move})",
            move=f"discard {card} x1",
        )
    raise IllegalMove("there is no ability to decline now; you may {step}", step=step_said(s, s.turn))


def _do_end(s: State, seat: int, m: End, events: list[Event]) -> None:
    if s.phase != MAIN:
        raise _wrong_phase(s, m)
    srcs = _sources(s)
    if srcs:
        raise IllegalMove(
            "you must draw 2 cards to end your turn; you can draw from: {sources}", sources=", ".join(srcs)
        )
    events.append(
        Event.told(said("{player} ended the turn with nothing left to draw.", player=_seat(seat)), kind="end")
    )
    _end_turn(s, events)


_HANDLERS: dict[type, Any] = {
    Prep: _do_prep,
    Free: _do_free,
    Dish: _do_dish,
    Done: _do_done,
    Cancel: _do_cancel,
    Add: _do_add,
    Steal: _do_steal,
    Swap: _do_swap,
    Take: _do_take,
    Draw: _do_draw,
    Discard: _do_discard,
    Pass: _do_pass,
    End: _do_end,
}


# --------------------------------------------------------------------------- views, scores


def _dish_view(cards: list[int]) -> DishView:
    return _dish_view_of(tuple([CODES[c] for c in cards]))


@lru_cache(maxsize=65536)
def _dish_view_of(codes: tuple[str, ...]) -> DishView:
    kind = dish_kind(codes)
    return DishView(codes, kind, kind is not None, is_guacamole(codes), dish_points(codes))


def scores(s: State) -> tuple[int, ...]:
    return tuple(sum(dish_points(_codes(d)) for d in ds) for ds in s.dishes)


def view_for(state: State, seat: int | None) -> View:
    s = state
    oc = outcome(s) if s.over else None
    step = step_said(s)  # everyone's words: the mover's own cards are named in their refusals only
    dishes = tuple(tuple([_dish_view(d) for d in ds]) for ds in s.dishes)
    return View(
        seat=seat,
        players=s.config.players,
        turn=None if s.over else s.turn,
        phase=s.phase,
        step=step.in_words(),
        turn_number=s.turn_number,
        hand=tuple(sorted(_codes(s.hands[seat]), key=code_key)) if seat is not None else None,
        hand_sizes=tuple(len(h) for h in s.hands),
        prep=tuple(tuple(_codes(p)) for p in s.prep),
        dishes=dishes,
        discard_tops=tuple(card_code(x[-1]) if x else None for x in s.discards),
        discard_sizes=tuple(len(x) for x in s.discards),
        deck_size=len(s.deck),
        scores=tuple(sum(d.points for d in ds) for ds in dishes),  # scores(s), from the dishes' views
        dishes_per_turn=s.config.dishes_per_turn,
        dishes_made=s.dishes_made,
        prepared=s.prepared,
        can_free=_can_free(s),
        draws_left=s.draws_left,
        end_triggered=s.end_triggered,
        over=s.over,
        winners=oc.winners if oc else (),
        turn_moves=tuple(s.turn_moves),
        prev_turn=tuple(s.prev_turn),
        prev_seat=s.prev_seat,
        marks=tuple(s.marks),
        building=tuple(_codes(s.building)),
        turn_marks=tuple(s.turn_marks if s.turn_moves else s.prev_marks),
        ranking=oc.ranking if oc else (),
        step_said=step,
        taken=_taken_for(s, seat),
        hand_moves=_hand_moves(s, seat),
    )


def _hand_moves(s: State, seat: int | None) -> tuple[str, ...]:
    """The first legal ``prep`` and ``dish`` of a hand card (not a zone card) for ``seat`` now."""
    if seat is None or s.phase not in (MAIN, BUILD):
        return ()
    out: dict[type, str] = {}
    for m in legal_moves(s, seat):
        if isinstance(m, Prep) or (isinstance(m, Dish) and not m.card.startswith("z")):
            out.setdefault(type(m), str(m))
    return tuple(out.values())


def _this_round(s: State, turn: int) -> bool:
    """Whether turn number ``turn`` is one of the last round's (the last ``players`` turns, the
    current one included): every seat has had at most one turn since."""
    return turn > s.turn_number - s.config.players


def _taken_for(s: State, seat: int | None) -> tuple[tuple[int, int, str], ...]:
    """The cards Lima Kahlo moved in the last round that ``seat`` took or lost: the victim learns
    which card left their hand as the thief learns which card came in (the rulebook: only the
    two of them see it).  Kept until the thief's next turn, so the victim has had a turn since."""
    if seat is None:
        return ()
    return tuple(
        (thief, victim, card)
        for turn, thief, victim, card in s.taken
        if seat in (thief, victim) and _this_round(s, turn)
    )


# --------------------------------------------------------------------------- what is public


def move_privacy(state: State, seat: int, move: Move) -> Privacy:
    """Every Guacamole move's notation is public: a card named in a move is laid face up or
    taken from a visible place.  What stays secret is what a card drawn from the draw pile or
    taken by Lima Kahlo is, and the events keep that to the players who may know it."""
    return PUBLIC


def undoable(state: State, seat: int, move: Move) -> bool:
    """Whether ``move``, played by ``seat`` from ``state``, could be taken back by consent: it
    shows no card that was hidden and involves no chance.

    Not undoable: preparing (a hand card is laid face up), a draw (chance; from a discard
    pile it also uncovers the card beneath), Lima Kahlo's steal (a random card), Onion Musk's
    discard (a hand card shown), a dish card, Patricia & Avocaldo card or Tomathor swap from
    the hand, an Aji take from a discard pile (it uncovers the card beneath), and any move
    that ends the game or moves the draw pile.  Everything else moves only visible cards:
    freeing a zone card, zone cards into a dish, serving or cancelling a dish, a swap of
    visible cards (one's own zone card written ``z5T`` or ``p1z5T``), a take from a zone or a dish, passing, ending the turn.
    """
    if isinstance(move, str):
        move = parse_move(move)
    if isinstance(move, Prep | Steal | Draw | Discard):
        return False
    if isinstance(move, Dish) and not move.card.lower().startswith("z"):
        return False
    if isinstance(move, Add) and not all(c.lower().startswith("z") for c in move.cards):
        return False
    if isinstance(move, Swap) and not move.source.lower().startswith(("p", "z")):
        return False
    if isinstance(move, Take) and move.target.lower().startswith("x"):
        return False
    after, _ = apply_move(state, seat, move)
    return len(after.deck) == len(state.deck) and not after.over


def readable(state: State, privacy: Privacy, reader: int | None) -> bool:
    return can_read(privacy, reader, over=state.over)


def summary(view: View) -> str | Said:
    """The seat's hand, preparation zone and score, kept for translation (``""`` for a view of
    no seat)."""
    if view.seat is None or view.hand is None:
        return ""
    me = view.seat
    empty = term("guacamole term", "empty")
    text = said(
        "Your hand ({count}): {hand}\nYour zone: {zone}; your score: {score}",
        count=len(view.hand),
        hand=" ".join(view.hand) or empty,
        zone=" ".join(view.prep[me]) or empty,
        score=view.scores[me],
    )
    for thief, victim, card in view.taken:  # only the two players involved know the card
        if victim == me:
            text = said(
                "{summary}\nLima Kahlo: {player} took {card} from your hand.",
                summary=text,
                player=_seat(thief),
                card=card,
            )
        else:
            text = said(
                "{summary}\nLima Kahlo: you took {card} from {other}'s hand.",
                summary=text,
                card=card,
                other=_seat(victim),
            )
    return text


def tiebreak_keys(s: State) -> list[tuple[str | None, dict[int, Any]]]:
    n = range(s.config.players)
    sc = scores(s)
    guac = {p: sum(1 for d in s.dishes[p] if is_guacamole(_codes(d))) for p in n}
    count = {p: sum(1 for d in s.dishes[p] if d) for p in n}
    fewer = {p: -(len(s.hands[p]) + len(s.prep[p])) for p in n}
    return [
        (None, {p: sc[p] for p in n}),
        ("more guacamole dishes", guac),
        ("more dishes", count),
        ("fewer cards in hand and preparation zone", fewer),
    ]


def scores_now(state: State) -> tuple[float, ...]:
    """Each seat's score if the dishes were scored now (for the results card's chart)."""
    return tuple(float(v) for v in scores(state))


TIEBREAKS: dict[str, Said] = {
    "more guacamole dishes": said("more guacamole dishes"),
    "more dishes": said("more dishes"),
    "fewer cards in hand and preparation zone": said("fewer cards in hand and preparation zone"),
}
"""The tiebreakers' names (:func:`tiebreak_keys`) kept for translation."""


def outcome(state: State) -> Outcome | None:
    if not state.over:
        return None
    keys = tiebreak_keys(state)
    ranking, tiebreak = rank_by(range(state.config.players), keys)
    return Outcome.told(
        tuple(float(v) for v in scores(state)),
        ranking,
        said("the draw pile ran out and the round was completed"),
        # (counts of cards as counts, not the negative numbers the ranking compares)
        None if tiebreak is None else tiebreak_said(keys, tiebreak, TIEBREAKS[tiebreak], abs),
        {name or "score": [vals[p] for p in range(state.config.players)] for name, vals in keys},
    )


# --------------------------------------------------------------------------- serialisation

_SCALARS = (
    "turn",
    "phase",
    "prep_at_start",
    "freed",
    "prepared",
    "dishes_made",
    "draws_left",
    "end_triggered",
    "over",
    "steals",
    "turn_number",
    "prev_seat",
)


def to_dict(state: State) -> dict[str, Any]:
    s = state
    out: dict[str, Any] = {
        "schema": SCHEMA,
        "config": {"players": s.config.players, "dishes_per_turn": s.config.dishes_per_turn},
        "seed": s.seed,
        "hands": [list(h) for h in s.hands],
        "prep": [list(p) for p in s.prep],
        "dishes": [[list(d) for d in ds] for ds in s.dishes],
        "discards": [list(x) for x in s.discards],
        "deck": list(s.deck),
        "turn_moves": list(s.turn_moves),
        "prev_turn": list(s.prev_turn),
        "marks": list(s.marks),
        "building": list(s.building),
        "build_zone": list(s.build_zone),
        "turn_marks": list(s.turn_marks),
        "prev_marks": list(s.prev_marks),
        "taken": [list(t) for t in s.taken],
    }
    for name in _SCALARS:
        out[name] = getattr(s, name)
    return out


def from_dict(data: dict[str, Any]) -> State:
    if data.get("schema") != SCHEMA:
        raise SetupError(
            "unsupported Guacamole state schema {schema}; this engine reads {version}",
            schema=repr(data.get("schema")),
            version=SCHEMA,
        )
    cfg = Config(**data["config"])
    cfg.validate()
    return State(
        config=cfg,
        seed=data["seed"],
        hands=[list(h) for h in data["hands"]],
        prep=[list(p) for p in data["prep"]],
        dishes=[[list(d) for d in ds] for ds in data["dishes"]],
        discards=[list(x) for x in data["discards"]],
        deck=list(data["deck"]),
        turn_moves=list(data["turn_moves"]),
        prev_turn=list(data["prev_turn"]),
        marks=list(data["marks"]),
        building=list(data["building"]),
        build_zone=list(data["build_zone"]),
        turn_marks=list(data.get("turn_marks", [])),
        prev_marks=list(data.get("prev_marks", [])),
        taken=[list(t) for t in data.get("taken", [])],
        **{name: data[name] for name in _SCALARS},
    )
