"""Leagues on Discord's calendar, on both back ends (migration 025): each round's scheduled event,
a league's forum, the tag each forum post carries, and the notices an organiser got once."""

from __future__ import annotations

from typing import Literal

from bot.storage.base import Backend

Tag = Literal["waiting", "playing", "done"]
TAGS: tuple[Tag, ...] = ("waiting", "playing", "done")


class LeagueCalendar:
    """Rows of ``league_events``, ``league_forums``, ``league_posts`` and ``league_told``."""

    def __init__(self, db: Backend):
        self.db = db

    async def event(self, league_id: int, round: int) -> int | None:
        row = await self.db.one(
            "SELECT event_id FROM league_events WHERE league_id = ? AND round = ?", league_id, round
        )
        return None if row is None else int(row["event_id"])

    async def set_event(self, league_id: int, round: int, event_id: int) -> None:
        await self.db.change(
            "INSERT INTO league_events (league_id, round, event_id) VALUES (?, ?, ?)"
            " ON CONFLICT (league_id, round) DO UPDATE SET event_id = excluded.event_id",
            league_id,
            round,
            event_id,
        )

    async def forum(self, league_id: int) -> int | None:
        """The forum the league posts its tables in; None: threads under its channel."""
        row = await self.db.one("SELECT forum_id FROM league_forums WHERE league_id = ?", league_id)
        return None if row is None else int(row["forum_id"])

    async def set_forum(self, league_id: int, forum_id: int | None) -> None:
        if forum_id is None:
            await self.db.change("DELETE FROM league_forums WHERE league_id = ?", league_id)
            return
        await self.db.change(
            "INSERT INTO league_forums (league_id, forum_id, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (league_id) DO UPDATE SET forum_id = excluded.forum_id, updated_at = excluded.updated_at",
            league_id,
            forum_id,
            self.db.clock.stamp(),
        )

    async def post(self, post_id: int) -> tuple[int, int, Tag] | None:
        """(league, forum, tag) of a forum post of a league's table; None for any other thread."""
        row = await self.db.one(
            "SELECT league_id, forum_id, tag FROM league_posts WHERE post_id = ?", post_id
        )
        return None if row is None else (int(row["league_id"]), int(row["forum_id"]), row["tag"])

    async def set_post(self, post_id: int, league_id: int, forum_id: int, tag: Tag) -> None:
        if tag not in TAGS:
            raise ValueError(f"no tag {tag!r}")
        await self.db.change(
            "INSERT INTO league_posts (post_id, league_id, forum_id, tag) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (post_id) DO UPDATE SET tag = excluded.tag",
            post_id,
            league_id,
            forum_id,
            tag,
        )

    async def drop_post(self, post_id: int) -> None:
        """Forget a league's forum post (it was deleted): nothing tags it any more."""
        await self.db.change("DELETE FROM league_posts WHERE post_id = ?", post_id)

    async def told(self, league_id: int, what: str) -> bool:
        """Whether the organiser of ``league_id`` was told ``what`` (:meth:`first_time` noted it)."""
        row = await self.db.one("SELECT 1 FROM league_told WHERE league_id = ? AND what = ?", league_id, what)
        return row is not None

    async def first_time(self, league_id: int, what: str) -> bool:
        """Note that the organiser of ``league_id`` is told ``what``: True the first time only."""
        changed = await self.db.change(
            "INSERT INTO league_told (league_id, what, told_at) VALUES (?, ?, ?)"
            " ON CONFLICT (league_id, what) DO NOTHING",
            league_id,
            what,
            self.db.clock.stamp(),
        )
        return changed > 0
