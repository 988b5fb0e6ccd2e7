"""The stand-in's core: READY, slash commands, components, autocomplete, modals, files, messages."""

import discord
import pytest

from tests.standin import UsageError
from tests.standin.tinybot import TinyBot


@pytest.fixture
def users(standin):
    return standin.add_users("alice", "bob")


async def test_ready_gives_the_client_the_guild(standin, bot):
    guild = bot.get_guild(standin.guild.id)
    assert guild is not None and guild.name == standin.guild.name
    assert guild.member_count == len(standin.guild.members)
    assert {c.name for c in guild.text_channels} == {"general", "games"}
    assert [t.name for t in guild.threads] == ["game-thread"]
    me = guild.me
    assert me.guild_permissions.send_messages and me.guild_permissions.attach_files
    assert (
        len(standin.stats["ready"]) == 1
    )  # one READY; how long it took is printed by bench/discord_roundtrip.py


async def test_members_intent_gets_every_member_without_chunking(standin, users):
    intents = discord.Intents.default()
    intents.members = True
    async with standin.run_client(lambda c: TinyBot(c, intents=intents)) as client:
        guild = client.get_guild(standin.guild.id)
        assert guild.chunked and {m.name for m in guild.members} == {"owner", "pukllay", "alice", "bob"}
        carol = standin.add_user("carol")
        member = await client.wait_for("member_join", timeout=2)
        assert member.id == carol.id and guild.member_count == 5


async def test_sync_stores_the_command_tree(standin, bot):
    game = standin.command("game")
    assert [o["name"] for o in game["options"]] == ["admin", "join", "move"] or {
        o["name"] for o in game["options"]
    } == {"admin", "join", "move"}
    assert {c["name"] for c in standin.commands[None]} >= {"game", "lobby", "pick", "board", "secret", "slow"}


async def test_slash_subcommand_with_options(standin, bot, users, chan):
    alice, bob = users
    r = await standin.slash(alice, chan, "game move", move="B3", count=2, target=bob)
    assert r.type == 4
    assert r.content == "alice played B3 x2 at bob"
    assert not r.ephemeral
    assert standin.messages(chan)[-1] is r.message
    assert r.message.author is standin.bot_user


async def test_slash_subcommand_group(standin, bot, users, chan):
    r = await standin.slash(users[0], chan, "game admin reset", hard=True)
    assert r.content == "reset hard=True" and r.ephemeral
    assert r.message.visible_to == {users[0].id}
    assert standin.messages(chan, visible_to=users[1]) == []


async def test_slash_checks_the_options_like_discords_client(standin, bot, users, chan):
    with pytest.raises(UsageError, match="needs option 'move'"):
        await standin.slash(users[0], chan, "game move")
    with pytest.raises(UsageError, match="no option"):
        await standin.slash(users[0], chan, "game move", move="A1", colour="red")
    with pytest.raises(UsageError, match="takes 1 to 5"):
        await standin.slash(users[0], chan, "game move", move="A1", count=9)
    with pytest.raises(UsageError, match="is a group"):
        await standin.slash(users[0], chan, "game admin")
    with pytest.raises(UsageError, match="no synced command"):
        await standin.slash(users[0], chan, "nope")


async def test_autocomplete_returns_the_choices(standin, bot, users, chan):
    choices = await standin.autocomplete(users[0], chan, "game move", "move", move="b")
    assert [c["value"] for c in choices] == ["B1", "B2", "B3"]


async def test_click_a_persistent_dynamic_button(standin, bot, users, chan):
    alice, bob = users
    r = await standin.slash(alice, chan, "lobby", number=12)
    assert r.message.custom_ids == ["lobby:join:12"]
    joined = await standin.click(bob, r.message, "lobby:join:12")
    assert joined.content == "bob joined lobby 12"
    by_label = await standin.click(alice, r.message, "Join")
    assert by_label.content == "alice joined lobby 12"


async def test_select_updates_the_message(standin, bot, users, chan):
    r = await standin.slash(users[0], chan, "pick")
    picked = await standin.select(users[1], r.message, "pick", ["v2"])
    assert picked.type == 7 and picked.message is r.message
    assert r.message.content == "picked v2" and r.message.components == []
    with pytest.raises(UsageError, match="no component"):
        await standin.select(users[1], r.message, "pick", ["v1"])


async def test_select_values_are_checked(standin, bot, users, chan):
    r = await standin.slash(users[0], chan, "pick")
    with pytest.raises(UsageError, match="offers"):
        await standin.select(users[1], r.message, "Pick one", ["nope"])
    with pytest.raises(UsageError, match="takes 1 to 1 values"):
        await standin.select(users[1], r.message, "pick", ["v1", "v2"])


