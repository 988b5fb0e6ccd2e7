"""What the stand-in remembers: users, the guild, channels, messages, interactions.

These are plain records owned by the stand-in (not discord.py objects); each knows how to write
itself as the JSON payload Discord would send.
"""

from __future__ import annotations

import datetime
import itertools
import mimetypes
import re
import struct
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    pass

DISCORD_EPOCH_MS = 1420070400000
ALL_PERMISSIONS = (1 << 53) - 1
ADMINISTRATOR = 1 << 3
# @everyone in a fresh server: view, send, history, embed, attach, reactions, use app commands...
DEFAULT_EVERYONE = (
    (1 << 6)
    | (1 << 10)
    | (1 << 11)
    | (1 << 14)
    | (1 << 15)
    | (1 << 16)
    | (1 << 18)
    | (1 << 31)
    | (1 << 35)
    | (1 << 36)
    | (1 << 38)
    | (1 << 0)
    | (1 << 26)
)
README_INVITE = 309237763072
"""The permissions the README's invite asks for: View Channels, Send Messages, Embed Links, Attach
Files, Read Message History, Create Public Threads, Send Messages in Threads."""
# the bot's role: the invite's permissions and Create Events (which the README offers for leagues);
# no Manage Messages nor Manage Threads, which the README says the bot does not need
BOT_PERMISSIONS = DEFAULT_EVERYONE | README_INVITE | (1 << 44)

VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
SEND_MESSAGES_IN_THREADS = 1 << 38
MANAGE_THREADS = 1 << 34
MANAGE_MESSAGES = 1 << 13
MENTION_EVERYONE = 1 << 17
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
READ_MESSAGE_HISTORY = 1 << 16
HAS_THREAD = 1 << 5  # message flag: a thread was started from this message
AUTO_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)  # minutes, the only values Discord takes
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_CHANNELS = 1 << 4
MANAGE_EVENTS = 1 << 33  # edit and delete anyone's scheduled events
CREATE_EVENTS = 1 << 44  # create scheduled events, edit and delete one's own
GUILD_FORUM = 15  # a channel that holds only threads (posts)
REQUIRE_TAG = 1 << 4  # channel flag: a forum post must carry a tag
FORUM_TAGS_MAX = 20  # tags a forum offers
APPLIED_TAGS_MAX = 5  # tags one post carries
# Scheduled events: entity types, statuses, and the moves Discord allows between statuses.
STAGE_INSTANCE, VOICE, EXTERNAL = 1, 2, 3
SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
EVENT_MOVES = {(SCHEDULED, ACTIVE), (ACTIVE, COMPLETED), (SCHEDULED, CANCELED)}

_counter = itertools.count()


def snowflake() -> int:
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_counter) % (1 << 22))


def iso(ts: float | None = None) -> str:
    return datetime.datetime.fromtimestamp(ts if ts is not None else time.time(), datetime.UTC).isoformat()


@dataclass(eq=False)
class User:
    id: int
    name: str
    bot: bool = False
    dms_open: bool = True  # the user accepts direct messages from the bot (a privacy setting)
    locale: str = "en-US"  # the language of the user's Discord client (an interaction's ``locale``)

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name.title(),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
            "primary_guild": None,
            "collectibles": None,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def __repr__(self) -> str:
        return f"<User {self.name} {self.id}>"


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    mentionable: bool = False  # anyone may ping it (else only those with Mention Everyone)

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "managed": self.managed,
            "mentionable": self.mentionable,
            "flags": 0,
        }

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"


