"""The session service on a fresh database of each back end, with a clock the tests move."""

import pytest

from bot.sessions import SessionService


@pytest.fixture
async def store(database, clock):
    store = await database.open(clock)
    yield store
    await store.close()


@pytest.fixture
async def service(store):
    return SessionService(store)
