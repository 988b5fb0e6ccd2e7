"""The process's sign of life: the times the bot is out of service, kept for the clocks.

As the process starts serving its shards (once logged in), the time since each shard's last
sign of life is kept as an outage (:meth:`bot.storage.outages.Outages.back`); then it notes that
each shard with a live connection to Discord runs every :data:`~bot.storage.outages.BEAT`
seconds (keeping the gap, if long, of one whose connection was down), and once more as it
stops.  Game clocks and the time to answer a time-out leave the outages out
(:meth:`bot.sessions.core.Core.away_of`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Collection, Sequence

from bot.storage import Store
from bot.storage.outages import BEAT
from bot.time.gameclock import duration_text

log = logging.getLogger(__name__)


class Heartbeat:
    """Notes that shards ``ids`` of ``count`` run, from :meth:`start` to :meth:`stop`, while
    ``connected`` names them (the shards with a live connection to Discord now: a shard whose
    connection is down shows no sign of life, and the gap is kept at the next beat)."""

    def __init__(
        self,
        store: Store,
        count: int,
        ids: Sequence[int],
        every: float = BEAT,
        connected: Callable[[], Collection[int]] | None = None,
    ):
        self.store, self.count, self.ids, self.every = store, count, list(ids), every
        self.connected = connected if connected is not None else lambda: self.ids
        self._task: asyncio.Task | None = None

    async def start(self) -> list[tuple[float, float]]:
        """Keep the outage that ends now, if any, then beat; the outages kept (one per shard)."""
        kept = await self.beat(self.ids)
        self.store.outages.serve(self.count, lambda shard: shard in self.ids and shard in self.connected())
        if self._task is None:
            self._task = asyncio.create_task(self._beat(), name="pukllay-heartbeat")
        return kept

    async def beat(self, shards: Sequence[int]) -> list[tuple[float, float]]:
        """``shards`` run now: the gap since their last sign of life, if long, is kept and logged."""
        kept = await self.store.outages.back(self.count, shards)
        if kept:
            longest = max(until - since for since, until in kept)
            log.warning(
                "the bot was out of service for %s (shards %s of %d): clocks leave that time out",
                duration_text(longest),
                ",".join(map(str, shards)),
                self.count,
            )
        return kept

    def live(self) -> list[int]:
        """This process's shards whose connection to Discord is live now (asked once)."""
        connected = self.connected()
        return [shard for shard in self.ids if shard in connected]

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            live = self.live()
            if not live:
                continue
            try:
                await self.beat(live)
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
        live = self.live()
        try:  # those whose connection was down keep the gap first
            await self.beat([shard for shard in self.ids if shard not in live])
            await self.store.outages.alive(self.count, live)
        except Exception:
            log.warning("could not note when the bot stopped", exc_info=True)
