"""Guacamole's components: 90 ingredient cards and the arithmetic of dishes.

A card is an integer id 0..89.  Type ``id // 18`` (in :data:`TYPES` order),
number ``(id % 18) // 2 + 1``: every type has the numbers 1 to 9 twice.  Ids
never leave the engine; views, moves and events use the card's *code*, its
number then its type letter, like ``5T`` (a 5 of Tomathor).  The two copies of
a code are interchangeable for every rule.

The dish functions work on codes so that the engine, the computer player and
the renderer all score a dish the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from engines.core import Said, said, term

TYPES: tuple[str, ...] = ("P", "L", "O", "T", "A")
TYPE_WORDS: dict[str, Said] = {
    "P": term("guacamole character", "Patricia & Avocaldo"),
    "L": term("guacamole character", "Lima Kahlo"),
    "O": term("guacamole character", "Onion Musk"),
    "T": term("guacamole character", "Tomathor"),
    "A": term("guacamole character", "Aji Styles"),
}
"""The characters' names, put into sentences as words of the game: the same in every language but
for the accent the rulebook writes in Spanish (Ají Styles)."""
SHORT_WORDS: dict[str, Said] = {
    "P": term("guacamole character", "Avocaldo"),
    "L": term("guacamole character", "Lima"),
    "O": term("guacamole character", "Onion"),
    "T": term("guacamole character", "Tomathor"),
    "A": term("guacamole character", "Aji"),
}
"""The short names ("5 Tomathor"; Spanish: "5 Ají")."""
ABILITIES: dict[str, Said] = {
    "P": said("add up to 3 cards to one valid dish"),
    "L": said("take a random card from a player's hand"),
    "O": said("draw 3, then discard 1"),
    "T": said("swap one of your cards with a visible card"),
    "A": said("take a visible card into your hand"),
}
"""Each type's ability in a few words, kept for translation (a value in sentences), said to the
player who may use it."""
ABILITIES_TOLD: dict[str, Said] = {
    **ABILITIES,
    "T": said("swap one of their own cards with a visible card"),
    "A": said("take a visible card into their own hand"),
}
"""Each type's ability as a line about another player tells it (no "your")."""
COPIES = 2
NUMBERS = range(1, 10)
DECK_SIZE = len(TYPES) * len(NUMBERS) * COPIES  # 90
HAND_SIZE = 7
PREP_LIMIT = 4


def card_type(cid: int) -> str:
    return TYPES[cid // 18]


def card_number(cid: int) -> int:
    return (cid % 18) // 2 + 1


CODES: tuple[str, ...] = tuple(f"{card_number(cid)}{card_type(cid)}" for cid in range(DECK_SIZE))


def card_code(cid: int) -> str:
    return CODES[cid]


def code_key(code: str) -> tuple[int, int]:
    """Sort key: by number, then by type in :data:`TYPES` order."""
    return int(code[0]), TYPES.index(code[1])


def describe(code: str) -> Said:
    """``5T`` -> ``5 Tomathor`` (``9A``: ``9 Ají`` in Spanish)."""
    return said("{number} {name}", number=int(code[0]), name=SHORT_WORDS[code[1]])


def dish_kind(codes: Sequence[str]) -> str | None:
    return _dish_kind(tuple(codes))


@lru_cache(maxsize=65536)
def _dish_kind(codes: tuple[str, ...]) -> str | None:
    """Why a dish is valid (``number``, ``type`` or ``straight``), or ``None`` if it is not.

    At least 3 cards, and all one number, or all one type, or distinct numbers
    in an unbroken run (no wrap from 9 to 1).  A run of one type reports ``type``.
    """
    if len(codes) < 3:
        return None
    nums = [int(c[0]) for c in codes]
    if len(set(nums)) == 1:
        return "number"
    if len({c[1] for c in codes}) == 1:
        return "type"
    if len(set(nums)) == len(nums) and max(nums) - min(nums) == len(nums) - 1:
        return "straight"
    return None


def is_guacamole(codes: Iterable[str]) -> bool:
    """All five ingredient types appear in the dish (valid or not)."""
    return len({c[1] for c in codes}) == len(TYPES)


def dish_points(codes: Sequence[str]) -> int:
    return _dish_points(tuple(codes))


@lru_cache(maxsize=65536)
def _dish_points(codes: tuple[str, ...]) -> int:
    """1 per card, +1 if valid, +2 more if valid with 9 or more cards, +3 if a guacamole."""
    pts = len(codes)
    if dish_kind(codes) is not None:
        pts += 1
        if len(codes) >= 9:
            pts += 2
    if is_guacamole(codes):
        pts += 3
    return pts
