"""A PostgreSQL database that stops answering in the middle of play, for real: it refuses new
connections and its open ones are cut, until :meth:`Outage.end`."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit


class Outage:
    """The bot's PostgreSQL database (``target``, on the tests' ``cluster``) refusing the bot."""

    def __init__(self, cluster: Any, target: str):
        self.cluster, self.name = cluster, urlsplit(target).path.lstrip("/")

    async def begin(self) -> None:
        await self.cluster.admin(f"ALTER DATABASE {self.name} ALLOW_CONNECTIONS false")
        await self.cluster.admin(
            f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{self.name}'"
        )

    async def end(self) -> None:
        await self.cluster.admin(f"ALTER DATABASE {self.name} ALLOW_CONNECTIONS true")
