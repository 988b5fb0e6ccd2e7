"""Who plays a Swiss league round, and who sits it out and why: pure rules, no Discord, no SQL.

- **Check-in.** A league may ask its players to check in before every round (``every``) or
  only before the first (``first``).  The window lasts ``checkin_seconds`` and closes when the
  round is due; when it could not open that early (the league started later, or the job ran
  late), it still stays open its full length and the round waits for it
  (:func:`window_closes`).  Who has not checked in when it closes is not paired that round
  (an ``absent`` bye worth nothing).
- **A bye asked for** (``/league bye``) in a coming round scores ``none``, ``half`` or
  ``full`` of the league's bye (what a bye the pairing gives scores), as the organiser chose
  (:func:`requested_points`).
- **A pause** (``/league pause``) for some coming rounds, and time away (``/me away``) that runs
  over a round's start, leave the player out of those rounds with a ``pause`` bye worth
  nothing.  A player who checked in for the round plays it even when away: checking in is the
  later word.
- **A late sign-up** is open in a Swiss league until half its Swiss rounds are played
  (:func:`late_join_open`); the late joiner gets one bye (a ``late`` bye worth the league's
  bye) in the round in play when they join, none when no round has opened yet.
- When fewer players remain than a game seats, nobody is paired that round: those present get
  the pairing's bye (it is not their fault).

Only byes the pairing gives (``pairing``) count when the pairing chooses who sits out next: a
bye asked for, a pause or an absence does not spare anyone the next pairing bye.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

CHECKIN_MODES = ("off", "first", "every")
BYE_CHOICES = ("none", "half", "full")
SHARE = {"none": 0.0, "half": 0.5, "full": 1.0}

PAIRING = "pairing"  # the pairing's bye (the remainder of the field sits out)
LATE = "late"  # a late sign-up's bye
REQUESTED = "requested"  # asked for with /league bye
PAUSE = "pause"  # a pause, or time away over the round's start
ABSENT = "absent"  # did not check in
BYE_KINDS = (PAIRING, LATE, REQUESTED, PAUSE, ABSENT)


def pairing_byes(
    byes: Iterable[tuple[int, int, float]], kinds: Mapping[tuple[int, int], str]
) -> Counter[int]:
    """Each player's byes from the pairing (a round the field left them without a table), from a
    league's sit-outs (round, user, points) and their kinds ((round, user) -> kind; a sit-out of
    no recorded kind is the pairing's): a round sat out for attendance is no bye."""
    return Counter(u for r, u, _ in byes if kinds.get((r, u), PAIRING) == PAIRING)


DEFAULT_CHECKIN_SECONDS = 86400.0  # a day
MIN_CHECKIN_SECONDS = 600.0  # ten minutes
DEFAULT_REQUESTED_BYE = "half"


@dataclass(frozen=True)
class Settings:
    """A league's attendance choices (the defaults: no check-in, a requested bye worth half)."""

    checkin: str = "off"
    checkin_seconds: float = DEFAULT_CHECKIN_SECONDS
    requested_bye: str = DEFAULT_REQUESTED_BYE


@dataclass(frozen=True)
class SitOut:
    """A player not paired in a round: why (one of :data:`BYE_KINDS`) and the points it scores."""

    user_id: int
    kind: str
    points: float


def needs_checkin(settings: Settings, number: int, swiss_rounds: int) -> bool:
    """Whether round ``number`` (a Swiss round, not a final stage's) has a check-in window."""
    if number < 1 or number > swiss_rounds:
        return False
    return settings.checkin == "every" or (settings.checkin == "first" and number == 1)


def window_opens(due_at: float, settings: Settings) -> float:
    """When the window of a round due at ``due_at`` should open."""
    return due_at - settings.checkin_seconds


def window_closes(due_at: float, now: float, settings: Settings) -> float:
    """When a window opened at ``now`` for a round due at ``due_at`` closes: when the round is
    due, but never before it has been open its full length."""
    return max(due_at, now + settings.checkin_seconds)


def requested_points(choice: str, bye_points: float) -> float:
    """What a bye asked for scores: none, half or all of the league's bye."""
    return SHARE[choice] * bye_points


def late_join_open(format: str, rounds_played: int, swiss_rounds: int) -> bool:
    """Whether a running league still takes sign-ups: Swiss, fewer than half its rounds played."""
    return format == "swiss" and rounds_played * 2 < swiss_rounds


def coming_rounds(current_round: int, swiss_rounds: int) -> range:
    """The Swiss rounds not paired yet (a bye or a pause may be asked for them)."""
    return range(current_round + 1, swiss_rounds + 1)


def pause_rounds(current_round: int, count: int, swiss_rounds: int) -> list[int]:
    """The rounds a pause of ``count`` rounds covers: the next ``count`` not paired yet."""
    return list(coming_rounds(current_round, swiss_rounds))[: max(0, count)]


def sitting_out(
    players: Iterable[int],
    *,
    requests: Mapping[int, str],
    checkin: bool,
    checked_in: Collection[int],
    away: Collection[int],
    bye_points: float,
    requested_bye: str,
) -> tuple[list[int], list[SitOut]]:
    """Who plays a round and who sits it out, from the active ``players`` (in order): a bye asked
    for first, then a pause, then time away over the round's start without a check-in (a pause
    too), then, when the round has a check-in, not having checked in.  ``requests``: user -> ``bye`` or ``pause`` for this round."""
    playing: list[int] = []
    out: list[SitOut] = []
    for p in players:
        asked = requests.get(p)
        if asked == "bye":
            out.append(SitOut(p, REQUESTED, requested_points(requested_bye, bye_points)))
        elif asked == "pause":
            out.append(SitOut(p, PAUSE, 0.0))
        elif p in away and p not in checked_in:
            out.append(SitOut(p, PAUSE, 0.0))
        elif checkin and p not in checked_in:
            out.append(SitOut(p, ABSENT, 0.0))
        else:
            playing.append(p)
    return playing, out


def too_few(playing: Collection[int], group_size: int) -> bool:
    """Whether too few players are left to seat one game."""
    return len(playing) < max(2, group_size)
