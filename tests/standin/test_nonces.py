"""A message's nonce: with ``enforce_nonce``, a repeat within the window is answered with the
message the same author created with it, and nothing new is created (Discord's create message)."""

import discord
import pytest

from tests.standin.fixtures import DEFAULT_OPTIONS
from tests.standin.server import NONCE_WINDOW


@pytest.fixture
def created(standin, monkeypatch) -> list[int]:
    """The ids of the messages the client is sent MESSAGE_CREATE for, in order."""
    events: list[int] = []
    send = standin._gateway_message_event

    def recorded(event, msg):
        if event == "MESSAGE_CREATE":
            events.append(msg.id)
        send(event, msg)

    monkeypatch.setattr(standin, "_gateway_message_event", recorded)
    return events


async def test_a_repeated_nonce_is_answered_with_the_first_message_and_creates_none(
    standin, bot, chan, created
):
    channel = bot.get_channel(chan.id)
    first = await channel.send("board", nonce="s1-b-abc")  # discord.py: enforce_nonce true
    again = await channel.send("board, told again", nonce="s1-b-abc")
    await standin.settle()
    assert again.id == first.id and again.content == "board"
    assert [m.id for m in standin.messages(chan)] == [first.id]
    assert created == [first.id]


async def test_without_enforce_nonce_a_repeated_nonce_creates_a_second_message(standin, bot, chan, created):
    body = {"content": "x", "nonce": "same", "enforce_nonce": False}
    one = await standin.http("POST", f"/channels/{chan.id}/messages", body=body)
    two = await standin.http("POST", f"/channels/{chan.id}/messages", body={"content": "y", "nonce": "same"})
    await standin.settle()
    assert one.status == two.status == 200 and one.json["id"] != two.json["id"]
    assert [m.content for m in standin.messages(chan)] == ["x", "y"]
    assert len(created) == 2


async def test_other_nonces_and_no_nonce_create_messages(standin, bot, chan):
    channel = bot.get_channel(chan.id)
    a = await channel.send("a", nonce="one")
    b = await channel.send("b", nonce="two")
    c = await channel.send("c")  # discord.py's random nonce
    d = await channel.send("d")
    assert len({a.id, b.id, c.id, d.id}) == 4


async def test_a_repeat_past_the_window_creates_a_new_message(standin, bot, chan):
    channel = bot.get_channel(chan.id)
    first = await channel.send("board", nonce="late")
    standin.clock.advance(NONCE_WINDOW - 1)
    assert (await channel.send("board", nonce="late")).id == first.id
    standin.clock.advance(1)  # the window counts from the first message's creation
    later = await channel.send("board", nonce="late")
    assert later.id != first.id
    assert [m.id for m in standin.messages(chan)] == [first.id, later.id]


@pytest.mark.parametrize("standin_options", [{**DEFAULT_OPTIONS, "nonce_window": 10.0}])
async def test_the_window_is_an_option(standin, bot, chan):
    channel = bot.get_channel(chan.id)
    first = await channel.send("x", nonce="n")
    standin.clock.advance(10)
    assert (await channel.send("x", nonce="n")).id != first.id


async def test_the_nonce_is_the_author_s_across_channels(standin, bot, chan):
    """The documentation scopes a nonce to its author, not to a channel: a repeat in another
    channel is answered with the message where it was first used, and creates nothing there."""
    other = standin.guild.text_channels[1]
    first = await bot.get_channel(chan.id).send("here", nonce="wide")
    again = await bot.get_channel(other.id).send("there", nonce="wide")
    assert again.id == first.id and standin.message(again.id).channel is chan
    assert standin.messages(other) == []


async def test_a_deleted_message_still_holds_its_nonce(standin, bot, chan):
    channel = bot.get_channel(chan.id)
    first = await channel.send("board", nonce="gone")
    await standin.delete(standin.message(first.id))
    again = await channel.send("board", nonce="gone")
    assert again.id == first.id
    assert standin.messages(chan) == [] and len(standin.all_messages()) == 1


async def test_an_integer_nonce_is_the_same_nonce_as_its_digits(standin, bot, chan):
    one = await standin.http(
        "POST", f"/channels/{chan.id}/messages", body={"content": "x", "nonce": 42, "enforce_nonce": True}
    )
    two = await standin.http(
        "POST", f"/channels/{chan.id}/messages", body={"content": "x", "nonce": "42", "enforce_nonce": True}
    )
    assert two.status == 200 and two.json["id"] == one.json["id"]


async def test_a_nonce_longer_than_25_characters_is_refused(standin, bot, chan):
    channel = bot.get_channel(chan.id)
    assert (await channel.send("x", nonce="n" * 25)).content == "x"
    with pytest.raises(discord.HTTPException) as err:
        await channel.send("x", nonce="n" * 26)
    assert err.value.status == 400 and err.value.code == 50035
    assert err.value._errors == {
        "nonce": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 25 or fewer in length."}]}
    }
    await standin.next_violation("nonce is 26 long")
    assert len(standin.messages(chan)) == 1
