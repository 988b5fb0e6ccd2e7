"""A league's rows as the table reads them: the league, its players, games, seats and rounds.

Imports: bot.league.names, bot.time.gameclock.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.league import names
from bot.time.gameclock import MAX_SECONDS, MIN_SECONDS, MINUTE, MOVE, ClockSpec


@dataclass(frozen=True)
class LeagueRow:
    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    name: str
    game: str
    format: str
    group_size: int
    options: dict[str, object]
    points: list[float]
    bye_points: float
    round_seconds: float
    rounds: int
    timer_seconds: float | None
    starts_at: float
    status: str
    current_round: int
    seed: int
    signup_message_id: int | None
    champion_id: int | None
    created_at: str
    finished_at: str | None
    final_top: int | None = None  # a Swiss league's final stage: its top this many players
    final_round: int | None = None  # the final stage's first round
    clock: str | None = None  # the games' clock spec (bot/time/gameclock.py); None: see game_clock
    tiebreaks: str | None = None  # the tiebreak order after points (JSON list); None: the default
    review: int = 0  # 1: each Swiss round is shown to the organiser before it is published

    @property
    def shown(self) -> str:
        """The name as messages show it (markdown and mentions escaped)."""
        return names.shown(self.name)

    @property
    def game_clock(self) -> str | None:
        """The clock spec every game of the league starts with, or None for none.

        A league created before leagues had clocks has only a per-move timer (``timer_seconds``);
        it reads as the per-move clock of that timer (``move:<timer>``).  A timer a clock cannot
        hold (under a minute or over 30 days) gives None: :meth:`legacy_timer` keeps it.
        """
        if self.clock:
            return self.clock
        legacy = _legacy_move_clock(self.timer_seconds)
        return legacy.text if legacy is not None else None

    @property
    def legacy_timer(self) -> float | None:
        """An old per-move timer that no clock can express (kept as a plain turn timer)."""
        if self.clock or not self.timer_seconds or _legacy_move_clock(self.timer_seconds) is not None:
            return None
        return float(self.timer_seconds)

    @property
    def stage_start(self) -> int:
        """The first round of the stage being played: the final's, once it has opened, else 1."""
        if self.final_round and self.current_round >= self.final_round:
            return self.final_round
        return 1

    @property
    def swiss_rounds(self) -> int:
        """The rounds played for league points (a final stage's rounds are not)."""
        return self.final_round - 1 if self.final_round else self.rounds

    @property
    def in_final(self) -> bool:
        return bool(self.final_round) and self.current_round >= (self.final_round or 0)


@dataclass(frozen=True)
class LeaguePlayer:
    user_id: int
    name: str
    dropped_round: int | None
    seed: int | None = None
    final_seed: int | None = None
    substitute: bool = False  # only a substitute credited with a game's result: standings, no pairing

    @property
    def dropped(self) -> bool:
        return self.dropped_round is not None

    @property
    def active(self) -> bool:  # paired in the rounds to come
        return self.dropped_round is None and not self.substitute


@dataclass(frozen=True)
class LeagueSeat:
    user_id: int
    position: int
    place: int | None
    points: float | None
    forfeit: bool


@dataclass(frozen=True)
class LeagueGame:
    id: int
    round: int
    table_no: int
    session_id: int | None
    status: str
    seats: list[LeagueSeat] = field(default_factory=list)

    @property
    def players(self) -> list[int]:
        return [s.user_id for s in sorted(self.seats, key=lambda s: s.position)]

    @property
    def never_played(self) -> bool:  # finished, its table never opened: a forfeit nobody played
        return self.status == "finished" and self.session_id is None


@dataclass(frozen=True)
class LeagueRound:
    number: int
    opened_at: str
    deadline_at: float
    closed_at: str | None


def _legacy_move_clock(timer: float | None) -> ClockSpec | None:
    """The per-move clock equal to an old league timer, when a clock spec can state it exactly
    (whole minutes, 1 minute to 30 days)."""
    if not timer:
        return None
    seconds = float(timer)
    if seconds % MINUTE or not MIN_SECONDS <= seconds <= MAX_SECONDS:
        return None
    return ClockSpec(MOVE, seconds)
