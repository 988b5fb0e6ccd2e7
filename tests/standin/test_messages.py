"""Messages: the bot's REST calls on channels, what tests read back, and the ERROR-log guard."""

import logging

import discord
import pytest

from tests.standin import ClientError, StandInTimeout, UsageError
from tests.standin.fixtures import DiscordErrorGuard
from tests.standin.model import MANAGE_THREADS, MENTION_EVERYONE, VIEW_CHANNEL
from tests.standin.tinybot import TinyBot


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


async def test_user_messages_reach_the_bot_without_content_unless_it_has_the_intent(standin):
    alice = standin.add_user("alice")
    chan = standin.guild.text_channels[0]
    for content_intent in (False, True):
        intents = discord.Intents.default()
        intents.message_content = content_intent
        async with standin.run_client(lambda c, i=intents: TinyBot(c, intents=i)) as client:
            waiter = client.loop.create_task(client.wait_for("message"))
            await standin.say(alice, chan, "hello bot")
            message = await waiter
            assert message.author.id == alice.id
            assert message.content == ("hello bot" if content_intent else "")


async def test_the_bot_opens_a_thread_and_plays_in_it(standin, bot, chan):
    alice = standin.add_user("alice")
    r = await standin.slash(alice, chan, "table", name="nim 1")
    thread = standin.channel("nim 1")
    assert thread.is_thread and thread.parent_id == chan.id and r.content == f"opened {thread.mention}"
    assert [m.content for m in standin.messages(thread)] == ["welcome to nim 1"]
    await standin.settle()
    assert bot.get_channel(thread.id) is not None
    inside = await standin.slash(alice, thread, "game join")
    assert inside.message.channel is thread
    standin.set_role_permissions(standin.bot_role, standin.bot_role.permissions | MANAGE_THREADS)
    await standin.settle()  # made a moderator, the bot may lock the thread
    await bot.get_channel(thread.id).edit(archived=True, locked=True)
    assert thread.archived and thread.locked
    with pytest.raises(discord.HTTPException, match="Thread is locked"):
        await bot.get_channel(thread.id).send("no")


async def test_channel_overwrites_take_permissions_away(standin, bot, chan):
    from tests.standin.model import ATTACH_FILES, SEND_MESSAGES

    alice = standin.add_user("alice")
    standin.set_permissions(chan, standin.bot_role, deny=SEND_MESSAGES)
    channel = bot.get_channel(chan.id)
    await standin.settle()
    assert not channel.permissions_for(channel.guild.me).send_messages
    r = await standin.slash(alice, chan, "say", text="denied")
    with pytest.raises(ClientError, match=r"403 Forbidden \(error code: 50013\): Missing Permissions"):
        await r.followup()
    standin.set_permissions(chan, standin.bot_role, allow=SEND_MESSAGES, deny=ATTACH_FILES)
    await channel.send("allowed again")
    with pytest.raises(discord.Forbidden):
        await channel.send(file=discord.File(__file__))
    standin.set_permissions(chan, alice, deny=1 << 10)  # alice can no longer see the channel
    with pytest.raises(UsageError, match="alice cannot see #games"):
        await standin.slash(alice, chan, "game join")


async def test_who_gets_pinged(standin, bot, chan):
    alice, bob = standin.add_users("alice", "bob")
    channel = bot.get_channel(chan.id)
    sent = await channel.send(f"{alice.mention} then {bob.mention}")
    assert standin.message(sent.id).pinged == {alice.id, bob.id}
    assert [u.id for u in sent.mentions] == [alice.id, bob.id]
    quiet = await channel.send(f"{alice.mention}", allowed_mentions=discord.AllowedMentions.none())
    assert standin.message(quiet.id).pinged == frozenset()
    only_bob = await channel.send(
        f"{alice.mention} {bob.mention}",
        allowed_mentions=discord.AllowedMentions(users=[discord.Object(bob.id)]),
    )
    assert standin.message(only_bob.id).pinged == {bob.id}
    await sent.edit(content=f"{bob.mention} only")  # an edit notifies no one new
    assert standin.message(sent.id).pinged == {alice.id, bob.id}


