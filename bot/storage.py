"""SQLite storage for sessions, seats, the move log, snapshots and results.

This is the only module that speaks SQL.  One connection writes, behind one
asyncio lock, each change inside ``BEGIN IMMEDIATE ... COMMIT``; a second
connection reads.  The database runs in WAL mode with foreign keys on, and
numbered migrations in ``bot/migrations`` are applied at start and recorded.
A database written by newer code, or a file that is not a database, is
refused with a message that says what to do.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

LIVE = ("lobby", "active")


class StorageError(RuntimeError):
    """The database cannot be used; the message says why and what to do."""


class ChannelBusy(Exception):
    """A live game already occupies the channel."""


class StaleVersion(Exception):
    """The session changed since the caller read it."""

    def __init__(self, current: int):
        super().__init__(f"the session is at version {current}")
        self.current = current


@dataclass(frozen=True)
class SessionRow:
    id: int
    game: str
    guild_id: int | None
    channel_id: int
    host_id: int
    status: str
    options: dict[str, Any]
    max_players: int
    seed: int
    state: dict[str, Any] | None
    version: int
    lobby_message_id: int | None
    outcome: dict[str, Any] | None
    end_reason: str | None
    created_at: str
    updated_at: str
    finished_at: str | None
    timer_seconds: int | None = None
    deadline_at: str | None = None
    deadline_version: int | None = None

    @property
    def live(self) -> bool:
        return self.status in LIVE


@dataclass(frozen=True)
class SeatRow:
    join_order: int
    seat: int | None
    user_id: int | None
    display_name: str
    is_computer: bool
    resigned: bool
    level: str | None = None  # the computer level chosen when the seat was given to the computer


@dataclass(frozen=True)
class MoveRow:
    number: int
    seat: int
    move: str
    by_computer: bool
    created_at: str


@dataclass(frozen=True)
class RatingRow:
    """A player's rating in one game on one server (``mu``/``sigma`` None: not rated yet)."""

    user_id: int
    name: str
    mu: float | None
    sigma: float | None
    games: int = 0
    wins: int = 0
    place: int | None = None


@dataclass(frozen=True)
class ResultRow:
    seat: int
    user_id: int | None
    score: float | None
    place: int
    resigned: bool


def now(offset_seconds: float = 0.0) -> str:
    """The time as stored: ISO 8601 in UTC, so that text order is time order."""
    return (datetime.now(UTC) + timedelta(seconds=offset_seconds)).isoformat(timespec="milliseconds")


def _migrations() -> list[tuple[int, str, str]]:
    out = []
    for entry in resources.files("bot.migrations").iterdir():
        m = re.fullmatch(r"(\d+)_(\w+)\.sql", entry.name)
        if m:
            out.append((int(m.group(1)), m.group(2), entry.read_text(encoding="utf-8")))
    out.sort()
    numbers = [n for n, _, _ in out]
    if numbers != list(range(1, len(numbers) + 1)):
        raise StorageError(f"migrations must be numbered 1..n without gaps, found {numbers}")
    return out


MIGRATIONS = _migrations()
SCHEMA_VERSION = MIGRATIONS[-1][0] if MIGRATIONS else 0


