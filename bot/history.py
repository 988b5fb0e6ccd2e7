"""A game's past: the state after any move, rebuilt from the seed and the move log.

The history browser shows the public board as it was after move N (move 0
is the start).  Rebuilding it means replaying the log; to keep that short the
table keeps *snapshots*, the state after every :data:`SNAPSHOT_EVERY`-th move,
in the ``snapshots`` table.  They are a cache derived from the log: written
when a replay passes a multiple of ``SNAPSHOT_EVERY``, rebuilt when missing,
and never trusted over the log (an unreadable one is ignored).  So once a
game's history has been read through once, showing any move replays fewer
than ``SNAPSHOT_EVERY`` moves; the first reading of a long finished game
replays the log once, and the whole game is snapshotted by :meth:`History.warm`
when it ends.

``bench/history.py`` measures the cost of showing a move with and without
snapshots for the longest game of each title; ``SNAPSHOT_EVERY`` was chosen
from its figures (see that script's docstring).

What a reader may see of each move is decided by :mod:`bot.public` (the
board shown is always the public one, ``view_for(state, None)``).  No
Discord and no SQL here.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from bot.public import MoveRecord
from bot.replaying import earliest_target, walk, with_taken_back
from bot.sessions import Refusal, Session, SessionService, damaged_text, record_of
from engines.core import config_from_options

SNAPSHOT_EVERY = 16
"""Moves between two snapshots: no history page replays more moves than this."""


@dataclass(frozen=True)
class Page:
    """The game after move ``number`` (0: before any move) of the ``shown`` moves one may browse."""

    number: int
    shown: int
    state: object  # the game's state, held for the engine (never looked into here)
    record: MoveRecord | None  # the move that led here (None at the start)
    replayed: int  # moves replayed to build this page (for the bench and the tests)


def start_state(session: Session) -> object:
    """The state before any move, from the session's seed and options."""
    module = session.engine
    n = len([s for s in session.seats if s.seat is not None])
    return module.new_game(config_from_options(module.Config, n, session.row.options), n, session.row.seed)


def browsable(session: Session, total: int) -> int:
    """How many moves of the log may be browsed now.

    A finished (or abandoned) game shows all of them.  In a running game the
    channel is told of a turn when it ends, so the browser stops where the
    channel's last board did: steps of a turn still being played stay with
    their player, and the builds of a simultaneous round stay secret until the
    round ends.
    """
    if session.status == "active":
        return min(total, session.row.told_through)
    return total


class History:
    """Pages of a session's past, built from snapshots and the log."""

    def __init__(self, service: SessionService, *, every: int = SNAPSHOT_EVERY):
        if every < 1:
            raise ValueError("snapshots must be at least one move apart")
        self.service = service
        self.store = service.store
        self.every = every
        self._turns: dict[tuple[int, int, int], list[tuple[int, int]]] = {}

    async def session(self, session_id: int, guild_id: int | None) -> Session:
        """The session to browse, refused unless it is a started game of the server ``guild_id``."""
        session = await self.service.core.get(session_id) if 0 < session_id < 2**63 else None
        if session is None or session.row.guild_id != guild_id:
            raise Refusal("there is no game #{number} on this server", number=session_id)
        if session.damaged:
            raise Refusal(damaged_text(session))
        if session.status == "lobby" or session.state is None:
            raise Refusal("game #{number} has not started, so it has no history yet", number=session_id)
        return session

    async def state_at(self, session: Session, number: int) -> tuple[object, int]:
        """The state after move ``number`` and how many moves were replayed to get it."""
        module = session.engine
        total = await self.store.history.move_count(session.id)
        if not 0 <= number <= total:
            raise Refusal(
                "game #{game} has moves 0 to {total}, not {number}",
                game=session.id,
                total=total,
                number=number,
            )
        if number == total and session.state is not None:
            return session.state, 0
        limit = number
        while True:
            base, state = await self._nearest(session, limit)
            rows = await self.store.history.moves_between(session.id, base, number)
            target = earliest_target(rows)
            if target is None or target - 1 >= base:
                break
            limit = target - 1  # an undo reaches back before that snapshot: start earlier
        every = self.every

        def replay() -> tuple[object, list[tuple[int, dict[str, object]]]]:
            current, saved = state, []
            for step in walk(module, state, rows, base):
                current = step.after
                if step.entry.number % every == 0:
                    saved.append((step.entry.number, module.to_dict(current)))
            return current, saved

        state, saved = await asyncio.to_thread(replay) if len(rows) > every else replay()
        await self.store.history.save_snapshots(session.id, saved)
        return state, len(rows)

    async def _nearest(self, session: Session, number: int) -> tuple[int, object]:
        """The latest snapshot at or before move ``number`` (else the start): (its move, the state)."""
        found = await self.store.history.snapshot_before(session.id, number)
        if found is not None:
            try:
                return found[0], session.engine.from_dict(found[1])
            except Exception:  # a snapshot of another version of the rules: rebuild from the log
                pass
        return 0, start_state(session)

    async def page(self, session: Session, number: int | None = None) -> Page:
        """The page after move ``number`` (None: the latest one may browse)."""
        total = await self.store.history.move_count(session.id)
        shown = browsable(session, total)
        if number is None:
            number = shown
        if not 0 <= number <= shown:
            if number > total or number < 0:
                raise Refusal(
                    "game #{game} has no move {number}; its moves are numbered 1 to {total}",
                    game=session.id,
                    number=number,
                    total=total,
                )
            raise Refusal(
                "move {number} is part of a turn still being played; the history shows moves 0 to {shown} "
                "until the channel is told of it",
                number=number,
                shown=shown,
            )
        state, replayed = await self.state_at(session, number)
        record = None
        if number:
            row = await self.store.history.move_at(session.id, number)
            record = record_of(row, session.engine) if row is not None else None
            if record is not None and record.privacy is None:
                record = (await self.service.logbook.replayed(session, [record]))[0]
            if record is not None:  # the log from it on holds every undo entry that took it back
                record = with_taken_back(
                    [record], await self.store.history.moves_after(session.id, number - 1)
                )[0]
        return Page(number, shown, state, record, replayed)

    async def turn_starts(self, session: Session, shown: int) -> list[tuple[int, int]]:
        """Each turn (or round) of the first ``shown`` moves: (its number, the move after which it
        began; 0 for the first).  Replayed once per version of the game, then kept (a few games)."""
        key = (session.id, session.version, shown)
        if key in self._turns:
            return self._turns[key]
        module = session.engine
        rows = await self.store.history.moves_between(session.id, 0, shown)

        def compute() -> list[tuple[int, int]]:
            state = start_state(session)
            out = [(module.turn_number(state), 0)]
            for step in walk(module, state, rows):
                now = module.turn_number(step.after)
                if now != out[-1][0]:
                    out.append((now, step.entry.number))
            return out

        found = await asyncio.to_thread(compute) if len(rows) > self.every else compute()
        while len(self._turns) >= 32:
            self._turns.pop(next(iter(self._turns)))
        self._turns[key] = found
        return found

    async def warm(self, session: Session) -> int:
        """Snapshot a whole game (when it ends); returns how many moves were replayed."""
        total = await self.store.history.move_count(session.id)
        if total < self.every:
            return 0
        _, replayed = await self.state_at(session, total - 1)
        return replayed
