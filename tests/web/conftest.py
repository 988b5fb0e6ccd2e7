"""The pages in a real headless Chromium (Playwright driving Debian's ``chromium``; ``.ci/run``
installs it when missing), served from a stored game or league on each back end: no Discord.

One Chromium serves every browser test of a test process, here and in tests/e2e/test_web.py
(starting Playwright and the browser costs about two seconds, more than most of these tests' own
work): the ``chromium`` fixture (tests/conftest.py).  The tests here and their fixtures run in the
session's event loop (``BROWSER_LOOP``; Playwright's objects belong to the loop that made them),
and each test closes the browser contexts it opened, so the next one starts with none."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.sessions import SessionService
from bot.storage import Store
from bot.time.source import ManualClock
from tests.conftest import BACKENDS, Database, fresh_database
from tests.table.conftest import opened_store, seeded

CHROMIUM = os.environ.get("PUKLLAY_CHROMIUM", "/usr/bin/chromium")

needs_chromium = pytest.mark.skipif(
    not shutil.which(CHROMIUM),
    reason=f"no Chromium at {CHROMIUM}: install Debian's chromium (apt-get install chromium), as .ci/run does",
)

# The marks of every test here: in the browser's loop, and only where the browser is.
BROWSER_LOOP = pytest.mark.asyncio(loop_scope="session")
BROWSER_TESTS = [pytest.mark.browser, needs_chromium, BROWSER_LOOP]

# axe-core's options, as axe-playwright-python's ``Axe().run(page)`` passes them by default.
AXE_OPTIONS = {"resultTypes": ["violations"]}


async def axe_violations(page) -> list[dict]:
    """axe-core's violations on ``page``: axe-core (bundled in ``axe-playwright-python``) put in
    the page and run with that package's default options, as its ``Axe().run(page)`` does, but
    only the violations brought back from the browser, not every rule's passes and the rules that
    did not apply, which the tests never read (sending them back and decoding them took about a
    seventh to a fifth of an audit's time)."""
    from axe_playwright_python.base import AXE_SCRIPT

    await page.evaluate(AXE_SCRIPT)
    return await page.evaluate(f"axe.run({json.dumps(AXE_OPTIONS)}).then(results => results.violations)")


# A test of how a page lies out in the browser (widths, wrapping, overlaps at a phone's width): the
# page is the same text whichever back end stored the game (the tests of what the pages say run on
# both), so such a test runs on SQLite alone, where a browser test costs its time twice.
LAYOUT_ONLY = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


# The table's fixtures (tests/conftest.py, tests/table/conftest.py) in the browser's loop.
@pytest_asyncio.fixture(params=BACKENDS, loop_scope="session")
async def database(request, tmp_path: Path) -> AsyncIterator[Database]:
    async for db in fresh_database(request, tmp_path):
        yield db


@pytest_asyncio.fixture(loop_scope="session")
async def store(request, database: Database, clock: ManualClock) -> AsyncIterator[Store]:
    async for opened in opened_store(request, database, clock):
        yield opened


@pytest_asyncio.fixture(loop_scope="session")
async def service(store: Store) -> SessionService:
    return seeded(store)
