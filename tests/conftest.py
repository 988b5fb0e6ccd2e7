"""Shared fixtures: the Nim test game, both storage back ends, a clock the tests move, and one
fixed Hypothesis profile for property tests.

``database`` is parametrized over the two back ends: a test that takes it (or a
fixture built on it, such as ``service`` in tests/table) runs once on a fresh
SQLite file and once on a fresh PostgreSQL database.  The PostgreSQL server is
started once per test session from the machine's installation (see
tests/support/pg.py) and removed at the end; each test gets its own database,
a copy of a migrated template (a copy a test is done with is made the template's again and
handed to the next test, unless the test changed its tables or triggers: then it is dropped).  Without PostgreSQL installed, the run stops
at once with one line saying how to install it.

The profile ``ci`` (the default) is derandomized: Hypothesis draws its examples from a seed
fixed per test, and keeps no example database, so the same commit always runs the same
examples, on any machine, whatever ran before (a database in ``.hypothesis/`` would replay a
failure found once on one machine only, and new random draws would make a bug show up only
sometimes).  The odd inputs that matter are listed explicitly (tests/test_bad_input.py), so
they do not depend on luck.  To hunt for new failures, run with ``HYPOTHESIS_PROFILE=explore``
(random draws, more examples); put what it finds into the explicit lists.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

import engines
from bot.storage import Store, open_store
from bot.time.source import ManualClock
from tests.support.pg import Cluster, Copies, NotInstalled, bindir

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

BACKENDS = ("sqlite", "postgres")


def needs_postgres(item: pytest.Item) -> bool:
    callspec = getattr(item, "callspec", None)
    on_postgres = callspec is not None and callspec.params.get("database") == "postgres"
    return on_postgres or "pg_cluster" in getattr(item, "fixturenames", ())


# The longest tests (node ids or their beginnings), longest first.  They run before the others, so
# that with the tests spread over several processes (pytest-xdist, ``--dist loadgroup``: one test
# handed out at a time, in this order) no process is left running a long test alone at the end.
# The order only affects the time a run takes, never a result; a test missing here just starts
# later.  ``--durations=60`` shows the current figures (the list below follows a whole run's).
LONGEST = (
    "tests/test_readme.py::test_every_command_runs_as_written",
    "tests/e2e/test_processes.py::test_two_shard_processes_share_one_database",
    "tests/table/test_pickers.py::test_every_move_is_reachable_within_discords_limits[pachakuna-2]",
    "tests/pachakuna/test_rules.py::test_legal_moves_match_apply_move[4]",
    "tests/pachakuna/test_rules.py::test_legal_moves_match_apply_move[0]",
    "tests/tiwanaku/test_sentences.py::test_every_event_of_many_games_is_a_kept_sentence[1-long]",
    "tests/table/test_computer_workers.py::test_the_clock_stops_the_search_between_simulations",
    "tests/test_style.py::test_types_are_clean",
    "tests/i18n/test_spanish_boards.py::test_every_board_in_spanish_draws_no_english_message[guacamole]",
    "tests/test_computer_levels.py::test_tiwanaku_hidden_maps_are_legal_or_flagged_approximate",
    "tests/pachakuna/test_rules.py::test_legal_moves_match_apply_move[2]",
    "tests/e2e/test_league.py::test_a_swiss_league_of_seven_in_three_player_guacamole",
    "tests/e2e/test_league_final.py",
    "tests/tiwanaku/test_sentences.py::test_every_event_of_many_games_is_a_kept_sentence[2-long]",
    "tests/pachakuna/test_sentences.py::test_every_refusal_on_a_game_is_a_kept_sentence[A-21]",
    "tests/test_colour_vision.py::test_the_gallery_draws_each_board_as_a_deficiency_sees_it",
    "tests/e2e/test_league_dutch.py",
    "tests/league/test_pairing.py::test_a_season_of_swiss_rounds_keeps_its_invariants",
    "tests/table/test_secrets.py::test_no_surface_shows_another_seats_secret[postgres-guacamole-3+1]",
    "tests/pachakuna/test_playouts.py::test_full_games_over_200_seeds",
    "tests/e2e/test_league_calendar.py::test_rounds_are_server_events_and_tables_are_forum_posts",
    "tests/guanga/test_playouts.py::test_random_playouts[apprentice",
    "tests/test_palettes.py::test_the_fast_writer_keeps_every_pixel[guacamole]",
    "tests/i18n/test_catalogues.py::test_every_marked_literal_is_in_the_template",
    "tests/table/test_secrets.py::test_no_surface_shows_another_seats_secret[postgres-nowa_gwinea-3+0]",
    "tests/table/test_results.py::test_animated_summary_",
    "tests/test_palettes.py::test_boards_keep_their_pixels_with_the_known_palette[guacamole]",
    "tests/nowa_gwinea/test_data.py::test_recorded_sizes_are_the_smallest_connected_villages",
    "tests/pachakuna/test_rules.py::test_legal_moves_match_apply_move",
    "tests/e2e/test_web.py",
    "tests/tiwanaku/test_playouts.py",
    "tests/i18n/test_spanish_boards.py::test_every_board_in_spanish_draws_no_english_message",
    "tests/table/test_computer_workers.py::test_a_search_by_count_in_a_worker",
    "tests/guanga/test_playouts.py::test_random_playouts",
    "tests/test_palettes.py",
    "tests/tiwanaku/test_sentences.py::test_every_event_of_many_games_is_a_kept_sentence",
    "tests/test_computer_levels.py",
    "tests/pachakuna/test_playouts.py",
    "tests/table/test_local_and_settings.py::test_the_tests_stop_in_one_line_without_postgresql",
    "tests/table/test_secrets.py::test_no_surface_shows_another_seats_secret[postgres",
    "tests/nowa_gwinea/test_playouts.py",
    "tests/queue/test_match.py::test_what_is_left_cannot_form_a_table_with_the_longest_waiting",
    "tests/pachakuna/test_ai.py",
    "tests/table/test_secrets.py",
    "tests/e2e/test_export.py",
    "tests/e2e/test_turns.py",
    "tests/guacamole/test_playouts.py",
    "tests/table/test_pickers.py",
    "tests/e2e/test_games.py",
    "tests/e2e/test_clocks.py",
)


def longest_first(item: pytest.Item) -> int:
    for rank, start in enumerate(LONGEST):
        if item.nodeid.startswith(start):
            return rank
    return len(LONGEST)


def pytest_collection_modifyitems(session, config, items):
    """Without PostgreSQL the run stops before any test, in one line that says how to install it
    (the PostgreSQL tests are never skipped silently).  The longest tests go first."""
    if any(needs_postgres(item) for item in items):
        try:
            bindir()
        except NotInstalled as exc:
            if hasattr(config, "workerinput"):
                # A pytest-xdist worker: stopping the session (rather than exiting the process)
                # lets the controlling process stop the run with this one line.
                session.shouldstop = str(exc)
                items[:] = []
                return
            pytest.exit(str(exc), returncode=1)
    items.sort(key=longest_first)  # stable: the rest keep their order


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "pukllay.db"


@pytest.fixture
def clock() -> ManualClock:
    """The table's clock, moved by the test (``clock.advance(3600)``) instead of sleeping."""
    return ManualClock()


