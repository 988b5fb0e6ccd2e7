"""Forged option values on every command: each is refused in words that name the option, what it
takes and what came, privately, with no traceback in any log and nothing stored."""

from __future__ import annotations

import logging
import math

import pytest

from bot.app import EXTENSIONS
from tests.e2e.forge import forged_slash
from tests.e2e.players import settled

ALL = (*EXTENSIONS, "tests.support.nim_cog")

STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10


def odd_values(option: dict) -> list:
    """Values Discord's client never sends for ``option``: of another type, out of range, too long,
    or (with choices) offered by none."""
    kind = option["type"]
    values: list
    if kind == STRING:
        values = [12345, True, None, ["a"], "x" * (option.get("max_length", 6000) + 1)]
        if option.get("min_length", 0) > 0:
            values.append("")
    elif kind == INTEGER:
        values = ["abc", "7", 2**70, -(2**70), 1.5, True, None]
    elif kind == NUMBER:
        values = ["x", "", True, None, 2**70, math.nan, math.inf, [1]]
    elif kind == BOOLEAN:
        values = ["yes", 1, None]
    else:  # an id of a user, channel, role...
        values = ["abc", 123, "", None]
    if option.get("choices"):
        values.append(99 if kind in (INTEGER, NUMBER) else "not-a-choice")
    if "min_value" in option and kind in (INTEGER, NUMBER):
        below = option["min_value"] - 1 if kind == INTEGER else option["min_value"] / 2 or -1.0
        values.append(below)
    if "max_value" in option and kind in (INTEGER, NUMBER):
        values.append(option["max_value"] + 1)
    return values


def leaves(command: dict, path: str = ""):
    """Every (sub)command of a synced command: its path and its options."""
    path = f"{path} {command['name']}".strip()
    subs = [o for o in command.get("options") or [] if o["type"] in (1, 2)]
    if not subs:
        yield path, command.get("options") or []
    for sub in subs:
        yield from leaves(sub, path)


@pytest.mark.parametrize("discord_error_loggers", [("discord", "bot", "cogs", "asyncio")])
async def test_every_option_of_every_command_refuses_odd_values(standin, bot_factory, caplog):
    """For each option of each command: texts for numbers, numbers for texts, 2**70, floats for whole
    numbers, NaN, too-long texts, values below and above the declared range, values no choice offers.
    Each gets a private answer naming the option and what it takes; no log record carries a
    traceback; no game, lobby or league is stored."""
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    caplog.set_level(logging.DEBUG)
    tried = 0
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        for command in standin.commands[standin.guild.id]:
            for path, options in leaves(command):
                for option in options:
                    for value in odd_values(option):
                        r = await forged_slash(standin, alice, chan, path, **{option["name"]: value})
                        assert r.ephemeral, (path, option["name"], value)
                        text = r.content
                        assert text.startswith(f"⚠️ The option {option['name']} must be "), (
                            path,
                            option["name"],
                            value,
                            text,
                        )
                        assert "(got " in text, text
                        tried += 1
        await settled(standin)
        assert await bot.sessions.core.in_channel(chan.id) is None
        assert await bot.store.leagues.of_server(standin.guild.id, live=False) == []
    assert tried > 300
    traced = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not traced, [f"{r.name}: {r.getMessage()}" for r in traced]


@pytest.mark.parametrize("discord_error_loggers", [("discord", "bot", "cogs", "asyncio")])
async def test_unknown_and_missing_options_and_a_wrong_type_field(standin, bot_factory, caplog):
    """An option the command does not have, a required option left out, and an option whose type
    field is not the declared one: each answered in words, no traceback."""
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)):
        await standin.wait_synced()
        r = await standin._interact(
            2,
            alice,
            chan,
            {
                "id": str(standin.command("game")["id"]),
                "name": "game",
                "type": 1,
                "options": [
                    {"name": "log", "type": 1, "options": [{"name": "bogus", "type": 4, "value": 1}]}
                ],
                "guild_id": str(standin.guild.id),
            },
            label="forged /game log bogus",
        )
        assert r.ephemeral and r.content == '⚠️ This command has no option "bogus".'
        r = await forged_slash(standin, alice, chan, "game timer")
        assert r.ephemeral and r.content.startswith("⚠️ The option hours is required: a number from 0 to 720")
        r = await standin._interact(
            2,
            alice,
            chan,
            {
                "id": str(standin.command("game")["id"]),
                "name": "game",
                "type": 1,
                "options": [
                    {"name": "stats", "type": 1, "options": [{"name": "player", "type": 3, "value": "x"}]}
                ],
                "guild_id": str(standin.guild.id),
            },
            label="forged /game stats player",
        )
        assert r.content == '⚠️ The option player must be a member of this server (got "x").'
    traced = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not traced, [f"{r.name}: {r.getMessage()}" for r in traced]


