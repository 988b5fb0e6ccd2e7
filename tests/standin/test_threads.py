"""Threads as Discord has them: started from a message, archived, locked, refused without permission."""

import discord
import pytest

from tests.standin import UsageError
from tests.standin.model import (
    CREATE_PUBLIC_THREADS,
    HAS_THREAD,
    MANAGE_THREADS,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
)


@pytest.fixture
def chan(standin):
    return standin.guild.text_channels[1]


async def start(bot, chan, text="lobby", name="Nim 1 (alice)", minutes=60):
    channel = bot.get_channel(chan.id)
    message = await channel.send(text)
    thread = await message.create_thread(name=name, auto_archive_duration=minutes)
    return message, thread


async def test_a_thread_started_from_a_message_has_its_id_and_the_message_links_to_it(standin, bot, chan):
    message, thread = await start(bot, chan)
    stored = standin.channel(thread.id)
    assert thread.id == message.id and stored.type == 11 and stored.parent_id == chan.id
    assert (
        stored.auto_archive_duration == 60 and not stored.archived and stored.owner_id == standin.bot_user.id
    )
    payload = standin.message(message.id).payload()
    assert payload["thread"]["id"] == str(thread.id) and payload["flags"] & HAS_THREAD
    await standin.settle()  # THREAD_CREATE reached the client's cache
    cached = bot.get_channel(thread.id)
    assert isinstance(cached, discord.Thread) and cached.parent_id == chan.id
    assert cached.auto_archive_duration == 60
    await thread.send("inside")
    assert [m.content for m in standin.messages(stored)] == ["inside"]
    assert [m.content for m in standin.messages(chan)] == ["lobby"]
    with pytest.raises(discord.HTTPException, match="already been created"):
        await message.create_thread(name="again")
    standin.expect_violation("already has a thread")


async def test_auto_archive_duration_takes_only_discords_values(standin, bot, chan):
    message = await bot.get_channel(chan.id).send("x")
    r = await standin.http(
        "POST",
        f"/channels/{chan.id}/messages/{message.id}/threads",
        body={"name": "t", "auto_archive_duration": 90},
    )
    assert r.status == 400 and r.json["code"] == 50035
    standin.expect_violation("auto_archive_duration")
    assert not standin.guild.threads[1:]


async def test_without_create_public_threads_or_view_channel_discord_refuses(standin, bot, chan):
    channel = bot.get_channel(chan.id)
    message = await channel.send("lobby")
    standin.set_permissions(chan, standin.bot_role, deny=CREATE_PUBLIC_THREADS)
    with pytest.raises(discord.Forbidden, match="50013"):
        await message.create_thread(name="no")
    standin.set_permissions(chan, standin.bot_role, deny=VIEW_CHANNEL)
    r = await standin.http("POST", f"/channels/{chan.id}/messages/{message.id}/threads", body={"name": "no"})
    assert r.status == 403 and r.json["code"] == 50001
    assert [t.name for t in standin.guild.threads] == ["game-thread"]


async def test_send_messages_does_not_reach_threads(standin, bot, chan):
    _, thread = await start(bot, chan)
    standin.set_permissions(chan, standin.bot_role, allow=SEND_MESSAGES, deny=SEND_MESSAGES_IN_THREADS)
    with pytest.raises(discord.Forbidden, match="50013"):
        await thread.send("no")
    await bot.get_channel(chan.id).send("the parent still takes messages")


async def test_archived_threads_take_no_edits_and_a_message_unarchives_them(standin, bot, chan):
    _, thread = await start(bot, chan)
    inside = await thread.send("board")
    await thread.edit(archived=True)
    stored = standin.channel(thread.id)
    assert stored.archived
    await standin.settle()
    assert bot.get_channel(thread.id) is None or bot.get_channel(thread.id).archived  # THREAD_UPDATE
    with pytest.raises(discord.HTTPException, match="50083"):
        await inside.edit(content="changed")
    with pytest.raises(discord.HTTPException, match="50083"):
        await thread.edit(name="renamed while archived")
    await thread.send("wakes it")
    assert not stored.archived
    await inside.edit(content="changed")


async def moderator(standin) -> None:
    """The bot's role may manage threads (the invite does not ask for it; a server may grant it)."""
    standin.set_role_permissions(standin.bot_role, standin.bot_role.permissions | MANAGE_THREADS)
    await standin.settle()


async def test_a_locked_archived_thread_refuses_messages(standin, bot, chan):
    await moderator(standin)
    _, thread = await start(bot, chan)
    await thread.edit(archived=True, locked=True)
    with pytest.raises(discord.Forbidden, match="160005"):
        await thread.send("no")
    assert standin.channel(thread.id).archived


async def test_locking_needs_manage_threads_but_the_creator_may_archive(standin, bot, chan):
    _, thread = await start(bot, chan)
    standin.set_permissions(chan, standin.bot_role, deny=MANAGE_THREADS)
    with pytest.raises(discord.Forbidden, match="50013"):
        await thread.edit(locked=True)
    await thread.edit(archived=True)  # the bot started it
    assert standin.channel(thread.id).archived and not standin.channel(thread.id).locked
    other = standin.guild.threads[0]  # started by the server owner
    standin.set_permissions(standin.channel(other.parent_id), standin.bot_role, deny=MANAGE_THREADS)
    with pytest.raises(discord.Forbidden, match="50013"):
        await bot.get_channel(other.id).edit(archived=True)


