"""Guanga's moves in words: the one place that describes them.

``KINDS`` orders the kinds as a turn runs (keep an order at the start, buy,
refresh or stopper, the two patches of the take, claim, return, done);
``WORDS`` holds every English text by message id; :func:`move_words`
describes one legal move.  A translation adds a catalogue with the same ids.
"""

from __future__ import annotations

from engines.core import Kind, MoveWords

from .rules import (
    CARD,
    ORDER,
    Buy,
    Claim,
    Done,
    Keep,
    Move,
    Place,
    Refresh,
    Return,
    State,
    Stopper,
    patch_name,
)
from .shapes import CELL_NAMES

KINDS: tuple[Kind, ...] = (
    Kind("keep"),
    Kind("place"),
    Kind("buy"),
    Kind("refresh"),
    Kind("stopper"),
    Kind("claim"),
    Kind("return"),
    Kind("done", ends_turn=True),
)

WORDS: dict[str, str] = {
    "option.mode": "{value} mode",
    "option.stoppers.True": "with stoppers",
    "option.stoppers.False": "without stoppers",
    "kind.keep": "Keep an order",
    "kind.place": "Place a basket patch",
    "kind.buy": "Buy a patch with shells",
    "kind.refresh": "Refresh the basket",
    "kind.stopper": "Put a stopper",
    "kind.claim": "Claim a market card",
    "kind.return": "Return two patches",
    "kind.done": "End the turn",
    "group.place": "Slot {slot} ({patch})",
    "group.buy": "Buy slot {slot} ({patch})",
    "group.stopper": "Stopper on {target}'s guanga",
    "move.keep": "keep order {order}: {flag} {flag_points} / {typology} {typology_points}",
    "move.place": "on {cell}",
    "move.buy": "onto {cell}",
    "move.refresh": "refresh the basket with a shell",
    "move.stopper": "at {cell}",
    "move.claim": "claim {name} ({card}) in {attr} on {cells}",
    "move.return": "return the patches on {first} and {second}",
    "move.done": "end the turn",
}


def _slot(state: State, slot: int) -> str:
    kind = state.basket[slot - 1] if 0 < slot <= len(state.basket) else None
    return patch_name(kind) if kind is not None else "empty"


def move_words(state: State, seat: int, move: Move) -> MoveWords:
    """``move`` (legal for ``seat`` in ``state``) in words."""
    if isinstance(move, Keep):
        _, flag, fp, typology, tp = ORDER[move.order]
        return MoveWords(
            "keep",
            "move.keep",
            {
                "order": move.order,
                "flag": flag,
                "flag_points": fp,
                "typology": typology,
                "typology_points": tp,
            },
        )
    if isinstance(move, Place | Buy):
        kind = "place" if isinstance(move, Place) else "buy"
        patch = _slot(state, move.slot)
        return MoveWords(
            kind,
            f"move.{kind}",
            {"slot": move.slot, "patch": patch, "cell": CELL_NAMES[move.cell]},
            group=str(move.slot),
            group_args={"slot": move.slot, "patch": patch},
        )
    if isinstance(move, Refresh):
        return MoveWords("refresh", "move.refresh")
    if isinstance(move, Stopper):
        target = f"{{p{move.target}}}"
        return MoveWords(
            "stopper",
            "move.stopper",
            {"target": target, "cell": CELL_NAMES[move.cell]},
            group=str(move.target),
            group_args={"target": target},
        )
    if isinstance(move, Claim):
        cells = " ".join(CELL_NAMES[c] for c in move.cells)
        name = CARD[move.card][1] if move.card in CARD else move.card
        return MoveWords(
            "claim", "move.claim", {"name": name, "card": move.card, "attr": move.attr, "cells": cells}
        )
    if isinstance(move, Return):
        first, second = (CELL_NAMES[c] for c in move.cells)
        return MoveWords("return", "move.return", {"first": first, "second": second})
    if isinstance(move, Done):
        return MoveWords("done", "move.done")
    raise TypeError(f"not a Guanga move: {move!r}")


__all__ = ["KINDS", "WORDS", "move_words"]
