"""Storage: sessions, seats, the move log, snapshots, results, ratings and jobs.

This package is the only place that speaks SQL.  One interface (:class:`Store`),
two back ends: SQLite (the default, ``DATABASE_PATH``; one process) and
PostgreSQL (``DATABASE_URL=postgresql://...``; several processes sharing one
database).  Both give the same guarantees: an append-only move log (triggers),
one live game per channel (a partial unique index), a version check that
refuses a stale move, results and ratings in one transaction, a move's commit
in one trip, jobs claimed by one process each.  Each back end has its numbered
migrations (``bot/migrations/sqlite`` and ``bot/migrations/postgres``, the same
numbers and names, giving the same tables and columns), applied at start; a
database written by newer code, or one that fails the start-up check, is
refused in one line.  Queries scoped to a server refuse a missing server id.
"""

from __future__ import annotations

from bot.storage.base import (
    DEADLINE,
    LIVE,
    NOTIFY_PLACES,
    SCHEMA_VERSION,
    ChannelBusy,
    Conflict,
    Job,
    MoveRow,
    NewMove,
    PersonRow,
    RatingRow,
    ResultRow,
    SeatRow,
    SessionRow,
    StaleVersion,
    StorageError,
    Store,
    UndoRequest,
    fits,
    migrations,
)

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: str) -> bool:
    return target.lower().startswith(POSTGRES_SCHEMES)


__all__ = [
    "DEADLINE",
    "LIVE",
    "SCHEMA_VERSION",
    "ChannelBusy",
    "Conflict",
    "Job",
    "MoveRow",
    "NOTIFY_PLACES",
    "NewMove",
    "PersonRow",
    "RatingRow",
    "UndoRequest",
    "ResultRow",
    "SeatRow",
    "SessionRow",
    "StaleVersion",
    "StorageError",
    "Store",
    "fits",
    "is_postgres_url",
    "migrations",
]
