"""The queue that forms games: each server's queue channel, the people each person avoids, who
waits for what (``queue_entries``), and the tables formed from it (``queue_tables``) until they
start or their people go back to the queue.

A person waits in a server's queue once; joining again replaces their wishes and their place.
A waiting person held by a table being confirmed has the table's id; going back to the queue
clears it and keeps their place (``joined_at`` and the entry's id are untouched).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.storage.base import (
    ARM_SQL,
    Body,
    Concern,
    Conflict,
    Contended,
    Job,
    Row,
    all_,
    fits,
    job_json,
    one,
    record,
    run,
    the_one,
    upsert,
)
from bot.storage.jobs import moved_with
from bot.time.jobs import QUEUE_CONFIRM
from bot.time.source import seconds_of


@dataclass(frozen=True)
class QueueEntry:
    """One person waiting in a server's queue (``table_id``: held by a table being confirmed)."""

    id: int
    guild_id: int
    user_id: int
    name: str
    game: str
    counts: tuple[int, ...]
    pace: str
    computers: int
    rated: str
    at_once: bool
    joined_at: float
    expires_at: float
    table_id: int | None = None
    confirmed: bool = False
    options: str = "{}"
    """The game options waited for, as JSON of those that differ from the game's defaults."""


@dataclass(frozen=True)
class QueueTable:
    """A table formed from the queue: ``confirming`` until all confirm, then ``started``; or
    ``returned`` when someone did not confirm in time."""

    id: int
    guild_id: int
    game: str
    size: int
    pace: str
    rated: str
    channel_id: int | None
    session_id: int | None
    message_id: int | None
    confirm_by: float
    status: str
    opened_at: float  # when it was formed (its time to confirm began)


def entry_of(r: Row) -> QueueEntry:
    return record(
        QueueEntry,
        r,
        counts=tuple(int(c) for c in r["counts"].split(",") if c),
        at_once=bool(r["at_once"]),
        joined_at=float(r["joined_at"]),
        expires_at=float(r["expires_at"]),
        confirmed=bool(r["confirmed"]),
    )


def table_of(r: Row) -> QueueTable:
    return record(QueueTable, r, confirm_by=float(r["confirm_by"]), opened_at=seconds_of(r["created_at"]))


HOLD_ATTEMPTS = 3
"""How often a table's hold runs when the database cancels it to end a wait with another
transaction (a deadlock with a process that locks rows in another order)."""

ENTRY_COLUMNS = (
    "guild_id, user_id, name, game, counts, pace, computers, rated, at_once, joined_at, expires_at, options"
)


