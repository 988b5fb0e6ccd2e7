"""Replaying a move log that may hold undo entries.

The log is append-only: a move taken back by consent stays in it, and an
*undo entry* is appended, whose notation is ``!undo N``: it takes the game
back to the state before move ``N`` (so moves ``N`` up to the entry itself no
longer count).  Every replay of a log (the table's, the history browser's,
an export's) goes through :func:`walk`, which honours those entries.  ``!``
is used by no game's notation, so an entry can never be read as a move.

No Discord, no SQL, no game rules here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from engines.core import Engine, Event

if TYPE_CHECKING:
    from bot.records import MoveRecord

R = TypeVar("R", bound="MoveRecord")

UNDO = "!undo "


def undo_text(target: int) -> str:
    return f"{UNDO}{target}"


def undo_target(move: str) -> int | None:
    """The move an undo entry takes back to (``None``: an ordinary move)."""
    if not move.startswith(UNDO):
        return None
    rest = move[len(UNDO) :]
    return int(rest) if rest.isdecimal() else None


class Entry(Protocol):
    """What a replay reads of a log entry: a log row, a move record, an export's entry."""

    @property
    def number(self) -> int: ...

    @property
    def seat(self) -> int: ...

    @property
    def move(self) -> str: ...


E = TypeVar("E", bound=Entry)


@dataclass(frozen=True)
class Walked(Generic[E]):
    """One log entry replayed: the entry (of the kind given), the game's states around it (held,
    never looked into) and, for a move, its events."""

    entry: E
    before: object
    after: object
    events: tuple[Event, ...] | None  # None for an undo entry
    target: int | None  # for an undo entry: the move it took back to


def walk(module: Engine, state: object, entries: Iterable[E], base: int = 0) -> Iterator[Walked[E]]:
    """Replay ``entries`` (numbered after ``base``, in order) from ``state`` (the state after
    entry ``base``).  An undo entry whose target lies at or before ``base`` cannot be honoured
    from here: :class:`LookupError` (start from an earlier state)."""
    states = {base: state}
    current = state
    for entry in entries:
        target = undo_target(entry.move)
        before = current
        if target is not None:
            if target - 1 not in states:
                raise LookupError(target - 1)
            current, events = states[target - 1], None
        else:
            current, raw = module.apply_move(current, entry.seat, module.parse_move(entry.move))
            events = tuple(raw)
        states[entry.number] = current
        yield Walked(entry, before, current, events, target)


def earliest_target(entries: Iterable[Entry]) -> int | None:
    """The earliest move any undo entry among ``entries`` takes back to."""
    targets = [t for e in entries if (t := undo_target(e.move)) is not None]
    return min(targets) if targets else None


def with_taken_back(records: list[R], entries: Iterable[Entry]) -> list[R]:
    """``records`` (of the log's ``entries``, a window that runs to the log's end) with those
    that a later undo entry took back marked ``taken_back``."""
    gone = taken_back(entries)
    return [replace(r, taken_back=True) if r.number in gone else r for r in records]


def taken_back(entries: Iterable[Entry]) -> set[int]:
    """The numbers of the moves (and undo entries) that later undo entries took back."""
    gone: set[int] = set()
    numbers: list[int] = []
    for e in entries:
        target = undo_target(e.move)
        if target is not None:
            gone.update(n for n in numbers if n >= target)
        numbers.append(e.number)
    return gone


def standing(entries: Iterable[Entry], through: int | None = None) -> int:
    """How many moves of the log ``entries`` stand: undo entries are not moves, and moves a later
    undo entry took back no longer count.  With ``through``, only entries up to that number are
    read (what the channel has been told of)."""
    kept = [e for e in entries if through is None or e.number <= through]
    gone = taken_back(kept)
    return sum(1 for e in kept if undo_target(e.move) is None and e.number not in gone)
