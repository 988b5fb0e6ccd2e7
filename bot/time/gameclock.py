"""Game clocks as text and arithmetic (pure: no Discord, no SQL, no reading of the time).

A clock is written as a short spec, the same in ``/game clock`` and in the lobby's
``clock:`` option (and meant for league settings too):

- ``move:24h``: each turn may take 24 hours (the per-move timer);
- ``bank:3d+12h``: a time bank as on Board Game Arena: each player starts with
  3 days, their bank runs down while they are to move, and each time their turn
  ends they get 12 hours back, never more than the 3 days they started with.
  ``bank:3d`` is a bank without an increment.

Times are whole numbers followed by ``d``, ``h`` or ``m``, combined as in ``2d12h``
or ``90m``, from :data:`MIN_SECONDS` to :data:`MAX_SECONDS`.  :func:`parse_clock`
turns a spec into a :class:`ClockSpec` or raises :class:`ClockError` saying what
is allowed; :attr:`ClockSpec.text` writes it back in the shortest form.

:class:`Banks` is one game's running clocks (JSON in storage).  Every function
takes the time (``now``) from its caller, and time away from the caller as
periods ``(since, until)`` during which a person's clock does not run.  The clocks
note what each move gave back (an increment, a per-move clock's fresh turn), so that
an undo takes it back with the move (:func:`take_back`): taking moves back never
gives a clock time.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace

from engines.core import Said, echo
from languages import ENGLISH, N_, Language

MOVE, BANK, TIMER = "move", "bank", "timer"
"""A per-move clock; a time bank; a turn timer (``/game timer``: a per-move clock whose end has the
computer move once for whoever is late, where a per-move clock's end asks the others)."""
MINUTE, HOUR, DAY = 60, 3600, 86400
MIN_SECONDS = MINUTE
MAX_SECONDS = 30 * DAY
ROUND_FLOOR = HOUR
"""A round that the table ends by itself (Nowa Gwinea) lasts at least this long."""
VOTE_SECONDS = DAY
"""How long the others have to answer when someone's time runs out; then the computer takes the seat."""
OFF = ("off", "none")
EARNED_KEPT = 200
"""How many of the latest moves keep a note of the time their turns' ends gave back (an increment,
or a per-move clock's fresh turn), so that an undo of them takes it back: an undo reaching further
back takes back only what the notes kept hold."""

SPEC_HELP = N_(
    "a clock is `move:<time>` (each turn gets that long, e.g. `move:24h`) or "
    "`bank:<start>+<increment>` (a time bank: the start, plus the increment back after each turn, "
    "never above the start, e.g. `bank:3d+12h`; `bank:3d` has no increment); a time is whole "
    "numbers of d, h and m such as `2d12h` or `90m`, from 1m to 30d"
)

_UNITS = {"d": DAY, "h": HOUR, "m": MINUTE, "s": 1}
_DURATION = re.compile(r"(?:(\d{1,6})([dhms]))+")  # a time too long for a clock is refused as such
_PART = re.compile(r"(\d{1,6})([dhms])")


class ClockError(ValueError):
    """A clock spec that cannot be used; the message says what was wrong and what is allowed.

    Like the table's refusals it keeps its sentence (``said``: the English template and its
    values) for the reader's language; ``str()`` is the English."""

    def __init__(self, message: str | Said, /, **values: object) -> None:
        self.said = message if isinstance(message, Said) else Said(message, values)
        super().__init__(self.said.in_words())


# What a time in a clock is, named in the refusals (with its article: "the turn time 2x ...").
TIME = N_("the time")
TURN_TIME = N_("the turn time")
STARTING_BANK = N_("the starting bank")
INCREMENT = N_("the increment")
HELP = Said(SPEC_HELP)


def parse_duration(text: str, what: str = TIME, *, seconds: bool = False) -> float:
    """``2d12h`` -> seconds.  Each unit at most once, largest first.  ``what`` names the time in
    a refusal (one of the messages above).  With ``seconds``, a turn timer's time, which may end
    in seconds (``1m30s``: a timer set in hours need not be whole minutes)."""
    raw = text.strip().lower()
    if not raw or _DURATION.fullmatch(raw) is None or (not seconds and raw.endswith("s")):
        raise ClockError(
            "{what} {text} is not a time like 24h, 3d, 2d12h or 90m", what=Said(what), text=echo(text.strip())
        )
    parts = _PART.findall(raw)
    units = [u for _, u in parts]
    if len(set(units)) != len(units) or units != sorted(units, key="dhms".index):
        raise ClockError(
            "{what} {text} should give each of d, h, m once, in that order",
            what=Said(what),
            text=echo(text.strip()),
        )
    return float(sum(int(n) * _UNITS[u] for n, u in parts))


def duration_text(seconds: float) -> str:
    """Seconds as a spec time: ``2d12h``, ``90m`` -> ``1h30m``, 90 s -> ``1m30s``, 0 -> ``0m``."""
    total, secs = divmod(round(seconds), MINUTE)
    days, rest = divmod(total, 24 * 60)
    hours, minutes = divmod(rest, 60)
    text = "".join(f"{n}{u}" for n, u in ((days, "d"), (hours, "h"), (minutes, "m"), (secs, "s")) if n)
    return text or "0m"


def spoken(seconds: float) -> str:
    """A time left, for people: ``2 d 4 h``, ``5 h 10 min``, ``12 min``, ``0 min``."""
    total = max(0, int(seconds // MINUTE))
    days, rest = divmod(total, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h" if hours else f"{days} d"
    if hours:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    return f"{minutes} min"


@dataclass(frozen=True)
class ClockSpec:
    """A per-move clock or turn timer (``start`` seconds each turn) or a bank (``start``, plus
    ``increment`` per turn)."""

    kind: str
    start: float
    increment: float = 0.0

    @property
    def text(self) -> str:
        if self.kind != BANK:
            return f"{self.kind}:{duration_text(self.start)}"
        inc = f"+{duration_text(self.increment)}" if self.increment else ""
        return f"bank:{duration_text(self.start)}{inc}"

    def describe(self, t: Language = ENGLISH) -> str:
        """What the clock means, in words of language ``t``."""
        start = spoken(self.start)
        if self.kind == MOVE:
            return t.gettext("{time} for each turn", time=start)
        if self.kind == TIMER:
            return t.gettext("{time} for each turn, then the computer moves for whoever is late", time=start)
        if self.increment:
            return t.gettext(
                "a time bank of {start} each, plus {more} after each turn (never above {start})",
                start=start,
                more=spoken(self.increment),
            )
        return t.gettext("a time bank of {start} each (never above {start})", start=start)


def _in_range(seconds: float, what: str, text: str, least: float = MIN_SECONDS) -> None:
    if not least <= seconds <= MAX_SECONDS:
        raise ClockError(
            "{what} {text} is out of range: times go from 1m to 30d", what=Said(what), text=echo(text)
        )


def parse_clock(text: str) -> ClockSpec:
    """A clock spec (``move:24h``, ``bank:3d+12h``, ``bank:3d``, or a turn timer ``timer:24h``)
    -> :class:`ClockSpec`.

    Raises :class:`ClockError` (a ``ValueError``) naming what was wrong and what is
    allowed; case and spaces around the parts do not matter.
    """
    if not isinstance(text, str):
        raise ClockError("a clock is text; {help}", help=HELP)
    raw = text.strip().lower().replace(" ", "")
    if len(raw) > 40:
        raise ClockError("that clock is too long; {help}", help=HELP)
    kind, colon, rest = raw.partition(":")
    if not colon or kind not in (MOVE, BANK, TIMER):
        raise ClockError("{text} is not a clock; {help}", text=echo(text.strip()), help=HELP)
    if kind != BANK:
        if "+" in rest:
            raise ClockError(
                "{text}: a per-move clock has no increment (that is `bank:`); {help}",
                text=echo(text.strip()),
                help=HELP,
            )
        start = parse_duration(rest, TURN_TIME, seconds=kind == TIMER)
        _in_range(start, TURN_TIME, rest, 1 if kind == TIMER else MIN_SECONDS)
        return ClockSpec(kind, start)
    head, plus, tail = rest.partition("+")
    start = parse_duration(head, STARTING_BANK)
    _in_range(start, STARTING_BANK, head)
    increment = 0.0
    if plus:
        increment = parse_duration(tail, INCREMENT)
        if increment > start:
            raise ClockError(
                "the increment {increment} is more than the starting bank {start}; the bank never holds more "
                "than its start",
                increment=echo(tail),
                start=echo(head),
            )
    return ClockSpec(BANK, start, increment)


def turn_timer(seconds: float) -> ClockSpec:
    """The turn timer of ``/game timer`` (seconds, above 0), in whole seconds (at least one)."""
    return ClockSpec(TIMER, float(max(1, round(seconds))))


def parse_clock_or_off(text: str) -> ClockSpec | None:
    """:func:`parse_clock`, or None for ``off``/``none`` (no clock)."""
    if isinstance(text, str) and text.strip().lower() in OFF:
        return None
    return parse_clock(text)


# ---------------------------------------------------------------------------- running clocks

Away = Iterable[tuple[float, float]]
"""Periods ``(since, until)`` when a person is away: their clock does not run."""


def used(start: float, now: float, away: Away = ()) -> float:
    """Clock seconds used between ``start`` and ``now``, leaving out time away."""
    spent = max(0.0, now - start)
    for since, until in away:
        spent -= max(0.0, min(until, now) - max(since, start))
    return max(0.0, spent)


def joined(*periods: Away) -> list[tuple[float, float]]:
    """Periods from several sources (a person's times away, the bot's outages) as one list,
    oldest first, those that overlap or touch made one, so that no time is left out twice."""
    out: list[tuple[float, float]] = []
    for since, until in sorted(p for some in periods for p in some):
        if out and since <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], until))
        else:
            out.append((since, until))
    return out


def resumes(now: float, away: Away = ()) -> float:
    """When a clock stopped by time away runs again (``now`` if it runs now)."""
    for since, until in away:
        if since <= now < until:
            return until
    return now


@dataclass(frozen=True)
class Banks:
    """One game's clocks: each seat's time left, and whose clock runs since when.

    ``banks``: seconds left per seat, as of ``since`` for a seat whose clock runs;
    ``since``: the seats to move, and when their clock started;
    ``pending``: seats whose time ran out, with when (the others are being asked);
    ``taken``: seats the computer took after a timeout (value: the person came back);
    ``paused``: seconds of earlier time away within a running seat's turn, credited by clocks
    stored before the history of times away was kept (now every time away is in it, and read as
    ``away``); read, and dropped when that turn ends;
    ``moves``: how many moves the game's log held when these clocks were stored (None: not known,
    as in clocks stored before it was kept, or just set);
    ``earned``: by the number of the move (the last of its commit) whose turn change gave it, the
    seconds each seat's clock got back when its turn ended there (for :func:`take_back`; the
    latest :data:`EARNED_KEPT` moves).
    """

    banks: dict[int, float] = field(default_factory=dict)
    since: dict[int, float] = field(default_factory=dict)
    pending: dict[int, float] = field(default_factory=dict)
    taken: dict[int, bool] = field(default_factory=dict)
    paused: dict[int, float] = field(default_factory=dict)
    moves: int | None = None
    earned: dict[int, dict[int, float]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "banks": {str(k): v for k, v in self.banks.items()},
            "since": {str(k): v for k, v in self.since.items()},
            "pending": {str(k): v for k, v in self.pending.items()},
            "taken": {str(k): v for k, v in self.taken.items()},
        }
        if self.paused:  # written only when there is some, as clocks stored before it had none
            out["paused"] = {str(k): v for k, v in self.paused.items()}
        if self.moves is not None:  # the same for the count of moves and the notes of time given back
            out["moves"] = self.moves
        if self.earned:
            out["earned"] = {str(n): {str(k): v for k, v in got.items()} for n, got in self.earned.items()}
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, object] | None) -> Banks:
        """The clocks :meth:`to_dict` stored; ValueError for a part that is not seats and numbers."""
        data = data or {}

        def by_seat(name: str) -> dict[int, object]:
            found = data.get(name) or {}
            if not isinstance(found, Mapping):
                raise ValueError(f"the clocks' {name} are not by seat: {found!r}")
            return {int(k): v for k, v in found.items()}

        def seats(name: str) -> dict[int, float]:
            out: dict[int, float] = {}
            for seat, value in by_seat(name).items():
                if not isinstance(value, (int, float)):
                    raise ValueError(f"the clocks' {name} are not numbers: {value!r}")
                out[seat] = float(value)
            return out

        taken = {k: bool(v) for k, v in by_seat("taken").items()}
        moves = data.get("moves")
        if moves is not None and (not isinstance(moves, int) or isinstance(moves, bool) or moves < 0):
            raise ValueError(f"the clocks' count of moves is not a count: {moves!r}")
        earned: dict[int, dict[int, float]] = {}
        for number, got in by_seat("earned").items():  # by move number, then by seat
            if not isinstance(got, Mapping) or not all(isinstance(v, (int, float)) for v in got.values()):
                raise ValueError(f"the clocks' time given back at move {number} is not seats and numbers")
            earned[number] = {int(k): float(v) for k, v in got.items()}
        return cls(seats("banks"), seats("since"), seats("pending"), taken, seats("paused"), moves, earned)


