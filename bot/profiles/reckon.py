"""The profile's arithmetic: turns from a game's log, and a person's figures from their turns.

Pure code (no storage, no Discord).  Definitions, as the README's "Reliability and pace" gives
them:

- A *turn* is a run of consecutive moves by one seat; it counts for the person in that seat from
  its first move.  It started at the move before it (by another seat), or at the game's start for
  the first move.  Its *time to move* is from that start to its first move.  Moves the computer
  made for a seat after its person resigned are not that person's turns (those made before,
  when their time had run out, are their missed turns).  A seat handed to a league's substitute
  is its earlier holder's up to the handover (``GameLog.earlier``) and the substitute's after it,
  whose first turn there starts when it became theirs.
- An undo entry (``/game undo``, agreed) is no move and no turn: the next turn starts at it.
  The moves it took back are no turns (otherwise anyone could buy reliability and pace by
  playing a computer and taking every move back at once); a turn played again after it is timed
  from it, plus the time its player took over the first move taken back when that began a turn
  of theirs (so an undo never makes a late turn on time).
- Time a person spent away (``/me away``, until ``/me back``) is left out of their time to move,
  as it is left out of their game clocks; so is time the bot was out of service in the game's
  server (:mod:`bot.storage.outages`).
- A turn is *missed* when the computer made it for a person who had not resigned (their clock or
  turn timer ran out), or when their time ran out and the others abandoned the game, and *on time* when it is not missed and its time to move is within the
  allowed time: the clock's time per move (``move:``, ``timer:``), the whole starting bank
  (``bank:``), or, in a game without a clock, the reminder interval the person had when the turn
  started (``/me notify reminders``; 12 hours when reminders are off).
- *Reliability* is the share of turns on time, as if every person had begun with
  :data:`PRIOR_TURNS` turns of which :data:`PRIOR_ON_TIME` were on time: a new player starts at
  80 %, and their own record weighs more with every turn.
- *Pace* is the median time to move over the turns a person made themselves.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from bot.holders import holder_at
from bot.replaying import taken_back, undo_target
from bot.storage.profiles import GameLog, GameTurns, SeatedGame, TurnRow, TurnSummary
from bot.time import gameclock as gc
from bot.time.source import seconds_of

PRIOR_TURNS = 10
PRIOR_ON_TIME = 8
NEUTRAL = 100 * PRIOR_ON_TIME // PRIOR_TURNS  # a new player's reliability, in %
DEFAULT_REMIND_HOURS = 12
CAP_EXTRA = 3  # the default cap: finished games plus this many, so at least this many
MINUTE, HOUR = 60, 3600

PACES: dict[str, float] = {"live": 15 * MINUTE, "fast": 4 * HOUR, "daily": 24 * HOUR, "slow": math.inf}
"""The pace tiers: a person's pace is the first whose limit their median time to move is within."""


def allowed_seconds(clock: str | None, timer_seconds: float | None, remind_hours: int) -> float:
    """How long a turn may take and still be on time."""
    if clock:
        try:
            spec = gc.parse_clock(clock)
        except gc.ClockError:
            spec = None
        if spec is not None:
            return spec.start  # move: and timer: per turn; bank: the whole starting bank
    if timer_seconds:
        return float(timer_seconds)
    return float((remind_hours or DEFAULT_REMIND_HOURS) * HOUR)


def hours_at(changes: Sequence[tuple[float, int]] | None, current: int, at: float | None) -> int:
    """The reminder interval a person had at time ``at``, from their ``changes`` (``(since,
    hours)`` oldest first, the first from time 0); ``current`` when they never changed it or the
    time is not known."""
    if not changes or at is None:
        return current
    hours = changes[0][1]
    for since, chosen in changes:
        if since > at:
            break
        hours = chosen
    return hours


