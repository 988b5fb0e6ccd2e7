"""The queue's tests: a fresh store of each back end, with a clock the tests move."""

import pytest


@pytest.fixture
async def store(database, clock):
    store = await database.open(clock)
    yield store
    await store.close()