def _session(row: sqlite3.Row) -> SessionRow:
    return SessionRow(
        id=row["id"],
        game=row["game"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        host_id=row["host_id"],
        status=row["status"],
        options=json.loads(row["options"]),
        max_players=row["max_players"],
        seed=row["seed"],
        state=json.loads(row["state"]) if row["state"] else None,
        version=row["version"],
        lobby_message_id=row["lobby_message_id"],
        outcome=json.loads(row["outcome"]) if row["outcome"] else None,
        end_reason=row["end_reason"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        finished_at=row["finished_at"],
        timer_seconds=row["timer_seconds"],
        deadline_at=row["deadline_at"],
        deadline_version=row["deadline_version"],
    )


def _seat(row: sqlite3.Row) -> SeatRow:
    return SeatRow(
        join_order=row["join_order"],
        seat=row["seat"],
        user_id=row["user_id"],
        display_name=row["display_name"],
        is_computer=bool(row["is_computer"]),
        resigned=bool(row["resigned"]),
        level=row["computer_level"],
    )


class Store:
    """The database.  Open with :meth:`open`, close with :meth:`close`."""

    def __init__(self, path: str | Path, writer: aiosqlite.Connection, reader: aiosqlite.Connection):
        self.path = str(path)
        self._writer = writer
        self._reader = reader
        self._lock = asyncio.Lock()

    # ----------------------------------------------------------------- lifecycle

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        path = str(path)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        writer = await cls._connect(path)
        try:
            await cls._migrate(writer, path)
            reader = await cls._connect(path)
        except BaseException:
            await writer.close()
            raise
        return cls(path, writer, reader)

    @staticmethod
    async def _connect(path: str) -> aiosqlite.Connection:
        conn = await aiosqlite.connect(path, isolation_level=None, timeout=30)
        conn.row_factory = sqlite3.Row
        try:
            await conn.execute("PRAGMA foreign_keys = ON")
            await conn.execute("PRAGMA busy_timeout = 30000")
            mode = await Store._fetch(conn, "PRAGMA journal_mode = WAL")
            await conn.execute("PRAGMA synchronous = NORMAL")
            if path != ":memory:" and mode[0].lower() != "wal":
                raise StorageError(f"{path}: SQLite would not switch to WAL mode (got {mode[0]})")
        except sqlite3.DatabaseError as exc:
            await conn.close()
            raise StorageError(
                f"{path} is not a Pukllay database or is damaged ({exc}); "
                "restore a backup or set DATABASE_PATH to another file"
            ) from None
        return conn

    @staticmethod
    async def _migrate(conn: aiosqlite.Connection, path: str) -> None:
        try:
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
            async with conn.execute("SELECT version FROM schema_migrations") as cur:
                rows = await cur.fetchall()
            check = await Store._fetch(conn, "PRAGMA quick_check")
        except sqlite3.DatabaseError as exc:
            raise StorageError(
                f"{path} is not a Pukllay database or is damaged ({exc}); "
                "restore a backup or set DATABASE_PATH to another file"
            ) from None
        if check[0] != "ok":
            raise StorageError(f"{path} failed SQLite's integrity check ({check[0]}); restore a backup")
        applied = {r[0] for r in rows}
        newest = max(applied, default=0)
        if newest > SCHEMA_VERSION:
            raise StorageError(
                f"{path} was written by a newer Pukllay (database schema {newest}, this code knows up to "
                f"{SCHEMA_VERSION}); upgrade the bot or use another DATABASE_PATH"
            )
        for number, name, sql in MIGRATIONS:
            if number in applied:
                continue
            stamp = now().replace("'", "")
            script = (
                f"BEGIN IMMEDIATE;\n{sql}\n"
                f"INSERT INTO schema_migrations (version, name, applied_at) VALUES ({number}, '{name}', '{stamp}');\n"
                "COMMIT;"
            )
            try:
                await conn.executescript(script)
            except sqlite3.DatabaseError as exc:
                if conn.in_transaction:
                    await conn.execute("ROLLBACK")
                raise StorageError(f"{path}: migration {number} ({name}) failed: {exc}") from None

    async def close(self) -> None:
        await self._reader.close()
        await self._writer.close()

    async def schema_version(self) -> int:
        row = await self._one("SELECT MAX(version) FROM schema_migrations")
        return row[0] or 0

    @asynccontextmanager
    async def _write(self):
        """One writer at a time, each change one IMMEDIATE transaction."""
        async with self._lock:
            await self._writer.execute("BEGIN IMMEDIATE")
            try:
                yield self._writer
            except BaseException:
                await self._writer.execute("ROLLBACK")
                raise
            else:
                await self._writer.execute("COMMIT")

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        # One call on the connection's thread runs, reads and closes the
        # statement.  Reads from concurrent tasks must not interleave on this
        # connection: an unfinished statement keeps its read transaction, and
        # every other read on the connection would then see that old snapshot.
        return list(await self._reader.execute_fetchall(sql, params))

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    @staticmethod
    async def _fetch(db: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        rows = await db.execute_fetchall(sql, params)
        return rows[0] if rows else None

    # ----------------------------------------------------------------- sessions

    async def create_session(
        self,
        *,
        game: str,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: dict[str, Any],
        max_players: int,
        seed: int,
    ) -> int:
        stamp = now()
        try:
            async with self._write() as db:
                cur = await db.execute(
                    "INSERT INTO sessions (game, guild_id, channel_id, host_id, status, options, max_players,"
                    " seed, created_at, updated_at) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?)",
                    (
                        game,
                        guild_id,
                        channel_id,
                        host_id,
                        json.dumps(options),
                        max_players,
                        seed,
                        stamp,
                        stamp,
                    ),
                )
                sid = cur.lastrowid
                await db.execute(
                    "INSERT INTO seats (session_id, join_order, user_id, display_name) VALUES (?, 0, ?, ?)",
                    (sid, host_id, host_name),
                )
        except sqlite3.IntegrityError:
            raise ChannelBusy() from None
        return sid

    async def session(self, session_id: int) -> SessionRow | None:
        row = await self._one("SELECT * FROM sessions WHERE id = ?", (session_id,))
        return _session(row) if row else None

    async def live_session(self, channel_id: int) -> SessionRow | None:
        row = await self._one(
            "SELECT * FROM sessions WHERE channel_id = ? AND status IN ('lobby', 'active')", (channel_id,)
        )
        return _session(row) if row else None

    async def live_sessions(self, guild_id: int | None = None) -> list[SessionRow]:
        if guild_id is None:
            rows = await self._all("SELECT * FROM sessions WHERE status IN ('lobby', 'active') ORDER BY id")
        else:
            rows = await self._all(
                "SELECT * FROM sessions WHERE guild_id = ? AND status IN ('lobby', 'active') ORDER BY id",
                (guild_id,),
            )
        return [_session(r) for r in rows]

    async def seats(self, session_id: int) -> list[SeatRow]:
        rows = await self._all(
            "SELECT * FROM seats WHERE session_id = ? ORDER BY COALESCE(seat, join_order), join_order",
            (session_id,),
        )
        return [_seat(r) for r in rows]

    async def add_seat(
        self,
        session_id: int,
        user_id: int | None,
        name: str,
        *,
        limit: int,
        computer: bool = False,
        level: str | None = None,
    ) -> bool:
        """Seat a player (a computer at ``level``) in a lobby; False when the lobby is full or not open."""
        async with self._write() as db:
            row = await self._fetch(db, "SELECT status FROM sessions WHERE id = ?", (session_id,))
            if row is None or row[0] != "lobby":
                return False
            count, top = await self._fetch(
                db,
                "SELECT COUNT(*), COALESCE(MAX(join_order), -1) FROM seats WHERE session_id = ?",
                (session_id,),
            )
            if count >= limit:
                return False
            await db.execute(
                "INSERT INTO seats (session_id, join_order, user_id, display_name, is_computer, computer_level)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (session_id, top + 1, user_id, name, int(computer), level),
            )
            await self._touch(db, session_id)
        return True

    async def remove_seat(self, session_id: int, join_order: int) -> None:
        async with self._write() as db:
            await db.execute(
                "DELETE FROM seats WHERE session_id = ? AND join_order = ?", (session_id, join_order)
            )
            await self._touch(db, session_id)

    async def set_lobby_message(self, session_id: int, message_id: int | None) -> None:
        async with self._write() as db:
            await db.execute(
                "UPDATE sessions SET lobby_message_id = ? WHERE id = ?", (message_id, session_id)
            )

    async def start(
        self,
        session_id: int,
        seat_of: dict[int, int],
        options: dict[str, Any],
        state: dict[str, Any],
    ) -> int:
        """Lobby -> active: assign engine seats (join_order -> seat), store the first snapshot."""
        async with self._write() as db:
            cur = await db.execute(
                "UPDATE sessions SET status = 'active', options = ?, state = ?, version = version + 1,"
                " updated_at = ? WHERE id = ? AND status = 'lobby'",
                (json.dumps(options), json.dumps(state), now(), session_id),
            )
            if cur.rowcount != 1:
                raise StaleVersion(-1)
            for join_order, seat in seat_of.items():
                await db.execute(
                    "UPDATE seats SET seat = ? WHERE session_id = ? AND join_order = ?",
                    (seat, session_id, join_order),
                )
            row = await self._fetch(db, "SELECT version FROM sessions WHERE id = ?", (session_id,))
            await self._arm(db, session_id, row[0])
        return row[0]

    async def _arm(self, db: aiosqlite.Connection, session_id: int, version: int) -> None:
        """Set the session's deadline for ``version`` from its timer (none without a timer)."""
        row = await self._fetch(db, "SELECT timer_seconds FROM sessions WHERE id = ?", (session_id,))
        timer = row[0] if row else None
        await db.execute(
            "UPDATE sessions SET deadline_at = ?, deadline_version = ? WHERE id = ?",
            (now(timer) if timer else None, version if timer else None, session_id),
        )

    async def set_timer(self, session_id: int, seconds: float | None) -> None:
        """Set (or with ``None`` clear) the turn timer; the deadline restarts from now."""
        async with self._write() as db:
            await db.execute(
                "UPDATE sessions SET timer_seconds = ? WHERE id = ?",
                (seconds if seconds else None, session_id),
            )
            row = await self._fetch(db, "SELECT version, status FROM sessions WHERE id = ?", (session_id,))
            if row and row[1] == "active":
                await self._arm(db, session_id, row[0])

    async def due_deadlines(self) -> list[tuple[int, int]]:
        """Active sessions whose deadline has passed, as (session id, version it was set for)."""
        rows = await self._all(
            "SELECT id, deadline_version FROM sessions WHERE status = 'active' AND deadline_at IS NOT NULL"
            " AND deadline_at <= ? ORDER BY deadline_at",
            (now(),),
        )
        return [(r[0], r[1]) for r in rows]

    async def next_deadline(self) -> str | None:
        row = await self._one(
            "SELECT MIN(deadline_at) FROM sessions WHERE status = 'active' AND deadline_at IS NOT NULL"
        )
        return row[0] if row else None

    async def record_moves(
        self,
        session_id: int,
        expected_version: int,
        moves: Iterable[tuple[int, str, bool]],
        state: dict[str, Any],
    ) -> int:
        """Append moves (seat, text, by_computer) and the new snapshot atomically.

        Raises :class:`StaleVersion` when the session is no longer at
        ``expected_version``; nothing is written then.  Returns the new version.
        """
        moves = list(moves)
        async with self._write() as db:
            row = await self._fetch(db, "SELECT version, status FROM sessions WHERE id = ?", (session_id,))
            if row is None or row[0] != expected_version or row[1] != "active":
                raise StaleVersion(row[0] if row else -1)
            base = await self._fetch(
                db, "SELECT COALESCE(MAX(number), 0) FROM moves WHERE session_id = ?", (session_id,)
            )
            stamp = now()
            await db.executemany(
                "INSERT INTO moves (session_id, number, seat, move, by_computer, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (session_id, base[0] + i + 1, seat, text, int(comp), stamp)
                    for i, (seat, text, comp) in enumerate(moves)
                ],
            )
            new_version = expected_version + len(moves)
            await db.execute(
                "UPDATE sessions SET state = ?, version = ?, updated_at = ? WHERE id = ?",
                (json.dumps(state), new_version, stamp, session_id),
            )
            await self._arm(db, session_id, new_version)
        return new_version

    async def set_seat_flags(self, session_id: int, seat: int, *, computer: bool, resigned: bool) -> int:
        """Mark an engine seat as played by the computer and/or resigned; bumps the version."""
        async with self._write() as db:
            await db.execute(
                "UPDATE seats SET is_computer = ?, resigned = ? WHERE session_id = ? AND seat = ?",
                (int(computer), int(resigned), session_id, seat),
            )
            await db.execute(
                "UPDATE sessions SET version = version + 1, updated_at = ? WHERE id = ?", (now(), session_id)
            )
            row = await self._fetch(db, "SELECT version FROM sessions WHERE id = ?", (session_id,))
            await self._arm(db, session_id, row[0])
        return row[0]

    async def finish(
        self,
        session_id: int,
        *,
        status: str,
        reason: str,
        outcome: dict[str, Any] | None,
        results: Sequence[ResultRow],
        rate: Callable[[list[RatingRow]], Sequence[RatingRow]] | None = None,
        names: dict[int, str] | None = None,
    ) -> None:
        """Active or lobby -> finished or abandoned, with the results recorded.

        With ``rate``, the players' current ratings are read and the new ones
        written in the same transaction, so two games ending at once cannot
        lose an update.  ``rate`` gets and returns :class:`RatingRow` values.
        """
        if status not in ("finished", "abandoned"):
            raise ValueError(status)
        stamp = now()
        async with self._write() as db:
            if rate is not None:
                await self._rate(db, session_id, results, rate, names or {}, stamp)
            await db.execute(
                "UPDATE sessions SET status = ?, end_reason = ?, outcome = ?, finished_at = ?, updated_at = ?,"
                " version = version + 1, deadline_at = NULL, deadline_version = NULL"
                " WHERE id = ? AND status IN ('lobby', 'active')",
                (status, reason, json.dumps(outcome) if outcome else None, stamp, stamp, session_id),
            )
            await db.executemany(
                "INSERT INTO results (session_id, seat, user_id, score, place, resigned) VALUES (?, ?, ?, ?, ?, ?)",
                [(session_id, r.seat, r.user_id, r.score, r.place, int(r.resigned)) for r in results],
            )

    async def _rate(self, db, session_id, results, rate, names, stamp) -> None:
        row = await self._fetch(db, "SELECT guild_id, game FROM sessions WHERE id = ?", (session_id,))
        guild_id, game = row[0], row[1]
        current = []
        for r in results:
            if r.user_id is None:
                continue
            found = await self._fetch(
                db,
                "SELECT mu, sigma, games, wins FROM ratings WHERE guild_id IS ? AND game = ? AND user_id = ?",
                (guild_id, game, r.user_id),
            )
            current.append(
                RatingRow(
                    user_id=r.user_id,
                    name=names.get(r.user_id, str(r.user_id)),
                    mu=found[0] if found else None,
                    sigma=found[1] if found else None,
                    games=found[2] if found else 0,
                    wins=found[3] if found else 0,
                    place=r.place,
                )
            )
        new = list(rate(current))
        for n in new:
            await db.execute(
                "INSERT INTO ratings (guild_id, game, user_id, display_name, mu, sigma, games, wins, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, user_id) DO UPDATE SET"
                " display_name = excluded.display_name, mu = excluded.mu, sigma = excluded.sigma,"
                " games = excluded.games, wins = excluded.wins, updated_at = excluded.updated_at",
                (guild_id, game, n.user_id, n.name, n.mu, n.sigma, n.games, n.wins, stamp),
            )
        if new:
            await db.execute("UPDATE sessions SET rated = 1 WHERE id = ?", (session_id,))

    async def leaderboard(self, guild_id: int | None, game: str, *, limit: int = 15) -> list[RatingRow]:
        rows = await self._all(
            "SELECT * FROM ratings WHERE guild_id IS ? AND game = ? ORDER BY mu - 3 * sigma DESC, games DESC"
            " LIMIT ?",
            (guild_id, game, limit),
        )
        return [
            RatingRow(r["user_id"], r["display_name"], r["mu"], r["sigma"], r["games"], r["wins"])
            for r in rows
        ]

    async def ratings_of(self, guild_id: int | None, user_id: int) -> dict[str, RatingRow]:
        rows = await self._all(
            "SELECT * FROM ratings WHERE guild_id IS ? AND user_id = ? ORDER BY game", (guild_id, user_id)
        )
        return {
            r["game"]: RatingRow(r["user_id"], r["display_name"], r["mu"], r["sigma"], r["games"], r["wins"])
            for r in rows
        }

    async def _touch(self, db: aiosqlite.Connection, session_id: int) -> None:
        await db.execute(
            "UPDATE sessions SET version = version + 1, updated_at = ? WHERE id = ?", (now(), session_id)
        )

    # ----------------------------------------------------------------- log and results

    async def moves(self, session_id: int, *, last: int | None = None) -> list[MoveRow]:
        if last is None:
            rows = await self._all("SELECT * FROM moves WHERE session_id = ? ORDER BY number", (session_id,))
        else:
            rows = await self._all(
                "SELECT * FROM (SELECT * FROM moves WHERE session_id = ? ORDER BY number DESC LIMIT ?)"
                " ORDER BY number",
                (session_id, last),
            )
        return [
            MoveRow(r["number"], r["seat"], r["move"], bool(r["by_computer"]), r["created_at"]) for r in rows
        ]

    async def move_count(self, session_id: int) -> int:
        row = await self._one("SELECT COUNT(*) FROM moves WHERE session_id = ?", (session_id,))
        return row[0]

    async def results(self, session_id: int) -> list[ResultRow]:
        rows = await self._all(
            "SELECT * FROM results WHERE session_id = ? ORDER BY place, seat", (session_id,)
        )
        return [ResultRow(r["seat"], r["user_id"], r["score"], r["place"], bool(r["resigned"])) for r in rows]
