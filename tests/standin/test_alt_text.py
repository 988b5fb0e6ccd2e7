"""Alt text: an attachment's ``description`` and a media gallery item's, kept as Discord keeps them and
refused past 1,024 characters with Discord's 400 (code 50035)."""

import io

import discord
import pytest

PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
    b"\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82"
)


def picture(description: str | None, name: str = "board.png") -> discord.File:
    return discord.File(io.BytesIO(PNG), filename=name, description=description)


def gallery(description: str | None, name: str = "board.png") -> discord.ui.LayoutView:
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.TextDisplay("The board"))
    view.add_item(
        discord.ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{name}", description=description))
    )
    return view


async def test_an_attachment_keeps_its_description(standin, bot, chan):
    channel = bot.get_channel(chan.id)
    sent = await channel.send("board", file=picture("A board of 9 cells; Ana to play."))
    stored = standin.message(sent.id)
    assert stored.files[0].description == "A board of 9 cells; Ana to play."
    assert sent.attachments[0].description == "A board of 9 cells; Ana to play."  # as Discord answers it
    fetched = await channel.fetch_message(sent.id)
    assert fetched.attachments[0].description == "A board of 9 cells; Ana to play."
    bare = await channel.send("board", file=picture(None))
    assert standin.message(bare.id).files[0].description is None
    assert bare.attachments[0].description is None


async def test_a_description_of_1024_characters_is_kept_and_one_of_1025_refused(standin, bot, chan):
    channel = bot.get_channel(chan.id)
    sent = await channel.send(file=picture("a" * 1024))
    assert standin.message(sent.id).files[0].description == "a" * 1024
    with pytest.raises(discord.HTTPException) as err:
        await channel.send(file=picture("a" * 1025))
    assert err.value.status == 400 and err.value.code == 50035
    await standin.next_violation("description")
    assert len(standin.messages(chan)) == 1  # nothing posted


async def test_a_media_gallery_item_keeps_its_description_and_refuses_a_long_one(standin, bot, chan):
    channel = bot.get_channel(chan.id)
    sent = await channel.send(view=gallery("Your hand: 3 cards."), file=picture("Your hand: 3 cards."))
    stored = standin.message(sent.id)
    items = [c for c in stored.components if c["type"] == 12][0]["items"]
    assert items[0]["description"] == "Your hand: 3 cards."
    assert stored.files[0].description == "Your hand: 3 cards."
    with pytest.raises(discord.HTTPException) as err:
        await channel.send(view=gallery("b" * 1025), file=picture("short"))
    assert err.value.status == 400 and err.value.code == 50035
    await standin.next_violation("description")
