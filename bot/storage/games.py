"""Games: sessions, their seats, the move commit, deadlines, the channel's board, and the end.

A session's deadline job (kind :data:`DEADLINE`) is armed in the transaction that changes its
version, so a deadline always belongs to the version it was set for.  The move commit's body
(:func:`commit_body`) is shared; each back end runs it in one trip (``commit_moves`` /
``commit_play``).  Finishing a game records its results, ratings (:mod:`bot.storage.ratings`) and
league result (:mod:`bot.storage.leagues`) in one transaction.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence

from bot.storage.base import (
    ARM_SQL,
    SEATS_SQL,
    SESSION_COLUMNS,
    Backend,
    Body,
    ChannelBusy,
    Clocked,
    Concern,
    Conflict,
    Job,
    NewMove,
    ResultRow,
    Row,
    SeatRow,
    SessionRow,
    StaleVersion,
    all_,
    dump_json,
    fits,
    job_json,
    many,
    need_guild,
    one,
    run,
    seat_of,
    session_of,
    stored_seconds,
    the_one,
)
from bot.storage.leagues import Leagues
from bot.storage.ratings import Moved, Ratings
from bot.time.jobs import DEADLINE


def arm(session_id: int, version: int, timer: float | None, now: float, stamp: str) -> Body[None]:
    """Set the session's deadline job for ``version`` from its timer (none without a timer)."""
    if timer:
        yield from run(ARM_SQL, DEADLINE, str(session_id), now + timer, job_json({"version": version}), stamp)
    else:
        yield from disarm(session_id)


def disarm(session_id: int) -> Body[None]:
    yield from run("DELETE FROM jobs WHERE kind = ? AND key = ?", DEADLINE, str(session_id))


def touch(session_id: int, stamp: str) -> Body[None]:
    yield from run(
        "UPDATE sessions SET version = version + 1, updated_at = ? WHERE id = ?", stamp, session_id
    )


def flag_seats(session_id: int, flags: Mapping[int, tuple[bool, bool]]) -> Body[None]:
    """Set each engine seat's flags (seat -> (played by the computer, resigned)).  A resignation
    keeps how many moves the log held when it came (the first one, for a seat set again): the
    computer's moves for the seat up to it were its person's missed turns (bot.profiles.reckon)."""
    yield from many(
        "UPDATE seats SET is_computer = ?, resigned = ?, resigned_after = CASE WHEN ? = 1 THEN"
        " COALESCE(resigned_after, (SELECT COALESCE(MAX(number), 0) FROM moves WHERE session_id = ?))"
        " ELSE NULL END WHERE session_id = ? AND seat = ?",
        [
            (int(computer), int(resigned), int(resigned), session_id, session_id, seat)
            for seat, (computer, resigned) in flags.items()
        ],
    )


def taken_over(session_id: int, late: Mapping[int, bool]) -> Body[None]:
    """The table takes each seat in ``late`` (seat -> whether the game waited on it) over for good:
    keeps how many moves the log held then, which tells its person's turns (bot.profiles.reckon)."""
    yield from many(
        "UPDATE seats SET taken_late = CASE WHEN taken_after IS NULL THEN ? ELSE taken_late END,"
        " taken_after = COALESCE(taken_after,"
        " (SELECT COALESCE(MAX(number), 0) FROM moves WHERE session_id = ?))"
        " WHERE session_id = ? AND seat = ?",
        [(int(was_late), session_id, session_id, seat) for seat, was_late in late.items()],
    )


def seats_changed(
    session_id: int, clock: Clocked | None, stamp: str, expected_version: int | None
) -> Body[Row]:
    """A seat change's version bump (once), with ``clock``'s running clocks and delay to the next
    deadline; with ``expected_version``, only if the session is still at it (else
    :class:`StaleVersion`, nothing written).  (The new version, the delay stored.)"""
    changed = "version = version + 1, updated_at = ?"
    values: list[str | float | None] = [stamp]
    if clock is not None:
        changed += ", clock_state = ?, timer_seconds = ?"
        values += [dump_json(clock[0]), stored_seconds(clock[1])]
    check = "" if expected_version is None else " AND version = ?"
    extra = () if expected_version is None else (expected_version,)
    row = yield from one(
        f"UPDATE sessions SET {changed} WHERE id = ?{check} RETURNING version, timer_seconds",
        *values,
        session_id,
        *extra,
    )
    if row is None:
        current = yield from one("SELECT version FROM sessions WHERE id = ?", session_id)
        raise StaleVersion(current[0] if current else -1)
    return row