async def test_ephemeral_reply_and_who_sees_it(standin, bot, users, chan):
    alice, bob = users
    r = await standin.slash(alice, chan, "secret")
    assert r.ephemeral and r.message.visible(alice) and not r.message.visible(bob)
    with pytest.raises(UsageError, match="cannot see"):
        await standin.click(bob, r.message, "Show again")
    again = await standin.click(alice, r.message, "Show again")
    assert again.content == "alice's secret" or again.content == "still alice's secret"
    assert again.ephemeral


async def test_deferred_reply_filled_by_a_followup_with_a_png(standin, bot, users, chan):
    r = await standin.slash(users[0], chan, "board")
    assert r.type == 5
    first, second = await r.followups(2)
    assert first is r.message and not first.loading  # the first followup fills in the "thinking" message
    assert first.content == "the board"
    png = first.files[0]
    assert png.filename == "board.png" and png.startswith(b"\x89PNG") and png.image_size() == (32, 16)
    assert second.files[0].filename == "board2.png"
    assert standin.attachments[png.id] == png


async def test_deferred_reply_answered_later(standin, bot, users, chan):
    r = await standin.slash(users[0], chan, "slow")
    assert r.deferred and r.message.loading
    bot.gate.set()
    final = await r.original()
    assert final.content == "done thinking" and not final.loading


async def test_modal_round_trip(standin, bot, users, chan):
    r = await standin.slash(users[0], chan, "name")
    assert r.type == 9 and r.modal["title"] == "Your name"
    done = await standin.modal_submit(users[0], r, {"name": "Alice"})
    assert done.content == "hello Alice (no note)"
    with pytest.raises(UsageError, match="required"):
        await standin.modal_submit(users[0], r, {"note": "x"})


async def test_messages_and_next_message(standin, bot, users, chan):
    r = await standin.slash(users[0], chan, "say", text="hi there")
    posted = await standin.next_message(chan, lambda m: m.content == "hi there")
    assert posted.author is standin.bot_user and not posted.ephemeral
    assert (await r.followup()).content == "posted"
    assert [m.content for m in standin.messages(chan, visible_to=users[1])] == ["hi there"]


async def test_cdn_serves_attachments_to_the_client(standin, bot, users, chan):
    r = await standin.slash(users[0], chan, "board")
    msg = await r.followup()
    data = await bot.http.get_from_cdn(msg.files[0].url)
    assert data == bytes(msg.files[0])


async def test_modal_with_a_select_in_a_label(standin, bot, users, chan):
    r = await standin.slash(users[0], chan, "colour")
    done = await standin.modal_submit(users[0], r, {"colour": ["blue"]})
    assert done.content == "colour blue" and done.ephemeral


async def test_components_v2_message_and_its_button(standin, bot, users, chan):
    r = await standin.slash(users[0], chan, "layout")
    assert r.message.flags & (1 << 15) and r.message.content == ""
    assert [b["custom_id"] for b in r.message.buttons] == ["layout:poke"]
    poked = await standin.click(users[1], r.message, "Poke")
    assert poked.content == "poked"


async def test_modal_select_values_are_checked(standin, bot, users, chan):
    r = await standin.slash(users[0], chan, "colour")
    with pytest.raises(UsageError, match="offers"):
        await standin.modal_submit(users[0], r, {"colour": ["green"]})
    with pytest.raises(UsageError, match="takes 1 to 1 values"):
        await standin.modal_submit(users[0], r, {"colour": []})


async def test_files_in_the_initial_response_and_in_an_update(standin, bot, users, chan):
    r = await standin.slash(users[0], chan, "picture")
    assert r.content == "small" and [f.filename for f in r.files] == ["small.png"]
    assert r.files[0].image_size() == (32, 16)
    clicked = await standin.click(users[1], r.message, "Bigger")
    assert clicked.type == 7 and clicked.message is r.message
    assert r.message.content == "bigger" and [f.filename for f in r.files] == ["big.png"]
    assert r.files[0].image_size() == (64, 32) and r.message.components == []


async def test_deferred_update_then_edit_lands_on_the_clicked_message(standin, bot, users, chan):
    r = await standin.slash(users[0], chan, "pick")
    later = await standin.click(users[1], r.message, "Later")
    assert later.type == 6 and later.message is r.message
    final = await later.original(lambda m: m.content == "decide later")
    assert final is r.message and len(standin.messages(chan)) == 1
