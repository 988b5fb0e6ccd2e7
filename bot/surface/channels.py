"""Where the table acts: the bot's permissions in a channel, who can view a channel, which kind of
message a click came from, and the game a click names; whether Discord says a channel or a
member is gone.

Every interaction carries the bot's permissions in its channel and the asker as a member, so
these checks need no request to Discord (but :func:`is_member`, for a person outside one).  Imports: discord, :mod:`bot.sessions`,
:mod:`bot.storage` (``fits``), engines' words.
"""

from __future__ import annotations

import logging

import discord

from bot.sessions import Refusal, Session, SessionService, damaged_text
from bot.storage import fits
from bot.surface.options import listed
from bot.texts import clip
from engines.core import Said, said_n
from languages import N_

log = logging.getLogger(__name__)

UNKNOWN_CHANNEL = 10003
"""Discord's error code for a channel (or thread) that does not exist."""


def channel_missing(exc: BaseException) -> bool:
    """Whether Discord refused a request because its channel or thread does not exist (deleted,
    perhaps while the bot was not running, so that no deletion event reached it)."""
    return isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_CHANNEL


async def nobody_told(guild_id: int, channel_id: int) -> None:
    """Who is told of a channel found gone before the bot wires it up (the default of
    ``Notifier.channel_gone`` and ``LeaguePosts.ended_gone``): nobody."""


async def add_line(target: discord.PartialMessageable, message_id: int, line: str) -> None:
    """Add ``line`` under one of the bot's own messages in ``target`` and take its buttons off,
    without reading the channel: editing one's own message by id needs no Read Message History
    (fetching it would), and Discord answers an edit with the message as it now stands, whose text
    the second edit extends."""
    message = await target.get_partial_message(message_id).edit(view=None)
    await message.edit(content=clip(f"{message.content}\n{line}"))


async def is_member(guild: discord.Guild | None, user_id: int) -> bool:
    """False only when Discord says the person is no longer in ``guild`` (the bot is not told when
    someone leaves: they are looked up)."""
    if guild is None or guild.get_member(user_id) is not None:
        return True
    try:
        await guild.fetch_member(user_id)
    except discord.NotFound:
        return False
    except discord.HTTPException as exc:
        log.info("could not look up %s in server %s (%s)", user_id, guild.id, exc)
    return True


SERVERS_ONLY = N_("Pukllay's games are played in a server's channels; use its commands there.")

# What the bot needs in a channel to run a game there (a thread needs Send
# Messages in Threads instead of Send Messages, as Discord checks); each named as Discord's
# client names it, in the reader's language.
NEEDED = (
    ("view_channel", N_("View Channel")),
    ("send_messages", N_("Send Messages")),
    ("attach_files", N_("Attach Files")),
    ("embed_links", N_("Embed Links")),
    ("read_message_history", N_("Read Message History")),
)
NEEDED_IN_THREADS = tuple(
    ("send_messages_in_threads", N_("Send Messages in Threads")) if attr == "send_messages" else (attr, name)
    for attr, name in NEEDED
)


# What posting a board needs (every move may end a turn, whose board is posted).
BOARD_NEEDS = (
    ("view_channel", N_("View Channel")),
    ("send_messages", N_("Send Messages")),
    ("attach_files", N_("Attach Files")),
)
BOARD_NEEDS_IN_THREADS = tuple(
    ("send_messages_in_threads", N_("Send Messages in Threads")) if attr == "send_messages" else (attr, name)
    for attr, name in BOARD_NEEDS
)


# What the bot needs in a text channel to open a game in a thread there.
NEEDED_FOR_THREADS = (
    *NEEDED,
    ("create_public_threads", N_("Create Public Threads")),
    ("send_messages_in_threads", N_("Send Messages in Threads")),
)


def bot_lacks_for_threads(channel: discord.abc.GuildChannel) -> list[str]:
    """The permissions the bot lacks in ``channel`` to open games' threads there, by name (empty
    when its member is not in this process's cache: opening a thread then reports it)."""
    me = channel.guild.me
    if me is None:
        return []
    have = channel.permissions_for(me)
    return [name for attr, name in NEEDED_FOR_THREADS if not getattr(have, attr)]


def permission_list(names: list[str]) -> Said | str:
    """Permissions (their English names) as a list in words, each put in the reader's language."""
    return listed([Said(name) for name in names])


def in_thread(interaction: discord.Interaction) -> bool:
    channel = interaction.channel
    return isinstance(channel, discord.Thread) or getattr(channel, "type", None) in (
        discord.ChannelType.public_thread,
        discord.ChannelType.private_thread,
        discord.ChannelType.news_thread,
    )