@dataclass(eq=False)
class Member:
    user: User
    roles: list[Role] = field(default_factory=list)
    joined_at: float = field(default_factory=time.time)
    nick: str | None = None

    def payload(self, permissions: int | None = None) -> dict[str, Any]:
        out = {
            "user": self.user.payload(),
            "roles": [str(r.id) for r in self.roles],
            "joined_at": iso(self.joined_at),
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if permissions is not None:
            out["permissions"] = str(permissions)
        return out


@dataclass(eq=False)
class Channel:
    id: int
    name: str
    guild: Guild | None  # None for a direct message channel
    type: int = 0  # 0 text, 1 DM, 11 public thread, 4 category
    position: int = 0
    parent_id: int | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440  # minutes (a thread's)
    archive_timestamp: float = field(default_factory=time.time)  # created, archived or unarchived
    created: float = field(default_factory=time.time)
    overwrites: dict[int, tuple[int, int, int]] = field(default_factory=dict)  # id -> (type, allow, deny)
    members: tuple[User, ...] = ()  # a DM's two ends
    thread_members: set[int] = field(default_factory=set)  # a thread's members (user ids)
    flags: int = 0  # channel flags (a forum's REQUIRE_TAG)
    available_tags: list[dict[str, Any]] = field(default_factory=list)  # a forum's tags, as Discord answers
    applied_tags: list[int] = field(default_factory=list)  # a forum post's tags (ids)

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    @property
    def is_dm(self) -> bool:
        return self.type == 1

    @property
    def is_forum(self) -> bool:
        return self.type == GUILD_FORUM

    @property
    def in_forum(self) -> bool:
        """A thread whose parent is a forum (a forum post)."""
        if not self.is_thread or self.guild is None or self.parent_id is None:
            return False
        return any(c.id == self.parent_id and c.is_forum for c in self.guild.channels)

    def tag(self, tag_id: int) -> dict[str, Any] | None:
        """A forum's tag by id."""
        return next((t for t in self.available_tags if int(t["id"]) == tag_id), None)

    def recipients(self, viewer: User) -> list[User]:
        """A DM's other end, as ``viewer`` sees it."""
        return [u for u in self.members if u is not viewer]

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self, viewer: User | None = None) -> dict[str, Any]:
        if self.is_dm:
            viewer = viewer or next((u for u in self.members if u.bot), self.members[0])
            return {
                "id": str(self.id),
                "type": 1,
                "flags": 0,
                "last_message_id": None,
                "recipients": [u.payload() for u in self.recipients(viewer)],
            }
        assert self.guild is not None
        base = {
            "id": str(self.id),
            "guild_id": str(self.guild.id),
            "name": self.name,
            "type": self.type,
            "position": self.position,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "permission_overwrites": [
                {"id": str(k), "type": t, "allow": str(a), "deny": str(d)}
                for k, (t, a, d) in self.overwrites.items()
            ],
            "nsfw": False,
            "rate_limit_per_user": 0,
            "topic": None,
            "last_message_id": None,
            "flags": self.flags,
        }
        if self.type == GUILD_FORUM:
            base.update(
                {
                    "available_tags": [dict(t) for t in self.available_tags],
                    "default_reaction_emoji": None,
                    "default_sort_order": None,
                    "default_forum_layout": 0,
                    "default_thread_rate_limit_per_user": 0,
                }
            )
        if self.is_thread and self.in_forum:
            base["applied_tags"] = [str(t) for t in self.applied_tags]
        if self.is_thread:
            base.update(
                {
                    "owner_id": str(self.owner_id or self.guild.owner.id),
                    "message_count": 0,
                    "member_count": 1,
                    "total_message_sent": 0,
                    "thread_metadata": {
                        "archived": self.archived,
                        "auto_archive_duration": self.auto_archive_duration,
                        "archive_timestamp": iso(self.archive_timestamp),
                        "locked": self.locked,
                        "invitable": True,
                        "create_timestamp": iso(self.created),
                    },
                }
            )
            del base["position"], base["permission_overwrites"]
        return base

    def __repr__(self) -> str:
        return f"<Channel #{self.name} {self.id}>"


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner: User
    roles: list[Role] = field(default_factory=list)
    channels: list[Channel] = field(default_factory=list)  # text channels and threads, in order
    members: dict[int, Member] = field(default_factory=dict)
    locale: str = "en-US"  # the server's preferred locale (its community language)
    scheduled_events: list[ScheduledEvent] = field(default_factory=list)

    @property
    def forums(self) -> list[Channel]:
        return [c for c in self.channels if c.is_forum]

    @property
    def everyone(self) -> Role:
        return self.roles[0]

    @property
    def text_channels(self) -> list[Channel]:
        return [c for c in self.channels if c.type == 0]

    @property
    def threads(self) -> list[Channel]:
        return [c for c in self.channels if c.is_thread]

    def channel(self, name_or_id: str | int) -> Channel:
        for c in self.channels:
            if c.name == name_or_id or c.id == name_or_id:
                return c
        raise KeyError(f"no channel {name_or_id!r}; have {[c.name for c in self.channels]}")

    def role(self, name: str) -> Role:
        for r in self.roles:
            if r.name == name:
                return r
        raise KeyError(f"no role {name!r}")

    def permissions_of(self, user: User) -> int:
        if user.id == self.owner.id:
            return ALL_PERMISSIONS
        member = self.members.get(user.id)
        perms = self.everyone.permissions
        for r in member.roles if member else ():
            perms |= r.permissions
        return ALL_PERMISSIONS if perms & ADMINISTRATOR else perms

    def channel_permissions_of(self, user: User, channel: Channel, *, membership: bool = True) -> int:
        """Discord's computation: guild permissions, then @everyone, role and member overwrites; a
        thread takes its parent's (topics/threads, Permissions), and a private thread is seen only
        by its members and those who may manage threads ("You must be invited to the thread to be
        able to view or participate in it, or be a moderator"): 0 for anyone else, unless
        ``membership`` is False (the permissions the parent gives, whatever the membership)."""
        perms = self.permissions_of(user)
        if perms == ALL_PERMISSIONS:
            return perms
        if channel.is_thread and channel.parent_id:
            thread, channel = channel, self.channel(channel.parent_id)
            perms = self.channel_permissions_of(user, channel)
            outside = (
                thread.type == 12 and user.id not in thread.thread_members and user.id != thread.owner_id
            )
            if membership and outside and not perms & MANAGE_THREADS:
                return 0
            return perms
        ow = channel.overwrites
        if self.id in ow:
            _, allow, deny = ow[self.id]
            perms = (perms & ~deny) | allow
        member = self.members.get(user.id)
        role_ids = {r.id for r in member.roles} if member else set()
        allow = deny = 0
        for oid, (kind, a, d) in ow.items():
            if kind == 0 and oid in role_ids:
                allow, deny = allow | a, deny | d
        perms = (perms & ~deny) | allow
        if user.id in ow:
            _, a, d = ow[user.id]
            perms = (perms & ~d) | a
        if not perms & VIEW_CHANNEL:
            return 0
        return perms

    def threads_seen_by(self, viewer: User) -> list[Channel]:
        """The server's active threads ``viewer`` can view, as Discord lists them (Guild Create's
        ``threads``, List Active Guild Threads): a public thread where they can view its parent, a
        private one where they are a member (or started it) or may manage threads there too."""
        seen = []
        for c in self.channels:
            if not c.is_thread or c.archived:
                continue
            if self.channel_permissions_of(viewer, c) & VIEW_CHANNEL:
                seen.append(c)
        return seen

    def payload(self, viewer: User | None = None) -> dict[str, Any]:
        """The guild as Guild Create gives it to ``viewer`` (the bot): the active threads it can
        view (every one without ``viewer``)."""
        return {
            "id": str(self.id),
            "name": self.name,
            "owner_id": str(self.owner.id),
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "features": [],
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.locale,
            "vanity_url_code": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "premium_progress_bar_enabled": False,
            "application_id": None,
            "emojis": [],
            "stickers": [],
            "roles": [r.payload() for r in self.roles],
            "joined_at": iso(),
            "large": False,
            "unavailable": False,
            "lazy": True,
            "member_count": len(self.members),
            "members": [m.payload() for m in self.members.values()],
            "channels": [c.payload() for c in self.channels if not c.is_thread],
            # GUILD_CREATE carries the active threads only (archived ones are not synced up front),
            # those the current user can view
            "threads": [
                c.payload()
                for c in (
                    self.threads_seen_by(viewer)
                    if viewer is not None
                    else [c for c in self.channels if c.is_thread and not c.archived]
                )
            ],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [
                e.payload() for e in self.scheduled_events if e.status in (SCHEDULED, ACTIVE)
            ],
            "soundboard_sounds": [],
            "embedded_activities": [],
            "incidents_data": None,
        }

    def rest_payload(self) -> dict[str, Any]:
        """The guild as ``GET /guilds/{guild_id}`` answers (no members, channels or presences)."""
        payload = self.payload()
        for k in (
            "members",
            "channels",
            "threads",
            "presences",
            "voice_states",
            "joined_at",
            "large",
            "unavailable",
            "lazy",
            "member_count",
            "stage_instances",
            "guild_scheduled_events",
            "soundboard_sounds",
            "embedded_activities",
        ):
            payload.pop(k, None)
        payload.update(
            {
                "home_header": None,
                "region": "deprecated",
                "widget_enabled": False,
                "widget_channel_id": None,
                "max_presences": None,
                "max_stage_video_channel_users": 50,
                "safety_alerts_channel_id": None,
                "nsfw": False,
            }
        )
        return payload


