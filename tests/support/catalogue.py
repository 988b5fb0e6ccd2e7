"""The catalogue template as the code makes it, built once per test process.

Building it (``bot.i18n.catalogue.template``) extracts every marked message from the code and
starts the bot to read its slash commands: about a second of work that three test modules and the
Spanish boards' check each needed.  Their tests only read it, so one copy serves them all; a test
that changes the code or the commands calls ``catalogue.template()`` itself.  Building it runs
the bot's setup with ``asyncio.run``: asked for inside a running event loop (an async test), it is
built in a thread of its own; an async test module better asks for it in a synchronous fixture
first, so that its event loop is not held up.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from functools import cache

from babel.messages.catalog import Catalog

from bot.i18n import catalogue


@cache
def template() -> Catalog:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return catalogue.template()
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(catalogue.template).result()
