"""Whether the bot is ready to serve: the database answers and every shard's gateway is connected.

Read from discord.py itself (``AutoShardedClient.shards``: each shard's connection and latency;
one connection without sharding) and from the storage interface's :meth:`Store.ping`, the same
on SQLite and PostgreSQL.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TypedDict

import discord

from bot.storage import Store


@dataclass(frozen=True)
class Shard:
    """One gateway connection: its shard number, whether it is open, its heartbeat latency
    (None before the first heartbeat is acknowledged)."""

    id: int
    connected: bool
    latency: float | None


class ShardAnswer(TypedDict):
    """A shard in the health check's answer."""

    connected: bool
    latency_seconds: float | None


class Answer(TypedDict):
    """The health check's answer (JSON)."""

    ready: bool
    database: str  # "ok", else why not
    shards: dict[str, ShardAnswer]  # by shard number
    problems: list[str]


@dataclass(frozen=True)
class Health:
    database: str | None  # None: it answered; else why not
    shards: tuple[Shard, ...]
    logged_in: bool  # discord.py received READY (the bot's first connection is up)
    problems: tuple[str, ...] = field(default=())

    @property
    def ready(self) -> bool:
        return not self.problems

    def to_dict(self) -> Answer:
        return {
            "ready": self.ready,
            "database": "ok" if self.database is None else self.database,
            "shards": {
                str(s.id): {"connected": s.connected, "latency_seconds": s.latency} for s in self.shards
            },
            "problems": list(self.problems),
        }


def _latency(value: float) -> float | None:
    return value if math.isfinite(value) else None


def shards(client: discord.Client) -> tuple[Shard, ...]:
    """Every shard this process serves, connected or not (one, numbered 0, without sharding)."""
    if isinstance(client, discord.AutoShardedClient):
        wanted = client.shard_ids if client.shard_ids is not None else range(client.shard_count or 1)
        found = []
        for shard_id in sorted(wanted):
            info = client.get_shard(shard_id)
            if info is None:  # not launched yet
                found.append(Shard(shard_id, False, None))
            else:
                found.append(Shard(shard_id, not info.is_closed(), _latency(info.latency)))
        return tuple(found)
    ws = client.ws
    connected = ws is not None and ws.open and not client.is_closed()
    return (Shard(client.shard_id or 0, connected, _latency(ws.latency) if ws is not None else None),)


async def check(client: discord.Client, store: Store | None, *, timeout: float = 5.0) -> Health:  # noqa: ASYNC109
    """The bot's health now: the database is pinged, the shards are read."""
    database = "not open" if store is None else await store.ping(timeout=timeout)
    found = shards(client)
    logged_in = client.is_ready()
    problems = []
    if database is not None:
        problems.append(f"the database does not answer ({database})")
    if not logged_in:
        # While the login is tried again, why the last attempt failed (see bot.app's login).
        trouble = getattr(client, "login_trouble", None)
        problems.append(
            f"not logged in to Discord yet ({trouble})" if trouble else "not logged in to Discord yet"
        )
    for s in found:
        if not s.connected:
            problems.append(f"shard {s.id}'s gateway connection is down")
    return Health(database, found, logged_in, tuple(problems))
