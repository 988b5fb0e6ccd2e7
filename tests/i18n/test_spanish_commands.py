"""A Spanish message that writes a command out (``/yo autojugada activación:True``, where a
``{/me autoplay on:}`` placeholder was not used) names the command and its options as Discord shows
them to a Spanish client: each word after the first a subcommand of the one before, each ``name:``
an option of the command, all in the catalogue's own Spanish names."""

from __future__ import annotations

import asyncio
import re

import pytest

import languages
from languages import COMMAND_CONTEXT, OPTION_CONTEXT
from tests.i18n.test_mentions import Command, commands, spanish_entries

ES = languages.language("es")
# A command written out: /name, then words (subcommands, then options as name:); names may hold -.
WRITTEN = re.compile(r"(?<![\w/<{])/((?:\{game\}|<\w+>|[\w-]+)(?: [\w<>-]+:?)*)")
ANY_GAME = ("{game}", "<juego>")


@pytest.fixture(scope="module")
def tree() -> Command:
    return asyncio.run(commands())


def spanish_children(node: Command) -> dict[str, Command]:
    return {ES.pgettext(COMMAND_CONTEXT, name): child for name, child in node.children.items()}


def wrong_names(text: str, tree: Command) -> list[str]:
    """What ``text`` writes out as a Spanish command and Discord does not have: a subcommand a
    group lacks, or an option the command lacks (a text that only looks like a command, such as
    ``/colores``, names no command and is left alone)."""
    out = []
    for m in WRITTEN.finditer(text):
        words = m[1].split(" ")
        first = words[0]
        if first in ANY_GAME:
            node = tree.children["guanga"]
        elif first in spanish_children(tree):
            node = spanish_children(tree)[first]
        else:
            continue
        for word in words[1:]:
            if word.endswith(":"):
                options = {ES.pgettext(OPTION_CONTEXT, o) for o in node.options}
                if word[:-1] not in options:
                    out.append(f"/{m[1]}: no option {word} (it has {', '.join(sorted(options)) or 'none'})")
                continue
            if not node.children:
                break  # the command is whole; the sentence goes on
            children = spanish_children(node)
            if word not in children:
                out.append(f"/{m[1]}: no subcommand {word} (there are {', '.join(sorted(children))})")
                break
            node = children[word]
    return out


def test_every_command_written_out_in_spanish_is_one_discord_shows(tree):
    found = [
        (english, problems) for english, text in spanish_entries() if (problems := wrong_names(text, tree))
    ]
    assert found == []


def test_the_check_finds_a_wrong_option_or_subcommand(tree):
    # What the catalogue wrote before: options under names Discord never showed.
    assert wrong_names("/yo autojugada activo:True la activa", tree) == [
        "/yo autojugada activo:: no option activo: (it has activación)"
    ]
    assert wrong_names("/jugar pasar-antes cancelar:True lo retira", tree) == [
        "/jugar pasar-antes cancelar:: no option cancelar: (it has anulación)"
    ]
    assert wrong_names("usa /cola quitar", tree)[0].startswith("/cola quitar: no subcommand quitar")


def test_the_check_passes_what_discord_shows(tree):
    good = (
        "/yo autojugada activación:True la activa; /jugar mirar aquí otra vez; /cola unirse para "
        "entrar; /yo dejar-de-seguir lo detiene; /<juego> nueva hilo:; quita la parte /colores; /ry"
    )
    assert wrong_names(good, tree) == []
