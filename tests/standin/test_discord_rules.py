"""Rules Discord enforces that the stand-in checks too, each with Discord's error code and body shape.

Requests go through discord.py where discord.py can build them, and as raw HTTP (``standin.http``)
where it refuses to.
"""

import io

import discord
import pytest
from discord import app_commands
from discord.http import Route

from tests.standin import Violation
from tests.standin.fixtures import STRICT_OPTIONS
from tests.standin.model import READ_MESSAGE_HISTORY, SEND_MESSAGES, VIEW_CHANNEL
from tests.standin.tinybot import TinyBot


def form_error(path: list, code: str, message: str) -> dict:
    """Discord's 50035 body with one error at ``path``."""
    node: dict = {"_errors": [{"code": code, "message": message}]}
    for part in reversed(path):
        node = {str(part): node}
    return {"code": 50035, "message": "Invalid Form Body", "errors": node}


async def raw(bot, method, path, body, **ids):
    return await bot.http.request(Route(method, path, **ids), json=body)


# -- 1. at most 8,000 characters per slash command ---------------------------------------------------------


def big_command(total: int) -> dict:
    """A command whose names, descriptions and choice names and values add up to ``total`` characters."""
    cmd: dict = {"name": "big", "description": "d", "options": []}
    remaining = total - 4
    while remaining > 0:
        i = len(cmd["options"])
        opt = {"type": 3, "name": f"o{i:02}", "description": "d", "choices": []}
        cmd["options"].append(opt)
        remaining -= 4
        while remaining >= 5 and len(opt["choices"]) < 25:
            chunk = min(remaining, 200)
            value = f"{i:02}{len(opt['choices']):02}".ljust(max(4, chunk - 100), "v")
            opt["choices"].append({"name": "n" * (chunk - len(value)), "value": value})
            remaining -= chunk
        if 0 < remaining < 5:
            opt["description"] += "d" * remaining
            remaining = 0
    return cmd


async def test_a_command_over_8000_characters_is_refused(standin, bot):
    from tests.standin.limits import command_size

    fits, too_big = big_command(8000), big_command(8001)
    assert (command_size(fits), command_size(too_big)) == (8000, 8001)
    await bot.http.bulk_upsert_global_commands(standin.application_id, [fits])
    assert standin.command("big")["options"][0]["choices"][0]["value"].startswith("0000")
    r = await standin.http("PUT", f"/applications/{standin.application_id}/commands", body=[too_big])
    assert r.status == 400
    assert r.json == form_error([0], "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (8000)")
    await standin.next_violation(
        r"/big counts 8001 characters of names, descriptions and values \(limit 8000\)"
    )


async def test_localizations_count_with_their_longest_text(standin, bot):
    cmd = big_command(7990)
    cmd["description_localizations"] = {"fr": "d" * 12}  # 11 more than "d"
    with pytest.raises(discord.HTTPException) as err:
        await bot.http.bulk_upsert_global_commands(standin.application_id, [cmd])
    assert err.value.code == 50035 and "Command exceeds maximum size (8000)" in err.value.text
    await standin.next_violation("counts 8001 characters")


# -- 2. a choice value has its option's type ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("option_type", "value", "code", "message"),
    [
        (4, "three", "NUMBER_TYPE_COERCE", 'Value "three" is not int.'),
        (4, "3", "NUMBER_TYPE_COERCE", 'Value "3" is not int.'),
        (3, 3, "BASE_TYPE_STRING", 'Could not interpret "3" as string.'),
        (10, "1.5", "NUMBER_TYPE_COERCE", 'Value "1.5" is not a valid number.'),
    ],
)
async def test_a_choice_value_must_have_its_options_type(standin, bot, option_type, value, code, message):
    cmd = {
        "name": "pick_one",
        "description": "d",
        "options": [
            {
                "type": option_type,
                "name": "n",
                "description": "d",
                "choices": [
                    {"name": "ok", "value": 1 if option_type != 3 else "1"},
                    {"name": "bad", "value": value},
                ],
            }
        ],
    }
    with pytest.raises(discord.HTTPException) as err:
        await bot.http.bulk_upsert_global_commands(standin.application_id, [cmd])
    assert err.value.status == 400 and err.value.code == 50035
    assert err.value._errors == form_error([0, "options", 0, "choices", 1, "value"], code, message)["errors"]
    await standin.next_violation(f"option /pick_one n choice 1 value {value!r} is not")


