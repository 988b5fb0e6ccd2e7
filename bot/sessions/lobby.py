"""The lobby: opening a game, joining, computer players, leaving, closing, and the start.

A person's seats are counted against the server's cap (:func:`bot.profiles.admissible`) and
taken under that person's lock in this server (:attr:`Lobby.people`): opening or joining several
tables at once, each is counted with the others.  A server is served by one process (its shard's),
so the lock of the process serving it is the one that counts.

Imports: bot.locks, bot.profiles, bot.sessions.model, bot.sessions.core, bot.sessions.play,
bot.storage, bot.time.gameclock, engines.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace

import engines
from bot import profiles
from bot.locks import KeyedLocks
from bot.sessions.core import LOBBY, RUNNING, Core
from bot.sessions.model import MoveResult, Refusal, Session, StaleMove
from bot.sessions.play import Play
from bot.storage import Body, ChannelBusy, Conflict, SessionRow, StaleVersion
from bot.time import gameclock as gc
from engines.core import (
    DEFAULT_LEVEL,
    LEVELS,
    Engine,
    Said,
    SetupError,
    config_from_options,
    echo,
    new_config_from_options,
    options_of,
    rng_for,
    said,
    said_n,
)

EVERYONE_LEFT = "everyone left the lobby"
"""The reason a lobby ends when its last person leaves (translated in :data:`bot.texts.END_REASONS`)."""


class Lobby:
    """A game before its start."""

    def __init__(self, core: Core, play: Play, computer_names: Sequence[str] | None = None):
        self.core = core
        self.store = core.store
        self.play = play
        self._computer_names = list(
            computer_names or ("Cpu Ada", "Cpu Blaise", "Cpu Carl", "Cpu Dora", "Cpu Emmy")
        )
        # (server, person) -> the lock under which their seats there are counted and taken
        self.people: KeyedLocks[tuple[int | None, int]] = KeyedLocks()

    def check_new(
        self, game: str, options: Mapping[str, object] | None, max_players: int | None
    ) -> tuple[engines.GameInfo, dict[str, object], int]:
        """Validate a new game's options (with the largest table, so a bad option fails at once);
        returns the game, its stored options and the seat limit.  Nothing is written.

        Without ``max_players`` the limit is the most players the options seat (Tiwanaku's short
        board: 2), else the game's most, whose refusal then says why."""
        info = engines.get(game)
        module = info.load()
        options = {k: v for k, v in (options or {}).items() if v is not None}
        limit = info.max_players if max_players is None else max_players
        if max_players is None:
            limit = next(
                (n for n in range(info.max_players, info.min_players - 1, -1) if works(module, n, options)),
                limit,
            )
        if not info.min_players <= limit <= info.max_players:
            raise Refusal(
                "{game} seats {least} to {most} players, not {limit}",
                game=info.title,
                least=info.min_players,
                most=info.max_players,
                limit=limit,
            )
        try:
            config = new_config_from_options(module.Config, limit, options)
        except SetupError as exc:
            raise Refusal(exc.said) from None
        return info, options_of(config), limit

    async def create(
        self,
        game: str,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: Mapping[str, object] | None = None,
        max_players: int | None = None,
        seed: int | None = None,
        lobby_channel_id: int | None = None,
        clock: str | None = None,
        computers: Sequence[str] = (),
        rematch_of: int | None = None,
        capped: bool = True,
    ) -> Session:
        """Open a lobby in ``channel_id`` (a channel or the game's thread; ``lobby_channel_id``:
        the thread's parent channel, where the lobby message is; ``clock``: a clock spec, see
        :mod:`bot.time.gameclock`), with a computer player at each of ``computers`` (levels)
        seated after the host in the same commit (a rematch's): no one joining meanwhile can fill
        the table before them.  ``rematch_of``: the game it plays again, stored with it.
        ``capped``: the host's seat is counted against the server's cap under their lock (the
        queue's tables pass False: the queue admitted their people by its own gate)."""
        if guild_id is None:
            raise Refusal("games are played in a server's channels; open one there")
        _, stored_options, limit = self.check_new(game, options, max_players)
        if 1 + len(computers) > limit:
            raise full_table(limit)
        spec = self.core.check_clock(clock)
        async with self.people((guild_id, host_id)):
            if capped:
                await self.check_host(guild_id, host_id)
            return await self._stored(
                channel_id,
                lambda: self.store.games.create_session(
                    game=game,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    host_id=host_id,
                    host_name=host_name,
                    options=stored_options,
                    max_players=limit,
                    seed=seed if seed is not None else self.core.new_seed(),
                    lobby_channel_id=lobby_channel_id,
                    clock=spec.text if spec else None,
                    timer_seconds=spec.start if spec else None,
                    others=self.computers({host_name}, computers),
                    rematch_of=rematch_of,
                ),
            )

    async def _stored(self, channel_id: int, create: Callable[[], Awaitable[int]]) -> Session:
        """Store a new lobby in ``channel_id`` (``create`` stores it and gives its id), refusing a
        channel that has a live game, before or by the time of the commit."""
        existing = await self.store.games.live_session(channel_id)
        if existing is not None:
            raise Refusal(self.busy_message(existing))
        try:
            sid = await create()
        except ChannelBusy:
            existing = await self.store.games.live_session(channel_id)
            raise Refusal(self.busy_message(existing)) from None
        return await self.core.reread(sid)

    async def create_seated(
        self,
        game: str,
        *,
        guild_id: int,
        channel_id: int,
        people: Sequence[tuple[int, str]],
        computers: int,
        options: Mapping[str, object] | None,
        max_players: int,
        seed: int,
        clock: gc.ClockSpec | None,
        also: Callable[[int], Body[object]],
    ) -> Session:
        """Open a lobby with its seats taken, in one commit (a league's pairing): ``people``
        (user id, name; the first hosts) in order, then ``computers`` computer players, with
        ``also`` (given the new session's id: the league game it plays) in the same transaction.
        A stop before it leaves nothing; after it, a lobby whole and known to its league, which
        :meth:`start` starts."""
        _, stored_options, limit = self.check_new(game, options, max_players)
        (host, host_name), rest = people[0], people[1:]
        bots = self.computers({name for _, name in people}, [DEFAULT_LEVEL] * computers)
        return await self._stored(
            channel_id,
            lambda: self.store.games.create_session(
                game=game,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host,
                host_name=host_name,
                options=stored_options,
                max_players=limit,
                seed=seed,
                clock=clock.text if clock else None,
                timer_seconds=clock.start if clock else None,
                others=[(uid, name, None) for uid, name in rest] + bots,
                also=also,
            ),
        )

    def computers(self, names: set[str], levels: Sequence[str]) -> list[tuple[int | None, str, str | None]]:
        """The seats of computer players at ``levels`` after the people named ``names``: (no user
        id, a name none of them has, the level)."""
        names = set(names)
        seats: list[tuple[int | None, str, str | None]] = []
        for level in levels:
            name = self.computer_name(names)
            names.add(name)
            seats.append((None, name, level))
        return seats

    def computer_name(self, taken: set[str]) -> str:
        """A computer player's name that none of the seats named ``taken`` has: the first of the
        table's computer names free, else "Cpu n" (n from the seat it takes)."""
        free = next((n for n in self._computer_names if n not in taken), None)
        if free is not None:
            return free
        n = len(taken) + 1
        while f"Cpu {n}" in taken:
            n += 1
        return f"Cpu {n}"

    @staticmethod
    def busy_message(existing: SessionRow | None) -> Said:
        if existing is None:
            return said("another game was just opened here; try again")
        return said(
            "this channel already has a {game} game ({status}); finish or {/game abandon} it first, "
            "or open a thread for a second game",
            game=engines.get(existing.game).title,
            status=existing.status,
        )

    async def check_host(self, guild_id: int | None, user_id: int) -> None:
        """Refuse a person who may not open one more table in this server (the cap on running
        games, :func:`bot.profiles.admissible`)."""
        refused = await profiles.admissible(self.store, guild_id, user_id)
        if refused is not None:
            raise Refusal(refused)

    async def join(self, channel_id: int, user_id: int, name: str, *, gated: bool = True) -> Session:
        """Take a seat; unless ``gated`` is False (a league seating its pairing), the server's cap
        on running games and the table's gate must let the person in."""
        async with self.core.acting(user_id, channel=channel_id, need=LOBBY, seated=False) as (session, _):
            if session.seat_of(user_id):
                raise Refusal("you are already seated at this table")
            # counted with the person's other seats being taken in this server (their lock)
            async with self.people((session.row.guild_id, user_id)):
                if gated:
                    refused = await profiles.table_admissible(
                        self.store, session.id, session.row.guild_id, user_id
                    )
                    if refused is not None:
                        raise Refusal(refused)
                try:
                    seated = await self.store.games.add_seat(
                        session.id, user_id, name, limit=session.row.max_players
                    )
                except Conflict:  # seated meanwhile, through another process (the only conflict left)
                    raise Refusal("you are already seated at this table") from None
            if not seated:
                raise await self.not_seated(session)
            return await self.core.require(channel_id)

    async def add_computer(self, channel_id: int, user_id: int, level: str = DEFAULT_LEVEL) -> Session:
        if level not in LEVELS:
            raise Refusal(
                "there is no computer level {level}; choose {levels}",
                level=echo(level),
                levels=", ".join(LEVELS),
            )
        async with self.core.acting(user_id, channel=channel_id, need=LOBBY) as (session, _):
            # named from the seats as the seat is stored (under the lobby's lock): one added
            # meanwhile in another process is not named alike
            if not await self.store.games.add_seat(
                session.id,
                None,
                self.computer_name,
                limit=session.row.max_players,
                computer=True,
                level=level,
            ):
                raise await self.not_seated(session)
            return await self.core.require(channel_id)

    async def not_seated(self, session: Session) -> Refusal:
        """Why no seat was taken at ``session``'s lobby: read again, for another process may have
        changed it meanwhile: the table is full, or the game started or closed."""
        now = await self.core.get(session.id)
        if now is None or now.status == LOBBY:
            return full(now or session)
        if now.status == RUNNING:
            return Refusal("this game has already started")
        return Refusal("this game is over")

    async def leave(self, channel_id: int, user_id: int) -> Session | None:
        """Leave a lobby.  When the host leaves an otherwise empty lobby it closes; else the person
        seated first after them hosts it (the lobby says so, and they are told when it fills)."""
        async with self.core.acting(user_id, channel=channel_id, need=LOBBY) as (session, seat):
            humans = [s for s in session.seats if not s.computer and s.user_id != user_id]
            if not humans:
                await self.store.games.finish(
                    session.id, status="abandoned", reason=EVERYONE_LEFT, outcome=None, results=[]
                )
                self.core.release(session.id)
                self.core.ended(session.row)
                return None
            host = humans[0].user_id if user_id == session.row.host_id else None
            await self.store.games.remove_seat(session.id, seat.join_order, host_id=host)
            self.core.ended(session.row, self.core.on_freed)  # (their seat no longer counts under the cap)
            return await self.core.require(channel_id)

    async def close_lobby(self, session_id: int, reason: str) -> None:
        """Close a lobby that could not be set up (its thread was refused); nothing was played."""
        async with self.core.lock(session_id):
            session = await self.core.get(session_id)
            if session is not None and session.status == "lobby":
                await self.store.games.finish(
                    session_id, status="abandoned", reason=reason, outcome=None, results=[]
                )
                self.core.release(session_id)
                self.core.ended(session.row)

    async def start(
        self,
        channel_id: int,
        user_id: int,
        *,
        keep_order: bool = False,
        posted: bool = False,
        paired: Mapping[int, int] | None = None,
    ) -> MoveResult:
        """Start the game in the channel: seats are drawn from the game's seed, or, with
        ``keep_order`` or a game whose engine sets ``SEATED_AS_JOINED`` (everyone plays at once, and
        options name seats by the lobby's numbers), given in the order the players joined (a
        league's pairing chose them); ``paired`` (each lobby seat's game seat, by its join order: a
        league's pairing with a computer where a dropped player was paired) gives them as it says,
        when it names every seat once.  ``posted``: the caller posts the first board with the
        table's board posts, so a computer that searches moves after it (``computers_next``).
        Refused while one of :attr:`Core.start_checks` says why it may not start yet."""
        async with self.core.acting(user_id, channel=channel_id, need=LOBBY) as (session, _):
            for check in self.core.start_checks:  # (the queue's table waiting for confirmations)
                refused = await check(session)
                if refused is not None:
                    raise Refusal(refused)
            n = len(session.seats)
            if n < session.info.min_players:
                raise Refusal(
                    said_n(
                        session.info.min_players,
                        "{game} needs at least {n} player; {seated} (add a computer player or wait for others)",
                        "{game} needs at least {n} players; {seated} (add a computer player or wait for others)",
                        game=session.info.title,
                        seated=said_n(n, "{n} seated", "{n} seated"),
                    )
                )
            module = session.engine
            try:
                config = config_from_options(module.Config, n, session.row.options)
            except SetupError as exc:
                raise too_few_for_options(session, n, exc) from None
            order = list(range(n))
            if not (keep_order or getattr(module, "SEATED_AS_JOINED", False)):
                rng_for(session.row.seed, "seating").shuffle(order)
            seat_of = {s.join_order: order[i] for i, s in enumerate(session.seats)}
            if (
                paired is not None
                and set(paired) == set(seat_of)
                and sorted(paired.values()) == list(range(n))
            ):
                seat_of = dict(paired)
            state = module.new_game(config, n, session.row.seed)
            seats = sorted(
                (replace(s, seat=seat_of[s.join_order]) for s in session.seats), key=lambda s: s.seat or 0
            )
            started = Session(row=session.row, seats=seats, info=session.info, state=state)
            clock = await self.core.clock_at_start(started)
            try:  # only the seats numbered here: a change stored meanwhile elsewhere refuses it
                row = await self.store.games.start(
                    session.id,
                    seat_of,
                    options_of(config),
                    module.to_dict(state),
                    clock,
                    expected_version=session.version,
                )
            except StaleVersion:
                raise StaleMove(
                    "the lobby changed as the game was starting (someone joined or left, or it started "
                    "already); nothing was started: start again"
                ) from None
            # The commit hands back the row as committed, with the seats as numbered here: no read
            # is needed to post the first board (a read that failed would leave it unposted).
            session = Session(row=row, seats=seats, info=session.info, state=state, damaged=row.damaged)
            self.core.remember(session.id, row.version, state)
            self.core.keep(row, seats)
            result = MoveResult(session, turn_before=module.turn_number(state))
            await self.play.settle(
                session, result, searches_wait=posted and self.core.computers_wait, at_once=True
            )
            return result