def missing_permissions(interaction: discord.Interaction, *, for_thread: bool = False) -> list[str]:
    """The permissions the bot lacks in the interaction's channel, by name (Discord sends
    the bot's permissions there with every interaction); ``for_thread``: to open a game's
    thread in this channel too."""
    have = interaction.app_permissions
    if in_thread(interaction):
        needed = NEEDED_IN_THREADS
    else:
        needed = NEEDED_FOR_THREADS if for_thread else NEEDED
    return [name for attr, name in needed if not getattr(have, attr)]


def opens_thread(interaction: discord.Interaction) -> bool:
    """Whether a new game here gets its own thread: in a text or announcement channel, not
    inside a thread or forum post (a game there is played where it is)."""
    channel_type = getattr(interaction.channel, "type", None)
    return not in_thread(interaction) and channel_type in (discord.ChannelType.text, discord.ChannelType.news)


def on_v2_message(interaction: discord.Interaction) -> bool:
    """Whether the answer edits a message that uses components v2 (a private menu): such a
    message keeps the flag, so the answer must be a layout too."""
    message = interaction.message
    return (
        interaction.response.is_done()
        and interaction.response.type == discord.InteractionResponseType.deferred_message_update
        and message is not None
        and message.flags.components_v2
    )


def on_private_menu(interaction: discord.Interaction) -> bool:
    """Whether the clicked message is a private menu (ephemeral, components v2), the only kind of
    message a menu's buttons and selects edit."""
    flags = interaction.message.flags if interaction.message is not None else None
    return flags is not None and flags.ephemeral and flags.components_v2


def on_private_message(interaction: discord.Interaction) -> bool:
    """Whether the clicked message is private (ephemeral): a history page, which its buttons edit."""
    return interaction.message is not None and interaction.message.flags.ephemeral


def server_permissions(interaction: discord.Interaction) -> discord.Permissions:
    """The asker's permissions in the server (none outside one)."""
    return getattr(interaction.user, "guild_permissions", None) or discord.Permissions.none()


def can_view_channel(interaction: discord.Interaction, channel_id: int, *, belongs: bool = False) -> bool:
    """Whether the asker can view the channel or thread ``channel_id`` of the interaction's server.

    With only the ``guilds`` intent the bot still has the server's channels,
    threads, roles and permission overwrites in its cache, and the
    interaction carries the asker as a member with their roles: that is
    enough for Discord's permission computation (``permissions_for``).  A
    channel missing from the cache is not listed.  A private thread is
    listed only to those who manage threads in its channel or who
    ``belong`` there (thread membership is not in the cache).
    """
    guild = interaction.guild
    member = interaction.user
    if guild is None or not isinstance(member, discord.Member):
        return False
    if channel_id == interaction.channel_id:
        return True
    channel = guild.get_channel_or_thread(channel_id)
    if channel is None:  # deleted (or an archived thread out of the cache): only those who belong
        return belongs
    perms = channel.permissions_for(member)
    if not perms.view_channel:
        return False
    if isinstance(channel, discord.Thread) and channel.is_private():
        return perms.manage_threads or belongs
    return True


def seen_by_everyone(interaction: discord.Interaction, channel_id: int) -> bool:
    """Whether everyone in the interaction's server can view the channel or thread ``channel_id``
    (the server's @everyone may view it; a private thread, or a channel missing from the cache,
    counts as not)."""
    guild = interaction.guild
    channel = guild.get_channel_or_thread(channel_id) if guild is not None else None
    if guild is None or channel is None:
        return False
    if isinstance(channel, discord.Thread) and channel.is_private():
        return False
    return channel.permissions_for(guild.default_role).view_channel


def can_view(interaction: discord.Interaction, session: Session) -> bool:
    """Whether the asker can view the session's channel or thread (a private thread: also when
    seated in its game); see :func:`can_view_channel`."""
    return can_view_channel(
        interaction, session.row.channel_id, belongs=session.seat_of(interaction.user.id) is not None
    )


MISSING_ACCESS = 50001
"""Discord's error code for a channel the bot cannot view (a private thread it is not in)."""


async def reach_private_thread(interaction: discord.Interaction) -> None:
    """In a private thread, join it before a game is opened there: Discord shows a private thread
    only to its members and to those who may manage threads, and delivers a command used there
    to the bot though the bot's own posts (the boards) are refused until it is a member.  Joining
    works once someone has added the bot (by mentioning it in the thread), or where it may manage
    threads, and changes nothing when it is a member already; else the game is refused, saying
    how to add the bot."""
    channel = interaction.channel
    if getattr(channel, "type", None) != discord.ChannelType.private_thread or channel is None:
        return
    try:
        await interaction.client.http.join_thread(channel.id)
    except discord.Forbidden as exc:
        log.info("private thread %s: the bot may not join it (%s)", channel.id, exc.code)
        raise Refusal(
            "this private thread is closed to me, so I cannot post the game's boards here: add me "
            "to it (mention me in the thread), then open the game again"
        ) from None