async def test_autocomplete_choices_must_have_the_options_type(standin, bot, alice, chan):
    with pytest.raises(
        Violation, match=r"choice 0 value '1' is not an integer, but the option is an INTEGER"
    ):
        await standin.autocomplete(alice, chan, "number", "n", n="1")


# -- 3. message flags each request may set -----------------------------------------------------------------


async def test_a_deferred_callback_may_carry_only_ephemeral(standin, bot, alice, chan):
    r = await standin.slash(alice, chan, "bad", kind="late", wait=False)  # the bot waits; the test answers
    i = r.interaction
    answer = await standin.http(
        "POST", f"/interactions/{i.id}/{i.token}/callback", body={"type": 5, "data": {"flags": 64 | 4096}}
    )
    assert answer.status == 400
    assert answer.json == form_error(["data", "flags"], "MESSAGE_FLAGS_INVALID", "Invalid message flags")
    await standin.next_violation(
        r"flags SUPPRESS_NOTIFICATIONS cannot be set by a deferred callback \(type 5\)"
    )
    assert not i.acknowledged  # refused: nothing changed
    ok = await standin.http(
        "POST", f"/interactions/{i.id}/{i.token}/callback", body={"type": 5, "data": {"flags": 64}}
    )
    assert ok.status == 204 and i.response_message.ephemeral and i.response_message.loading


async def test_a_callback_message_may_carry_only_the_documented_flags(standin, bot, alice, chan):
    r = await standin.slash(alice, chan, "bad", kind="late", wait=False)
    i = r.interaction
    answer = await standin.http(
        "POST",
        f"/interactions/{i.id}/{i.token}/callback",
        body={"type": 4, "data": {"content": "x", "flags": 1 << 5}},
    )
    assert answer.status == 400
    assert answer.json == form_error(["data", "flags"], "MESSAGE_FLAGS_INVALID", "Invalid message flags")
    await standin.next_violation("flags HAS_THREAD cannot be set")


async def test_a_channel_message_cannot_be_ephemeral(standin, bot, chan):
    with pytest.raises(discord.HTTPException) as err:
        await raw(
            bot, "POST", "/channels/{channel_id}/messages", {"content": "x", "flags": 64}, channel_id=chan.id
        )
    assert err.value.code == 50035
    assert err.value._errors == {
        "flags": {"_errors": [{"code": "MESSAGE_FLAGS_INVALID", "message": "Invalid message flags"}]}
    }
    await standin.next_violation("flags EPHEMERAL cannot be set")
    silent = await bot.get_channel(chan.id).send("quiet", silent=True)  # SUPPRESS_NOTIFICATIONS may be set
    assert standin.message(silent.id).flags == 4096


async def test_an_edit_changes_only_suppress_embeds_and_components_v2(standin, bot, chan):
    sent = await bot.get_channel(chan.id).send("hello")
    edited = await raw(
        bot,
        "PATCH",
        "/channels/{channel_id}/messages/{message_id}",
        {"content": "edited", "flags": 64 | 4096},
        channel_id=chan.id,
        message_id=sent.id,
    )
    # Discord answers 200 and ignores the bits an edit cannot change; the bot relying on them is wrong.
    assert edited["flags"] == 0 and edited["content"] == "edited"
    assert standin.message(sent.id).flags == 0
    await standin.next_violation(r"an edit cannot set the flags EPHEMERAL\|SUPPRESS_NOTIFICATIONS")
    suppressed = await sent.edit(suppress=True)  # discord.py sends the old flags plus SUPPRESS_EMBEDS
    assert suppressed.flags.suppress_embeds and standin.message(sent.id).flags == 4


async def test_a_followup_may_not_carry_a_voice_message_flag(standin, bot, alice, chan):
    r = await standin.slash(alice, chan, "game join")
    answer = await standin.http(
        "POST",
        f"/webhooks/{standin.application_id}/{r.interaction.token}",
        body={"content": "x", "flags": 1 << 13},
        auth=False,
    )
    assert answer.status == 400 and answer.json["errors"] == {
        "flags": {"_errors": [{"code": "MESSAGE_FLAGS_INVALID", "message": "Invalid message flags"}]}
    }
    await standin.next_violation("flags IS_VOICE_MESSAGE cannot be set")


# -- 4. allowed_mentions: parse and an explicit list are mutually exclusive ----------------------------------