def turns_of(
    log: GameLog,
    remind_hours: Mapping[int, int],
    away: Mapping[int, gc.Away] | None = None,
    intervals: Mapping[int, Sequence[tuple[float, int]]] | None = None,
) -> list[TurnRow]:
    """The turns of the people in one game, from its log; ``away``: each person's times away
    (``/me away``), left out of their time to move as their clocks leave them out;
    ``intervals``: the reminder intervals each person chose over time (see :func:`hours_at`):
    without a clock, a turn is judged by the interval its person had when it started."""
    out: list[TurnRow] = []
    allowances: dict[int, float] = {}

    def allowed(user: int, start: float | None) -> float:
        current = remind_hours.get(user, DEFAULT_REMIND_HOURS)
        hours = hours_at((intervals or {}).get(user), current, start)
        if hours not in allowances:
            allowances[hours] = allowed_seconds(log.clock, log.timer_seconds, hours)
        return allowances[hours]

    before = seconds_of(log.started_at) if log.started_at else None
    previous: tuple[int, int | None] | None = None  # the seat that moved last, and whose it was
    late_told: set[int] = set()  # seats taken over late whose missed turn is counted
    undone = taken_back(log.moves)  # moves taken back: no turns (nobody buys a record by undoing)
    back_to: dict[int, tuple[int, int | None] | None] = {}  # entry -> `previous` when it came
    began: dict[int, tuple[tuple[int, int | None], float | None]] = {}  # a turn's first move -> whose, took
    carried: tuple[tuple[int, int | None], float | None] | None = None
    for move in log.moves:
        at = seconds_of(move.created_at)
        back_to[move.number] = previous
        target = undo_target(move.move)
        if target is not None:  # the game went back to where it stood before move `target`: the
            # next turn starts now; a turn played again keeps the time its player took over the
            # move taken back (the wait for the others' consent is nobody's)
            previous, before, carried = back_to.get(target), at, began.get(target)
            continue
        user, gone, handed_at = _holder(log, move.seat, move.number)
        if (move.seat, user) != previous:
            taken = log.taken.get(move.seat)
            if taken is not None and move.number > taken[0] and move.by_computer:
                # The table took the seat over (a league round's deadline): the rest of the game is
                # its own, but for the one turn a seat the game was waiting on was late for.
                gone = gone or not taken[1] or move.seat in late_told
                late_told.add(move.seat)
            if user is not None and not (move.by_computer and gone):
                # a substitute's first turn starts when the seat became theirs, not before
                start = before if before is None or handed_at is None else max(before, handed_at)
                took = None if start is None else gc.used(start, at, (away or {}).get(user, ()))
                if carried is not None and carried[0] == (move.seat, user) and took is not None:
                    took += carried[1] or 0.0
                began[move.number] = ((move.seat, user), took)
                missed = move.by_computer
                on_time = not missed and (took is None or took <= allowed(user, start))
                if move.number not in undone:
                    out.append(TurnRow(log.session_id, move.number, user, log.game, took, on_time, missed))
        previous, before, carried = (move.seat, user), at, None
    last = max((m.number for m in log.moves), default=0)
    for n, seat in enumerate(sorted(log.ran_out), 1):  # the game was abandoned as their time ran out
        user, gone, _ = _holder(log, seat, last + n)
        if user is not None and not gone:
            out.append(TurnRow(log.session_id, last + n, user, log.game, None, False, True))
    return out


def _holder(log: GameLog, seat: int, number: int) -> tuple[int | None, bool, float | None]:
    """Whose seat ``seat`` was at move ``number`` (a seat handed to a substitute was its earlier
    holder's up to the handover), whether that person had resigned by then (a resignation stored
    without its place in the log reads as before every move), and when the seat became theirs
    (None: from the start)."""
    held, came = holder_at(log.earlier, seat, number)
    if held is not None:
        return held.user_id, held.resigned_after is not None and number > held.resigned_after, came
    if seat not in log.resigned:
        return log.people.get(seat), False, came
    after = log.resigned_after.get(seat)
    return log.people.get(seat), after is None or number > after, came


def reliability(on_time: int, turns: int) -> int:
    """Reliability in whole per cent (rounded down)."""
    return (100 * (on_time + PRIOR_ON_TIME)) // (turns + PRIOR_TURNS)


