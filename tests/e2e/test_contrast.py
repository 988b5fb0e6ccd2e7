"""Through the stand-in: a person who chose the high-contrast palette (/me contrast) gets their
private pictures in it while the public board stays standard; the server's choice (/game
contrast, Manage Server) switches the public boards.  The palettes are told apart by the paper:
the standard board's background colour is in every standard picture and in no high-contrast one."""

from __future__ import annotations

from renderers.colours import BACKGROUND, colour_counts
from tests.e2e.conftest import nim_to_the_end, png_of
from tests.e2e.players import is_board, is_results
from tests.e2e.test_languages import EXTENSIONS


def colours(message) -> set[tuple[int, int, int]]:
    return {c for _, c in colour_counts(png_of(message).convert("RGB"))}


def standard(message) -> bool:
    return BACKGROUND in colours(message)


def high(message) -> bool:
    """No standard paper, and white paper (the encoder's palette may move it by a step or two)."""
    corner = png_of(message).convert("RGB").getpixel((2, 2))
    return BACKGROUND not in colours(message) and min(corner) >= 250 and corner != BACKGROUND


async def test_private_pictures_follow_the_person_and_public_ones_the_server(standin, bot_factory):
    chan = standin.channel("games")
    ana = standin.add_user("ana")
    bob = standin.add_user("bob")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        shown = await (await standin.slash(ana, chan, "me contrast")).original()
        assert shown.ephemeral and "standard palette" in shown.content
        chosen = await (await standin.slash(ana, chan, "me contrast", high=True)).original()
        assert "high-contrast palette" in chosen.content
        assert (await bot.store.people.person(ana.id)).contrast and not (
            await bot.store.people.person(bob.id)
        ).contrast

        lobby = await standin.slash(ana, chan, "guacamole new", thread=False, players=2)
        await standin.click(ana, lobby.message, "Add computer")
        standin.skip_messages(chan)
        await standin.click(ana, lobby.message, "Start")
        board = await standin.next_message(chan, is_board)
        await standin.settle()
        assert standard(board)  # the public board: the server's palette, standard

        hand = await (await standin.slash(ana, chan, "game hand")).original()
        assert hand.ephemeral and high(hand)  # her own view: her palette
        page = await (await standin.slash(ana, chan, "game history")).original()
        assert high(page)
        seen = await (await standin.slash(bob, chan, "game history")).original()
        assert standard(seen)  # a spectator without the setting

        # Only Manage Server chooses the server's palette.
        refused = await (await standin.slash(bob, chan, "game contrast", high=True)).original()
        assert "Manage Server" in refused.content and not await bot.store.people.server_contrast(
            standin.guild.id
        )
        admin = standin.guild.owner
        told = await (await standin.slash(admin, chan, "game contrast", high=True)).original()
        assert "high-contrast palette" in told.content and await bot.store.people.server_contrast(
            standin.guild.id
        )
        standin.skip_messages(chan)
        await (await standin.slash(bob, chan, "game board")).original()
        assert high(await standin.next_message(chan, is_board))
        # a person's choice is theirs alone: ana turns hers off, her view goes standard
        await (await standin.slash(ana, chan, "me contrast", high=False)).original()
        assert standard(await (await standin.slash(ana, chan, "game hand")).original())


async def test_the_results_card_follows_the_server(standin, bot_factory):
    chan = standin.channel("general")
    bob = standin.add_user("bob")
    cai = standin.add_user("cai")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await (await standin.slash(standin.guild.owner, chan, "game contrast", high=True)).original()
        await nim_to_the_end(standin, bot, chan, bob, cai)
        card = await standin.next_message(chan, is_results)
        await standin.settle()
        assert high(card)
