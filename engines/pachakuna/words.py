"""P'achakuna's moves in words: the one place that describes them.

Rotations are grouped by tile, within the row of the board the tile lies in
(a menu goes row, tile, then how far, and what to give up where a turn costs a
choice of colours); llama moves by llama, then the row it goes to; paid buys by
the llama where the new one stands.  ``WORDS`` holds every English text by
message id; :func:`move_words` describes one legal move.
"""

from __future__ import annotations

from engines.core import N_, Kind, Level, MoveWords, Said, listing

from . import data as D
from .rules import COLOUR_WORDS, STEP_WORDS, Buy, End, Move, MoveLlama, Rotate, Sell, State

KINDS: tuple[Kind, ...] = (
    Kind("rotate"),
    Kind("move"),
    Kind("sell"),
    Kind("buy"),
    Kind("end", ends_turn=True),
)

WORDS: dict[str, str] = {
    "option.board.A": N_("assembly plan A"),
    "option.board.B": N_("assembly plan B"),
    "option.board.random": N_("a random fair board"),
    "option.max_turns.0": N_("no turn limit"),
    "option.max_turns": N_("stop after {value} turns"),
    "kind.rotate": N_("Turn a tile"),
    "kind.move": N_("Move a llama"),
    "kind.sell": N_("Sell a load"),
    "kind.buy": N_("Buy a llama"),
    "kind.end": N_("End the turn"),
    "group.rotate": N_("Tile {cell}:"),
    "region.rotate": N_("Row {row}: fields {first} to {last}"),
    "region.move": N_("Row {row}: {first} to {last}"),
    "region.buy": N_("Where llama {llama} stands"),
    "group.move": N_("Llama {llama}"),
    "move.rotate": N_("turn {steps}"),
    "move.rotate.pay": N_("turn {steps}, giving up {colours}"),
    "move.move": N_("to {cell}"),
    "move.sell": N_("llama {llama} sells its load"),
    "move.buy": N_("buy a llama where llama {llama} stands"),
    "move.buy.pay": N_("buy a llama where llama {llama} stands, giving up {colours}"),
    "move.end": N_("end the turn"),
}


def _colours(pay: str) -> Said:
    """The colours a payment gives up, in words, as each language lists them: ``red and
    yellow``, ``white, yellow, red and green`` (``blanco, amarillo, rojo y verde``)."""
    return listing([COLOUR_WORDS[D.FROM_LETTER[ch]] for ch in pay.upper()])


def _row(cell: int, text: str = "region.rotate") -> Level:
    """The row of the board a cell lies in, named by its first and last cell (``51`` to ``59``)."""
    row = cell // 10
    return Level(str(row), text, {"row": row, "first": row * 10 + 1, "last": row * 10 + D.ROW_LEN[row]})


def move_words(state: State, seat: int, move: Move) -> MoveWords:
    """``move`` (legal for ``seat`` in ``state``) in words."""
    if isinstance(move, Rotate):
        steps = Said(STEP_WORDS[move.steps % 6])
        return MoveWords(
            "rotate",
            "move.rotate.pay" if move.pay else "move.rotate",
            {"cell": move.cell, "steps": steps, **({"colours": _colours(move.pay)} if move.pay else {})},
            group=str(move.cell),
            group_args={"cell": move.cell},
            regions=(_row(move.cell),),
            regions_first=True,
            # how far, then what to give up, when a turn costs a choice of colours
            then=(Level(str(move.steps), "move.rotate", {"steps": steps}),) if move.pay else (),
        )
    if isinstance(move, MoveLlama):
        return MoveWords(
            "move",
            "move.move",
            {"llama": move.llama, "cell": move.to},
            group=str(move.llama),
            group_args={"llama": move.llama},
            regions=(_row(move.to, "region.move"),),
        )
    if isinstance(move, Sell):
        return MoveWords("sell", "move.sell", {"llama": move.llama})
    if isinstance(move, Buy):
        if move.pay:
            return MoveWords(
                "buy",
                "move.buy.pay",
                {"llama": move.llama, "colours": _colours(move.pay)},
                regions=(Level(str(move.llama), "region.buy", {"llama": move.llama}),),
            )
        return MoveWords("buy", "move.buy", {"llama": move.llama})
    if isinstance(move, End):
        return MoveWords("end", "move.end")
    raise TypeError(f"not a P'achakuna move: {move!r}")


__all__ = ["KINDS", "WORDS", "move_words"]
