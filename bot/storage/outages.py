"""The bot's own time out of service, per shard (migration 042).

The process serving a shard notes that it runs as it starts and every minute
(:meth:`Outages.back`), and as it stops (:meth:`Outages.alive`).  A gap longer than
:data:`LEAST` since the shard's last sign of life (the process stopped, or its connection to
Discord was down) is kept as an outage: nobody could act in the servers of that shard meanwhile,
so game clocks and the time to answer a time-out leave it out (:meth:`Outages.of_guild`, which
also gives one going on now, for a shard no process serves).  A server belongs to shard
``(guild_id >> 22) % shard_count``, as Discord routes it (:func:`shard_of`, which the bot's own
test of the servers its gateway carries uses too); direct messages to shard 0.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

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

    here: tuple[int, Callable[[int], bool]] | None = None
    """This process's shard count and which of its shards it serves with a live connection now
    (:meth:`serve`); None: a process serving none (a test's store, the terminal table)."""

    def serve(self, count: int, here: Callable[[int], bool]) -> None:
        """This process serves the shards of ``count`` for which ``here`` holds (while connected)."""
        self.here = (count, here)

    async def back(self, count: int, ids: Sequence[int]) -> list[Period]:
        """Shards ``ids`` of ``count`` run now: each one's time since its last sign of life is kept
        as an outage when longer than :data:`LEAST`, and it is seen now.  The last sign of life is
        the latest of the shard's own and of every other layout's (a layout counted anew, or
        switched back to, starts from the last one that ran, not from before the switch); an
        outage never starts before the end of the shard's last one (a system clock set back).
        Called as the process starts, and at every beat, so that a gap while it ran (its
        connection to Discord down) is kept too.  Returns the outages kept, one per shard."""
        now = self.clock.time()

        def body() -> Body[list[Period]]:
            kept: list[Period] = []
            # the other layouts' last sign of life, the same for every shard (the loop writes only
            # this layout's rows)
            other = yield from one("SELECT MAX(seen) FROM shards_seen WHERE shard_count <> ?", count)
            for shard in ids:
                own = yield from one(
                    "SELECT seen FROM shards_seen WHERE shard_count = ? AND shard_id = ?", count, shard
                )
                last = yield from one(
                    "SELECT MAX(until) FROM outages WHERE shard_count = ? AND shard_id = ?", count, shard
                )
                signs = [float(r[0]) for r in (own, other) if r is not None and r[0] is not None]
                if signs and now - max(signs) > LEAST:
                    since = max(
                        [max(signs)] + ([float(last[0])] if last is not None and last[0] is not None else [])
                    )
                    if since < now:
                        yield from run(
                            "INSERT INTO outages (shard_count, shard_id, since, until) VALUES (?, ?, ?, ?)"
                            " ON CONFLICT DO NOTHING",
                            count,
                            shard,
                            since,
                            now,
                        )
                        kept.append((since, now))
                yield from run(SEEN, count, shard, now)
            return kept

        return await self.db.transact(body())

    async def alive(self, count: int, ids: Sequence[int]) -> None:
        """Shards ``ids`` of ``count`` ran until now (a process stopping): seen now, no gap kept."""
        now = self.clock.time()

        def body() -> Body[None]:
            for shard in ids:
                yield from run(SEEN, count, shard, now)

        await self.db.transact(body())

    async def of_guild(self, guild_id: int | None) -> list[Period]:
        """The outages of the shard serving ``guild_id`` (None: direct messages), oldest first
        (read afresh: another process keeps those of its shards).  One going on is among them,
        until now: the shard's last sign of life older than :data:`LEAST` while no process serves
        it with a live connection (its process stopped, and this one judges its clocks), this
        one included (its connection to Discord down)."""
        rows = await self.db.all("SELECT shard_count, shard_id, since, until FROM outages ORDER BY since")
        found = [(float(a), float(b)) for c, s, a, b in rows if shard_of(guild_id, int(c)) == int(s)]
        if self.here is not None:
            count, here = self.here
            shard = shard_of(guild_id, count)
            if not here(shard):
                row = await self.db.one(
                    "SELECT seen FROM shards_seen WHERE shard_count = ? AND shard_id = ?", count, shard
                )
                now = self.clock.time()
                if row is not None and now - float(row[0]) > LEAST:
                    found.append((float(row[0]), now))
        return found
