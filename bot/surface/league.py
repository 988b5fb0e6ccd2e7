"""The league's rounds on Discord: :class:`LeaguePosts` does what :mod:`bot.league.season` asks.

Posts in the league's channel and its games' threads (pinging only whom the rounds name),
opens the threads, writes direct messages, and hands boards to the board posts (:class:`bot.surface.front.Front`); the
queue's posts (:mod:`bot.surface.queue`) open their threads and write their DMs with the same helpers.  Imports discord,
the front, the languages of servers, the attachments and the nonces of posts a stop may repeat.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence

import discord

from bot import i18n
from bot.league.season import Picture
from bot.sessions import MoveResult, Session
from bot.surface import nonces
from bot.surface.attach import picture as attachment
from bot.surface.boards import THREAD_AUTO_ARCHIVE_MINUTES
from bot.surface.channels import NEEDED_FOR_THREADS, channel_missing, nobody_told
from bot.surface.checkin import checkin_view
from bot.surface.front import Front
from bot.texts import pieces
from engines.core import Said
from languages import Language

log = logging.getLogger(__name__)


MENTIONS_LIMIT = 100
"""Discord takes at most this many user ids in one message's allowed mentions (it refuses the
whole message past them)."""


def only(users: Iterable[int], text: str | None = None) -> discord.AllowedMentions:
    """Mentions that notify exactly ``users`` (user ids) and nobody else, whatever the text holds;
    with ``text`` (one message of a post cut in several), only those of them it mentions, so that
    a call to a league of hundreds pings each player once, in the message naming them, and no
    message passes Discord's :data:`MENTIONS_LIMIT` (a message of 2,000 characters holds fewer
    mentions of Discord's ids than that)."""
    wanted = dict.fromkeys(users)
    if text is not None:
        wanted = {u: None for u in wanted if f"<@{u}>" in text or f"<@!{u}>" in text}
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        users=[discord.Object(u) for u in list(wanted)[:MENTIONS_LIMIT]],
        replied_user=False,
    )


async def open_game_thread(bot: discord.Client, channel_id: int, name: str) -> int | None:
    """A public thread opened in the text channel ``channel_id`` for a game the league or the queue
    formed (it stays open a week); None when the channel takes none or Discord refused."""
    try:
        parent = bot.get_channel(channel_id) or await bot.fetch_channel(channel_id)
        if not isinstance(parent, discord.TextChannel):
            log.warning("channel %s (#%s) takes no threads", channel_id, getattr(parent, "name", parent))
            return None
        thread = await parent.create_thread(
            name=name,
            type=discord.ChannelType.public_thread,
            auto_archive_duration=THREAD_AUTO_ARCHIVE_MINUTES,
        )
        return thread.id
    except discord.HTTPException as exc:
        log.warning("no thread in channel %s (%s)", channel_id, exc)
        return None


async def send_direct(bot: discord.Client, user_id: int, text: str, nonce: str | int | None = None) -> bool:
    """A direct message that mentions only its reader; False when Discord refused it.  ``nonce``:
    what names it, for one a stop may have had sent twice (:mod:`bot.surface.nonces`); None, a
    random one."""
    try:
        user = bot.get_user(user_id) or await bot.fetch_user(user_id)
        await user.send(
            text, allowed_mentions=only([user_id]), nonce=nonces.anew() if nonce is None else nonce
        )
    except discord.HTTPException as exc:
        log.info("a DM to %s was refused (%s)", user_id, exc)
        return False
    return True


def piece_nonce(told: Sequence[object], piece: int) -> str | int:
    """The nonce of the ``piece``-th message of a league's post telling ``told`` (for a post with
    nothing named, a random one, as discord.py gives: :func:`bot.surface.nonces.anew`)."""
    return nonces.told_nonce(nonces.LEAGUE, *told, piece) if told else nonces.anew()


def file_of(picture: Picture) -> discord.File:
    return attachment(picture.data, picture.filename, picture.alt)


