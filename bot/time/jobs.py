"""Every kind of scheduled job, declared once with the part that handles it.

A job kind is declared here (:data:`KINDS`): its name (what the ``jobs`` table stores), what
its key and payload hold, and the owner of its handler.  :func:`register` registers a handler
for every declared kind, and nothing else, with the scheduler; the bot does it once, at
start-up (``Pukllay.setup_hook``).  A new kind is one line here and one handler there.

Imports nothing from the rest of the bot (storage, the table and the scheduler read their
kinds from here).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Protocol, TypeVar

DEADLINE = "deadline"
ARCHIVE = "archive"
REMIND = "remind"
TIMEOUT = "timeout"
LEAGUE_ROUND = "league_round"
LEAGUE_DEADLINE = "league_deadline"
LEAGUE_NUDGE = "league_nudge"
LEAGUE_HELD = "league_held"
QUEUE_EXPIRE = "queue_expire"
QUEUE_CONFIRM = "queue_confirm"
QUEUE_BACK = "queue_back"
AUTOPLAY = "autoplay"
CLOCK_WARNING = "clock_warning"
END_NOTICE = "end_notice"
BOARD = "board"
ASK = "ask"
TIMEOUT_NOTICE = "timeout_notice"
UNDO_NOTICE = "undo_notice"
AFTER_BOARD = "after_board"


@dataclass(frozen=True)
class Kind:
    name: str
    owner: str
    """Whose handler fires it."""
    holds: str
    """What its key and payload are."""


KINDS = (
    Kind(DEADLINE, "game clocks (ClockDesk.deadline)", "key: session id; payload: the version"),
    Kind(ARCHIVE, "the table (Table.archive_thread)", "key: a finished game's session id"),
    Kind(
        REMIND,
        "reminders (Reminders.remind)",
        "key: user id; payload: held, when it carries a turn notice held back by quiet hours",
    ),
    Kind(
        TIMEOUT,
        "clock votes (ClockDesk.unanswered)",
        "key: session:seat; payload: the time asked, the question's message once posted (its buttons go when it"
        " closes), and taken once the computer took the seat (not told yet)",
    ),
    Kind(
        LEAGUE_ROUND,
        "leagues (Rounds.fire_round)",
        "key: league id; payload: the round (a guard while it opens; with review, since when it waits for the"
        " organiser's review: a reminder), or announce (its season's end, not posted yet)",
    ),
    Kind(
        LEAGUE_DEADLINE, "leagues (NoShowDesk.fire_deadline, then Rounds)", "key: league:round; payload: both"
    ),
    Kind(
        LEAGUE_NUDGE,
        "league no-shows (NoShowDesk.fire_nudge)",
        "key: league:round; payload: both, the stage (remind, warn) and the warning's time",
    ),
    Kind(
        LEAGUE_HELD,
        "league no-shows (NoShowDesk.fire_held)",
        "key: league:game:stage:user, a late player's reminder or warning held back by quiet hours; payload:"
        " the league, round, game, stage and user",
    ),
    Kind(QUEUE_EXPIRE, "the queue (QueueService.expired)", "key: guild:user, whose maximum wait is over"),
    Kind(QUEUE_CONFIRM, "the queue (QueueService.unconfirmed)", "key: a formed table's id"),
    Kind(
        QUEUE_BACK,
        "the queue (QueueService.back)",
        "key: guild:user, held back while away (/me away); it forms tables again when the time away ends",
    ),
    Kind(AUTOPLAY, "fewer waits (Waits.autoplay)", "key: session:seat; payload: the version, the move"),
    Kind(CLOCK_WARNING, "fewer waits (Waits.warning)", "key: session:seat; payload: the turn's start"),
    Kind(
        END_NOTICE,
        "turn notices (bot.surface.direct.end_notice)",
        "key: session:user, told the end after quiet hours",
    ),
    Kind(
        BOARD,
        "board posts (CatchUp.retry)",
        "key: session id, whose board (or a finished game's results card) Discord refused, or is being"
        " posted, or whose abandon is being told (held by the post, so that no other process posts it"
        " meanwhile); payload: what its players were told, the server, the first refusal, and for a board"
        " refused inside a turn the board it was to follow (inside), its ping, the seats whose turn it"
        " started again (restarted), its header, and the lines refused with it and whom they ping (header,"
        " lines, pings), its note; the lines refused with an abandon's message (the answer that abandoned it"
        " first); the sentences a post handed over on finding it held (inside -1, during), told with the"
        " next board, or, the game abandoned, after the abandon",
    ),
    Kind(
        ASK,
        "clock votes (ClockDesk.ask_again)",
        "key: session:seat, whose timeout question is not posted yet (armed with the time-out: asked with"
        " the others of that time-out still pending) or Discord refused; payload: its time, what was told,"
        " the server",
    ),
    Kind(
        TIMEOUT_NOTICE,
        "clock votes (ClockDesk.tell_held)",
        "key: session:user, told of the game's timeout questions after quiet hours; payload: asked, the"
        " questions (seat, time out)",
    ),
    Kind(
        AFTER_BOARD,
        "board posts (Boards.tell_after)",
        "key: session:board message, armed as a running game's board is recorded and dropped once what follows"
        " it is told; payload: the seats whose turn it began (called: their turn notices, reminders armed),"
        " ping (it ended a turn: passes declared ahead, turn notices; forced moves and clock warnings follow"
        " any board), end (it told the game's end: the players' direct messages), last (the line its public"
        " picture shows: its watchers' direct messages) and first (a game's first board: its followers told)",
    ),
    Kind(
        UNDO_NOTICE,
        "undo requests (UndoRequests.tell_held)",
        "key: session:user, told of the game's request to take back moves after quiet hours; payload: the"
        " request's version, the number of moves",
    ),
)

J = TypeVar("J", covariant=True)  # the job a handler takes


class Registers(Protocol[J]):
    """A scheduler, as far as registering goes."""

    def register(self, kind: str, handler: Callable[[J], Awaitable[object]]) -> None: ...


def register(scheduler: Registers[J], handlers: Mapping[str, Callable[[J], Awaitable[object]]]) -> None:
    """Register ``handlers`` (kind -> handler): one for every kind in :data:`KINDS`, and only those."""
    declared = [k.name for k in KINDS]
    if sorted(handlers) != sorted(declared):
        missing, extra = set(declared) - set(handlers), set(handlers) - set(declared)
        raise ValueError(
            f"job handlers do not match the declared kinds (missing {missing}, undeclared {extra})"
        )
    for name in declared:
        scheduler.register(name, handlers[name])
