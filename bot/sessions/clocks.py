"""Time: the game clock (the turn timer is one of its kinds), its deadline, and the answers when time runs out.

Imports: bot.sessions.model, bot.sessions.core, bot.sessions.play, bot.sessions.seats,
bot.storage, bot.time.gameclock, engines, languages.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import cast

from bot.sessions.core import ANY, Core
from bot.sessions.model import (
    DAMAGE_REASONS,
    MAX_TIMER_HOURS,
    TIMEOUT_CHOICES,
    MoveResult,
    Refusal,
    Session,
    StaleMove,
    TimeOut,
    damage_reason,
    deadline_moves,
    refuse_computer_seat,
    seats_said,
)
from bot.sessions.play import Play
from bot.sessions.seats import CHANGED_MEANWHILE, Seats, as_changed
from bot.storage import Job, JobPayload, StaleVersion
from bot.time import gameclock as gc
from bot.time.jobs import ASK, TIMEOUT
from bot.time.source import stamp_of
from engines.core import TABLE, echo, said, said_n
from languages import N_

ASK_AFTER = 120.0
"""Seconds after a time-out when its ``ask`` job, armed with it, posts the question what now if
the process stopped before posting it (a deploy, a crash); posted, the question cancels the job."""

QUESTION_CLOSED = N_("that question is closed: it was answered already, or the player moved")


class Clocks:
    """Setting the clock (or the turn timer), and acting when its deadline passes."""

    def __init__(self, core: Core, play: Play, seats: Seats):
        self.core = core
        self.store = core.store
        self.play = play
        self.seats = seats

    async def set_timer(
        self,
        channel_id: int,
        user_id: int,
        seconds: float | None,
        *,
        can_manage: bool,
        organises: Callable[[int], Awaitable[bool]] | None = None,
    ) -> Session:
        """Give the players to move ``seconds`` to act (``None`` or 0: no timer).

        Anything but a number from 0 to :data:`MAX_TIMER_HOURS` hours (not a
        number, infinite, negative, too long) is refused and nothing changes.
        """
        if seconds is not None:
            number = isinstance(seconds, int | float) and not isinstance(seconds, bool)
            if not number or not math.isfinite(seconds) or not 0 <= seconds <= MAX_TIMER_HOURS * 3600:
                shown = f"{seconds / 3600:g}" if number else echo(seconds)
                raise Refusal(
                    "the timer must be a number of hours from 0 (off) to {most}, not {shown}",
                    most=MAX_TIMER_HOURS,
                    shown=shown,
                )
        spec = gc.turn_timer(seconds) if seconds else None
        return await self._set(
            channel_id, user_id, spec, can_manage=can_manage, organises=organises, timer=True
        )

    async def set_clock(
        self,
        channel_id: int,
        user_id: int,
        text: str,
        *,
        can_manage: bool,
        organises: Callable[[int], Awaitable[bool]] | None = None,
    ) -> Session:
        """``/game clock``: choose the game's clock (``off``: none), in the lobby or during the game.

        During the game the new clock starts afresh for everyone: each person gets the full
        start, and the clocks of those to move run from now.
        """
        spec = self.core.check_clock(text)
        return await self._set(
            channel_id, user_id, spec, can_manage=can_manage, organises=organises, timer=False
        )

    async def _set(
        self,
        channel_id: int,
        user_id: int,
        spec: gc.ClockSpec | None,
        *,
        can_manage: bool,
        organises: Callable[[int], Awaitable[bool]] | None,
        timer: bool,
    ) -> Session:
        """Set the clock (``timer``: the turn timer, which replaces no other clock): the host's
        to set, or, in a league game, the league's (its organiser's), and Manage Channels'."""
        async with self.core.acting(user_id, channel=channel_id, need=ANY, seated=False) as (session, _):
            runs = await self.seats.league_runs(session, can_manage, organises)
            if runs is False:
                raise Refusal(
                    "this is a league game: its clock is the league's, so only its league's organiser or "
                    "someone with Manage Channels can change it"
                )
            if runs is None and user_id != session.row.host_id and not can_manage:
                if timer:
                    raise Refusal("only the host or someone with Manage Channels can set the turn timer")
                raise Refusal("only the host or someone with Manage Channels can set the game's clock")
            if timer and session.clock is not None and session.clock.kind != gc.TIMER:
                raise Refusal(
                    "this game has a clock ({clock}); change it with {/game clock} (`{/game clock clock:}off` removes it)",
                    clock=session.row.clock,
                )
            if session.banks.pending:
                raise Refusal("someone's time ran out and the others are being asked; answer that first")
            # Stored only at the version judged here: clocks begun for the seats to move then
            # never replace those a deadline's move, stored meanwhile elsewhere, started.
            version = session.version
            if spec is None:
                # Seats the computer took after a timeout stay so: their people may still take
                # them back once, and rank last.
                taken = session.banks.taken
                kept = gc.Banks(taken=dict(taken)).to_dict() if taken else None
                saved = await self.store.games.set_clock(
                    session.id, None, kept, None, expected_version=version
                )
            elif session.status == "lobby":
                saved = await self.store.games.set_clock(
                    session.id, spec.text, None, spec.start, expected_version=version
                )
            else:
                people = [s.seat for s in session.seats if s.seat is not None and not s.computer]
                banks = gc.begin(spec, people, session.to_move() & set(people), self.core.now())
                banks = replace(banks, taken=session.banks.taken)
                saved = await self.core.save_clock(session, banks, spec=spec, expected_version=version)
            if not saved:
                raise StaleMove(CHANGED_MEANWHILE)
            return await self.core.require(channel_id)

    async def fire_clock(self, session_id: int, job: Job | None) -> MoveResult | TimeOut | None:
        """A clocked game's deadline: whose time ran out, once time away is left out.

        Nobody's (time away, or a deadline set before a move): the deadline moves to when the
        first clock runs out.  In a game with table moves (a round the table ends), the round
        ends.  A turn timer's end has the computer move once for each seat that ran out (for
        each person the game waits on, in a game whose timer was set before timers were
        clocks).  Otherwise the seats that ran out wait while the others are asked (a
        :class:`TimeOut` for the table to post).  With ``job`` (the claimed deadline job), a
        move consumes it in its own transaction, so a deadline acts once.
        """
        async with self.core.lock(session_id):
            session = await self.core.running(session_id)
            if session is None:
                return None
            spec = session.clock
            if spec is None:
                return None
            now = self.core.now()
            away = await self.core.away_of(session)
            banks = session.banks
            out = gc.timed_out(spec, banks, now, away)
            if spec.kind == gc.TIMER and not banks.since:  # a timer stored before timers were clocks
                out = [s.seat for s in session.waiting_on() if not s.computer and s.seat is not None]
            module = session.engine
            rounds = getattr(module, "TABLE_MOVES", False) and list(module.legal_moves(session.state, TABLE))
            if not out or (rounds and set(out) != set(gc.running(banks)) and banks.since):
                # Nobody ran out yet (time away, or a deadline set before a move); a round waits
                # for the last clock of those still to move.
                await self.core.save_clock(session, banks, expected_version=session.version)
                return None
            if rounds or spec.kind == gc.TIMER:
                return await self._time_is_up(session, job, [] if rounds else out)
            banks = gc.run_out(banks, out, now)
            # The job that lets the computer take a seat nobody answered for, and the one that
            # asks the question should the process stop before posting it (its post cancels it),
            # are armed with the clocks that wait on them: a restart still asks, once.
            unanswered: list[tuple[str, str, float, dict[str, object]]] = []
            at: dict[str, object]
            for seat in out:
                key, at = f"{session.id}:{seat}", {"at": int(now)}
                unanswered += [(TIMEOUT, key, now + gc.VOTE_SECONDS, at), (ASK, key, now + ASK_AFTER, at)]
            saved = await self.core.save_clock(
                session, banks, expected_version=session.version, jobs=unanswered
            )
            if not saved:
                return None
            return TimeOut(await self.core.reread(session_id), [session.by_seat(s) for s in out], now)

    async def _time_is_up(self, session: Session, job: Job | None, late: list[int]) -> MoveResult | None:
        """The table's move ends the round, or the computer moves once for each ``late`` seat
        (lock held)."""
        module = session.engine
        turn_before = module.turn_number(session.state)
        try:
            state, played, note = await asyncio.to_thread(
                deadline_moves, module, session.state, late, session.row.seed, session.version
            )
        except Exception as exc:
            # Nobody is waiting on an answer here: keep the damage to this one game.  Its reason is
            # read by everyone (/game status, the web page): the kind of failure only, since an
            # engine's words may name what the late seat holds; the log keeps them whole.
            reason = damage_reason(DAMAGE_REASONS[3], error=exc.__class__.__name__)
            await self.core.damage(session, reason, exc)
            return None
        if not played:
            return None
        if note is None:
            note = said_n(
                len(late),
                "⏰ Time ran out for {names}; the computer made the move.",
                "⏰ Time ran out for {names}; the computer made their moves.",
                names=seats_said(late),
            )
        try:
            version = await self.core.record(
                session,
                session.version,
                played,
                module.to_dict(state),
                job=job,
                clock=await self.core.clock_after(session, state, len(played)),
            )
        except StaleVersion:
            return None  # moved on meanwhile, or fired already (by another process)
        self.core.remember(session.id, version, state)
        session = await self.core.reread(session.id)
        result = MoveResult(session, played, note=note, turn_before=turn_before)
        await self.play.settle(session, result, searches_wait=self.core.computers_wait)
        return result

    async def window_left(self, session: Session, at: int) -> float:
        """Seconds left of the time the others have to answer the question about a time-out at
        ``at``: :data:`gameclock.VOTE_SECONDS` of the bot in service, the times it was out of
        service in the game's server left out (nobody could answer then)."""
        return gc.VOTE_SECONDS - gc.used(at, self.core.now(), await self.core.outages(session))

    async def answers_wait(self, session_id: int, job: Job) -> bool:
        """Whether the question's ``timeout`` job (the table's own answer) came before the others
        had their whole time to answer: the bot was out of service meanwhile, when no button
        worked.  It is given back, due when their time is over, the question as stored."""
        session = await self.core.get(session_id)
        if session is None:
            return False
        left = await self.window_left(session, int(job.payload.get("at", -1)))
        if left <= 0:
            return False
        await self.store.jobs.release_job(job, self.core.now() + left)
        return True

    async def finishing(self, session: Session) -> dict[int, float]:
        """The seats whose time ran out and whose person then made a step of their turn (which
        closed the question), each with the seconds left to finish it before the computer takes
        the seat (:meth:`window_left`)."""
        out = {}
        for seat, when in session.banks.pending.items():
            if await self.store.history.moved_since(session.id, seat, stamp_of(when)):
                out[seat] = max(0.0, await self.window_left(session, int(when)))
        return out

    async def question_open(self, session_id: int, seat: int, at: int) -> Session | None:
        """The game whose question about ``seat``'s time running out at ``at`` (whole seconds) is
        still open (nobody answered, the late player did not move, the game runs); else None."""
        session = await self.core.get(session_id)
        if session is None or not session.row.live:
            return None
        when = session.banks.pending.get(seat)
        if when is None or int(when) != at:
            return None
        if await self.store.history.moved_since(session.id, seat, stamp_of(when)):
            return None
        return session

    async def answer_timeout(
        self, session_id: int, seat: int, at: int, choice: str, user_id: int | None
    ) -> tuple[Session, MoveResult | None]:
        """The others' answer when ``seat`` ran out of time at ``at`` (whole seconds): ``computer``
        (it plays the seat from now on), ``more`` (the seat gets its full start again) or
        ``abandon``.  The first answer from another person in the game decides; ``user_id``
        None is the table itself after :data:`gameclock.VOTE_SECONDS` (the computer).
        Returns the session and the computer's moves when it took over (the table says what was
        decided, in each reader's language: bot.surface.clockvote)."""
        if choice not in TIMEOUT_CHOICES:
            raise Refusal(
                "the answers are {answers}, not {choice}",
                answers=", ".join(TIMEOUT_CHOICES),
                choice=echo(choice),
            )
        async with self.core.acting(user_id, game=session_id, seated=user_id is not None) as (session, voter):
            banks = session.banks
            when = banks.pending.get(seat)
            if when is None or int(when) != at:
                raise StaleMove(QUESTION_CLOSED)
            # A move by the late player closes the question to the others, even one that does not
            # end their turn (a step of it), which leaves the seat's time run out until the turn
            # ends.  The table's own answer still comes once the question's time is over if that
            # turn is unfinished: a player who makes a step and goes silent holds the game no
            # longer than one who does not come back.
            stepped = await self.store.history.moved_since(session.id, seat, stamp_of(when))
            if stepped and (user_id is not None or await self.window_left(session, at) > 0):
                raise StaleMove(QUESTION_CLOSED)
            if user_id is not None:
                refuse_computer_seat(session, voter)
                if voter.seat == seat:
                    raise Refusal("the others decide this; you can still move, which ends the question")
            try:  # stored at the version the question was judged on: the first answer decides
                decided = await self._decide(session, seat, at, choice, user_id, unfinished=stepped)
            except StaleVersion:  # answered meanwhile in another process (its job), or moved
                raise StaleMove(QUESTION_CLOSED) from None
            if decided is not None:
                return decided, None
            session = await self.core.reread(session_id)
            result = MoveResult(
                session,
                note=said(
                    "⏰ {name}'s time ran out; the computer plays that seat from now on",
                    name=seats_said([seat]),
                ),
                turn_before=session.engine.turn_number(session.state),
            )
            await self.play.settle(session, result, searches_wait=self.core.computers_wait)
            return result.session, result

    async def _decide(
        self,
        session: Session,
        seat: int,
        at: int,
        choice: str,
        user_id: int | None,
        *,
        unfinished: bool = False,
    ) -> Session | None:
        """Store the answer about ``seat`` (lock held), only if the game is still at the version it
        was judged on (else :class:`StaleVersion`, nothing written): the game after more time or
        an abandon, None after the computer took the seat (the caller plays on)."""
        spec = session.clock
        assert spec is not None  # a pending timeout needs a clock
        told = await self._question_decided(session, seat, at, choice, user_id, unfinished)
        if choice == "more":
            banks = gc.more_time(spec, session.banks, seat, self.core.now())
            if not await self.core.save_clock(session, banks, expected_version=session.version, jobs=told):
                raise StaleVersion(session.version)
            return await self.core.reread(session.id)
        if choice == "abandon":
            reason = "abandoned after a player's time ran out"
            ended = await self.seats.abandon_now(session, reason, tell=True, as_judged=True)
            kind, key, due, kept = told[0]  # (the end's commit takes no job)
            await self.store.jobs.schedule(kind, key, due, cast(JobPayload, kept))
            return ended
        taken = [replace(s, computer=True) if s.seat == seat else s for s in session.seats]
        clock = await self.core.clocked(as_changed(session, taken), gc.take(session.banks, seat), spec)
        await self.store.games.set_seats(
            session.id, {seat: (True, False)}, clock=clock, expected_version=session.version, jobs=told
        )
        return None

    async def _question_decided(
        self, session: Session, seat: int, at: int, choice: str, user_id: int | None, unfinished: bool = False
    ) -> list[tuple[str, str, float, dict[str, object]]]:
        """The question's ``timeout`` job as the answer ``choice`` about ``seat`` leaves it, armed
        again in the answer's commit, a little later, with what it keeps (the question's message):
        ``decided``, what is left is to take the question's buttons off (the table cancels it once
        they are off; its try does it should the process stop first, or Discord refuse the edit),
        and ``taken``, to tell the channel what was decided should the process stop before it does
        (the table drops the mark as soon as the channel is told): with nobody answering
        (``user_id`` None) ``unanswered`` too, and ``unfinished`` with ``unfinished`` (the late
        player had made a step of the turn), else who ``answered``, their ``choice`` and the
        ``board`` the channel showed then (a board posted since followed the answer's line)."""
        key = f"{session.id}:{seat}"
        was = await self.store.jobs.job(TIMEOUT, key)
        kept: dict[str, object] = dict(was.payload) if was is not None and was.payload.get("at") == at else {}
        kept.update(at=at, decided=True, taken=True)
        if user_id is None:  # (the question says nobody answered as it closes)
            kept.update(unanswered=True, **({"unfinished": True} if unfinished else {}))
        else:
            kept.update(answered=user_id, choice=choice, board=session.row.board_message_id or 0)
        return [(TIMEOUT, key, self.core.now() + ASK_AFTER, kept)]