async def test_parse_users_with_a_users_list_is_refused(standin, bot, chan):
    alice = standin.add_user("alice")
    body = {"content": alice.mention, "allowed_mentions": {"parse": ["users"], "users": [str(alice.id)]}}
    with pytest.raises(discord.HTTPException) as err:
        await raw(bot, "POST", "/channels/{channel_id}/messages", body, channel_id=chan.id)
    assert err.value.status == 400 and err.value.code == 50035
    assert (
        err.value._errors
        == form_error(
            ["allowed_mentions"],
            "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
            'parse:["users"] and users: [ids...] are mutually exclusive.',
        )["errors"]
    )
    await standin.next_violation("mutually exclusive")
    assert standin.messages(chan) == []
    # An empty list next to parse is accepted (documented), and so is what discord.py sends.
    body["allowed_mentions"] = {"parse": ["users", "roles"], "users": []}
    await raw(bot, "POST", "/channels/{channel_id}/messages", body, channel_id=chan.id)
    await bot.get_channel(chan.id).send(
        alice.mention, allowed_mentions=discord.AllowedMentions(users=[alice])
    )
    assert [m.pinged for m in standin.messages(chan)] == [{alice.id}, {alice.id}]


async def test_parse_roles_with_a_roles_list_is_refused_in_a_callback(standin, bot, alice, chan):
    r = await standin.slash(alice, chan, "bad", kind="late", wait=False)
    i = r.interaction
    body = {"type": 4, "data": {"content": "x", "allowed_mentions": {"parse": ["roles"], "roles": ["1"]}}}
    answer = await standin.http("POST", f"/interactions/{i.id}/{i.token}/callback", body=body)
    assert answer.json == form_error(
        ["data", "allowed_mentions"],
        "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
        'parse:["roles"] and roles: [ids...] are mutually exclusive.',
    )
    await standin.next_violation("mutually exclusive")


# -- 5. an edit keeps exactly the attachments it lists -----------------------------------------------------


async def test_an_edit_keeps_only_the_listed_attachments(standin, bot, chan):
    sent = await bot.get_channel(chan.id).send("two", files=[discord.File(io.BytesIO(b"a"), "a.txt")])
    old = standin.message(sent.id).files[0]
    path = f"/channels/{chan.id}/messages/{sent.id}"
    # b.txt is uploaded but only a.txt is listed: Discord keeps a.txt and drops b.txt.
    r = await standin.http(
        "PATCH", path, body={"content": "one", "attachments": [{"id": str(old.id)}]}, files=[("b.txt", b"b")]
    )
    assert r.status == 200 and [a["filename"] for a in r.json["attachments"]] == ["a.txt"]
    assert [f.filename for f in standin.message(sent.id).files] == ["a.txt"]
    # Without the list, an uploaded file is added to the ones the message has.
    r = await standin.http("PATCH", path, body={"content": "both"}, files=[("c.txt", b"c")])
    assert [a["filename"] for a in r.json["attachments"]] == ["a.txt", "c.txt"]
    # discord.py lists what it keeps and what it adds.
    edited = await sent.edit(attachments=[discord.File(io.BytesIO(b"d"), "d.txt")])
    assert [a.filename for a in edited.attachments] == ["d.txt"]


# -- 6. a premium button needs its sku_id ------------------------------------------------------------------


async def test_a_premium_button_without_sku_id_is_refused(standin, bot, chan):
    premium = {"type": 2, "style": 6}
    body = {"content": "buy", "components": [{"type": 1, "components": [premium]}]}
    with pytest.raises(discord.HTTPException) as err:
        await raw(bot, "POST", "/channels/{channel_id}/messages", body, channel_id=chan.id)
    assert err.value.code == 50035
    assert (
        err.value._errors
        == form_error(
            ["components", 0, "components", 0, "sku_id"], "BASE_TYPE_REQUIRED", "This field is required"
        )["errors"]
    )
    await standin.next_violation(r"premium button \(style 6\) has no sku_id")
    body["components"][0]["components"][0] = {"type": 2, "style": 6, "sku_id": "1", "label": "Buy"}
    with pytest.raises(discord.HTTPException):
        await raw(bot, "POST", "/channels/{channel_id}/messages", body, channel_id=chan.id)
    await standin.next_violation("premium button .* has a label")
    body["components"][0]["components"][0] = {"type": 2, "style": 6, "sku_id": "1"}
    ok = await raw(bot, "POST", "/channels/{channel_id}/messages", body, channel_id=chan.id)
    assert ok["components"][0]["components"][0] == {"type": 2, "style": 6, "sku_id": "1", "id": 2}


# -- where the stand-in was stricter than Discord ----------------------------------------------------------


