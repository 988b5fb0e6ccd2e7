"""Logging in: a network failure at start is waited out (each retry logged, the waits growing);
a token Discord refuses stops the bot at once."""

from __future__ import annotations

import dataclasses
import logging

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
