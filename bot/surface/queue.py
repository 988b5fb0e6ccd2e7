"""The queue on Discord: :class:`QueuePosts` does what :class:`bot.queue.service.QueueService`
asks (threads in the queue channel, posts that ping only the people of a table, the Confirm
button, direct messages, the first board), and :class:`ConfirmButton` is that button, working
after a restart as every persistent button does.  Imports discord, the front and languages.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from bot import i18n
from bot.sessions import MoveResult, Refusal
from bot.surface import written
from bot.surface.buttons import Persistent, button
from bot.surface.channels import add_line, is_member
from bot.surface.front import Front
from bot.surface.league import only, open_game_thread, send_direct
from bot.surface.replies import reply
from bot.texts import clip
from languages import ENGLISH, N_, Language

log = logging.getLogger(__name__)

CONFIRM = N_("Confirm")


class QueuePosts:
    """:class:`bot.queue.tables.Posts` through the bot."""

    def __init__(self, front: Front):
        self.front = front
        self.bot = front.look.bot

    async def language(self, guild_id: int) -> Language:
        return await i18n.server(self.bot, self.front.look.service.store, guild_id)

    async def server_name(self, guild_id: int) -> str:
        """The server as a direct message writes it: its name, markdown escaped."""
        guild = self.bot.get_guild(guild_id)
        return written.name(guild.name) if guild is not None else str(guild_id)

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        return await is_member(self.bot.get_guild(guild_id), user_id)  # an unseen server takes no one out

    async def open_thread(self, channel_id: int, name: str) -> int | None:
        return await open_game_thread(self.bot, channel_id, name)

    async def post(
        self,
        channel_id: int,
        guild_id: int,
        text: str,
        *,
        pings: Sequence[int] = (),
        confirm: int | None = None,
    ) -> int | None:
        target = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
        try:
            if confirm is None:
                sent = await target.send(clip(text), allowed_mentions=only(pings))
            else:
                t = await self.language(guild_id)
                view = discord.ui.View(timeout=None)
                view.add_item(ConfirmButton(confirm, t))
                sent = await target.send(clip(text), allowed_mentions=only(pings), view=view)
        except discord.HTTPException as exc:
            log.warning("could not post in channel %s (%s)", channel_id, exc)
            return None
        return sent.id

    async def settle(
        self, channel_id: int, guild_id: int, message_id: int, text: str, *, shown: str | None = None
    ) -> bool:
        target = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
        try:
            if shown is None:
                await add_line(target, message_id, text)
            else:  # one edit, the same whoever makes it
                await target.get_partial_message(message_id).edit(content=clip(f"{shown}\n{text}"), view=None)
        except discord.HTTPException as exc:
            log.warning("could not update the queue message %s (%s)", message_id, exc)
            return False
        return True

    async def direct(self, user_id: int, text: str) -> bool:
        return await send_direct(self.bot, user_id, clip(text))

    async def announce(self, result: MoveResult) -> None:
        boards = self.front.boards
        try:
            await boards.announce(result, header=await boards.begins(result.session))
        except discord.HTTPException as exc:
            await boards.not_posted(result.session, exc, "when the queue's table started")


class ConfirmButton(Persistent[discord.ui.Button], template=r"pk:queue:ok:(?P<table_id>\d+)"):
    """A person at a table the queue formed takes their seat."""

    table_id: int

    def __init__(self, table_id: int, t: Language = ENGLISH):
        super().__init__(
            button(CONFIRM, f"pk:queue:ok:{table_id}", discord.ButtonStyle.success, t), table_id=table_id
        )

    async def clicked(self, interaction: discord.Interaction) -> None:
        service = getattr(interaction.client, "queue", None)
        if service is None:
            raise Refusal("the queue is not running on this bot")
        answer = await service.confirm(self.table_id, interaction.user.id)
        await reply(interaction, "✅ " + answer.in_words(i18n.private(interaction)))
