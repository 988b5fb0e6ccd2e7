"""The session service: lobbies, seats, moves, resignations and results.

No Discord here: callers pass user ids and display names, and get back plain
records and :class:`TableError` refusals whose messages a player can read.
One ``asyncio.Lock`` per session serialises changes in the process; the
session's version number, checked again inside the storage transaction,
turns a stale button or a race (in this process or another sharing the
database) into :class:`StaleMove`.  Every accepted move is committed (log row
with its events and privacy mark, snapshot, version) before the caller hears
of it.  Computer players and the table's moves when a turn timer runs out are
computed in a worker thread, off the event loop.

A move starts from the copy of its game the service holds (the row and seats
as last read together or handed back by a commit, with the engine state), not
from a read: every change to a session's row or seats that a move depends on
bumps the version (seats, the start, the timer, the clock, damage, the end), so
a copy another process left behind is refused at the commit, and the move is
then judged again on a fresh read.

A session whose saved state cannot be read, or whose engine fails in a move
the table makes by itself (a deadline), is marked damaged once (logged once,
stored) and skipped from then on; every other game keeps being served.  The
per-session cache is dropped when a game ends, and a lock lives only while
someone holds or waits for it, so memory does not grow with games played.
"""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import engines
from bot import ratings
from bot.computers import IN_PROCESS, ComputerFailed, Computers, fallback_move
from bot.records import MoveRecord
from bot.replaying import walk
from bot.storage import (
    ChannelBusy,
    Conflict,
    Job,
    MoveRow,
    NewMove,
    RatingRow,
    ResultRow,
    SeatRow,
    SessionRow,
    StaleVersion,
    Store,
)
from bot.time import gameclock as gc
from bot.time import pace
from bot.web.metrics import Metrics
from engines.core import (
    DEFAULT_LEVEL,
    LEVELS,
    N_,
    TABLE,
    Engine,
    Event,
    MoveError,
    NotYourTurn,
    Outcome,
    Privacy,
    Said,
    SetupError,
    Translates,
    config_from_options,
    name_seats,
    options_of,
    rng_for,
    said,
    said_n,
)
from languages import ENGLISH, Language

log = logging.getLogger(__name__)

MAX_COMPUTER_MOVES = 2000
STALLED = N_("the computer player could not move; the game waits (ask an admin to check the log)")
"""Computer moves played in a row before the table stops and asks for help."""

MAX_TIMER_HOURS = 720
"""The longest turn timer, in hours (30 days)."""


class TableError(Exception):
    """A refusal from the table, in words a player can read.

    ``TableError("there is no game #{number} here", number=5)`` keeps the English message (its
    message id, named placeholders) and its values as a :class:`~engines.core.Said`, or takes one
    (``TableError(said_n(n, "{n} seat", "{n} seats"))`` for a count): ``str()`` is the English
    sentence, and :meth:`in_words` the refusal in the reader's language.  A text built by the code
    (another error's words) has no values and reads as it is."""

    def __init__(self, message: object = "", /, **values: Any) -> None:
        self.said = message if isinstance(message, Said) else Said(str(message), values)
        super().__init__(self.said.in_words())

    def in_words(self, t: Language) -> str:
        """The refusal in ``t``."""
        return self.said.in_words(t)


def named(exc: MoveError, names: Sequence[str]) -> MoveError:
    """The engine's refusal ``exc`` with the players' names put in: ``str()`` in English, and
    :func:`refusal` in a reader's language (the sentence kept for translation is kept)."""
    out = type(exc)(exc.said)
    out.args = (name_seats(str(exc), names),)
    out.names = tuple(names)  # type: ignore[attr-defined]  # the table adds the names to the engine's error
    return out


def refusal(exc: BaseException, t: Language) -> str:
    """A refusal in ``t``: the table's (:class:`TableError`), or the engine's kept sentence with
    the players' names put in (see :func:`named`)."""
    if isinstance(exc, TableError):
        return exc.in_words(t)
    if isinstance(exc, MoveError):
        return name_seats(exc.said.in_words(t), getattr(exc, "names", None))
    return str(exc)


class NoGameHere(TableError):
    pass


class NotSeated(TableError):
    pass


class StaleMove(TableError):
    """The board changed between reading it and acting on it."""


class Damaged(TableError):
    """The session is marked damaged; only abandoning it is possible."""


class _EndedHere(Exception):
    """The game a channel's move was sent to is no longer running there (see SessionService.play)."""


@dataclass(frozen=True)
class Seat:
    join_order: int
    seat: int | None
    user_id: int | None
    name: str
    computer: bool
    resigned: bool
    level: str | None = None  # chosen when seated as a computer; None: a person, or taken over

    @property
    def computer_level(self) -> str:
        """The level the computer plays this seat at (a seat taken over from a person: normal)."""
        return self.level or DEFAULT_LEVEL

    @property
    def tag(self) -> str:
        """What follows the seat's name in lists: `` (computer, strong)`` for a computer seat."""
        return f" (computer, {self.computer_level})" if self.computer else ""

    @property
    def mention(self) -> str:
        return f"<@{self.user_id}>" if self.user_id and not self.computer else self.name


@dataclass
class Session:
    """A session as the table sees it: the stored row plus the live engine state."""

    row: SessionRow
    seats: list[Seat]
    info: engines.GameInfo
    state: Any = None
    damaged: str | None = None  # why the table cannot run this game (see SessionService)

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def engine(self) -> Engine:
        return self.info.load()

    @property
    def version(self) -> int:
        return self.row.version

    @property
    def status(self) -> str:
        return self.row.status

    def names(self) -> list[str]:
        seated = [(s.seat, s) for s in self.seats if s.seat is not None]
        ordered = [s for _, s in sorted(seated, key=lambda pair: pair[0])]
        if ordered:
            return [s.name for s in ordered]
        return [s.name for s in self.seats]

    def seat_of(self, user_id: int) -> Seat | None:
        """The seat ``user_id`` took, resigned or not: for acting on it (a move, an undo, a vote),
        which says why a seat the computer plays is refused.  To read, ask :meth:`reader_of`."""
        return next((s for s in self.seats if s.user_id == user_id), None)

    def reader_of(self, user_id: int) -> int | None:
        """The seat whose private side ``user_id`` may read (its hand, its secret lines, its
        view), or ``None``: they read the game as a spectator.  Someone who resigned reads as a
        spectator: the computer plays that seat now, and what it holds is no longer theirs.  A
        seat the computer took over when its player's time ran out stays theirs to read (they may
        take it back with ``/game return``, and its result counts as theirs)."""
        seat = self.seat_of(user_id)
        if seat is None or seat.seat is None or seat.resigned:
            return None
        return seat.seat

    def by_seat(self, seat: int) -> Seat:
        return next(s for s in self.seats if s.seat == seat)

    def to_move(self) -> set[int]:
        if self.status != "active" or self.state is None or self.damaged:
            return set()
        return set(self.engine.to_move(self.state))

    @property
    def clock(self) -> gc.ClockSpec | None:
        """The game clock (None: none, or only the older turn timer)."""
        if not self.row.clock:
            return None
        try:
            return gc.parse_clock(self.row.clock)
        except gc.ClockError:
            return None

    @property
    def banks(self) -> gc.Banks:
        """The running clocks (empty before the game starts or without a clock)."""
        return gc.Banks.from_dict(self.row.clock_state)

    def waiting_on(self) -> list[Seat]:
        return [self.by_seat(s) for s in sorted(self.to_move())]


