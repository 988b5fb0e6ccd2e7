"""The sessions' shared core: the copies of running games, the locks, loading, damage, the
clocks' bookkeeping, and :meth:`Core.acting`, the one way to act on a game.

A move starts from the copy of its game the core holds (the row and seats as last read together
or handed back by a commit, with the engine state), not from a read: every change to a
session's row or seats that a move depends on bumps the version (seats, the start, the timer,
the clock, damage, the end), so a copy another process left behind is refused at the commit,
and the move is then judged again on a fresh read.

A session whose saved state cannot be read, or whose engine fails in a move the table makes by
itself (a deadline), is marked damaged once (logged once, stored) and skipped from then on.
The copies are dropped when a game ends, and a lock lives only while someone holds or waits for
it, so memory does not grow with games played.

Imports: bot.locks, bot.sessions.model, bot.storage, bot.time, bot.computers, bot.web.metrics, engines.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager

import engines
from bot.computers import Computers
from bot.locks import KeyedLocks
from bot.sessions.model import (
    DAMAGE_REASONS,
    NOT_SEATED,
    Damaged,
    NoGameHere,
    NotSeated,
    Played,
    Refusal,
    Seat,
    Session,
    StaleMove,
    damage_reason,
    damaged_text,
    new_game_hint,
    stored,
)
from bot.storage import Clocked, Job, SeatRow, SessionRow, Store
from bot.time import gameclock as gc
from bot.web.metrics import Metrics, played_by
from engines.core import Said, said_n

log = logging.getLogger(__name__)

LOBBY, RUNNING, ANY = "lobby", "active", "any"
"""What :meth:`Core.acting` needs of a game: a lobby, a running game, or either."""

NOBODY = Seat(-1, None, None, "", False, False)
"""The seat :meth:`Core.acting` hands back when the asker need not be seated."""


class Core:
    """What every session service shares: the store, the copies of running games, the locks."""

    def __init__(
        self,
        store: Store,
        *,
        computer_seconds: float | None = None,
        computers: Computers | None = None,
        metrics: Metrics | None = None,
    ):
        self.store = store
        self.metrics = metrics if metrics is not None else Metrics()  # what the table counts
        self.computer_seconds = computer_seconds  # the strong level's thinking time per move
        # where computer players think (without one: in this process, the strong level by count)
        self.computers = computers if computers is not None else Computers(0)
        # after a person's move, searching computers wait for the move's post (the table sets
        # this and plays them with Play.computers_play; callers that do not keep the old way)
        self.computers_wait = False
        self.new_seed: Callable[[], int] = lambda: secrets.randbits(48)  # tests set a fixed seed here
        # Told of every game or lobby that ended (finished, resigned, abandoned, a lobby closed),
        # once it is stored, lock still held: each must only note it and return (the queue
        # schedules a matching of its own, since a game ended frees a seat under the cap).
        self.on_end: list[Callable[[SessionRow], None]] = []
        # Told, the same way, of a seat given up in a game that goes on or a lobby that stays open
        # (a resignation, a leave): it no longer counts under the cap on running games either.
        self.on_freed: list[Callable[[SessionRow], None]] = []
        # Asked, lock held, before a lobby starts (its start button, /game start): each answers
        # why it may not start yet, or None (the queue: a table still waiting for confirmations).
        self.start_checks: list[Callable[[Session], Awaitable[Said | None]]] = []
        # A lock exists while someone holds or waits for it; the states hold live games only.
        self.lock: KeyedLocks[int] = KeyedLocks()  # a game's changes, one at a time in the process
        self.states: dict[int, tuple[int, object]] = {}  # session id -> (version, engine state)
        # A running game's row and seats as last read or committed here (with the state above at
        # the same version, the copy a move starts from), and each such game's channel.
        self.copies: dict[int, tuple[SessionRow, list[Seat]]] = {}
        self.channels: dict[int, int] = {}  # channel id -> the id of its game in copies

    @asynccontextmanager
    async def acting(
        self,
        user_id: int | None,
        *,
        channel: int | None = None,
        game: int | None = None,
        need: str = RUNNING,
        seated: bool = True,
        damaged_ok: bool = False,
    ) -> AsyncIterator[tuple[Session, Seat]]:
        """Act on a game: find it (by ``channel`` or by ``game`` id), lock it, read it again under
        the lock, and check it (it is there, it is a lobby or running as ``need`` says, it is not
        damaged unless ``damaged_ok``) and the asker's seat (unless not ``seated``: then the seat
        is :data:`NOBODY`).  Each condition has one refusal."""
        if game is None and channel is None:
            raise ValueError("acting needs a channel or a game")
        for _ in range(3):
            if game is None:
                game = (await self.require(channel or 0, damaged_ok=damaged_ok)).id
            async with self.lock(game):
                session = await (self.in_channel(channel) if channel is not None else self.get(game))
                if session is not None and session.id != game:
                    game = session.id  # the channel's game changed before the lock: lock that one
                    continue
                if session is None:
                    raise NoGameHere("there is no game in this channel; {hint}", hint=new_game_hint())
                if session.damaged and not damaged_ok:
                    raise Damaged(damaged_text(session))
                if need != ANY and session.status != need:
                    if session.status == LOBBY:
                        raise Refusal("this game has not started yet")
                    if session.status == RUNNING:
                        raise Refusal("this game has already started")
                    raise Refusal("this game is over")
                seat = NOBODY if user_id is None else session.seat_of(user_id)
                if seated and (seat is None or (need == RUNNING and seat.seat is None)):
                    raise NotSeated(NOT_SEATED)
                yield session, seat or NOBODY
                return
        raise StaleMove("another game was just opened here; try again")

    async def running(self, session_id: int) -> Session | None:
        """The game if it is running and not damaged (for the table's own acts, which refuse
        nobody: a deadline, a forfeit, the computers' turns), else None."""
        session = await self.get(session_id)
        return session if session is not None and session.status == RUNNING and not session.damaged else None

    def game_in(self, channel_id: int) -> int | None:
        """The id of the running game this process last saw in ``channel_id`` (None: none)."""
        return self.channels.get(channel_id)

    def remember(self, session_id: int, version: int, state: object) -> None:
        """Keep ``state`` as the game's engine state at ``version`` (after a commit)."""
        self.states[session_id] = (version, state)

    async def record(
        self,
        session: Session,
        expected_version: int,
        played: Sequence[Played],
        state: dict[str, object],
        *,
        job: Job | None = None,
        clock: Clocked | None = None,
    ) -> int:
        """Commit ``played`` (see :meth:`Store.record_moves`, which consumes the claimed ``job``
        and stores the running ``clock``) and count the moves; the new version."""
        version = await self.store.games.record_moves(
            session.id, expected_version, [stored(p) for p in played], state, job=job, clock=clock
        )
        self.metrics.moves_committed(session.row.game, [played_by(p.seat, p.by_computer) for p in played])
        return version

    def ended(self, row: SessionRow, listeners: list[Callable[[SessionRow], None]] | None = None) -> None:
        """A game or lobby ended and is stored so: tell :attr:`on_end` (a listener's error is
        logged, never the ending's).  With ``listeners`` (:attr:`on_freed`): a seat in it was
        given up, and they are told the same way."""
        for listener in self.on_end if listeners is None else listeners:
            try:
                listener(row)
            except Exception:
                log.exception("a listener of game %s's end failed", row.id)

    def release(self, session_id: int) -> None:
        """Forget a game that ended: its cached state goes (its lock goes once nobody holds it)."""
        self.states.pop(session_id, None)
        copy = self.copies.pop(session_id, None)
        if copy is not None and self.channels.get(copy[0].channel_id) == session_id:
            del self.channels[copy[0].channel_id]

    def keep(self, row: SessionRow, seats: list[Seat]) -> None:
        """Keep a running game's row and seats, read together or just committed, as the copy its
        next move starts from (an older copy never replaces a newer one)."""
        held = self.copies.get(row.id)
        if held is None or held[0].version <= row.version:
            self.copies[row.id] = (row, seats)
            self.channels[row.channel_id] = row.id

    def copy(self, session_id: int) -> Session | None:
        """The game as this process last saw it, or None: the copy a move may start from without
        reading.  It may be stale (another process moved, or changed the game): every change to
        a session's row or seats that a move depends on bumps its version, so the move's commit
        refuses a stale copy, and the move is then judged again on a fresh read."""
        copy, state = self.copies.get(session_id), self.states.get(session_id)
        if copy is None or state is None or state[0] != copy[0].version:
            return None
        row, seats = copy
        try:
            info = engines.get(row.game)
        except KeyError:
            return None
        return Session(row=row, seats=seats, info=info, state=state[1])

    async def load(self, row: SessionRow, seat_rows: list[SeatRow] | None = None) -> Session:
        from_one_read = seat_rows is not None  # the row and its seats as of one version
        if seat_rows is None:
            seat_rows = await self.store.games.seats(row.id)
        seats = [
            Seat(s.join_order, s.seat, s.user_id, s.display_name, s.is_computer, s.resigned, s.level)
            for s in seat_rows
        ]
        try:
            info = engines.get(row.game)
        except KeyError:
            info = engines.GameInfo(row.game, row.game, "", None, 1, 1)
            session = Session(row=row, seats=seats, info=info)
            await self.damage(session, damage_reason(DAMAGE_REASONS[0], game=repr(row.game)))
            return session
        session = Session(row=row, seats=seats, info=info, damaged=row.damaged)
        if session.damaged:
            self.release(row.id)
            session.league = await self.store.leagues.league_game_of(row.id) is not None
            return session
        if row.unreadable:
            await self.damage(session, row.unreadable)
            return session
        if row.state is not None:
            cached = self.states.get(row.id)
            if cached and cached[0] == row.version:
                session.state = cached[1]
            else:
                try:
                    session.state = info.load().from_dict(row.state)
                except Exception as exc:
                    await self.damage(
                        session, damage_reason(DAMAGE_REASONS[1], error=exc.__class__.__name__), exc
                    )
                    return session
                if row.live:
                    self.states[row.id] = (row.version, session.state)
            if from_one_read and row.status == "active":
                self.keep(row, seats)
        if not row.live:
            self.release(row.id)
        return session

    async def damage(self, session: Session, reason: str, exc: BaseException | None = None) -> None:
        """Mark ``session`` damaged: stored, logged once (with the traceback when there is one)."""
        session.damaged = reason
        session.state = None
        session.league = await self.store.leagues.league_game_of(session.id) is not None
        self.release(session.id)
        if await self.store.games.mark_damaged(session.id, reason):
            log.error(
                "session %s (%s in channel %s) is damaged: %s; the table skips it until it is abandoned",
                session.id,
                session.row.game,
                session.row.channel_id,
                reason,
                exc_info=(type(exc), exc, exc.__traceback__) if exc is not None else None,
            )

    async def get(self, session_id: int) -> Session | None:
        found = await self.store.games.load(session_id=session_id)
        return await self.load(*found) if found else None

    async def reread(self, session_id: int) -> Session:
        """A session read again after a change to it (it is never deleted, so it is there)."""
        session = await self.get(session_id)
        if session is None:
            raise NoGameHere("game {number} is gone from the database", number=session_id)
        return session

    async def in_channel(self, channel_id: int) -> Session | None:
        found = await self.store.games.load(channel_id=channel_id)
        return await self.load(*found) if found else None

    async def require(self, channel_id: int, *, damaged_ok: bool = False) -> Session:
        session = await self.in_channel(channel_id)
        if session is None:
            raise await self.no_game(channel_id)
        if session.damaged and not damaged_ok:
            raise Damaged(damaged_text(session))
        return session

    async def no_game(self, channel_id: int) -> NoGameHere:
        """The refusal for a channel with no live game: the threads where the games opened here
        are played are named (a player typing in the lobby message's channel is sent there), else
        the game that ended here (a move typed in a finished game's thread is told it is over)."""
        threads = await self.store.games.live_in_threads_of(channel_id)
        if threads:  # a player typing in the channel of the lobby message, not in the game's thread
            return NoGameHere(
                said_n(
                    len(threads),
                    "no game is played in this channel itself: the game opened here is played in its "
                    "thread, {threads}; use the commands there",
                    "no game is played in this channel itself: the games opened here are played in their "
                    "threads, {threads}; use the commands there",
                    threads=", ".join(f"<#{t.channel_id}>" for t in threads),
                )
            )
        row = await self.store.games.last_session(channel_id)
        if row is None:
            return NoGameHere("there is no game in this channel; {hint}", hint=new_game_hint())
        info = engines.GAMES.get(row.game)
        return NoGameHere(
            "the {game} game #{number} here is over ({/game status} shows how it ended); to play again, {hint}",
            game=info.title if info is not None else row.game,
            number=row.id,
            hint=new_game_hint(),
        )

    async def latest(self, channel_id: int) -> Session:
        """The channel's game for /game status, log and board: the live one, else the last
        that ended here (until a new game opens in the channel)."""
        row = await self.store.games.last_session(channel_id)
        if row is None:
            raise await self.no_game(channel_id)
        return await self.load(row)

    async def live(self, guild_id: int | None) -> list[Session]:
        """The server's lobbies and games (damaged ones included, marked); a server id is required."""
        if guild_id is None:
            raise Refusal("games are listed per server; use this command in a server")
        return [await self.load(r) for r in await self.store.games.live_sessions(guild_id)]

    async def sessions_of(self, user_id: int) -> list[Session]:
        """Every lobby and game, in every server, where the person sits (not resigned)."""
        return [await self.load(row, seats) for row, seats in await self.store.games.sessions_of(user_id)]

    def now(self) -> float:
        return self.store.clock.time()

    @staticmethod
    def check_clock(text: str | None) -> gc.ClockSpec | None:
        """A clock spec from a player (None or ``off``: none); refused in words that say what is allowed."""
        if text is None:
            return None
        try:
            return gc.parse_clock_or_off(text)
        except gc.ClockError as exc:
            raise Refusal(exc.said) from None

    async def away_of(self, session: Session) -> Callable[[int], gc.Away]:
        """Each seat's times away (periods when its clock does not run), from the history of the
        people's times away (an earlier one within a running turn counts as the latest does), and
        the times the bot was out of service in the game's server (nobody could move then)."""
        users = {
            s.seat: s.user_id for s in session.seats if s.seat is not None and s.user_id and not s.computer
        }
        history = await self.store.people.away_periods(users.values())
        down = await self.outages(session)
        periods = {seat: gc.joined(history.get(user, []), down) for seat, user in users.items()}
        return lambda seat: periods.get(seat, [])

    async def outages(self, session: Session) -> list[tuple[float, float]]:
        """The times the bot was out of service in the game's server (:mod:`bot.storage.outages`),
        those that overlap made one (each second left out once)."""
        return gc.joined(await self.store.outages.of_guild(session.row.guild_id))

    def timer(
        self, session: Session, spec: gc.ClockSpec, banks: gc.Banks, away: Callable[[int], gc.Away]
    ) -> float | None:
        """Seconds from now to the next deadline: when the first running clock runs out (a round
        the table ends by itself: not before :data:`gameclock.ROUND_FLOOR`)."""
        now = self.now()
        rounds = bool(getattr(session.engine, "TABLE_MOVES", False))
        due = gc.deadline(spec, banks, now, away, last=rounds)
        if due is None:
            return None
        if rounds:
            due = gc.round_deadline(due, now)
        return due - now

    async def clock_after(
        self, session: Session, new_state: object, added: int, *, undo_of: int | None = None
    ) -> Clocked | None:
        """The clocks once the game goes from ``session.state`` to ``new_state`` now, by ``added``
        moves committed with them (None: no clock).  What each clock gets back is noted under the
        last of those moves, so that an undo of them takes it back: with ``undo_of``, the change
        is an undo (its entry the one move added) taking back the moves from that number on, and
        no clock gets back the time it ran, while what those moves gave back (an increment, a
        per-move clock's fresh turn) goes with them."""
        spec = session.clock
        if spec is None or session.state is None:
            return None
        module = session.engine
        away = await self.away_of(session)
        people = [s.seat for s in session.seats if s.seat is not None and not s.computer]
        after = set() if module.outcome(new_state) is not None else set(module.to_move(new_state))
        before = set(module.to_move(session.state))
        now, banks = self.now(), session.banks
        moves = banks.moves  # the moves the log holds, as the clocks counted them
        if moves is None or undo_of is not None:
            # As the log says: for clocks that did not count them (stored before they did, or just
            # set), and for an undo, which trusts the notes only of clocks that counted the same.
            moves = await self.store.history.move_count(session.id)
        if undo_of is not None:
            banks = gc.take_back(spec, banks, undo_of, after, now, away, people, logged=moves)
        elif spec.kind == gc.TIMER or module.turn_number(new_state) != module.turn_number(session.state):
            # A new turn (or round), or any move under a turn timer: every clock that ran stops
            # and is paid for, then those to move start afresh, even a seat to move in both.
            banks = gc.advance(spec, banks, before, set(), now, away, people, moves=moves + added)
            banks = gc.advance(spec, banks, set(), after, now, away, people, moves=moves + added)
        else:
            banks = gc.advance(spec, banks, before, after, now, away, people, moves=moves + added)
        return banks.to_dict(), self.timer(session, spec, banks, away)

    async def clock_at_start(self, session: Session) -> Clocked | None:
        """The clocks of a game starting now (``session`` as it starts: seats numbered, its first
        state), and the delay to its first deadline; None for a game without a clock."""
        spec = session.clock
        if spec is None or session.state is None:
            return None
        people = [s.seat for s in session.seats if not s.computer and s.seat is not None]
        to_move = set(session.engine.to_move(session.state)) & set(people)
        banks = gc.begin(spec, people, to_move, self.now(), moves=0)  # nothing played yet
        return banks.to_dict(), self.timer(session, spec, banks, await self.away_of(session))

    async def save_clock(
        self,
        session: Session,
        banks: gc.Banks,
        *,
        spec: gc.ClockSpec | None = None,
        expected_version: int | None = None,
        jobs: Sequence[tuple[str, str, float, dict[str, object]]] = (),
    ) -> bool:
        """Store the running clocks (and ``spec``, when it changes) and re-arm the deadline (and
        ``jobs``, in the same transaction)."""
        spec = spec or session.clock
        if spec is None:
            return await self.store.games.set_clock(
                session.id, None, None, None, expected_version=expected_version
            )
        _, timer = await self.clocked(session, banks, spec)
        return await self.store.games.set_clock(
            session.id, spec.text, banks.to_dict(), timer, expected_version=expected_version, jobs=jobs
        )

    async def clocked(self, session: Session, banks: gc.Banks, spec: gc.ClockSpec) -> Clocked:
        """The running clocks ``banks`` and the delay to the next deadline of ``session`` as it is
        once a change is stored (its seats as they become), for a store write that changes the
        seats and the clocks in one transaction."""
        timer = self.timer(session, spec, banks, await self.away_of(session)) if session.state else spec.start
        return banks.to_dict(), timer
