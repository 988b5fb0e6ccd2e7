"""The session model: seats, sessions, what a change did, and the refusals a person is told.

Plain records and pure helpers shared by the session services (:mod:`bot.sessions`): no
storage calls, no Discord, no locks.  Imports: engines, bot.computers' neighbours (records,
ratings), bot.storage's row types, bot.time.gameclock, languages.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

import engines
from bot.holders import names_at
from bot.ratings import RatingChange
from bot.records import MoveRecord
from bot.storage import (
    MoveRow,
    NewMove,
    SessionRow,
)
from bot.storage.profiles import Holder
from bot.time import gameclock as gc
from engines.core import (
    DEFAULT_LEVEL,
    N_,
    TABLE,
    Engine,
    Event,
    MoveError,
    Outcome,
    Privacy,
    Said,
    Translates,
    listing,
    name_seats,
    rng_for,
    said,
)
from languages import ENGLISH, Language

log = logging.getLogger(__name__)

MAX_COMPUTER_MOVES = 2000
STALLED = N_("the computer player could not move; the game waits (ask an admin to check the log)")
"""Computer moves played in a row before the table stops and asks for help."""
HELD_UP = N_(
    "the table could not go on after this (the database did not answer): the computer players' turns "
    "or the end of the game wait, and are tried again until the database answers"
)
"""A change was stored, and what follows it (computer turns, the results) could not be."""

MAX_TIMER_HOURS = 720
"""The longest turn timer, in hours (30 days)."""


class Refusal(Exception):
    """A refusal from the table, in words a player can read.

    ``Refusal("there is no game #{number} here", number=5)`` keeps the English message (its
    message id, named placeholders) and its values as a :class:`~engines.core.Said`, or takes one
    (``Refusal(said_n(n, "{n} seat", "{n} seats"))`` for a count): ``str()`` is the English
    sentence, and :meth:`in_words` the refusal in the reader's language.  A text built by the code
    (another error's words) has no values and reads as it is."""

    def __init__(self, message: object = "", /, **values: object) -> None:
        self.said = message if isinstance(message, Said) else Said(str(message), values)
        super().__init__(self.said.in_words())

    def in_words(self, t: Language) -> str:
        """The refusal in ``t``."""
        return self.said.in_words(t)


_Refused = TypeVar("_Refused", MoveError, Refusal)


def seats_said(seats: Sequence[int]) -> Said | str:
    """Seats as the table's own notes name them: each written ``{p0}`` as the engines' sentences
    write a seat, for the table to name for each reader (:func:`engines.core.name_seats`, with
    the names a message writes escaped), and several listed as the reader's language lists them
    ("{p0} and {p2}", "{p0} y {p2}")."""
    return listing([f"{{p{seat}}}" for seat in seats])


def named(exc: _Refused, names: Sequence[str]) -> _Refused:
    """The refusal ``exc`` (the engine's, or the table's naming seats ``{p0}``) with the players'
    names put in: ``str()`` in English, and :func:`refusal` in a reader's language (the sentence
    kept for translation is kept)."""
    out = type(exc)(exc.said)
    out.args = (name_seats(str(exc), names),)
    out.names = tuple(names)  # type: ignore[attr-defined]  # the table adds the names to the error
    return out


def refusal(exc: BaseException, t: Language, written: Callable[[str], str] | None = None) -> str:
    """A refusal in ``t``: the table's (:class:`Refusal`), or the engine's kept sentence, with
    the players' names put in (see :func:`named`), each as ``written`` writes it (a Discord
    message: its markdown escaped)."""
    if isinstance(exc, Refusal | MoveError):
        names = getattr(exc, "names", None)
        if isinstance(exc, Refusal) and names is None:  # names no seat: read as it is
            return exc.in_words(t)
        if names is not None and written is not None:
            names = [written(n) for n in names]
        return name_seats(exc.said.in_words(t), names)
    return str(exc)


_PUT_IN = "\ue000"  # stands in for each plain-text value while a refusal's first word is found
_SEAT = re.compile(r"\{p\d+\}")


def starts_with_name(exc: BaseException, t: Language) -> bool:
    """Whether the refusal ``exc``, said in ``t``, starts with a text put in as someone wrote it:
    a player's name (a seat written ``{p0}``), a member's or a league's name, a move as typed.
    Such a refusal keeps its first letter as written ("ana is already signed up", never "Ana")."""
    if not isinstance(exc, Refusal | MoveError):
        return False
    text = _values_marked(exc.said).in_words(t).lstrip()
    return text.startswith(_PUT_IN) or _SEAT.match(text) is not None


def _values_marked(sentence: Said) -> Said:
    """``sentence`` with each plain-text value (also in the sentences put in it) a stand-in."""
    args = {
        k: _values_marked(v) if isinstance(v, Said) else _PUT_IN if isinstance(v, str) and v else v
        for k, v in sentence.args.items()
    }
    return replace(sentence, args=args)


def waiting(session: Session, seat: int) -> Said | None:
    """Why ``seat`` waits in words of its game (its optional ``waiting``: a Nowa Gwinea builder
    who said done), seats written ``{p0}``; ``None`` when the game says nothing more than whose
    turn it is."""
    why = getattr(session.engine, "waiting", None)
    return why(session.state, seat) if why is not None else None


class NoGameHere(Refusal):
    pass


class NotSeated(Refusal):
    """The asker has no seat in the game they act on (always said as :data:`NOT_SEATED`)."""


NOT_SEATED = N_("you are not playing in this game")


class StaleMove(Refusal):
    """The board changed between reading it and acting on it."""


class Damaged(Refusal):
    """The session is marked damaged; only abandoning it is possible."""


class EndedHere(Exception):
    """The game a channel's move was sent to is no longer running there (see Play.play)."""


@dataclass(frozen=True)
class Seat:
    join_order: int
    seat: int | None
    user_id: int | None
    name: str
    computer: bool
    resigned: bool
    level: str | None = None  # chosen when seated as a computer; None: a person, or taken over

    @property
    def computer_level(self) -> str:
        """The level the computer plays this seat at (a seat taken over from a person: normal)."""
        return self.level or DEFAULT_LEVEL

    @property
    def tag(self) -> str:
        """What follows the seat's name in lists: `` (computer, strong)`` for a computer seat."""
        return f" (computer, {self.computer_level})" if self.computer else ""

    @property
    def mention(self) -> str:
        return f"<@{self.user_id}>" if self.user_id and not self.computer else self.name


@dataclass
class Session:
    """A session as the table sees it: the stored row plus the live engine state."""

    row: SessionRow
    seats: list[Seat]
    info: engines.GameInfo
    state: object = None
    damaged: str | None = None  # why the table cannot run this game (see Core.load)
    league: bool = False  # a damaged game only: it is a league game (its organiser abandons it)
    earlier: tuple[Holder, ...] = ()
    """Who held a seat before it was handed to a league's substitute (read for a game's past only:
    :meth:`bot.sessions.logbook.Logbook.with_holders`); empty, every move is named after the seats'
    holders now."""

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def engine(self) -> Engine:
        return self.info.load()

    @property
    def version(self) -> int:
        return self.row.version

    @property
    def status(self) -> str:
        return self.row.status

    def names(self) -> list[str]:
        seated = [(s.seat, s) for s in self.seats if s.seat is not None]
        ordered = [s for _, s in sorted(seated, key=lambda pair: pair[0])]
        if ordered:
            return [s.name for s in ordered]
        return [s.name for s in self.seats]

    def names_at(self, number: int | None) -> list[str]:
        """The seats' names as they were at move ``number``: who made it and the others' holders
        then (see :mod:`bot.holders`; None: now)."""
        return names_at(self.names(), self.earlier, number)

    def names_after(self, number: int | None) -> list[str]:
        """The seats' names on the board after move ``number``: whoever held each seat from then
        on to the next move (the one to play from that position; after the last move, the
        holders now).  None: now."""
        return self.names_at(None if number is None else number + 1)

    def seat_of(self, user_id: int) -> Seat | None:
        """The seat ``user_id`` took, resigned or not: for acting on it (a move, an undo, a vote),
        which says why a seat the computer plays is refused.  To read, ask :meth:`reader_of`."""
        return next((s for s in self.seats if s.user_id == user_id), None)

    def reader_of(self, user_id: int) -> int | None:
        """The seat whose private side ``user_id`` may read (its hand, its secret lines, its
        view), or ``None``: they read the game as a spectator.  Someone who resigned reads as a
        spectator: the computer plays that seat now, and what it holds is no longer theirs.  A
        seat the computer took over when its player's time ran out stays theirs to read (they may
        take it back with ``/game return``, and its result counts as theirs)."""
        seat = self.seat_of(user_id)
        if seat is None or seat.seat is None or seat.resigned:
            return None
        return seat.seat

    def by_seat(self, seat: int) -> Seat:
        return next(s for s in self.seats if s.seat == seat)

    def to_move(self) -> set[int]:
        if self.status != "active" or self.state is None or self.damaged:
            return set()
        return set(self.engine.to_move(self.state))

    @property
    def clock(self) -> gc.ClockSpec | None:
        """The game clock, the turn timer included (None: none)."""
        if not self.row.clock:
            return None
        try:
            return gc.parse_clock(self.row.clock)
        except gc.ClockError:
            return None

    @property
    def banks(self) -> gc.Banks:
        """The running clocks (empty before the game starts or without a clock)."""
        return gc.Banks.from_dict(self.row.clock_state)

    def waiting_on(self) -> list[Seat]:
        return [self.by_seat(s) for s in sorted(self.to_move())]

    def final_ranking(self, outcome: Outcome) -> list[tuple[int, ...]]:
        """The ranking the results and ratings keep: the engine's, with the seats that resigned
        or whose time ran out (the computer then played them) below everyone who stayed, in the
        engine's order among themselves."""
        last = {s.seat for s in self.seats if s.resigned} | gc.ranks_last(self.banks)
        ranking = [g for g in (tuple(s for s in group if s not in last) for group in outcome.ranking) if g]
        ranking += [g for g in (tuple(s for s in group if s in last) for group in outcome.ranking) if g]
        return ranking

    def ran_out(self) -> set[int]:
        """Seats whose time ran out (the computer then played them) and that did not resign: the
        results say so beside their place, as they say "resigned"."""
        return gc.ranks_last(self.banks) - {s.seat for s in self.seats if s.resigned}


Played = MoveRecord
"""What one accepted move did: who, what, its privacy mark and the events it caused."""


def apply(
    module: Engine, state: object, seat: int, move: object, *, by_computer: bool
) -> tuple[object, Played]:
    """Apply ``move`` and record it with its privacy mark and turn number, from the state before it."""
    privacy = module.move_privacy(state, seat, move)
    turn = module.turn_number(state)
    new_state, events = module.apply_move(state, seat, move)
    return new_state, Played(seat, str(move), by_computer, tuple(events), privacy, turn=turn)


def stored(played: Played) -> NewMove:
    """A played move as the log stores it."""
    return NewMove(
        played.seat,
        played.move,
        played.by_computer,
        [e.to_dict() for e in played.events or ()],
        None if played.privacy is None else played.privacy.to_dict(),
        played.turn,
    )


def record_of(row: MoveRow, module: Engine | None = None) -> MoveRecord:
    """A log row as a record (events, mark and turn ``None`` on rows from before they were stored);
    with the game's ``module``, a name its events stored as the game once wrote it reads as the
    game writes it now (the engine's optional ``RENAMED``)."""
    renamed: Mapping[str, str] = getattr(module, "RENAMED", None) or {}
    try:
        events = None if row.events is None else tuple(Event.from_dict(e) for e in row.events)
        if events and renamed:
            events = tuple(e.renamed(renamed) for e in events)
        privacy = None if row.privacy is None else Privacy.from_dict(row.privacy)
    except (KeyError, TypeError, ValueError):
        events, privacy = None, None
    return MoveRecord(row.seat, row.move, row.by_computer, events, privacy, row.number, row.turn)


@dataclass
class MoveResult:
    """What a change did.  ``turn_ended``: a turn (or a simultaneous round) ended, or the
    game did, so the channel gets the board; steps inside a turn are told to their player."""

    session: Session
    played: list[Played] = field(default_factory=list)
    finished: bool = False
    outcome: Outcome | None = None
    note: Said | None = None  # a line from the table itself (a resignation, a stalled computer)
    turn_before: int | None = None  # the engine's turn_number before these moves
    turn_ended: bool = False
    ratings: list[RatingChange] = field(default_factory=list)
    computers_next: bool = False  # a searching computer is to move next (Play.computers_play)
    # the change was stored but what follows it (computer turns, the game's end) could not be:
    # Play.computers_play finishes it (the table tries once the change is posted, and at start)
    unsettled: bool = False


TIMEOUT_CHOICES = ("computer", "more", "abandon")
"""The answers when someone's time runs out (see Clocks.answer_timeout)."""


@dataclass
class TimeOut:
    """Seats whose time ran out at ``at``; the others are asked what to do (see answer_timeout)."""

    session: Session
    seats: list[Seat]
    at: float


# Why a game is damaged: stored and logged in English, told to each reader in their language.
DAMAGE_REASONS = (
    N_("no game called {game} is installed"),
    N_("its saved state cannot be read ({error})"),
    N_("its saved {part} is not readable JSON ({error})"),
    N_("the engine failed when the turn timer ran out ({error})"),
)
# The parts of a game's saved row a reason may name (bot.storage.base reads them).
SAVED_PARTS = {
    "state": N_("state"),
    "clock": N_("clock"),
    "options": N_("options"),
    "outcome": N_("outcome"),
}
_REASON_PATTERNS = [
    (template, re.compile(re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>.+)", re.escape(template))))
    for template in DAMAGE_REASONS
]


def damage_reason(template: str, /, **values: object) -> str:
    """A damaged game's reason as stored and logged: ``template`` (one of
    :data:`DAMAGE_REASONS`) in English, with its values."""
    return template.format(**values)


def damage_words(reason: str) -> Said:
    """A stored reason in words a reader's language can put: each of its parts (joined by "; ")
    matched against :data:`DAMAGE_REASONS`; a reason of no known form (an older row's) as it is."""
    out: Said | None = None
    for part in reversed(reason.split("; ")):
        found = Said(part)
        for template, pattern in _REASON_PATTERNS:
            m = pattern.fullmatch(part)
            if m is not None:
                values: dict[str, object] = dict(m.groupdict())
                if (named := m.groupdict().get("part")) in SAVED_PARTS:
                    values["part"] = Said(named)
                found = said(template, **values)
                break
        out = found if out is None else said("{a}; {b}", a=found, b=out)
    return out or said(reason)


def damaged_text(session: Session) -> Said:
    """Why nothing can be done in a damaged game, and who may abandon it: the host, or in a league
    game (which is not its host's to end) the league's organiser; anyone with Manage Channels."""
    if session.league:
        return said(
            "this {game} game is damaged ({problem}); it is a league game, so its league's organiser "
            "or someone with Manage Channels can {/game abandon} it (every player then scores a loss)",
            game=session.info.title,
            problem=damage_words(session.damaged or ""),
        )
    return said(
        "this {game} game is damaged ({problem}); the host or someone with Manage Channels can "
        "{/game abandon} it to free the channel",
        game=session.info.title,
        problem=damage_words(session.damaged or ""),
    )


class NewGameHint(Said):
    """How to open a game here, naming the real commands in the reader's language (each command
    is written in that language, so the list is made when the hint is put in words)."""

    def in_words(self, language: Translates | None = None) -> str:
        t = language or ENGLISH
        commands = [t.gettext("/{game} new", game=name) for name in sorted(engines.available())]
        if len(commands) == 1:
            return t.gettext("start one with {command}", command=commands[0])
        return t.gettext(
            "start one with {commands} or {last}", commands=", ".join(commands[:-1]), last=commands[-1]
        )


def new_game_hint() -> Said:
    """How to open a game here, naming the real commands."""
    return NewGameHint("start one with /<game> new")


def deadline_moves(
    module: Engine, state: object, late: list[int], seed: int, version: int
) -> tuple[object, list[Played], Said | None]:
    """What the table plays when a turn timer runs out (pure: run in a worker thread).

    The game's first table move when it has them (with the note to show), else a
    computer move for each late seat still to act, at the ``normal`` level (the
    level of every seat the table plays for a person).  Engine errors propagate.
    """
    played: list[Played] = []
    table_moves = list(module.legal_moves(state, TABLE)) if getattr(module, "TABLE_MOVES", False) else []
    if table_moves:
        state, move = apply(module, state, TABLE, table_moves[0], by_computer=False)
        return state, [move], said("⏰ Time is up.")
    for seat in late:
        if seat not in module.to_move(state):
            continue
        legal = list(module.legal_moves(state, seat))
        if not legal:
            continue
        rng = rng_for(seed, "deadline", version, seat)
        chosen = module.computer_move(module.view_for(state, seat), legal, rng, DEFAULT_LEVEL)
        state, move = apply(module, state, seat, chosen, by_computer=True)
        played.append(move)
    return state, played, None


def refuse_computer_seat(session: Session, seat: Seat) -> None:
    """Refuse a move (or an undo) from a person whose seat the computer plays, saying why:
    they resigned, or their time ran out (and whether ``/game return`` can still take it back)."""
    if not seat.computer:
        return
    if seat.resigned:
        raise Refusal("you resigned from this game; the computer plays your seat now")
    if seat.seat is not None and gc.may_return(session.banks, seat.seat):
        raise Refusal(
            "your time ran out and the computer plays your seat now; {/game return} takes it back (once)"
        )
    raise Refusal("the computer plays your seat in this game now (you resigned or ran out of time)")
