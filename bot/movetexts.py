"""A game's moves in words for one reader: ``/game log`` (a line a move) and the history pages
with their select (a move at a time).  Each move is first asked of :func:`bot.public.seen`
(through :func:`bot.texts.describe`); a move a later undo took back says so.

Imports :mod:`bot.texts` and what it does; no Discord.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from bot.public import Reader, seen
from bot.records import MoveRecord
from bot.replaying import undo_target
from bot.telling import sentence
from bot.texts import MESSAGE_LIMIT, clip, describe_in, mover, mover_in
from engines.core import END, Engine, Outcome, name_seats
from languages import ENGLISH, Language

if TYPE_CHECKING:
    from bot.sessions import Session


def log_line(session: Session, record: MoveRecord, reader: Reader, t: Language = ENGLISH) -> str:
    if _ranked_otherwise(session):
        (record,) = _without_end([record])
    return _log_line(session.engine, session.state, session.names_at(record.number), record, reader, t)


def _without_end(records: Sequence[MoveRecord]) -> list[MoveRecord]:
    """``records`` without the engine's end line, which names the engine's own winner."""
    return [
        replace(r, events=tuple(e for e in r.events if e.kind != END)) if r.events else r for r in records
    ]


def _log_line(
    engine: Engine, state: object, names: Sequence[str], record: MoveRecord, reader: Reader, t: Language
) -> str:
    head = f"{record.number}. " if record.number is not None else ""
    line = head + describe_in(engine, state, names, record, reader, t)
    return t.gettext("{move} (taken back)", move=line) if record.taken_back else line


def _ranked_otherwise(session: Session) -> bool:
    """Whether the game ended with the table's ranking apart from the engine's: a seat that
    resigned, or whose time ran out, ranks last whatever its score (the results card says it)."""
    if session.status != "finished" or not session.row.outcome:
        return False
    outcome = Outcome.from_dict(session.row.outcome)
    return session.final_ranking(outcome) != [tuple(g) for g in outcome.ranking]


def log_text(session: Session, records: Sequence[MoveRecord], reader: Reader, t: Language = ENGLISH) -> str:
    """``/game log`` for ``reader``, in ``t``: one line per move, newest last, kept under the
    message limit (the most recent moves that fit, and always the newest).  Each move names
    whoever held its seat then (:meth:`Session.names_at`).  The engine's end line is left out
    when the table ranked the game otherwise (a seat that resigned, or whose time ran out, ranks
    last whatever its score): the results card tells that ranking."""
    if not records:
        return t.gettext("No moves yet.")
    engine, state = session.engine, session.state
    if _ranked_otherwise(session):  # the engine's end names its own winner: the table's ranking differs
        records = _without_end(records)
    lines: list[str] = []
    size = -1  # of the lines joined by newlines
    for record in reversed(records):  # newest first: an older line that does not fit is not written
        line = _log_line(engine, state, session.names_at(record.number), record, reader, t)
        size += len(line) + 1
        if lines and size > MESSAGE_LIMIT:
            break
        lines.append(line)
    return clip("\n".join(reversed(lines)))


def history_text(
    session: Session,
    number: int,
    shown: int,
    record: MoveRecord | None,
    reader: Reader,
    t: Language = ENGLISH,
) -> str:
    """A history page for ``reader``, in ``t``: which move, who made it (whoever held the seat
    then), and its event lines as that reader may read them (the mover's private lines only to
    the mover's own seat); last, whether a later undo took it back."""
    values = {"game": session.info.title, "number": session.id, "move": number, "shown": shown}
    if session.status == "active":
        title = t.gettext("**{game}** (game #{number}), move {move} of {shown} (the game goes on)", **values)
    else:
        title = t.gettext("**{game}** (game #{number}), move {move} of {shown}", **values)
    if number == 0 or record is None:
        before = t.gettext("The board before the first move.")
        return clip(f"{title}\n{before}")
    names = session.names_at(number)
    s = seen(session.engine, session.state, record, reader, t)
    who = mover_in(names, record.seat, t)
    if undo_target(record.move) is not None:
        return clip("\n".join([title, *(sentence(name_seats(line, names), names) for line in s.lines)]))
    if s.notation is not None:
        if record.by_computer:
            head = t.gettext(
                "{player} (played by the computer) played `{move}`.", player=who, move=s.notation
            )
        else:
            head = t.gettext("{player} played `{move}`.", player=who, move=s.notation)
    elif record.by_computer:
        head = t.gettext(
            "{player} (played by the computer) moved (the move itself is hidden from you).", player=who
        )
    else:
        head = t.gettext("{player} moved (the move itself is hidden from you).", player=who)
    lines = [title, sentence(head, names)]
    lines.extend(sentence(name_seats(line, names), names) for line in s.lines)
    if record.taken_back:
        lines.append(t.gettext("This move was taken back later; the game went on from the board before it."))
    return clip("\n".join(lines))


def history_label(session: Session, number: int, seat: int | None, t: Language = ENGLISH) -> str:
    """A jump target in the history select, in ``t``: ``Move 12: Ana``."""
    if number == 0:
        return t.gettext("The start")
    who = "?" if seat is None else mover(session, seat, t, number)
    return t.gettext("Move {number}: {player}", number=number, player=who)