Played = MoveRecord
"""What one accepted move did: who, what, its privacy mark and the events it caused."""


def apply(module: Engine, state: Any, seat: int, move: Any, *, by_computer: bool) -> tuple[Any, Played]:
    """Apply ``move`` and record it with its privacy mark, computed from the state before it."""
    privacy = module.move_privacy(state, seat, move)
    new_state, events = module.apply_move(state, seat, move)
    return new_state, Played(seat, str(move), by_computer, tuple(events), privacy)


def stored(played: Played) -> NewMove:
    """A played move as the log stores it."""
    return NewMove(
        played.seat,
        played.move,
        played.by_computer,
        [e.to_dict() for e in played.events or ()],
        None if played.privacy is None else played.privacy.to_dict(),
    )


def record_of(row: MoveRow) -> MoveRecord:
    """A log row as a record (events and mark ``None`` on rows from before they were stored)."""
    try:
        events = None if row.events is None else tuple(Event.from_dict(e) for e in row.events)
        privacy = None if row.privacy is None else Privacy.from_dict(row.privacy)
    except (KeyError, TypeError, ValueError):
        events, privacy = None, None
    return MoveRecord(row.seat, row.move, row.by_computer, events, privacy, row.number)


@dataclass(frozen=True)
class RatingChange:
    """A person's shown rating before and after a finished game (see :mod:`bot.ratings`)."""

    user_id: int
    name: str
    before: float
    after: float


@dataclass
class MoveResult:
    """What a change did.  ``turn_ended``: a turn (or a simultaneous round) ended, or the
    game did, so the channel gets the board; steps inside a turn are told to their player."""

    session: Session
    played: list[Played] = field(default_factory=list)
    finished: bool = False
    outcome: Outcome | None = None
    note: Said | None = None  # a line from the table itself (a resignation, a stalled computer)
    turn_before: int | None = None  # the engine's turn_number before these moves
    turn_ended: bool = False
    ratings: list[RatingChange] = field(default_factory=list)
    computers_next: bool = False  # a searching computer is to move next (SessionService.computers_play)


TIMEOUT_CHOICES = ("computer", "more", "abandon")
"""The answers when someone's time runs out (see SessionService.answer_timeout)."""


@dataclass
class TimeOut:
    """Seats whose time ran out at ``at``; the others are asked what to do (see answer_timeout)."""

    session: Session
    seats: list[Seat]
    at: float


def damaged_text(session: Session) -> Said:
    return said(
        "this {game} game is damaged ({problem}); the host or someone with Manage Channels can "
        "/game abandon it to free the channel",
        game=session.info.title,
        problem=session.damaged,
    )


def _place_of(row: RatingRow) -> int:
    if row.place is None:
        raise ValueError(f"the rating of user {row.user_id} is to change without a place in the game")
    return row.place


def rerate(current: list[RatingRow], changes: list[RatingChange] | None = None) -> list[RatingRow]:
    """New ratings for the people of a finished game (none with fewer than two people).

    ``changes``, when given, collects each person's shown rating before and after.
    """
    if len(current) < 2:
        return []
    standings = [
        ratings.Standing(
            r.user_id,
            r.name,
            _place_of(r),
            r.mu if r.mu is not None else ratings.START_MU,
            r.sigma if r.sigma is not None else ratings.START_SIGMA,
        )
        for r in current
    ]
    rated = ratings.rate(standings)
    new = [
        RatingRow(n.user_id, n.name, n.mu, n.sigma, c.games + 1, c.wins + int(n.won))
        for n, c in zip(rated, current, strict=True)
    ]
    if changes is not None:
        for before, after in zip(standings, rated, strict=True):
            changes.append(
                RatingChange(
                    after.user_id,
                    after.name,
                    ratings.shown(before.mu, before.sigma),
                    ratings.shown(after.mu, after.sigma),
                )
            )
    return new


class NewGameHint(Said):
    """How to open a game here, naming the real commands in the reader's language (each command
    is written in that language, so the list is made when the hint is put in words)."""

    def in_words(self, language: Translates | None = None) -> str:
        t = language or ENGLISH
        commands = [t.gettext("/{game} new", game=name) for name in sorted(engines.available())]
        if len(commands) == 1:
            return t.gettext("start one with {command}", command=commands[0])
        return t.gettext(
            "start one with {commands} or {last}", commands=", ".join(commands[:-1]), last=commands[-1]
        )


def new_game_hint() -> Said:
    """How to open a game here, naming the real commands."""
    return NewGameHint("start one with /<game> new")


def deadline_moves(
    module: Engine, state: Any, late: list[int], seed: int, version: int
) -> tuple[Any, list[Played], Said | None]:
    """What the table plays when a turn timer runs out (pure: run in a worker thread).

    The game's first table move when it has them (with the note to show), else a
    computer move for each late seat still to act, at the ``normal`` level (the
    level of every seat the table plays for a person).  Engine errors propagate.
    """
    played: list[Played] = []
    table_moves = list(module.legal_moves(state, TABLE)) if getattr(module, "TABLE_MOVES", False) else []
    if table_moves:
        state, move = apply(module, state, TABLE, table_moves[0], by_computer=False)
        return state, [move], said("⏰ Time is up.")
    for seat in late:
        if seat not in module.to_move(state):
            continue
        legal = list(module.legal_moves(state, seat))
        if not legal:
            continue
        rng = rng_for(seed, "deadline", version, seat)
        chosen = module.computer_move(module.view_for(state, seat), legal, rng, DEFAULT_LEVEL)
        state, move = apply(module, state, seat, chosen, by_computer=True)
        played.append(move)
    return state, played, None


def refuse_computer_seat(session: Session, seat: Seat) -> None:
    """Refuse a move (or an undo) from a person whose seat the computer plays, saying why:
    they resigned, or their time ran out (and whether ``/game return`` can still take it back)."""
    if not seat.computer:
        return
    if seat.resigned:
        raise TableError("you resigned from this game; the computer plays your seat now")
    if seat.seat is not None and gc.may_return(session.banks, seat.seat):
        raise TableError(
            "your time ran out and the computer plays your seat now; /game return takes it back (once)"
        )
    raise TableError("the computer plays your seat in this game now (you resigned or ran out of time)")