def clock_body(
    session_id: int,
    version: int,
    state: Mapping[str, object],
    timer: float | None,
    now: float,
    stamp: str,
) -> Body[None]:
    """A move's clock update, inside the move's transaction: the running clocks and the deadline."""
    yield from run(
        "UPDATE sessions SET clock_state = ?, timer_seconds = ? WHERE id = ?",
        json.dumps(state),
        stored_seconds(timer),
        session_id,
    )
    yield from arm(session_id, version, stored_seconds(timer), now, stamp)


def commit_body(
    session_id: int,
    expected_version: int,
    moves: list[NewMove],
    state: Mapping[str, object],
    job: Job | None,
    stamp: str,
    now: float,
    clock: Clocked | None = None,
) -> Body[int]:
    """The move commit as one transaction body (the SQLite back end runs it in one call).

    Two statements when all goes well: the version bump (refused unless the session is
    still at ``expected_version``) and the log rows, each numbered after the last; then
    the claimed deadline is consumed and the next one armed, when there are such.
    (Without a timer a session has no deadline job: setting the timer to none drops it.)
    """
    new_version = expected_version + len(moves)
    row = yield from one(
        "UPDATE sessions SET state = ?, version = ?, updated_at = ?"
        " WHERE id = ? AND version = ? AND status = 'active' RETURNING timer_seconds",
        json.dumps(state),
        new_version,
        stamp,
        session_id,
        expected_version,
    )
    if row is None:
        current = yield from one("SELECT version FROM sessions WHERE id = ?", session_id)
        raise StaleVersion(current[0] if current else -1)
    if job is not None:
        gone = yield from run("DELETE FROM jobs WHERE id = ? AND claim = ?", job.id, job.claim)
        if gone != 1:
            raise StaleVersion(expected_version)
    yield from many(
        "INSERT INTO moves (session_id, number, seat, move, by_computer, created_at, events, privacy, turn)"
        " SELECT ?, COALESCE(MAX(number), 0) + 1, ?, ?, ?, ?, ?, ?, ? FROM moves WHERE session_id = ?",
        [
            (
                session_id,
                m.seat,
                m.move,
                int(m.by_computer),
                stamp,
                dump_json(m.events),
                dump_json(m.privacy),
                m.turn,
                session_id,
            )
            for m in moves
        ],
    )
    if clock is not None:
        yield from clock_body(session_id, new_version, clock[0], clock[1], now, stamp)
    elif row[0]:
        yield from arm(session_id, new_version, row[0], now, stamp)
    return new_version


