"""No-shows in a league round: deadlines, reminders and warnings, what happens at the deadline,
dropping repeat no-shows, substitutes, and which games are overdue (pure rules: no Discord, no SQL,
no clock of its own; every time is given).

- **The deadline.**  A league game's deadline is its round's deadline (``days per round`` after
  the round opened; a league with a clock also has its games' turn clocks, which act by
  themselves).  :func:`nudge_times` says when, before it, the player to move is reminded
  (:data:`REMIND_BEFORE`, at most half the round) and when the late player and the organiser are
  warned (:data:`WARN_BEFORE`, at most an eighth of the round).
- **At the deadline** (or when the organiser decides earlier), every person whose turn it is
  in an unfinished game is a no-show, and what the organiser chose at ``/league create``
  (:data:`ACTIONS`) happens:

  - ``computer``: the computer takes the late seats; at the round's deadline it plays the game
    to its end (as before no-shows were counted), and the result stands;
  - ``forfeit``: the late seats forfeit the game (they rank last; the others' order comes from
    the game, finished by the computer at the round's deadline);
  - ``score``: the game ends now and is scored as it stands, in the games whose score is public
    and only grows as they are played (:data:`SCORED_AS_IT_STANDS`: Tiwanaku, points scored so
    far; Nowa Gwinea, points of the rounds played; Guacamole, the dishes made).  Guanga's score
    counts secret orders judged on the finished weaving, and P'achakuna is won by a race, not by
    a score, so neither allows it.

  A game not started when the deadline comes (its thread could not be opened) is forfeited
  by all as before, and counts as nobody's no-show.
- **Dropping.**  A player with :func:`should_drop` no-shows (the organiser's threshold, default
  :data:`DEFAULT_DROP_AFTER`) is dropped from the league.
- **Substitutes.**  The organiser keeps a list; a dropped player's seat in a game still being
  played goes to the first substitute on the list who is not in that game (:func:`next_substitute`),
  who leaves the list and plays on from the position; with nobody left, the computer takes the
  seat.  The seat's result counts as the organiser chose (:data:`CREDITS`, :func:`credited`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import engines
from engines.core import N_

COMPUTER, FORFEIT, SCORE = "computer", "forfeit", "score"
ACTIONS = (COMPUTER, FORFEIT, SCORE)
ORIGINAL, SUBSTITUTE, NOBODY = "original", "substitute", "nobody"
CREDITS = (ORIGINAL, SUBSTITUTE, NOBODY)
DEFAULT_ACTION = COMPUTER
DEFAULT_CREDIT = ORIGINAL
DEFAULT_DROP_AFTER = 2
MAX_DROP_AFTER = 30
"""The threshold is 1 to this many no-shows (0: never drop)."""
SCORED_AS_IT_STANDS = ("tiwanaku", "nowa_gwinea", "guacamole")
REMIND_BEFORE = 24 * 3600.0
WARN_BEFORE = 6 * 3600.0
LATE_AFTER = 24 * 3600.0
"""A turn waiting this long (at most a quarter of the round) holds a game up."""

REMIND, WARN = "remind", "warn"

NOT_STARTED, LATE = "not started", "late"

ACTION_NAMES = {
    COMPUTER: N_("the computer takes the seat"),
    FORFEIT: N_("the seat forfeits the game"),
    SCORE: N_("the game is scored as it stands"),
}
CREDIT_NAMES = {
    ORIGINAL: N_("the seat's original player"),
    SUBSTITUTE: N_("the substitute"),
    NOBODY: N_("nobody"),
}


class NoShowError(ValueError):
    """A setting refused: the message id and its values (the service words it)."""

    def __init__(self, msg: str, **values: object):
        super().__init__(msg)
        self.msg = msg
        self.values = values


@dataclass(frozen=True)
class Rules:
    """What a league does about no-shows."""

    action: str = DEFAULT_ACTION
    drop_after: int = DEFAULT_DROP_AFTER  # 0: never drop
    credit: str = DEFAULT_CREDIT


def check(game: str, action: str, drop_after: int, credit: str) -> Rules:
    """The rules, or :class:`NoShowError` saying what is allowed."""
    if action not in ACTIONS:
        raise NoShowError(N_("at the deadline the choice is one of: {choices}"), choices=", ".join(ACTIONS))
    if action == SCORE and game not in SCORED_AS_IT_STANDS:
        raise NoShowError(
            N_(
                "{game} cannot be scored before its end; scoring as it stands is for {games}; choose "
                '"{choice league create no_show computer}" or "{choice league create no_show forfeit}"'
            ),
            game=engines.title(game),
            games=", ".join(engines.title(g) for g in SCORED_AS_IT_STANDS),
        )
    if not 0 <= drop_after <= MAX_DROP_AFTER:
        raise NoShowError(
            N_("a player is dropped after 1 to {most} no-shows (0: never), not {n}"),
            most=MAX_DROP_AFTER,
            n=drop_after,
        )
    if credit not in CREDITS:
        raise NoShowError(
            N_("a substitute's result counts for one of: {choices}"), choices=", ".join(CREDITS)
        )
    return Rules(action, drop_after, credit)


def nudge_times(opened_at: float, deadline_at: float) -> dict[str, float]:
    """When the player to move is reminded and when the late player and the organiser are warned:
    :data:`REMIND_BEFORE` and :data:`WARN_BEFORE` before the deadline, but never earlier than half
    (reminder) or an eighth (warning) of the round before it."""
    length = max(0.0, deadline_at - opened_at)
    return {
        REMIND: deadline_at - min(REMIND_BEFORE, length / 2),
        WARN: deadline_at - min(WARN_BEFORE, length / 8),
    }


def late_after(round_seconds: float) -> float:
    """How long a turn may wait before the game counts as held up (see :data:`LATE_AFTER`)."""
    return min(LATE_AFTER, round_seconds / 4)


@dataclass(frozen=True)
class SeatNow:
    """One seat of a running game as the rules need it."""

    user_id: int | None  # None: a computer seat from the start
    computer: bool
    resigned: bool
    to_move: bool


def late_people(seats: Iterable[SeatNow]) -> list[int]:
    """The people holding a game up: those whose turn it is, in seats the computer does not play."""
    return [
        s.user_id for s in seats if s.to_move and s.user_id is not None and not s.computer and not s.resigned
    ]


def should_drop(no_shows: int, drop_after: int) -> bool:
    """Whether a player with ``no_shows`` is dropped (``drop_after`` 0: never)."""
    return drop_after > 0 and no_shows >= drop_after


def next_substitute(queue: Sequence[int], in_game: Iterable[int], active: Iterable[int] = ()) -> int | None:
    """The first substitute on the list who is neither in the game nor an active player of the
    league; None when there is nobody (the computer takes the seat)."""
    busy = set(in_game) | set(active)
    return next((u for u in queue if u not in busy), None)


def credited(credit: str, original: int, substitute: int) -> int | None:
    """Whose league result the substitute's play is: the original player's, the substitute's,
    or nobody's (the original keeps the forfeit, the substitute gets nothing)."""
    if credit == ORIGINAL:
        return original
    if credit == SUBSTITUTE:
        return substitute
    return None


