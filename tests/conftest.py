"""Shared fixtures: the Nim test game is registered for every test."""

from __future__ import annotations

import pytest

import engines

NIM = engines.GameInfo(
    name="nim",
    title="Nim",
    engine="tests.support.nim",
    renderer="tests.support.nim_render",
    min_players=1,
    max_players=4,
)
engines.register(NIM)


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "pukllay.db"
