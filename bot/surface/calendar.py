"""A league on Discord's calendar and in a forum: :class:`DiscordCalendar` does what
:mod:`bot.league.calendar` asks (scheduled events, forum posts and their tags).

External scheduled events need Create Events on the server; a forum post needs View Channel and
Send Messages in the forum (Create Public Threads does not count there), and the game in it Send
Messages in Threads, Attach Files and Embed Links; adding the league's tags to a forum needs
Manage Channels.  Refusals are logged and answered with None or False: the league goes on.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Sequence

import discord

from languages import N_

log = logging.getLogger(__name__)

NEEDED_IN_FORUM = (
    ("view_channel", N_("View Channel")),
    ("send_messages", N_("Send Messages")),
    ("send_messages_in_threads", N_("Send Messages in Threads")),
    ("attach_files", N_("Attach Files")),
    ("embed_links", N_("Embed Links")),
    ("read_message_history", N_("Read Message History")),
)
"""What the bot needs in a league's forum: to post a table, and to play its game in the post."""


def iso(seconds: float) -> str:
    return datetime.datetime.fromtimestamp(seconds, datetime.UTC).isoformat()


class DiscordCalendar:
    """:class:`bot.league.calendar.CalendarPosts` through the bot's REST client and cache."""

    def __init__(self, bot: discord.Client):
        self.bot = bot

    def forum(self, forum_id: int) -> discord.ForumChannel | None:
        found = self.bot.get_channel(forum_id)
        return found if isinstance(found, discord.ForumChannel) else None

    async def missing_event_permissions(self, guild_id: int) -> list[str]:
        guild = self.bot.get_guild(guild_id)
        if guild is None or guild.me is None:
            return []  # not in this process's cache: creating the event says
        perms = guild.me.guild_permissions
        return [] if perms.create_events or perms.manage_events else [N_("Create Events")]

    async def create_event(
        self, guild_id: int, name: str, description: str, start: float, end: float, location: str
    ) -> int | None:
        try:
            data = await self.bot.http.create_guild_scheduled_event(
                guild_id,
                name=name,
                description=description,
                privacy_level=discord.PrivacyLevel.guild_only.value,
                entity_type=discord.EntityType.external.value,
                scheduled_start_time=iso(start),
                scheduled_end_time=iso(end),
                entity_metadata={"location": location},
            )
        except discord.HTTPException as exc:
            log.warning("no scheduled event in server %s (%s)", guild_id, exc)
            return None
        return int(data["id"])

    async def finish_event(self, guild_id: int, event_id: int, description: str) -> bool:
        try:
            data = await self.bot.http.get_scheduled_event(guild_id, event_id, False)
            status = int(data["status"])
            if status in (discord.EventStatus.completed.value, discord.EventStatus.cancelled.value):
                return False  # over already (Discord ends an external event at its end time)
            ending = (
                discord.EventStatus.completed
                if status == discord.EventStatus.active.value
                else discord.EventStatus.cancelled
            )
            await self.bot.http.edit_scheduled_event(
                guild_id, event_id, description=description, status=ending.value
            )
        except discord.HTTPException as exc:
            log.warning("scheduled event %s not ended (%s)", event_id, exc)
            return False
        return True

    async def move_event(self, guild_id: int, event_id: int, end: float) -> bool:
        try:
            await self.bot.http.edit_scheduled_event(guild_id, event_id, scheduled_end_time=iso(end))
        except discord.HTTPException as exc:
            log.warning("scheduled event %s not moved (%s)", event_id, exc)
            return False
        return True

    async def missing_forum_permissions(self, forum_id: int) -> list[str]:
        forum = self.forum(forum_id)
        if forum is None or forum.guild.me is None:
            return [N_("View Channel")]
        perms = forum.permissions_for(forum.guild.me)
        missing = [(attr, label) for attr, label in NEEDED_IN_FORUM if not getattr(perms, attr)]
        if not perms.send_messages:  # Discord takes these away with it: granting it gives them back
            missing = [(a, label) for a, label in missing if a not in ("attach_files", "embed_links")]
        return [label for _, label in missing]

    async def forum_tags(self, forum_id: int, names: Sequence[str]) -> list[str]:
        forum = self.forum(forum_id)
        if forum is None:
            return list(names)
        have = {t.name.casefold() for t in forum.available_tags}
        missing = [n for n in names if n.casefold() not in have]
        if not missing:
            return []
        try:
            await forum.edit(
                available_tags=[*forum.available_tags, *(discord.ForumTag(name=n) for n in missing)]
            )
        except discord.HTTPException as exc:
            log.info("no tags added to forum %s (%s)", forum_id, exc)
            return missing
        return []

    def tag(self, forum: discord.ForumChannel, names: Sequence[str]) -> discord.ForumTag | None:
        wanted = [n.casefold() for n in names]
        for name in wanted:
            for tag in forum.available_tags:
                if tag.name.casefold() == name:
                    return tag
        return None

    async def open_post(self, forum_id: int, name: str, text: str, tags: Sequence[str]) -> int | None:
        forum = self.forum(forum_id)
        if forum is None:
            return None
        tag = self.tag(forum, tags)
        try:
            made = await forum.create_thread(
                name=name,
                content=text,
                applied_tags=[tag] if tag is not None else [],
                allowed_mentions=discord.AllowedMentions.none(),
                auto_archive_duration=10080,
            )
        except discord.HTTPException as exc:
            log.warning("no post in forum %s (%s)", forum_id, exc)
            return None
        return made.thread.id

    async def tag_post(self, post_id: int, forum_id: int, tags: Sequence[str], drop: Sequence[str]) -> bool:
        forum = self.forum(forum_id)
        if forum is None:
            return False
        tag = self.tag(forum, tags)
        if tag is None:
            return False
        post = forum.get_thread(post_id)
        dropped = {n.casefold() for n in drop}
        keep = [
            t for t in (post.applied_tags if post is not None else []) if t.name.casefold() not in dropped
        ]
        try:
            await self.bot.http.edit_channel(post_id, applied_tags=[str(t.id) for t in [*keep, tag]][-5:])
        except discord.HTTPException as exc:
            log.warning("forum post %s not tagged (%s)", post_id, exc)
            return False
        return True
