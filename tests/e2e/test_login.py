"""Logging in: a network failure at start is waited out (each retry logged, the waits growing);
a token Discord refuses stops the bot at once."""

from __future__ import annotations

import dataclasses
import json
import logging

import aiohttp
import discord
import pytest

from bot.app import Backoff, PukllayBot
from bot.settings import Settings
from tests.e2e.conftest import BASE_EXTENSIONS
from tests.standin import Violation


def maker(standin, tmp_path, sleep):
    settings = Settings(
        token="standin-token", database_path=str(tmp_path / "e2e.db"), dev_guild_id=standin.guild.id
    )

    def make(connector):
        return PukllayBot(
            settings,
            extensions=BASE_EXTENSIONS,
            connector=connector,
            guild_ready_timeout=0.01,
            start_scheduler=False,
            backoff=Backoff(first=2.0, most=5.0),
            sleep=sleep,
        )

    return make


async def test_the_bot_logs_in_once_discord_can_be_reached_again(standin, tmp_path, caplog):
    """Discord's port refuses connections (as in a network failure) for the first three attempts: the
    bot logs each failure and the wait before the next (2, 4, then 5 s: doubled, at most 5), then logs
    in and serves.  The waits are the test's: it opens the port during the third, no time passes."""
    await standin.refuse_connections()
    waits: list[float] = []

    async def sleep(delay: float) -> None:
        waits.append(delay)
        if len(waits) == 3:
            await standin.accept_connections()

    alice = standin.add_user("alice")
    with caplog.at_level(logging.INFO, logger="bot.app"):
        async with standin.run_client(maker(standin, tmp_path, sleep)) as bot:
            await standin.wait_synced()
            reply = await standin.slash(alice, standin.guild.text_channels[0], "nim new", thread=False)
            assert bot.is_ready() and reply.content
    assert waits == [2.0, 4.0, 5.0]
    retries = [r.getMessage() for r in caplog.records if "trying again" in r.getMessage()]
    assert len(retries) == 3, retries
    for attempt, (line, wait) in enumerate(zip(retries, waits, strict=True), 1):
        assert line.startswith("cannot reach Discord (ClientConnectorError") and "Connect call failed" in line
        assert line.endswith(f"login attempt {attempt} failed, trying again in {wait:g} s")
    assert [r.levelname for r in caplog.records if "trying again" in r.getMessage()] == ["WARNING"] * 3
    assert any(r.getMessage() == "logged in to Discord at attempt 4" for r in caplog.records)
    assert standin.identifies == 1


async def test_a_refused_token_is_not_tried_again(standin, tmp_path, caplog):
    """Discord answers 401 to a wrong token: discord.py's LoginFailure comes out of the first attempt
    (python -m bot turns it into one line and exit status 2); nothing is retried."""
    waits: list[float] = []

    async def sleep(delay: float) -> None:
        waits.append(delay)

    bot = maker(standin, tmp_path, sleep)(standin.connector())
    with caplog.at_level(logging.INFO, logger="bot.app"), pytest.raises(discord.LoginFailure):
        async with bot:
            await bot.start("not-the-token")
    assert waits == [] and standin.requests.count("GET /users/@me") == 1
    assert not [r for r in caplog.records if "trying again" in r.getMessage()]
    with pytest.raises(Violation, match="without the bot token"):
        standin.raise_failures()  # the stand-in's record of the refused request, as Discord refuses it


async def test_a_dev_server_the_bot_is_not_in_stops_it_with_one_line(standin, tmp_path, capsys):
    """DEV_GUILD_ID naming a server the bot was not invited to (or not a server's id at all):
    Discord refuses the commands there (403 Missing Access), and ``python -m bot`` says what to
    check in one line, exit status 2, instead of a traceback."""
    from bot.__main__ import refused_at_login
    from bot.app import CommandsRefused

    async def sleep(delay: float) -> None:
        raise AssertionError("a refusal is not tried again")

    make = maker(standin, tmp_path, sleep)
    bot = make(standin.connector())
    bot.settings = dataclasses.replace(bot.settings, dev_guild_id=123456789012345678)
    with pytest.raises(CommandsRefused) as refused:
        async with bot:
            await bot.start(standin.token)
    standin.expect_violation("unknown guild 123456789012345678")
    assert refused_at_login(refused.value) == 2
    line = capsys.readouterr().err.strip()
    assert line.startswith(
        "pukllay: DEV_GUILD_ID 123456789012345678: Discord refused the slash commands there"
    )
    assert "applications.commands" in line and "Copy Server ID" in line and "\n" not in line


async def test_a_bot_in_no_server_yet_logs_how_to_invite_it(standin, tmp_path, caplog):
    """Started before it was invited anywhere: the ready line says so and gives the invitation
    URL with its own application id, the scopes and the permissions the table checks."""
    standin.guilds.clear()  # the bot was invited nowhere
    settings = Settings(token="standin-token", database_path=str(tmp_path / "e2e.db"))

    def make(connector):
        return PukllayBot(
            settings,
            extensions=BASE_EXTENSIONS,
            connector=connector,
            guild_ready_timeout=0.01,
            start_scheduler=False,
        )

    with caplog.at_level(logging.INFO, logger="bot.app"):
        async with standin.run_client(make) as bot:
            application = bot.application_id
    ready = [r for r in caplog.records if r.getMessage().startswith("ready as ")]
    assert len(ready) == 1 and ready[0].levelname == "WARNING", [r.getMessage() for r in ready]
    assert (
        ready[0]
        .getMessage()
        .endswith(
            f"in no server yet; invite it: https://discord.com/oauth2/authorize?client_id={application}"
            "&scope=bot+applications.commands&permissions=309237763072"
        )
    )


