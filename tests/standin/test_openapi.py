"""Discord's OpenAPI description: requests that break it are refused, answers are shaped as it says."""

import discord
import pytest
from discord.http import Route

from tests.standin.spec import SPEC_PATH, spec


async def test_a_body_that_breaks_the_description_is_refused_naming_the_route_and_the_rule(
    standin, bot, chan
):
    body = {"embeds": [{"title": "t", "color": "red"}]}
    with pytest.raises(discord.HTTPException) as err:
        await bot.http.request(
            Route("POST", "/channels/{channel_id}/messages", channel_id=chan.id), json=body
        )
    assert err.value.status == 400 and err.value.code == 50035
    assert err.value._errors == {
        "embeds": {
            "0": {
                "color": {"_errors": [{"code": "NUMBER_TYPE_COERCE", "message": 'Value "red" is not int.'}]}
            }
        }
    }
    v = await standin.next_violation("breaks Discord's OpenAPI description")
    assert v.route == "POST /channels/{channel_id}/messages"
    assert (
        "embeds.0.color: 'red' is not of type 'integer', 'null' (rule RichEmbed: properties/color/type)"
        in v.reason
    )
    assert standin.messages(chan) == []


async def test_a_body_on_a_route_that_takes_none_is_refused(standin, bot, chan):
    r = await standin.http("GET", f"/channels/{chan.id}", body={"name": "x"})
    assert r.status == 400 and r.json["code"] == 50035
    await standin.next_violation("this route takes no body")


async def test_a_deferred_callback_answer_names_the_message_but_carries_none(standin, bot, alice, chan):
    r = await standin.slash(alice, chan, "bad", kind="late", wait=False)  # the bot waits; the test answers
    i = r.interaction
    path = f"/interactions/{i.id}/{i.token}/callback?with_response=true"
    deferred = await standin.http("POST", path, body={"type": 5, "data": {"flags": 64}})
    assert deferred.json == {
        "interaction": {
            "id": str(i.id),
            "type": 2,
            "response_message_id": str(i.response_message.id),
            "response_message_loading": True,
            "response_message_ephemeral": True,
        }
    }
    r = await standin.slash(alice, chan, "bad", kind="late", wait=False)
    i = r.interaction
    path = f"/interactions/{i.id}/{i.token}/callback?with_response=true"
    answered = await standin.http("POST", path, body={"type": 4, "data": {"content": "now"}})
    assert answered.json["resource"]["type"] == 4
    assert answered.json["resource"]["message"]["content"] == "now"
    assert answered.json["interaction"]["response_message_loading"] is False


async def test_commands_come_back_as_discord_stores_them(standin, bot):
    game = standin.command("game")
    assert game["integration_types"] == [0] and game["contexts"] is None and game["dm_permission"] is True
    assert game["default_member_permissions"] is None and game["type"] == 1
    assert "guild_id" not in game  # a global command
    nulls = [k for k, v in game.items() if v is None]
    assert sorted(nulls) == ["contexts", "default_member_permissions"]  # the two the description allows
    fetched = await bot.tree.fetch_commands()
    assert {c.name for c in fetched} == {c["name"] for c in standin.commands[None]}


async def test_components_carry_their_numeric_ids(standin, bot, alice, chan):
    lobby = await standin.slash(alice, chan, "lobby", number=3)
    assert [(c["type"], c["id"]) for c in lobby.message.all_components] == [(1, 1), (2, 2)]
    layout = await standin.slash(alice, chan, "layout")
    assert [c["id"] for c in layout.message.all_components] == [1, 2, 3, 4]
    assert layout.message.components[0]["spoiler"] is False  # a container's defaults are filled in
    # Ids the bot chose are kept; the others are numbered around them.
    row = {
        "type": 1,
        "id": 2,
        "components": [{"type": 2, "style": 1, "label": x, "custom_id": x} for x in ("a", "b")],
    }
    sent = await bot.http.request(
        Route("POST", "/channels/{channel_id}/messages", channel_id=chan.id), json={"components": [row]}
    )
    assert [c["id"] for c in [sent["components"][0], *sent["components"][0]["components"]]] == [2, 1, 3]


async def test_the_stand_ins_own_answers_are_checked(standin, bot, monkeypatch):
    monkeypatch.setattr(standin.bot_user, "payload", lambda: {"id": str(standin.bot_user.id)})
    r = await standin.http("GET", "/users/@me")
    assert r.status == 200
    v = await standin.next_violation("the stand-in's 200 answer breaks Discord's OpenAPI description")
    assert "'username' is a required property (rule UserPIIResponse: required)" in v.reason


def test_the_description_is_the_vendored_one_and_loads_once():
    import hashlib

    assert hashlib.sha256(SPEC_PATH.read_bytes()).hexdigest() == (
        "8c1d0707ccdf8e380a86dfba04058820a66435c1b69d5ed82e04dd8c0520dd73"
    )
    assert spec() is spec()
    assert (SPEC_PATH.parent / "LICENSE").read_text().startswith("MIT License")
