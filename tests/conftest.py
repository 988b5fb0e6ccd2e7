"""Shared fixtures: the Nim test game is registered for every test, and property tests run
under one fixed Hypothesis profile.

The profile ``ci`` (the default) is derandomized: Hypothesis draws its examples from a seed
fixed per test, and keeps no example database, so the same commit always runs the same
examples, on any machine, whatever ran before (a database in ``.hypothesis/`` would replay a
failure found once on one machine only, and new random draws would make a bug show up only
sometimes).  The odd inputs that matter are listed explicitly (tests/test_bad_input.py), so
they do not depend on luck.  To hunt for new failures, run with ``HYPOTHESIS_PROFILE=explore``
(random draws, more examples); put what it finds into the explicit lists.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

import engines

settings.register_profile("ci", derandomize=True, database=None, deadline=None, print_blob=True)
settings.register_profile("explore", derandomize=False, database=None, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

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
