"""A server that removed the bot: what that ends, and how a start finds a removal it was not told of.

Discord tells a connected bot with GUILD_DELETE without ``unavailable`` (with it, an outage, which
ends nothing); a bot that is not running is told nothing, but the READY of its next session lists
every server it is in on the shards that session serves (the unavailable ones too).  Either way the
server's leagues are cancelled, its lobbies and games end without a result, a finished game's
thread is not archived nor its refused board tried again (:meth:`bot.surface.boards.Boards.channel_gone`),
and its queue empties (:meth:`bot.queue.service.QueueService.server_gone`); nothing is posted there
(the bot may not).  Imports: discord, :mod:`bot.storage`, and the front and the queue for their types.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from bot.storage import Store
from bot.storage.outages import shard_of

if TYPE_CHECKING:
    from bot.queue.service import QueueService
    from bot.surface.front import Front

log = logging.getLogger(__name__)


async def server_gone(front: Front, queue: QueueService | None, guild_id: int) -> None:
    """End what the bot had going on in server ``guild_id``, which it is no longer in."""
    await front.boards.channel_gone(guild_id)
    if queue is not None:
        await queue.server_gone(guild_id)


def serves(client: discord.Client, guild_id: int) -> bool:
    """Whether ``client``'s gateway carries server ``guild_id``: its shard, by Discord's formula
    (``(guild_id >> 22) % shard_count``), is one of the client's (every server, unsharded)."""
    count = client.shard_count or 1
    if isinstance(client, discord.AutoShardedClient):
        ids: Sequence[int] = client.shard_ids or range(count)
    else:
        ids = [client.shard_id or 0]
    return shard_of(guild_id, count) in ids


async def servers_left(
    client: discord.Client, store: Store, front: Front, queue: QueueService | None
) -> list[int]:
    """At READY: each server where something of the bot's goes on (:meth:`Store.servers_in_play`)
    that ``client`` serves and READY did not list removed the bot while it was not running, so what
    went on there ends (:func:`server_gone`).  The servers found; none with the guilds intent off
    (READY's list is not kept then)."""
    if not client.intents.guilds:
        return []
    listed = {guild.id for guild in client.guilds}
    left = sorted(g for g in await store.servers_in_play() if g not in listed and serves(client, g))
    for guild_id in left:
        log.info("removed from server %s while the bot was not running (READY does not list it)", guild_id)
        await server_gone(front, queue, guild_id)
    return left