async def test_who_a_new_message_notifies_follows_allowed_mentions(standin, bot, chan):
    """Discord's rules: with no allowed_mentions everything in the content notifies (users, roles,
    @everyone, the replied-to author); parse and the users/roles lists narrow it; members who
    cannot view the channel and the author are never notified; edits notify nobody."""
    alice, bob, carol, dave = standin.add_users("alice", "bob", "carol", "dave")
    quiet = standin.add_role("quiet")
    loud = standin.add_role("loud", mentionable=True)
    standin.guild.members[carol.id].roles.append(quiet)
    standin.guild.members[dave.id].roles.append(loud)
    outsider = standin.add_user("outsider")
    standin.set_permissions(chan, outsider, deny=VIEW_CHANNEL)
    # the bot's role may mention everyone here (the invite does not ask for it; a server may grant it)
    standin.set_role_permissions(standin.bot_role, standin.bot_role.permissions | MENTION_EVERYONE)
    await standin.settle()
    channel = bot.get_channel(chan.id)
    text = f"{alice.mention} <@!{bob.id}> {outsider.mention} {quiet.mention}"

    def later() -> None:
        """The bot's next message comes after the channel's rate-limit window (5 messages per
        5 s), as a bot's messages in answer to people do: discord.py need not wait for it."""
        standin.clock.advance(5.0)

    async def pinged(content: str, **kw) -> frozenset[int]:
        later()
        return standin.message((await channel.send(content, **kw)).id).pinged

    # No allowed_mentions at all (the client has no default): everything parsed.
    assert await pinged(text) == {alice.id, bob.id, carol.id}
    everyone = {alice.id, bob.id, carol.id, dave.id, standin.owner.id}
    assert await pinged("@everyone hi") == everyone
    none = discord.AllowedMentions.none()
    assert await pinged(text, allowed_mentions=none) == set()
    assert await pinged("@everyone and @here", allowed_mentions=none) == set()
    only_bob = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(bob.id)])
    assert await pinged(text + " @everyone", allowed_mentions=only_bob) == {bob.id}
    assert await pinged(f"{alice.mention}", allowed_mentions=only_bob) == set()  # listed, not written
    users = discord.AllowedMentions(everyone=False, roles=False, users=True)
    assert await pinged(text, allowed_mentions=users) == {alice.id, bob.id}
    roles = discord.AllowedMentions(everyone=False, users=False, roles=[discord.Object(loud.id)])
    later()
    sent = await channel.send(f"{quiet.mention} {loud.mention}", allowed_mentions=roles)
    stored = standin.message(sent.id)
    assert stored.pinged == {dave.id} and stored.pinged_roles == {loud.id}
    # A reply notifies the replied-to author unless replied_user is false.
    said = await standin.say(alice, chan, "hello")
    later()
    reply = await channel.get_partial_message(said.id).reply("hi")
    assert standin.message(reply.id).pinged == {alice.id}
    later()
    reply = await channel.get_partial_message(said.id).reply("hi", allowed_mentions=none)
    assert standin.message(reply.id).pinged == set()
    # Edits notify nobody.
    later()
    sent = await channel.send("nothing yet", allowed_mentions=none)
    await sent.edit(content=alice.mention)
    assert standin.message(sent.id).pinged == set()
    assert {m.id for m in standin.all_messages()} >= {sent.id, reply.id, said.id}
    assert standin.ratelimits is not None and standin.ratelimits.limited == []


async def test_another_users_message_is_deleted_only_with_manage_messages(standin, bot, chan):
    """resources/message, Delete Message: the bot deletes its own messages; another user's needs
    Manage Messages, which the bot's invite does not ask for."""
    from tests.standin.model import MANAGE_MESSAGES

    alice = standin.add_user("alice")
    theirs = await standin.say(alice, chan, "hello")
    partial = bot.get_channel(chan.id).get_partial_message(theirs.id)
    with pytest.raises(discord.Forbidden, match="50013"):
        await partial.delete()
    assert not standin.message(theirs.id).deleted
    standin.set_role_permissions(standin.bot_role, standin.bot_role.permissions | MANAGE_MESSAGES)
    await standin.settle()
    await partial.delete()
    assert standin.message(theirs.id).deleted
