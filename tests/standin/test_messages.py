"""Messages: the bot's REST calls on channels, what tests read back, and the ERROR-log guard."""

import logging

import discord
import pytest

from tests.standin import StandInTimeout, UsageError
from tests.standin.fixtures import DiscordErrorGuard
from tests.standin.tinybot import TinyBot


@pytest.fixture
async def bot(standin):
    async with standin.run_client(TinyBot) as client:
        await standin.wait_synced()
        yield client


@pytest.fixture
def chan(standin):
    return standin.guild.text_channels[1]


async def test_send_edit_fetch_delete_through_the_client(standin, bot, chan):
    channel = bot.get_channel(chan.id)
    sent = await channel.send("first", embed=discord.Embed(title="T", description="D"))
    stored = standin.message(sent.id)
    assert stored.content == "first" and stored.embeds[0]["title"] == "T"
    await sent.edit(content="second", view=None)
    assert stored.content == "second" and stored.edits == 1
    fetched = await channel.fetch_message(sent.id)
    assert fetched.content == "second" and fetched.author.id == standin.bot_user.id
    history = [m.content async for m in channel.history(limit=10)]
    assert history == ["second"]
    await sent.delete()
    assert stored.deleted and standin.messages(chan) == []
    with pytest.raises(discord.NotFound):  # deleted: Discord's ordinary 404, not a violation
        await channel.fetch_message(sent.id)


async def test_ephemeral_messages_cannot_be_fetched_by_channel(standin, bot, chan):
    alice = standin.add_user("alice")
    r = await standin.slash(alice, chan, "secret")
    with pytest.raises(discord.NotFound):
        await bot.get_channel(chan.id).fetch_message(r.message.id)
    await standin.next_violation("ephemeral messages can only be reached through the interaction webhook")


async def test_a_user_deleting_a_message_reaches_the_bot(standin, bot, chan):
    alice = standin.add_user("alice")
    r = await standin.slash(alice, chan, "lobby", number=1)
    waiter = bot.loop.create_task(bot.wait_for("raw_message_delete"))
    await standin.delete(r.message)
    event = await waiter
    assert event.message_id == r.message.id
    with pytest.raises(UsageError, match="was deleted"):
        await standin.click(alice, r.message, "Join")


async def test_next_message_hands_each_message_out_once(standin, bot, chan):
    channel = bot.get_channel(chan.id)
    for text in ("one", "two", "three"):
        await channel.send(text)
    assert (await standin.next_message(chan, lambda m: m.content == "two")).content == "two"
    assert (await standin.next_message(chan)).content == "one"
    assert (await standin.next_message(chan)).content == "three"
    with pytest.raises(StandInTimeout, match="a new message in #games"):
        await standin.next_message(chan, timeout=0.05)
    standin.skip_messages(chan)
    await channel.send("four")
    assert (await standin.next_message(chan)).content == "four"


async def test_waiting_for_followups_that_never_come_fails_clearly(standin, bot, chan):
    alice = standin.add_user("alice")
    r = await standin.slash(alice, chan, "game join")
    with pytest.raises(StandInTimeout, match=r"3 followup\(s\) to /game join by alice \(have 0\)"):
        await r.followups(3, timeout=0.05)


async def test_interaction_messages_carry_their_metadata(standin, bot, chan):
    alice = standin.add_user("alice")
    r = await standin.slash(alice, chan, "game join")
    msg = await bot.get_channel(chan.id).fetch_message(r.message.id)
    assert msg.interaction_metadata.user.id == alice.id
    assert msg.application_id == standin.application_id


def test_the_log_guard_reports_and_allows():
    with DiscordErrorGuard() as guard:
        logging.getLogger("discord.client").error("Ignoring exception in on_message")
        logging.getLogger("discord.app_commands.tree").error("Ignoring exception in command 'x'")
        logging.getLogger("discord").warning("only a warning")
    assert len(guard.unexpected()) == 2
    guard.allow(r"command 'x'")
    assert [r.getMessage() for r in guard.unexpected()] == ["Ignoring exception in on_message"]
