"""What each reader may see of a game: the one decision every surface asks.

A *reader* is a seat, or ``None`` for anyone not seated (the channel, spectators, someone who
resigned: :meth:`bot.sessions.Session.reader_of`).  :func:`seen` answers for one move
(:class:`~bot.records.MoveRecord`, just played or read from the log) in the game's state: its
notation if that reader may read it, else its mask, and the event lines the reader may read
("Ana kept a secret order"); :func:`has_public_news` whether the channel hears of a move now.
The rule itself is the game's (``move_privacy`` and ``readable``, :mod:`engines.core`); a move
logged before marks were stored shows its notation to its mover only.  The table's texts
(:mod:`bot.texts`), the exports (:mod:`bot.export`) and the terminal (:mod:`bot.terminal`) all
ask here.

Imports :mod:`bot.records`, :mod:`engines.core`, :mod:`languages` (:mod:`bot.sessions` for types).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from bot.records import MoveRecord
from engines.core import NEVER, TABLE, Engine, Event
from languages import ENGLISH, Language

if TYPE_CHECKING:
    from bot.sessions import MoveResult, Session

__all__ = ["MoveRecord", "Reader", "Seen", "event_line", "has_public_news", "notation", "seen"]

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
            return joined(self.lines)
        if self.notation is not None:
            if self.seat == TABLE:
                return t.gettext("The table played `{move}`", move=self.notation)
            return t.gettext("{player} played `{move}`", player=f"{{p{self.seat}}}", move=self.notation)
        return t.gettext("{player} made a move only they can see", player=f"{{p{self.seat}}}")


def joined(lines: Sequence[str]) -> str:
    """Lines as one: a line that ends a sentence is followed by a space, any other by "; "."""
    out = lines[0] if lines else ""
    for line in lines[1:]:
        out += (" " if out.rstrip().endswith((".", "!", "?", "…")) else "; ") + line
    return out


def seen(
    engine: Engine,
    state: object,
    record: MoveRecord,
    reader: Reader,
    t: Language = ENGLISH,
    *,
    as_stored: bool = False,
) -> Seen:
    """What ``reader`` may see of ``record`` while the game is at ``state``, its event lines in
    ``t`` (the engine's kept sentences translated; an event stored before them reads in English),
    each as a player reads it (the engine's optional ``worded``: Guacamole's cards in words), or
    ``as_stored``, as the game wrote it (an export keeps what the log holds)."""
    mark = record.privacy
    mask, quiet = ("?", False) if mark is None else (mark.mask, mark.quiet)
    events = record.events or ()
    if as_stored:
        lines = tuple(line for e in events if (line := e.words_for(reader, t)))
    else:
        lines = tuple(line for e in events if (line := event_line(engine, e, reader, t)))
    return Seen(record.seat, notation(engine, state, record, reader), lines, mask, quiet)


def event_line(engine: Engine, event: Event, reader: Reader, t: Language = ENGLISH) -> str | None:
    """The line ``reader`` may read of ``event`` (``None``: nothing), in ``t``: its kept sentence
    as a player reads it (the engine's optional ``worded``), or the English line of an event
    stored before sentences were kept."""
    return event.words_for(reader, t, getattr(engine, "worded", None))


def notation(engine: Engine, state: object, record: MoveRecord, reader: Reader) -> str | None:
    """The notation of ``record`` if ``reader`` may read it while the game is at ``state``
    (:attr:`Seen.notation`, without putting the move's event lines in words).  A secret move
    that was taken back (``record.taken_back``) stays its owner's for good: it never reached
    the round's or the game's end that would have shown it (a kept order changed by consent,
    a hut taken back), so neither reveals it."""
    mark = record.privacy
    if mark is not None and record.taken_back and not mark.public:
        mark = replace(mark, until=NEVER)
    if mark is None:
        readable = record.seat == TABLE or (reader is not None and reader == record.seat)
    else:
        readable = record.seat == TABLE or bool(engine.readable(state, mark, reader))
    return record.move if readable else None


def has_public_news(session: Session, result: MoveResult) -> bool:
    """Whether the channel should hear of ``result`` now: a turn (or a round) ended, the game
    did, or the table said something.  Steps inside a turn are told to their player alone,
    and the channel hears all of them when the turn ends."""
    return bool(result.turn_ended or result.finished or result.note)