def begin(
    spec: ClockSpec, seats: Iterable[int], to_move: Iterable[int], now: float, moves: int | None = None
) -> Banks:
    """The clocks of a game starting now: every seat has the full start; those to move run
    (``moves``: how many moves the log holds, when known)."""
    return Banks({s: spec.start for s in seats}, {s: now for s in to_move}, moves=moves)


def spent(banks: Banks, seat: int, now: float, away: Away = ()) -> float:
    """Clock seconds the seat's running turn has used by ``now``: since it began, less its
    person's time away (``away``, and the earlier periods kept in ``paused``)."""
    if seat not in banks.since:
        return 0.0
    return max(0.0, used(banks.since[seat], now, away) - banks.paused.get(seat, 0.0))


def left(spec: ClockSpec, banks: Banks, seat: int, now: float, away: Away = ()) -> float:
    """Seconds the seat has left now (its bank, less the running turn's time)."""
    return max(0.0, banks.banks.get(seat, spec.start) - spent(banks, seat, now, away))


def advance(
    spec: ClockSpec,
    banks: Banks,
    before: Iterable[int],
    after: Iterable[int],
    now: float,
    away: Callable[[int], Away] = lambda seat: (),
    people: Iterable[int] | None = None,
    *,
    moves: int | None = None,
) -> Banks:
    """The clocks once the seats to move went from ``before`` to ``after`` at ``now``.

    A seat whose turn ended pays the time it used and gets the increment (never
    above the start); a seat whose turn begins starts its clock (with the full
    turn, for a per-move clock).  A seat still to move keeps running.  Only
    ``people`` (default: every seat) have clocks; a pending timeout ends with
    the seat's turn.  With ``moves`` (how many moves the log holds once this change
    is stored), the time each clock got back is noted under that number, for an undo
    (:func:`take_back`), and the clocks count those moves.
    """
    before_set, after_set = set(before), set(after)
    who = None if people is None else set(people)
    bank = dict(banks.banks)
    since = dict(banks.since)
    pending = dict(banks.pending)
    paused = dict(banks.paused)
    got: dict[int, float] = {}
    for seat in sorted(before_set - after_set):
        if seat in since:
            rest = max(0.0, bank.get(seat, spec.start) - spent(banks, seat, now, away(seat)))
            bank[seat] = min(spec.start, rest + spec.increment) if spec.kind == BANK else spec.start
            got[seat] = bank[seat] - rest
            since.pop(seat)
        pending.pop(seat, None)
        paused.pop(seat, None)
    for seat in sorted(after_set - before_set):
        if who is not None and seat not in who:
            continue
        if spec.kind != BANK:
            got[seat] = got.get(seat, 0.0) + max(0.0, spec.start - bank.get(seat, spec.start))
            bank[seat] = spec.start
        since[seat] = now
        paused.pop(seat, None)
    changed = replace(banks, banks=bank, since=since, pending=pending, paused=paused)
    return changed if moves is None else noted(changed, moves, got)


