"""Helpers for Guacamole tests: build rigged states from card codes."""

from __future__ import annotations

import dataclasses

from engines.guacamole import Config, State
from engines.guacamole.data import DECK_SIZE, TYPES, card_code
from engines.guacamole.rules import MAIN


class Cards:
    """Hands out card ids by code, each id at most once."""

    def __init__(self) -> None:
        self.free = {cid: True for cid in range(DECK_SIZE)}

    def take(self, code: str) -> int:
        t = TYPES.index(code[1])
        base = t * 18 + (int(code[0]) - 1) * 2
        for cid in (base, base + 1):
            if self.free.get(cid):
                self.free[cid] = False
                return cid
        raise ValueError(f"no copy of {code} left")

    def many(self, codes) -> list[int]:
        return [self.take(c) for c in codes]

    def rest(self) -> list[int]:
        return [cid for cid, ok in self.free.items() if ok]


def rig(
    players: int = 2,
    *,
    hands=None,
    prep=None,
    dishes=None,
    discards=(("9A",), ("9P",)),
    deck_top=(),
    fill_deck: bool = True,
    turn: int = 0,
    phase: str = MAIN,
    dishes_per_turn: int = 1,
    seed: int = 1,
    **extra,
) -> State:
    """A state with the given cards (codes); unlisted cards go under the draw pile.

    ``deck_top`` lists the next cards drawn, first drawn first.
    """
    cards = Cards()
    hands = hands or {}
    prep = prep or {}
    dishes = dishes or {}
    h = [sorted(cards.many(hands.get(p, ()))) for p in range(players)]
    z = [cards.many(prep.get(p, ())) for p in range(players)]
    d = [[cards.many(dish) for dish in dishes.get(p, ())] for p in range(players)]
    x = [cards.many(pile) for pile in discards]
    top = cards.many(deck_top)
    deck = (cards.rest() if fill_deck else []) + list(reversed(top))
    state = State(
        config=Config(players=players, dishes_per_turn=dishes_per_turn),
        seed=seed,
        hands=h,
        prep=z,
        dishes=d,
        discards=x,
        deck=deck,
        turn=turn,
        phase=phase,
        prep_at_start=len(z[turn]),
    )
    return dataclasses.replace(state, **extra) if extra else state


def tied_before_last_draw() -> State:
    """Two players tied through every tiebreak (4 points each from one dish, one card each in hand and
    zone together), player 2 to draw the draw pile's last card, which ends the game shared."""
    return rig(
        players=2,
        hands={0: ["9L"]},
        discards=(["1A"], []),
        fill_deck=False,
        turn=1,
        dishes={0: [["1P", "2P", "3P"]], 1: [["1T", "2T", "3T"]]},
    )


def codes(cards) -> list[str]:
    return [card_code(c) for c in cards]


def total_cards(state: State) -> list[int]:
    ids = [c for h in state.hands for c in h]
    ids += [c for z in state.prep for c in z]
    ids += [c for ds in state.dishes for d in ds for c in d]
    ids += [c for x in state.discards for c in x]
    ids += state.deck + state.building
    return sorted(ids)
