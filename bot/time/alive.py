"""The process's sign of life: the times the bot is out of service, kept for the clocks.

As the process starts serving its shards (once logged in), the time since each shard's last
sign of life is kept as an outage (:meth:`bot.storage.outages.Outages.back`); then it notes that
it runs every :data:`~bot.storage.outages.BEAT` seconds, and once more as it stops.  Game clocks
and the time to answer a time-out leave the outages out (:meth:`bot.sessions.core.Core.away_of`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence

from bot.storage import Store
from bot.storage.outages import BEAT
from bot.time.gameclock import duration_text

log = logging.getLogger(__name__)


class Heartbeat:
    """Notes that shards ``ids`` of ``count`` run, from :meth:`start` to :meth:`stop`."""

    def __init__(self, store: Store, count: int, ids: Sequence[int], every: float = BEAT):
        self.store, self.count, self.ids, self.every = store, count, list(ids), every
        self._task: asyncio.Task | None = None

    async def start(self) -> list[tuple[float, float]]:
        """Keep the outage that ends now, if any, then beat; the outages kept (one per shard)."""
        kept = await self.store.outages.back(self.count, self.ids)
        if kept:
            longest = max(until - since for since, until in kept)
            log.warning(
                "the bot was out of service for %s (shards %s of %d): clocks leave that time out",
                duration_text(longest),
                ",".join(map(str, self.ids)),
                self.count,
            )
        if self._task is None:
            self._task = asyncio.create_task(self._beat(), name="pukllay-heartbeat")
        return kept

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.store.outages.alive(self.count, self.ids)
            except Exception:  # the database not answering: the next beat tries again
                log.warning("could not note that the bot runs", exc_info=True)

    async def stop(self) -> None:
        """Stop beating, noting once more that the shards ran until now."""
        task, self._task = self._task, None
        if task is None:
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        try:
            await self.store.outages.alive(self.count, self.ids)
        except Exception:
            log.warning("could not note when the bot stopped", exc_info=True)
