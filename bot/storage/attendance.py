"""League attendance (both back ends): a league's check-in and requested-bye choices, check-in
windows and check-ins, byes and pauses asked for, late sign-ups, and why each bye was given.

The rules are in :mod:`bot.league.attendance`; this module only stores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.league.attendance import Settings
from bot.storage.base import Body, Concern, Conflict, all_, fits, one, run, upsert
from bot.storage.leagues import sign_up, signed_up


@dataclass(frozen=True)
class Window:
    round: int
    opened_at: float
    closes_at: float
    called: bool = True  # its call (the post and the direct messages) has gone out


class Attendance(Concern):
    """Check-ins, requests and the kinds of byes."""

    async def settings(self, league_id: int) -> Settings:
        row = await self.db.one(
            "SELECT checkin, checkin_seconds, requested_bye FROM league_attendance WHERE league_id = ?",
            league_id,
        )
        return Settings() if row is None else Settings(row[0], float(row[1]), row[2])

    async def set_settings(self, league_id: int, settings: Settings) -> None:
        await self.db.change(
            upsert(
                "league_attendance",
                "league_id",
                "league_id, checkin, checkin_seconds, requested_bye, updated_at",
            ),
            league_id,
            settings.checkin,
            float(settings.checkin_seconds),
            settings.requested_bye,
            self.clock.stamp(),
        )

    # ----------------------------------------------------------------- check-in

    async def window(self, league_id: int, number: int) -> Window | None:
        row = await self.db.one(
            "SELECT round, opened_at, closes_at, called FROM league_checkin_windows WHERE league_id = ? AND round = ?",
            league_id,
            number,
        )
        return None if row is None else Window(row[0], float(row[1]), float(row[2]), bool(row[3]))

    async def open_window(self, league_id: int, number: int, closes_at: float) -> bool:
        """Open round ``number``'s window, its call not made yet (:meth:`called`); False when it was
        open already."""
        try:
            await self.db.change(
                "INSERT INTO league_checkin_windows (league_id, round, opened_at, closes_at, called)"
                " VALUES (?, ?, ?, ?, 0)",
                league_id,
                number,
                self.clock.time(),
                float(closes_at),
            )
        except Conflict:
            return False
        return True

    async def called(self, league_id: int, number: int) -> None:
        """Round ``number``'s check-in call has gone out."""
        await self.db.change(
            "UPDATE league_checkin_windows SET called = 1 WHERE league_id = ? AND round = ?",
            league_id,
            number,
        )

    async def check_in(self, league_id: int, number: int, user_id: int) -> bool:
        """Check ``user_id`` in for round ``number``; False when they were already."""
        try:
            await self.db.change(
                "INSERT INTO league_checkins (league_id, round, user_id, checked_at) VALUES (?, ?, ?, ?)",
                league_id,
                number,
                user_id,
                self.clock.time(),
            )
        except Conflict:
            return False
        return True

    async def checked_in(self, league_id: int, number: int) -> set[int]:
        rows = await self.db.all(
            "SELECT user_id FROM league_checkins WHERE league_id = ? AND round = ?", league_id, number
        )
        return {r[0] for r in rows}

    # ----------------------------------------------------------------- requests

    async def requests(self, league_id: int, user_id: int | None = None) -> dict[tuple[int, int], str]:
        """(round, user) -> ``bye`` or ``pause``, of everyone or of one player."""
        if user_id is None:
            rows = await self.db.all(
                "SELECT round, user_id, kind FROM league_requests WHERE league_id = ?", league_id
            )
        else:
            rows = await self.db.all(
                "SELECT round, user_id, kind FROM league_requests WHERE league_id = ? AND user_id = ?",
                league_id,
                user_id,
            )
        return {(r[0], r[1]): r[2] for r in rows}

    async def request(self, league_id: int, user_id: int, rounds: Sequence[int], kind: str) -> list[int]:
        """Ask ``kind`` for ``rounds`` not paired yet, keeping any request already made for one of
        them; the rounds newly asked for."""
        stamp = self.clock.stamp()

        def body() -> Body[list[int]]:
            current = yield from _paired_through(league_id)
            added = []
            for number in rounds:
                if number <= current:
                    continue
                there = yield from one(
                    "SELECT kind FROM league_requests WHERE league_id = ? AND round = ? AND user_id = ?",
                    league_id,
                    number,
                    user_id,
                )
                if there is not None:
                    continue
                yield from run(
                    "INSERT INTO league_requests (league_id, round, user_id, kind, created_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    league_id,
                    number,
                    user_id,
                    kind,
                    stamp,
                )
                added.append(number)
            return added

        return await self.db.transact(body())

    async def withdraw(
        self, league_id: int, user_id: int, kind: str, rounds: Sequence[int] | None = None
    ) -> list[int]:
        """Take back requests of ``kind`` for rounds not paired yet (``rounds``: only those); the
        rounds taken back."""

        def body() -> Body[list[int]]:
            current = yield from _paired_through(league_id)
            found = yield from _rounds_of(league_id, user_id, kind, current)
            gone = [n for n in found if rounds is None or n in rounds]
            for number in gone:
                yield from run(
                    "DELETE FROM league_requests WHERE league_id = ? AND round = ? AND user_id = ?",
                    league_id,
                    number,
                    user_id,
                )
            return gone

        return await self.db.transact(body())

    # ----------------------------------------------------------------- byes and late sign-ups

    async def bye_kinds(self, league_id: int) -> dict[tuple[int, int], str]:
        """(round, user) -> why the bye was given, for every bye of the league."""
        rows = await self.db.all(
            "SELECT round, user_id, kind FROM league_byes WHERE league_id = ?", league_id
        )
        return {(r[0], r[1]): r[2] for r in rows}

    async def late_join(self, league_id: int, user_id: int, name: str, bye_points: float) -> str:
        """Sign up for a running league: 'joined' (with one bye in the round in play, if one is:
        the round waiting for the organiser's review, paired without them, else the current
        one), 'already', or 'closed' (not running, or the round moved on meanwhile)."""
        if not fits(user_id):
            return "closed"

        def late_bye(current_round: int) -> Body[None]:
            drafted = yield from one(
                "SELECT 1 FROM league_drafts WHERE league_id = ? AND round = ?", league_id, current_round + 1
            )
            number = current_round + 1 if drafted is not None else current_round
            if number >= 1:
                yield from run(
                    "INSERT INTO league_byes (league_id, round, user_id, points, kind) VALUES (?, ?, ?, ?, 'late')",
                    league_id,
                    number,
                    user_id,
                    float(bye_points),
                )

        return await signed_up(
            self.db, sign_up(league_id, user_id, name, self.clock.stamp(), "running", late_bye)
        )


def _paired_through(league_id: int) -> Body[int]:
    """The last round paired: the current one, or the next when it waits for the organiser's
    review (its tables are drawn; a request for it would not reach them)."""
    row = yield from one("SELECT current_round FROM leagues WHERE id = ?", league_id)
    current = row[0] if row is not None else 0
    drafted = yield from one(
        "SELECT 1 FROM league_drafts WHERE league_id = ? AND round = ?", league_id, current + 1
    )
    return current + 1 if drafted is not None else current


def _rounds_of(league_id: int, user_id: int, kind: str, after: int) -> Body[list[int]]:
    rows = yield from all_(
        "SELECT round FROM league_requests WHERE league_id = ? AND user_id = ? AND kind = ? AND round > ?"
        " ORDER BY round",
        league_id,
        user_id,
        kind,
        after,
    )
    return [r[0] for r in rows]
