"""Storage: sessions, seats, the move log, snapshots, results, ratings and jobs.

This package is the only place that speaks SQL.  The bot holds one :class:`Store`, whose
attributes are the stores of each concern (``games``, ``history``, ``people``, ``jobs``,
``ratings``, ``leagues``), all on one back end of two: SQLite (the default, ``DATABASE_PATH``; one process) and
PostgreSQL (``DATABASE_URL=postgresql://...``; several processes sharing one
database).  Both give the same guarantees: an append-only move log (triggers),
one live game per channel (a partial unique index), a version check that
refuses a stale move, results and ratings in one transaction, a move's commit
in one trip, jobs claimed by one process each.  Each back end has its numbered
migrations (``bot/migrations/sqlite`` and ``bot/migrations/postgres``, the same
numbers and names, giving the same tables and columns), applied at start; a
database written by newer code, or one that fails the start-up check, is
refused in one line.  Queries scoped to a server refuse a missing server id.
:func:`open_store` opens either back end by its target and hands back the :class:`Store` on it;
the back ends import the interface side (``base.py``, ``games.py``), never the other way round,
and nothing but this module chooses one.
"""

from __future__ import annotations

import asyncio
import os
from urllib.parse import parse_qs, urlsplit

from bot.storage.base import (
    LIVE,
    NOTIFY_PLACES,
    SCHEMA_VERSION,
    Body,
    ChannelBusy,
    Clocked,
    Conflict,
    Examined,
    Job,
    JobPayload,
    MoveRow,
    NewMove,
    NotAnswering,
    PersonRow,
    RatingRow,
    ResultRow,
    SeatRow,
    SessionRow,
    StaleVersion,
    StorageError,
    UndoRequest,
    Unreachable,
    describe,
    fits,
    migrations,
)
from bot.storage.store import Store
from bot.time.jobs import DEADLINE
from bot.time.source import SYSTEM, Clock

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: str) -> bool:
    return target.lower().startswith(POSTGRES_SCHEMES)


async def open_store(
    target: str | os.PathLike[str],
    *,
    clock: Clock | None = None,
    upgrade: bool = True,
    statement_seconds: float | None = None,
    durable: bool = False,
) -> Store:
    """Open (creating and migrating if need be) the database ``target`` names: PostgreSQL for a
    ``postgresql://`` URL, else the SQLite file.

    Every problem is a :class:`StorageError` whose message is one line naming the problem
    and what to do.  An SQLite file from an older Pukllay is copied before it is upgraded
    (:attr:`Store.kept_copy`); a PostgreSQL database from an older Pukllay is upgraded only with
    ``upgrade`` (``python -m bot --migrate``), else refused.  On PostgreSQL a statement not
    answered within ``statement_seconds`` ends as the server not answering (SQLite has no server).
    ``durable``: SQLite syncs each commit to the disk (``SQLITE_SYNC=full``, the bot's default; a
    PostgreSQL server does so by its own settings).
    """
    clock = clock or SYSTEM
    if isinstance(target, str) and is_postgres_url(target):
        from bot.storage.postgres import PostgresBackend

        return Store(
            await PostgresBackend.open(
                target, clock=clock, upgrade=upgrade, statement_seconds=statement_seconds
            )
        )
    from bot.storage.sqlite import SQLiteBackend

    return Store(await SQLiteBackend.open(target, clock=clock, durable=durable))


async def examine(target: str) -> Examined:
    """The database ``target`` names, examined without changing anything (``--check-database``)."""
    if is_postgres_url(target):
        from bot.storage import postgres

        return await postgres.look(target)
    from bot.storage import sqlite

    return await asyncio.to_thread(sqlite.look, target)


def describe_target(target: str) -> str:
    """Where the data is, for the log: the SQLite file's full path, or PostgreSQL's database,
    host and user (never the password)."""
    if not is_postgres_url(target):
        return f"SQLite {os.path.abspath(target)}"
    parts = urlsplit(target)
    query = parse_qs(parts.query)
    try:
        port = parts.port
    except ValueError:
        port = None
    host = parts.hostname or (query.get("host") or ["localhost"])[0]
    name = parts.path.lstrip("/") or (query.get("dbname") or ["(the user's)"])[0]
    user = parts.username or (query.get("user") or [""])[0]
    return f"PostgreSQL {name} on {host}{f':{port}' if port else ''}" + (f" as {user}" if user else "")


__all__ = [
    "DEADLINE",
    "LIVE",
    "SCHEMA_VERSION",
    "Body",
    "ChannelBusy",
    "Clocked",
    "Conflict",
    "Examined",
    "Job",
    "JobPayload",
    "MoveRow",
    "NOTIFY_PLACES",
    "NewMove",
    "NotAnswering",
    "PersonRow",
    "RatingRow",
    "UndoRequest",
    "Unreachable",
    "ResultRow",
    "SeatRow",
    "SessionRow",
    "StaleVersion",
    "StorageError",
    "Store",
    "describe",
    "fits",
    "describe_target",
    "examine",
    "is_postgres_url",
    "migrations",
    "open_store",
]
