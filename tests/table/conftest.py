"""The session service on a fresh SQLite file, for the table's tests."""

import pytest

from bot.sessions import SessionService
from bot.storage import Store


@pytest.fixture
async def service(db_path):
    store = await Store.open(db_path)
    yield SessionService(store)
    await store.close()
