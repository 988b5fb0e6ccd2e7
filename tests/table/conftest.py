"""The session service on a fresh database of each back end, with a clock the tests move."""

from collections.abc import AsyncIterator

import pytest

from bot.sessions import SessionService
from bot.storage import Store
from bot.time.source import ManualClock
from tests.conftest import Database, migrated


async def opened_store(
    request: pytest.FixtureRequest, database: Database, clock: ManualClock
) -> AsyncIterator[Store]:
    """The body of :func:`store` (tests/web runs it in its own event loop)."""
    if database.kind == "sqlite":
        migrated(request, database.target)  # a copy of the migrated template, as PostgreSQL's are
    store = await database.open(clock)
    yield store
    await store.close()


@pytest.fixture
async def store(request, database, clock):
    async for opened in opened_store(request, database, clock):
        yield opened


@pytest.fixture
async def service(store):
    return SessionService(store)


@pytest.fixture(autouse=True)
def _terminal_writes_elsewhere(request, monkeypatch):
    """The terminal table's tests run in a folder of their own: its default ``--out`` (boards and
    exports) lands there, not in the checkout."""
    if request.module.__name__.rsplit(".", 1)[-1].startswith("test_local"):
        monkeypatch.chdir(request.getfixturevalue("tmp_path"))
