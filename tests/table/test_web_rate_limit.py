"""The web server's rate limit (:class:`bot.web.server.RateLimit`): a bucket per address (an IPv6
address's /64 network), a limited number of buckets kept, and the limit still holding for a new
address once that number is reached, on its own and through the bot's own server behind a reverse
proxy."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from bot.web.metrics import Metrics
from bot.web.server import RateLimit, WebServer
from tests.table.test_web_pages import pages_of


def refused(limit: RateLimit, address: str, times: int) -> int:
    """How many of ``times`` requests from ``address``, all at once, ``limit`` refuses."""
    return sum(1 for _ in range(times) if limit.allow(address))


def test_a_new_address_is_limited_once_the_most_addresses_have_been_seen():
    now = [0.0]
    limit = RateLimit(now=lambda: now[0])
    for i in range(limit.addresses + 1):  # readers over a month, a page and its picture each
        address = f"10.{i // 65536}.{i // 256 % 256}.{i % 256}"
        assert refused(limit, address, 2) == 0
        now[0] += 240.0
    assert refused(limit, "192.0.2.7", 1000) == 1000 - 120
    assert len(limit._buckets) == limit.addresses


def test_the_address_forgotten_first_is_the_one_seen_least_recently():
    now = [0.0]
    limit = RateLimit(rate=1, burst=3, addresses=3, now=lambda: now[0])
    assert refused(limit, "192.0.2.1", 4) == 1  # emptied
    assert refused(limit, "192.0.2.2", 1) == 0
    assert refused(limit, "192.0.2.3", 1) == 0
    assert refused(limit, "192.0.2.1", 1) == 1  # seen again, still empty
    assert refused(limit, "192.0.2.4", 1) == 0  # one too many: 192.0.2.2 is forgotten, not .1
    assert list(limit._buckets) == ["192.0.2.3", "192.0.2.1", "192.0.2.4"]
    assert refused(limit, "192.0.2.1", 1) == 1
    now[0] += 1.0
    assert refused(limit, "192.0.2.1", 2) == 1  # one more a second, as before


def test_an_ipv6_network_of_64_bits_counts_as_one_address():
    limit = RateLimit(now=lambda: 0.0)  # one machine usually holds a whole /64
    assert sum(1 for i in range(1000) if limit.allow(f"2001:db8:1:2::{i + 1:x}")) == 1000 - 120
    assert refused(limit, "2001:db8:1:2:ffff:ffff:ffff:ffff", 1) == 1
    assert refused(limit, "2001:db8:1:3::1", 120) == 0  # the next network is another's
    assert list(limit._buckets) == ["2001:db8:1:2::/64", "2001:db8:1:3::/64"]


def test_an_ipv4_address_counts_alone_however_it_is_written():
    limit = RateLimit(rate=1, burst=3, now=lambda: 0.0)
    assert refused(limit, "192.0.2.1", 2) == 0
    assert refused(limit, "::ffff:192.0.2.1", 2) == 1  # the same address, seen through an IPv6 socket
    assert refused(limit, "192.0.2.2", 3) == 0  # its neighbour is another reader
    assert refused(limit, "?", 3) == 0  # no address at all: a bucket of its own


# The limit does not read the store: one back end is enough.
@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
async def test_behind_a_proxy_a_new_reader_is_limited_once_the_most_readers_have_come(service):
    now = [0.0]
    client = discord.Client(intents=discord.Intents.default())  # never logged in
    server = WebServer(
        client,
        lambda: service.store,
        Metrics(),
        port=0,
        pages=pages_of(service),
        limit=RateLimit(addresses=50, now=lambda: now[0]),
    )
    await server.start()
    try:
        async with aiohttp.ClientSession() as http:

            async def statuses(address: str, times: int) -> list[int]:
                got = []
                for _ in range(times):
                    headers = {"X-Forwarded-For": address}
                    async with http.get(
                        f"http://127.0.0.1:{server.port}/static/web.css", headers=headers
                    ) as reply:
                        await reply.read()
                        got.append(reply.status)
                return got

            for i in range(51):  # one reader more than the limit keeps, a page and its style each
                assert await statuses(f"203.0.113.{i + 1}", 2) == [200, 200]
                now[0] += 60.0
            got = await statuses("192.0.2.99", 130)
            assert got == [200] * 120 + [429] * 10
    finally:
        await server.stop()
        await client.close()


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
async def test_one_address_holds_at_most_twenty_event_streams_open_at_once(service):
    """Each open stream reads its game every second: one address (a reader's tabs, a club behind
    one router) may hold 20; the next is refused with 429 until one of them closes, and another
    address is not held back by them."""
    import asyncio

    from bot.web.server import STREAMS_PER_ADDRESS

    await service.lobby.create("nim", guild_id=1, channel_id=40, host_id=1, host_name="ann", seed=1)
    await service.lobby.join(40, 2, "bob")
    session = (await service.lobby.start(40, 1)).session
    pages = pages_of(service, poll=0.01)
    client = discord.Client(intents=discord.Intents.default())  # never logged in
    server = WebServer(client, lambda: service.store, Metrics(), port=0, pages=pages)
    await server.start()
    token = await pages.links.token("game", session.id)
    url = f"http://127.0.0.1:{server.port}/g/{token}/events"
    try:
        async with aiohttp.ClientSession() as http:

            async def opened(address: str) -> aiohttp.ClientResponse:
                reply = await http.get(url, headers={"X-Forwarded-For": address})
                if reply.status == 200:
                    await reply.content.readuntil(b"\n\n")  # its first event: the stream is open
                return reply

            streams = [await opened("192.0.2.5") for _ in range(STREAMS_PER_ADDRESS)]
            assert [r.status for r in streams] == [200] * STREAMS_PER_ADDRESS
            refused = await opened("192.0.2.5")
            assert refused.status == 429 and refused.headers["Retry-After"] == "60"
            refused.release()
            elsewhere = await opened("192.0.2.6")
            assert elsewhere.status == 200
            elsewhere.close()
            streams.pop().close()  # one tab closed: the server sees it at its next write
            for _ in range(10_000):
                if server.streams.get("192.0.2.5") == STREAMS_PER_ADDRESS - 1:
                    break
                await asyncio.sleep(0.001)
            again = await opened("192.0.2.5")
            assert again.status == 200
            again.close()
            for reply in streams:
                reply.close()
    finally:
        pages.close()
        await server.stop()
        await client.close()
