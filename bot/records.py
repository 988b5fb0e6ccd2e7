"""One accepted move as the table keeps it: what the sessions record and the readers read.

:mod:`bot.sessions` makes these (from a move just played, or from a log row) and
:mod:`bot.public` turns them into what each reader may see; both import it from here.

No Discord, no SQL, no game rules here.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.core import Event, Privacy


@dataclass(frozen=True)
class MoveRecord:
    """One accepted move: who, what, how it was marked and what it caused.

    ``events`` and ``privacy`` are ``None`` for a move read from a log written
    before they were stored (and not recovered by replaying the game).  A secret move that was
    taken back never reaches its reveal point: only its owner reads it (:mod:`bot.public`).
    """

    seat: int
    move: str
    by_computer: bool
    events: tuple[Event, ...] | None
    privacy: Privacy | None
    number: int | None = None
    turn: int | None = None  # the engine's turn_number before the move (None: not known)
    taken_back: bool = False  # a later undo entry took it back (:func:`bot.replaying.taken_back`)
