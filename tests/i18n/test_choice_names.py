"""A text that names one of a slash command option's choices (a game's guide, a refusal, a notice)
names it as the reader's Discord client shows it in the option's menu: the choice's name, from
the same catalogue entry the command tree is registered with (``Largo 5x9`` for a Spanish
player, ``Long 5x9`` for an English one), through the ``{choice <command> <option> <value>}``
placeholder; never the English value (``long``), which no menu shows."""

from __future__ import annotations

import asyncio
import re
import tempfile
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from discord import app_commands

import languages
from bot.app import PukllayBot
from bot.i18n import TEMPLATE, Translator
from bot.settings import Settings
from bot.surface.direct import DM_FAILED
from engines.core import SetupError, config_from_options, config_options
from languages.choices import CHOICES

ES = languages.language("es")
EN = languages.ENGLISH
GAMES = ("guanga", "tiwanaku", "pachakuna", "nowa_gwinea", "guacamole")
CHOICE = re.compile(r"\{choice ([^{}]+)\}")

Menus = dict[tuple[str, str], dict[str, tuple[str, str]]]
"""(command path, option): each choice's value to its (English name, Spanish name)."""


def _menus(payload: dict, path: str, out: Menus) -> None:
    for option in payload.get("options") or []:
        if option.get("type") in (1, 2):  # a subcommand or a group
            _menus(option, f"{path} {option['name']}", out)
        elif option.get("choices"):
            out[(path, option["name"])] = {
                str(c["value"]): (c["name"], (c.get("name_localizations") or {}).get("es-ES", c["name"]))
                for c in option["choices"]
            }


async def registered() -> Menus:
    """The choices of every slash command option as the bot registers them with Discord."""
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(token="choices", database_path=str(Path(folder) / "t.db"), sync_commands=False)
        bot = PukllayBot(settings, start_scheduler=False)
        try:
            await bot.setup_hook()
            out: Menus = {}
            for command in bot.tree.get_commands():
                if isinstance(command, (app_commands.Command, app_commands.Group)):
                    _menus(await command.get_translated_payload(bot.tree, Translator()), command.name, out)
            return out
        finally:
            await bot.close()


@pytest.fixture(scope="module")
def menus() -> Menus:
    return asyncio.run(registered())


def guide(game: str) -> str:
    return __import__(f"engines.{game}", fromlist=["RULES_HELP"]).RULES_HELP


def test_a_choice_reads_as_the_menu_shows_it_in_each_language():
    assert EN.choice("tiwanaku new board long") == "Long 5x9"
    assert ES.choice("tiwanaku new board long") == "Largo 5x9"
    assert (
        ES.gettext("`{option board}` {choice tiwanaku new board short}")
        == "`tablero` Corto 5x5 (1-2 jugadores)"
    )
    assert ES.mention("choice nowa_gwinea new side hard") == "Difícil (cara B)"
    with pytest.raises(KeyError, match="no choice 'huge' for option 'board' of /tiwanaku new"):
        EN.choice("tiwanaku new board huge")


def test_every_choice_a_text_names_is_one_the_bot_registers_under_that_name(menus):
    """Each ``{choice ...}`` of every message names a choice of the registered command tree, and
    reads as that choice's name in English and in the Spanish client (its localization)."""
    with TEMPLATE.open("rb") as fh:
        template = read_po(fh)
    named = {
        p
        for m in template
        if m.id
        for text in (m.id if isinstance(m.id, tuple) else (m.id,))
        for p in CHOICE.findall(text)
    }
    assert len(named) >= 15  # the guides, a refusal and a notice name them
    for path in sorted(named):
        command, option, value = path.rsplit(" ", 2)
        assert value in menus.get((command, option), {}), f"/{command} {option} has no choice {value}"
        english, spanish = menus[(command, option)][value]
        assert (EN.choice(path), ES.choice(path)) == (english, spanish)
    # The table the texts name choices from is the one the cogs register.
    for (command, option), choices in CHOICES.items():
        assert [(v, n) for n, v in choices] == [(v, n[0]) for v, n in menus[(command, option)].items()]


