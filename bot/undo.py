"""Undo by consent: taking back one's last move when every other player agrees.

``/game undo`` asks to take back the asker's last move that still stands,
together with every move played after it (a league seat handed to a substitute: the last
since it became theirs, never one of the player they replaced).  It is refused when any of those
moves is not *undoable* by its game's rules (``undoable(state, seat, move)``
in the engine: it revealed something hidden, or involved chance: a card
drawn, a die rolled, a space discovered), when one of them is the table's own
move (a deadline) or the computer's for a person whose turn timer ran out (the undo would give
them no time, so the timer would only play again at once), and when the game is over.
Otherwise the other people seated (not computers, not those who resigned) are asked; when they have all
agreed (at once, if there are none), an *undo entry* is appended to the move
log (:mod:`bot.replaying`) and the game goes back to the state before that
move.  Nothing is deleted: the log keeps the moves taken back and the entry
that took them back, and every replay honours it.  In a game with a clock, an undo gives no
time back: every clock keeps the time it ran, the undo earns nobody an increment, and what the
moves taken back gave back (their increments, a per-move clock's fresh turns) goes with them
(:func:`bot.time.gameclock.take_back`).

A request is stored (``undo_requests``) with the game's version: any move
played meanwhile voids it, and a button of a void request is answered so.
One refusal ends the request.  A request that closes without an answer (a
move played meanwhile, the game over, a newer request in its place) is
handed back by :meth:`UndoService.void` and ``Asked.replaced``, so that its
message can say so.

No Discord and no SQL here.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.history import History
from bot.holders import holder_at, names_at
from bot.public import MoveRecord
from bot.replaying import taken_back, undo_target, undo_text, walk
from bot.sessions import (
    MoveResult,
    Refusal,
    Session,
    SessionService,
    StaleMove,
    named,
    record_of,
    refuse_computer_seat,
    seats_said,
)
from bot.storage import MoveRow, NewMove, StaleVersion, UndoRequest
from bot.time import gameclock as gc
from engines.core import PUBLIC, TABLE, Event, said_n
from languages import N_

log = logging.getLogger(__name__)


@dataclass
class Asked:
    """``/game undo`` asked the others: ``request`` waits for its ``waiting`` seats."""

    session: Session
    target: int
    moves: list[MoveRecord]
    request: UndoRequest
    replaced: UndoRequest | None = None  # the older request this one took the place of


@dataclass
class Undone:
    """``/game undo`` took the moves back at once (nobody else to ask)."""

    session: Session
    target: int
    moves: list[MoveRecord]
    result: MoveResult


@dataclass
class Answered:
    session: Session
    agreed: bool
    request: UndoRequest
    result: MoveResult | None = None  # the undo, once everyone agreed
    count: int = 2  # how many moves the request took back (or would have): its answers' words


class UndoService:
    def __init__(self, service: SessionService, history: History):
        self.service = service
        self.store = service.store
        self.history = history

    async def ask(self, channel_id: int, user_id: int) -> Asked | Undone:
        async with self.service.core.acting(user_id, channel=channel_id) as (session, seat):
            assert seat.seat is not None  # a running game's seats are numbered
            refuse_computer_seat(session, seat)
            target, moves = await self._check(session, seat.seat)
            others = {
                s.seat
                for s in session.seats
                if s.seat is not None and s.seat != seat.seat and not s.computer and not s.resigned
            }
            if not others:  # nobody to ask (only computers, or those who resigned, play along)
                result = await self._apply(session, seat.seat, target, moves, agreed=False)
                return Undone(result.session, target, moves, result)
            request = UndoRequest(session.id, session.version, seat.seat, target, frozenset(others))
            replaced = await self.store.history.undo_request(session.id)
            await self.store.history.ask_undo(request)
            return Asked(session, target, moves, request, replaced)

    async def void(self, session_id: int) -> tuple[UndoRequest, bool] | None:
        """Drop the game's request if it can no longer be answered: a move was played since it
        was asked, or the game is over.  The request dropped and whether the game is over (None:
        there was none, or it is still open, or someone else dropped it meanwhile)."""
        request = await self.store.history.undo_request(session_id)
        if request is None:
            return None
        session = await self.service.core.get(session_id)  # read after the request: never older
        over = session is None or session.status != "active"
        if not over and session is not None and session.version == request.version:
            return None
        if not await self.store.history.drop_undo(session_id, request.version):
            return None
        return request, over

    async def _check(self, session: Session, seat: int) -> tuple[int, list[MoveRecord]]:
        """The asker's last standing move and every move after it, refused unless all are undoable."""
        rows = await self.store.history.moves(session.id)
        gone = taken_back(rows)
        earlier = await self.store.history.handovers(session.id)
        mine = [
            r
            for r in rows
            if r.seat == seat
            and r.number not in gone
            and undo_target(r.move) is None
            and holder_at(earlier, seat, r.number)[0] is None  # made since the seat was theirs
        ]
        if not mine:
            raise Refusal("you have no move in this game that could be taken back")
        target = mine[-1].number
        module = session.engine
        timer = session.clock is not None and session.clock.kind == gc.TIMER
        before, _ = await self.history.state_at(session, target - 1)
        later = [r for r in rows if r.number >= target]
        records = []

        def theirs(text: str, row: MoveRow) -> Refusal:
            """A refusal about ``row``, another seat's move: the seat written {pN}, named (escaped
            on Discord) as it was at that move."""
            refusal = Refusal(text, number=row.number, player=seats_said([row.seat]))
            return named(refusal, names_at(session.names(), earlier, row.number))

        for step in walk(module, before, later, target - 1):
            row = step.entry
            if step.events is None or row.number in gone:
                continue
            if row.seat == TABLE:
                raise Refusal(
                    "move {number} was the table's own (a deadline), which cannot be taken back",
                    number=row.number,
                )
            if row.by_computer and timer and not session.by_seat(row.seat).computer:
                raise theirs(
                    N_(
                        "move {number} was played for {player} when their turn timer ran out; taking "
                        "it back would give them no time, so the timer would only play again at once"
                    ),
                    row,
                )
            if not module.undoable(step.before, row.seat, module.parse_move(row.move)):
                if row.seat == seat:
                    raise Refusal(
                        "move {number} (yours) revealed something hidden or involved chance (a card drawn "
                        "or shown, a space discovered, a die rolled...), so it cannot be taken back",
                        number=row.number,
                    )
                raise theirs(
                    N_(
                        "move {number} ({player}'s) revealed something hidden or involved chance (a "
                        "card drawn or shown, a space discovered, a die rolled...), so it cannot be "
                        "taken back"
                    ),
                    row,
                )
            records.append(record_of(row, session.engine))
        return target, records

    async def answer(self, session_id: int, version: int, user_id: int, agree: bool) -> Answered:
        async with self.service.core.acting(user_id, game=session_id) as (session, seat):
            request = await self.store.history.undo_request(session_id)
            if request is None or request.version != version or session.version != version:
                raise Refusal(
                    "this request to take back a move is no longer open (the game moved on, or it was answered)"
                )
            assert seat.seat is not None  # a running game's seats are numbered
            if seat.seat == request.seat:
                raise Refusal("you asked for this undo; the other players answer it")
            refuse_computer_seat(session, seat)  # resigned, or out of time: not asked (say why)
            if seat.seat not in request.waiting:
                if request.waiting:
                    raise Refusal("you have already agreed; waiting for the others")
                if not agree:
                    raise Refusal("everyone has agreed already; press Agree to take the moves back")
            if not request.waiting:  # everyone agreed, and taking the moves back was cut short
                agreed: UndoRequest | None = request  # (the database stopped answering): now
            elif not agree:
                await self.store.history.drop_undo(session_id, version)
                try:  # how many moves stand, as the request counted them
                    count = len((await self._check(session, request.seat))[1])
                except Refusal:
                    count = 2
                return Answered(session, False, request, count=count)
            else:
                agreed = await self.store.history.agree_undo(session_id, version, seat.seat)
            if agreed is None:
                raise Refusal("this request to take back a move is no longer open")
            if agreed.waiting:
                return Answered(session, True, agreed)
            target, moves = await self._check(session, request.seat)
            if target != request.target:
                raise Refusal("the moves to take back changed since the request; ask again")
            result = await self._apply(session, request.seat, target, moves)
            return Answered(result.session, True, agreed, result, len(moves))

    async def _apply(
        self, session: Session, seat: int, target: int, moves: list[MoveRecord], *, agreed: bool = True
    ) -> MoveResult:
        """Append the undo entry and go back to the state before move ``target`` (lock held);
        ``agreed``: the others agreed (else there was nobody to ask)."""
        module = session.engine
        state, _ = await self.history.state_at(session, target - 1)
        player = f"{{p{seat}}}"  # the seat, named by the table for each reader
        if agreed:
            told = said_n(
                len(moves),
                "{player} took back {n} move, from move {target}, with everyone's agreement",
                "{player} took back {n} moves, from move {target}, with everyone's agreement",
                player=player,
                target=target,
            )
        else:
            told = said_n(
                len(moves),
                "{player} took back {n} move, from move {target}, with nobody else to ask",
                "{player} took back {n} moves, from move {target}, with nobody else to ask",
                player=player,
                target=target,
            )
        event = Event.told(told)
        # The entry's turn is the one it was agreed in (the state before it, as for any move).
        turn = module.turn_number(session.state)
        entry = NewMove(seat, undo_text(target), False, [event.to_dict()], PUBLIC.to_dict(), turn)
        # A clocked game: its clocks as of now, without what the moves taken back gave back.
        clock = await self.service.core.clock_after(session, state, 1, undo_of=target)
        # The row comes back as committed: once the moves are taken back, nothing after this
        # needs the database to tell it (it may have stopped answering).
        try:
            row = await self.store.games.play_moves(
                session.id, session.version, [entry], module.to_dict(state), clock=clock
            )
        except StaleVersion:  # a move stored meanwhile by another process (a deadline): it stands
            raise StaleMove(
                "the game moved on before the moves were taken back, so they stand; {/game undo} asks again"
            ) from None
        try:  # a request left behind no longer matches the game's version: it is never answered
            await self.store.history.drop_undo(session.id)
        except Exception:
            log.warning("session %s: the answered undo request was not removed", session.id, exc_info=True)
        core = self.service.core
        core.remember(session.id, row.version, state)
        core.keep(row, session.seats)
        session = Session(row=row, seats=session.seats, info=session.info, state=state, damaged=row.damaged)
        result = MoveResult(session, [], turn_before=None, turn_ended=True)
        await self.service.play.settle(session, result)
        result.turn_ended = True
        return result