def turns_needed(on_time: int, turns: int, minimum: int) -> int | None:
    """How many more turns on time bring reliability to ``minimum`` (None: never, at 100 %)."""
    if reliability(on_time, turns) >= minimum:
        return 0
    if minimum >= 100:
        return None
    good, all_ = on_time + PRIOR_ON_TIME, turns + PRIOR_TURNS
    n = max(0, math.ceil((minimum * all_ - 100 * good) / (100 - minimum)))
    while reliability(on_time + n, turns + n) < minimum:  # integer rounding
        n += 1
    return n


def pace_of(median: float | None) -> str | None:
    if median is None:
        return None
    return next(name for name, limit in PACES.items() if median <= limit)


@dataclass(frozen=True)
class Figures:
    """A person's profile, every number from their stored turns and games."""

    turns: int = 0  # turns counted (their own and missed)
    on_time: int = 0
    missed: int = 0
    median: float | None = None  # median time to move, seconds, over the turns they made
    median_by_game: dict[str, float] = field(default_factory=dict)
    turns_by_game: dict[str, int] = field(default_factory=dict)
    timed_by_game: dict[str, int] = field(default_factory=dict)  # the turns each game's median is over
    finished: int = 0  # games that ended with a result and that they played to the end
    abandoned: int = 0  # games ended without a result (abandoned by the host or the table)
    timed_out: int = 0  # ended games in which they missed a turn (the computer played for them)
    resigned: int = 0  # ended games they resigned from
    running: int = 0  # games running now (not resigned from)
    waiting: int = 0  # lobbies they sit in

    @property
    def new(self) -> bool:
        return self.turns == 0

    @property
    def on_time_percent(self) -> float | None:
        return None if self.turns == 0 else 100 * self.on_time / self.turns

    @property
    def reliability(self) -> int:
        return reliability(self.on_time, self.turns)

    @property
    def pace(self) -> str | None:
        return pace_of(self.median)


def summarise(turns: Sequence[TurnRow]) -> TurnSummary:
    """A person's turns summed up in Python (what :meth:`bot.storage.profiles.Profiles.summary`
    reads from the indexes; the tests hold one to the other)."""
    by_game: dict[str, list[TurnRow]] = {}
    for t in turns:
        by_game.setdefault(t.game, []).append(t)
    games = []
    for game, mine in sorted(by_game.items()):
        own = [t.seconds for t in mine if not t.missed and t.seconds is not None]
        games.append(
            GameTurns(
                game,
                len(mine),
                sum(1 for t in mine if t.on_time),
                sum(1 for t in mine if t.missed),
                len(own),
                statistics.median(own) if own else None,
            )
        )
    everything = [t.seconds for t in turns if not t.missed and t.seconds is not None]
    return TurnSummary(
        tuple(games),
        statistics.median(everything) if everything else None,
        frozenset(t.session_id for t in turns if t.missed),
    )


def figures(summary: TurnSummary, games: Iterable[SeatedGame]) -> Figures:
    """A person's figures from their turns summed up and the games they sit or sat in."""
    finished = abandoned = timed_out = resigned = running = waiting = 0
    for g in games:
        if g.status == "lobby":
            waiting += 1
        elif g.status == "active":
            running += 0 if g.resigned else 1
        elif not g.started:
            continue  # a lobby closed before its start
        elif g.session_id in summary.missed_in:
            timed_out += 1
        elif g.resigned:
            resigned += 1
        elif g.status == "abandoned":
            abandoned += 1
        else:
            finished += 1
    return Figures(
        turns=sum(g.turns for g in summary.games),
        on_time=sum(g.on_time for g in summary.games),
        missed=sum(g.missed for g in summary.games),
        median=summary.median,
        median_by_game={g.game: g.median for g in summary.games if g.median is not None},
        turns_by_game={g.game: g.turns for g in summary.games},
        timed_by_game={g.game: g.timed for g in summary.games},
        finished=finished,
        abandoned=abandoned,
        timed_out=timed_out,
        resigned=resigned,
        running=running,
        waiting=waiting,
    )


def cap_for(finished: int, server_cap: int | None) -> int | None:
    """The most games a person may have running in a server (None: no cap)."""
    if server_cap is None:
        return finished + CAP_EXTRA
    return server_cap or None
