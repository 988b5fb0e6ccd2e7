"""The queue's tests: a fresh store of each back end, with a clock the tests move."""

import pytest

from tests.conftest import migrated


@pytest.fixture
async def store(request, database, clock):
    if database.kind == "sqlite":
        migrated(request, database.target)  # a copy of the migrated template, as PostgreSQL's are
    store = await database.open(clock)
    yield store
    await store.close()
