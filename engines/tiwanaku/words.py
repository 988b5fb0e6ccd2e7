"""Tiwanaku's moves in words: the one place that describes them.

``KINDS`` orders the kinds as a turn runs (cube trades and offerings, then
the action: enter, walk or explore, leave, divine; then done or pass);
``WORDS`` holds every English text by message id; :func:`move_words`
describes one legal move.  The texts are English message ids (marked with
``N_``), translated where they are shown; terrains and cubes are passed as
kept words (:func:`~engines.tiwanaku.rules.terrain`), so they are translated too.
"""

from __future__ import annotations

from engines.core import N_, Kind, Level, MoveWords

from .board import cell_name
from .data import ROW_LETTERS
from .moves import Divine, Done, Enter, Extra, Leave, Move, Pass, Peek, Step, Trade
from .rules import State, cubes_given, terrain

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
    "option.board.auto": N_("board size by player count"),
    "option.board.short": N_("short 5x5 board"),
    "option.board.long": N_("long 5x9 board"),
    "kind.trade": N_("Trade cubes"),
    "kind.extra": N_("Offer for an extra action"),
    "kind.peek": N_("Offer for a look at the disc"),
    "kind.enter": N_("Bring in an explorer"),
    "kind.walk": N_("Move or explore"),
    "kind.leave": N_("Take an explorer off"),
    "kind.divine": N_("Divine a crop"),
    "kind.done": N_("Stop divining"),
    "kind.pass": N_("Pass"),
    "group.walk": N_("Explorer on {cell}:"),
    "group.divine": N_("Divine under {cell}:"),
    "region.row": N_("Row {row}"),
    "move.trade": N_("trade {give} for a {get} cube"),
    "move.extra": N_("offer one cube of each terrain for an extra action"),
    "move.peek.hidden": N_("offer for a look at the terrain under {cell}"),
    "move.peek.crop": N_("offer for a look at the crop under {cell}"),
    "move.enter": N_("enter at {cell}"),
    "move.walk": N_("walk to {cell}"),
    "move.explore": N_("explore {cell}"),
    "move.leave": N_("take the explorer on {cell} off the board"),
    "move.divine": N_("crop {crop}"),
    "move.done": N_("stop divining"),
    "move.pass": N_("pass (leave the final divinations)"),
}


def _cell(state: State, row: int, col: int) -> str:
    return cell_name(row * state.cols + col, state.cols)


def _row(row: int) -> tuple[Level]:
    """The row of the board (its letter), a step a menu takes when there are many cells."""
    return (Level(ROW_LETTERS[row], "region.row", {"row": ROW_LETTERS[row]}),)


def move_words(state: State, seat: int, move: Move) -> MoveWords:
    """``move`` (legal for ``seat`` in ``state``) in words."""
    if isinstance(move, Trade):
        return MoveWords("trade", "move.trade", {"give": cubes_given(move.give), "get": terrain(move.get)})
    if isinstance(move, Extra):
        return MoveWords("extra", "move.extra")
    if isinstance(move, Peek):
        c = move.row * state.cols + move.col
        text = "move.peek.crop" if state.discovered[c] else "move.peek.hidden"
        return MoveWords("peek", text, {"cell": _cell(state, move.row, move.col)}, regions=_row(move.row))
    if isinstance(move, Enter):
        return MoveWords(
            "enter", "move.enter", {"cell": _cell(state, move.row, move.col)}, regions=_row(move.row)
        )
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
            regions=_row(move.to_row),  # the way down when an explorer has more than 25 places to go
        )
    if isinstance(move, Leave):
        return MoveWords("leave", "move.leave", {"cell": _cell(state, move.row, move.col)})
    if isinstance(move, Divine):
        cell = _cell(state, move.row, move.col)
        return MoveWords(
            "divine",
            "move.divine",
            {"crop": move.crop, "cell": cell},
            group=cell,
            group_args={"cell": cell},
            regions=_row(move.row),
            regions_first=True,
        )
    if isinstance(move, Done):
        return MoveWords("done", "move.done")
    if isinstance(move, Pass):
        return MoveWords("pass", "move.pass")
    raise TypeError(f"not a Tiwanaku move: {move!r}")


__all__ = ["KINDS", "WORDS", "move_words"]
