"""The catalogue template as the code makes it, built once per test process.

Building it (``bot.i18n.catalogue.template``) extracts every marked message from the code and
starts the bot to read its slash commands: about a second of work that three test modules and the
Spanish boards' check each needed.  Their tests only read it, so one copy serves them all; a test
that changes the code or the commands calls ``catalogue.template()`` itself.
"""

from __future__ import annotations

from functools import cache

from babel.messages.catalog import Catalog

from bot.i18n import catalogue


@cache
def template() -> Catalog:
    return catalogue.template()
