"""Through the stand-in: what a Spanish server's players read names the commands and buttons their
client shows, and agrees with its numbers."""

from __future__ import annotations

from tests.e2e.conftest import BASE_EXTENSIONS
from tests.i18n.test_mentions import english_in, tree  # noqa: F401 (a fixture)

EXTENSIONS = (*BASE_EXTENSIONS, "cogs.guacamole")


async def test_a_spanish_lobby_names_its_buttons_as_they_read(standin, bot_factory, tree):  # noqa: F811
    """The public lobby of a Spanish server said "(Join o Add computer)" and "pulsa Start" above
    buttons reading Unirse, Añadir máquina and Empezar."""
    chan = standin.channel("games")
    bob = standin.add_user("bob")
    standin.guild.locale = "es-419"
    async with standin.run_client(bot_factory(EXTENSIONS)):
        await standin.wait_synced()
        lobby = await standin.slash(bob, chan, "guacamole new", thread=False, players=3)
        seen = [standin.message(lobby.message.id).content]
        await standin.click(bob, lobby.message, "Añadir máquina")
        seen.append(standin.message(lobby.message.id).content)
        await standin.click(bob, lobby.message, "Añadir máquina")
        seen.append(standin.message(lobby.message.id).content)
    assert seen[0].endswith("Guacamole necesita al menos 2 jugadores (Unirse o Añadir máquina)."), seen[0]
    assert seen[1].endswith("se puede empezar (el anfitrión pulsa Empezar) o esperar a más jugadores.")
    assert seen[2].endswith("La mesa está llena (3 asientos): el anfitrión puede pulsar Empezar.")
    assert [english_in(text, tree) for text in seen] == [[], [], []]
