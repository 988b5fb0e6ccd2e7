"""A command or a button named in a text is named as the reader's client shows it: the one helper
(``languages.Language.mention``, through ``{/game join}`` and ``{button Rematch}`` placeholders),
and a check that no Spanish catalogue entry, filled in, names an English command, option or button."""

from __future__ import annotations

import asyncio
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from discord import app_commands

import languages
from bot.app import PukllayBot
from bot.settings import Settings
from engines.core import said
from languages import COMMAND_CONTEXT, OPTION_CONTEXT

ES = languages.language("es")
EN = languages.ENGLISH
# Every button a text may tell a player to press (the lobby's, the board's, a results card's...).
BUTTONS = ("Join", "Leave", "Add computer", "Start", "Rematch", "Agree", "Refuse", "Play", "My view")
BUTTONS += ("Show again", "All moves")


@dataclass
class Command:
    """A command or group: its children by English name, its options' English names."""

    children: dict[str, Command] = field(default_factory=dict)
    options: set[str] = field(default_factory=set)


def _add(node: Command, command: app_commands.Command | app_commands.Group) -> None:
    child = node.children.setdefault(command.name, Command())
    if isinstance(command, app_commands.Group):
        for sub in command.commands:
            _add(child, sub)
    else:
        child.options = {p.name for p in command.parameters}


@pytest.fixture(scope="module")
def tree() -> Command:
    return asyncio.run(commands())


async def commands() -> Command:
    """The bot's slash commands (set up on a throw-away database, never logged in)."""
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(token="mentions", database_path=str(Path(folder) / "t.db"), sync_commands=False)
        bot = PukllayBot(settings, start_scheduler=False)
        try:
            await bot.setup_hook()
            root = Command()
            for command in bot.tree.get_commands():
                if isinstance(command, (app_commands.Command, app_commands.Group)):
                    _add(root, command)
            return root
        finally:
            await bot.close()


GAMES = ("guanga", "tiwanaku", "pachakuna", "nowa_gwinea", "guacamole")
MENTIONED = re.compile(r"(?<![\w/<{])/((?:\{game\}|<\w+>|\w+)(?: [\w<>]+:?)*)")


def english_in(text: str, tree: Command, t: languages.Language = ES) -> list[str]:
    """The English commands, options and buttons that ``text`` (in ``t``) names where ``t``'s
    client shows other names."""
    out = []
    for m in MENTIONED.finditer(text):
        node: Command | None = tree
        words = m[1].split(" ")
        for i, word in enumerate(words):
            if word.endswith(":"):
                english = word[:-1]
                spanish = t.pgettext(OPTION_CONTEXT, english)
                if node is not None and english in node.options and spanish != english:
                    out.append(f"option {word} in /{m[1]}")
                continue
            if word in ("{game}", "<juego>", "<game>"):  # any game's command
                if word == "<game>" and t.pgettext(COMMAND_CONTEXT, "game") != "game":
                    out.append(f"command /{m[1]}")
                    break
                node = tree.children["guanga"]
                continue
            if node is None:
                break
            if word in node.children and t.pgettext(COMMAND_CONTEXT, word) != word:
                out.append(f"command /{m[1]}")
                break
            # The child of this command with that name (one Spanish name may stand for two English
            # commands in different places: /jugar is /play, /tiwanaku jugar is /tiwanaku move).
            english = next((e for e in node.children if t.pgettext(COMMAND_CONTEXT, e) == word), None)
            node = node.children.get(english) if english else None
            if node is None and i == 0:
                break
    for label in BUTTONS:
        if t.button(label) != label and re.search(rf"\b{re.escape(label)}\b", text):
            out.append(f"button {label}")
    return out


def _all_names(node: Command) -> set[str]:
    out = set(node.children)
    for child in node.children.values():
        out |= _all_names(child)
    return out


def spanish_entries() -> list[tuple[str, str]]:
    """Every Spanish translation of the code's messages (the slash commands' own texts aside,
    whose names Discord shows localized), mention placeholders filled as the reader sees them."""
    with languages.catalogue_path("es").open("rb") as fh:
        catalog = read_po(fh, locale="es")
    out = []
    for m in catalog:
        if not m.id or m.context in (COMMAND_CONTEXT, OPTION_CONTEXT):
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for s in strings:
            out.append((ids[0], languages.MENTION.sub(lambda x: ES.mention(x[1]), s)))
    return out


def test_a_command_and_a_button_are_named_in_the_readers_language():
    assert ES.command("game join") == "/juego unirse"
    assert ES.command("league organiser drop") == "/liga organización expulsar"
    assert ES.command("tiwanaku move move:") == "/tiwanaku jugar jugada:"
    assert ES.command("<game> new") == "/<juego> nueva"
    assert ES.button("Add computer") == "Añadir máquina"
    assert EN.command("game join") == "/game join" and EN.button("Rematch") == "Rematch"
    message = "{game} needs at least {n} players ({button Join}, or {button Add computer})."
    assert (
        EN.gettext(message, game="Guanga", n=2) == "Guanga needs at least 2 players (Join, or Add computer)."
    )
    assert ES.ngettext(message.replace("players", "player"), message, 2, game="Guanga") == (
        "Guanga necesita al menos 2 jugadores (Unirse o Añadir máquina)."
    )
    # A sentence kept by the table or an engine (a Refusal's) reads the same in English.
    assert said("finish or {/game abandon} it first").in_words() == "finish or /game abandon it first"
    assert said("finish or {/game abandon} it first").in_words(ES) == "finish or /juego abandonar it first"


def test_the_check_finds_english_commands_options_and_buttons(tree):
    # What the Spanish said before each mention came from the helper.
    assert english_in("el anfitrión puede pulsar Start (Join o Add computer)", tree) == [
        "button Join",
        "button Add computer",
        "button Start",
    ]
    assert english_in("pide al anfitrión que la cierre con /game abandon", tree) == ["command /game abandon"]
    assert english_in("usa /liga organización drop", tree) == ["command /liga organización drop"]
    assert english_in("escribe `/{game} move`", tree) == ["command /{game} move"]
    assert english_in("`/tiwanaku jugar move:` o /yo avisos where:", tree) == [
        "option move: in /tiwanaku jugar move:",
        "option where: in /yo avisos where:",
    ]
    assert english_in("abre una con /<game> new", tree) == ["command /<game> new"]
    good = "usa /juego unirse, `/{game} jugar`, /tiwanaku jugar jugada:, /<juego> nueva y pulsa Empezar"
    assert english_in(good, tree) == []
    assert english_in("press Start or use /game start", tree, EN) == []


def test_no_spanish_entry_names_an_english_command_option_or_button(tree):
    found = [
        (english, problems) for english, text in spanish_entries() if (problems := english_in(text, tree))
    ]
    assert found == []