def noted(banks: Banks, moves: int, got: Mapping[int, float]) -> Banks:
    """``banks`` counting ``moves`` moves, with the seconds each seat's clock ``got`` back at the
    last of them noted (added to what an earlier change at that move noted); the notes of moves
    more than :data:`EARNED_KEPT` back are dropped."""
    earned = {n: dict(g) for n, g in banks.earned.items() if n > moves - EARNED_KEPT}
    for seat, seconds in got.items():
        if seconds > 0:
            here = earned.setdefault(moves, {})
            here[seat] = here.get(seat, 0.0) + seconds
    return replace(banks, moves=moves, earned=earned)


def take_back(
    spec: ClockSpec,
    banks: Banks,
    target: int,
    after: Iterable[int],
    now: float,
    away: Callable[[int], Away] = lambda seat: (),
    people: Iterable[int] | None = None,
    *,
    logged: int,
) -> Banks:
    """The clocks once an undo, at ``now``, took back the moves from number ``target`` on and left
    ``after`` to move; the log held ``logged`` moves before the undo's entry.

    No clock gets back time it ran, and an undo is no move: every running clock stops and pays
    the time it used, with nothing back for it.  What the turns ended (or begun) by the moves taken
    back gave back, as noted in ``earned`` (an increment, a per-move clock's fresh turn), is taken
    back, never below nothing.  Then the seats to move again (of ``people``) run from now with what
    they have: a bank as it is, a per-move clock with what was left of the turn that goes on.  A
    pending timeout ends (if the time is still out, the clock runs out again at once).  Clocks
    that did not count the ``logged`` moves (stored before they counted them) know nothing
    given back.
    """
    who = None if people is None else set(people)
    bank = dict(banks.banks)
    for seat in sorted(banks.since):
        bank[seat] = max(0.0, bank.get(seat, spec.start) - spent(banks, seat, now, away(seat)))
    earned: dict[int, dict[int, float]] = {}
    for number, got in sorted(banks.earned.items() if banks.moves == logged else ()):
        if number < target:
            earned[number] = dict(got)
            continue
        for seat, seconds in got.items():
            bank[seat] = max(0.0, bank.get(seat, spec.start) - seconds)
    since = {seat: now for seat in sorted(set(after)) if who is None or seat in who}
    return replace(banks, banks=bank, since=since, pending={}, paused={}, moves=logged + 1, earned=earned)


