"""Guacamole's moves: small frozen values and their compact notation.

Card codes are a number then a type letter (``5T``).  Places:

* ``5T`` a card in your hand, ``z5T`` a card in your preparation zone (in ``dish``/``add``,
  ``free`` and the first card of ``swap``);
* ``p2z5T`` the 5T in player 2's preparation zone, ``p2d1`` the top card of player 2's
  dish 1, ``x1`` / ``x2`` the top card of a discard pile, ``deck`` the draw pile.

Parsing is case-insensitive and tolerant of spaces; ``str(move)`` is canonical.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engines.core import N_, MalformedMove, quoted, said

from .data import TYPES

NOTATION_HELP = said(
    "Moves look like: prep 5T | free 5T x1 | dish 5T (one card at a time, then done or cancel) | "
    "add d1 6T,z7T | steal p2 | swap 5T p2d1 | take x1 | draw deck | draw x2 | discard 5T x1 | pass | end"
)

_CARD = r"[1-9][PLOTA]"
_RE_CARD = re.compile(rf"^{_CARD}$")
_RE_REF = re.compile(rf"^(Z?)({_CARD})$")
_RE_PREP_LOC = re.compile(rf"^P([1-6])Z({_CARD})$")
_RE_DISH_LOC = re.compile(r"^P([1-6])D([1-9][0-9]?)$")
_RE_PILE = re.compile(r"^X?([12])$")
_RE_DISH_NO = re.compile(r"^D?([1-9][0-9]?)$")
_RE_PLAYER = re.compile(r"^P?([1-6])$")


def ref_key(ref: str) -> tuple[int, int, int]:
    """Canonical order of dish references: number, type, hand before preparation zone."""
    zone = 1 if ref.startswith("z") else 0
    code = ref[1:] if zone else ref
    return int(code[0]), TYPES.index(code[1]), zone


def canon_refs(refs: tuple[str, ...]) -> tuple[str, ...]:
    """All cards but the last in canonical order; the last (the new top card) stays last."""
    if len(refs) <= 1:
        return tuple(refs)
    return tuple(sorted(refs[:-1], key=ref_key)) + (refs[-1],)


@dataclass(frozen=True)
class Prep:
    """Prepare a card from your hand into your preparation zone (its ability follows)."""

    card: str

    def __str__(self) -> str:
        return f"prep {self.card}"


@dataclass(frozen=True)
class Free:
    """With 4 cards in your preparation zone at the start of your turn, put one on a discard pile."""

    card: str
    pile: int

    def __str__(self) -> str:
        return f"free {self.card} x{self.pile}"


@dataclass(frozen=True)
class Dish:
    """Lay one card on the dish you are making: ``5T`` from hand, ``z5T`` from your zone.

    The first one starts a new dish; ``done`` finishes it; the last card laid is its top.
    """

    card: str

    def __str__(self) -> str:
        return f"dish {self.card}"


@dataclass(frozen=True)
class Done:
    """Finish the dish being made (it must be valid)."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True)
class Cancel:
    """Give up the dish being made; its cards go back to your hand and zone."""

    def __str__(self) -> str:
        return "cancel"


@dataclass(frozen=True)
class Add:
    """Patricia & Avocaldo: add 1 to 3 cards to your dish number ``dish``; the last is on top."""

    dish: int
    cards: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", canon_refs(tuple(self.cards)))

    def __str__(self) -> str:
        return f"add d{self.dish} " + ",".join(self.cards)


@dataclass(frozen=True)
class Steal:
    """Lima Kahlo: take a random card from the hand of seat ``target`` (0-based; written p1..p6)."""

    target: int

    def __str__(self) -> str:
        return f"steal p{self.target + 1}"


@dataclass(frozen=True)
class Swap:
    """Tomathor: swap ``source`` with visible ``target``.

    ``source`` is your hand card (``5T``), your zone card (``z5T``, or ``pNz5T`` with your own
    number N) or your dish top (``pNd1``); the rules read ``z5T`` as the mover's own zone card.
    """

    source: str
    target: str

    def __str__(self) -> str:
        return f"swap {self.source} {self.target}"


@dataclass(frozen=True)
class Take:
    """Aji Styles: take the visible card at ``target`` into your hand."""

    target: str

    def __str__(self) -> str:
        return f"take {self.target}"


@dataclass(frozen=True)
class Draw:
    """Draw one card from ``deck``, ``x1`` or ``x2`` (end of turn, or for Onion Musk)."""

    source: str

    def __str__(self) -> str:
        return f"draw {self.source}"


@dataclass(frozen=True)
class Discard:
    """Onion Musk: discard a card from your hand onto discard pile ``pile``."""

    card: str
    pile: int

    def __str__(self) -> str:
        return f"discard {self.card} x{self.pile}"


