"""One meaning for ``python -m bot``'s exit status, whatever it was asked to do (README: "Exit
status"): 1 when trying again later may succeed (a database server that cannot be reached), 2 when
a person must fix something first (a damaged database among them)."""

from __future__ import annotations

import pytest

from bot.storage import open_store
from tests.table.test_database_start import one_line, run_bot
from tests.table.util import open_lobbies


@pytest.mark.parametrize("args", [(), ("--check-database",), ("--migrate",)])
def test_an_unreachable_postgres_server_is_status_1_for_every_command(tmp_path, args):
    """No PostgreSQL server listens where DATABASE_URL points (its socket folder is empty): the
    start, the check and the upgrade each say so in one line and exit 1, as the service's unit
    expects of a server that may come back (it starts the bot again; status 2 would leave it
    stopped)."""
    url = f"postgresql://pukllay:hunter2@/pukllay?host={tmp_path}"
    proc = run_bot({"DATABASE_URL": url}, *args, cwd=tmp_path)
    line = one_line(proc)
    assert proc.returncode == 1, line
    assert "cannot reach PostgreSQL" in line and "hunter2" not in line


async def test_a_damaged_database_is_status_2_at_start_and_for_the_check(tmp_path):
    """A Pukllay database cut short: the bot refuses to start on it with status 2 (a backup to
    restore, nothing to try again), and --check-database says it is damaged with the same status."""
    whole = tmp_path / "whole.db"
    store = await open_store(whole)
    await open_lobbies(store, 30)
    await store.close()
    cut = tmp_path / "cut.db"
    cut.write_bytes(whole.read_bytes()[:8192])
    start = run_bot({"DATABASE_PATH": str(cut)}, cwd=tmp_path)
    check = run_bot({"DATABASE_PATH": str(cut)}, "--check-database", cwd=tmp_path)
    assert "damaged" in one_line(start) and "damaged" in one_line(check)
    assert (start.returncode, check.returncode) == (2, 2)


async def test_a_backup_without_a_file_name_or_into_a_folder_is_refused_clearly(tmp_path):
    """``--backup ""`` (a shell variable left empty) and ``--backup FOLDER``: one line saying what
    --backup needs, status 2, and no file is written."""
    db = tmp_path / "pukllay.db"
    await (await open_store(db)).close()
    folder = tmp_path / "backups"
    folder.mkdir()
    proc = run_bot({"DATABASE_PATH": str(db)}, "--backup", "", cwd=tmp_path)
    line = one_line(proc)
    assert proc.returncode == 2 and line.startswith("pukllay: --backup needs the name of a new file"), line
    proc = run_bot({"DATABASE_PATH": str(db)}, "--backup", str(folder), cwd=tmp_path)
    line = one_line(proc)
    assert proc.returncode == 2, line
    assert line == (
        f"pukllay: {folder} is a folder; name a new file in it for the copy, such as {folder / 'pukllay.db'}"
    )
    assert list(folder.iterdir()) == []