async def test_commands_inside_a_thread_come_from_the_thread_but_not_when_archived(standin, bot, chan, alice):
    _, thread = await start(bot, chan)
    stored = standin.channel(thread.id)
    r = await standin.slash(alice, stored, "game join")
    assert r.message.channel is stored
    await thread.edit(archived=True)
    with pytest.raises(UsageError, match="archived"):
        await standin.slash(alice, stored, "game join")


async def test_a_person_starts_a_thread_or_a_forum_post_of_their_own(standin, bot, chan, alice):
    thread = standin.start_thread(alice, chan, "Cup · round 1 · table 1")
    forum = standin.add_forum("tables")
    post = standin.start_thread(alice, forum, "a post", "hello")
    await standin.settle()  # THREAD_CREATE reached the client's cache
    cached = bot.get_channel(thread.id)
    assert isinstance(cached, discord.Thread) and cached.owner_id == alice.id and cached.parent_id == chan.id
    assert thread in standin.guild.threads and not standin.messages(thread)
    assert bot.get_channel(post.id).owner_id == alice.id
    (first,) = standin.messages(post)
    assert first.id == post.id and first.author is alice and first.content == "hello"
    listed = await bot.get_guild(standin.guild.id).active_threads()
    assert {thread.id, post.id} <= {t.id for t in listed}
    standin.set_permissions(chan, alice, deny=CREATE_PUBLIC_THREADS)
    with pytest.raises(UsageError, match="may not start a thread"):
        standin.start_thread(alice, chan, "no")


async def test_the_active_threads_listed_are_those_the_bot_can_view(standin, bot, chan, alice):
    """Guild Create's ``threads`` and List Active Guild Threads hold the active threads the current
    user can view: not one in a channel it cannot see."""
    hidden = standin.guild.text_channels[0]
    assert hidden is not chan
    seen = standin.start_thread(alice, chan, "seen")
    unseen = standin.start_thread(alice, hidden, "unseen")
    standin.set_permissions(hidden, standin.bot_user, deny=VIEW_CHANNEL)
    await standin.settle()
    listed = {t.id for t in await bot.get_guild(standin.guild.id).active_threads()}
    assert seen.id in listed and unseen.id not in listed
    created = {int(t["id"]) for t in standin.guild.payload(standin.bot_user)["threads"]}
    assert seen.id in created and unseen.id not in created


async def test_a_private_thread_is_closed_to_a_bot_nobody_added(standin, bot, chan):
    """A private thread shows only to its members and moderators (topics/threads): the bot, without
    Manage Threads, hears nothing of it, cannot post there nor join it (403 Missing Access) until a
    member adds it; then THREAD_CREATE tells it of the thread, and it may post."""
    alice = standin.add_user("alice")
    thread = standin.start_thread(alice, chan, "our table", private=True)
    await standin.settle()
    assert thread.type == 12 and bot.get_channel(thread.id) is None
    partial = bot.get_partial_messageable(thread.id, guild_id=standin.guild.id)
    with pytest.raises(discord.Forbidden) as refused:
        await partial.send("hello")
    assert refused.value.code == 50001
    with pytest.raises(discord.Forbidden):
        await bot.http.join_thread(thread.id)
    with pytest.raises(UsageError, match="cannot see"):  # nor can a server member who is not in it
        await standin.slash(standin.add_user("bob"), thread, "say", text="hi")
    standin.add_to_thread(alice, thread, standin.bot_user)
    await standin.settle()
    assert isinstance(bot.get_channel(thread.id), discord.Thread)
    await bot.http.join_thread(thread.id)  # a member already: nothing changes
    assert (await partial.send("hello")).content == "hello"
    assert thread.thread_members == {alice.id, standin.bot_user.id}


async def test_a_bot_that_may_manage_threads_sees_and_joins_private_threads(standin, bot, chan):
    await moderator(standin)
    alice = standin.add_user("alice")
    thread = standin.start_thread(alice, chan, "our table", private=True)
    await standin.settle()
    assert isinstance(bot.get_channel(thread.id), discord.Thread)  # a moderator is told of it
    await bot.http.join_thread(thread.id)
    assert standin.bot_user.id in thread.thread_members


async def test_a_locked_active_thread_refuses_the_bots_edits_without_manage_threads(standin, bot, chan):
    """topics/threads, Locked Threads: without Manage Threads no one creates or updates messages
    in a locked thread, even an active one."""
    _, thread = await start(bot, chan)
    sent = await thread.send("before the lock")
    stored = standin.channel(thread.id)
    stored.locked = True  # a moderator locks it; it stays active
    with pytest.raises(discord.Forbidden, match="160005"):
        await sent.edit(content="after the lock")
    await moderator(standin)
    await sent.edit(content="after the lock")  # a moderator may
    assert standin.message(sent.id).content == "after the lock"
