"""The pages in a real headless Chromium (Playwright driving Debian's ``chromium``; ``.ci/run``
installs it when missing), served from a stored game or league on each back end: no Discord."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator

import pytest

from tests.table.conftest import service, store  # noqa: F401  (the table's fixtures)

CHROMIUM = os.environ.get("PUKLLAY_CHROMIUM", "/usr/bin/chromium")

needs_chromium = pytest.mark.skipif(
    not shutil.which(CHROMIUM),
    reason=f"no Chromium at {CHROMIUM}: install Debian's chromium (apt-get install chromium), as .ci/run does",
)


@pytest.fixture
async def chromium() -> AsyncIterator[object]:
    """A headless Chromium, closed after the test."""
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM)
        try:
            yield browser
        finally:
            await browser.close()