def running(banks: Banks) -> list[int]:
    """The seats whose clock runs (to move, and not waiting on a vote)."""
    return sorted(s for s in banks.since if s not in banks.pending)


def deadline(
    spec: ClockSpec,
    banks: Banks,
    now: float,
    away: Callable[[int], Away] = lambda seat: (),
    *,
    last: bool = False,
) -> float | None:
    """When the first running clock runs out (with ``last``: the last one, as for a round that
    ends for everyone at once); None when none runs.  A seat away runs out only after it is
    back, so a game where everyone to move is away waits."""
    times = [resumes(now, away(s)) + left(spec, banks, s, now, away(s)) for s in running(banks)]
    if not times:
        return None
    return max(times) if last else min(times)


def timed_out(
    spec: ClockSpec, banks: Banks, now: float, away: Callable[[int], Away] = lambda seat: ()
) -> list[int]:
    """The running seats with no time left."""
    return [s for s in running(banks) if left(spec, banks, s, now, away(s)) <= 0]


def run_out(banks: Banks, seats: Iterable[int], now: float) -> Banks:
    """The seats' time ran out: their banks are empty and the others are asked (pending)."""
    bank, pending = dict(banks.banks), dict(banks.pending)
    for seat in seats:
        bank[seat] = 0.0
        pending[seat] = now
    return replace(banks, banks=bank, pending=pending)


