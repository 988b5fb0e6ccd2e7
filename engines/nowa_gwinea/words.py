"""Nowa Gwinea's moves in words: the one place that describes them.

Huts are offered hut by hut (one menu per hut, where it may go), a
placement shown by the squares it covers, which the private picture's
coordinates make easy to find; when they would not fit in one message the
menu offers the huts first, then where.  ``WORDS`` holds every English text by
message id; :func:`move_words` describes one legal move.
"""

from __future__ import annotations

from engines.core import Kind, MoveWords

from .geometry import cell_name, placement
from .rules import Done, Gwinea, Move, Place, Remove, State, Timeout

KINDS: tuple[Kind, ...] = (
    Kind("build"),
    Kind("remove"),
    Kind("gwinea", ends_turn=True),
    Kind("done", ends_turn=True),
    Kind("timeout"),
)

WORDS: dict[str, str] = {
    "option.side.standard": "standard side (A) of the task boards",
    "option.side.hard": "hard side (B) of the task boards",
    "option.hard_seats": "seats {value} play the hard side",
    "option.boards.shared": "the same board for everyone",
    "option.boards.each": "one board each",
    "option.water_target.1": "Gwinea with 1 water hole",
    "option.water_target": "Gwinea with {value} water holes",
    "option.fruit_for_all.True": "fruit for all: everyone but the caller scores 2 per fruit bush",
    "option.fruit_for_all.False": "no fruit for all",
    "option.hard_reroll.True": "hard tasks rerolled until they need 6 huts",
    "option.hard_reroll.False": "hard tasks not rerolled",
    "kind.build": "Build a hut",
    "kind.remove": "Take a hut back",
    "kind.gwinea": "Call Gwinea!",
    "kind.done": "Done building",
    "kind.timeout": "End the round",
    "group.build": "Hut {hut}",
    "move.place": "on {cells}",
    "move.remove": "take hut {hut} back",
    "move.gwinea": "call Gwinea! (end the round)",
    "move.done": "done building this round",
    "move.timeout": "end the round (time is up)",
}


def move_words(state: State, seat: int, move: Move) -> MoveWords:
    """``move`` (legal for ``seat`` in ``state``) in words."""
    if isinstance(move, Place):
        found = placement(move.piece, move.orient, move.anchor)
        cells = " ".join(cell_name(c) for c in found.cells) if found is not None else str(move)
        return MoveWords(
            "build",
            "move.place",
            {"hut": move.piece, "cells": cells},
            group=move.piece,
            group_args={"hut": move.piece},
        )
    if isinstance(move, Remove):
        return MoveWords("remove", "move.remove", {"hut": move.piece})
    if isinstance(move, Gwinea):
        return MoveWords("gwinea", "move.gwinea")
    if isinstance(move, Done):
        return MoveWords("done", "move.done")
    if isinstance(move, Timeout):
        return MoveWords("timeout", "move.timeout")
    raise TypeError(f"not a Nowa Gwinea move: {move!r}")


__all__ = ["KINDS", "WORDS", "move_words"]
