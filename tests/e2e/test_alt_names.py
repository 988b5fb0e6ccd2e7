"""A player's name in a picture's alt text is written as the player wrote it: taking Discord's
markdown out of the alt text leaves the ``__``, ``**`` and backticks of names alone, and no name
is split at an initial's full stop or given a capital."""

from __future__ import annotations

from tests.e2e.players import is_board

NIM = ("cogs.table", "tests.support.nim_cog")


async def test_a_board_and_the_results_card_keep_the_names_as_written(standin, bot_factory):
    odd = standin.add_user("__ann__ j. bo**b")
    chan = standin.guild.text_channels[0]
    async with standin.run_client(bot_factory(NIM)) as bot:
        await standin.wait_synced()
        lobby = await standin.slash(odd, chan, "nim new", thread=False, piles=1)
        await standin.click(odd, lobby.message, "Add computer")
        standin.skip_messages(chan)
        await standin.click(odd, lobby.message, "Start")
        board = await standin.next_message(chan, is_board)
        session = await bot.sessions.core.in_channel(chan.id)
        name = session.seat_of(odd.id).name
        assert "__" in name and "**" in name and ". " in name, name  # the name as the bot keeps it
        (alt,) = [f.description for f in board.files]
        assert name in alt, alt
        await (await standin.slash(odd, chan, "game resign")).original()
        ended = await standin.next_message(chan, lambda m: any("results" in f.filename for f in m.files))
        (card,) = [f.description for f in ended.files if "results" in f.filename]
        assert name in card, card
