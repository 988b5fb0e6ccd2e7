"""History: the move log as read back, saved snapshots, and undo requests.

The log itself is append-only (triggers refuse any change to a row); moves are written only by
the commit (:mod:`bot.storage.games`).  Snapshots are shortcuts the log can rebuild.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from bot.storage.base import Body, Concern, MoveRow, UndoRequest, all_, many, move_of, one, run, undo_of
from bot.storage.profiles import HANDOVERS, Holder, LoggedMove, holders_of


class History(Concern):
    """A game's moves, snapshots and pending undo request."""

    async def moves(self, session_id: int, *, last: int | None = None) -> list[MoveRow]:
        if last is None:
            rows = await self.db.all("SELECT * FROM moves WHERE session_id = ? ORDER BY number", session_id)
        else:
            rows = await self.db.all(
                "SELECT * FROM (SELECT * FROM moves WHERE session_id = ? ORDER BY number DESC LIMIT ?) AS recent"
                " ORDER BY number",
                session_id,
                last,
            )
        return [move_of(r) for r in rows]

    async def move_count(self, session_id: int) -> int:
        row = await self.db.the_row("SELECT COUNT(*) FROM moves WHERE session_id = ?", session_id)
        return row[0]

    async def started_at(self, session_id: int) -> str | None:
        """When the game started (``None``: not started, or started before the time was kept)."""
        row = await self.db.one("SELECT started_at FROM sessions WHERE id = ?", session_id)
        return row[0] if row is not None else None

    async def moves_after(self, session_id: int, number: int) -> list[MoveRow]:
        """The moves after move ``number``, oldest first (what the channel has not been told)."""
        rows = await self.db.all(
            "SELECT * FROM moves WHERE session_id = ? AND number > ? ORDER BY number", session_id, number
        )
        return [move_of(r) for r in rows]

    async def moved_since(
        self, session_id: int, seat: int, stamp: str, *, besides: str | None = None
    ) -> bool:
        """Whether ``seat`` made a move at ``stamp`` (a stored time) or later; with ``besides`` (the
        undo entries' prefix), a move other than those."""
        row = await self.db.one(
            "SELECT 1 FROM moves WHERE session_id = ? AND seat = ? AND created_at >= ?"
            + (" AND move NOT LIKE ?" if besides is not None else "")
            + " LIMIT 1",
            session_id,
            seat,
            stamp,
            *([besides + "%"] if besides is not None else []),
        )
        return row is not None

    async def seat_move_count(self, session_id: int, seat: int, *, undo: str | None = None) -> int:
        """How many moves ``seat`` has made, and with ``undo`` (the undo entries' prefix) every
        undo entry, whoever asked (a stale private menu is told by it)."""
        if undo is None:
            row = await self.db.the_row(
                "SELECT COUNT(*) FROM moves WHERE session_id = ? AND seat = ?", session_id, seat
            )
        else:
            row = await self.db.the_row(
                "SELECT COUNT(*) FROM moves WHERE session_id = ? AND (seat = ? OR move LIKE ?)",
                session_id,
                seat,
                undo + "%",
            )
        return row[0]

    async def moves_between(self, session_id: int, after: int, through: int) -> list[MoveRow]:
        """The moves numbered ``after + 1`` to ``through``, oldest first."""
        rows = await self.db.all(
            "SELECT * FROM moves WHERE session_id = ? AND number > ? AND number <= ? ORDER BY number",
            session_id,
            after,
            through,
        )
        return [move_of(r) for r in rows]

    async def move_at(self, session_id: int, number: int) -> MoveRow | None:
        row = await self.db.one("SELECT * FROM moves WHERE session_id = ? AND number = ?", session_id, number)
        return move_of(row) if row else None

    async def handovers(self, session_id: int) -> tuple[Holder, ...]:
        """Who held a seat of the game before it was handed to a league's substitute, in the order
        the seats changed hands (see :mod:`bot.holders`), in one trip."""

        def body() -> Body[tuple[Holder, ...]]:
            handed = yield from all_(f"{HANDOVERS} WHERE g.session_id = ? ORDER BY h.at", session_id)
            if not handed:
                return ()
            people: dict[int, dict[int, int]] = {}
            logged: dict[int, list[LoggedMove]] = {}
            if any(r[1] is None or r[3] is None for r in handed):  # stored before their place was kept
                seats = yield from all_(
                    "SELECT seat, user_id FROM seats WHERE session_id = ? AND seat IS NOT NULL"
                    " AND user_id IS NOT NULL",
                    session_id,
                )
                people[session_id] = {seat: user for seat, user in seats}
                moves = yield from all_(
                    "SELECT number, seat, by_computer, created_at FROM moves WHERE session_id = ? ORDER BY number",
                    session_id,
                )
                logged[session_id] = [LoggedMove(n, seat, bool(c), at) for n, seat, c, at in moves]
            return tuple(holders_of(handed, people, logged).get(session_id, ()))

        return await self.db.read(body())

    async def snapshot_before(self, session_id: int, number: int) -> tuple[int, dict[str, object]] | None:
        """The latest saved state at or before move ``number``: (its move number, the state)."""
        row = await self.db.one(
            "SELECT number, state FROM snapshots WHERE session_id = ? AND number <= ?"
            " ORDER BY number DESC LIMIT 1",
            session_id,
            number,
        )
        if row is None:
            return None
        try:
            state = json.loads(row[1])
        except ValueError:
            return None  # an unreadable snapshot is only a lost shortcut: the log rebuilds it
        return (row[0], state) if isinstance(state, dict) else None

    async def save_snapshots(
        self, session_id: int, states: Sequence[tuple[int, Mapping[str, object]]]
    ) -> None:
        """Keep the states after the moves given (one already saved is left as it is)."""
        if not states:
            return
        await self.db.transact(
            many(
                "INSERT INTO snapshots (session_id, number, state) VALUES (?, ?, ?)"
                " ON CONFLICT (session_id, number) DO NOTHING",
                [(session_id, n, json.dumps(s)) for n, s in states],
            )
        )

    async def snapshot_count(self, session_id: int) -> int:
        row = await self.db.the_row("SELECT COUNT(*) FROM snapshots WHERE session_id = ?", session_id)
        return row[0]

    async def drop_snapshots(self, session_id: int) -> None:
        """Forget a game's saved states (they are rebuilt from the log when needed)."""
        await self.db.change("DELETE FROM snapshots WHERE session_id = ?", session_id)

    async def ask_undo(self, request: UndoRequest) -> None:
        """Store ``request`` as the game's pending undo request (replacing an older one)."""

        def body() -> Body[None]:
            yield from run("DELETE FROM undo_requests WHERE session_id = ?", request.session_id)
            yield from run(
                "INSERT INTO undo_requests (session_id, version, seat, target, waiting, message_id, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                request.session_id,
                request.version,
                request.seat,
                request.target,
                json.dumps(sorted(request.waiting)),
                request.message_id,
                self.clock.stamp(),
            )

        await self.db.transact(body())

    async def undo_request(self, session_id: int) -> UndoRequest | None:
        row = await self.db.one("SELECT * FROM undo_requests WHERE session_id = ?", session_id)
        return undo_of(row) if row else None

    async def set_undo_message(self, session_id: int, message_id: int) -> None:
        await self.db.change(
            "UPDATE undo_requests SET message_id = ? WHERE session_id = ?", message_id, session_id
        )

    async def agree_undo(self, session_id: int, version: int, seat: int) -> UndoRequest | None:
        """``seat`` agrees to the request made at ``version``; returns it as it stands now
        (``None`` when there is no such request any more)."""

        def body() -> Body[UndoRequest | None]:
            row = yield from one(
                "SELECT * FROM undo_requests WHERE session_id = ? AND version = ?", session_id, version
            )
            if row is None:
                return None
            request = undo_of(row)
            waiting = request.waiting - {seat}
            yield from run(
                "UPDATE undo_requests SET waiting = ? WHERE session_id = ?",
                json.dumps(sorted(waiting)),
                session_id,
            )
            return UndoRequest(
                session_id, version, request.seat, request.target, frozenset(waiting), request.message_id
            )

        return await self.db.transact(body())

    async def drop_undo(self, session_id: int, version: int | None = None) -> bool:
        """Forget the game's request (only the one made at ``version``, when given)."""
        if version is None:
            changed = await self.db.change("DELETE FROM undo_requests WHERE session_id = ?", session_id)
        else:
            changed = await self.db.change(
                "DELETE FROM undo_requests WHERE session_id = ? AND version = ?", session_id, version
            )
        return changed == 1