@dataclass(eq=False)
class ScheduledEvent:
    """A guild scheduled event (resources/guild-scheduled-event), as the stand-in holds it."""

    id: int
    guild: Guild
    creator: User
    name: str
    entity_type: int
    start: float  # seconds since the epoch
    end: float | None = None
    description: str | None = None
    channel_id: int | None = None
    location: str | None = None
    status: int = SCHEDULED
    privacy_level: int = 2
    updates: int = 0  # changes made through the API

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "guild_id": str(self.guild.id),
            "channel_id": str(self.channel_id) if self.channel_id else None,
            "creator_id": str(self.creator.id),
            "creator": self.creator.payload(),
            "name": self.name,
            "description": self.description,
            "image": None,
            "scheduled_start_time": iso(self.start),
            "scheduled_end_time": iso(self.end) if self.end is not None else None,
            "privacy_level": self.privacy_level,
            "status": self.status,
            "entity_type": self.entity_type,
            "entity_id": None,
            "entity_metadata": {"location": self.location} if self.entity_type == EXTERNAL else None,
            "recurrence_rule": None,
            "guild_scheduled_event_exceptions": [],
        }

    def __repr__(self) -> str:
        return f"<ScheduledEvent {self.name!r} {self.id} status {self.status}>"


class Attachment(bytes):
    """A file the bot sent: the bytes themselves, plus ``filename``, ``content_type``, ``id``, ``url``."""

    id: int
    filename: str
    content_type: str
    url: str
    description: str | None

    def __new__(
        cls,
        data: bytes,
        *,
        filename: str,
        channel_id: int,
        content_type: str | None = None,
        description: str | None = None,
        id: int | None = None,
    ):
        self = super().__new__(cls, data)
        self.id = id or snowflake()
        self.filename = filename
        self.content_type = content_type or mimetypes.guess_type(filename)[0] or "application/octet-stream"
        self.url = f"https://cdn.discordapp.com/attachments/{channel_id}/{self.id}/{filename}"
        self.description = description
        return self

    @property
    def data(self) -> bytes:
        return bytes(self)

    def image_size(self) -> tuple[int, int] | None:
        if self[:8] == b"\x89PNG\r\n\x1a\n" and len(self) >= 24:
            return struct.unpack(">II", self[16:24])
        return None

    def payload(self) -> dict[str, Any]:
        out = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self),
            "url": self.url,
            "proxy_url": self.url.replace("cdn.discordapp.com", "media.discordapp.net"),
            "content_type": self.content_type,
        }
        if self.description is not None:
            out["description"] = self.description
        size = self.image_size()
        if size:
            out["width"], out["height"] = size
        return out

    def __repr__(self) -> str:
        return f"<Attachment {self.filename} {len(self)} bytes>"


