"""A Spanish text that names a slash command option (a game's rules, a hint, a refusal) names it as
a Spanish Discord client shows it: the option's ``name_localizations`` in the command tree the bot
registers (``máx_turnos``, not ``max_turns``), filled from the same catalogue entry with the
``{option max_turns}`` placeholder.  English reads as before."""

from __future__ import annotations

import asyncio
import re
import tempfile
from pathlib import Path

import pytest
from discord import app_commands

import languages
from bot.app import PukllayBot
from bot.i18n import Translator
from bot.settings import Settings
from engines.core import config_options
from tests.i18n.test_mentions import spanish_entries

ES = languages.language("es")
EN = languages.ENGLISH
GAMES = ("guanga", "tiwanaku", "pachakuna", "nowa_gwinea", "guacamole")
OPTION = re.compile(r"\{option ([^{}]+)\}")


def _options(payload: dict, path: str, out: dict[str, dict[str, str]]) -> None:
    """Each (sub)command's options in ``payload``: English name to its Spanish localized name."""
    for option in payload.get("options") or []:
        if option.get("type") in (1, 2):  # a subcommand or a group
            _options(option, f"{path} {option['name']}", out)
        else:
            spanish = (option.get("name_localizations") or {}).get("es-ES", option["name"])
            out.setdefault(path, {})[option["name"]] = spanish


async def registered() -> dict[str, dict[str, str]]:
    """The options of every slash command as the bot registers them (set up on a throw-away
    database, never logged in): ``{"tiwanaku new": {"board": "tablero", ...}, ...}``."""
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(token="options", database_path=str(Path(folder) / "t.db"), sync_commands=False)
        bot = PukllayBot(settings, start_scheduler=False)
        try:
            await bot.setup_hook()
            out: dict[str, dict[str, str]] = {}
            for command in bot.tree.get_commands():
                if isinstance(command, (app_commands.Command, app_commands.Group)):
                    payload = await command.get_translated_payload(bot.tree, Translator())
                    _options(payload, command.name, out)
            return out
        finally:
            await bot.close()


@pytest.fixture(scope="module")
def tree() -> dict[str, dict[str, str]]:
    return asyncio.run(registered())


def rules(game: str) -> str:
    """A game's guide as ``/<game> rules`` reads it (the English, with its placeholders)."""
    module = __import__(f"engines.{game}", fromlist=["RULES_HELP"])
    return module.RULES_HELP


def english_options_in(text: str, options: dict[str, str]) -> list[str]:
    """The options of ``options`` that ``text`` names by their English name in code (```board```,
    ``'side'``, ``board=``) where the Spanish client shows another name."""
    return sorted(
        english
        for english, spanish in options.items()
        if spanish != english and re.search(rf"[`']{re.escape(english)}[`'=]", text)
    )


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_name_each_option_of_new_as_a_spanish_client_shows_it(tree, game):
    options = tree[f"{game} new"]
    spanish = ES.gettext(rules(game))
    assert english_options_in(spanish, options) == []
    for english in OPTION.findall(rules(game)):
        assert english in options, f"{game}'s rules name {english}, which /{game} new does not have"
        assert f"`{options[english]}`" in spanish


def test_the_rules_in_spanish_name_the_options_the_client_shows(tree):
    assert "**Opciones**: `tablero` Plan A, Plan B o Tablero justo al azar;" in ES.gettext(rules("pachakuna"))
    assert "`máx_turnos` (0 = sin límite" in ES.gettext(rules("pachakuna"))
    assert "**Opción** `platos_por_turno` (1 por defecto" in ES.gettext(rules("guacamole"))
    nowa = ES.gettext(rules("nowa_gwinea"))
    assert "`cara` Estándar (cara A) o Difícil (cara B);" in nowa and "`asientos_difíciles` (p. ej." in nowa
    assert "cubrir las pozas de `meta_de_agua` cuenta" in nowa
    guanga = ES.gettext(rules("guanga"))
    assert "con `no_puede_colocar` «Terminar la partida de inmediato»" in guanga
    assert "- `topes` (los dos primeros modos)" in guanga


def test_english_rules_read_as_before(tree):
    assert (
        "**Options**: `board` Automatic (5x5 for 1-2 players, 5x9 for 3-4), Short 5x5 (1-2 players) or Long 5x9."
        in EN.gettext(rules("tiwanaku"))
    )
    assert "`max_turns` (0 = play to the win" in EN.gettext(rules("pachakuna"))
    assert "(option \n`cannot_place`" not in EN.gettext(rules("guanga"))
    assert 'with `cannot_place` "End the game at once"' in EN.gettext(rules("guanga"))
    assert "{option" not in EN.gettext(rules("nowa_gwinea"))
    assert (
        EN.mention("option hard_seats") == "hard_seats"
        and ES.mention("option hard_seats") == "asientos_difíciles"
    )


def test_no_spanish_text_quotes_a_game_option_by_its_english_name(tree):
    # The options a game is set up with (other names, such as a move word `cancel`, are notation).
    every = {e: s for game in GAMES for e, s in tree[f"{game} new"].items() if s != e}
    # An option's own help goes with the English name typed after it (the terminal's option list).
    helps = {
        o.help
        for game in GAMES
        for o in config_options(__import__(f"engines.{game}", fromlist=["Config"]).Config)
    }
    found = [
        (english, names)
        for english, text in spanish_entries()
        if english not in helps and (names := english_options_in(text, every))
    ]
    assert found == []
