"""Sharding as Discord does it: IDENTIFY's shard [id, count], each guild's events to shard
(guild_id >> 22) % count, events without a guild (DMs) to shard 0, 4010 for an invalid shard."""

from __future__ import annotations

import json

import aiohttp
import pytest

from tests.standin.server import GATEWAY_HOST, UsageError
from tests.standin.tinybot import TinyBot


def sharded(shard_id: int, count: int):
    return lambda connector: TinyBot(connector, shard_id=shard_id, shard_count=count)


async def test_each_shard_gets_its_guilds_and_their_interactions(standin):
    """Two clients, shards 0 and 1 of 2: each gets READY and GUILD_CREATE for its own guild only,
    and a user's command in a guild reaches the client of that guild's shard."""
    home = standin.shard_of(standin.guild, 2)
    other = standin.add_guild("Second", shard=(1 - home, 2))
    assert standin.shard_of(other, 2) == 1 - home and (other.id >> 22) % 2 == 1 - home
    alice = standin.add_user("alice")
    standin.join(alice, other)
    chan_home, chan_other = standin.channel("games"), other.channel("games")
    async with standin.run_client(sharded(home, 2)) as first:
        async with standin.run_client(sharded(1 - home, 2)) as second:
            await standin.wait_shards((0, 2), (1, 2))
            await standin.wait_synced()
            assert [g.id for g in first.guilds] == [standin.guild.id]
            assert [g.id for g in second.guilds] == [other.id]
            assert first.shard_id == home and second.shard_id == 1 - home
            r = await standin.slash(alice, chan_other, "lobby", number=2)
            assert r.content == "Lobby 2" and r.interaction.channel is chan_other
            r = await standin.slash(alice, chan_home, "lobby", number=1)
            assert r.content == "Lobby 1"
        # The second guild's shard is gone: nobody would get its interactions.
        with pytest.raises(UsageError, match="no client serves the guild Second"):
            await standin.slash(alice, chan_other, "lobby", number=3)
        assert (await standin.slash(alice, chan_home, "lobby", number=4)).content == "Lobby 4"


async def test_direct_messages_go_to_shard_zero(standin):
    """Events without a guild reach only shard 0."""
    home = standin.shard_of(standin.guild, 2)
    alice = standin.add_user("alice")
    async with standin.run_client(sharded(home, 2)):
        if home == 0:
            assert standin._conn_for(standin.dm(alice)).shard == (0, 2)
        else:
            with pytest.raises(UsageError, match="no client serves DMs"):
                await standin.slash(alice, standin.dm(alice), "lobby", number=1)


async def test_a_resumed_session_keeps_its_shard(standin):
    home = standin.shard_of(standin.guild, 3)
    async with standin.run_client(sharded(home, 3)):
        await standin.disconnect(4000)
        await standin.wait_connected()
        assert standin.resumes == 1 and standin.shards_connected() == {(home, 3)}


@pytest.mark.parametrize("shard", [[2, 2], [0, 0], [-1, 2], [0], "0,1"])
async def test_an_invalid_shard_is_closed_with_4010(standin, shard):
    """IDENTIFY with a shard outside [0, count) is closed with 4010 (Invalid Shard), as Discord does."""
    async with (
        aiohttp.ClientSession(connector=standin.connector()) as session,
        session.ws_connect(f"wss://{GATEWAY_HOST}/?v=10&encoding=json") as ws,
    ):
        hello = await ws.receive_json()
        assert hello["op"] == 10
        await ws.send_str(
            json.dumps(
                {"op": 2, "d": {"token": standin.token, "intents": 1, "shard": shard, "properties": {}}}
            )
        )
        msg = await ws.receive()
        assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 4010
    standin.expect_violation("invalid shard")
    assert standin.shards_connected() == set()
