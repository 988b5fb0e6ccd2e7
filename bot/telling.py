"""Turns told the way a person would tell them, for the channel's post and the mover's answer.

A run of one seat's moves within one turn (its turn; in a simultaneous round, what each seat
may read) becomes a few short lines: a run ends where the seat changes and where the engine's
turn number does (:attr:`bot.records.MoveRecord.turn`, when known), so that a solo player's turns,
or a seat's two turns in a row, are told apart.  The game says what the turn made, in its own words, with its optional
``tell_turn(told)`` (:data:`engines.core.Told`): lines of sentences, the player named once,
repeated steps merged; a game without it, or a turn holding an event stored before sentences
were kept, is told one line a turn, as the events said it.  This module lays the lines out:
each sentence with its capital and its full stop, the seats named, the sentences of a line
side by side.  Every step stays in the log and the history pages (:func:`bot.movetexts.history_text`).

Imports :mod:`bot.public`, :mod:`bot.records`, :mod:`engines.core` and :mod:`languages`
(:mod:`bot.sessions` for types); no Discord.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from bot.public import Reader, event_line, seen
from bot.records import MoveRecord
from engines.core import END, Said, Told, name_seats
from languages import ENGLISH, Language

if TYPE_CHECKING:
    from bot.sessions import Session

log = logging.getLogger(__name__)


def sentence(text: str, names: Sequence[str] = ()) -> str:
    """An event's line as a sentence: a capital first letter and a full stop; a line that starts
    with one of the players' ``names`` keeps it as they wrote it (``ana``, ``dj bo``), when the
    name is whole there (a player named "t" does not keep "the deck ran out" small)."""
    text = text.strip()
    if not text:
        return text
    if not any(name and _starts_with_name(text, name) for name in names):
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _starts_with_name(text: str, name: str) -> bool:
    """``text`` starts with ``name`` and no letter or digit runs on from it ("t" in "the")."""
    rest = text[len(name) : len(name) + 1]
    return text.startswith(name) and not (rest.isalnum() and name[-1].isalnum())


class _Run:
    """One seat's moves in a row within one turn: the lines its events said, and what the game
    may tell of them."""

    def __init__(self, seat: int, turn: int | None, names: list[str]) -> None:
        self.seat = seat
        self.turn = turn  # the engine's turn number of its moves (None: not known)
        self.names = names  # the seats' names then (a seat handed to a substitute: its holder then)
        self.texts: list[str] = []  # each event's line, as stored or translated
        self.told: list[Told] | None = []  # None: some line has no kept sentence to tell from


def told_turns(
    session: Session,
    records: Sequence[MoveRecord],
    *,
    finished: bool = False,
    reader: Reader = None,
    t: Language = ENGLISH,
) -> list[list[str]]:
    """What ``reader`` may read of ``records`` (``None``: the channel), in ``t``: for each turn (a
    run of one seat's moves within one turn), its lines, seats named.

    Quiet moves (a hut built in a simultaneous round) are left out of the channel's; so, once the
    game is over, is the engine's own end summary (:data:`engines.core.END`), since the outcome
    is shown once below it.  A seat handed to a league's substitute in the middle of a turn tells
    the steps before the handover as its earlier holder's (:meth:`Session.names_at`)."""
    runs: list[_Run] = []
    for record in records:
        s = seen(session.engine, session.state, record, reader, t)
        if s.quiet and reader is None:
            continue
        told: list[Told] | None = []
        if record.events is None or (not record.events and s.notation is not None):
            texts = [s.summary(t)]  # no stored events: its notation if readable, else that it happened
            told = None
        else:
            texts, told = [], []
            for event in record.events:
                line = event_line(session.engine, event, reader, t)  # as told when the game cannot tell it
                if not line or (finished and event.kind == END):
                    continue
                texts.append(line)
                kept = event.said_for(reader)
                if kept is None or told is None:
                    told = None
                else:
                    told.append((event.kind, kept))
        if not texts:
            continue
        names = session.names_at(record.number)
        if (
            not runs
            or runs[-1].seat != record.seat
            or _new_turn(runs[-1].turn, record.turn)
            or runs[-1].names != names
        ):
            runs.append(_Run(record.seat, record.turn, names))
        run = runs[-1]
        run.texts.extend(texts)
        run.told = None if told is None or run.told is None else [*run.told, *told]
    tell: Callable[[Sequence[Told]], Sequence[Sequence[Said]]] | None = getattr(
        session.engine, "tell_turn", None
    )
    out: list[list[str]] = []
    for run in runs:
        said_lines = _told(tell, run.told, session) if tell is not None and run.told else None
        if said_lines:
            out.append([line for line in (_line(s, run.names, t) for s in said_lines) if line])
        else:
            out.append([" ".join(sentence(name_seats(line, run.names), run.names) for line in run.texts)])
    return out


def _new_turn(run: int | None, move: int | None) -> bool:
    """Whether a move of the run's seat begins another turn: both turn numbers known, and apart."""
    return run is not None and move is not None and run != move


def _told(
    tell: Callable[[Sequence[Told]], Sequence[Sequence[Said]]], told: Sequence[Told], session: Session
) -> Sequence[Sequence[Said]] | None:
    """The game's telling of a turn; ``None`` (the turn is told as its events said it) when the
    game cannot tell these events (stored in a shape its telling does not know), logged."""
    try:
        return tell(told)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        log.warning("session %s: a turn told as its events said it (%r)", session.id, exc)
        return None


def _line(sentences: Sequence[Said], names: Sequence[str], t: Language) -> str:
    return " ".join(sentence(name_seats(s.in_words(t), names), names) for s in sentences)