def walk_components(components: list[dict]) -> list[dict]:
    out: list[dict] = []
    for c in components or []:
        out.append(c)
        out += walk_components(c.get("components") or [])
        for key in ("component", "accessory"):
            if c.get(key):
                out += walk_components([c[key]])
    return out


SELECT_DEFAULTS = {"min_values": 1, "max_values": 1}
# Fields Discord fills in when the request leaves them out (what its answers then carry).
COMPONENT_DEFAULTS: dict[int, dict[str, Any]] = {
    3: SELECT_DEFAULTS,
    5: SELECT_DEFAULTS,
    6: SELECT_DEFAULTS,
    7: SELECT_DEFAULTS,
    8: SELECT_DEFAULTS,
    11: {"description": None, "spoiler": False},
    13: {"spoiler": False},
    14: {"spacing": 1, "divider": True},
    17: {"accent_color": None, "spoiler": False},
}
MEDIA_ITEM_DEFAULTS: dict[str, Any] = {"description": None, "spoiler": False}  # a media gallery's item


def normalize_components(components: list[dict] | None, media: Any = None) -> list[dict]:
    """The components as Discord stores and returns them: each with its numeric ``id``, defaults filled.

    Discord numbers the components without an ``id`` (or with ``0``) in order, 1, 2, 3..., skipping the
    ids the message already uses; fields left out take their defaults; ``null`` fields are dropped.
    ``media(url)`` turns an ``unfurled media`` request (``{"url": ...}``) into what Discord answers.
    """
    out = _copy_components(components or [], media)
    taken = {c["id"] for c in walk_components(out) if c.get("id")}
    counter = itertools.count(1)
    for c in walk_components(out):
        if not c.get("id"):
            n = next(counter)
            while n in taken:
                n = next(counter)
            c["id"] = n
    return out


