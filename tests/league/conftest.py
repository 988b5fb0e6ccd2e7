"""League tests share the table's fixtures: a fresh database of each back end and the session
service, whose new games (a league's among them) draw their seeds from a seeded source."""

import random

import pytest

from bot.sessions import SessionService
from tests.table.conftest import store

__all__ = ["service", "store"]


@pytest.fixture
async def service(store):
    service = SessionService(store)
    seeds = random.Random(2026)
    service.new_seed = lambda: seeds.randrange(2**48)  # the same games on every run
    return service