class LeaguePosts:
    """:class:`bot.league.season.Posts` through the bot and its board posts."""

    def __init__(self, front: Front):
        self.front = front
        self.bot = front.look.bot
        self.missing: set[int] = set()
        """Channels and threads Discord answered do not exist: nothing more is posted there."""
        # a league game that had ended already in a thread found gone: its organiser is told
        # (Rounds.ended_gone)
        self.ended_gone: Callable[[int, int], Awaitable[None]] = nobody_told

    async def vanished(self, guild_id: int, channel_id: int) -> None:
        """Discord answered that the channel or thread does not exist: it was deleted while the bot
        was not running, so no deletion event came.  Handled once, as a deletion
        (:meth:`bot.surface.boards.Boards.channel_gone`: its league game still running is finished
        by the computer and the organiser told); a league game there that had ended already has
        its organiser told too."""
        if channel_id in self.missing:
            return
        self.missing.add(channel_id)
        before = await self.front.look.service.store.games.last_session(channel_id)
        await self.front.boards.channel_gone(guild_id, channel_id)
        if before is not None and not before.live:
            await self.ended_gone(guild_id, channel_id)

    async def language(self, guild_id: int) -> Language:
        return await i18n.server(self.bot, self.front.look.service.store, guild_id)

    async def post(
        self,
        channel_id: int,
        guild_id: int,
        text: str,
        *,
        picture: Picture | None = None,
        pings: Sequence[int] = (),
        told: Sequence[object] = (),
    ) -> bool:
        """``text`` in the channel or thread, with ``picture`` when given; a text too long for one
        message is posted whole in several, cut where a line ends (:func:`bot.texts.pieces`), the
        picture with the first.  With ``told`` (what the post tells, the same when a stop before
        its record has it made again) each message carries a nonce naming it and its place among
        the pieces (:data:`bot.surface.nonces.LEAGUE`): within Discord's minutes a repeat is the
        same post, and each piece stands."""
        if channel_id in self.missing:
            return False
        target = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
        first, *rest = pieces(text)
        try:
            if picture is None:
                await target.send(first, allowed_mentions=only(pings, first), nonce=piece_nonce(told, 0))
            else:
                await target.send(
                    first,
                    file=file_of(picture),
                    allowed_mentions=only(pings, first),
                    nonce=piece_nonce(told, 0),
                )
            for n, piece in enumerate(rest, 1):
                await target.send(piece, allowed_mentions=only(pings, piece), nonce=piece_nonce(told, n))
        except discord.HTTPException as exc:
            log.warning("could not post in channel %s (%s)", channel_id, exc)
            if channel_missing(exc):
                await self.vanished(guild_id, channel_id)
            return False
        return True

    async def post_checkin(
        self,
        channel_id: int,
        guild_id: int,
        text: str,
        league_id: int,
        number: int,
        label: str,
        pings: Sequence[int],
        told: Sequence[object] = (),
    ) -> bool:
        """A round's check-in announcement with its Check in button; the mentions of a large field
        that do not fit in one message follow in more (:func:`bot.texts.pieces`), so everyone asked
        is pinged.  ``told``: as for :meth:`post`, a nonce for each piece."""
        target = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
        first, *rest = pieces(text)
        try:
            await target.send(
                first,
                view=checkin_view(league_id, number, label),
                allowed_mentions=only(pings, first),
                nonce=piece_nonce(told, 0),
            )
            for n, piece in enumerate(rest, 1):
                await target.send(piece, allowed_mentions=only(pings, piece), nonce=piece_nonce(told, n))
        except discord.HTTPException as exc:
            log.warning("could not post the check-in in channel %s (%s)", channel_id, exc)
            return False
        return True

    async def missing_permissions(self, channel_id: int) -> list[str]:
        """Empty when the bot has them, or when the channel is not known to this process (opening
        the threads then reports it)."""
        parent = self.bot.get_channel(channel_id)
        if not isinstance(parent, discord.TextChannel) or parent.guild.me is None:
            return []
        perms = parent.permissions_for(parent.guild.me)
        return [label for attr, label in NEEDED_FOR_THREADS if not getattr(perms, attr)]

    async def open_thread(self, channel_id: int, name: str) -> int | None:
        return await open_game_thread(self.bot, channel_id, name)

    async def threads_made(self, guild_id: int, channel_id: int, name: str) -> list[int]:
        """The active threads (a forum's posts) the bot made in the channel named exactly ``name``,
        newest first.  The gateway keeps discord.py's cache of a server's active threads whole
        (``GUILD_CREATE`` lists them at every start, ``THREAD_CREATE`` adds each new one, an archive
        or a deletion takes it out), so a channel this process has is read there; one it lacks (its
        server not available to it yet, or another shard's) from Discord's list of the server's
        active threads.  Empty when Discord refused that list."""
        me = self.bot.user
        parent = self.bot.get_channel(channel_id)
        if isinstance(parent, discord.TextChannel | discord.ForumChannel):
            found = [(t.id, t.name, t.owner_id) for t in parent.threads]
        else:
            try:
                listed = (await self.bot.http.get_active_threads(guild_id))["threads"]
            except discord.HTTPException as exc:
                log.warning("the active threads of server %s are not listed (%s)", guild_id, exc)
                return []
            found = [
                (int(t["id"]), t.get("name"), int(t.get("owner_id") or 0))
                for t in listed
                if int(t.get("parent_id") or 0) == channel_id
            ]
        return sorted(
            (i for i, n, owner in found if n == name and me is not None and owner == me.id), reverse=True
        )

    async def direct(self, user_id: int, text: str, *, told: Sequence[object] = ()) -> bool:
        """A direct message; with ``told`` (what it tells), with a nonce naming that and its reader
        (another than the post telling the same in a channel)."""
        return await send_direct(self.bot, user_id, text, piece_nonce((*told, user_id) if told else (), 0))

    async def post_board(
        self, session: Session, header: str | Said, lines: Sequence[Said] = (), pings: Sequence[int] = ()
    ) -> None:
        if session.row.channel_id in self.missing:
            return
        try:
            await self.front.boards.post_board(session, header=header, lines=lines, pings=pings)
        except discord.HTTPException as exc:
            await self.refused(session, exc, "by its league (a round opening, a seat handed over)")

    async def announce(self, result: MoveResult) -> None:
        row = result.session.row
        if row.channel_id in self.missing:
            return
        try:
            await self.front.boards.announce(result)
        except discord.HTTPException as exc:
            await self.refused(result.session, exc, "after its league's deadline or no-show")

    async def refused(self, session: Session, exc: discord.HTTPException, after: str) -> None:
        """Discord refused a league game's board: a thread found gone is handled as a deletion
        (:meth:`vanished`); else the refusal is logged, told and tried again
        (:meth:`bot.surface.boards.Boards.not_posted`)."""
        row = session.row
        if channel_missing(exc) and row.guild_id:
            log.warning("could not post the board of session %s: its thread is gone", session.id)
            await self.vanished(row.guild_id, row.channel_id)
            return
        await self.front.boards.not_posted(session, exc, after)
