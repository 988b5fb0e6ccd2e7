"""Each of Discord's rules the stand-in enforces is detected, with its reason."""

import asyncio
import io

import discord
import pytest
from discord.http import Route

from tests.standin import ClientError, StandIn, Violation, server


async def test_a_26_option_select_is_refused(standin, bot, alice, chan):
    with pytest.raises(Violation, match=r"options list is 26 long \(limit 25\)"):
        await standin.slash(alice, chan, "bad", kind="select26")


async def test_a_101_character_custom_id_is_refused(standin, bot, alice, chan):
    with pytest.raises(Violation, match=r"custom_id .* is 101 long \(limit 100\)"):
        await standin.slash(alice, chan, "bad", kind="longid")


async def test_a_second_initial_response_is_refused(standin, bot, alice, chan):
    r = await standin.slash(alice, chan, "bad", kind="twice")
    assert r.content == "one"
    v = await standin.next_violation("already been acknowledged")
    assert "second initial response" in v.reason
    assert [m.content for m in standin.messages(chan)] == ["one"]


async def test_content_over_2000_characters_is_refused(standin, bot, alice, chan):
    with pytest.raises(Violation, match=r"message content is 2001 long \(limit 2000\)"):
        await standin.slash(alice, chan, "bad", kind="long")


async def test_an_empty_message_is_refused(standin, bot, alice, chan):
    with pytest.raises(Violation, match="no content, embeds, files, components"):
        await standin.slash(alice, chan, "bad", kind="empty")


async def test_26_autocomplete_choices_are_refused(standin, bot, alice, chan):
    with pytest.raises(Violation, match=r"autocomplete choices list is 26 long \(limit 25\)"):
        await standin.autocomplete(alice, chan, "bad", "extra", kind="long")


@pytest.mark.parametrize("standin_options", [{"interaction_timeout": 0.2}])
async def test_a_late_answer_is_refused(standin, bot, alice, chan):
    with pytest.raises(Violation, match=r"not answered within 0.2 s"):
        await standin.slash(alice, chan, "bad", kind="late")
    bot.gate.set()  # now the bot answers, too late: Discord says "Unknown interaction"
    await standin.wait_for(lambda: len(standin.client_errors) == 1, what="the bot's failed late answer")
    assert "answered after" in standin.violations[-1].reason
    assert isinstance(standin.client_errors[0].exception.original, discord.NotFound)


@pytest.mark.parametrize("standin_options", [{"interaction_timeout": 0.2}])
async def test_time_the_machine_held_the_process_back_is_not_the_bots(standin, bot, alice, chan, monkeypatch):
    """The deadline counts the bot's time, not the host's load: while the operating system keeps the
    test process from a CPU (here every moment is said to be such a wait), the answer is not late."""
    loop = asyncio.get_running_loop()
    monkeypatch.setattr(server, "run_delay", loop.time)
    gate_opened = loop.call_later(0.5, bot.gate.set)  # 0.5 s of wall time, all of it "held back"
    r = await standin.slash(alice, chan, "bad", kind="late")
    assert r.message is not None and r.message.content == "too late"
    assert not standin.violations and not standin.client_errors
    gate_opened.cancel()


async def test_an_exception_in_a_command_fails_the_test_with_the_traceback(standin, bot, alice, chan):
    with pytest.raises(ClientError, match="(?s)Ignoring exception in command 'crash'.*RuntimeError: kaboom"):
        await standin.slash(alice, chan, "crash")


async def raw(bot, method, path, **kw):
    return await bot.http.request(
        Route(method, path, **{k: v for k, v in kw.items() if k.endswith("_id")}), json=kw.get("json")
    )


def button(i, **kw):
    return {"type": 2, "style": 1, "label": f"b{i}", "custom_id": f"b{i}", **kw}


def row(*items):
    return {"type": 1, "components": list(items)}


