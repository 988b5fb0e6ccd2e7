"""The web server itself (``/healthz``, ``/metrics`` and the pages on one aiohttp server), as the
bot starts it: a request too malformed for aiohttp to route (a scanner's ``GET *``, a bad header)
gets its 400 and leaves one debug line in the log, not an error with a traceback."""

from __future__ import annotations

import asyncio
import logging

import discord
import pytest

from bot.web.metrics import Metrics
from bot.web.server import WebServer
from tests.table.test_web_pages import pages_of


async def ask(port: int, request: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    await writer.drain()
    answer = await reader.read()
    writer.close()
    await writer.wait_closed()
    return answer


@pytest.mark.parametrize("pages", [False, True])
async def test_malformed_requests_leave_no_traceback(service, pages, caplog):
    caplog.set_level(logging.DEBUG, logger="aiohttp")
    caplog.set_level(logging.DEBUG, logger="bot.web")
    client = discord.Client(intents=discord.Intents.default())  # never logged in: only its state is read
    server = WebServer(
        client,
        lambda: service.store,
        Metrics(),
        port=0,
        pages=pages_of(service) if pages else None,
    )
    await server.start()
    try:
        for request in (
            b"GET * HTTP/1.1\r\nHost: x\r\n\r\n",
            b"GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n",
            b"GET /healthz HTTP/1.1\r\nHost: x\r\nX: " + b"a" * 9000 + b"\r\n\r\n",
        ):
            answer = await ask(server.port, request)
            assert answer.split(b"\r\n", 1)[0].endswith(b"400 Bad Request"), answer[:80]
        ok = await ask(server.port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert ok.startswith(b"HTTP/1.1 503")  # not logged in: answered, not ready
    finally:
        await server.stop()
        await client.close()
    loud = [
        r
        for r in caplog.records
        if r.name.startswith(("aiohttp", "bot")) and (r.levelno >= logging.WARNING or r.exc_info)
    ]
    assert loud == [], [(r.name, r.levelname, r.getMessage()) for r in loud]
    quiet = [r.getMessage() for r in caplog.records if r.name == "bot.web.server"]
    assert sum(m.startswith("refused a malformed request from 127.0.0.1") for m in quiet) == 3, quiet


async def test_a_database_lost_between_the_ping_and_the_counts_leaves_one_warning(
    database, clock, monkeypatch, caplog
):
    """The database answers /metrics' ping, then goes (here: its connection closes) before the
    games and jobs are counted: the page is answered as for a database that did not answer the
    ping (``pukllay_database_up 0``, the last counts kept), with one warning and no traceback."""
    caplog.set_level(logging.DEBUG, logger="bot.web")
    store = await database.open(clock)
    ping = store.ping

    async def ping_then_lose(**kw):
        answered = await ping(**kw)
        await store.close()
        return answered

    monkeypatch.setattr(store, "ping", ping_then_lose)
    client = discord.Client(intents=discord.Intents.default())
    metrics = Metrics()
    metrics.games_running.set(4)  # counted at an earlier scrape
    server = WebServer(client, lambda: store, metrics, port=0)
    await server.start()
    try:
        answer = await ask(server.port, b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    finally:
        await server.stop()
        await client.close()
    assert answer.startswith(b"HTTP/1.1 200"), answer[:80]
    assert b"\npukllay_database_up 0.0\n" in answer and b"\npukllay_games_running 4.0\n" in answer
    loud = [
        r
        for r in caplog.records
        if r.name.startswith(("aiohttp", "bot")) and (r.levelno >= logging.WARNING or r.exc_info)
    ]
    assert [(r.name, r.exc_info is None) for r in loud] == [("bot.web.server", True)], loud
    assert loud[0].getMessage().startswith("could not read the games and jobs for /metrics")


async def test_links_to_a_server_on_an_ipv6_address_are_addresses(service, caplog):
    """HTTP_HOST=::1 (or ::) without PUBLIC_URL: the links the bot posts, and the start's log line,
    put the address in brackets (http://[::1]:PORT/g/...), and the link opens the game's page;
    they used to read http://::1:PORT/g/..., which no browser opens."""
    import aiohttp

    from bench.history import store_game
    from tests.support.played import whole_game

    caplog.set_level(logging.INFO, logger="bot.web.server")
    played, final = whole_game("guanga", 2, 4)
    sid = await store_game(service, "guanga", 2, 4, played[:4], final)
    client = discord.Client(intents=discord.Intents.default())
    pages = pages_of(service)
    server = WebServer(client, lambda: service.store, Metrics(), host="::1", port=0, pages=pages)
    try:
        await server.start()
    except Exception as exc:  # a machine without IPv6 on its loopback
        await client.close()
        pytest.skip(f"cannot listen on ::1 here ({exc})")
    try:
        link = await server.link("game", sid, 1, None)
        assert link is not None and link.startswith(f"http://[::1]:{server.port}/g/"), link
        async with aiohttp.ClientSession() as http, http.get(link) as reply:
            assert reply.status == 200
        said = [r.getMessage() for r in caplog.records if r.name == "bot.web.server"]
        assert f"serving /healthz, /metrics and the pages on http://[::1]:{server.port}" in said, said
    finally:
        pages.close()
        await server.stop()
        await client.close()


async def test_scrapes_that_find_the_database_down_warn_once_until_it_answers_again(database, clock, caplog):
    """The scrape's own check finds the database not answering: each scrape says
    ``pukllay_database_up 0``; the first logs one warning, the next ones nothing more, and the
    first that finds it answering again says so (a later outage warns again)."""
    caplog.set_level(logging.DEBUG, logger="bot.web")
    store = await database.open(clock)
    down = ["PostgreSQL did not answer within 5 s"]
    ping = store.ping

    async def checked(**kw):
        return down[0] if down else await ping(**kw)

    store.ping = checked
    client = discord.Client(intents=discord.Intents.default())
    server = WebServer(client, lambda: store, Metrics(), port=0)
    await server.start()
    scrape = b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    try:
        ups = []
        for step in ("down", "down", "up", "down"):
            if step == "up":
                down.clear()
            elif not down:
                down.append("the connection was closed")
            answer = await ask(server.port, scrape)
            ups.append(b"\npukllay_database_up 1.0\n" in answer)
    finally:
        await server.stop()
        await client.close()
        await store.close()
    assert ups == [False, False, True, False]
    said = [
        (r.levelno, r.getMessage())
        for r in caplog.records
        if r.name == "bot.web.server"
        and "/metrics" in r.getMessage()
        and not r.getMessage().startswith("serving")
    ]
    assert [level for level, _ in said] == [logging.WARNING, logging.INFO, logging.WARNING], said
    assert "did not answer within 5 s" in said[0][1] and "connection was closed" in said[2][1]
