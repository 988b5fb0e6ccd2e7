"""The bot's languages on Discord: whose language a text is written in, and the slash commands
translated (through discord.py's :class:`~discord.app_commands.Translator`).

- A private answer (an ephemeral reply) is in the language of the person who asked: the
  interaction's ``locale``, their Discord client's language.
- A public message or board image is in the server's language: the one chosen with
  ``/game language``, or else the server's own (``guild_locale``, its community language).
- Discord's ``es-ES`` and ``es-419`` are both Spanish; a locale without a catalogue is English.

Slash commands need no edit in the cogs: the translator looks every name, description, option
and choice up in the catalogues by its English text, the names of commands and groups under the
context :data:`NAME_CONTEXT` and those of options under :data:`OPTION_CONTEXT` (a name must stay
lowercase, without spaces, in every language).

Commands for translators (from the repository's root)::

    .venv/bin/python -m bot.i18n extract   # languages/pukllay.pot from the code and the command
                                            # tree, and every catalogue updated to it
    .venv/bin/python -m bot.i18n check     # each language: translated, missing, fuzzy, and
                                            # placeholders that differ (status 1 if any)
    .venv/bin/pybabel init -i languages/pukllay.pot -d languages -D pukllay -l fr   # a new language

The catalogues are compiled when first used (see :mod:`languages`), so there is no compile step.
Those commands are :mod:`bot.i18n.catalogue`'s, which builds the bot to read its command tree.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

import languages
from languages import COMMAND_CONTEXT, DOMAIN, SOURCE, Language, language
from languages import OPTION_CONTEXT as OPTION_CONTEXT
from languages.choices import CHOICES

if TYPE_CHECKING:
    from bot.storage import Store

NAME_CONTEXT = COMMAND_CONTEXT
# An option's name has a context of its own (OPTION_CONTEXT): a command is a verb or a noun
# ("jugar"), its option a noun ("jugada"), though both may be the same English word ("move").
NAMES = (Where.command_name, Where.group_name)
ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "languages" / f"{DOMAIN}.pot"
# Where the code's messages are extracted from (the engines keep theirs with engines.core.said).
SOURCES: tuple[str, ...] = ("bot", "cogs", "renderers", "languages", "engines")
Keyword = tuple[int | tuple[int, str], ...] | None
"""Which arguments of a translating call babel extracts: ``None``, the first; else their
positions, the message's (and its plural's), ``(n, "c")`` for the context's."""
KEYWORDS: dict[str, Keyword] = {
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "N_": None,
    # The table's refusals keep their message for the asker's language (bot.sessions.Refusal).
    **dict.fromkeys(
        ("Refusal", "NoGameHere", "NotSeated", "StaleMove", "Damaged", "LeagueError", "ClockError"), None
    ),
    "said": None,
    "said_n": (2, 3),
}
# The engines keep sentences for translation (engines.core: said, said_n, term, and the errors,
# whose first argument is the message); the table puts them in words.
ENGINE_KEYWORDS: dict[str, Keyword] = {
    "N_": None,
    "said": None,
    "said_n": (2, 3),
    "term": ((1, "c"), 2),
    **dict.fromkeys(
        ("SetupError", "MoveError", "IllegalMove", "NotYourTurn", "MalformedMove", "GameOver"), None
    ),
}
# renderers/translation.py's tr, ntr, say and nsay draw in the render's language (renderers only).
RENDER_KEYWORDS: dict[str, Keyword] = {
    **KEYWORDS,
    "tr": None,
    "ntr": (1, 2),
    "ptr": ((1, "c"), 2),
    "say": None,
    "nsay": (1, 2),
}


def private(interaction: discord.Interaction) -> Language:
    """The language of a private answer: the asker's Discord client language."""
    return language(interaction.locale.value if interaction.locale else None)


def public(chosen: str | None, guild_locale: discord.Locale | str | None) -> Language:
    """The language of a public message or image: the server's choice, else its own locale."""
    if chosen:
        return language(chosen)
    value = guild_locale.value if isinstance(guild_locale, discord.Locale) else guild_locale
    return language(value)


async def server(client: discord.Client, store: Store, guild_id: int | None) -> Language:
    """The language of what the table posts in server ``guild_id`` (boards, results cards,
    animations): the one chosen there with ``/game language``, else the server's own Discord
    language (its ``preferred_locale``), else English (a direct message, a server not cached)."""
    if guild_id is None:
        return language(None)
    guild = client.get_guild(guild_id)
    return public(await store.people.server_language(guild_id), guild.preferred_locale if guild else None)


