"""The session services: lobbies, seats, moves, clocks and the log, without Discord.

Callers pass user ids and display names, and get back plain records and :class:`Refusal`s whose
messages a player can read.  One ``asyncio.Lock`` per session serialises changes in the
process; the session's version number, checked again inside the storage transaction, turns a
stale button or a race (in this process or another sharing the database) into
:class:`StaleMove`.  Every accepted move is committed (log row with its events and privacy mark,
snapshot, version) before the caller hears of it.

:class:`SessionService` builds the parts once and holds them; callers use the part they need:

- ``core`` (:mod:`bot.sessions.core`): finding, loading, locking, copies of running games,
  damage, the clocks' bookkeeping, and ``acting``, the one way to act on a game;
- ``lobby`` (:mod:`bot.sessions.lobby`): create, join, computers, leave, close, start;
- ``play`` (:mod:`bot.sessions.play`): legal moves, moves, computer turns, the end;
- ``seats`` (:mod:`bot.sessions.seats`): resign, forfeit, finish by computer, abandon, return;
- ``clocks`` (:mod:`bot.sessions.clocks`): the game clock (the turn timer is one), deadlines, timeouts;
- ``logbook`` (:mod:`bot.sessions.logbook`): replay, the log, what the channel was told.

The model (seats, sessions, results, refusals) is :mod:`bot.sessions.model`, re-exported here.
Imports: bot.storage, bot.time, bot.computers, bot.records, bot.replaying, bot.web.metrics,
engines, languages; never discord.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.computers import Computers
from bot.sessions.clocks import ASK_AFTER, Clocks
from bot.sessions.core import Core
from bot.sessions.lobby import Lobby
from bot.sessions.logbook import Logbook
from bot.sessions.model import (
    MAX_TIMER_HOURS,
    NOT_SEATED,
    STALLED,
    TIMEOUT_CHOICES,
    Damaged,
    MoveRecord,
    MoveResult,
    NoGameHere,
    NotSeated,
    Played,
    RatingChange,
    Refusal,
    Seat,
    Session,
    StaleMove,
    TimeOut,
    damage_words,
    damaged_text,
    deadline_moves,
    named,
    new_game_hint,
    record_of,
    refusal,
    refuse_computer_seat,
    seats_said,
    starts_with_name,
    waiting,
)
from bot.sessions.play import Play
from bot.sessions.seats import Seats
from bot.storage import Store
from bot.web.metrics import Metrics


class SessionService:
    """The session services, built once over one store (see the module's docstring)."""

    def __init__(
        self,
        store: Store,
        *,
        computer_names: Sequence[str] | None = None,
        computer_seconds: float | None = None,
        computers: Computers | None = None,
        metrics: Metrics | None = None,
    ):
        self.store = store
        self.core = Core(store, computer_seconds=computer_seconds, computers=computers, metrics=metrics)
        self.metrics = self.core.metrics
        self.play = Play(self.core)
        self.lobby = Lobby(self.core, self.play, computer_names)
        self.seats = Seats(self.core, self.play)
        self.clocks = Clocks(self.core, self.play, self.seats)
        self.logbook = Logbook(self.core)

    # The settings tests and the bot change after building (kept on the core, read at each use).
    @property
    def new_seed(self) -> Callable[[], int]:
        return self.core.new_seed

    @new_seed.setter
    def new_seed(self, value: Callable[[], int]) -> None:
        self.core.new_seed = value

    @property
    def computers_wait(self) -> bool:
        return self.core.computers_wait

    @computers_wait.setter
    def computers_wait(self, value: bool) -> None:
        self.core.computers_wait = value

    @property
    def computer_seconds(self) -> float | None:
        return self.core.computer_seconds

    @computer_seconds.setter
    def computer_seconds(self, value: float | None) -> None:
        self.core.computer_seconds = value


__all__ = [
    "ASK_AFTER",
    "MAX_TIMER_HOURS",
    "NOT_SEATED",
    "STALLED",
    "TIMEOUT_CHOICES",
    "Damaged",
    "MoveRecord",
    "MoveResult",
    "NoGameHere",
    "NotSeated",
    "Played",
    "RatingChange",
    "Refusal",
    "Seat",
    "Session",
    "SessionService",
    "StaleMove",
    "TimeOut",
    "damage_words",
    "damaged_text",
    "deadline_moves",
    "named",
    "new_game_hint",
    "record_of",
    "waiting",
    "refusal",
    "refuse_computer_seat",
    "seats_said",
    "starts_with_name",
]
