"""The session service on a fresh database of each back end, with a clock the tests move, whose
new games draw their seeds from a seeded source."""

import random
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


def seeded(store: Store) -> SessionService:
    """The session service on ``store``; the games it opens without a seed of their own (a league's
    among them) draw one from a seeded source, so that they are the same games on every run."""
    service = SessionService(store)
    seeds = random.Random(2026)
    service.new_seed = lambda: seeds.randrange(2**48)
    return service


@pytest.fixture
async def service(store):
    return seeded(store)


@pytest.fixture(autouse=True)
def _terminal_writes_elsewhere(request, monkeypatch):
    """The terminal table's tests run in a folder of their own: its default ``--out`` (boards and
    exports) lands there, not in the checkout."""
    if request.module.__name__.rsplit(".", 1)[-1].startswith("test_local"):
        monkeypatch.chdir(request.getfixturevalue("tmp_path"))