def language_choices() -> list[app_commands.Choice[str]]:
    """One choice per language the bot speaks, each named in its own language."""
    return [app_commands.Choice(name=language(c).name, value=c) for c in languages.available()]


def slash_choices(command: str, option: str) -> list[app_commands.Choice[str]]:
    """The choices of option ``option`` of slash command ``command`` (``"tiwanaku new"``), from
    :data:`languages.choices.CHOICES`, the table the texts' ``{choice ...}`` placeholders name
    them from: a text names a choice as the menu shows it."""
    return [app_commands.Choice(name=name, value=value) for name, value in CHOICES[(command, option)]]


class Translator(app_commands.Translator):
    """Slash commands in every language that has a catalogue, looked up by their English text."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext,
    ) -> str | None:
        if context.location == Where.parameter_name:
            return self.lookup(OPTION_CONTEXT, string.message, locale)
        return self.lookup(NAME_CONTEXT if context.location in NAMES else None, string.message, locale)

    def lookup(self, context: str | None, message: str, locale: discord.Locale) -> str | None:
        """``message`` (a name when ``context`` is :data:`NAME_CONTEXT` or :data:`OPTION_CONTEXT`) in ``locale``'s language,
        or ``None`` (Discord then shows the English) for English or a message not translated."""
        lang = language(locale.value)
        if lang.code == SOURCE or not lang.has(message, context):
            return None
        if context is None:
            return lang.catalogue.gettext(message)
        return lang.catalogue.pgettext(context, message)


class _Recorder(Translator):
    """Collects every text the tree asks to translate, with whether it is a name."""

    def __init__(self) -> None:
        self.found: dict[tuple[str | None, str], None] = {}

    def lookup(self, context: str | None, message: str, locale: discord.Locale) -> str | None:
        self.found[(context, message)] = None
        return None


async def tree_messages(tree: app_commands.CommandTree) -> list[tuple[str | None, str]]:
    """Every (context, text) of the slash commands of ``tree``: names (in :data:`NAME_CONTEXT`),
    descriptions, options and choices, in the order of the tree (the bot's own:
    :func:`bot.i18n.catalogue.bot_messages`)."""
    recorder = _Recorder()
    for command in tree.get_commands():
        await command.get_translated_payload(tree, recorder)
    return list(recorder.found)


def keywords_for(folder: str) -> dict[str, Keyword]:
    """The translating calls of a source folder: the renderers draw, the engines keep sentences."""
    if folder == "renderers":
        return RENDER_KEYWORDS
    return ENGINE_KEYWORDS if folder.startswith("engines") else KEYWORDS


def code_messages() -> list[tuple[str | None, str | tuple[str, ...], list[tuple[str, int]]]]:
    """Every message marked in the code: (context, message or (singular, plural), locations)."""
    from babel.messages.extract import extract_from_dir

    out = []
    for folder in SOURCES:
        for filename, lineno, message, _comments, context in extract_from_dir(
            ROOT / folder,
            method_map=[("**.py", "python")],
            keywords=keywords_for(folder),
        ):
            out.append((context, message, [(f"{folder}/{filename}", lineno)]))
    return out


def problems(code: str, messages: Iterable[tuple[str | None, object]], path: Path | None = None) -> list[str]:
    """What is wrong with ``code``'s catalogue (or the one at ``path``) for these messages: a message
    without a translation (or only a fuzzy one), or a translation whose placeholders differ from
    the English."""
    from babel.messages.pofile import read_po

    with (path or languages.catalogue_path(code)).open("rb") as fh:
        catalog = read_po(fh, locale=code, domain=DOMAIN)
    out = []
    for context, message in messages:
        key = str(message[0] if isinstance(message, tuple) else message)
        entry = catalog.get(key, context)
        label = f"{context + ': ' if context else ''}{key!r}"
        strings = entry.string if entry is not None else None
        forms = list(strings) if isinstance(strings, (tuple, list)) else [strings]
        if entry is None or entry.fuzzy or not all(forms):
            out.append(f"{code}: no translation for {label}")
            continue
        english = [str(e) for e in message] if isinstance(message, tuple) else [str(message)]
        wanted = set().union(*(languages.placeholders(e) for e in english))
        if isinstance(message, tuple):
            wanted.add("n")
        for form in forms:
            got = languages.placeholders(form or "")
            if got != wanted and not (isinstance(message, tuple) and got | {"n"} == wanted):
                out.append(f"{code}: {label} has placeholders {sorted(got)}, the English {sorted(wanted)}")
    return out