async def test_a_member_option_naming_someone_not_in_the_server(standin, bot_factory):
    """A well-formed id that Discord did not resolve to a member (someone who left, or a forged id)
    is refused by discord.py's conversion; the answer names that option, not another one."""
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)):
        await standin.wait_synced()
        r = await forged_slash(standin, alice, chan, "league organiser add", member="999", league="Liga")
        assert r.content == "⚠️ The option member must be a member of this server (got 999)."


@pytest.mark.parametrize(
    ("path", "option", "allowed"),
    [
        ("me profile", "person", "a member of this server"),
        ("me unfollow", "person", "a member of this server"),
        ("queue avoid", "person", "a member of this server"),
        ("queue unavoid", "person", "a member of this server"),
        ("game stats", "player", "a member of this server"),
        ("league settings organiser_role", "role", "a role of this server"),
    ],
)
@pytest.mark.parametrize("value", ["123", "99999999999999999999"])
async def test_a_user_or_role_option_that_names_nobody_resolved_is_refused_first(
    standin, bot_factory, path, option, allowed, value
):
    """Discord sends what a user or role option names in its ``resolved`` data; an id it did not
    resolve comes from a client made by hand, and discord.py hands such a command a bare object (no
    name, no member): it is refused before the command runs, nothing stored."""
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        r = await forged_slash(standin, standin.owner, chan, path, **{option: value})
        assert r.ephemeral and r.content == f"⚠️ The option {option} must be {allowed} (got {value}).", (
            r.content
        )
        assert await bot.store.queue.avoided(standin.owner.id) == []


@pytest.mark.parametrize("discord_error_loggers", [("discord", "bot", "cogs", "asyncio")])
async def test_the_odd_values_found_in_review(standin, bot_factory, caplog):
    """/game log count 2**70 and "abc", /game timer hours "x" in a running game, /me notify with a text
    for the reminders and a 10,000-character time zone, /league create with a forged format and a
    round of 1e-300 days: each refused naming the right option; the game, the person's settings and
    the server's leagues are unchanged; no traceback is logged."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        lobby = await standin.slash(alice, chan, "nim new", thread=False)
        await standin.click(bob, lobby.message, "Join")
        await standin.click(alice, lobby.message, "Start")
        before = await bot.sessions.core.in_channel(chan.id)
        for count in (2**70, "abc"):
            r = await forged_slash(standin, alice, chan, "game log", count=count)
            assert r.content.startswith("⚠️ The option count must be a whole number from 1 to 50 (got ")
        r = await forged_slash(standin, alice, chan, "game timer", hours="x")
        assert r.content == '⚠️ The option hours must be a number from 0 to 720 (got "x").'
        after = await bot.sessions.core.get(before.id)
        assert (after.version, after.row.timer_seconds) == (before.version, before.row.timer_seconds)

        person = await bot.store.people.person(alice.id)
        r = await forged_slash(standin, alice, chan, "me notify", reminders="6")
        assert r.content == '⚠️ The option reminders must be a whole number from 0 to 168 (got "6").'
        r = await forged_slash(standin, alice, chan, "me notify", time_zone="Europe/" + "x" * 10_000)
        assert r.content.startswith(
            '⚠️ The option time_zone must be a text of 1 to 64 characters (got "Europe/'
        )
        assert await bot.store.people.person(alice.id) == person

        league = {"name": "Liga", "game": "guanga", "format": "swiss", "players": 2, "rounds": 3}
        r = await forged_slash(standin, alice, chan, "league create", **{**league, "format": "ladder"})
        assert r.content.startswith("⚠️ The option format must be one of swiss (Swiss)"), r.content
        assert '(got "ladder")' in r.content
        r = await forged_slash(standin, alice, chan, "league create", **league, days=1e-300)
        assert r.content == "⚠️ The option days must be a number from 0.01 to 60 (got 1e-300)."
        assert await bot.store.leagues.of_server(standin.guild.id, live=False) == []
    traced = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not traced, [f"{r.name}: {r.getMessage()}" for r in traced]