class Queue(Concern):
    """The queue's settings, avoid lists, entries and tables."""

    # ------------------------------------------------------------------ settings

    async def channel(self, guild_id: int) -> int | None:
        """The channel where the server's queue opens its tables (None: not chosen)."""
        if not fits(guild_id):
            return None
        row = await self.db.one("SELECT channel_id FROM queue_settings WHERE guild_id = ?", guild_id)
        return row[0] if row else None

    async def set_channel(self, guild_id: int, channel_id: int | None) -> None:
        sql = upsert("queue_settings", "guild_id", "guild_id, channel_id, updated_at")
        await self.db.change(sql, guild_id, channel_id, self.clock.stamp())

    # ------------------------------------------------------------------ avoid lists

    async def avoided(self, user_id: int) -> list[int]:
        """Whom ``user_id`` avoids, in the order they were added."""
        rows = await self.db.all(
            "SELECT avoided_id FROM queue_avoid WHERE user_id = ? ORDER BY created_at, avoided_id", user_id
        )
        return [r[0] for r in rows]

    async def avoid_lists(self, user_ids: Iterable[int]) -> dict[int, frozenset[int]]:
        """Several people's avoid lists in one query."""
        ids = sorted({u for u in user_ids if fits(u)})
        found: dict[int, set[int]] = {u: set() for u in ids}
        if ids:
            marks = ", ".join("?" for _ in ids)
            rows = await self.db.all(
                f"SELECT user_id, avoided_id FROM queue_avoid WHERE user_id IN ({marks})", *ids
            )
            for r in rows:
                found[r[0]].add(r[1])
        return {u: frozenset(s) for u, s in found.items()}

    async def avoid(self, user_id: int, other_id: int, most: int) -> str:
        """Add ``other_id`` to ``user_id``'s avoid list: ``added``, ``already`` (on it), or
        ``full`` (``most`` people are on it already; nothing changed)."""
        stamp = self.clock.stamp()

        def body() -> Body[str]:
            there = yield from one(
                "SELECT 1 FROM queue_avoid WHERE user_id = ? AND avoided_id = ?", user_id, other_id
            )
            if there:
                return "already"
            count = yield from the_one("SELECT COUNT(*) FROM queue_avoid WHERE user_id = ?", user_id)
            if count[0] >= most:
                return "full"
            yield from run(
                "INSERT INTO queue_avoid (user_id, avoided_id, created_at) VALUES (?, ?, ?)",
                user_id,
                other_id,
                stamp,
            )
            return "added"

        try:
            return await self.db.transact(body())
        except Conflict:  # added meanwhile
            return "already"

    async def unavoid(self, user_id: int, other_id: int) -> bool:
        """Take ``other_id`` off ``user_id``'s avoid list; False when they were not on it."""
        changed = await self.db.change(
            "DELETE FROM queue_avoid WHERE user_id = ? AND avoided_id = ?", user_id, other_id
        )
        return changed == 1

    # ------------------------------------------------------------------ entries

    async def join(
        self,
        *,
        guild_id: int,
        user_id: int,
        name: str,
        game: str,
        counts: Sequence[int],
        pace: str,
        computers: int,
        rated: str,
        at_once: bool,
        expires_at: float,
        options: str = "{}",
    ) -> QueueEntry | None:
        """Wait in the server's queue (replacing the person's earlier wishes, at a new place;
        ``options``: the game options waited for, as JSON); None when the person is held by a
        table being confirmed (nothing changed)."""
        now = self.clock.time()

        def body() -> Body[QueueEntry | None]:
            held = yield from one(
                "SELECT table_id FROM queue_entries WHERE guild_id = ? AND user_id = ?", guild_id, user_id
            )
            if held is not None and held[0] is not None:
                return None
            yield from run("DELETE FROM queue_entries WHERE guild_id = ? AND user_id = ?", guild_id, user_id)
            row = yield from the_one(
                f"INSERT INTO queue_entries ({ENTRY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " RETURNING *",
                guild_id,
                user_id,
                name,
                game,
                ",".join(str(c) for c in sorted(set(counts))),
                pace,
                computers,
                rated,
                int(at_once),
                now,
                float(expires_at),
                options,
            )
            return entry_of(row)

        return await self.db.transact(body())

    async def entry(self, guild_id: int, user_id: int) -> QueueEntry | None:
        if not (fits(guild_id) and fits(user_id)):
            return None
        row = await self.db.one(
            "SELECT * FROM queue_entries WHERE guild_id = ? AND user_id = ?", guild_id, user_id
        )
        return entry_of(row) if row else None

    async def entries(self, guild_id: int) -> list[QueueEntry]:
        """Everyone in the server's queue, longest waiting first (those held by a table too)."""
        rows = await self.db.all(
            "SELECT * FROM queue_entries WHERE guild_id = ? ORDER BY joined_at, id", guild_id
        )
        return [entry_of(r) for r in rows]

    async def leave(self, guild_id: int, user_id: int) -> QueueEntry | None:
        """Leave the queue (a person held by a table too: the caller handles the table); the
        entry as it was, or None when they were not waiting."""

        def body() -> Body[QueueEntry | None]:
            row = yield from one(
                "SELECT * FROM queue_entries WHERE guild_id = ? AND user_id = ?", guild_id, user_id
            )
            if row is None:
                return None
            yield from run("DELETE FROM queue_entries WHERE id = ?", row["id"])
            return entry_of(row)

        return await self.db.transact(body())

    async def expire(self, guild_id: int, user_id: int) -> QueueEntry | None:
        """Drop the person's entry if its wait is over and no table holds it; the entry dropped."""
        now = self.clock.time()

        def body() -> Body[QueueEntry | None]:
            row = yield from one(
                "SELECT * FROM queue_entries WHERE guild_id = ? AND user_id = ?", guild_id, user_id
            )
            if row is None or row["table_id"] is not None or float(row["expires_at"]) > now:
                return None
            yield from run("DELETE FROM queue_entries WHERE id = ?", row["id"])
            return entry_of(row)

        return await self.db.transact(body())

    async def guilds_of(self, user_id: int) -> list[int]:
        """The servers whose queues ``user_id`` waits in."""
        if not fits(user_id):
            return []
        rows = await self.db.all(
            "SELECT guild_id FROM queue_entries WHERE user_id = ? ORDER BY guild_id", user_id
        )
        return [r[0] for r in rows]

    # ------------------------------------------------------------------ tables

    async def hold(
        self,
        *,
        guild_id: int,
        game: str,
        size: int,
        pace: str,
        rated: str,
        confirm_by: float,
        user_ids: Sequence[int],
        entry_ids: Sequence[int] | None = None,
    ) -> int | None:
        """A table for ``user_ids``, each held by it (those who chose to start at once count as
        confirmed), with its ``queue_confirm`` job at ``confirm_by`` armed in the same commit (a
        process that stops next leaves no one held for good); None when one of them is no longer
        waiting, or (with ``entry_ids``, the entries the table was formed from) waits with other
        wishes now: they joined again meanwhile (nothing changed)."""
        stamp = self.clock.stamp()

        def body() -> Body[int | None]:
            marks = ", ".join("?" for _ in user_ids)
            same = "" if entry_ids is None else " AND id IN ({})".format(", ".join("?" for _ in entry_ids))
            free = yield from the_one(
                f"SELECT COUNT(*) FROM queue_entries WHERE guild_id = ? AND table_id IS NULL"
                f" AND user_id IN ({marks}){same}",
                guild_id,
                *user_ids,
                *(entry_ids or ()),
            )
            if free[0] != len(set(user_ids)):
                return None
            row = yield from the_one(
                "INSERT INTO queue_tables (guild_id, game, size, pace, rated, confirm_by, status, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, 'confirming', ?) RETURNING id",
                guild_id,
                game,
                size,
                pace,
                rated,
                float(confirm_by),
                stamp,
            )
            # Only those still free: another process may have held them since they were counted
            # (PostgreSQL reads each statement afresh); then this table is rolled back.  One row
            # at a time in the order of the user ids, so two processes holding some of the same
            # people lock them in the same order and never wait on each other in a circle.
            held = 0
            for uid in sorted(set(user_ids)):
                held += yield from run(
                    "UPDATE queue_entries SET table_id = ?, confirmed = at_once WHERE guild_id = ?"
                    f" AND user_id = ? AND table_id IS NULL{same}",
                    row[0],
                    guild_id,
                    uid,
                    *(entry_ids or ()),
                )
            if held != len(set(user_ids)):
                raise Conflict("the table's people were held by another table meanwhile")
            yield from run(ARM_SQL, QUEUE_CONFIRM, str(row[0]), float(confirm_by), job_json({}), stamp)
            return row[0]

        for attempt in range(1, HOLD_ATTEMPTS + 1):
            try:
                return await self.db.transact(body())
            except Conflict:
                return None
            except Contended:  # cancelled to end a wait with another transaction: nothing held
                if attempt == HOLD_ATTEMPTS:
                    raise
        raise AssertionError("unreachable")

    async def table(self, table_id: int) -> QueueTable | None:
        if not fits(table_id):
            return None
        row = await self.db.one("SELECT * FROM queue_tables WHERE id = ?", table_id)
        return table_of(row) if row else None

    async def tables(self, status: str = "confirming") -> list[QueueTable]:
        rows = await self.db.all("SELECT * FROM queue_tables WHERE status = ? ORDER BY id", status)
        return [table_of(r) for r in rows]

    async def seated(self, table_id: int) -> list[QueueEntry]:
        """The people a table holds, longest waiting first."""
        rows = await self.db.all(
            "SELECT * FROM queue_entries WHERE table_id = ? ORDER BY joined_at, id", table_id
        )
        return [entry_of(r) for r in rows]

    async def place_table(
        self,
        table_id: int,
        *,
        channel_id: int | None,
        session_id: int | None,
        message_id: int | None,
        shown: str | None = None,
    ) -> bool:
        """Where the table was opened: its thread, its session, the message with the Confirm button
        (``shown``: what it says, kept by the table's ``queue_confirm`` job, in the same commit).
        False when it is no longer being confirmed (its people went back to the queue while it
        was opened: someone left); nothing changed then."""

        def body() -> Body[bool]:
            changed = yield from run(
                "UPDATE queue_tables SET channel_id = ?, session_id = ?, message_id = ?"
                " WHERE id = ? AND status = 'confirming'",
                channel_id,
                session_id,
                message_id,
                table_id,
            )
            if changed == 1 and shown is not None:
                yield from run(
                    "UPDATE jobs SET payload = ? WHERE kind = ? AND key = ?",
                    job_json({"shown": shown}),
                    QUEUE_CONFIRM,
                    str(table_id),
                )
            return changed == 1

        return await self.db.transact(body())

    async def confirm(self, table_id: int, user_id: int) -> tuple[bool, bool]:
        """``user_id`` confirms their seat: (whether that changed anything, whether everyone at
        the table has confirmed now)."""

        def body() -> Body[tuple[bool, bool]]:
            changed = yield from run(
                "UPDATE queue_entries SET confirmed = 1 WHERE table_id = ? AND user_id = ? AND confirmed = 0",
                table_id,
                user_id,
            )
            left = yield from the_one(
                "SELECT COUNT(*) FROM queue_entries WHERE table_id = ? AND confirmed = 0", table_id
            )
            return changed == 1, left[0] == 0

        return await self.db.transact(body())

    async def extend_table(self, table_id: int, job: Job, confirm_by: float) -> bool:
        """The table's time to confirm is over at ``confirm_by`` now, its claimed ``queue_confirm``
        ``job`` given back for then, in one transaction; False (nothing changed) when the table
        was no longer being confirmed or the job was taken meanwhile."""
        sql = "UPDATE queue_tables SET confirm_by = ? WHERE id = ? AND status = 'confirming'"
        return await moved_with(self.db, job, confirm_by, sql, float(confirm_by), table_id)

    async def start_table(self, table_id: int) -> bool:
        """The table's game starts: its people leave the queue.  False when it was no longer
        being confirmed (started or returned already)."""

        def body() -> Body[bool]:
            changed = yield from run(
                "UPDATE queue_tables SET status = 'started' WHERE id = ? AND status = 'confirming'", table_id
            )
            if changed != 1:
                return False
            yield from run("DELETE FROM queue_entries WHERE table_id = ?", table_id)
            return True

        return await self.db.transact(body())

    async def return_table(self, table_id: int, dropped: Iterable[int]) -> list[QueueEntry] | None:
        """The table is not played: ``dropped`` leave the queue, the others wait again at their
        places.  The entries dropped, or None when the table was no longer being confirmed."""
        gone = sorted(set(dropped))

        def body() -> Body[list[QueueEntry] | None]:
            changed = yield from run(
                "UPDATE queue_tables SET status = 'returned' WHERE id = ? AND status = 'confirming'", table_id
            )
            if changed != 1:
                return None
            rows = yield from all_("SELECT * FROM queue_entries WHERE table_id = ?", table_id)
            out = [entry_of(r) for r in rows if r["user_id"] in gone]
            for e in out:
                yield from run("DELETE FROM queue_entries WHERE id = ?", e.id)
            yield from run(
                "UPDATE queue_entries SET table_id = NULL, confirmed = 0 WHERE table_id = ?", table_id
            )
            return out

        return await self.db.transact(body())

    async def set_unrated(self, session_id: int) -> None:
        """The game will not be rated (its people all chose unrated)."""
        await self.db.change("UPDATE sessions SET unrated = 1 WHERE id = ?", session_id)
