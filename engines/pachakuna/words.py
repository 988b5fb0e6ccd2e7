"""P'achakuna's moves in words: the one place that describes them.

Rotations are offered tile first, then how far (``rotate`` is a two-step
kind); llama moves are grouped by llama.  ``WORDS`` holds every English text
by message id; :func:`move_words` describes one legal move.
"""

from __future__ import annotations

from engines.core import Kind, MoveWords

from . import data as D
from .rules import Buy, End, Move, MoveLlama, Rotate, Sell, State

KINDS: tuple[Kind, ...] = (
    Kind("rotate", two_step=True),
    Kind("move"),
    Kind("sell"),
    Kind("buy"),
    Kind("end", ends_turn=True),
)

WORDS: dict[str, str] = {
    "option.board.A": "assembly plan A",
    "option.board.B": "assembly plan B",
    "option.board.random": "a random fair board",
    "option.max_turns.0": "no turn limit",
    "option.max_turns": "stop after {value} turns",
    "kind.rotate": "Turn a tile",
    "kind.move": "Move a llama",
    "kind.sell": "Sell a load",
    "kind.buy": "Buy a llama",
    "kind.end": "End the turn",
    "group.rotate": "Tile {cell}:",
    "group.move": "Llama {llama}",
    "move.rotate": "turn {steps}{pay}",
    "move.move": "to {cell}",
    "move.sell": "llama {llama} sells its load",
    "move.buy": "buy a llama where llama {llama} stands{pay}",
    "move.end": "end the turn",
    "pay": ", giving up {colours}",
    "steps.0": "not at all (it still counts as turned)",
    "steps.1": "one sixth clockwise",
    "steps.2": "two sixths clockwise",
    "steps.3": "half a turn",
    "steps.4": "two sixths anticlockwise",
    "steps.5": "one sixth anticlockwise",
}


def _pay(pay: str) -> str:
    if not pay:
        return ""
    colours = " and ".join(D.FROM_LETTER[ch] for ch in pay.upper())
    return WORDS["pay"].format(colours=colours)


def move_words(state: State, seat: int, move: Move) -> MoveWords:
    """``move`` (legal for ``seat`` in ``state``) in words."""
    if isinstance(move, Rotate):
        return MoveWords(
            "rotate",
            "move.rotate",
            {"cell": move.cell, "steps": WORDS[f"steps.{move.steps % 6}"], "pay": _pay(move.pay)},
            group=str(move.cell),
            group_args={"cell": move.cell},
        )
    if isinstance(move, MoveLlama):
        return MoveWords(
            "move",
            "move.move",
            {"llama": move.llama, "cell": move.to},
            group=str(move.llama),
            group_args={"llama": move.llama},
        )
    if isinstance(move, Sell):
        return MoveWords("sell", "move.sell", {"llama": move.llama})
    if isinstance(move, Buy):
        return MoveWords("buy", "move.buy", {"llama": move.llama, "pay": _pay(move.pay)})
    if isinstance(move, End):
        return MoveWords("end", "move.end")
    raise TypeError(f"not a P'achakuna move: {move!r}")


__all__ = ["KINDS", "WORDS", "move_words"]