@pytest.fixture(scope="session")
def pg_cluster():
    """One throw-away PostgreSQL server for the whole run (started on first use)."""
    try:
        cluster = Cluster().start()
    except NotInstalled as exc:
        pytest.exit(str(exc), returncode=1)
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def pg_template(pg_cluster) -> str:
    """A migrated database that each test's database is copied from."""

    async def make() -> str:
        name = await pg_cluster.create_database()
        store = await open_store(pg_cluster.url(name))
        await store.close()
        return name

    # Built in a thread of its own: the first test to need it may already be running an event loop.
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, make()).result()


@pytest.fixture(scope="session")
def pg_copies(pg_cluster, pg_template) -> Copies:
    """The template's copies the tests' databases are: a copy a test is done with is made the
    template's again for the next test, or dropped when the test changed its make-up (see
    tests/support/pg.py)."""
    return Copies(pg_cluster, pg_template)


@dataclass
class Database:
    """A fresh database of one back end: ``target`` is what ``open_store`` takes."""

    kind: str
    target: str

    async def open(self, clock=None) -> Store:
        return await open_store(self.target, clock=clock)

    async def execute(self, sql: str, *params: Any) -> None:
        """Run ``sql`` (``?`` placeholders) on the database directly, outside the store: for tests
        that damage rows by hand."""
        await self.fetch(sql, *params)

    async def fetch(self, sql: str, *params: Any) -> list[Any]:
        if self.kind == "sqlite":
            con = sqlite3.connect(self.target)
            try:
                rows = con.execute(sql, params).fetchall()
                con.commit()
                return rows
            finally:
                con.close()
        import asyncpg

        from bot.storage.postgres import numbered

        conn = await asyncpg.connect(self.target)
        try:
            return await conn.fetch(numbered(sql), *params)
        finally:
            await conn.close()

    @property
    def integrity_error(self) -> type[Exception]:
        """What the database raises when a trigger or a constraint refuses a raw write."""
        if self.kind == "sqlite":
            return sqlite3.IntegrityError
        import asyncpg

        return asyncpg.IntegrityConstraintViolationError


@pytest.fixture(params=BACKENDS)
async def database(request, tmp_path: Path):
    """A fresh, empty database: an SQLite file, or a PostgreSQL database on the session's server."""
    if request.param == "sqlite":
        yield Database("sqlite", str(tmp_path / "pukllay.db"))
        return
    copies = request.getfixturevalue("pg_copies")
    name = await copies.take()
    try:
        yield Database("postgres", copies.cluster.url(name))
    finally:
        await copies.give_back(name)