def more_time(spec: ClockSpec, banks: Banks, seat: int, now: float) -> Banks:
    """The others gave the seat more time: a full start again, its clock running from now."""
    pending = {s: t for s, t in banks.pending.items() if s != seat}
    since = dict(banks.since)
    if seat in since:
        since[seat] = now
    paused = {s: t for s, t in banks.paused.items() if s != seat}
    return replace(
        banks, banks={**banks.banks, seat: spec.start}, since=since, pending=pending, paused=paused
    )


def stop(banks: Banks, seat: int) -> Banks:
    """The seat has no clock any more (the person resigned): it stops, and any question about it ends."""
    return replace(
        banks,
        since={s: t for s, t in banks.since.items() if s != seat},
        pending={s: t for s, t in banks.pending.items() if s != seat},
        paused={s: t for s, t in banks.paused.items() if s != seat},
    )


def take(banks: Banks, seat: int) -> Banks:
    """The computer takes the seat: no clock for it, and the seat is marked as taken."""
    return replace(stop(banks, seat), taken={**banks.taken, seat: False})


def give_back(spec: ClockSpec, banks: Banks, seat: int, to_move: Iterable[int], now: float) -> Banks:
    """The person took their seat back (once), or a substitute took it: a full start, running if
    the seat is to move; a question about its time running out (the late player's) is over."""
    since = dict(banks.since)
    if seat in set(to_move):
        since[seat] = now
    paused = {s: t for s, t in banks.paused.items() if s != seat}
    return replace(
        banks,
        banks={**banks.banks, seat: spec.start},
        since=since,
        pending={s: t for s, t in banks.pending.items() if s != seat},
        taken={**banks.taken, seat: True},
        paused=paused,
    )


