"""What each reader may see of a game: the one decision every surface asks.

A *reader* is a seat number, or ``None`` for anyone who is not seated (the channel,
spectators).  :func:`seen` says what a reader may see of one move
(:class:`~bot.records.MoveRecord`: a move, its events and its privacy mark, just played or
read back from the log) in the game's state: its notation or not, the event lines that
reader may read, its mask, and whether the channel need not hear of it on its own.
:func:`has_public_news` says whether the channel hears of a move now.  Every text the table
shows about a game is put in words from these answers by :mod:`bot.texts` (the channel's
posts, private replies, ``/game log``, ``/game status``, history pages), and the export
(:mod:`bot.export`, also of a finished game: a move kept secret for good stays kept) and the
terminal (:mod:`bot.terminal`) ask them too.  Who reads as which seat is
:meth:`bot.sessions.Session.reader_of`'s answer: someone who resigned reads as a spectator.

The rule itself is the game's (``move_privacy`` and ``readable`` in its engine, see
:mod:`engines.core`): a reader who may read a move sees its notation; one who may not sees
only the move's events as that reader may read them ("Ana kept a secret order").  A move read
back from a log written before marks were stored, which could not be replayed, is shown
safely: its notation to its mover only, and to the others a line that says nothing.

Imports :mod:`bot.records`, :mod:`engines.core` and :mod:`languages` (and, for types only,
:mod:`bot.sessions`); no Discord, no texts of the table's own beyond a move's one-line summary.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.records import MoveRecord
from engines.core import TABLE, Engine
from languages import ENGLISH, Language

if TYPE_CHECKING:
    from bot.sessions import MoveResult, Session

__all__ = ["MoveRecord", "Reader", "Seen", "has_public_news", "seen"]

Reader = int | None


@dataclass(frozen=True)
class Seen:
    """One move as one reader may see it (seats still written ``{pN}``)."""

    seat: int
    notation: str | None  # the notation, when this reader may read it
    lines: tuple[str, ...]  # the move's event lines this reader may read
    mask: str  # a short stand-in for the notation, where it is hidden
    quiet: bool  # the channel need not hear of this move on its own

    def summary(self, t: Language = ENGLISH) -> str:
        """The move in one line, in ``t``: its events, else its notation, else that it happened."""
        if self.lines:
            return "; ".join(self.lines)
        if self.notation is not None:
            if self.seat == TABLE:
                return t.gettext("The table played `{move}`", move=self.notation)
            return t.gettext("{player} played `{move}`", player=f"{{p{self.seat}}}", move=self.notation)
        return t.gettext("{player} made a move only they can see", player=f"{{p{self.seat}}}")


def seen(engine: Engine, state: Any, record: MoveRecord, reader: Reader, t: Language = ENGLISH) -> Seen:
    """What ``reader`` may see of ``record`` while the game is at ``state``, its event lines in
    ``t`` (the engine's kept sentences translated; an event stored before them reads in English)."""
    mark = record.privacy
    if mark is None:
        readable = record.seat == TABLE or (reader is not None and reader == record.seat)
        mask, quiet = "?", False
    else:
        readable = record.seat == TABLE or bool(engine.readable(state, mark, reader))
        mask, quiet = mark.mask, mark.quiet
    lines = tuple(line for e in record.events or () if (line := e.words_for(reader, t)))
    return Seen(record.seat, record.move if readable else None, lines, mask, quiet)


def has_public_news(session: Session, result: MoveResult) -> bool:
    """Whether the channel should hear of ``result`` now: a turn (or a round) ended, the game
    did, or the table said something.  Steps inside a turn are told to their player alone,
    and the channel hears all of them when the turn ends."""
    return bool(result.turn_ended or result.finished or result.note)
