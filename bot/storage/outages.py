"""The bot's own time out of service, per shard (migration 042).

The process serving a shard notes that it runs (:meth:`Outages.alive`: every minute, and as it
stops).  When it starts again, the time from that last sign of life to the start is an outage
of the shard (:meth:`Outages.back`), if longer than :data:`LEAST`: nobody could act in the
servers of that shard meanwhile, so game clocks and the time to answer a time-out leave it out
(:meth:`Outages.of_guild`).  A server belongs to shard ``(guild_id >> 22) % shard_count``, as
Discord routes it; direct messages to shard 0.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.base import Body, Concern, one, run, upsert

LEAST = 120.0
"""Seconds without a sign of life that make an outage (two beats of :data:`BEAT` missed): a
restart quicker than that is not one."""
BEAT = 60.0
"""Seconds between two signs of life of a running process."""

SEEN = upsert("shards_seen", "shard_count, shard_id", "shard_count, shard_id, seen")
Period = tuple[float, float]


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard a server belongs to among ``count`` (direct messages: 0)."""
    return 0 if guild_id is None or count <= 1 else (guild_id >> 22) % count


class Outages(Concern):
    """When each shard last ran, and the times it did not."""

    _known: list[tuple[int, int, float, float]] | None = None  # every outage, read once

    async def back(self, count: int, ids: Sequence[int]) -> list[Period]:
        """The process serving shards ``ids`` of ``count`` starts: each shard's time since its
        last sign of life is kept as an outage when longer than :data:`LEAST`, and it is seen now.
        A shard never seen in this layout (the shards counted anew) takes the last sign of life
        of the layout before.  Returns the outages kept, one per shard."""
        now = self.clock.time()

        def body() -> Body[list[Period]]:
            kept: list[Period] = []
            for shard in ids:
                row = yield from one(
                    "SELECT seen FROM shards_seen WHERE shard_count = ? AND shard_id = ?", count, shard
                )
                if row is None:
                    row = yield from one("SELECT MAX(seen) FROM shards_seen WHERE shard_count <> ?", count)
                seen = None if row is None or row[0] is None else float(row[0])
                if seen is not None and now - seen > LEAST:
                    yield from run(
                        "INSERT INTO outages (shard_count, shard_id, since, until) VALUES (?, ?, ?, ?)"
                        " ON CONFLICT DO NOTHING",
                        count,
                        shard,
                        seen,
                        now,
                    )
                    kept.append((seen, now))
                yield from run(SEEN, count, shard, now)
            return kept

        kept = await self.db.transact(body())
        self._known = None  # read again, with these
        return kept

    async def alive(self, count: int, ids: Sequence[int]) -> None:
        """Shards ``ids`` of ``count`` run now."""
        now = self.clock.time()

        def body() -> Body[None]:
            for shard in ids:
                yield from run(SEEN, count, shard, now)

        await self.db.transact(body())

    async def of_guild(self, guild_id: int | None) -> list[Period]:
        """The outages of the shard serving ``guild_id`` (None: direct messages), oldest first.

        Read from the database once per store (every outage is kept as the process serving its
        shard starts, before that process serves anyone), then from memory."""
        known = self._known
        if known is None:
            rows = await self.db.all("SELECT shard_count, shard_id, since, until FROM outages ORDER BY since")
            known = self._known = [(int(c), int(s), float(a), float(b)) for c, s, a, b in rows]
        return [(since, until) for count, shard, since, until in known if shard_of(guild_id, count) == shard]
