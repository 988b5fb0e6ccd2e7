"""/tiwanaku new through Discord: the board option and how many may sit."""

from __future__ import annotations

from bot.app import EXTENSIONS


async def answer(result):
    """The final text of an interaction's answer (after a deferral, the filled-in message)."""
    return (await result.original()).content if result.deferred else result.content


async def test_the_short_board_without_players_opens_a_table_of_two(standin, bot_factory):
    """`/tiwanaku new board:short` was refused ("the short 5 x 5 board is for 1 or 2 players; 3 or
    4 players play the long board") though nobody asked for 3 or 4: players left unset meant 4.
    Unset, it is now the most the board seats; given, a table the board cannot seat is still
    refused, and a plain lobby still seats 4."""
    alice, bob = standin.add_users("alice", "bob")
    chan, other = standin.channel("games"), standin.channel("general")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        short = await standin.slash(alice, chan, "tiwanaku new", thread=False, board="short")
        text = await answer(short)
        assert not short.ephemeral, text
        session = await bot.sessions.core.in_channel(chan.id)
        assert session.row.max_players == 2 and session.row.options["board"] == "short"
        await standin.click(bob, short.message, "Join")
        await standin.click(alice, short.message, "Start")
        session = await bot.sessions.core.in_channel(chan.id)
        assert session.status == "active" and session.state.cols == 5

        refused = await standin.slash(alice, other, "tiwanaku new", thread=False, board="short", players=3)
        text = await answer(refused)
        assert refused.ephemeral and "The short 5 x 5 board is for 1 or 2 players" in text, text
        assert await bot.sessions.core.in_channel(other.id) is None

        plain = await standin.slash(bob, other, "tiwanaku new", thread=False)
        assert not plain.ephemeral
        assert (await bot.sessions.core.in_channel(other.id)).row.max_players == 4
