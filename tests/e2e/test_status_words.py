"""``/game status`` names each seat in one phrase: who holds it, whom a league's substitute plays
for, whether its player resigned and the computer plays on, in the asker's language."""

from __future__ import annotations

import pytest

from bot.app import EXTENSIONS
from tests.e2e.conftest import damage
from tests.e2e.players import is_board
from tests.e2e.test_handover_names import EXTENSIONS as LEAGUE_EXTENSIONS
from tests.e2e.test_handover_names import handed_over


async def test_status_tells_a_resignation_in_one_phrase(standin, bot_factory):
    """Three-player Guacamole: carol resigns and the computer plays her seat on; ``/game status``
    says so in one phrase (it read 'carol (computer, normal) (resigned)'), in English and Spanish."""
    alice, bob, carol = standin.add_users("alice", "bob", "carol")
    ana = standin.add_users("ana")[0]
    ana.locale = "es-ES"
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        bot.sessions.new_seed = lambda: 3
        await standin.wait_synced()
        lobby = await standin.slash(alice, chan, "guacamole new", thread=False, players=3)
        await standin.click(bob, lobby.message, "Join")
        await standin.click(carol, lobby.message, "Join")
        await standin.click(alice, lobby.message, "Start")
        await standin.next_message(chan, is_board)
        await (await standin.slash(carol, chan, "game resign")).original()
        session = await bot.sessions.core.in_channel(chan.id)
        assert session.status == "active" and session.seat_of(carol.id).resigned
        number = session.seat_of(carol.id).seat + 1
        english = (await (await standin.slash(bob, chan, "game status")).original()).content
        assert f"{number}. Carol, resigned; the computer plays on (normal)" in english.splitlines(), english
        spanish = (await (await standin.slash(ana, chan, "game status")).original()).content
        line = f"{number}. Carol, se rindió; sigue la máquina (normal)"
        assert line in spanish.splitlines(), spanish
        assert ") (" not in english and ") (" not in spanish


async def test_status_says_whom_a_substitute_plays_for(standin, bot_factory, table_clock):
    """A league seat handed to a substitute: ``/game status`` says whom they play for, as the web
    page and the replay do ('Wayra (for Inti)')."""
    *players, sub = standin.add_users("inti", "killa", "qori", "wayra")
    async with standin.run_client(bot_factory(LEAGUE_EXTENSIONS)) as bot:
        await standin.wait_synced()
        session, _, gone, _ = await handed_over(standin, bot, table_clock, players, sub)
        thread = standin.channel(session.row.channel_id)
        status = (await (await standin.slash(standin.owner, thread, "game status")).original()).content
        assert "3. Wayra (for " + gone + ")" in status.splitlines(), status


async def open_guacamole(standin, chan, host, guest):
    lobby = await standin.slash(host, chan, "guacamole new", thread=False, players=2)
    await standin.click(guest, lobby.message, "Join")
    await standin.click(host, lobby.message, "Start")
    await standin.next_message(chan, is_board)


@pytest.mark.parametrize("discord_error_loggers", [("discord",)])  # the damage is logged, as it should
async def test_status_of_an_abandoned_game_says_why_once(standin, bot_factory):
    """An abandoned game's ``/game status`` says it was abandoned once (it read 'This game was
    abandoned (abandoned).'), and a damaged game once abandoned says nothing more can be done
    (it still said the host or an admin could abandon it), in English and Spanish."""
    alice, bob = standin.add_users("alice", "bob")
    ana = standin.add_users("ana")[0]
    ana.locale = "es-ES"
    games, thread = standin.channel("games"), standin.guild.threads[0]
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        bot.sessions.new_seed = lambda: 3
        await standin.wait_synced()
        await open_guacamole(standin, games, alice, bob)
        await (await standin.slash(alice, games, "game abandon")).original()
        status = (await (await standin.slash(bob, games, "game status")).original()).content
        assert "This game was abandoned. Play again with `/guacamole new`" in status, status
        assert "(abandoned)" not in status, status
        spanish = (await (await standin.slash(ana, games, "game status")).original()).content
        assert "Esta partida se abandonó. " in spanish and "(abandonada)" not in spanish, spanish

        await open_guacamole(standin, thread, alice, bob)
        damage(bot, (await bot.sessions.core.in_channel(thread.id)).id)
        assert "damaged" in (await (await standin.slash(bob, thread, "game status")).original()).content
        await (await standin.slash(alice, thread, "game abandon")).original()
        assert await bot.sessions.core.in_channel(thread.id) is None
        status = (await (await standin.slash(bob, thread, "game status")).original()).content
        assert "This game was abandoned, being damaged. Play again" in status, status
        assert (
            "abandon} it" not in status
            and "abandon it" not in status
            and "(abandoned (damaged))" not in status
        ), status


async def test_status_tells_time_away_without_brackets_in_brackets(standin, bot_factory):
    """A player taking time away: their seat's line reads 'Alice, away until 2027-... (UTC)' (it
    read 'Alice (away until 2027-... (UTC))'), in English and Spanish."""
    alice, bob = standin.add_users("alice", "bob")
    ana = standin.add_users("ana")[0]
    ana.locale = "es-ES"
    games = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        bot.sessions.new_seed = lambda: 3
        await standin.wait_synced()
        await open_guacamole(standin, games, alice, bob)
        await (await standin.slash(alice, games, "me away", days=3)).original()
        session = await bot.sessions.core.in_channel(games.id)
        number = session.seat_of(alice.id).seat + 1
        english = (await (await standin.slash(bob, games, "game status")).original()).content
        (line,) = [x for x in english.splitlines() if x.startswith(f"{number}. ")]
        assert line.startswith(f"{number}. Alice, away until ") and line.endswith(" (UTC)"), english
        spanish = (await (await standin.slash(ana, games, "game status")).original()).content
        (line,) = [x for x in spanish.splitlines() if x.startswith(f"{number}. ")]
        assert line.startswith(f"{number}. Alice, de descanso hasta el ") and line.endswith(" (UTC)"), spanish
