"""The move log: replaying a game, its records, and what the channel has been told of.

Imports: bot.sessions.model, bot.sessions.core, bot.storage (types), bot.records, bot.replaying, engines.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from bot.records import MoveRecord
from bot.replaying import standing, walk, with_taken_back
from bot.sessions.core import Core
from bot.sessions.model import Refusal, Session, record_of
from bot.storage import Body
from engines.core import config_from_options

log = logging.getLogger(__name__)


class Logbook:
    """A game's log, read."""

    def __init__(self, core: Core):
        self.core = core
        self.store = core.store

    async def replay(self, session_id: int) -> object:
        """Rebuild a session's state from its seed, options and move log."""
        session = await self.core.get(session_id)
        if session is None or session.state is None:
            raise Refusal("that game has no moves to replay")
        module = session.engine
        n = len([s for s in session.seats if s.seat is not None])
        config = config_from_options(module.Config, n, session.row.options)
        state = module.new_game(config, n, session.row.seed)
        for step in walk(module, state, await self.store.history.moves(session_id)):
            state = step.after
        return state

    async def log(
        self, session: Session, *, last: int | None = None, after: int | None = None
    ) -> list[MoveRecord]:
        """The last moves of ``session`` as records (all with ``last=None``; with ``after``,
        those after that move number), oldest first.

        Rows written before events and marks were stored get them back by
        replaying the game from its seed; when that fails (the rules changed
        since), they stay without, and :mod:`bot.public` shows them safely.
        Each window is the log's end, which holds every undo entry that takes back one of its
        moves: the records taken back are marked (:attr:`MoveRecord.taken_back`).
        """
        if after is not None:
            rows = await self.store.history.moves_after(session.id, after)
        else:
            rows = await self.store.history.moves(session.id, last=last)
        records = [record_of(r, session.engine) for r in rows]
        if any(r.privacy is None for r in records):
            records = await self.replayed(session, records)
        return with_taken_back(records, rows)

    async def with_holders(self, session: Session) -> Session:
        """``session`` knowing who held each seat before it was handed to a league's substitute
        (:attr:`Session.earlier`), for naming the person behind each past move."""
        return replace(session, earlier=await self.store.history.handovers(session.id))

    async def moves_played(self, session: Session) -> int:
        """How many moves of ``session`` stand (undo entries and the moves they took back left
        out) among those the channel has been told of; a game over has told them all."""
        rows = await self.store.history.moves(session.id)
        return standing(rows, session.row.told_through if session.status == "active" else None)

    async def untold(self, session: Session) -> list[MoveRecord]:
        """The moves the channel has not been told of yet, read from the log (so that a turn
        half played before a restart is still told in full), each with the turn number the log
        keeps with it, so that a seat's turns (a solo player's) are told apart."""
        return await self.log(session, after=session.row.told_through)

    async def told(
        self,
        session: Session,
        message_id: int,
        through: int,
        *,
        end: bool = False,
        also: Body[object] | None = None,
    ) -> int | None:
        """The board ``message_id`` was posted telling the moves up to ``through`` (``end``: and
        the game's end), recorded with ``also`` (statements of the same transaction); returns the
        id of the board it replaces (whose buttons come off)."""
        return await self.store.games.set_board_message(
            session.id, message_id, through, end_told=end, also=also
        )

    async def replayed(self, session: Session, records: list[MoveRecord]) -> list[MoveRecord]:
        module = session.engine
        try:
            n = len([s for s in session.seats if s.seat is not None])
            state = module.new_game(
                config_from_options(module.Config, n, session.row.options), n, session.row.seed
            )
            wanted = {r.number for r in records if r.privacy is None}
            found: dict[int, MoveRecord] = {}
            for step in walk(module, state, await self.store.history.moves(session.id)):
                row = step.entry
                if row.number in wanted and step.events is not None:
                    privacy = module.move_privacy(step.before, row.seat, module.parse_move(row.move))
                    found[row.number] = MoveRecord(
                        row.seat, row.move, row.by_computer, step.events, privacy, row.number, row.turn
                    )
        except Exception:
            log.warning("could not replay session %s to recover its log's marks", session.id, exc_info=True)
            return records
        return [found.get(r.number, r) if r.privacy is None and r.number is not None else r for r in records]
