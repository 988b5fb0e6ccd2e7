"""Tiwanaku's moves in words: the one place that describes them.

``KINDS`` orders the kinds as a turn runs (cube trades and offerings, then
the action: enter, walk or explore, leave, divine; then done or pass);
``WORDS`` holds every English text by message id; :func:`move_words`
describes one legal move.  A translation adds a catalogue with the same ids.
"""

from __future__ import annotations

from engines.core import Kind, MoveWords

from .board import cell_name
from .data import TERRAIN_NAMES
from .moves import Divine, Done, Enter, Extra, Leave, Move, Pass, Peek, Step, Trade
from .rules import State, cubes_of

KINDS: tuple[Kind, ...] = (
    Kind("trade"),
    Kind("extra"),
    Kind("peek"),
    Kind("enter"),
    Kind("walk"),
    Kind("leave"),
    Kind("divine"),
    Kind("done", ends_turn=True),
    Kind("pass", ends_turn=True),
)

WORDS: dict[str, str] = {
    "option.board.auto": "board size by player count",
    "option.board.short": "short 5x5 board",
    "option.board.long": "long 5x9 board",
    "kind.trade": "Trade cubes",
    "kind.extra": "Offer for an extra action",
    "kind.peek": "Offer for a look at the disc",
    "kind.enter": "Bring in an explorer",
    "kind.walk": "Move or explore",
    "kind.leave": "Take an explorer off",
    "kind.divine": "Divine a crop",
    "kind.done": "Stop divining",
    "kind.pass": "Pass",
    "group.walk": "Explorer on {cell}:",
    "group.divine": "Divine under {cell}:",
    "move.trade": "trade {give} for a {get} cube",
    "move.extra": "offer one cube of each terrain for an extra action",
    "move.peek.hidden": "offer for a look at the terrain under {cell}",
    "move.peek.crop": "offer for a look at the crop under {cell}",
    "move.enter": "enter at {cell}",
    "move.walk": "walk to {cell}",
    "move.explore": "explore {cell}",
    "move.leave": "take the explorer on {cell} off the board",
    "move.divine": "crop {crop}",
    "move.done": "stop divining",
    "move.pass": "pass (leave the final divinations)",
}


def _cell(state: State, row: int, col: int) -> str:
    return cell_name(row * state.cols + col, state.cols)


def move_words(state: State, seat: int, move: Move) -> MoveWords:
    """``move`` (legal for ``seat`` in ``state``) in words."""
    if isinstance(move, Trade):
        return MoveWords("trade", "move.trade", {"give": cubes_of(move.give), "get": TERRAIN_NAMES[move.get]})
    if isinstance(move, Extra):
        return MoveWords("extra", "move.extra")
    if isinstance(move, Peek):
        c = move.row * state.cols + move.col
        text = "move.peek.crop" if state.discovered[c] else "move.peek.hidden"
        return MoveWords("peek", text, {"cell": _cell(state, move.row, move.col)})
    if isinstance(move, Enter):
        return MoveWords("enter", "move.enter", {"cell": _cell(state, move.row, move.col)})
    if isinstance(move, Step):
        src = _cell(state, move.row, move.col)
        dst = move.to_row * state.cols + move.to_col
        text = "move.walk" if state.discovered[dst] else "move.explore"
        return MoveWords(
            "walk",
            text,
            {"cell": _cell(state, move.to_row, move.to_col)},
            group=src,
            group_args={"cell": src},
        )
    if isinstance(move, Leave):
        return MoveWords("leave", "move.leave", {"cell": _cell(state, move.row, move.col)})
    if isinstance(move, Divine):
        cell = _cell(state, move.row, move.col)
        return MoveWords(
            "divine", "move.divine", {"crop": move.crop, "cell": cell}, group=cell, group_args={"cell": cell}
        )
    if isinstance(move, Done):
        return MoveWords("done", "move.done")
    if isinstance(move, Pass):
        return MoveWords("pass", "move.pass")
    raise TypeError(f"not a Tiwanaku move: {move!r}")


__all__ = ["KINDS", "WORDS", "move_words"]