def check_permissions(interaction: discord.Interaction, *, for_thread: bool = False) -> None:
    """Refuse, naming them, when the bot lacks permissions it needs in this channel."""
    missing = missing_permissions(interaction, for_thread=for_thread)
    if missing:
        threads = {"Create Public Threads", "Send Messages in Threads"}
        values = {"permissions": permission_list(missing)}
        n = len(missing)
        if for_thread and set(missing) <= threads and in_thread(interaction):
            raise Refusal(
                said_n(
                    n,
                    "I am missing {permissions} in this thread; a server admin can grant it to my role "
                    "(or use {/<game> new thread:} False to play in this channel itself)",
                    "I am missing {permissions} in this thread; a server admin can grant them to my role "
                    "(or use {/<game> new thread:} False to play in this channel itself)",
                    **values,
                )
            )
        if for_thread and set(missing) <= threads:
            raise Refusal(
                said_n(
                    n,
                    "I am missing {permissions} in this channel; a server admin can grant it to my role "
                    "(or use {/<game> new thread:} False to play in this channel itself)",
                    "I am missing {permissions} in this channel; a server admin can grant them to my role "
                    "(or use {/<game> new thread:} False to play in this channel itself)",
                    **values,
                )
            )
        if in_thread(interaction):
            raise Refusal(
                said_n(
                    n,
                    "I am missing {permissions} in this thread; a server admin can grant it to my role "
                    "(or open the game in another channel)",
                    "I am missing {permissions} in this thread; a server admin can grant them to my role "
                    "(or open the game in another channel)",
                    **values,
                )
            )
        raise Refusal(
            said_n(
                n,
                "I am missing {permissions} in this channel; a server admin can grant it to my role "
                "(or open the game in another channel)",
                "I am missing {permissions} in this channel; a server admin can grant them to my role "
                "(or open the game in another channel)",
                **values,
            )
        )


def missing_for_boards(interaction: discord.Interaction) -> list[str]:
    """The permissions posting a board needs that the bot lacks in the interaction's channel, by name."""
    have = interaction.app_permissions
    needed = BOARD_NEEDS_IN_THREADS if in_thread(interaction) else BOARD_NEEDS
    return [name for attr, name in needed if not getattr(have, attr)]


def check_board_permissions(interaction: discord.Interaction) -> None:
    """Refuse a move, naming them, when the bot lacks what posting the board needs in this
    channel: played, the move would leave the board unposted and the next player unmentioned."""
    missing = missing_for_boards(interaction)
    if not missing:
        return
    values = {"permissions": permission_list(missing)}
    if in_thread(interaction):
        raise Refusal(
            said_n(
                len(missing),
                "nothing was played: I am missing {permissions} in this thread, which I need to post "
                "the board; a server admin can grant it to my role, and the game waits until then",
                "nothing was played: I am missing {permissions} in this thread, which I need to post "
                "the board; a server admin can grant them to my role, and the game waits until then",
                **values,
            )
        )
    raise Refusal(
        said_n(
            len(missing),
            "nothing was played: I am missing {permissions} in this channel, which I need to post "
            "the board; a server admin can grant it to my role, and the game waits until then",
            "nothing was played: I am missing {permissions} in this channel, which I need to post "
            "the board; a server admin can grant them to my role, and the game waits until then",
            **values,
        )
    )


def channel_of(interaction: discord.Interaction) -> int:
    """The channel an interaction came from; every table action happens in one."""
    if interaction.channel_id is None:
        raise Refusal(SERVERS_ONLY)
    return interaction.channel_id


async def clicked(
    service: SessionService, interaction: discord.Interaction, session_id: int, *, running: bool = False
) -> Session:
    """The session a button or menu names, refused unless it belongs to the channel
    the click came from (a forged or copied ``custom_id`` changes nothing)."""
    session = await service.core.get(session_id) if fits(session_id) else None
    if session is None or interaction.channel_id not in (
        session.row.channel_id,
        session.row.lobby_channel_id,
    ):
        raise Refusal("this button does not belong to a game in this channel")
    if running and session.status != "active":
        raise Refusal("that game is not running")
    if session.damaged:
        raise Refusal(damaged_text(session))
    return session