class Named(TinyBot):
    """Commands named with Devanagari and Thai combining marks, which discord.py and Discord allow."""

    def _add_commands(self) -> None:
        async def hello(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("hello")

        for name in ("नमस्ते", "สวัสดี"):
            self.tree.add_command(app_commands.Command(name=name, description="Say hello", callback=hello))


async def test_command_names_with_apostrophes_and_combining_marks_are_valid(standin):
    alice, chan = standin.add_user("alice"), standin.guild.text_channels[0]
    async with standin.run_client(Named) as client:
        await standin.wait_synced()
        assert (await standin.slash(alice, chan, "नमस्ते")).content == "hello"
        assert standin.command("สวัสดี")["name"] == "สวัสดี"
        # discord.py refuses an apostrophe locally; Discord takes it.
        ok = {
            "name": "don't",
            "description": "d",
            "options": [{"type": 3, "name": "it's", "description": "d"}],
        }
        await client.http.bulk_upsert_global_commands(standin.application_id, [ok])
        assert standin.command("don't")["options"][0]["name"] == "it's"
        for bad in ("Upper", "two words", "emoji🎲", "x" * 33, ""):
            with pytest.raises(discord.HTTPException):
                await client.http.bulk_upsert_global_commands(
                    standin.application_id, [{"name": bad, "description": "d"}]
                )
            await standin.next_violation("must be 1-32 lowercase letters")


async def test_the_default_deadline_is_discords_3_seconds(standin, bot, alice, chan):
    r = await standin.slash(alice, chan, "game join")
    assert standin.interaction_timeout == 3.0
    assert r.interaction.deadline - r.interaction.created == pytest.approx(3.0)


@pytest.mark.parametrize("standin_options", [STRICT_OPTIONS])
async def test_strict_mode_gives_the_bot_1_second(standin, bot, alice, chan):
    r = await standin.slash(alice, chan, "game join")
    assert r.interaction.deadline - r.interaction.created == pytest.approx(1.0)


async def test_reading_a_message_needs_view_channel_and_read_message_history(standin, bot, chan):
    """Get Channel Message "requires the current user to have the VIEW_CHANNEL and
    READ_MESSAGE_HISTORY permissions" (resources/message): without either it is refused, 50001
    or 50013, as Discord does; the bot's own message is read again once they are back."""
    sent = await bot.get_channel(chan.id).send("hello")
    for denied, code in ((READ_MESSAGE_HISTORY, 50013), (VIEW_CHANNEL, 50001)):
        standin.set_permissions(chan, standin.bot_user, deny=denied)
        with pytest.raises(discord.Forbidden) as err:
            await bot.get_channel(chan.id).fetch_message(sent.id)
        assert err.value.code == code
    standin.set_permissions(chan, standin.bot_user)
    assert (await bot.get_channel(chan.id).fetch_message(sent.id)).content == "hello"


async def test_posting_where_the_bot_cannot_see_is_missing_access(standin, bot, chan):
    """A message to a channel the bot cannot view is refused with 50001 Missing Access, as Discord
    does for every request about such a channel; one it sees but may not post in, 50013."""
    standin.set_permissions(chan, standin.bot_user, deny=VIEW_CHANNEL)
    with pytest.raises(discord.Forbidden) as err:
        await bot.get_channel(chan.id).send("hello")
    assert err.value.code == 50001
    standin.set_permissions(chan, standin.bot_user, deny=SEND_MESSAGES)
    with pytest.raises(discord.Forbidden) as err:
        await bot.get_channel(chan.id).send("hello")
    assert err.value.code == 50013


async def test_editing_the_bots_own_message_needs_view_channel_only(standin, bot, chan):
    """Edit Message on the bot's own message, by its id, needs no Read Message History (it reads
    nothing: Discord answers with the message as it now stands); in a channel the bot cannot view,
    editing or deleting is Missing Access (50001), as every request about such a channel is."""
    sent = await bot.get_channel(chan.id).send("hello")
    standin.set_permissions(chan, standin.bot_user, deny=READ_MESSAGE_HISTORY)
    edited = await bot.get_channel(chan.id).get_partial_message(sent.id).edit(view=None)
    assert edited.content == "hello"
    await edited.edit(content="hello again")
    assert standin.message(sent.id).content == "hello again"
    standin.set_permissions(chan, standin.bot_user, deny=VIEW_CHANNEL)
    for change in (lambda m: m.edit(content="unseen"), lambda m: m.delete()):
        with pytest.raises(discord.Forbidden) as err:
            await change(bot.get_channel(chan.id).get_partial_message(sent.id))
        assert err.value.code == 50001
    assert standin.message(sent.id).content == "hello again" and not standin.message(sent.id).deleted