BAD_MESSAGES = {
    r"6 action rows \(limit 5\)": {"content": "x", "components": [row(button(i)) for i in range(6)]},
    r"holds 6 buttons \(limit 5\)": {"content": "x", "components": [row(*[button(i) for i in range(6)])]},
    r"a select must be alone in its row": {
        "content": "x",
        "components": [
            row({"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]}, button(1))
        ],
    },
    r"label is 81 long \(limit 80\)": {"content": "x", "components": [row(button(1, label="L" * 81))]},
    r"placeholder is 151 long \(limit 150\)": {
        "content": "x",
        "components": [
            row(
                {
                    "type": 3,
                    "custom_id": "s",
                    "placeholder": "p" * 151,
                    "options": [{"label": "a", "value": "a"}],
                }
            )
        ],
    },
    r"option 0 label is 101 long": {
        "content": "x",
        "components": [row({"type": 3, "custom_id": "s", "options": [{"label": "a" * 101, "value": "a"}]})],
    },
    r"option 0 value is 101 long": {
        "content": "x",
        "components": [row({"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "v" * 101}]})],
    },
    r"used twice in one message": {"content": "x", "components": [row(button(1), button(1))]},
    r"embed 0 title is 257 long": {"embeds": [{"title": "t" * 257}]},
    r"embed 0 fields list is 26 long": {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]},
    r"embeds hold 6001 characters": {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]},
}


@pytest.mark.parametrize("reason", list(BAD_MESSAGES))
async def test_message_limits_are_enforced(standin, bot, chan, reason):
    with pytest.raises(discord.HTTPException) as err:
        await raw(
            bot, "POST", "/channels/{channel_id}/messages", channel_id=chan.id, json=BAD_MESSAGES[reason]
        )
    assert err.value.status == 400 and err.value.code == 50035
    assert (await standin.next_violation(reason)).route == "POST /channels/{channel_id}/messages"


async def test_eleven_files_and_oversized_files_are_refused(standin, bot, chan):
    channel = bot.get_channel(chan.id)
    with pytest.raises(discord.HTTPException):
        await channel.send(files=[discord.File(io.BytesIO(b"x"), f"{i}.txt") for i in range(11)])
    await standin.next_violation(r"11 files attached \(limit 10\)")
    big = discord.File(io.BytesIO(b"x" * (standin.file_size_limit + 1)), "big.bin")
    with pytest.raises(discord.HTTPException) as err:
        await channel.send(file=big)
    assert err.value.status == 413 and err.value.code == 40005
    await standin.next_violation(r"file 'big.bin' is \d+ bytes \(limit \d+\)")


BAD_COMMANDS = {
    r"name 'Bad' must be 1-32 lowercase": {"name": "Bad", "description": "d"},
    r"name 'has space' must be 1-32 lowercase": {"name": "has space", "description": "d"},
    r"name 'x{33}' must be 1-32 lowercase": {"name": "x" * 33, "description": "d"},
    r"description is 101 long": {"name": "ok", "description": "d" * 101},
    r"description is 0 long \(minimum 1\)": {"name": "ok", "description": ""},
    r"options list is 26 long": {
        "name": "ok",
        "description": "d",
        "options": [{"type": 3, "name": f"o{i}", "description": "d"} for i in range(26)],
    },
    r"choices list is 26 long": {
        "name": "ok",
        "description": "d",
        "options": [
            {
                "type": 3,
                "name": "o",
                "description": "d",
                "choices": [{"name": f"c{i}", "value": f"c{i}"} for i in range(26)],
            }
        ],
    },
    r"options list is 26 long.*|26 long": {
        "name": "ok",
        "description": "d",
        "options": [{"type": 1, "name": f"s{i}", "description": "d"} for i in range(26)],
    },
    r"required option /ok b follows an optional one": {
        "name": "ok",
        "description": "d",
        "options": [
            {"type": 3, "name": "a", "description": "d"},
            {"type": 3, "name": "b", "description": "d", "required": True},
        ],
    },
    r"is nested too deeply": {
        "name": "ok",
        "description": "d",
        "options": [
            {
                "type": 2,
                "name": "g",
                "description": "d",
                "options": [{"type": 2, "name": "h", "description": "d", "options": []}],
            }
        ],
    },
}


@pytest.mark.parametrize("reason", list(BAD_COMMANDS))
async def test_command_limits_are_enforced_at_sync(standin, bot, reason):
    with pytest.raises(discord.HTTPException) as err:
        await bot.http.bulk_upsert_global_commands(standin.application_id, [BAD_COMMANDS[reason]])
    assert err.value.code == 50035
    await standin.next_violation(reason)


async def test_a_route_the_stand_in_lacks_fails_the_test(standin, bot):
    with pytest.raises(discord.NotFound):
        await bot.http.request(Route("GET", "/guilds/{guild_id}/bans", guild_id=standin.guild.id))
    await standin.next_violation(r"no route GET /guilds/\d+/bans")


async def test_no_other_host_is_reachable():
    async with StandIn() as s:
        import aiohttp

        async with aiohttp.ClientSession(connector=s.connector()) as session:
            with pytest.raises(aiohttp.ClientError):
                await session.get("https://example.com/")
        assert "example.com" in s.expect_violation("not Discord").reason
