"""Fewer waits and following: a person's autoplay and digest hour, passes declared ahead, a game's
watchers, who follows whom, the games whose start followers were told of, and the leagues that
allow autoplay (migration 029).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.storage.base import Concern, fits, upsert


@dataclass(frozen=True)
class WaitSettings:
    """A person's choices for fewer waits (the defaults when they never chose)."""

    user_id: int
    autoplay: bool = False  # their only legal move is played for them after a short delay
    digest_hour: int | None = None  # local hour of the daily digest (None: every remind_hours)


@dataclass(frozen=True)
class PassAhead:
    session_id: int
    seat: int
    user_id: int
    version: int  # the game's version when it was declared


class Waits(Concern):
    """The stored side of :mod:`bot.waits`."""

    async def settings(self, user_id: int) -> WaitSettings:
        row = (
            await self.db.one("SELECT * FROM wait_settings WHERE user_id = ?", user_id)
            if fits(user_id)
            else None
        )
        if row is None:
            return WaitSettings(user_id)
        return WaitSettings(user_id, bool(row["autoplay"]), row["digest_hour"])

    async def set_autoplay(self, user_id: int, on: bool) -> None:
        sql = upsert("wait_settings", "user_id", "user_id, autoplay, updated_at")
        await self.db.change(sql, user_id, int(on), self.clock.stamp())

    async def set_digest_hour(self, user_id: int, hour: int | None) -> None:
        sql = upsert("wait_settings", "user_id", "user_id, digest_hour, updated_at")
        await self.db.change(sql, user_id, hour, self.clock.stamp())

    # ------------------------------------------------------------- passes declared ahead

    async def declare_pass(self, session_id: int, seat: int, user_id: int, version: int) -> None:
        sql = upsert("passes_ahead", "session_id, seat", "session_id, seat, user_id, version, created_at")
        await self.db.change(sql, session_id, seat, user_id, version, self.clock.stamp())

    async def passes(self, session_id: int) -> list[PassAhead]:
        rows = await self.db.all("SELECT * FROM passes_ahead WHERE session_id = ? ORDER BY seat", session_id)
        return [PassAhead(r["session_id"], r["seat"], r["user_id"], r["version"]) for r in rows]

    async def drop_pass(self, session_id: int, seat: int) -> bool:
        sql = "DELETE FROM passes_ahead WHERE session_id = ? AND seat = ?"
        return await self.db.change(sql, session_id, seat) == 1

    # ------------------------------------------------------------- watchers

    async def watch(self, session_id: int, user_id: int, on: bool) -> bool:
        """Start (or stop) sending a game's public posts to a person; True when that changed."""
        if on:
            sql = "INSERT INTO watchers (session_id, user_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"
            return await self.db.change(sql, session_id, user_id, self.clock.stamp()) == 1
        sql = "DELETE FROM watchers WHERE session_id = ? AND user_id = ?"
        return await self.db.change(sql, session_id, user_id) == 1

    async def watchers(self, session_id: int) -> list[int]:
        rows = await self.db.all(
            "SELECT user_id FROM watchers WHERE session_id = ? ORDER BY user_id", session_id
        )
        return [r[0] for r in rows]

    async def is_watching(self, session_id: int, user_id: int) -> bool:
        if not fits(user_id):
            return False
        row = await self.db.one(
            "SELECT 1 FROM watchers WHERE session_id = ? AND user_id = ?", session_id, user_id
        )
        return row is not None

    async def stop_watching(self, session_id: int) -> None:
        """A game ended: nobody watches it any more."""
        await self.db.change("DELETE FROM watchers WHERE session_id = ?", session_id)

    # ------------------------------------------------------------- follows

    async def follow(self, follower_id: int, followed_id: int, on: bool) -> bool:
        """Follow (or stop following) a person; True when that changed."""
        if on:
            sql = (
                "INSERT INTO follows (follower_id, followed_id, created_at) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING"
            )
            return await self.db.change(sql, follower_id, followed_id, self.clock.stamp()) == 1
        sql = "DELETE FROM follows WHERE follower_id = ? AND followed_id = ?"
        return await self.db.change(sql, follower_id, followed_id) == 1

    async def following(self, follower_id: int) -> list[int]:
        rows = await self.db.all(
            "SELECT followed_id FROM follows WHERE follower_id = ? ORDER BY created_at, followed_id",
            follower_id,
        )
        return [r[0] for r in rows]

    async def followers(self, followed: Iterable[int]) -> dict[int, list[int]]:
        """follower -> the people among ``followed`` they follow."""
        ids = sorted({u for u in followed if fits(u)})
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        rows = await self.db.all(
            f"SELECT follower_id, followed_id FROM follows WHERE followed_id IN ({marks})"
            " ORDER BY follower_id, followed_id",
            *ids,
        )
        out: dict[int, list[int]] = {}
        for r in rows:
            out.setdefault(r[0], []).append(r[1])
        return out

    async def start_told(self, session_id: int) -> bool:
        """Note that the followers were told of the game's start; False when they already were."""
        sql = "INSERT INTO starts_told (session_id, told_at) VALUES (?, ?) ON CONFLICT DO NOTHING"
        return await self.db.change(sql, session_id, self.clock.stamp()) == 1

    # ------------------------------------------------------------- leagues

    async def league_allows(self, league_id: int) -> bool:
        row = await self.db.one("SELECT allowed FROM league_autoplay WHERE league_id = ?", league_id)
        return bool(row["allowed"]) if row else False

    async def set_league_allows(self, league_id: int, allowed: bool) -> None:
        sql = upsert("league_autoplay", "league_id", "league_id, allowed, updated_at")
        await self.db.change(sql, league_id, int(allowed), self.clock.stamp())

    # ------------------------------------------------------------- the 80 % warning

    async def warn_once(self, session_id: int, seat: int, since: float) -> bool:
        """Note that the seat's turn begun at ``since`` was warned of; False when it already was."""
        sql = upsert(
            "clock_warnings",
            "session_id, seat",
            "session_id, seat, since",
            where="clock_warnings.since <> excluded.since",
        )
        return await self.db.change(sql, session_id, seat, float(since)) == 1