def too_few_for_options(session: Session, n: int, problem: SetupError) -> Refusal:
    """The refusal to start ``n`` players with options made for more (they were checked with every
    seat of the lobby taken, so more players let it start): how many they need, and the ways on."""
    module = session.engine
    needed = next(
        (m for m in range(n + 1, session.row.max_players + 1) if works(module, m, session.row.options)),
        None,
    )
    if needed is None:  # no table the lobby seats would do (options stored before a change)
        return Refusal(
            said_n(
                n,
                "these options do not work with {n} player: {problem}; press {button Leave} to close "
                "this lobby and open a new one with other options",
                "these options do not work with {n} players: {problem}; press {button Leave} to close "
                "this lobby and open a new one with other options",
                problem=problem.said,
            )
        )
    return Refusal(
        said_n(
            n,
            "these options do not work with {n} player ({problem}): they need {needed} players. Let more "
            "join, or press {button Add computer}; or press {button Leave} to close this lobby and open a "
            "new one with other options",
            "these options do not work with {n} players ({problem}): they need {needed} players. Let more "
            "join, or press {button Add computer}; or press {button Leave} to close this lobby and open a "
            "new one with other options",
            problem=problem.said,
            needed=needed,
        )
    )


def works(module: Engine, players: int, options: Mapping[str, object]) -> bool:
    """Whether ``options`` make a game of ``players``."""
    try:
        config_from_options(module.Config, players, options)
    except SetupError:
        return False
    return True


def full(session: Session) -> Refusal:
    """The refusal of a seat at a full table."""
    return full_table(session.row.max_players)


def full_table(seats: int) -> Refusal:
    return Refusal(said_n(seats, "the table is full ({n} seat)", "the table is full ({n} seats)"))