class SessionService:
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
        self.metrics = metrics if metrics is not None else Metrics()  # what the table counts
        self.computer_seconds = computer_seconds  # the strong level's thinking time per move
        # where computer players think (without one: in this process, the strong level by count)
        self.computers = computers if computers is not None else Computers(0)
        # after a person's move, searching computers wait for the move's post (the table sets
        # this and plays them with computers_play; callers that do not keep the old way)
        self.computers_wait = False
        self.new_seed = lambda: secrets.randbits(48)  # tests set a fixed seed here
        # A lock exists while someone holds or waits for it; the cache holds live games only.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._cache: dict[int, tuple[int, Any]] = {}  # session id -> (version, engine state)
        # A running game's row and seats as last read or committed here (with the state above at
        # the same version, the copy a move starts from), and each such game's channel.
        self._copies: dict[int, tuple[SessionRow, list[Seat]]] = {}
        self._channels: dict[int, int] = {}  # channel id -> the id of its game in _copies
        self._computer_names = list(
            computer_names or ("Cpu Ada", "Cpu Blaise", "Cpu Carl", "Cpu Dora", "Cpu Emmy")
        )

    async def _record(
        self,
        session: Session,
        expected_version: int,
        played: Sequence[Played],
        state: dict[str, Any],
        **options: Any,
    ) -> int:
        """Commit ``played`` (see :meth:`bot.storage.games.Games.record_moves`) and count the moves; the new version."""
        version = await self.store.games.record_moves(
            session.id, expected_version, [stored(p) for p in played], state, **options
        )
        self.metrics.moves_committed(session.row.game, [p.by_computer for p in played])
        return version

    def lock(self, session_id: int) -> asyncio.Lock:
        lock = self._locks.get(session_id)
        if lock is None:
            lock = self._locks[session_id] = asyncio.Lock()
        return lock

    def _release(self, session_id: int) -> None:
        """Forget a game that ended: its cached state goes (its lock goes once nobody holds it)."""
        self._cache.pop(session_id, None)
        copy = self._copies.pop(session_id, None)
        if copy is not None and self._channels.get(copy[0].channel_id) == session_id:
            del self._channels[copy[0].channel_id]

    def _keep(self, row: SessionRow, seats: list[Seat]) -> None:
        """Keep a running game's row and seats, read together or just committed, as the copy its
        next move starts from (an older copy never replaces a newer one)."""
        held = self._copies.get(row.id)
        if held is None or held[0].version <= row.version:
            self._copies[row.id] = (row, seats)
            self._channels[row.channel_id] = row.id

    def _copy(self, session_id: int) -> Session | None:
        """The game as this process last saw it, or None: the copy a move may start from without
        reading.  It may be stale (another process moved, or changed the game): every change to
        a session's row or seats that a move depends on bumps its version, so the move's commit
        refuses a stale copy, and the move is then judged again on a fresh read."""
        copy, state = self._copies.get(session_id), self._cache.get(session_id)
        if copy is None or state is None or state[0] != copy[0].version:
            return None
        row, seats = copy
        try:
            info = engines.get(row.game)
        except KeyError:
            return None
        return Session(row=row, seats=seats, info=info, state=state[1])

    # ----------------------------------------------------------------- loading

    async def _load(self, row: SessionRow, seat_rows: list[SeatRow] | None = None) -> Session:
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
            await self._damage(session, f"no game called {row.game!r} is installed")
            return session
        session = Session(row=row, seats=seats, info=info, damaged=row.damaged)
        if session.damaged:
            self._release(row.id)
            return session
        if row.unreadable:
            await self._damage(session, row.unreadable)
            return session
        if row.state is not None:
            cached = self._cache.get(row.id)
            if cached and cached[0] == row.version:
                session.state = cached[1]
            else:
                try:
                    session.state = info.load().from_dict(row.state)
                except Exception as exc:
                    await self._damage(
                        session, f"its saved state cannot be read ({exc.__class__.__name__})", exc
                    )
                    return session
                if row.live:
                    self._cache[row.id] = (row.version, session.state)
            if from_one_read and row.status == "active":
                self._keep(row, seats)
        if not row.live:
            self._release(row.id)
        return session

    async def _damage(self, session: Session, reason: str, exc: BaseException | None = None) -> None:
        """Mark ``session`` damaged: stored, logged once (with the traceback when there is one)."""
        session.damaged = reason
        session.state = None
        self._release(session.id)
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
        return await self._load(*found) if found else None

    async def reread(self, session_id: int) -> Session:
        """A session read again after a change to it (it is never deleted, so it is there)."""
        session = await self.get(session_id)
        if session is None:
            raise NoGameHere("game {number} is gone from the database", number=session_id)
        return session

    async def in_channel(self, channel_id: int) -> Session | None:
        found = await self.store.games.load(channel_id=channel_id)
        return await self._load(*found) if found else None

    async def require(self, channel_id: int, *, damaged_ok: bool = False) -> Session:
        session = await self.in_channel(channel_id)
        if session is None:
            raise NoGameHere("there is no game in this channel; {hint}", hint=new_game_hint())
        if session.damaged and not damaged_ok:
            raise Damaged(damaged_text(session))
        return session

    async def latest(self, channel_id: int) -> Session:
        """The channel's game for /game status, log and board: the live one, else the last
        that ended here (until a new game opens in the channel)."""
        row = await self.store.games.last_session(channel_id)
        if row is None:
            raise NoGameHere("there is no game in this channel; {hint}", hint=new_game_hint())
        return await self._load(row)

    async def live(self, guild_id: int | None) -> list[Session]:
        """The server's lobbies and games (damaged ones included, marked); a server id is required."""
        if guild_id is None:
            raise TableError("games are listed per server; use this command in a server")
        return [await self._load(r) for r in await self.store.games.live_sessions(guild_id)]

    async def sessions_of(self, user_id: int) -> list[Session]:
        """Every lobby and game, in every server, where the person sits (not resigned)."""
        return [await self._load(row, seats) for row, seats in await self.store.games.sessions_of(user_id)]

    # ----------------------------------------------------------------- lobby

    def check_new(
        self, game: str, options: dict[str, Any] | None, max_players: int | None
    ) -> tuple[engines.GameInfo, dict[str, Any], int]:
        """Validate a new game's options (with the largest table, so a bad option fails at once);
        returns the game, its stored options and the seat limit.  Nothing is written."""
        info = engines.get(game)
        module = info.load()
        options = {k: v for k, v in (options or {}).items() if v is not None}
        limit = info.max_players if max_players is None else max_players
        if not info.min_players <= limit <= info.max_players:
            raise TableError(
                "{game} seats {least} to {most} players, not {limit}",
                game=info.title,
                least=info.min_players,
                most=info.max_players,
                limit=limit,
            )
        try:
            config = config_from_options(module.Config, limit, options)
        except SetupError as exc:
            raise TableError(exc.said) from None
        return info, options_of(config), limit

    async def create(
        self,
        game: str,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: dict[str, Any] | None = None,
        max_players: int | None = None,
        seed: int | None = None,
        lobby_channel_id: int | None = None,
        clock: str | None = None,
    ) -> Session:
        """Open a lobby in ``channel_id`` (a channel or the game's thread; ``lobby_channel_id``:
        the thread's parent channel, where the lobby message is; ``clock``: a clock spec, see
        :mod:`bot.time.gameclock`)."""
        if guild_id is None:
            raise TableError("games are played in a server's channels; open one there")
        _, stored_options, limit = self.check_new(game, options, max_players)
        spec = self.check_clock(clock)
        existing = await self.store.games.live_session(channel_id)
        if existing is not None:
            raise TableError(self._busy_message(existing))
        try:
            sid = await self.store.games.create_session(
                game=game,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                host_name=host_name,
                options=stored_options,
                max_players=limit,
                seed=seed if seed is not None else self.new_seed(),
                lobby_channel_id=lobby_channel_id,
                clock=spec.text if spec else None,
                timer_seconds=spec.start if spec else None,
            )
        except ChannelBusy:
            existing = await self.store.games.live_session(channel_id)
            raise TableError(self._busy_message(existing)) from None
        return await self.reread(sid)

    @staticmethod
    def _busy_message(existing: SessionRow | None) -> Said:
        if existing is None:
            return said("another game was just opened here; try again")
        return said(
            "this channel already has a {game} game ({status}); finish or /game abandon it first, "
            "or open a thread for a second game",
            game=engines.get(existing.game).title,
            status=existing.status,
        )

    async def join(self, channel_id: int, user_id: int, name: str) -> Session:
        session = await self.require(channel_id)
        async with self.lock(session.id):
            session = await self.require(channel_id)
            if session.status != "lobby":
                raise TableError("this game has already started; watch it with /game board")
            if session.seat_of(user_id):
                raise TableError("you are already seated at this table")
            try:
                seated = await self.store.games.add_seat(
                    session.id, user_id, name, limit=session.row.max_players
                )
            except Conflict:  # seated meanwhile, through another process
                raise TableError("you are already seated at this table") from None
            if not seated:
                raise TableError(
                    said_n(
                        session.row.max_players,
                        "the table is full ({n} seat)",
                        "the table is full ({n} seats)",
                    )
                )
            return await self.require(channel_id)

    async def add_computer(self, channel_id: int, user_id: int, level: str = DEFAULT_LEVEL) -> Session:
        if level not in LEVELS:
            raise TableError(
                "there is no computer level {level}; choose {levels}",
                level=repr(level),
                levels=", ".join(LEVELS),
            )
        session = await self.require(channel_id)
        async with self.lock(session.id):
            session = await self.require(channel_id)
            if session.status != "lobby":
                raise TableError("computer players can only be added before the start")
            if not session.seat_of(user_id):
                raise NotSeated("only seated players can add a computer player; join first")
            taken = {s.name for s in session.seats}
            name = next((n for n in self._computer_names if n not in taken), f"Cpu {len(session.seats) + 1}")
            if not await self.store.games.add_seat(
                session.id, None, name, limit=session.row.max_players, computer=True, level=level
            ):
                raise TableError(
                    said_n(
                        session.row.max_players,
                        "the table is full ({n} seat)",
                        "the table is full ({n} seats)",
                    )
                )
            return await self.require(channel_id)

    async def leave(self, channel_id: int, user_id: int) -> Session | None:
        """Leave a lobby.  When the host leaves an otherwise empty lobby it closes."""
        session = await self.require(channel_id)
        async with self.lock(session.id):
            session = await self.require(channel_id)
            if session.status != "lobby":
                raise TableError("the game has started; use /game resign to leave it")
            seat = session.seat_of(user_id)
            if seat is None:
                raise NotSeated("you are not seated at this table")
            humans = [s for s in session.seats if not s.computer and s.user_id != user_id]
            if not humans:
                await self.store.games.finish(
                    session.id, status="abandoned", reason="everyone left the lobby", outcome=None, results=[]
                )
                self._release(session.id)
                return None
            await self.store.games.remove_seat(session.id, seat.join_order)
            return await self.require(channel_id)

    async def close_lobby(self, session_id: int, reason: str) -> None:
        """Close a lobby that could not be set up (its thread was refused); nothing was played."""
        async with self.lock(session_id):
            session = await self.get(session_id)
            if session is not None and session.status == "lobby":
                await self.store.games.finish(
                    session_id, status="abandoned", reason=reason, outcome=None, results=[]
                )
                self._release(session_id)

    async def start(self, channel_id: int, user_id: int) -> MoveResult:
        session = await self.require(channel_id)
        async with self.lock(session.id):
            session = await self.require(channel_id)
            if session.status != "lobby":
                raise TableError("the game has already started")
            if not session.seat_of(user_id):
                raise NotSeated("only a seated player can start the game; join first")
            n = len(session.seats)
            if n < session.info.min_players:
                raise TableError(
                    said_n(
                        session.info.min_players,
                        "{game} needs at least {n} player; {seated} seated (add a computer player or wait for others)",
                        "{game} needs at least {n} players; {seated} seated (add a computer player or wait for others)",
                        game=session.info.title,
                        seated=n,
                    )
                )
            module = session.engine
            try:
                config = config_from_options(module.Config, n, session.row.options)
            except SetupError as exc:
                raise TableError(
                    said_n(
                        n,
                        "these options do not work with {n} player: {problem}",
                        "these options do not work with {n} players: {problem}",
                        problem=exc.said,
                    )
                ) from None
            order = list(range(n))
            rng_for(session.row.seed, "seating").shuffle(order)
            seat_of = {s.join_order: order[i] for i, s in enumerate(session.seats)}
            state = module.new_game(config, n, session.row.seed)
            version = await self.store.games.start(
                session.id, seat_of, options_of(config), module.to_dict(state)
            )
            session = await self.require(channel_id)
            spec = session.clock
            if spec is not None:
                people = [s.seat for s in session.seats if not s.computer and s.seat is not None]
                banks = gc.begin(spec, people, set(module.to_move(state)) & set(people), self.now())
                await self._save_clock(session, banks, expected_version=version)
                session = await self.require(channel_id)
            result = MoveResult(session, turn_before=module.turn_number(state))
            await self._after(session, result)
            return result

    # ----------------------------------------------------------------- moves

    async def legal_moves(self, channel_id: int, user_id: int) -> list[str]:
        """The user's legal moves now, in notation (empty when they may not act)."""
        session = await self.in_channel(channel_id)
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
        session_id = self._channels.get(channel_id)
        if session_id is not None:
            try:
                return await self.play_in(
                    session_id, user_id, text, expected_version=expected_version, channel_id=channel_id
                )
            except _EndedHere:
                pass
        session = await self.require(channel_id)
        return await self.play_in(session.id, user_id, text, expected_version=expected_version)

    async def stamp(self, session: Session, seat: int) -> str:
        """What a private menu was made for: ``<turn>.<moves by this seat>``.

        A click carrying an older stamp is stale: the turn (or the round) has
        moved on, or the seat has moved since (a double click).  Other players
        building at once in a simultaneous round do not make it stale.
        """
        mine = await self.store.history.seat_move_count(session.id, seat)
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
        raises ``_EndedHere`` instead of refusing."""
        started = time.perf_counter()
        async with self.lock(session_id):
            copy = self._copy(session_id)
            if copy is not None and (expected_version is None or expected_version == copy.version):
                try:
                    judged = await self._judge(copy, user_id, text, expected_version, expected_stamp)
                    row = await self._commit_move(*judged)
                except (TableError, MoveError, StaleVersion):
                    pass  # the copy may be behind: judged again on a fresh read
                else:
                    return await self._played(row, judged, started)
            session = await self.get(session_id)
            if channel_id is not None and (
                session is None or session.status != "active" or session.row.channel_id != channel_id
            ):
                self._release(session_id)
                raise _EndedHere()
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
    ) -> tuple[Session, Any, Played]:
        """Check a person's move in ``session`` (refused in words they can read); the session,
        the state after the move, and the move."""
        if session is None or session.status != "active":
            status = session.status if session else "gone"
            if status in ("finished", "abandoned"):
                raise TableError("this game is over")
            if status == "lobby":
                raise TableError("this game has not started yet")
            raise TableError("there is no such game")
        if expected_version is not None and expected_version != session.version:
            raise StaleMove("the board changed since that button was posted; here it is now")
        seat = session.seat_of(user_id)
        if seat is None or seat.seat is None:
            raise NotSeated("you are not playing in this game; you can watch with /game board")
        refuse_computer_seat(session, seat)
        if session.damaged:
            raise Damaged(damaged_text(session))
        if expected_stamp is not None and expected_stamp != await self.stamp(session, seat.seat):
            raise StaleMove("the board changed since that menu was made; here it is now")
        module = session.engine
        if seat.seat not in module.to_move(session.state):
            raise NotYourTurn(self.not_your_turn(session, seat.seat))
        try:
            move = module.parse_move(text)
            new_state, mine = apply(module, session.state, seat.seat, move, by_computer=False)
        except MoveError as exc:  # the engine's words, with the players' names put in
            raise named(exc, session.names()) from None
        return session, new_state, mine

    async def _commit_move(self, session: Session, new_state: Any, mine: Played) -> SessionRow:
        """Commit a person's move; the row as committed (StaleVersion: the session moved on)."""
        return await self.store.games.play_moves(
            session.id,
            session.version,
            [stored(mine)],
            session.engine.to_dict(new_state),
            clock=await self.clock_after(session, new_state),
        )

    async def _played(
        self, row: SessionRow, judged: tuple[Session, Any, Played], started: float
    ) -> MoveResult:
        """After a person's move was committed (lock held): counted, kept, computers, the result."""
        session, new_state, mine = judged
        self.metrics.moves_committed(session.row.game, [False])
        self.metrics.move_took(session.row.game, time.perf_counter() - started)
        self._cache[session.id] = (row.version, new_state)
        turn_before = session.engine.turn_number(session.state)
        # The commit hands back the row as committed, and a move changes no seat (a seat change
        # bumps the version, which the commit checked): no read is needed to post it.
        session = Session(
            row=row, seats=session.seats, info=session.info, state=new_state, damaged=row.damaged
        )
        self._keep(row, session.seats)
        result = MoveResult(session, [mine], turn_before=turn_before)
        await self._after(session, result, searches_wait=self.computers_wait)
        return result

    @staticmethod
    def not_your_turn(session: Session, seat: int) -> Said:
        """A refusal that says whose turn it is, kept for the reader's language."""
        names = [s.name for s in session.waiting_on()]
        if not names:
            return said("nobody can move right now")
        if len(names) > 1:
            return said(
                "it is not your turn: {players} are still to play; you will be mentioned when it is yours",
                players=said("{items} and {last}", items=", ".join(names[:-1]), last=names[-1]),
            )
        return said(
            "it is not your turn: it is {player}'s turn; you will be mentioned when it is yours",
            player=names[0],
        )

    async def _after(self, session: Session, result: MoveResult, *, searches_wait: bool = False) -> None:
        """Let computer seats act, then finish the game if it is over (lock held).

        ``searches_wait`` (after a person's move): once a turn has ended, a computer
        that searches (the strong level) does not start; ``result.computers_next``
        says so, and :meth:`computers_play` plays on after the move is posted."""
        module = session.engine
        state = session.state
        batch: list[Played] = []
        if module.outcome(state) is None:
            start = result.turn_before if searches_wait else None
            state, batch, failed, waiting = await self._computer_turns(session, state, start)
            result.computers_next = waiting
            if failed:
                result.note = said(STALLED)
        if batch:
            result.played.extend(batch)
            version = await self._record(
                session,
                session.version,
                batch,
                module.to_dict(state),
                clock=await self.clock_after(session, state),
            )
            self._cache[session.id] = (version, state)
            session = await self.reread(session.id)
            result.session = session
        outcome = module.outcome(state)
        if outcome is not None:
            result.ratings = await self._finish(session, outcome)
            result.finished = True
            result.outcome = outcome
            result.session = await self.reread(session.id)
        if result.turn_before is not None and module.turn_number(state) != result.turn_before:
            result.turn_ended = True
        result.turn_ended = result.turn_ended or result.finished

    async def _computer_turns(
        self, session: Session, state: Any, turn_start: int | None
    ) -> tuple[Any, list[Played], bool, bool]:
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
        paced: set[int] = set()
        seed, version = session.row.seed, session.version
        for _ in range(MAX_COMPUTER_MOVES):
            if module.outcome(state) is not None:
                break
            seat = pace.next_computer(module, state, computers, paced)
            if seat is None:
                break
            level = levels[seat]
            if turn_start is not None and level not in IN_PROCESS and module.turn_number(state) != turn_start:
                return state, batch, False, True
            try:
                legal = list(module.legal_moves(state, seat))
                view = module.view_for(state, seat)
                rng = rng_for(seed, "computer", version + len(batch))
                try:
                    move = await self.computers.move(module, view, legal, rng, level, self.computer_seconds)
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

    async def computers_play(self, session_id: int) -> MoveResult | None:
        """Play the computer turns that wait (see :meth:`_after`): the next searching computer's
        turn and the instant ones after it, up to the next turn of a searching computer.
        None when no computer is to move (or the game is not running)."""
        async with self.lock(session_id):
            session = await self.get(session_id)
            if session is None or session.status != "active" or session.damaged:
                return None
            module = session.engine
            computers = {s.seat for s in session.seats if s.computer and s.seat is not None}
            if module.outcome(session.state) is not None or not computers & set(
                module.to_move(session.state)
            ):
                return None
            if pace.next_computer(module, session.state, computers, set()) is None:
                return None
            turn = module.turn_number(session.state)
            result = MoveResult(session, turn_before=turn)
            await self._after(session, result, searches_wait=True)
            if not result.played and result.note is None:
                return None
            return result

    async def computers_waiting(self, guild_ids: Sequence[int]) -> list[int]:
        """The running games of these servers where a computer is to move (after a restart:
        the table plays them, see :meth:`computers_play`)."""
        found = []
        for guild_id in guild_ids:
            for row in await self.store.games.live_sessions(guild_id):
                if row.status != "active":
                    continue
                session = await self.get(row.id)
                if session is None or session.status != "active" or session.damaged:
                    continue
                module = session.engine
                computers = {s.seat for s in session.seats if s.computer and s.seat is not None}
                if module.outcome(session.state) is None and computers:
                    if pace.next_computer(module, session.state, computers, set()) is not None:
                        found.append(session.id)
        return found

    async def _finish(
        self, session: Session, outcome: Outcome, reason: str | None = None
    ) -> list[RatingChange]:
        """Record the results (and the ratings); returns how each person's rating moved."""
        # Resigned seats, and seats the computer took when their time ran out, rank last.
        resigned = {s.seat for s in session.seats if s.resigned} | gc.ranks_last(session.banks)
        ranking = [tuple(s for s in group if s not in resigned) for group in outcome.ranking]
        ranking = [g for g in ranking if g]
        # Resigned seats rank below everyone who stayed, in the engine's order among themselves.
        for group in outcome.ranking:
            left = tuple(s for s in group if s in resigned)
            if left:
                ranking.append(left)
        results = []
        changes: list[RatingChange] = []
        place = 1
        for group in ranking:
            for s in group:
                seat = session.by_seat(s)
                results.append(ResultRow(s, seat.user_id, outcome.scores[s], place, s in resigned))
            place += len(group)
        await self.store.games.finish(
            session.id,
            status="finished",
            reason=reason or outcome.reason,
            outcome=outcome.to_dict(),
            results=results,
            rate=lambda current: rerate(current, changes),
            names={s.user_id: s.name for s in session.seats if s.user_id is not None},
        )
        self._release(session.id)
        return changes

    # ----------------------------------------------------------------- leaving a game

    async def resign(self, channel_id: int, user_id: int) -> MoveResult:
        """Leave a running game.  The computer takes the seat; the seat ranks last.

        When only one seat that has not resigned remains, or no person is left
        playing, the game ends at once.
        """
        session = await self.require(channel_id)
        async with self.lock(session.id):
            session = await self.require(channel_id)
            if session.status != "active":
                raise TableError("the game has not started; use /game leave to leave the lobby")
            seat = session.seat_of(user_id)
            if seat is None or seat.seat is None:
                raise NotSeated("you are not playing in this game")
            if seat.resigned:
                raise TableError("you have already resigned from this game")
            return await self._resign_seat(session, seat)

    async def _resign_seat(self, session: Session, seat: Seat) -> MoveResult:
        """The seat resigns (lock held): the computer takes it, or the game ends when too few stay."""
        assert seat.seat is not None  # callers pass a seat of a running game
        await self.store.games.set_seat_flags(session.id, seat.seat, computer=True, resigned=True)
        session = await self.reread(session.id)
        if session.clock is not None:  # the seat's clock stops; the deadline follows the others'
            await self._save_clock(session, gc.stop(session.banks, seat.seat))
            session = await self.reread(session.id)
        turn_before = session.engine.turn_number(session.state)
        result = MoveResult(session, note=said("{name} resigned", name=seat.name), turn_before=turn_before)
        staying = [s for s in session.seats if not s.resigned]
        people = [s for s in staying if not s.computer]
        if len(staying) <= 1 or not people:
            result.ratings = await self._end_early(session, staying, said("the game ended by resignation"))
            result.finished = result.turn_ended = True
            result.session = await self.reread(session.id)
            ended = result.session.row.outcome
            result.outcome = Outcome.from_dict(ended) if ended is not None else None
            return result
        result.note = said("{name} resigned; the computer plays that seat from now on", name=seat.name)
        await self._after(session, result)
        return result

    async def forfeit_seat(self, session_id: int, user_id: int) -> MoveResult | None:
        """A league dropped ``user_id``: their seat in this running game resigns (see resign).
        None when the game is not running or they are no longer in it."""
        async with self.lock(session_id):
            session = await self.get(session_id)
            if session is None or session.status != "active" or session.damaged:
                return None
            seat = session.seat_of(user_id)
            if seat is None or seat.seat is None or seat.resigned:
                return None
            return await self._resign_seat(session, seat)

    async def finish_by_computer(self, session_id: int) -> MoveResult | None:
        """Time is up for the whole game (a league round's deadline): the computer takes every
        person's seat and plays the game to its end; the result stands.  None when the game is
        not running."""
        async with self.lock(session_id):
            session = await self.get(session_id)
            if session is None or session.status != "active" or session.damaged:
                return None
            late = [s for s in session.seats if not s.computer and s.seat is not None]
            for s in late:
                if s.seat is not None:
                    await self.store.games.set_seat_flags(
                        session.id, s.seat, computer=True, resigned=s.resigned
                    )
            session = await self.reread(session.id)
            result = MoveResult(
                session,
                note=said(
                    "⏰ The round's time is up; the computer finished the game for {names}.",
                    names=", ".join(s.name for s in late),
                )
                if late
                else said("⏰ The round's time is up; the computer finished the game."),
                turn_before=session.engine.turn_number(session.state),
            )
            for _ in range(5):  # each pass plays up to MAX_COMPUTER_MOVES moves
                await self._after(session, result)
                if result.finished or (result.note is not None and result.note.msg == STALLED):
                    break
                session = await self.reread(session.id)
            return result

    async def _end_early(self, session: Session, staying: list[Seat], why: Said) -> list[RatingChange]:
        order = [s.seat for s in session.seats if s.resigned and s.seat is not None]
        ranking = [tuple(sorted(s.seat for s in staying if s.seat is not None))] if staying else []
        ranking += [(s,) for s in reversed(order)]  # the last to resign ranks highest among them
        n = len(session.seats)
        scores = tuple(1.0 if any(st.seat == s for st in staying) else 0.0 for s in range(n))
        outcome = Outcome.told(scores, tuple(ranking), why)
        return await self._finish(session, outcome, reason=outcome.reason)

    async def abandon(self, channel_id: int, user_id: int, *, can_manage: bool) -> Session:
        session = await self.require(channel_id, damaged_ok=True)
        async with self.lock(session.id):
            session = await self.require(channel_id, damaged_ok=True)
            if user_id != session.row.host_id and not can_manage:
                raise TableError("only the host or someone with Manage Channels can abandon this game")
            return await self._abandon(session, "abandoned (damaged)" if session.damaged else "abandoned")

    async def _abandon(self, session: Session, reason: str) -> Session:
        """End the game without a result (lock held)."""
        await self.store.games.finish(session.id, status="abandoned", reason=reason, outcome=None, results=[])
        self._release(session.id)
        return await self.reread(session.id)

    # ----------------------------------------------------------------- deadlines

    async def set_timer(
        self, channel_id: int, user_id: int, seconds: float | None, *, can_manage: bool
    ) -> Session:
        """Give the players to move ``seconds`` to act (``None`` or 0: no timer).

        Anything but a number from 0 to :data:`MAX_TIMER_HOURS` hours (not a
        number, infinite, negative, too long) is refused and nothing changes.
        """
        if seconds is not None:
            number = isinstance(seconds, int | float) and not isinstance(seconds, bool)
            if not number or not math.isfinite(seconds) or not 0 <= seconds <= MAX_TIMER_HOURS * 3600:
                shown = f"{seconds / 3600:g}" if number else repr(seconds)
                raise TableError(
                    "the timer must be a number of hours from 0 (off) to {most}, not {shown}",
                    most=MAX_TIMER_HOURS,
                    shown=shown,
                )
        session = await self.require(channel_id)
        async with self.lock(session.id):
            session = await self.require(channel_id)
            if user_id != session.row.host_id and not can_manage:
                raise TableError("only the host or someone with Manage Channels can set the turn timer")
            if session.row.clock:
                raise TableError(
                    "this game has a clock ({clock}); change it with /game clock (`/game clock clock:off` removes it)",
                    clock=session.row.clock,
                )
            await self.store.games.set_timer(session.id, seconds or None)
            return await self.require(channel_id)

    async def fire_deadline(
        self, session_id: int, version: int, *, job: Job | None = None
    ) -> MoveResult | None:
        """Act on a passed deadline, if the session is still where the deadline found it.

        An engine with table moves (``TABLE_MOVES``) gets its first one, a
        round's end for instance; otherwise the computer moves once for every
        person the game is waiting on.  Returns ``None`` when a move made
        meanwhile has already moved the deadline on.  With ``job`` (the claimed
        deadline job), the job is consumed in the move's own transaction: if
        another process fired it, or a move re-armed it meanwhile, nothing is
        recorded, so a deadline acts once.
        """
        async with self.lock(session_id):
            session = await self.get(session_id)
            if session is None or session.status != "active" or session.version != version:
                return None
            if session.damaged:
                return None
            module = session.engine
            turn_before = module.turn_number(session.state)
            late = [s for s in session.waiting_on() if not s.computer]
            try:
                state, played, note = await asyncio.to_thread(
                    deadline_moves,
                    module,
                    session.state,
                    [s.seat for s in late if s.seat is not None],
                    session.row.seed,
                    version,
                )
            except Exception as exc:
                # Nobody is waiting on an answer here: keep the damage to this one game.
                await self._damage(session, f"the engine failed when the turn timer ran out ({exc})", exc)
                return None
            if not played:
                return None
            if note is None and late:
                note = said(
                    "⏰ Time ran out for {names}; the computer made the move.",
                    names=", ".join(s.name for s in late),
                )
            elif note is None:
                note = said("⏰ Time ran out; the computer made the move.")
            try:
                new_version = await self._record(
                    session,
                    version,
                    played,
                    module.to_dict(state),
                    job=job,
                    clock=await self.clock_after(session, state),
                )
            except StaleVersion:
                return None  # moved on meanwhile, or fired already (by another process)
            self._cache[session.id] = (new_version, state)
            session = await self.reread(session.id)
            result = MoveResult(session, played, note=note, turn_before=turn_before)
            await self._after(session, result)
            return result

    # ----------------------------------------------------------------- game clocks

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
            raise TableError(exc.said) from None

    async def away_of(self, session: Session) -> Callable[[int], gc.Away]:
        """Each seat's time away (periods when its clock does not run), from the people's settings."""
        users = {
            s.seat: s.user_id for s in session.seats if s.seat is not None and s.user_id and not s.computer
        }
        people = await self.store.people.several(users.values())
        periods: dict[int, list[tuple[float, float]]] = {}
        for seat, user in users.items():
            person = people.get(user)
            if person is not None and person.away_since is not None and person.away_until is not None:
                periods[seat] = [(person.away_since, person.away_until)]
        return lambda seat: periods.get(seat, [])

    def _timer(
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
        self, session: Session, new_state: Any
    ) -> tuple[dict[str, Any], float | None] | None:
        """The clocks once the game goes from ``session.state`` to ``new_state`` now (None: no clock)."""
        spec = session.clock
        if spec is None or session.state is None:
            return None
        module = session.engine
        away = await self.away_of(session)
        people = [s.seat for s in session.seats if s.seat is not None and not s.computer]
        after = set() if module.outcome(new_state) is not None else set(module.to_move(new_state))
        before = set(module.to_move(session.state))
        now, banks = self.now(), session.banks
        if module.turn_number(new_state) != module.turn_number(session.state):
            # A new turn (or round): every clock that ran stops and is paid for, then those to
            # move start afresh, even a seat to move in both.
            banks = gc.advance(spec, banks, before, set(), now, away, people)
            before = set()
        banks = gc.advance(spec, banks, before, after, now, away, people)
        return banks.to_dict(), self._timer(session, spec, banks, away)

    async def _save_clock(
        self,
        session: Session,
        banks: gc.Banks,
        *,
        spec: gc.ClockSpec | None = None,
        expected_version: int | None = None,
    ) -> bool:
        """Store the running clocks (and ``spec``, when it changes) and re-arm the deadline."""
        spec = spec or session.clock
        if spec is None:
            return await self.store.games.set_clock(
                session.id, None, None, None, expected_version=expected_version
            )
        timer = (
            self._timer(session, spec, banks, await self.away_of(session)) if session.state else spec.start
        )
        return await self.store.games.set_clock(
            session.id, spec.text, banks.to_dict(), timer, expected_version=expected_version
        )

    async def set_clock(self, channel_id: int, user_id: int, text: str, *, can_manage: bool) -> Session:
        """``/game clock``: choose the game's clock (``off``: none), in the lobby or during the game.

        During the game the new clock starts afresh for everyone: each person gets the full
        start, and the clocks of those to move run from now.
        """
        spec = self.check_clock(text)
        session = await self.require(channel_id)
        async with self.lock(session.id):
            session = await self.require(channel_id)
            if user_id != session.row.host_id and not can_manage:
                raise TableError("only the host or someone with Manage Channels can set the game's clock")
            if session.banks.pending:
                raise TableError("someone's time ran out and the others are being asked; answer that first")
            if spec is None:
                await self.store.games.set_clock(session.id, None, None, None)
                return await self.require(channel_id)
            if session.status == "lobby":
                await self.store.games.set_clock(session.id, spec.text, None, spec.start)
                return await self.require(channel_id)
            people = [s.seat for s in session.seats if s.seat is not None and not s.computer]
            banks = gc.begin(spec, people, session.to_move() & set(people), self.now())
            banks = replace(banks, taken=session.banks.taken)
            await self._save_clock(session, banks, spec=spec)
            return await self.require(channel_id)

    async def fire_clock(self, session_id: int, job: Job) -> MoveResult | TimeOut | None:
        """A clocked game's deadline: whose time ran out, once time away is left out.

        Nobody's (time away, or a deadline set before a move): the deadline moves to when the
        first clock runs out.  In a game with table moves (a round the table ends), the round
        ends.  Otherwise the seats that ran out wait while the others are asked (a
        :class:`TimeOut` for the table to post).
        """
        async with self.lock(session_id):
            session = await self.get(session_id)
            if session is None or session.status != "active" or session.damaged:
                return None
            spec = session.clock
            if spec is None:
                return None
            now = self.now()
            away = await self.away_of(session)
            banks = session.banks
            out = gc.timed_out(spec, banks, now, away)
            module = session.engine
            rounds = getattr(module, "TABLE_MOVES", False) and list(module.legal_moves(session.state, TABLE))
            if not out or (rounds and set(out) != set(gc.running(banks))):
                # Nobody ran out yet (time away, or a deadline set before a move); a round waits
                # for the last clock of those still to move.
                await self._save_clock(session, banks, expected_version=session.version)
                return None
            if rounds:
                return await self._table_deadline(session, job)
            banks = gc.run_out(banks, out, now)
            if not await self._save_clock(session, banks, expected_version=session.version):
                return None
            return TimeOut(await self.reread(session_id), [session.by_seat(s) for s in out], now)

    async def _table_deadline(self, session: Session, job: Job) -> MoveResult | None:
        """The round's time is up: the table's move ends it (lock held)."""
        module = session.engine
        turn_before = module.turn_number(session.state)
        try:
            state, played, note = await asyncio.to_thread(
                deadline_moves, module, session.state, [], session.row.seed, session.version
            )
        except Exception as exc:
            await self._damage(session, f"the engine failed when the round's time ran out ({exc})", exc)
            return None
        try:
            version = await self._record(
                session,
                session.version,
                played,
                module.to_dict(state),
                job=job,
                clock=await self.clock_after(session, state),
            )
        except StaleVersion:
            return None
        self._cache[session.id] = (version, state)
        session = await self.reread(session.id)
        result = MoveResult(session, played, note=note, turn_before=turn_before)
        await self._after(session, result)
        return result

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
            raise TableError(
                "the answers are {answers}, not {choice}",
                answers=", ".join(TIMEOUT_CHOICES),
                choice=repr(choice),
            )
        async with self.lock(session_id):
            session = await self.get(session_id)
            if session is None or session.status != "active" or session.damaged:
                raise TableError("that game is not running any more")
            banks = session.banks
            when = banks.pending.get(seat)
            if when is None or int(when) != at:
                raise StaleMove("that question is closed: it was answered already, or the player moved")
            late = session.by_seat(seat)
            if user_id is not None:
                voter = session.seat_of(user_id)
                if voter is None or voter.seat is None or voter.computer or voter.resigned:
                    raise NotSeated("only the other players in this game answer this")
                if voter.seat == seat:
                    raise TableError("the others decide this; you can still move, which ends the question")
            if choice == "more":
                spec = session.clock
                assert spec is not None  # a pending timeout needs a clock
                await self._save_clock(session, gc.more_time(spec, banks, seat, self.now()))
                return await self.reread(session_id), None
            if choice == "abandon":
                session = await self._abandon(session, "abandoned after a player's time ran out")
                return session, None
            await self.store.games.set_seat_flags(session.id, seat, computer=True, resigned=False)
            session = await self.reread(session_id)
            await self._save_clock(session, gc.take(banks, seat), expected_version=session.version)
            session = await self.reread(session_id)
            result = MoveResult(
                session,
                note=said(
                    "⏰ {name}'s time ran out; the computer plays that seat from now on", name=late.name
                ),
                turn_before=session.engine.turn_number(session.state),
            )
            await self._after(session, result)
            return result.session, result

    async def return_seat(self, channel_id: int, user_id: int) -> Session:
        """``/game return``: a person whose seat the computer took after a timeout takes it back,
        once; they play it again from their next turn, with the full start on their clock."""
        session = await self.require(channel_id)
        async with self.lock(session.id):
            session = await self.require(channel_id)
            if session.status != "active":
                raise TableError("the game is not running")
            seat = session.seat_of(user_id)
            if seat is None or seat.seat is None:
                raise NotSeated("you are not playing in this game")
            if seat.resigned:
                raise TableError("you resigned from this game; a resignation cannot be taken back")
            banks = session.banks
            if seat.seat not in banks.taken or not seat.computer:
                raise TableError("your seat is yours: the computer took no seat of yours in this game")
            if not gc.may_return(banks, seat.seat):
                raise TableError("you came back once already; the computer keeps your seat now")
            spec = session.clock
            assert spec is not None  # a taken seat needs a clock
            await self.store.games.set_seat_flags(session.id, seat.seat, computer=False, resigned=False)
            session = await self.reread(session.id)
            banks = gc.give_back(spec, banks, seat.seat, session.to_move(), self.now())
            await self._save_clock(session, banks)
            return await self.reread(session.id)

    # ----------------------------------------------------------------- replay

    async def replay(self, session_id: int) -> Any:
        """Rebuild a session's state from its seed, options and move log."""
        session = await self.get(session_id)
        if session is None or session.state is None:
            raise TableError("that game has no moves to replay")
        module = session.engine
        n = len([s for s in session.seats if s.seat is not None])
        config = config_from_options(module.Config, n, session.row.options)
        state = module.new_game(config, n, session.row.seed)
        for step in walk(module, state, await self.store.history.moves(session_id)):
            state = step.after
        return state

    # ----------------------------------------------------------------- the log

    async def log(
        self, session: Session, *, last: int | None = None, after: int | None = None
    ) -> list[MoveRecord]:
        """The last moves of ``session`` as records (all with ``last=None``; with ``after``,
        those after that move number), oldest first.

        Rows written before events and marks were stored get them back by
        replaying the game from its seed; when that fails (the rules changed
        since), they stay without, and :mod:`bot.public` shows them safely.
        """
        if after is not None:
            rows = await self.store.history.moves_after(session.id, after)
        else:
            rows = await self.store.history.moves(session.id, last=last)
        records = [record_of(r) for r in rows]
        if any(r.privacy is None for r in records):
            records = await self._replayed(session, records)
        return records

    async def untold(self, session: Session) -> list[MoveRecord]:
        """The moves the channel has not been told of yet, read from the log (so that a turn
        half played before a restart is still told in full)."""
        return await self.log(session, after=session.row.told_through)

    async def told(self, session: Session, message_id: int, through: int) -> int | None:
        """The board ``message_id`` was posted telling the moves up to ``through``; returns the
        id of the board it replaces (whose buttons come off)."""
        return await self.store.games.set_board_message(session.id, message_id, through)

    async def _replayed(self, session: Session, records: list[MoveRecord]) -> list[MoveRecord]:
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
                        row.seat, row.move, row.by_computer, step.events, privacy, row.number
                    )
        except Exception:
            log.warning("could not replay session %s to recover its log's marks", session.id, exc_info=True)
            return records
        return [found.get(r.number, r) if r.privacy is None and r.number is not None else r for r in records]


__all__ = [
    "Damaged",
    "MoveError",
    "MoveRecord",
    "MoveResult",
    "NoGameHere",
    "NotSeated",
    "Played",
    "RatingChange",
    "Seat",
    "SeatRow",
    "Session",
    "SessionService",
    "StaleMove",
    "TableError",
]
