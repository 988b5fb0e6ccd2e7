"""Direct messages and interaction contexts: the bot's DMs, DMs between users, where commands are offered."""

import discord
import pytest

from tests.standin import StandIn, UsageError
from tests.standin.fixtures import DEFAULT_OPTIONS
from tests.standin.tinybot import TinyBot


async def test_the_bot_opens_a_dm_and_writes_to_the_user(standin, bot, alice):
    user = await bot.fetch_user(alice.id)
    sent = await user.send("your turn")  # discord.py: POST /users/@me/channels, then the message
    dm = standin.dm(alice)
    assert [m.content for m in standin.messages(dm)] == ["your turn"]
    assert sent.channel.id == dm.id and isinstance(sent.channel, discord.DMChannel) and sent.guild is None
    assert "POST /users/@me/channels" in standin.requests
    again = await standin.http("POST", "/users/@me/channels", body={"recipient_id": str(alice.id)})
    assert again.json == {
        "id": str(dm.id),
        "type": 1,
        "flags": 0,
        "last_message_id": None,
        "recipients": [alice.payload()],
    }


async def test_a_user_who_takes_no_dms_gets_none(standin, bot, alice):
    standin.close_dms(alice)
    user = await bot.fetch_user(alice.id)
    with pytest.raises(discord.Forbidden) as err:
        await user.send("your turn")
    assert err.value.status == 403 and err.value.code == 50007
    assert err.value.text == "Cannot send messages to this user"
    assert standin.messages(standin.dm(alice)) == []
    standin.close_dms(alice, closed=False)
    await user.send("now it works")
    assert [m.content for m in standin.messages(standin.dm(alice))] == ["now it works"]


async def test_a_dm_with_nobody_is_refused(standin, bot):
    r = await standin.http("POST", "/users/@me/channels", body={"recipient_id": "42"})
    assert r.status == 400 and r.json == {"message": "Invalid Recipient(s)", "code": 50033}
    await standin.next_violation("no user '42' to open a DM with")


async def test_the_bot_reads_what_a_user_writes_in_its_dm(standin, bot, alice):
    waiter = bot.loop.create_task(bot.wait_for("message"))
    await standin.say(alice, standin.dm(alice), "hello bot")
    message = await waiter
    # No message-content intent is needed in the bot's own DMs.
    assert message.content == "hello bot" and isinstance(message.channel, discord.DMChannel)


async def test_a_dm_between_two_users_is_not_the_bots(standin, bot, alice):
    bob = standin.add_user("bob")
    private = standin.dm(alice, bob)
    r = await standin.http("POST", f"/channels/{private.id}/messages", body={"content": "hi"})
    assert r.status == 403 and r.json == {"message": "Missing Access", "code": 50001}
    await standin.next_violation("the bot is not part of the DM")


# -- interactions in DMs ---------------------------------------------------------------------------------


async def test_a_global_command_works_in_the_bots_dm(standin, bot, alice):
    dm = standin.dm(alice)
    r = await standin.slash(alice, dm, "game join")
    assert r.content == "alice joined" and r.message.channel is dm
    assert r.interaction.context == 1 and r.interaction.owners == {"0": "0"}
    lobby = await standin.slash(alice, dm, "lobby", number=7)
    joined = await standin.click(alice, lobby.message, "Join")  # a button in a DM
    assert joined.content == "alice joined lobby 7" and joined.interaction.context == 1
    said = await standin.slash(alice, dm, "say", text="in the DM")  # the bot posts in the DM channel
    assert (await said.followup()).content == "posted"
    assert "in the DM" in [m.content for m in standin.messages(dm)]


async def test_a_server_only_command_is_not_offered_in_a_dm(standin, bot, alice, chan):
    assert standin.command("serveronly")["contexts"] == [0]
    assert (await standin.slash(alice, chan, "serveronly")).content == "in a server"
    with pytest.raises(
        UsageError, match=r"Discord does not offer /serveronly in a DM with the bot, only in a server"
    ):
        await standin.slash(alice, standin.dm(alice), "serveronly")


async def test_dm_permission_false_keeps_a_command_out_of_dms(standin, bot, alice):
    await bot.http.bulk_upsert_global_commands(
        standin.application_id, [{"name": "nodm", "description": "d", "dm_permission": False}]
    )
    with pytest.raises(UsageError, match="does not offer /nodm in a DM with the bot"):
        await standin.slash(alice, standin.dm(alice), "nodm")


async def test_server_commands_are_never_offered_in_dms(standin, bot, alice):
    await bot.http.bulk_upsert_guild_commands(
        standin.application_id, standin.guild.id, [{"name": "local", "description": "d", "contexts": [0, 1]}]
    )
    with pytest.raises(UsageError, match=r"does not offer /local in a DM with the bot.*a server command"):
        await standin.slash(alice, standin.dm(alice), "local")


async def test_commands_of_a_server_app_are_not_offered_between_users(standin, bot, alice):
    bob = standin.add_user("bob")
    with pytest.raises(UsageError, match="does not offer /anywhere in a DM or group DM between users"):
        await standin.slash(alice, standin.dm(alice, bob), "anywhere")


@pytest.mark.parametrize("standin_options", [{**DEFAULT_OPTIONS, "user_install": True}])
async def test_a_user_installed_command_works_between_users(standin, bot, alice):
    bob = standin.add_user("bob")
    private = standin.dm(alice, bob)
    r = await standin.slash(alice, private, "anywhere")
    assert (
        r.content == "here, in context <AppCommandContext guild=False dm_channel=False private_channel=True>"
    )
    assert r.interaction.context == 2 and r.interaction.owners == {"1": str(alice.id)}
    assert r.message.channel is private
    # Only commands the user could install are offered there.
    with pytest.raises(UsageError, match="does not offer /game in a DM or group DM between users"):
        await standin.slash(alice, private, "game join")
    with pytest.raises(UsageError, match="carol is not part of the DM"):
        await standin.slash(standin.add_user("carol"), private, "anywhere")


async def test_interaction_payloads_in_a_dm_carry_the_user_not_a_member(standin, alice):
    seen = []

    class Watch(TinyBot):
        async def on_interaction(self, interaction: discord.Interaction) -> None:
            seen.append((interaction.guild_id, type(interaction.user), interaction.context.dm_channel))

    async with standin.run_client(Watch):
        await standin.wait_synced()
        await standin.slash(alice, standin.dm(alice), "game join")
    assert seen == [(None, discord.User, True)]


def test_the_stand_in_is_installed_to_the_server_unless_told_otherwise():
    assert StandIn().installations == {0}
    assert StandIn(user_install=True).installations == {0, 1}


async def test_a_user_who_shares_no_server_with_the_bot_gets_no_dm(standin, bot, alice):
    """Discord lets a bot DM only users it shares a server with (or who installed the app)."""
    user = await bot.fetch_user(alice.id)
    standin.leave(alice, standin.guild)
    with pytest.raises(discord.Forbidden) as err:
        await user.send("your turn")
    assert err.value.code == 50007 and standin.messages(standin.dm(alice)) == []
    standin.join(alice, standin.guild)
    await user.send("back in the server")
    assert [m.content for m in standin.messages(standin.dm(alice))] == ["back in the server"]