def _copy_components(components: list[dict], media: Any) -> list[dict]:
    out = []
    for comp in components:
        c = {k: v for k, v in comp.items() if v is not None}
        for key, value in COMPONENT_DEFAULTS.get(c.get("type"), {}).items():
            c.setdefault(key, value)
        if "components" in c:
            c["components"] = _copy_components(c["components"], media)
        for key in ("component", "accessory"):
            if isinstance(c.get(key), dict):
                c[key] = _copy_components([c[key]], media)[0]
        if c.get("type") == 12 and "items" in c:  # a media gallery's items take their defaults too
            c["items"] = [
                {**MEDIA_ITEM_DEFAULTS, **{k: v for k, v in item.items() if v is not None}}
                for item in c["items"]
            ]
        if media is not None:
            for key in ("media", "file"):
                if isinstance(c.get(key), dict) and "proxy_url" not in c[key]:
                    c[key] = media(c[key])
            if "items" in c:
                c["items"] = [{**item, "media": media(item["media"])} for item in c["items"]]
        out.append(c)
    return out


@dataclass(eq=False)
class Message:
    """A message in a channel, as the stand-in holds it (not a discord.py object)."""

    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[dict] = field(default_factory=list)
    components: list[dict] = field(default_factory=list)
    files: list[Attachment] = field(default_factory=list)
    flags: int = 0
    visible_to: frozenset[int] | None = None  # None: everyone; else the user ids who can see it
    interaction: Interaction | None = None
    created: float = field(default_factory=time.time)
    edited: float | None = None
    deleted: bool = False
    edits: int = 0
    reference_id: int | None = None
    webhook_id: int | None = None
    thread: Channel | None = None  # the thread started from this message
    pinged: frozenset[int] = frozenset()  # users notified when it was created (edits never notify)
    pinged_roles: frozenset[int] = frozenset()  # roles whose mention notified their members
    pinged_everyone: bool = False  # an @everyone or @here that notified the channel
    extra: dict[str, Any] = field(default_factory=dict)  # other fields the bot sent (poll, tts, ...)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & 64)

    @property
    def text(self) -> str:
        """The words a person reads: the content, or a components-v2 message's text displays."""
        shown = [c.get("content", "") for c in self.all_components if c.get("type") == 10]
        return "\n".join([self.content, *shown] if self.content else shown)

    @property
    def mentioned(self) -> list[int]:
        """The user ids written as mentions in the content, in order."""
        return [int(x) for x in re.findall(r"<@!?(\d+)>", self.content)]

    @property
    def mentioned_roles(self) -> list[int]:
        """The role ids written as mentions in the content, in order."""
        return [int(x) for x in re.findall(r"<@&(\d+)>", self.content)]

    @property
    def mentions_everyone(self) -> bool:
        """Whether the content holds ``@everyone`` or ``@here`` (as Discord parses them)."""
        return "@everyone" in self.content or "@here" in self.content

    @property
    def loading(self) -> bool:
        return bool(self.flags & 128)

    @property
    def attachments(self) -> list[Attachment]:
        return self.files

    def visible(self, user: User) -> bool:
        return self.visible_to is None or user.id in self.visible_to

    # -- components --------------------------------------------------------------------------------

    @property
    def all_components(self) -> list[dict]:
        return walk_components(self.components)

    @property
    def buttons(self) -> list[dict]:
        return [c for c in self.all_components if c.get("type") == 2]

    @property
    def selects(self) -> list[dict]:
        return [c for c in self.all_components if c.get("type") in (3, 5, 6, 7, 8)]

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.all_components if c.get("custom_id")]

    def component(self, target: str, *, types: tuple[int, ...] = (2, 3, 5, 6, 7, 8)) -> dict:
        """The component whose custom_id (or else label / placeholder) is ``target``."""
        comps = [c for c in self.all_components if c.get("type") in types]
        exact = [c for c in comps if c.get("custom_id") == target]
        if exact:
            return exact[0]
        by_label = [c for c in comps if target in (c.get("label"), c.get("placeholder"))]
        if len(by_label) == 1:
            return by_label[0]
        listing = [(c.get("custom_id"), c.get("label") or c.get("placeholder")) for c in comps]
        if by_label:
            raise LookupError(
                f"{len(by_label)} components on message {self.id} are labelled {target!r}: {listing}"
            )
        raise LookupError(f"no component {target!r} on message {self.id}; it has {listing}")

    # -- payload -----------------------------------------------------------------------------------

    def payload(self) -> dict[str, Any]:
        guild = self.channel.guild
        out: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "guild_id": str(guild.id) if guild else None,
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created),
            "edited_timestamp": iso(self.edited) if self.edited else None,
            "tts": False,
            "mention_everyone": self.pinged_everyone,
            "mention_roles": [str(r) for r in sorted(self.pinged_roles)],
            "mention_channels": [],
            "mentions": self.extra.get("mentions", []),
            "attachments": [a.payload() for a in self.files],
            "embeds": self.embeds,
            "reactions": [],
            "pinned": False,
            "type": 0,
            "flags": self.flags,
            "components": self.components,
        }
        if guild is None:
            del out["guild_id"]
        out.update({k: v for k, v in self.extra.items() if k in ("poll", "tts", "nonce", "sticker_items")})
        if self.webhook_id:
            out["webhook_id"] = str(self.webhook_id)
            out["application_id"] = str(self.webhook_id)
        if self.interaction is not None:
            out["type"] = 20 if self.interaction.type == 2 else 0
            out["interaction_metadata"] = self.interaction.metadata(self)
        if self.thread is not None:
            out["flags"] = self.flags | HAS_THREAD
            out["thread"] = self.thread.payload()
        if self.reference_id:
            out["type"] = 19
            out["message_reference"] = {
                "type": 0,
                "message_id": str(self.reference_id),
                "channel_id": str(self.channel.id),
            }
            if guild is not None:
                out["message_reference"]["guild_id"] = str(guild.id)
        return out

    def __repr__(self) -> str:
        extra = " ephemeral" if self.ephemeral else ""
        extra += " loading" if self.loading else ""
        extra += " deleted" if self.deleted else ""
        return (
            f"<Message {self.id} in #{self.channel.name} by {self.author.name}{extra}: {self.content[:60]!r}"
            f" files={[a.filename for a in self.files]} components={self.custom_ids}>"
        )


