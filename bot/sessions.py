"""The session service: lobbies, seats, moves, resignations and results.

No Discord here: callers pass user ids and display names, and get back plain
records and :class:`TableError` refusals whose messages a player can read.
One ``asyncio.Lock`` per session serialises changes in the process; the
session's version number, checked again inside the storage transaction,
turns a stale button or a race into :class:`StaleMove`.  Every accepted move
is committed (log row, snapshot, version) before the caller hears of it.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import engines
from bot import ratings
from bot.storage import ChannelBusy, RatingRow, ResultRow, SeatRow, SessionRow, StaleVersion, Store
from engines.core import (
    DEFAULT_LEVEL,
    LEVELS,
    TABLE,
    Event,
    MoveError,
    Outcome,
    SetupError,
    config_from_options,
    options_of,
    rng_for,
)

log = logging.getLogger(__name__)

MAX_COMPUTER_MOVES = 2000
"""Computer moves played in a row before the table stops and asks for help."""


class TableError(Exception):
    """A refusal from the table, in words a player can read."""


class NoGameHere(TableError):
    pass


class NotSeated(TableError):
    pass


class StaleMove(TableError):
    """The board changed between reading it and acting on it."""


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

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def engine(self) -> ModuleType:
        return self.info.load()

    @property
    def version(self) -> int:
        return self.row.version

    @property
    def status(self) -> str:
        return self.row.status

    def names(self) -> list[str]:
        ordered = sorted((s for s in self.seats if s.seat is not None), key=lambda s: s.seat)
        if ordered:
            return [s.name for s in ordered]
        return [s.name for s in self.seats]

    def seat_of(self, user_id: int) -> Seat | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    def by_seat(self, seat: int) -> Seat:
        return next(s for s in self.seats if s.seat == seat)

    def to_move(self) -> set[int]:
        if self.status != "active" or self.state is None:
            return set()
        return set(self.engine.to_move(self.state))

    def waiting_on(self) -> list[Seat]:
        return [self.by_seat(s) for s in sorted(self.to_move())]


@dataclass(frozen=True)
class Played:
    """What one accepted move did: who, what, and the events it caused."""

    seat: int
    move: str
    by_computer: bool
    events: tuple[Event, ...]


@dataclass
class MoveResult:
    session: Session
    played: list[Played] = field(default_factory=list)
    finished: bool = False
    outcome: Outcome | None = None
    note: str | None = None  # a line from the table itself (a resignation, a stalled computer)
    waiting_before: frozenset[int] = frozenset()  # seats that were to act before these moves


def rerate(current: list[RatingRow]) -> list[RatingRow]:
    """New ratings for the people of a finished game (none with fewer than two people)."""
    if len(current) < 2:
        return []
    standings = [
        ratings.Standing(
            r.user_id,
            r.name,
            r.place,
            r.mu if r.mu is not None else ratings.START_MU,
            r.sigma if r.sigma is not None else ratings.START_SIGMA,
        )
        for r in current
    ]
    return [
        RatingRow(n.user_id, n.name, n.mu, n.sigma, c.games + 1, c.wins + int(n.won))
        for n, c in zip(ratings.rate(standings), current, strict=True)
    ]


class SessionService:
    def __init__(
        self,
        store: Store,
        *,
        computer_names: Sequence[str] | None = None,
        computer_seconds: float | None = None,
    ):
        self.store = store
        self.computer_seconds = computer_seconds  # the strong level's thinking time per move
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: dict[int, tuple[int, Any]] = {}  # session id -> (version, engine state)
        self._computer_names = list(
            computer_names or ("Cpu Ada", "Cpu Blaise", "Cpu Carl", "Cpu Dora", "Cpu Emmy")
        )

    def lock(self, session_id: int) -> asyncio.Lock:
        return self._locks.setdefault(session_id, asyncio.Lock())

    # ----------------------------------------------------------------- loading

    async def _load(self, row: SessionRow) -> Session:
        seats = [
            Seat(s.join_order, s.seat, s.user_id, s.display_name, s.is_computer, s.resigned, s.level)
            for s in await self.store.seats(row.id)
        ]
        info = engines.get(row.game)
        session = Session(row=row, seats=seats, info=info)
        if row.state is not None:
            cached = self._cache.get(row.id)
            if cached and cached[0] == row.version:
                session.state = cached[1]
            else:
                session.state = info.load().from_dict(row.state)
                self._cache[row.id] = (row.version, session.state)
        return session

    async def get(self, session_id: int) -> Session | None:
        row = await self.store.session(session_id)
        return await self._load(row) if row else None

    async def in_channel(self, channel_id: int) -> Session | None:
        row = await self.store.live_session(channel_id)
        return await self._load(row) if row else None

    async def require(self, channel_id: int) -> Session:
        session = await self.in_channel(channel_id)
        if session is None:
            raise NoGameHere(
                "there is no game in this channel; start one with /<game> new, e.g. /guacamole new"
            )
        return session

    async def live(self, guild_id: int | None) -> list[Session]:
        return [await self._load(r) for r in await self.store.live_sessions(guild_id)]

    # ----------------------------------------------------------------- lobby

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
    ) -> Session:
        info = engines.get(game)
        module = info.load()
        options = {k: v for k, v in (options or {}).items() if v is not None}
        limit = max_players or info.max_players
        if not info.min_players <= limit <= info.max_players:
            raise TableError(
                f"{info.title} seats {info.min_players} to {info.max_players} players, not {limit}"
            )
        try:
            # Validate the options now, with the largest table, so a bad option fails at once.
            config = config_from_options(module.Config, limit, options)
        except SetupError as exc:
            raise TableError(str(exc)) from None
        existing = await self.store.live_session(channel_id)
        if existing is not None:
            raise TableError(self._busy_message(existing))
        try:
            sid = await self.store.create_session(
                game=game,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                host_name=host_name,
                options=options_of(config),
                max_players=limit,
                seed=seed if seed is not None else secrets.randbits(48),
            )
        except ChannelBusy:
            existing = await self.store.live_session(channel_id)
            raise TableError(self._busy_message(existing)) from None
        return await self.get(sid)

    @staticmethod
    def _busy_message(existing: SessionRow | None) -> str:
        if existing is None:
            return "another game was just opened here; try again"
        title = engines.get(existing.game).title
        return (
            f"this channel already has a {title} game ({existing.status}); finish or /game abandon it first, "
            "or open a thread for a second game"
        )

    async def join(self, channel_id: int, user_id: int, name: str) -> Session:
        session = await self.require(channel_id)
        async with self.lock(session.id):
            session = await self.require(channel_id)
            if session.status != "lobby":
                raise TableError("this game has already started; watch it with /game board")
            if session.seat_of(user_id):
                raise TableError("you are already seated at this table")
            if not await self.store.add_seat(session.id, user_id, name, limit=session.row.max_players):
                raise TableError(f"the table is full ({session.row.max_players} seats)")
            return await self.require(channel_id)

    async def add_computer(self, channel_id: int, user_id: int, level: str = DEFAULT_LEVEL) -> Session:
        if level not in LEVELS:
            raise TableError(f"there is no computer level {level!r}; choose {', '.join(LEVELS)}")
        session = await self.require(channel_id)
        async with self.lock(session.id):
            session = await self.require(channel_id)
            if session.status != "lobby":
                raise TableError("computer players can only be added before the start")
            if not session.seat_of(user_id):
                raise NotSeated("only seated players can add a computer player; join first")
            taken = {s.name for s in session.seats}
            name = next((n for n in self._computer_names if n not in taken), f"Cpu {len(session.seats) + 1}")
            if not await self.store.add_seat(
                session.id, None, name, limit=session.row.max_players, computer=True, level=level
            ):
                raise TableError(f"the table is full ({session.row.max_players} seats)")
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
                await self.store.finish(
                    session.id, status="abandoned", reason="everyone left the lobby", outcome=None, results=[]
                )
                return None
            await self.store.remove_seat(session.id, seat.join_order)
            return await self.require(channel_id)

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
                    f"{session.info.title} needs at least {session.info.min_players} players; "
                    f"{n} seated (add a computer player or wait for others)"
                )
            module = session.engine
            try:
                config = config_from_options(module.Config, n, session.row.options)
            except SetupError as exc:
                raise TableError(f"these options do not work with {n} players: {exc}") from None
            order = list(range(n))
            rng_for(session.row.seed, "seating").shuffle(order)
            seat_of = {s.join_order: order[i] for i, s in enumerate(session.seats)}
            state = module.new_game(config, n, session.row.seed)
            await self.store.start(session.id, seat_of, options_of(config), module.to_dict(state))
            session = await self.require(channel_id)
            result = MoveResult(session)
            await self._after(session, result)
            return result

    # ----------------------------------------------------------------- moves

    async def legal_moves(self, channel_id: int, user_id: int) -> list[str]:
        """The user's legal moves now, in notation (empty when they may not act)."""
        session = await self.in_channel(channel_id)
        if session is None or session.status != "active":
            return []
        seat = session.seat_of(user_id)
        if seat is None or seat.seat is None or seat.computer:
            return []
        return [str(m) for m in session.engine.legal_moves(session.state, seat.seat)]

    async def play(
        self, channel_id: int, user_id: int, text: str, *, expected_version: int | None = None
    ) -> MoveResult:
        session = await self.require(channel_id)
        return await self.play_in(session.id, user_id, text, expected_version=expected_version)

    async def play_in(
        self, session_id: int, user_id: int, text: str, *, expected_version: int | None = None
    ) -> MoveResult:
        async with self.lock(session_id):
            session = await self.get(session_id)
            if session is None or session.status != "active":
                status = session.status if session else "gone"
                raise TableError(
                    "this game is over"
                    if status in ("finished", "abandoned")
                    else "this game has not started yet"
                    if status == "lobby"
                    else "there is no such game"
                )
            if expected_version is not None and expected_version != session.version:
                raise StaleMove("the board changed since that button was posted; here it is now")
            seat = session.seat_of(user_id)
            if seat is None or seat.seat is None:
                raise NotSeated("you are not playing in this game; you can watch with /game board")
            if seat.computer:
                raise TableError("you resigned from this game; the computer plays your seat now")
            module = session.engine
            move = module.parse_move(text)  # MalformedMove reaches the caller as a MoveError
            new_state, events = module.apply_move(session.state, seat.seat, move)
            played = [Played(seat.seat, str(move), False, tuple(events))]
            try:
                version = await self.store.record_moves(
                    session.id, session.version, [(seat.seat, str(move), False)], module.to_dict(new_state)
                )
            except StaleVersion:
                raise StaleMove("someone else moved first; the board changed, here it is now") from None
            self._cache[session.id] = (version, new_state)
            waiting_before = frozenset(module.to_move(session.state))
            session = await self.get(session.id)
            result = MoveResult(session, played, waiting_before=waiting_before)
            await self._after(session, result)
            return result

    async def _after(self, session: Session, result: MoveResult) -> None:
        """Let computer seats act, then finish the game if it is over (lock held).

        The computers think in a worker thread, so a strong player's search never
        holds up the other games on the event loop."""
        module = session.engine
        levels = {s.seat: s.computer_level for s in session.seats if s.computer and s.seat is not None}
        state, batch, played, failed = await asyncio.to_thread(
            self._computer_turns, module, session.state, levels, session.row.seed, session.version
        )
        result.played.extend(played)
        if failed:
            log.error("computer player failed in session %s", session.id, exc_info=failed)
            result.note = "the computer player could not move; the game waits (ask an admin to check the log)"
        if batch:
            version = await self.store.record_moves(session.id, session.version, batch, module.to_dict(state))
            self._cache[session.id] = (version, state)
            session = await self.get(session.id)
            result.session = session
        outcome = module.outcome(state)
        if outcome is not None:
            await self._finish(session, outcome)
            result.finished = True
            result.outcome = outcome
            result.session = await self.get(session.id)

    def _computer_turns(
        self, module: ModuleType, state: Any, levels: dict[int, str], seed: int, version: int
    ) -> tuple[Any, list[tuple[int, str, bool]], list[Played], BaseException | None]:
        """The computer seats' moves from ``state`` on (run in a worker thread).

        Each computer move is seeded by the game's seed and its move number, so a
        replay chooses the same moves."""
        batch: list[tuple[int, str, bool]] = []
        played: list[Played] = []
        computers = set(levels)
        paced: set[int] = set()
        for _ in range(MAX_COMPUTER_MOVES):
            if module.outcome(state) is not None:
                break
            acting = set(module.to_move(state))
            due = sorted(acting & computers)
            people_acting = bool(acting - computers)
            if people_acting:
                # People and computers act at once (a race): each computer makes one
                # move per move a person makes, so it keeps their pace, not the CPU's.
                due = [s for s in due if s not in paced]
            if not due:
                break
            seat = due[0]
            if people_acting:
                paced.add(seat)
            try:
                legal = list(module.legal_moves(state, seat))
                rng = rng_for(seed, "computer", version + len(batch))
                view = module.view_for(state, seat)
                move = module.computer_move(view, legal, rng, levels[seat], self.computer_seconds)
                state, events = module.apply_move(state, seat, move)
            except Exception as exc:
                return state, batch, played, exc
            batch.append((seat, str(move), True))
            played.append(Played(seat, str(move), True, tuple(events)))
        return state, batch, played, None

    async def _finish(self, session: Session, outcome: Outcome, reason: str | None = None) -> None:
        resigned = {s.seat for s in session.seats if s.resigned}
        ranking = [tuple(s for s in group if s not in resigned) for group in outcome.ranking]
        ranking = [g for g in ranking if g]
        # Resigned seats rank below everyone who stayed, in the engine's order among themselves.
        for group in outcome.ranking:
            left = tuple(s for s in group if s in resigned)
            if left:
                ranking.append(left)
        results = []
        place = 1
        for group in ranking:
            for s in group:
                seat = session.by_seat(s)
                results.append(ResultRow(s, seat.user_id, outcome.scores[s], place, seat.resigned))
            place += len(group)
        await self.store.finish(
            session.id,
            status="finished",
            reason=reason or outcome.reason,
            outcome=outcome.to_dict(),
            results=results,
            rate=rerate,
            names={s.user_id: s.name for s in session.seats if s.user_id is not None},
        )

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
            await self.store.set_seat_flags(session.id, seat.seat, computer=True, resigned=True)
            session = await self.require(channel_id)
            result = MoveResult(session, note=f"{seat.name} resigned")
            staying = [s for s in session.seats if not s.resigned]
            people = [s for s in staying if not s.computer]
            if len(staying) <= 1 or not people:
                await self._end_early(session, staying, "resignation")
                result.finished = True
                result.session = await self.get(session.id)
                result.outcome = Outcome.from_dict(result.session.row.outcome)
                return result
            result.note += "; the computer plays that seat from now on"
            await self._after(session, result)
            return result

    async def _end_early(self, session: Session, staying: list[Seat], why: str) -> None:
        order = [s.seat for s in session.seats if s.resigned]
        ranking = [tuple(sorted(s.seat for s in staying))] if staying else []
        ranking += [(s,) for s in reversed(order)]  # the last to resign ranks highest among them
        n = len(session.seats)
        scores = tuple(1.0 if any(st.seat == s for st in staying) else 0.0 for s in range(n))
        outcome = Outcome(scores, tuple(ranking), f"the game ended by {why}")
        await self._finish(session, outcome, reason=outcome.reason)

    async def abandon(self, channel_id: int, user_id: int, *, can_manage: bool) -> Session:
        session = await self.require(channel_id)
        async with self.lock(session.id):
            session = await self.require(channel_id)
            if user_id != session.row.host_id and not can_manage:
                raise TableError("only the host or someone with Manage Channels can abandon this game")
            await self.store.finish(
                session.id, status="abandoned", reason="abandoned", outcome=None, results=[]
            )
            self._cache.pop(session.id, None)
            return await self.get(session.id)

    # ----------------------------------------------------------------- deadlines

    async def set_timer(
        self, channel_id: int, user_id: int, seconds: float | None, *, can_manage: bool
    ) -> Session:
        """Give the players to move ``seconds`` to act (``None`` or 0: no timer)."""
        session = await self.require(channel_id)
        async with self.lock(session.id):
            session = await self.require(channel_id)
            if user_id != session.row.host_id and not can_manage:
                raise TableError("only the host or someone with Manage Channels can set the turn timer")
            if seconds is not None and seconds < 0:
                raise TableError("the timer cannot be negative")
            await self.store.set_timer(session.id, seconds or None)
            return await self.require(channel_id)

    async def fire_deadline(self, session_id: int, version: int) -> MoveResult | None:
        """Act on a passed deadline, if the session is still where the deadline found it.

        An engine with table moves (``TABLE_MOVES``) gets its first one, a
        round's end for instance; otherwise the computer moves once for every
        person the game is waiting on.  Returns ``None`` when a move made
        meanwhile has already moved the deadline on.
        """
        async with self.lock(session_id):
            session = await self.get(session_id)
            if session is None or session.status != "active" or session.version != version:
                return None
            if session.row.deadline_version != version:
                return None
            module = session.engine
            state = session.state
            batch: list[tuple[int, str, bool]] = []
            played: list[Played] = []
            late = [s for s in session.waiting_on() if not s.computer]
            table_moves = (
                list(module.legal_moves(state, TABLE)) if getattr(module, "TABLE_MOVES", False) else []
            )
            if table_moves:
                move = table_moves[0]
                state, events = module.apply_move(state, TABLE, move)
                batch.append((TABLE, str(move), False))
                played.append(Played(TABLE, str(move), False, tuple(events)))
                note = "⏰ Time is up."
            else:
                for seat in late:
                    if seat.seat not in module.to_move(state):
                        continue
                    legal = list(module.legal_moves(state, seat.seat))
                    if not legal:
                        continue
                    rng = rng_for(session.row.seed, "deadline", version, seat.seat)
                    move = module.computer_move(module.view_for(state, seat.seat), legal, rng)
                    state, events = module.apply_move(state, seat.seat, move)
                    batch.append((seat.seat, str(move), True))
                    played.append(Played(seat.seat, str(move), True, tuple(events)))
                names = ", ".join(s.name for s in late) or "nobody"
                note = f"⏰ Time ran out for {names}; the computer made the move."
            if not batch:
                return None
            new_version = await self.store.record_moves(session.id, version, batch, module.to_dict(state))
            self._cache[session.id] = (new_version, state)
            session = await self.get(session.id)
            result = MoveResult(session, played, note=note)
            await self._after(session, result)
            return result

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
        for row in await self.store.moves(session_id):
            state, _ = module.apply_move(state, row.seat, module.parse_move(row.move))
        return state


__all__ = [
    "MoveError",
    "MoveResult",
    "NoGameHere",
    "NotSeated",
    "Played",
    "Seat",
    "SeatRow",
    "Session",
    "SessionService",
    "StaleMove",
    "TableError",
]
