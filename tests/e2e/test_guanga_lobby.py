"""/guanga new through Discord: the cannot_place option (2-4 players) reaches the lobby's options and
its words, and a solo table refuses it, privately, storing nothing."""

from __future__ import annotations

from bot.app import EXTENSIONS


async def answer(result):
    """The final text of an interaction's answer (after a deferral, the filled-in message)."""
    return (await result.original()).content if result.deferred else result.content


async def test_guanga_new_takes_cannot_place_and_refuses_it_in_solo(standin, bot_factory):
    alice = standin.add_user("alice")
    chan, other = standin.channel("games"), standin.channel("general")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        r = await standin.slash(alice, chan, "guanga new", thread=False, players=1, cannot_place="end_now")
        text = await answer(r)
        assert r.ephemeral, text
        assert "cannot_place is an option for 2 to 4 players" in text, text
        assert await bot.sessions.core.in_channel(chan.id) is None

        lobby = await standin.slash(
            alice, chan, "guanga new", thread=False, players=3, cannot_place="end_now"
        )
        assert not lobby.ephemeral
        session = await bot.sessions.core.in_channel(chan.id)
        assert session.row.options["cannot_place"] == "end_now"
        assert "the game ends at once when a player cannot place" in (await lobby.original()).content

        plain = await standin.slash(alice, other, "guanga new", thread=False, players=2)
        assert not plain.ephemeral
        session = await bot.sessions.core.in_channel(other.id)
        assert session.row.options["cannot_place"] == "finish_round"
        assert "cannot place" not in (await plain.original()).content  # the default goes unsaid