@dataclass(eq=False)
class Interaction:
    id: int
    token: str
    type: int  # 2 command, 3 component, 4 autocomplete, 5 modal submit
    user: User
    channel: Channel
    data: dict[str, Any]
    created: float  # loop time
    deadline: float  # loop time
    message: Message | None = None  # the message whose component was used
    parent: Interaction | None = None  # for a modal submit: the interaction that opened the modal
    response_type: int | None = None
    responded_at: float | None = None
    response_message: Message | None = None
    followups: list[Message] = field(default_factory=list)
    modal: dict | None = None
    choices: list[dict] | None = None
    label: str = ""
    timeout_violation: Any = None  # set when the stand-in gave up waiting for the answer
    context: int = 0  # 0 server, 1 DM with the bot, 2 another private channel
    owners: dict[str, str] = field(default_factory=dict)  # authorizing_integration_owners
    run_delay: float = 0.0  # the stand-in's wait for a CPU so far, when this was created (seconds)

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None

    def metadata(self, message: Message | None = None) -> dict[str, Any]:
        """The ``interaction_metadata`` of ``message``, one of the messages this interaction created."""
        out: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "user": self.user.payload(),
            "authorizing_integration_owners": dict(self.owners),
        }
        if self.type == 3 and self.message is not None:
            out["interacted_message_id"] = str(self.message.id)
        if self.type == 5 and self.parent is not None:
            out["triggering_interaction_metadata"] = self.parent.metadata()
        if message is not None and self.response_message is not None and message is not self.response_message:
            out["original_response_message_id"] = str(self.response_message.id)  # on followups
        return out

    def original(self) -> Message | None:
        if self.response_type in (6, 7):
            return self.message or (self.parent.message if self.parent else None)
        return self.response_message