async def answers(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(url) as reply:
        return reply.status, await reply.text()


async def test_health_metrics_and_pages_answer_while_discord_cannot_be_reached(standin, tmp_path):
    """HTTP_PORT's server starts before the first login attempt: while Discord refuses connections
    a monitor reads 503 from /healthz with the reason (the login attempt that failed and why), not
    a refused connection; /metrics answers (the gateway down, the database up) and the pages read
    the database.  Once Discord can be reached the bot logs in, /healthz says ready, and the port
    is closed when the bot stops."""
    await standin.refuse_connections()
    settings = Settings(
        token="standin-token",
        database_path=str(tmp_path / "e2e.db"),
        dev_guild_id=standin.guild.id,
        http_port=0,
        web_pages=True,
    )
    seen: dict[str, tuple[int, str]] = {}
    made: list[PukllayBot] = []

    async def sleep(delay: float) -> None:
        if not seen:  # the first wait: the bot has failed to log in once
            web = made[0].web
            assert web is not None, "no web server while the login is being tried again"
            for path in ("/healthz", "/metrics", "/g/no-such-token", "/static/web.css"):
                seen[path] = await answers(web.address + path)
            await standin.accept_connections()

    def make(connector):
        bot = PukllayBot(
            settings,
            extensions=BASE_EXTENSIONS,
            connector=connector,
            guild_ready_timeout=0.01,
            start_scheduler=False,
            backoff=Backoff(first=2.0, most=5.0),
            sleep=sleep,
        )
        made.append(bot)
        return bot

    async with standin.run_client(make) as bot:
        await standin.wait_synced()
        assert bot.web is not None
        address = bot.web.address
        status, text = await answers(address + "/healthz")
        assert status == 200 and json.loads(text)["ready"] is True, text
    status, text = seen["/healthz"]
    body = json.loads(text)
    assert status == 503 and body["ready"] is False, body
    assert body["database"] == "ok" and body["shards"]["0"]["connected"] is False, body
    (problem,) = [p for p in body["problems"] if "Discord" in p]
    assert problem.startswith(
        "not logged in to Discord yet (login attempt 1 failed: cannot reach Discord (ClientConnectorError"
    ), problem
    status, text = seen["/metrics"]
    assert status == 200 and "pukllay_database_up 1.0" in text
    assert 'pukllay_gateway_connected{shard="0"} 0.0' in text
    assert seen["/g/no-such-token"][0] == 404 and seen["/static/web.css"][0] == 200
    assert bot.web is None
    with pytest.raises(aiohttp.ClientConnectorError):
        await answers(address + "/healthz")


async def test_a_refused_token_closes_the_web_server_too(standin, tmp_path):
    """The web server is up before the login; a token Discord refuses stops the bot, and the
    server with it: its port no longer accepts connections."""
    settings = Settings(token="standin-token", database_path=str(tmp_path / "e2e.db"), http_port=0)

    async def sleep(delay: float) -> None:
        raise AssertionError("a refusal is not tried again")

    bot = PukllayBot(
        settings,
        extensions=BASE_EXTENSIONS,
        connector=standin.connector(),
        guild_ready_timeout=0.01,
        start_scheduler=False,
        sleep=sleep,
    )
    address = ""
    with pytest.raises(discord.LoginFailure):
        async with bot:
            try:
                await bot.start("not-the-token")
            finally:
                assert bot.web is not None, "the web server was not started before the login"
                address = bot.web.address
    with pytest.raises(Violation, match="without the bot token"):
        standin.raise_failures()  # the stand-in's record of the refused request
    assert bot.web is None
    with pytest.raises(aiohttp.ClientConnectorError):
        await answers(address + "/healthz")


async def test_a_discord_outage_during_the_command_sync_is_waited_out(standin, tmp_path, caplog):
    """Logged in, but Discord answers 503 to the slash commands' sync at start (an outage on its
    side): the login is tried again after the wait, as for any unreachable Discord, and the bot
    then syncs and serves; its cogs are loaded once (the second attempt used to crash on
    ``ExtensionAlreadyLoaded``)."""
    waits: list[float] = []

    async def sleep(delay: float) -> None:
        waits.append(delay)

    standin.inject("PUT /applications/*/guilds/*/commands", status=503, times=1)
    alice = standin.add_user("alice")
    with caplog.at_level(logging.INFO, logger="bot.app"):
        async with standin.run_client(maker(standin, tmp_path, sleep)) as bot:
            await standin.wait_synced()
            reply = await standin.slash(alice, standin.guild.text_channels[0], "nim new", thread=False)
            assert bot.is_ready() and reply.content
            assert sorted(bot.extensions) == sorted(BASE_EXTENSIONS)
    assert waits == [2.0]
    (retry,) = [r.getMessage() for r in caplog.records if "trying again" in r.getMessage()]
    assert retry.startswith("cannot reach Discord (DiscordServerError: 503"), retry
    assert any(r.getMessage() == "logged in to Discord at attempt 2" for r in caplog.records)
