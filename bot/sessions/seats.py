"""Leaving and returning: resigning, a league's forfeit, the computer finishing a game, abandoning,
and ``/game return`` after a timeout.

Imports: bot.sessions.model, bot.sessions.core, bot.sessions.play, bot.storage, bot.time.gameclock,
engines, languages.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import replace
from typing import TypeVar

from bot.sessions.core import ANY, Core
from bot.sessions.model import STALLED, MoveResult, Refusal, Seat, Session, StaleMove, seats_said
from bot.sessions.play import Play
from bot.storage import Body, Clocked, StaleVersion
from bot.time import gameclock as gc
from engines.core import Outcome, Said, said
from languages import N_

log = logging.getLogger(__name__)

T = TypeVar("T")


def ranked_by_score(scores: Sequence[float]) -> list[tuple[int, ...]]:
    """The seats ranked by their score, best first; equal scores share a place (a game scored as
    it stands, :meth:`Seats.score_now`)."""
    return [
        tuple(s for s, v in enumerate(scores) if v == value) for value in sorted(set(scores), reverse=True)
    ]


def as_changed(session: Session, seats: list[Seat]) -> Session:
    """``session`` with its seats as a change being written makes them (its clocks' deadline
    leaves out the time away of the people who play then)."""
    return Session(row=session.row, seats=seats, info=session.info, state=session.state)


JUDGED_AGAIN = 3
"""How many times the table's own change to a seat is judged, on a fresh read each time, when
another process changes the game meanwhile."""

CHANGED_MEANWHILE = N_(
    "the game changed just as you asked (a move or a deadline stored elsewhere); nothing was changed, "
    "try again"
)
"""A player's change refused because the game changed between judging it and storing it."""


CHANNEL_GONE = "abandoned: its channel or thread was deleted"
"""The reason a game ends when its channel goes (in :data:`bot.texts.END_REASONS`, translated there)."""
SERVER_GONE = "abandoned: the bot was removed from its server"
"""The reason a game ends when the bot is removed from its server (translated there too)."""


