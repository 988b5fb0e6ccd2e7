"""/help: a newcomer's first command, answered privately in their language with the games there
are and how a first game goes, every command and button named as their client shows it."""

from __future__ import annotations

from bot.app import EXTENSIONS
from tests.i18n.test_mentions import english_in, tree  # noqa: F401 (a fixture)


async def test_help_says_what_pukllay_is_and_how_to_play(standin, bot_factory, tree):  # noqa: F811
    """There was no /help: a newcomer typing it found nothing.  Now it answers, privately, with the
    games and their players, how to open, join, start and play, and where the rules are."""
    ana, beto = standin.add_users("ana", "beto")
    beto.locale = "es-ES"
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)):
        await standin.wait_synced()
        english = await (await standin.slash(ana, chan, "help")).original()
        spanish = await (await standin.slash(beto, chan, "help")).original()
    assert english.ephemeral and spanish.ephemeral
    assert english.content.startswith("**Pukllay** hosts board games in this server's channels:\n")
    for part in (
        "**Guacamole**: `/guacamole new`, 2-6 players",
        "**P'achakuna**: `/pachakuna new`, 2 players",
    ):
        assert part in english.content, english.content
    for words in ("press Join", "presses Start", "press Play", "/<game> move", "/<game> rules", "/game mine"):
        assert words in english.content, english.content
    assert spanish.content.startswith("**Pukllay** ofrece juegos de mesa en los canales de este servidor:\n")
    assert "**Guacamole**: `/guacamole nueva`, 2-6 jugadores" in spanish.content, spanish.content
    assert "pulsa Jugar" in spanish.content, spanish.content
    assert english_in(spanish.content, tree) == [], spanish.content
    assert standin.command("help", server=standin.guild)["name_localizations"]["es-ES"] == "ayuda"
