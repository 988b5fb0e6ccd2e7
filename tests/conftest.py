"""Shared fixtures: the Nim test game, both storage back ends, a clock the tests move, and one
fixed Hypothesis profile for property tests.

``database`` is parametrized over the two back ends: a test that takes it (or a
fixture built on it, such as ``service`` in tests/table) runs once on a fresh
SQLite file and once on a fresh PostgreSQL database.  The PostgreSQL server is
started once per test session from the machine's installation (see
tests/support/pg.py) and removed at the end; each test gets its own database,
a copy of a migrated template (a copy a test is done with is made the template's again and
handed to the next test, unless the test changed its tables or triggers: then it is dropped).  Without PostgreSQL installed, the run stops
at once with one line saying how to install it.  The stores of tests/table and tests/queue and the
end-to-end bots open an SQLite file that is likewise a copy of a migrated template
(``sqlite_template``, :func:`migrated`); ``database`` itself stays an empty file's path.

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
import shutil
import sqlite3
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from hypothesis import settings

import engines
from bot.storage import Store, open_store
from bot.time.source import ManualClock
from tests.support import seeds
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
    "tests/test_style.py::test_types_are_clean",
    "tests/e2e/test_league.py::test_a_swiss_league_of_seven_in_three_player_guacamole",
    "tests/tiwanaku/test_playouts.py::test_playouts[long]",
    "tests/nowa_gwinea/test_playouts.py::test_random_playouts[hard-each]",
    "tests/pachakuna/test_playouts.py::test_full_games_over_200_seeds[random]",
    "tests/e2e/test_league_calendar.py::test_rounds_are_server_events_and_tables_are_forum_posts_tagged_as_they_go",
    "tests/e2e/test_web.py::test_a_league_page_in_chromium",
    "tests/guacamole/test_playouts.py::test_random_playouts[1]",
    "tests/table/test_local_and_settings.py::test_the_tests_stop_in_one_line_without_postgresql",
    "tests/guacamole/test_playouts.py::test_random_playouts[0]",
    "tests/pachakuna/test_playouts.py::test_full_games_over_200_seeds[B]",
    "tests/test_computer_levels.py::test_every_level_returns_a_legal_move[guanga-3p-master]",
    "tests/e2e/test_league_dutch.py::test_twelve_players_of_pachakuna_paired_by_the_dutch_system",
    "tests/e2e/test_turns.py::test_guacamole_three_people_one_post_per_turn",
    "tests/table/test_pickers.py::test_every_move_is_reachable_within_discords_limits[pachakuna-2]",
    "tests/i18n/test_spanish_boards.py::test_every_board_in_spanish_draws_no_english_message[guanga]",
    "tests/pachakuna/test_playouts.py::test_full_games_over_200_seeds[A]",
    "tests/e2e/test_league_noshows.py::test_a_player_late_twice_is_dropped_and_a_substitute_plays_on",
    "tests/test_colour_vision.py::test_the_gallery_draws_each_board_as_a_deficiency_sees_it",
    "tests/e2e/test_export.py::test_export_of_a_whole_game_replays_to_its_result[pachakuna]",
    "tests/e2e/test_web.py::test_a_game_page_in_chromium",
    "tests/nowa_gwinea/test_playouts.py::test_random_playouts[variants-mixed]",
    "tests/nowa_gwinea/test_playouts.py::test_random_playouts[standard-shared]",
    "tests/test_computer_levels.py::test_every_level_returns_a_legal_move[guanga-2p-artisan]",
    "tests/league/test_pairing.py::test_a_season_of_swiss_rounds_keeps_its_invariants",
    "tests/test_computer_levels.py::test_every_level_returns_a_legal_move[tiwanaku-3p]",
    "tests/test_computer_levels.py::test_every_level_returns_a_legal_move[guanga-2p-apprentice-yes]",
    "tests/i18n/test_spanish_boards.py::test_every_board_in_spanish_draws_no_english_message[guacamole]",
    "tests/e2e/test_turns.py::test_nowa_gwinea_pings_everyone_at_each_round_start",
    "tests/table/test_menu_steps.py::test_every_step_one_select_of_at_most_25_every_move_reachable[pachakuna]",
    "tests/e2e/test_turns.py::test_tiwanaku_two_people_one_post_per_turn",
    "tests/test_palettes.py::test_boards_keep_their_pixels_with_the_known_palette[guacamole]",
    "tests/e2e/test_export.py::test_export_of_a_whole_game_replays_to_its_result[guacamole]",
    "tests/e2e/test_league_season.py::test_a_season_with_absences_a_late_join_a_bye_a_drop_and_a_substitute",
    "tests/test_palettes.py::test_the_fast_writer_keeps_every_pixel[guacamole]",
    "tests/guanga/test_playouts.py::test_random_playouts[artisan-False]",
    "tests/table/test_database_start.py::test_postgres_at_start_one_line_each",
    "tests/tiwanaku/test_sentences.py::test_every_event_of_many_games_is_a_kept_sentence[1-long]",
    "tests/e2e/test_web.py::test_a_profile_page_and_a_server_turning_its_pages_off",
    "tests/test_palettes.py::test_boards_keep_their_pixels_with_the_known_palette[guanga]",
    "tests/e2e/test_export.py::test_export_of_a_whole_game_replays_to_its_result[guanga]",
    "tests/guanga/test_playouts.py::test_random_playouts[apprentice-True]",
    "tests/test_computer_levels.py::test_every_level_returns_a_legal_move[guacamole-4p]",
)


def pytest_terminal_summary(terminalreporter) -> None:
    """Which part of each long playout's seeds this run played (tests/support/seeds.py), said at
    the end of every run, ``-q`` too, beside its failures."""
    terminalreporter.write_line(seeds.header())


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


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def shared_chromium() -> AsyncIterator[object]:
    """The test process's headless Chromium (``PUKLLAY_CHROMIUM``, tests/web/conftest.py), started
    on first use: one for the browser tests of tests/web and tests/e2e/test_web.py alike, which
    run in the session's event loop (Playwright's objects belong to the loop that made them)."""
    from playwright.async_api import async_playwright

    from tests.web.conftest import CHROMIUM

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM)
        try:
            yield browser
        finally:
            await browser.close()


@pytest_asyncio.fixture(loop_scope="session")
async def chromium(shared_chromium) -> AsyncIterator[object]:
    """The shared Chromium; the contexts (and their pages) a test opened are closed after it, so
    no test sees another's cookies or pages."""
    assert not shared_chromium.contexts, "a browser test left a context open"
    yield shared_chromium
    for context in list(shared_chromium.contexts):
        await context.close()


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


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory) -> Path:
    """A migrated SQLite file, made once per test process, that a test's fresh database may be a
    copy of (:func:`migrated`): running every migration on a new file takes several times as
    long as copying the result."""
    path = tmp_path_factory.mktemp("template") / "pukllay.db"

    async def make() -> None:
        await (await open_store(str(path))).close()

    # Built in a thread of its own: the first test to need it may already be running an event loop.
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, make()).result()
    return path


def migrated(request: pytest.FixtureRequest, path: str | Path) -> None:
    """Put a copy of the migrated template at ``path``, an SQLite file not made yet, for a test
    that opens it as the bot would a new database (the same tables, indexes, triggers and rows)
    and is not about what a new file's first opening does."""
    if not os.path.exists(path):
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)


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


async def fresh_database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    """The body of :func:`database` (tests/web runs it in its own event loop)."""
    if request.param == "sqlite":
        yield Database("sqlite", str(tmp_path / "pukllay.db"))
        return
    copies = request.getfixturevalue("pg_copies")
    name = await copies.take()
    try:
        yield Database("postgres", copies.cluster.url(name))
    finally:
        await copies.give_back(name)


@pytest.fixture(params=BACKENDS)
async def database(request, tmp_path: Path):
    """A fresh, empty database: an SQLite file, or a PostgreSQL database on the session's server."""
    async for db in fresh_database(request, tmp_path):
        yield db
