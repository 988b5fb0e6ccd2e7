"""The catalogue commands: ``python -m bot.i18n extract`` and ``python -m bot.i18n check``.

The template holds the code's messages and the slash commands' texts, read from the command
tree of the bot itself (set up on a throw-away database, never logged in); so this module
imports :mod:`bot.app`, which the rest of :mod:`bot.i18n` must not.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

import languages
from bot.app import PukllayBot
from bot.i18n import DOMAIN, ROOT, TEMPLATE, code_messages, problems, tree_messages
from bot.settings import Settings


async def bot_messages() -> list[tuple[str | None, str]]:
    """Every (context, text) of the bot's own slash commands (see :func:`bot.i18n.tree_messages`)."""
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(token="extract", database_path=str(Path(folder) / "tree.db"), sync_commands=False)
        bot = PukllayBot(settings, start_scheduler=False)
        try:
            await bot.setup_hook()
            return await tree_messages(bot.tree)
        finally:
            await bot.close()


def template():
    """The catalogue template: the code's messages, then the slash commands'."""
    from babel.messages.catalog import Catalog

    catalog = Catalog(
        project="Pukllay",
        domain=DOMAIN,
        fuzzy=False,
        header_comment="# Pukllay's messages: the template of every catalogue (python -m bot.i18n extract).",
        msgid_bugs_address="",
        copyright_holder="",
    )
    for context, message, locations in code_messages():
        catalog.add(message, locations=locations, context=context, flags=("python-brace-format",))
    for context, message in asyncio.run(bot_messages()):
        if message not in catalog or catalog.get(message, context) is None:
            catalog.add(message, locations=[("slash commands", 0)], context=context)
    return catalog


def extract() -> None:
    """Write the template and bring every catalogue up to it (new messages added untranslated)."""
    from babel.messages.pofile import read_po, write_po

    tmpl = template()
    with TEMPLATE.open("wb") as fh:
        write_po(fh, tmpl, width=100, omit_header=False, sort_output=False, include_lineno=False)
    for code in languages.available()[1:]:
        path = languages.catalogue_path(code)
        with path.open("rb") as fh:
            catalog = read_po(fh, locale=code, domain=DOMAIN)
        catalog.update(tmpl, no_fuzzy_matching=True)
        catalog.header_comment = f"# Pukllay's messages in {languages.ENGLISH.name_of(code)} ({code})."
        with path.open("wb") as fh:
            write_po(fh, catalog, width=100, ignore_obsolete=True, include_lineno=False)
        print(f"{path.relative_to(ROOT)}: {len(catalog)} messages")


def check() -> int:
    tmpl = template()
    messages = [(m.context, m.id) for m in tmpl if m.id]
    bad = 0
    for code in languages.available()[1:]:
        found = problems(code, messages)
        print(f"{code}: {len(messages) - len(found)} of {len(messages)} messages translated")
        for line in found:
            print("  " + line)
        bad += len(found)
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.i18n", description="Pukllay's catalogues")
    parser.add_argument("command", choices=("extract", "check"))
    args = parser.parse_args(argv)
    if args.command == "extract":
        extract()
        return 0
    return check()