class Games(Concern):
    """Sessions, seats, moves committed, deadlines and the end of a game.  Finishing runs the
    ratings' and the leagues' statements in the same transaction."""

    def __init__(self, db: Backend, ratings: Ratings, leagues: Leagues):
        super().__init__(db)
        self.ratings = ratings
        self.leagues = leagues

    async def create_session(
        self,
        *,
        game: str,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: Mapping[str, object],
        max_players: int,
        seed: int,
        lobby_channel_id: int | None = None,
        clock: str | None = None,
        timer_seconds: float | None = None,
        others: Sequence[tuple[int | None, str, str | None]] = (),
        also: Callable[[int], Body[object]] | None = None,
        rematch_of: int | None = None,
    ) -> int:
        """A new lobby (``clock``: its game clock's spec, ``timer_seconds``: the first turn's delay).
        ``others`` (user id, name, computer level; a computer player has no user id and a level)
        take the seats after the host's, in order, and ``also`` (given the new session's id: the
        league game it plays) runs in the same transaction: the lobby is never stored half
        seated, nor without what it is for.  ``rematch_of``: the game it plays again."""
        need_guild(guild_id)
        stamp = self.clock.stamp()

        def body() -> Body[int]:
            row = yield from the_one(
                "INSERT INTO sessions (game, guild_id, channel_id, host_id, status, options, max_players,"
                " seed, created_at, updated_at, lobby_channel_id, clock, timer_seconds, rematch_of)"
                " VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                game,
                guild_id,
                channel_id,
                host_id,
                json.dumps(options),
                max_players,
                seed,
                stamp,
                stamp,
                lobby_channel_id,
                clock,
                None if timer_seconds is None else float(timer_seconds),
                rematch_of,
            )
            yield from run(
                "INSERT INTO seats (session_id, join_order, user_id, display_name) VALUES (?, 0, ?, ?)",
                row[0],
                host_id,
                host_name,
            )
            yield from many(
                "INSERT INTO seats (session_id, join_order, user_id, display_name, is_computer, computer_level)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (row[0], i, uid, name, int(uid is None), level)
                    for i, (uid, name, level) in enumerate(others, 1)
                ],
            )
            if also is not None:
                yield from also(row[0])
            return row[0]

        try:
            return await self.db.transact(body())
        except Conflict:
            raise ChannelBusy() from None

    async def session(self, session_id: int) -> SessionRow | None:
        if not fits(session_id):
            return None
        row = await self.db.one("SELECT * FROM sessions WHERE id = ?", session_id)
        return session_of(row) if row else None

    async def live_session(self, channel_id: int) -> SessionRow | None:
        if not fits(channel_id):
            return None
        row = await self.db.one(
            "SELECT * FROM sessions WHERE channel_id = ? AND status IN ('lobby', 'active')", channel_id
        )
        return session_of(row) if row else None

    async def last_session(self, channel_id: int) -> SessionRow | None:
        """The newest session in a channel, live or ended: a finished game stays visible to
        /game status, log and board until a new one opens there."""
        if not fits(channel_id):
            return None
        row = await self.db.one(
            "SELECT * FROM sessions WHERE channel_id = ? ORDER BY id DESC LIMIT 1", channel_id
        )
        return session_of(row) if row else None

    async def live_in_threads_of(self, channel_id: int, limit: int = 5) -> list[SessionRow]:
        """The lobbies and games opened in a channel and played in their own threads (their lobby
        message is in the channel), the newest first."""
        if not fits(channel_id):
            return []
        rows = await self.db.all(
            "SELECT * FROM sessions WHERE lobby_channel_id = ? AND channel_id <> lobby_channel_id"
            " AND status IN ('lobby', 'active') ORDER BY id DESC LIMIT ?",
            channel_id,
            limit,
        )
        return [session_of(r) for r in rows]

    async def load(
        self, *, session_id: int | None = None, channel_id: int | None = None
    ) -> tuple[SessionRow, list[SeatRow]] | None:
        """A session (by id, or the live one in a channel) with its seats, read in one trip."""
        key = session_id if session_id is not None else channel_id
        if key is None or not fits(key):
            return None

        where = (
            "s.id = ?" if session_id is not None else "s.channel_id = ? AND s.status IN ('lobby', 'active')"
        )
        rows = await self.db.read_small(
            all_(
                "SELECT s.*, st.join_order, st.seat, st.user_id, st.display_name, st.is_computer,"
                " st.resigned, st.computer_level"
                f" FROM sessions s LEFT JOIN seats st ON st.session_id = s.id WHERE {where}"
                " ORDER BY COALESCE(st.seat, st.join_order), st.join_order",
                key,
            )
        )
        if not rows:
            return None
        return session_of(rows[0]), [seat_of(r) for r in rows if r["join_order"] is not None]

    async def live_sessions(self, guild_id: int | None) -> list[SessionRow]:
        """The server's lobbies and running games; a missing server id is refused (ValueError)."""
        rows = await self.db.all(
            "SELECT * FROM sessions WHERE guild_id = ? AND status IN ('lobby', 'active') ORDER BY id",
            need_guild(guild_id),
        )
        return [session_of(r) for r in rows]

    async def ended_untold(self, guild_id: int | None, since: str) -> list[SessionRow]:
        """The server's games that ended at ``since`` or later (a stamp) whose end the channel was
        never told of (the bot stopped first): a finished game's last board was not posted, whether
        a move ended it or not (a resignation, a clock, a league's deadline), or its results card
        was not, or an abandon was not told."""
        rows = await self.db.all(
            "SELECT * FROM sessions s WHERE s.guild_id = ? AND s.status IN ('finished', 'abandoned')"
            " AND s.finished_at >= ? AND (s.end_told = 0 OR (s.status = 'finished' AND s.end_told = 1))"
            " ORDER BY s.id",
            need_guild(guild_id),
            since,
        )
        return [session_of(r) for r in rows]

    async def sessions_of(self, user_id: int) -> list[tuple[SessionRow, list[SeatRow]]]:
        """Every live session (lobby or game, every server) where the person sits and has not
        resigned, with its seats, in one query."""
        if not fits(user_id):
            return []
        rows = await self.db.all(
            "SELECT s.*, st.join_order, st.seat, st.user_id AS seat_user, st.display_name, st.is_computer,"
            " st.resigned FROM sessions s JOIN seats st ON st.session_id = s.id"
            " WHERE s.status IN ('lobby', 'active') AND s.id IN (SELECT session_id FROM seats"
            " WHERE user_id = ? AND resigned = 0)"
            " ORDER BY s.id, COALESCE(st.seat, st.join_order), st.join_order",
            user_id,
        )
        out: dict[int, tuple[SessionRow, list[SeatRow]]] = {}
        for r in rows:
            if r["id"] not in out:
                out[r["id"]] = (session_of(r), [])
            out[r["id"]][1].append(
                SeatRow(
                    r["join_order"],
                    r["seat"],
                    r["seat_user"],
                    r["display_name"],
                    bool(r["is_computer"]),
                    bool(r["resigned"]),
                )
            )
        return list(out.values())

    async def mark_damaged(self, session_id: int, reason: str) -> bool:
        """Mark a session damaged (its deadline cleared, its version bumped, so that no copy read
        before can commit a move); False when it already was."""
        stamp = self.clock.stamp()

        def body() -> Body[bool]:
            changed = yield from run(
                "UPDATE sessions SET damaged = ?, damaged_at = ?, version = version + 1"
                " WHERE id = ? AND damaged IS NULL",
                reason[:500],
                stamp,
                session_id,
            )
            yield from disarm(session_id)
            return changed == 1

        return await self.db.transact(body())

    async def seats(self, session_id: int) -> list[SeatRow]:
        return [seat_of(r) for r in await self.db.all(SEATS_SQL, session_id)]

    async def add_seat(
        self,
        session_id: int,
        user_id: int | None,
        name: str | Callable[[set[str]], str],
        *,
        limit: int,
        computer: bool = False,
        level: str | None = None,
    ) -> bool:
        """Seat a player (a computer at ``level``) in a lobby, in the seat after the last; False when
        the lobby is full or not open.  A seat taken meanwhile by another process is counted: the
        lobby's row lock holds this transaction until that one's commit, so two people joining at
        once in two processes take two seats (or the second finds the table full), never the same
        one.  A person seated meanwhile (by another process) raises :class:`Conflict`.  ``name``
        may be a function, given the names seated as read under that lock, that chooses the new
        seat's (a computer's, so two added at once in two processes are not named alike)."""
        stamp = self.clock.stamp()

        def body() -> Body[bool]:
            yield from self.db.session_lock(session_id)
            row = yield from one("SELECT status FROM sessions WHERE id = ?", session_id)
            if row is None or row[0] != "lobby":
                return False
            seated = yield from all_(
                "SELECT join_order, display_name FROM seats WHERE session_id = ?", session_id
            )
            if len(seated) >= limit:
                return False
            yield from run(
                "INSERT INTO seats (session_id, join_order, user_id, display_name, is_computer, computer_level)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                session_id,
                max((r[0] for r in seated), default=-1) + 1,
                user_id,
                name if isinstance(name, str) else name({r[1] for r in seated}),
                int(computer),
                level,
            )
            yield from touch(session_id, stamp)
            return True

        return await self.db.transact(body())

    async def remove_seat(self, session_id: int, join_order: int, *, host_id: int | None = None) -> None:
        """Free a lobby's seat; ``host_id``: the lobby's new host (its host left), in the same commit."""
        stamp = self.clock.stamp()

        def body() -> Body[None]:
            yield from run(
                "DELETE FROM seats WHERE session_id = ? AND join_order = ?", session_id, join_order
            )
            if host_id is not None:
                yield from run("UPDATE sessions SET host_id = ? WHERE id = ?", host_id, session_id)
            yield from touch(session_id, stamp)

        await self.db.transact(body())

    async def set_lobby_message(self, session_id: int, message_id: int | None) -> None:
        await self.db.change("UPDATE sessions SET lobby_message_id = ? WHERE id = ?", message_id, session_id)

    async def end_told(self, session_id: int) -> None:
        """The channel was told that the game ended (an abandon: the last board tells a finished
        game's end, see :meth:`set_board_message`)."""
        await self.db.transact(self.telling_end(session_id))

    @staticmethod
    def telling_end(session_id: int) -> Body[int]:
        """The statement of :meth:`end_told`, for a transaction of its own or another's (the one
        that drops the ``board`` job's claim held while the abandon was told)."""
        return run("UPDATE sessions SET end_told = 1 WHERE id = ? AND end_told = 0", session_id)

    async def card_told(self, session_id: int) -> bool:
        """Mark the finished game's results card as posted (``end_told`` 2), once Discord took it
        (the post holds the game's ``board`` job meanwhile: :meth:`bot.surface.boards.Boards.card`);
        False when it was marked already."""
        changed = await self.db.change(
            "UPDATE sessions SET end_told = 2 WHERE id = ? AND end_told < 2", session_id
        )
        return changed == 1

    async def set_board_message(
        self,
        session_id: int,
        message_id: int,
        told_through: int,
        *,
        end_told: bool = False,
        also: Body[object] | None = None,
    ) -> int | None:
        """Record the newly posted board and the last move it told (``end_told``: it told the
        game's end); returns the board it replaces.  ``also``: statements run in the same
        transaction (the job that tells what follows the board, armed as it is recorded).

        ``told_through`` never goes back (two posts racing keep the larger), nor does ``end_told``.
        """

        def body() -> Body[int | None]:
            row = yield from one("SELECT board_message_id FROM sessions WHERE id = ?", session_id)
            yield from run(
                "UPDATE sessions SET board_message_id = ?,"
                " told_through = CASE WHEN told_through > ? THEN told_through ELSE ? END,"
                " end_told = CASE WHEN ? = 1 AND end_told = 0 THEN 1 ELSE end_told END WHERE id = ?",
                message_id,
                told_through,
                told_through,
                int(end_told),
                session_id,
            )
            if also is not None:
                yield from also
            return row[0] if row else None

        return await self.db.transact(body())

    async def start(
        self,
        session_id: int,
        seat_of: dict[int, int],
        options: Mapping[str, object],
        state: dict[str, object],
        clock: Clocked | None = None,
        *,
        expected_version: int | None = None,
    ) -> SessionRow:
        """Lobby -> active in one transaction: assign engine seats (join_order -> seat), store the
        first snapshot and, for a clocked game, its running clocks and the delay to the first
        deadline; the row as committed (StaleVersion: no longer a lobby, or, with
        ``expected_version``, no longer at it: a seat was taken or given up since ``seat_of`` was
        drawn)."""
        stamp, now = self.clock.stamp(), self.clock.time()
        started = (
            "status = 'active', options = ?, state = ?, version = version + 1, updated_at = ?, started_at = ?"
        )
        values: list[str | float | None] = [json.dumps(options), json.dumps(state), stamp, stamp]
        if clock is not None:
            started += ", clock_state = ?, timer_seconds = ?"
            values += [dump_json(clock[0]), stored_seconds(clock[1])]

        check = "" if expected_version is None else " AND version = ?"
        extra = () if expected_version is None else (expected_version,)

        def body() -> Body[SessionRow]:
            row = yield from one(
                f"UPDATE sessions SET {started} WHERE id = ? AND status = 'lobby'{check}"
                " RETURNING version, timer_seconds",
                *values,
                session_id,
                *extra,
            )
            if row is None:
                raise StaleVersion(-1)
            yield from many(
                "UPDATE seats SET seat = ? WHERE session_id = ? AND join_order = ?",
                [(seat, session_id, join_order) for join_order, seat in seat_of.items()],
            )
            yield from arm(session_id, row[0], row[1], now, stamp)
            stored = yield from the_one(f"SELECT {SESSION_COLUMNS} FROM sessions WHERE id = ?", session_id)
            return session_of(stored, state)

        return await self.db.transact(body())

    async def set_clock(
        self,
        session_id: int,
        clock: str | None,
        state: Mapping[str, object] | None,
        timer: float | None,
        *,
        expected_version: int | None = None,
        jobs: Sequence[tuple[str, str, float, Mapping[str, object]]] = (),
    ) -> bool:
        """Set the game clock (its spec and running clocks) and the delay to the next deadline,
        re-armed from now when the game runs (``timer`` None: no deadline).  With
        ``expected_version``, nothing changes unless the session is still at it (False).
        ``jobs`` (kind, key, due time, payload) are armed in the same transaction, so that what
        the clocks now wait on (the job ending a timeout question) is never lost with a restart.

        The version is bumped when the spec or the running clocks change (a move computes the
        clocks from them); a deadline moved on with the clocks as they were (time away) keeps
        it, so the buttons on the board stay good."""
        stamp, now = self.clock.stamp(), self.clock.time()
        dumped = dump_json(state)

        def body() -> Body[bool]:
            check = "" if expected_version is None else " AND version = ?"
            extra = () if expected_version is None else (expected_version,)
            row = yield from one(
                "UPDATE sessions SET clock = ?, clock_state = ?, timer_seconds = ?,"
                " version = CASE WHEN COALESCE(clock, '') = COALESCE(?, '')"
                " AND COALESCE(clock_state, '') = COALESCE(?, '') THEN version ELSE version + 1 END"
                " WHERE id = ?" + check + " RETURNING version, status",
                clock,
                dumped,
                stored_seconds(timer),
                clock,
                dumped,
                session_id,
                *extra,
            )
            if row is None:
                return False
            if row[1] == "active":
                yield from arm(session_id, row[0], stored_seconds(timer), now, stamp)
                for kind, key, due, payload in jobs:
                    yield from run(ARM_SQL, kind, key, due, json.dumps(payload), stamp)
            return True

        return await self.db.transact(body())

    async def record_moves(
        self,
        session_id: int,
        expected_version: int,
        moves: Iterable[NewMove | tuple[int, str, bool]],
        state: Mapping[str, object],
        *,
        job: Job | None = None,
        clock: Clocked | None = None,
    ) -> int:
        """Append moves and the new snapshot atomically, in one trip to the database.

        Each move is a :class:`NewMove` (with its events and privacy mark) or a bare
        ``(seat, text, by_computer)`` tuple, stored without them.  Raises
        :class:`StaleVersion` when the session is no longer at ``expected_version`` (or,
        with ``job``, when that claimed job is no longer there: another process fired it,
        or a move re-armed it); nothing is written then.  The claimed ``job`` is consumed
        in the same transaction.  Returns the new version; the turn deadline is re-armed
        for it.  ``clock`` (a clocked game): the running clocks after these moves and the
        delay to the next deadline, written in the same transaction.
        """
        rows = [m if isinstance(m, NewMove) else NewMove(*m) for m in moves]
        return await self.db.commit_moves(session_id, expected_version, rows, state, job, clock)

    async def play_moves(
        self,
        session_id: int,
        expected_version: int,
        moves: Iterable[NewMove],
        state: dict[str, object],
        *,
        clock: Clocked | None = None,
    ) -> SessionRow:
        """:meth:`record_moves` (without a job) that hands back the session's row as committed, read
        in the same transaction and the same trip, so that a move needs no second read to be
        posted: its version, deadline, clocks, board message and the rest as they are now, and
        ``state`` as its saved state (the very object given, not a copy read back)."""
        return await self.db.commit_play(session_id, expected_version, list(moves), state, clock)

    async def set_seat_flags(
        self, session_id: int, seat: int, *, computer: bool, resigned: bool, clock: Clocked | None = None
    ) -> SessionRow:
        """Mark an engine seat as played by the computer and/or resigned, bumping the version, with
        (``clock``) the running clocks and the delay to the next deadline as they become; the row
        as committed."""
        return await self.set_seats(session_id, {seat: (computer, resigned)}, clock=clock)

    async def set_seats(
        self,
        session_id: int,
        flags: Mapping[int, tuple[bool, bool]],
        *,
        clock: Clocked | None = None,
        expected_version: int | None = None,
        also: Body[object] | None = None,
        jobs: Sequence[tuple[str, str, float, Mapping[str, object]]] = (),
        taken: Mapping[int, bool] | None = None,
    ) -> SessionRow:
        """Set each engine seat's flags in ``flags`` (seat -> (played by the computer, resigned))
        and, with ``clock``, the running clocks and the delay to the next deadline as they become,
        in one transaction that bumps the version once and arms the deadline again: a seat change
        and its clocks are never stored one without the other.  With ``expected_version``,
        nothing is written unless the session is still at it (:class:`StaleVersion`).  ``also``:
        statements that belong to the change (a league's record of it), run in the same
        transaction (an error there stores none of it); ``jobs`` (kind, key, due time, payload)
        are armed in it too; ``taken``: the seats the table takes over for the rest of the game
        (:func:`taken_over`).  The row as committed."""
        stamp, now = self.clock.stamp(), self.clock.time()

        def body() -> Body[SessionRow]:
            row = yield from seats_changed(session_id, clock, stamp, expected_version)
            yield from flag_seats(session_id, flags)
            if taken:
                yield from taken_over(session_id, taken)
            yield from arm(session_id, row[0], row[1], now, stamp)
            if also is not None:
                yield from also
            for kind, key, due, payload in jobs:
                yield from run(ARM_SQL, kind, key, due, json.dumps(payload), stamp)
            stored = yield from the_one(
                f"SELECT {SESSION_COLUMNS}, state FROM sessions WHERE id = ?", session_id
            )
            return session_of(stored)

        return await self.db.transact(body())

    async def finish(
        self,
        session_id: int,
        *,
        status: str,
        reason: str,
        outcome: Mapping[str, object] | None,
        results: Sequence[ResultRow],
        rated: bool = False,
        names: dict[int, str] | None = None,
        tell: bool = False,
        seats: Mapping[int, tuple[bool, bool]] | None = None,
        clock: Clocked | None = None,
        league_forfeit: bool = False,
        also: Body[object] | None = None,
        expected_version: int | None = None,
    ) -> bool:
        """Active or lobby -> finished or abandoned, with the results recorded; False (nothing
        written) when the session had ended already (in another process: a game abandoned there
        while its last move was played here is neither rated nor given results), or, with
        ``expected_version``, when it is no longer at that version (an answer judged on the game as
        it was, and something else decided meanwhile).

        A finished game's end is to be told (its last board); an abandoned one's only with
        ``tell`` (the channel is told it was abandoned: see :meth:`end_told`), else it counts as
        told (a lobby that closed, a channel deleted, a game its league gave up on).

        With ``rated``, the players' current ratings are read and the new ones
        (:func:`bot.ratings.rerate`) written in the same transaction (no other transaction rates
        the same server's game meanwhile, in any process), so two games ending at once cannot lose
        an update; each rated person's rating before and after is kept with the results.

        ``seats`` (seat -> (played by the computer, resigned)) and ``clock`` (the running clocks)
        are the change that ends the game (a resignation), written in the same transaction: the
        game never keeps the change without its end, nor ends without it.  ``league_forfeit``: a
        league game the table could not run (damaged) ends as one it could not open (see
        :meth:`Leagues.record_forfeit`), in the same transaction.  ``also``: statements that
        belong to the end (a league's record of why it ended), in the same transaction too (not
        run when the session had ended already).
        """
        if status not in ("finished", "abandoned"):
            raise ValueError(status)
        stamp = self.clock.stamp()
        check = "" if expected_version is None else " AND version = ?"
        extra = () if expected_version is None else (expected_version,)

        def body() -> Body[bool]:
            ended = yield from run(
                "UPDATE sessions SET status = ?, end_reason = ?, outcome = ?, finished_at = ?, updated_at = ?,"
                " end_told = ?, version = version + 1 WHERE id = ? AND status IN ('lobby', 'active')" + check,
                status,
                reason,
                dump_json(outcome) if outcome else None,
                stamp,
                stamp,
                int(status == "abandoned" and not tell),
                session_id,
                *extra,
            )
            if not ended:
                return False
            if seats:
                yield from flag_seats(session_id, seats)
            if clock is not None:
                yield from run(
                    "UPDATE sessions SET clock_state = ?, timer_seconds = ? WHERE id = ?",
                    dump_json(clock[0]),
                    stored_seconds(clock[1]),
                    session_id,
                )
            moved: Moved = {}
            if rated:
                moved = yield from self.ratings.rate(session_id, results, names or {}, stamp)
                yield from self.ratings.rate_season(session_id, results, names or {}, stamp)
            yield from disarm(session_id)
            yield from many(
                "INSERT INTO results (session_id, seat, user_id, score, place, resigned, rating_before,"
                " rating_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        session_id,
                        r.seat,
                        r.user_id,
                        None if r.score is None else float(r.score),
                        r.place,
                        int(r.resigned),
                        *moved.get(r.user_id or 0, (None, None)),
                    )
                    for r in results
                ],
            )
            if also is not None:  # before the league result, which reads what it wrote
                yield from also
            yield from self.leagues.record_result(session_id, status, results, forfeit=league_forfeit)
            return True

        return await self.db.transact(body())