def first_holder(gave: Mapping[int, int], user: int) -> int:
    """Whose seat ``user`` plays, back through every handover (``gave``: each substitute -> whom
    they replaced): a substitute replaced in turn plays the seat of the player before them."""
    seen = {user}
    while user in gave and gave[user] not in seen:
        user = gave[user]
        seen.add(user)
    return user


@dataclass(frozen=True)
class GameNow:
    """One game of the current round, as the overdue view needs it."""

    game_id: int
    table_no: int
    started: bool  # has a session (a thread) and at least one move
    finished: bool
    holders: tuple[int, ...]  # the people to move
    since: float  # when the wait began: the last move, or the round's opening


@dataclass(frozen=True)
class Overdue:
    game_id: int
    table_no: int
    state: str  # NOT_STARTED or LATE
    holders: tuple[int, ...]
    waited: float  # seconds


def overdue(games: Iterable[GameNow], now: float, round_seconds: float) -> list[Overdue]:
    """The games not started, and those whose turn has waited longer than :func:`late_after`,
    longest wait first (then by table)."""
    limit = late_after(round_seconds)
    out = []
    for g in games:
        if g.finished:
            continue
        waited = max(0.0, now - g.since)
        if not g.started:
            out.append(Overdue(g.game_id, g.table_no, NOT_STARTED, g.holders, waited))
        elif g.holders and waited >= limit:
            out.append(Overdue(g.game_id, g.table_no, LATE, g.holders, waited))
    return sorted(out, key=lambda o: (-o.waited, o.table_no))


def counts(no_shows: Iterable[int]) -> Mapping[int, int]:
    """How many no-shows each player has, from one user id per no-show."""
    out: dict[int, int] = {}
    for u in no_shows:
        out[u] = out.get(u, 0) + 1
    return out
