"""Forum channels (type 15) as Discord documents them (topics/threads: Forums; resources/channel:
Start Thread in Forum or Media Channel): a post is a thread with a first message of its id, its
tags are the forum's (at most five; moderated ones need Manage Threads), a forum takes no
messages of its own, and posts are listed among the active threads."""

import discord
import pytest

from tests.standin.model import MANAGE_CHANNELS, MANAGE_THREADS, SEND_MESSAGES, VIEW_CHANNEL


@pytest.fixture
def forum(standin):
    return standin.add_forum("league-tables", ["waiting", "playing", "done"], moderated=["done"])


def tags_of(bot, forum) -> dict[str, discord.ForumTag]:
    return {t.name: t for t in bot.get_channel(forum.id).available_tags}


async def test_a_post_is_a_thread_with_its_first_message_and_its_tags(standin, bot, forum):
    await standin.settle()  # CHANNEL_CREATE reached the cache
    channel = bot.get_channel(forum.id)
    assert isinstance(channel, discord.ForumChannel)
    made = await channel.create_thread(
        name="Round 1 · table 1",
        content="ana, beto: your game",
        applied_tags=[tags_of(bot, forum)["waiting"]],
    )
    post = standin.channel(made.thread.id)
    assert post.type == 11 and post.parent_id == forum.id and standin.tag_names(post) == ["waiting"]
    (first,) = standin.messages(post)
    assert first.id == post.id == made.message.id and first.content == "ana, beto: your game"
    await made.thread.edit(applied_tags=[tags_of(bot, forum)["playing"]])
    assert standin.tag_names(post) == ["playing"]
    await made.thread.send("the board")
    listed = await bot.get_guild(standin.guild.id).active_threads()
    assert post.id in {t.id for t in listed}


async def test_a_forum_takes_no_message_of_its_own(standin, bot, forum):
    r = await standin.http("POST", f"/channels/{forum.id}/messages", body={"content": "hello"})
    assert r.status == 400 and r.json["code"] == 40058
    standin.expect_violation("is a forum")


async def test_tags_must_be_the_forums_own_and_at_most_five(standin, bot, forum):
    other = standin.add_forum("elsewhere", ["waiting"])
    body = {"name": "p", "message": {"content": "x"}, "applied_tags": [other.available_tags[0]["id"]]}
    r = await standin.http("POST", f"/channels/{forum.id}/threads", body=body)
    assert r.status == 400 and r.json["code"] == 50035 and "applied_tags" in r.json["errors"]
    standin.expect_violation("not one of #league-tables's tags")
    many = standin.add_forum("many", [f"t{i}" for i in range(6)])
    body = {"name": "p", "message": {"content": "x"}, "applied_tags": [t["id"] for t in many.available_tags]}
    r = await standin.http("POST", f"/channels/{many.id}/threads", body=body)
    assert r.status == 400 and "applied_tags" in r.json["errors"]
    standin.expect_violation("6 tags on one post")
    assert not [t for t in standin.guild.threads if t.parent_id in (forum.id, many.id)]


async def test_a_post_needs_its_message(standin, bot, forum):
    r = await standin.http("POST", f"/channels/{forum.id}/threads", body={"name": "p"})
    assert r.status == 400 and r.json["code"] == 50035
    standin.expect_violation("needs its message")


async def test_moderated_tags_need_manage_threads(standin, bot, forum):
    await standin.settle()
    channel = bot.get_channel(forum.id)
    made = await channel.create_thread(name="p", content="x", applied_tags=[tags_of(bot, forum)["waiting"]])
    standin.set_permissions(forum, standin.bot_role, deny=MANAGE_THREADS)
    with pytest.raises(discord.Forbidden, match="50013"):
        await made.thread.edit(applied_tags=[tags_of(bot, forum)["done"]])
    assert standin.tag_names(standin.channel(made.thread.id)) == ["waiting"]
    with pytest.raises(discord.Forbidden, match="50013"):
        await channel.create_thread(name="q", content="x", applied_tags=[tags_of(bot, forum)["done"]])


async def test_a_forum_that_requires_a_tag_refuses_a_post_without_one(standin, bot):
    strict = standin.add_forum("strict", ["waiting"], require_tag=True)
    await standin.settle()
    with pytest.raises(discord.HTTPException, match="40067"):
        await bot.get_channel(strict.id).create_thread(name="p", content="x")


async def test_posting_needs_send_messages_not_create_public_threads(standin, bot, forum):
    await standin.settle()
    standin.set_permissions(forum, standin.bot_role, deny=SEND_MESSAGES)
    with pytest.raises(discord.Forbidden, match="50013"):
        await bot.get_channel(forum.id).create_thread(name="p", content="x")
    standin.set_permissions(forum, standin.bot_role, deny=VIEW_CHANNEL)
    r = await standin.http(
        "POST", f"/channels/{forum.id}/threads", body={"name": "p", "message": {"content": "x"}}
    )
    assert r.status == 403 and r.json["code"] == 50001


async def test_the_forums_tags_change_with_manage_channels_and_unique_names(standin, bot, forum):
    await standin.settle()
    channel = bot.get_channel(forum.id)
    with pytest.raises(discord.Forbidden, match="50013"):
        await channel.edit(available_tags=[*channel.available_tags, discord.ForumTag(name="late")])
    standin.set_role_permissions(standin.bot_role, standin.bot_role.permissions | MANAGE_CHANNELS)
    await standin.settle()
    kept = {t["name"]: t["id"] for t in forum.available_tags}
    await channel.edit(available_tags=[*channel.available_tags, discord.ForumTag(name="late")])
    assert [t["name"] for t in forum.available_tags] == ["waiting", "playing", "done", "late"]
    assert all(kept[t["name"]] == t["id"] for t in forum.available_tags[:3])  # ids stay
    body = {"available_tags": [{"name": "same"}, {"name": "same"}]}
    r = await standin.http("PATCH", f"/channels/{forum.id}", body=body)
    assert r.status == 400 and r.json["code"] == 40061
    standin.expect_violation("unique")
