"""Playing: legal moves, a person's move (judged, committed, handed back), the computer turns
after it, and the end of a game with its results and ratings.

A move by a person starts from the copy of its game the core holds (:meth:`Core.copy`), without
reading; the commit's version check refuses a stale copy, and the move is then judged again on
a fresh read.  Computer players are computed off the event loop (:mod:`bot.computers`).

Imports: bot.sessions.model, bot.sessions.core, bot.storage, bot.time, bot.computers, bot.replaying,
engines.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Mapping, Sequence

from bot.computers import IN_PROCESS, ComputerFailed, fallback_move
from bot.records import MoveRecord
from bot.replaying import UNDO, undo_target
from bot.sessions.core import Core
from bot.sessions.model import (
    HELD_UP,
    MAX_COMPUTER_MOVES,
    NOT_SEATED,
    STALLED,
    Damaged,
    EndedHere,
    MoveResult,
    NotSeated,
    Played,
    RatingChange,
    Refusal,
    Seat,
    Session,
    StaleMove,
    apply,
    damaged_text,
    named,
    refuse_computer_seat,
    seats_said,
    stored,
    waiting,
)
from bot.storage import Body, Clocked, MoveRow, ResultRow, SessionRow, StaleVersion
from bot.time import gameclock as gc
from bot.time import pace
from engines.core import MoveError, NotYourTurn, Outcome, Said, rng_for, said

log = logging.getLogger(__name__)


AT_ONCE = -1
"""The turn a searching computer waits from (see :meth:`Play.after`): every turn, its first too."""


ENDS_TOLD_WITHIN = 7 * 86400
"""How long after a game's end its last board, never posted, is still posted at a start: a week,
as long as Discord keeps a quiet thread in the channel list."""


class Play:
    """Moves: a person's, and the computers' that follow; the end of a game."""

    def __init__(self, core: Core):
        self.core = core
        self.store = core.store

    async def legal_moves(self, channel_id: int, user_id: int) -> list[str]:
        """The user's legal moves now, in notation (empty when they may not act)."""
        session = await self.core.in_channel(channel_id)
        if session is None or session.status != "active" or session.damaged:
            return []
        seat = session.seat_of(user_id)
        if seat is None or seat.seat is None or seat.computer:
            return []
        return [str(m) for m in session.engine.legal_moves(session.state, seat.seat)]

    async def play(
        self, channel_id: int, user_id: int, text: str, *, expected_version: int | None = None
    ) -> MoveResult:
        """A move by ``user_id`` in the channel's game.  The game this process last saw running
        here is played without looking it up; when it turns out to have ended (in another
        process), the channel's game is looked up and the move goes to it."""
        session_id = self.core.game_in(channel_id)
        if session_id is not None:
            try:
                return await self.play_in(
                    session_id, user_id, text, expected_version=expected_version, channel_id=channel_id
                )
            except EndedHere:
                pass
        session = await self.core.require(channel_id)
        return await self.play_in(session.id, user_id, text, expected_version=expected_version)

    async def stamp(self, session: Session, seat: int) -> str:
        """What a private menu was made for: ``<turn>.<moves by this seat and undos>``.

        A click carrying an older stamp is stale: the turn (or the round) has
        moved on, the seat has moved since (a double click), or moves were taken
        back (the turn may come round again with another position).  Other players
        building at once in a simultaneous round do not make it stale.
        """
        mine = await self.store.history.seat_move_count(session.id, seat, undo=UNDO)
        return f"{session.engine.turn_number(session.state)}.{mine}"

    async def play_in(
        self,
        session_id: int,
        user_id: int,
        text: str,
        *,
        expected_version: int | None = None,
        expected_stamp: str | None = None,
        channel_id: int | None = None,
    ) -> MoveResult:
        """A move by ``user_id`` in game ``session_id``, under the game's lock.

        It starts from the copy of the game this process holds (see :meth:`_copy`), without
        reading it: the commit's version check refuses the copy if the game changed since.  Then,
        and whenever the copy refuses the move (it may be behind), the move is judged again on
        the game read afresh, exactly as if no copy had been held.  ``channel_id``: the channel
        the caller took the game from (:meth:`play`); a game that is no longer running there
        raises ``EndedHere`` instead of refusing."""
        started = time.perf_counter()
        async with self.core.lock(session_id):
            copy = self.core.copy(session_id)
            if copy is not None and (expected_version is None or expected_version == copy.version):
                try:
                    judged = await self._judge(copy, user_id, text, expected_version, expected_stamp)
                    row = await self._commit_move(*judged)
                except (Refusal, MoveError, StaleVersion):
                    pass  # the copy may be behind: judged again on a fresh read
                else:
                    return await self._played(row, judged, started)
            session = await self.core.get(session_id)
            if channel_id is not None and (
                session is None or session.status != "active" or session.row.channel_id != channel_id
            ):
                self.core.release(session_id)
                raise EndedHere()
            judged = await self._judge(session, user_id, text, expected_version, expected_stamp)
            try:
                row = await self._commit_move(*judged)
            except StaleVersion:
                raise StaleMove("someone else moved first; the board changed, here it is now") from None
            return await self._played(row, judged, started)

    async def _judge(
        self,
        session: Session | None,
        user_id: int,
        text: str,
        expected_version: int | None,
        expected_stamp: str | None,
    ) -> tuple[Session, object, Played]:
        """Check a person's move in ``session`` (refused in words they can read); the session,
        the state after the move, and the move."""
        if session is None or session.status != "active":
            status = session.status if session else "gone"
            if status in ("finished", "abandoned"):
                raise Refusal("this game is over")
            if status == "lobby":
                raise Refusal("this game has not started yet")
            raise Refusal("there is no such game")
        if expected_version is not None and expected_version != session.version:
            raise StaleMove("the board changed since that button was posted; here it is now")
        seat = session.seat_of(user_id)
        if seat is None or seat.seat is None:
            raise NotSeated(NOT_SEATED)
        refuse_computer_seat(session, seat)
        if session.damaged:
            raise Damaged(damaged_text(session))
        if expected_stamp is not None and expected_stamp != await self.stamp(session, seat.seat):
            raise StaleMove("the board changed since that menu was made; here it is now")
        module = session.engine
        if seat.seat not in module.to_move(session.state):
            raise named(NotYourTurn(self.not_your_turn(session, seat.seat)), session.names())
        try:
            move = module.parse_move(text)
            new_state, mine = apply(module, session.state, seat.seat, move, by_computer=False)
        except MoveError as exc:  # the engine's words, with the players' names put in
            raise named(exc, session.names()) from None
        return session, new_state, mine

    async def _commit_move(self, session: Session, new_state: object, mine: Played) -> SessionRow:
        """Commit a person's move; the row as committed (StaleVersion: the session moved on)."""
        return await self.store.games.play_moves(
            session.id,
            session.version,
            [stored(mine)],
            session.engine.to_dict(new_state),
            clock=await self.core.clock_after(session, new_state, 1),
        )

    async def _played(
        self, row: SessionRow, judged: tuple[Session, object, Played], started: float
    ) -> MoveResult:
        """After a person's move was committed (lock held): counted, kept, computers, the result."""
        session, new_state, mine = judged
        self.core.metrics.moves_committed(session.row.game, ["person"])
        self.core.metrics.move_took(session.row.game, time.perf_counter() - started)
        self.core.remember(session.id, row.version, new_state)
        turn_before = session.engine.turn_number(session.state)
        # The commit hands back the row as committed, and a move changes no seat (a seat change
        # bumps the version, which the commit checked): no read is needed to post it.
        session = Session(
            row=row, seats=session.seats, info=session.info, state=new_state, damaged=row.damaged
        )
        self.core.keep(row, session.seats)
        result = MoveResult(session, [mine], turn_before=turn_before)
        await self.settle(session, result, searches_wait=self.core.computers_wait)
        return result

    @staticmethod
    def not_your_turn(session: Session, seat: int) -> Said:
        """A refusal that says whose turn it is (or why the seat waits, where the game says: its
        ``waiting``), kept for the reader's language."""
        why = waiting(session, seat)
        if why is not None:
            return why
        seats = [s.seat for s in session.waiting_on() if s.seat is not None]
        if not seats:
            return said("nobody can move right now")
        if len(seats) > 1:  # seats written {p0}: named (escaped on Discord) as the refusal is shown
            return said(
                "it is not your turn: {players} are still to play; you will be mentioned when it is yours",
                players=seats_said(seats),
            )
        return said(
            "it is not your turn: it is {player}'s turn; you will be mentioned when it is yours",
            player=seats_said(seats),
        )

    async def settle(
        self, session: Session, result: MoveResult, *, searches_wait: bool = False, at_once: bool = False
    ) -> None:
        """:meth:`after` a change that is stored (a move, a start, an undo, a resignation): when
        what follows it cannot be stored (the database stopped answering), the change still
        stands and is told as such, marked :attr:`MoveResult.unsettled` with a note; the
        computers' turns or the game's end are played by :meth:`computers_play` later."""
        try:
            await self.after(session, result, searches_wait=searches_wait, at_once=at_once)
        except Exception:
            log.exception("session %s: a change was stored, and what follows it could not be", session.id)
            self.core.metrics.error("computer")
            self.core.release(session.id)  # the next move reads the game afresh
            result.unsettled = True
            result.note = said(HELD_UP)
            module = session.engine
            if result.turn_before is not None:
                result.turn_ended = module.turn_number(result.session.state) != result.turn_before

    async def after(
        self, session: Session, result: MoveResult, *, searches_wait: bool = False, at_once: bool = False
    ) -> None:
        """Let computer seats act, then finish the game if it is over (lock held).

        ``searches_wait`` (after a person's move): once a turn has ended, a computer
        that searches (the strong level) does not start; ``result.computers_next``
        says so, and :meth:`computers_play` plays on after the move is posted.  With
        ``at_once`` (after a start or an undo, whose board comes first) it does not start
        even within the turn."""
        module = session.engine
        state = session.state
        batch: list[Played] = []
        if module.outcome(state) is None:
            start = (AT_ONCE if at_once else result.turn_before) if searches_wait else None
            state, batch, failed, waiting = await self._computer_turns(session, state, start)
            result.computers_next = waiting
            if failed:
                result.note = said(STALLED)
        if batch:
            version = await self.core.record(
                session,
                session.version,
                batch,
                module.to_dict(state),
                clock=await self.core.clock_after(session, state, len(batch)),
            )
            result.played.extend(batch)
            self.core.remember(session.id, version, state)
            session = await self.core.reread(session.id)
            result.session = session
        outcome = module.outcome(state)
        if outcome is not None:
            result.ratings = await self.finish(session, outcome)
            result.session = await self.core.reread(session.id)
            # not finished here when another process abandoned the game meanwhile
            result.finished = result.session.status == "finished"
            result.outcome = outcome if result.finished else None
        if result.turn_before is not None and module.turn_number(state) != result.turn_before:
            result.turn_ended = True
        result.turn_ended = result.turn_ended or result.finished

    async def _computer_turns(
        self, session: Session, state: object, turn_start: int | None
    ) -> tuple[object, list[Played], bool, bool]:
        """The computer seats' moves until a person must act: (state, moves, whether a computer
        player failed (logged), whether a searching computer waits to move).

        Each move is seeded by the game's seed and its move number, so a replay chooses
        the same moves (a strong search by count; by the clock, given its count).  With
        ``turn_start`` (the turn number before a person's move), a searching computer
        waits once the turn number has moved from it (see :meth:`_after`)."""
        module = session.engine
        levels = {s.seat: s.computer_level for s in session.seats if s.computer and s.seat is not None}
        batch: list[Played] = []
        if not levels:
            return state, batch, False, False
        computers = set(levels)
        paced = await self._paced(session, state, computers)
        seed, version = session.row.seed, session.version
        for _ in range(MAX_COMPUTER_MOVES):
            if module.outcome(state) is not None:
                break
            seat = pace.next_computer(module, state, computers, paced)
            if seat is None:
                break
            level = levels[seat]
            if (
                turn_start is not None
                and level not in IN_PROCESS
                and (turn_start == AT_ONCE or module.turn_number(state) != turn_start)
            ):
                return state, batch, False, True
            try:
                legal = list(module.legal_moves(state, seat))
                view = module.view_for(state, seat)
                rng = rng_for(seed, "computer", version + len(batch))
                try:
                    move = await self.core.computers.move(
                        module, view, legal, rng, level, self.core.computer_seconds
                    )
                except ComputerFailed as exc:
                    log.warning(
                        "the %s computer of session %s (seat %s) failed (%s); it plays this move at normal",
                        level,
                        session.id,
                        seat,
                        exc,
                    )
                    move = fallback_move(module, view, legal, rng)
                state, played = apply(module, state, seat, move, by_computer=True)
            except Exception:
                log.exception("computer player failed in session %s (seat %s)", session.id, seat)
                return state, batch, True, False
            batch.append(played)
        return state, batch, False, False

    async def _paced(self, session: Session, state: object, computers: set[int]) -> set[int]:
        """The computers that already made their move since the last person's (see
        :mod:`bot.time.pace`), read from the move log: in a simultaneous round with people acting
        they wait for a person's next move, whoever asks them to play (the table after a post, the
        bot's next start, a resignation, an undo: as they stood before the moves taken back).
        Empty in any other position, where the pace is not kept."""
        module = session.engine
        acting = set(module.to_move(state))
        if not acting & computers or not acting - computers:
            return set()
        turn = module.turn_number(state)
        window = len(computers) + 1
        rows = await self.store.history.moves(session.id, last=window)
        target = undo_target(rows[-1].move) if rows else None
        if target is not None:  # an undo: the pace stands as it stood before the moves taken back
            rows = await self.store.history.moves_between(session.id, max(0, target - 1 - window), target - 1)
        paced: set[int] = set()
        for row in reversed(rows):
            if not row.by_computer or row.seat not in computers or row.turn != turn:
                break
            paced.add(row.seat)
        return paced

    async def computers_play(self, session_id: int) -> MoveResult | None:
        """Play the computer turns that wait (see :meth:`_after`): the next searching computer's
        turn and the instant ones after it, up to the next turn of a searching computer; or
        record the end of a game whose last move is stored and its end is not (see :meth:`settle`).
        None when no computer is to move (or the game is not running)."""
        async with self.core.lock(session_id):
            session = await self.core.running(session_id)
            if session is None:
                return None
            module = session.engine
            if module.outcome(session.state) is not None:  # over, its end not recorded yet
                result = MoveResult(session, turn_before=module.turn_number(session.state))
                await self.after(session, result)
                return result
            computers = {s.seat for s in session.seats if s.computer and s.seat is not None}
            if not computers & set(module.to_move(session.state)):
                return None
            paced = await self._paced(session, session.state, computers)
            if pace.next_computer(module, session.state, computers, paced) is None:
                return None
            turn = module.turn_number(session.state)
            result = MoveResult(session, turn_before=turn)
            await self.after(session, result, searches_wait=True)
            if not result.played and result.note is None:
                return None
            return result

    async def computers_waiting(self, guild_ids: Sequence[int]) -> list[int]:
        """The running games of these servers the table takes up again at its start: a computer
        is to move (the table plays it, see :meth:`computers_play`), a game's last move ended it
        and its end is not recorded (:meth:`computers_play` records it), or a turn ended that the
        channel was not told of (the bot stopped between a move and its post; see
        :meth:`turn_untold`), or the game's first board was never posted (it stopped between the
        start and its board)."""
        found = []
        for guild_id in guild_ids:
            for row in await self.store.games.live_sessions(guild_id):
                if row.status != "active":
                    continue
                session = await self.core.running(row.id)
                if session is None:
                    continue
                if session.row.board_message_id is None or await self.turn_untold(session):
                    found.append(session.id)
                    continue
                module = session.engine
                if module.outcome(session.state) is not None:
                    found.append(session.id)
                    continue
                computers = {s.seat for s in session.seats if s.computer and s.seat is not None}
                if computers:
                    paced = await self._paced(session, session.state, computers)
                    if pace.next_computer(module, session.state, computers, paced) is not None:
                        found.append(session.id)
        return found

    async def ends_untold(self, guild_ids: Sequence[int]) -> list[int]:
        """The games of these servers that ended within :data:`ENDS_TOLD_WITHIN` and whose end
        the channel was never told (the bot stopped between the end and its post; a move, a
        resignation, a clock, a deadline or an abandon ended them), or whose results card was never
        posted: the table tells it at its start."""
        since = self.store.clock.stamp(-ENDS_TOLD_WITHIN)
        return [row.id for g in guild_ids for row in await self.store.games.ended_untold(g, since)]

    async def turn_untold(self, session: Session) -> bool:
        """Whether a turn (or a round) ended after the last move the channel was told of: the
        moves are recorded and their board was never posted."""
        return turn_ended(session, await self.store.history.moves_after(session.id, session.row.told_through))

    async def finish(
        self,
        session: Session,
        outcome: Outcome,
        reason: str | None = None,
        *,
        seats: Mapping[int, tuple[bool, bool]] | None = None,
        clock: Clocked | None = None,
        also: Body[object] | None = None,
    ) -> list[RatingChange]:
        """Record the results (and the ratings); returns how each person's rating moved, as the
        results keep it (:meth:`rating_changes`: the one account a late card reads too).
        ``seats`` and ``clock``: the seats' flags and the clocks of the change that ends the game
        (``session`` shows it), stored with the end in one commit (see Games.finish), with
        ``also`` (a league's record of the change)."""
        resigned = {s.seat for s in session.seats if s.resigned} | gc.ranks_last(session.banks)
        ranking = session.final_ranking(outcome)
        results = []
        place = 1
        for group in ranking:
            for s in group:
                seat = session.by_seat(s)
                results.append(ResultRow(s, seat.user_id, outcome.scores[s], place, s in resigned))
            place += len(group)
        ended = await self.store.games.finish(
            session.id,
            status="finished",
            reason=reason or outcome.reason,
            outcome=outcome.to_dict(),
            results=results,
            rated=True,
            names={s.user_id: s.name for s in session.seats if s.user_id is not None},
            seats=seats,
            clock=clock,
            also=also,
        )
        self.core.release(session.id)
        if not ended:  # it ended meanwhile in another process (abandoned there): no result here
            return []
        self.core.ended(session.row)
        return await self.rating_changes(session)

    async def rating_changes(self, session: Session) -> list[RatingChange]:
        """How each person's rating moved in the finished ``session``, as its end stored them with
        its results (what :meth:`finish` returns too), each named as the game's seats name them;
        none when the game rated nobody."""
        names = {s.user_id: s.name for s in session.seats if s.user_id is not None}
        return [
            RatingChange(r.user_id, names.get(r.user_id, str(r.user_id)), r.rating_before, r.rating_after)
            for r in await self.store.ratings.results(session.id)
            if r.user_id is not None and r.rating_before is not None and r.rating_after is not None
        ]

    async def end_early(
        self,
        session: Session,
        staying: list[Seat],
        why: Said,
        *,
        seats: Mapping[int, tuple[bool, bool]] | None = None,
        clock: Clocked | None = None,
        also: Body[object] | None = None,
    ) -> list[RatingChange]:
        # Seats leaving together (a league's forfeit of everyone late) share their place.
        together = {s for s, (_, gone) in (seats or {}).items() if gone} if len(seats or {}) > 1 else set()
        order = [
            s.seat for s in session.seats if s.resigned and s.seat is not None and s.seat not in together
        ]
        ranking = [tuple(sorted(s.seat for s in staying if s.seat is not None))] if staying else []
        ranking += [tuple(sorted(together))] if together else []
        ranking += [(s,) for s in reversed(order)]  # the last to resign ranks highest among them
        n = len(session.seats)
        scores = tuple(1.0 if any(st.seat == s for st in staying) else 0.0 for s in range(n))
        outcome = Outcome.told(scores, tuple(ranking), why)
        return await self.finish(session, outcome, reason=outcome.reason, seats=seats, clock=clock, also=also)


def turn_ended(session: Session, moves: Iterable[MoveRow | MoveRecord]) -> bool:
    """Whether a turn (or a round) ended among ``moves`` (log rows or their records, each with the
    turn number the log keeps): one of them was made in a turn other than the current one."""
    turn = session.engine.turn_number(session.state)
    return any(m.turn is not None and m.turn != turn for m in moves)
