"""Nowa Gwinea's moves in words: the one place that describes them.

Huts are offered hut by hut (one menu per hut, where it may go), a
placement shown by the squares it covers, which the private picture's
coordinates make easy to find; when they would not fit in one message the
menu offers the huts first, then where.  ``WORDS`` holds every English text by
message id; :func:`move_words` describes one legal move.
"""

from __future__ import annotations

from engines.core import N_, Kind, MoveWords

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
    "option.side.standard": N_("standard side (A) of the task boards"),
    "option.side.hard": N_("hard side (B) of the task boards"),
    "option.hard_seats": N_("seats {value} play the hard side"),
    "option.boards.shared": N_("the same board for everyone"),
    "option.boards.each": N_("one board each"),
    "option.water_target.1": N_("Gwinea with 1 water hole"),
    "option.water_target": N_("Gwinea with {value} water holes"),
    "option.fruit_for_all.True": N_("fruit for all: everyone but the caller scores 2 per fruit bush"),
    "option.fruit_for_all.False": N_("no fruit for all"),
    "option.hard_reroll.True": N_("hard tasks rerolled until they need 6 huts"),
    "option.hard_reroll.False": N_("hard tasks not rerolled"),
    "kind.build": N_("Build a hut"),
    "kind.remove": N_("Take a hut back"),
    "kind.gwinea": N_("Call Gwinea!"),
    "kind.done": N_("Done building"),
    "kind.timeout": N_("End the round"),
    "group.build": N_("Hut {hut}"),
    "move.place": N_("on {cells}"),
    "move.remove": N_("take hut {hut} back"),
    "move.gwinea": N_("call Gwinea! (end the round)"),
    "move.done": N_("done building this round"),
    "move.timeout": N_("end the round (time is up)"),
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
