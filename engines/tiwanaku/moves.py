"""Tiwanaku moves and their compact notation."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engines.core import MalformedMove, quoted
from engines.tiwanaku.data import ROW_LETTERS, TERRAIN_NAMES, TERRAINS


def _cell(row: int, col: int) -> str:
    return f"{ROW_LETTERS[row]}{col + 1}"


@dataclass(frozen=True)
class Enter:
    """Bring an explorer from off the board onto a free edge cell."""

    row: int
    col: int

    def __str__(self) -> str:
        return f"+{_cell(self.row, self.col)}"


@dataclass(frozen=True)
class Step:
    """Move the explorer standing on (row, col) to (to_row, to_col)."""

    row: int
    col: int
    to_row: int
    to_col: int

    def __str__(self) -> str:
        return f"{_cell(self.row, self.col)}-{_cell(self.to_row, self.to_col)}"


@dataclass(frozen=True)
class Leave:
    """Take the explorer standing on (row, col) off the board."""

    row: int
    col: int

    def __str__(self) -> str:
        return f"{_cell(self.row, self.col)}-out"


@dataclass(frozen=True)
class Divine:
    """Guess the crop under one's own explorer."""

    row: int
    col: int
    crop: int

    def __str__(self) -> str:
        return f"{_cell(self.row, self.col)}={self.crop}"


@dataclass(frozen=True)
class Done:
    """Stop divining after a correct guess."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True)
class Pass:
    """Leave the final divination phase."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Trade:
    """Give two offering cubes for one cube of any terrain."""

    give: str  # two terrain letters, in TERRAINS order
    get: str

    def __str__(self) -> str:
        return f"{self.give}>{self.get}"


def pointless(state: object, seat: int, move: object) -> bool:
    """A legal move no player wants, left out of menus and autocomplete (still accepted when
    typed): a trade that gets back a terrain it gives, which only throws away a cube."""
    return isinstance(move, Trade) and move.get in move.give


@dataclass(frozen=True)
class Extra:
    """Offer four different cubes for one more action this turn."""

    def __str__(self) -> str:
        return "extra"


@dataclass(frozen=True)
class Peek:
    """Offer four different cubes to look at the disc for one cell, privately."""

    row: int
    col: int

    def __str__(self) -> str:
        return f"peek:{_cell(self.row, self.col)}"


Move = Enter | Step | Leave | Divine | Done | Pass | Trade | Extra | Peek

_C = r"([A-E])([1-9])"
_PATTERNS = (
    (re.compile(rf"^(?:\+|IN-?|ENTER-?){_C}$"), lambda m: Enter(*_rc(m, 1))),
    (re.compile(rf"^{_C}-(?:OUT|OFF|X)$"), lambda m: Leave(*_rc(m, 1))),
    (re.compile(rf"^{_C}(?:-|>|TO){_C}$"), lambda m: Step(*_rc(m, 1), *_rc(m, 3))),
    (re.compile(rf"^{_C}[=:]([0-9])$"), lambda m: Divine(*_rc(m, 1), int(m.group(3)))),
    (re.compile(r"^(?:DONE|STOP)$"), lambda m: Done()),
    (re.compile(r"^PASS$"), lambda m: Pass()),
    (re.compile(r"^(?:EXTRA|OFFER|OFFER:?EXTRA)$"), lambda m: Extra()),
    (re.compile(rf"^(?:PEEK|OFFER:?PEEK):?{_C}$"), lambda m: Peek(*_rc(m, 1))),
    (re.compile(r"^([SDMF])([SDMF])>([SDMF])$"), lambda m: _trade(m)),
)


_TRADE_SHAPE = re.compile(r"^[A-Z]{2}>[A-Z]$")
# A cell no board has (a row after E, column 0 or beyond 9) where a move names a cell.
_BAD_CELL = re.compile(r"(?<![A-Z])(?:[F-Z][0-9]+|[A-E](?:0|[0-9]{2,}))")


def _rc(m: re.Match[str], g: int) -> tuple[int, int]:
    return ROW_LETTERS.index(m.group(g)), int(m.group(g + 1)) - 1


def _trade(m: re.Match[str]) -> Trade:
    give = "".join(sorted(m.group(1) + m.group(2), key=TERRAINS.index))
    return Trade(give, m.group(3))


def parse_move(text: str) -> Move:
    raw = "".join((text or "").split()).upper()
    for pattern, build in _PATTERNS:
        m = pattern.match(raw)
        if m:
            move = build(m)
            if isinstance(move, Divine) and not 1 <= move.crop <= 5:
                raise MalformedMove("{text}: a crop is 1 to 5, like C3=2", text=quoted(text))
            return move
    if _BAD_CELL.search(raw):  # a move naming a cell off every board: say which cells there are
        raise MalformedMove(
            "{text}: cells are rows A-E and columns 1-5 (short board) or 1-9 (long board), like C3",
            text=quoted(text),
        )
    if _TRADE_SHAPE.match(raw):  # a trade with other letters: the reader's own (Spanish MM>B)
        names = {f"t{t}": TERRAIN_NAMES[t] for t in TERRAINS}
        raise MalformedMove(
            "{text}: a trade writes the terrains with the letters S ({tS}), D ({tD}), M ({tM}) and "
            "F ({tF}), as in SD>M (two cubes given, then the one taken)",
            text=quoted(text),
            **names,
        )
    raise MalformedMove(
        "{text} is not a Tiwanaku move; moves look like +A1 (enter), B3-C3 (move or explore), "
        "B3-out (leave), C3=2 (divine crop 2), done, pass, SD>M (trade two cubes for one), "
        "extra or peek:C4 (offerings)",
        text=quoted(text),
    )