@dataclass(frozen=True)
class Pass:
    """Decline the ability of the card just prepared."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class End:
    """End the turn when there is nothing left to draw anywhere."""

    def __str__(self) -> str:
        return "end"


Move = Prep | Free | Dish | Done | Cancel | Add | Steal | Swap | Take | Draw | Discard | Pass | End


# --------------------------------------------------------------------------- parsing


def _bad(text: str, message: str, **values: str) -> MalformedMove:
    """A refusal of ``text``: ``message`` (its ``{text}`` the text quoted, its ``{help}`` the notation)."""
    return MalformedMove(message, text=quoted(text.strip()), help=NOTATION_HELP, **values)


def _card(tok: str) -> str | None:
    return tok if _RE_CARD.match(tok) else None


def _ref(tok: str) -> str | None:
    m = _RE_REF.match(tok)
    if not m:
        return None
    return ("z" if m.group(1) else "") + m.group(2)


def _place(tok: str) -> str | None:
    """A visible place: pNzCODE, pNdK or xK (canonical lower-case letters)."""
    m = _RE_PREP_LOC.match(tok)
    if m:
        return f"p{m.group(1)}z{m.group(2)}"
    m = _RE_DISH_LOC.match(tok)
    if m:
        return f"p{m.group(1)}d{int(m.group(2))}"
    if tok in ("X1", "X2"):
        return tok.lower()
    return None


def _pile(tok: str) -> int | None:
    m = _RE_PILE.match(tok)
    return int(m.group(1)) if m else None


def parse_move(text: str) -> Move:
    """Read a move in Guacamole notation (see the package docstring); raises MalformedMove."""
    # spaces, commas and semicolons only separate words; a text without a word is no move
    toks = re.split(r"[\s,;]+", text.upper()) if isinstance(text, str) else []
    toks = [t for t in toks if t]
    if not toks:
        raise MalformedMove(
            "{text} is not a Guacamole move: it is empty or holds only spaces or separators. {help}",
            text=quoted(text),
            help=NOTATION_HELP,
        )
    verb, args = toks[0], toks[1:]
    if verb in ("PREP", "PREPARE", "PLAY"):
        if len(args) == 1 and _card(args[0]):
            return Prep(args[0])
        raise _bad(
            text,
            N_(
                "{text} is not a Guacamole move: prep takes one card of your hand (number then type letter P L O T A), like `prep 5T`. {help}"
            ),
        )
    if verb == "FREE":
        # the card may be written as dishes write a zone card (z5T): free takes zone cards only
        if len(args) == 2 and (ref := _ref(args[0])) and (pile := _pile(args[1])):
            return Free(ref.removeprefix("z"), pile)
        raise _bad(
            text,
            N_(
                "{text} is not a Guacamole move: free takes a card of your preparation zone and a discard pile, like `free 5T x1`. {help}"
            ),
        )
    if verb == "DISH":
        if len(args) == 1 and (ref := _ref(args[0])):
            return Dish(ref)
        if len(args) > 1 and all(_ref(a) for a in args):
            raise _bad(
                text,
                N_(
                    "{text} is not a Guacamole move: a dish is laid one card per move (dish 5T, then dish z5L, dish 5O, then done), like `dish 5T`. {help}"
                ),
            )
        raise _bad(
            text,
            N_(
                "{text} is not a Guacamole move: dish takes one card of your hand (5T) or preparation zone (z5T), like `dish z5T`. {help}"
            ),
        )
    if verb == "ADD":
        if len(args) >= 2 and (dish := _RE_DISH_NO.match(args[0])):
            refs = [ref for a in args[1:] if (ref := _ref(a))]
            if len(refs) == len(args) - 1 and len(refs) <= 3:
                return Add(int(dish.group(1)), tuple(refs))
        raise _bad(
            text,
            N_(
                "{text} is not a Guacamole move: add takes your dish number and 1 to 3 cards of hand or zone, like `add d1 6T,z7T`. {help}"
            ),
        )
    if verb == "STEAL":
        if len(args) == 1 and (player := _RE_PLAYER.match(args[0])):
            return Steal(int(player.group(1)) - 1)
        raise _bad(
            text, N_("{text} is not a Guacamole move: steal takes a player number, like `steal p2`. {help}")
        )
    if verb == "SWAP":
        if len(args) == 2:
            src = _ref(args[0]) or _place(args[0])  # z5T: the mover's own zone card, as in a dish
            dst = _place(args[1])
            if src and dst and not src.startswith("x"):
                return Swap(src, dst)
        raise _bad(
            text,
            N_(
                "{text} is not a Guacamole move: swap takes your card (hand card 5T, zone card z5T, dish top p1d2) then a visible card, like `swap 5T p2d1`. {help}"
            ),
        )
    if verb == "TAKE":
        if len(args) == 1 and (place := _place(args[0])):
            return Take(place)
        raise _bad(
            text,
            N_(
                "{text} is not a Guacamole move: take takes a visible card (p2z5T, p2d1, x1 or x2), like `take p2d1`. {help}"
            ),
        )
    if verb == "DRAW":
        if len(args) == 1:
            if args[0] in ("DECK", "D", "PILE"):
                return Draw("deck")
            if _pile(args[0]):
                return Draw(f"x{_pile(args[0])}")
        raise _bad(
            text, N_("{text} is not a Guacamole move: draw takes deck, x1 or x2, like `draw deck`. {help}")
        )
    if verb == "DISCARD":
        if len(args) == 2 and _card(args[0]) and (pile := _pile(args[1])):
            return Discard(args[0], pile)
        raise _bad(
            text,
            N_(
                "{text} is not a Guacamole move: discard takes a card of your hand and a discard pile, like `discard 5T x2`. {help}"
            ),
        )
    if verb == "PASS" and not args:
        return Pass()
    if verb == "END" and not args:
        return End()
    if verb == "DONE" and not args:
        return Done()
    if verb == "CANCEL" and not args:
        return Cancel()
    if verb == "SERVE":  # what the menus call the move that ends a dish
        raise _bad(
            text, N_("{text} is not a Guacamole move: to serve the dish you are making, write `done`. {help}")
        )
    raise _bad(
        text,
        N_("{text} is not a Guacamole move: {word} is not one of its words. {help}"),
        word=quoted(verb.lower()),
    )