def may_return(banks: Banks, seat: int) -> bool:
    return banks.taken.get(seat) is False


def ranks_last(banks: Banks) -> set[int]:
    """Seats that ran out of time and were taken by the computer: they rank last."""
    return set(banks.taken)


def round_deadline(due: float, now: float) -> float:
    """A round the table ends by itself lasts at least :data:`ROUND_FLOOR`."""
    return max(due, now + ROUND_FLOOR)


def clock_line(
    spec: ClockSpec,
    banks: Banks,
    names: dict[int, str],
    now: float,
    away: Callable[[int], Away] = lambda seat: (),
    t: Language = ENGLISH,
    finishing: Mapping[int, float] | None = None,
) -> str:
    """Each person's time left, for the board, ``/game status`` and ``/game mine``:
    ``⏱ bank:3d+12h: Ana 2 d 4 h (to move), Bo 3 d, Cy out of time (the others are asked)``.
    A per-move clock shows only those to move.  ``names``: the seats with a clock (people);
    ``finishing``: the seats out of time whose step of the turn closed the question, with the
    seconds left to finish it (``Cy out of time (to finish the turn: 21 h left)``)."""
    parts = []
    for seat, name in sorted(names.items()):
        if seat in (finishing or {}):
            time = spoken((finishing or {})[seat])
            parts.append(
                t.gettext("{name} out of time (to finish the turn: {time} left)", name=name, time=time)
            )
        elif seat in banks.pending:
            parts.append(t.gettext("{name} out of time (the others are asked)", name=name))
        elif banks.taken.get(seat) is False:
            parts.append(t.gettext("{name} played by the computer (out of time)", name=name))
        elif seat in banks.since:
            time = spoken(left(spec, banks, seat, now, away(seat)))
            parts.append(t.gettext("{name} {time} (to move)", name=name, time=time))
        elif spec.kind == BANK:
            parts.append(f"{name} {spoken(left(spec, banks, seat, now))}")
    return f"⏱ {spec.text}: " + (", ".join(parts) if parts else t.gettext("nobody to move"))