class Seats:
    """A seat leaves a running game, comes back, or the game ends without its players."""

    def __init__(self, core: Core, play: Play):
        self.core = core
        self.store = core.store
        self.play = play

    async def resign(self, channel_id: int, user_id: int) -> MoveResult:
        """Leave a running game.  The computer takes the seat; the seat ranks last.

        When only one seat that has not resigned remains, or no person is left
        playing, the game ends at once.
        """
        async with self.core.acting(user_id, channel=channel_id) as (session, seat):
            if seat.resigned:
                raise Refusal("you have already resigned from this game")
            try:
                return await self._resign_seats(session, [seat], as_judged=True)
            except StaleVersion:  # a deadline's move stored meanwhile by another process
                raise StaleMove(CHANGED_MEANWHILE) from None

    async def _resign_seats(
        self,
        session: Session,
        leaving: Sequence[Seat],
        also: Body[object] | None = None,
        *,
        as_judged: bool = False,
    ) -> MoveResult:
        """The seats resign together (lock held): the computer takes them, or the game ends when
        too few stay.  ``also``: statements stored in the same commit (a league's record of why
        they left): never the one without the other.  ``as_judged``: the seats change only if the
        game is still at ``session``'s version (else :class:`StaleVersion`, nothing written), so
        that the clocks they carry, worked out from ``session``, never replace newer ones."""
        gone = {s.seat for s in leaving}
        assert None not in gone  # callers pass seats of a running game
        seats = [replace(s, computer=True, resigned=True) if s.seat in gone else s for s in session.seats]
        numbers = [s.seat for s in seats if s.seat in gone and s.seat is not None]
        spec, clock = session.clock, None
        if spec is not None:  # the seats' clocks stop; the deadline follows the others'
            banks = session.banks
            for n in numbers:
                banks = gc.stop(banks, n)
            clock = await self.core.clocked(as_changed(session, seats), banks, spec)
        turn_before = session.engine.turn_number(session.state)
        staying = [s for s in seats if not s.resigned]
        people = [s for s in staying if not s.computer]
        flags = dict.fromkeys(numbers, (True, True))
        if len(staying) <= 1 or not people:
            # The resignation and the game's end are one commit: a game never stays running with
            # too few left in it (nothing would end it then).
            row = session.row if clock is None else replace(session.row, clock_state=dict(clock[0]))
            after = Session(row=row, seats=seats, info=session.info, state=session.state)
            result = MoveResult(
                after, note=said("{name} resigned", name=seats_said(numbers)), turn_before=turn_before
            )
            result.ratings = await self.play.end_early(
                after, staying, said("the game ended by resignation"), seats=flags, clock=clock, also=also
            )
            result.finished = result.turn_ended = True
            result.session = await self.core.reread(session.id)
            ended = result.session.row.outcome
            result.outcome = Outcome.from_dict(ended) if ended is not None else None
            return result
        expected = session.version if as_judged else None
        row = await self.store.games.set_seats(
            session.id, flags, clock=clock, also=also, expected_version=expected
        )
        # The commit hands back the row as committed: no read is needed to tell the resignation (a
        # read that failed would tell a stored resignation as perhaps not recorded).
        session = Session(row=row, seats=seats, info=session.info, state=session.state, damaged=row.damaged)
        self.core.remember(session.id, row.version, session.state)
        self.core.keep(row, seats)
        self.core.ended(row, self.core.on_freed)  # (their seat no longer counts under the cap)
        result = MoveResult(
            session,
            note=said("{name} resigned; the computer plays that seat from now on", name=seats_said(numbers)),
            turn_before=turn_before,
        )
        await self.play.settle(session, result, searches_wait=self.core.computers_wait)
        return result

    async def forfeit_seat(
        self, session_id: int, user_id: int, also: Body[object] | None = None
    ) -> MoveResult | None:
        """A league dropped ``user_id``: their seat in this running game resigns (see resign).
        None when the game is not running or they are no longer in it (``also`` is not run
        then)."""
        return await self.forfeit_seats(session_id, [user_id], also)

    async def forfeit_seats(
        self, session_id: int, user_ids: Sequence[int], also: Body[object] | None = None
    ) -> MoveResult | None:
        """A league's forfeit: the seats of ``user_ids`` in this running game resign together, in
        one commit with ``also`` (the league's record of it).  None when the game is not running
        or none of them plays in it (``also`` is not run then)."""
        people = set(user_ids)

        async def forfeit(session: Session) -> MoveResult | None:
            leaving = [
                s for s in session.seats if s.user_id in people and s.seat is not None and not s.resigned
            ]
            return await self._resign_seats(session, leaving, also, as_judged=True) if leaving else None

        return await self._on_fresh(session_id, forfeit)

    async def _on_fresh(self, session_id: int, act: Callable[[Session], Awaitable[T | None]]) -> T | None:
        """The table's own change to a running game (a league's), ``act``, under the game's lock on
        a fresh read (None when the game is not running), and judged again on a fresh read when
        another process changed the game between the read and the commit (a deadline's move):
        it stores clocks worked out from the game as it is, never from one that moved on."""
        for attempt in range(JUDGED_AGAIN):
            async with self.core.lock(session_id):
                session = await self.core.running(session_id)
                if session is None:
                    return None
                try:
                    return await act(session)
                except StaleVersion:
                    if attempt == JUDGED_AGAIN - 1:
                        raise
        return None

    async def finish_by_computer(self, session_id: int, *, waited: bool = True) -> MoveResult | None:
        """Time is up for the whole game (a league round's deadline; ``waited`` false: nobody can
        move there any more, its thread deleted): the computer takes every person's seat and plays
        the game to its end; the result stands.  The rest of the game is the table's, not turns the
        people missed, but for the turn of each seat the game was waiting on at a deadline.  None
        when the game is not running."""
        async with self.core.lock(session_id):
            session = await self.core.running(session_id)
            if session is None:
                return None
            late = [s for s in session.seats if not s.computer and s.seat is not None]
            if late:  # every seat in one commit: never some of them the computer's and not the rest
                flags = {s.seat: (True, s.resigned) for s in late if s.seat is not None}
                waiting = set(session.to_move()) if waited else set()
                taken = {seat: seat in waiting for seat in flags}
                await self.store.games.set_seats(session.id, flags, taken=taken)
            session = await self.core.reread(session.id)
            result = MoveResult(
                session,
                note=said(
                    "⏰ The round's time is up; the computer finished the game for {names}.",
                    names=seats_said([s.seat for s in late if s.seat is not None]),
                )
                if late
                else said("⏰ The round's time is up; the computer finished the game."),
                turn_before=session.engine.turn_number(session.state),
            )
            for _ in range(5):  # each pass plays up to MAX_COMPUTER_MOVES moves
                await self.play.settle(session, result)
                if (
                    result.finished
                    or result.unsettled
                    or (result.note is not None and result.note.msg == STALLED)
                ):
                    break
                session = await self.core.reread(session.id)
            return result

    async def abandon(
        self,
        channel_id: int,
        user_id: int,
        *,
        can_manage: bool,
        organises: Callable[[int], Awaitable[bool]] | None = None,
    ) -> Session:
        """``/game abandon``: the host or someone with Manage Channels ends the game without a
        result.  A league game is not its host's to end: abandoning it scores a loss for every
        seat, so only someone with Manage Channels or whom ``organises`` (given the league's id)
        says runs its league may; a player who wants out resigns instead."""
        acting = self.core.acting(user_id, channel=channel_id, need=ANY, seated=False, damaged_ok=True)
        async with acting as (session, _):
            runs = await self.league_runs(session, can_manage, organises)
            if runs is False:
                raise Refusal(
                    "this is a league game: only its league's organiser or someone with Manage "
                    "Channels can abandon it (every player then scores a loss). To leave it, use "
                    "{/game resign} (the computer plays your seat and you rank last)"
                )
            if runs is None and user_id != session.row.host_id and not can_manage:
                raise Refusal("only the host or someone with Manage Channels can abandon this game")
            reason = "abandoned (damaged)" if session.damaged else "abandoned"
            return await self.abandon_now(session, reason, tell=True)

    async def league_runs(
        self, session: Session, can_manage: bool, organises: Callable[[int], Awaitable[bool]] | None
    ) -> bool | None:
        """None when ``session`` is no league game (its host runs it); else whether the asker
        runs it: someone with Manage Channels, or whom ``organises`` (given the league's id) says
        organises its league (a league game is not its first seat's)."""
        league = await self.store.leagues.league_game_of(session.id)
        if league is None:
            return None
        return can_manage or (organises is not None and await organises(league[0]))

    async def abandon_damaged(self, session_id: int, *, league_forfeit: bool = False) -> Session | None:
        """End a damaged game the table gives up on (a league round's deadline) without a result,
        freeing its channel (``league_forfeit``: its league game ends as one the table could not
        open, in the same commit); None when it is not a damaged game still open."""
        async with self.core.lock(session_id):
            session = await self.core.get(session_id)
            if session is None or not session.damaged or not session.row.live:
                return None
            return await self.abandon_now(session, "abandoned (damaged)", league_forfeit=league_forfeit)

    async def channel_gone(self, guild_id: int, channel_id: int) -> list[Session]:
        """A channel or thread was deleted: the lobbies and games played in it, or in a thread of
        it, end without a result (nobody can reach them any more: not to move, answer a question
        or abandon them), so their clocks, reminders and seats under the cap go with them.  A
        league game is left to its league (its round's deadline finishes it)."""
        return await self.unreachable(guild_id, CHANNEL_GONE, channel_id)

    async def server_gone(self, guild_id: int) -> list[Session]:
        """The bot was removed from server ``guild_id`` (Discord's GUILD_DELETE, no outage): it can
        no longer post there nor hear anyone, so the server's leagues are cancelled (their rounds
        could only open games nobody can reach, and score them as no-shows), with their jobs, and
        then every lobby and game of the server, league games too, ends without a result, as at a
        channel's deletion."""
        for league_id in await self.store.leagues.cancel_server(guild_id):
            log.info("league %s cancelled: the bot was removed from server %s", league_id, guild_id)
        return await self.unreachable(guild_id, SERVER_GONE, leagues=True)

    async def unreachable(
        self, guild_id: int, reason: str, channel_id: int | None = None, *, leagues: bool = False
    ) -> list[Session]:
        """End, without a result and for ``reason``, the live lobbies and games of server
        ``guild_id`` (with ``channel_id``: those played in that channel or a thread of it) that are
        not league games (with ``leagues``, league games too); the sessions ended."""
        gone = []
        for row in await self.store.games.live_sessions(guild_id):
            if channel_id is not None and channel_id not in (row.channel_id, row.lobby_channel_id):
                continue
            async with self.core.lock(row.id):
                session = await self.core.get(row.id)
                if session is None or not session.row.live:
                    continue
                if not leagues and await self.store.leagues.league_game_of(session.id) is not None:
                    continue
                gone.append(await self.abandon_now(session, reason))
        return gone

    async def abandon_now(
        self,
        session: Session,
        reason: str,
        *,
        tell: bool = False,
        league_forfeit: bool = False,
        as_judged: bool = False,
    ) -> Session:
        """End the game without a result (lock held); ``tell``: the channel is to be told (the
        table tells it again at its start if the bot stops first); ``league_forfeit``: see
        :meth:`abandon_damaged`; ``as_judged``: only if the game is still at ``session``'s version
        (else :class:`StaleVersion`, nothing written: another process changed it meanwhile)."""
        ended = await self.store.games.finish(
            session.id,
            status="abandoned",
            reason=reason,
            outcome=None,
            results=[],
            tell=tell,
            league_forfeit=league_forfeit,
            expected_version=session.version if as_judged else None,
        )
        if as_judged and not ended:
            raise StaleVersion(session.version)
        self.core.release(session.id)
        if ended:  # else it ended meanwhile in another process
            self.core.ended(session.row)
        return await self.core.reread(session.id)

    async def return_seat(self, channel_id: int, user_id: int) -> Session:
        """``/game return``: a person whose seat the computer took after a timeout takes it back,
        once; they play it again from their next turn, with the full start on their clock."""
        async with self.core.acting(user_id, channel=channel_id) as (session, seat):
            if seat.resigned:
                raise Refusal("you resigned from this game; a resignation cannot be taken back")
            banks = session.banks
            if seat.seat not in banks.taken or not seat.computer:
                raise Refusal("your seat is yours: the computer took no seat of yours in this game")
            if not gc.may_return(banks, seat.seat):
                raise Refusal("you came back once already; the computer keeps your seat now")
            assert seat.seat is not None  # a running game's seats are numbered
            spec = session.clock
            clock: Clocked
            if spec is None:  # the clock was turned off since: the seat comes back without one
                banks = replace(banks, taken={**banks.taken, seat.seat: True})
                clock = banks.to_dict(), None
            else:
                banks = gc.give_back(spec, banks, seat.seat, session.to_move(), self.core.now())
                back = [replace(s, computer=False) if s.seat == seat.seat else s for s in session.seats]
                clock = await self.core.clocked(as_changed(session, back), banks, spec)
            # The seat and its clock in one commit: never the person's seat with the clock of a
            # seat the computer plays, or the other way round.
            try:
                await self.store.games.set_seats(
                    session.id, {seat.seat: (False, False)}, clock=clock, expected_version=session.version
                )
            except StaleVersion:  # changed meanwhile by another process: these clocks are stale
                raise StaleMove(CHANGED_MEANWHILE) from None
            return await self.core.reread(session.id)

    # ----------------------------------------------------------------- a league's no-shows

    async def computer_takes(
        self, session_id: int, user_ids: Iterable[int], note: Said, also: Body[object] | None = None
    ) -> MoveResult | None:
        """A league's deadline came (or its organiser decided): the computer takes these people's
        seats (they are not resigned: their result counts as theirs) and plays on; ``also`` (the
        league's record of it) in the same commit.  None when the game is not running or none of
        them plays a seat of it now (``also`` is not run then)."""
        people = set(user_ids)

        async def take(session: Session) -> MoveResult | None:
            seats = [
                s for s in session.seats if s.user_id in people and s.seat is not None and not s.computer
            ]
            if not seats:
                return None
            flags = {s.seat: (True, s.resigned) for s in seats if s.seat is not None}
            spec, clock = session.clock, None
            if spec is not None:  # their clocks stop, in the same commit as the seats change hands
                banks = session.banks
                for taken in flags:
                    banks = gc.stop(banks, taken)
                after = [replace(s, computer=True) if s.seat in flags else s for s in session.seats]
                clock = await self.core.clocked(as_changed(session, after), banks, spec)
            await self.store.games.set_seats(
                session.id, flags, clock=clock, also=also, expected_version=session.version
            )
            session = await self.core.reread(session.id)
            result = MoveResult(session, note=note, turn_before=session.engine.turn_number(session.state))
            await self.play.settle(session, result, searches_wait=self.core.computers_wait)
            return result

        return await self._on_fresh(session_id, take)

    async def score_now(
        self, session_id: int, why: Said, also: Body[object] | None = None
    ) -> MoveResult | None:
        """End a running game now, ranked by each seat's score as it stands (equal scores share a
        place), with ``also`` (the league's record of why) in the same commit; None when the game
        is not running (``also`` is not run then)."""
        async with self.core.lock(session_id):
            session = await self.core.running(session_id)
            if session is None:
                return None
            scores = tuple(float(x) for x in session.engine.scores_now(session.state))
            outcome = Outcome.told(scores, ranked_by_score(scores), why)
            turn_before = session.engine.turn_number(session.state)
            result = MoveResult(session, note=why, turn_before=turn_before)
            result.ratings = await self.play.finish(session, outcome, reason=outcome.reason, also=also)
            result.finished = result.turn_ended = True
            result.session = await self.core.reread(session.id)
            result.outcome = outcome
            return result

    async def hand_over(
        self,
        session_id: int,
        seat: int,
        to: int,
        change: Callable[[Clocked | None, int], Awaitable[bool]],
    ) -> Session | None:
        """Give a seat of a running game to the person ``to``: ``change`` stores it, with the
        game's running clocks and next deadline it is given (None: the game has no clock) in the
        same transaction, only at the version they were worked out at (given too: else
        :class:`StaleVersion`, and the handover is judged again on a fresh read), and says whether
        it could.  They play on from the position, with a full start on the seat's clock when the
        game has one.  None when the game is not running or ``change`` refused."""

        async def give(session: Session) -> Session | None:
            spec, clock = session.clock, None
            if spec is not None:
                banks = gc.give_back(spec, session.banks, seat, session.to_move(), self.core.now())
                banks = replace(banks, taken={k: v for k, v in banks.taken.items() if k != seat})
                theirs = [
                    replace(s, user_id=to, computer=False, resigned=False) if s.seat == seat else s
                    for s in session.seats
                ]
                clock = await self.core.clocked(as_changed(session, theirs), banks, spec)
            if not await change(clock, session.version):
                return None
            return await self.core.reread(session_id)

        return await self._on_fresh(session_id, give)