def test_pachakuna_offers_exactly_the_turn_limits_the_game_allows(menus):
    """``/pachakuna new max_turns:`` offers the game's turn limits and no other number (any from 0
    to 200 was taken, then refused by the game: 50 "must be one of 0, 40, ..."), the first named
    as no limit in each client's language."""
    from engines.pachakuna import Config

    allowed = next(o.choices for o in config_options(Config) if o.name == "max_turns")
    offered = menus[("pachakuna new", "max_turns")]
    assert list(offered) == [str(n) for n in allowed] == ["0", "40", "60", "80", "100", "150", "200"]
    assert offered["0"] == ("no limit", "sin límite") and offered["40"] == ("40", "40")


@pytest.mark.parametrize("game", GAMES)
def test_no_guide_names_a_choice_by_its_value(menus, game):
    """A guide says ``Largo 5x9`` (what the menu of ``/tiwanaku nueva tablero:`` shows), never
    ``auto/short/long`` or ```beginner```, in English or in Spanish."""
    values = {v for (command, _), choices in menus.items() if command == f"{game} new" for v in choices}
    values = {v for v in values if not v.isdigit()}
    for text in (EN.gettext(guide(game)), ES.gettext(guide(game))):
        for value in values:
            assert not re.search(
                rf"`{re.escape(value)}`|\b{re.escape(value)}/|/{re.escape(value)}\b", text
            ), value


def test_the_guides_name_the_choices_of_new_as_each_client_shows_them():
    tiwanaku = ES.gettext(guide("tiwanaku"))
    assert (
        "**Opciones**: `tablero` Automático (5x5 para 1-2 jugadores, 5x9 para 3-4), Corto 5x5 (1-2 jugadores) "
        "o Largo 5x9." in tiwanaku
    )
    assert "- Maestra (cara B, conchas por líneas, cobijas): empiezas sin conchas" in ES.gettext(
        guide("guanga")
    )
    assert "- Master (side B, shells from lines, blankets): no starting shells" in EN.gettext(guide("guanga"))
    assert "`tableros` Un tablero para toda la mesa (por defecto) o Un tablero por persona;" in ES.gettext(
        guide("nowa_gwinea")
    )
    assert "`boards` Everyone the same board (default) or One board each;" in EN.gettext(guide("nowa_gwinea"))
    assert "`board` Plan A, Plan B or Random fair board;" in EN.gettext(guide("pachakuna"))


def test_the_stoppers_refusal_names_the_modes_as_the_menu_shows_them():
    """``/guanga new`` with the Master mode and stoppers: refused naming the two modes that take
    stoppers as the reader's menu of ``mode`` shows them."""
    from engines.guanga import Config

    with pytest.raises(SetupError) as caught:
        config_from_options(Config, 2, {"mode": "master", "stoppers": True})
    assert caught.value.said.in_words(ES) == (
        "la variante de topes solo se juega en los modos Principiante (cara A, colocación libre) "
        "y Aprendiz (pedidos, conchas, colocación en pareja)"
    )
    assert caught.value.said.in_words(EN) == (
        "the stoppers variant is only played in the modes Beginner (side A, free placement) "
        "and Apprentice (orders, shells, paired placement)"
    )
    assert "modes beginner and apprentice" in str(caught.value)  # logs: the values


def test_the_notice_of_a_closed_dm_names_the_choice_as_the_menu_shows_it():
    assert '/me notify where: "A mention in the game\'s thread (default)".' in EN.gettext(DM_FAILED)
    assert "/yo avisos vía: «Una mención en el hilo de la partida (por defecto)»." in ES.gettext(DM_FAILED)


def test_the_no_show_refusal_names_the_choices_as_the_menu_shows_them():
    """``/league create`` with Guanga and "score as it stands": refused naming the two choices of
    ``no_show`` left, as the organiser's menu shows them (it said "computer or forfeit")."""
    from bot.league import noshows

    with pytest.raises(noshows.NoShowError) as caught:
        noshows.check("guanga", noshows.SCORE, noshows.DEFAULT_DROP_AFTER, noshows.DEFAULT_CREDIT)
    exc = caught.value
    assert ES.gettext(exc.msg, **exc.values).endswith(
        "es para Tiwanaku, Nowa Gwinea, Guacamole; elige «La máquina ocupa el asiento» o "
        "«El asiento pierde la partida por abandono»"
    )
    assert EN.gettext(exc.msg, **exc.values).endswith(
        'choose "The computer takes the seat" or "The seat forfeits the game"'
    )
