"""The database at start: each problem one clear line, before the bot logs in; the full check on demand."""

from __future__ import annotations

import functools
import os
import re
import shutil
import site
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

import pytest

from bot.storage import SCHEMA_VERSION, StorageError, open_store
from tests.table.util import open_lobbies

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
TOKEN = (
    "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.not-a-real-token-only-the-shape-of-one"  # the database is refused first
)


def run_bot(
    env_extra: dict[str, str], *args: str, cwd: Path, user: int | None = None
) -> subprocess.CompletedProcess:
    """``python -m bot`` in ``cwd`` (as another user when ``user`` is given)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    env |= {"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": TOKEN, **env_extra}
    command = [PYTHON, "-m", "bot", *args]
    if user is not None:
        command = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *command]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def one_line(proc: subprocess.CompletedProcess) -> str:
    lines = [line for line in (proc.stdout + proc.stderr).splitlines() if line.strip()]
    assert "Traceback" not in proc.stderr, proc.stderr
    assert len(lines) == 1, lines
    return lines[0]


def test_a_folder_as_database_path_is_refused_before_login(tmp_path):
    """DATABASE_PATH naming a folder: one line, exit 2, and Discord is never contacted."""
    folder = tmp_path / "data"
    folder.mkdir()
    proc = run_bot({"DATABASE_PATH": str(folder)}, cwd=tmp_path)
    line = one_line(proc)
    assert proc.returncode == 2 and "is a folder" in line and str(folder) in line
    assert "Discord" not in line  # the database was checked first: no login was attempted


def test_a_database_refused_at_start_is_said_before_discord_py_loads(tmp_path):
    """The database is opened before the bot's Discord side is loaded: a refusal comes without
    waiting for discord.py (a third of a second of imports) and names no Discord problem."""
    folder = tmp_path / "data"
    folder.mkdir()
    probe = (
        "import sys\n"
        "from bot.__main__ import main\n"
        "code = main([])\n"
        "print(code, [name for name in ('discord', 'aiohttp', 'bot.app') if name in sys.modules])\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    env |= {"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(folder)}
    proc = subprocess.run(
        [PYTHON, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert "is a folder" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stdout.split() == ["2", "[]"], proc.stdout


def test_a_login_refused_after_the_database_opened_is_one_line(capsys):
    """What ``python -m bot`` says when Discord refuses it once the database is open: one line
    each and an exit status; another error is left to raise."""
    import aiohttp
    import discord

    from bot.__main__ import refused_at_login

    assert refused_at_login(discord.LoginFailure("no")) == 2
    assert refused_at_login(ConnectionRefusedError("refused")) == 1
    assert refused_at_login(aiohttp.ClientPayloadError("cut")) == 1
    assert refused_at_login(ValueError("a bug")) is None
    lines = capsys.readouterr().err.splitlines()
    assert lines == [
        "pukllay: Discord refused DISCORD_TOKEN; reset the token in the developer portal.",
        "pukllay: cannot reach Discord (ConnectionRefusedError: refused); check the network.",
        "pukllay: cannot reach Discord (ClientPayloadError: cut); check the network.",
    ]


def test_not_a_database_is_refused_in_one_line(tmp_path):
    """A file that is not SQLite: one line naming the file, no traceback."""
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"hello, this is not a database" * 300)
    proc = run_bot({"DATABASE_PATH": str(bad)}, cwd=tmp_path)
    line = one_line(proc)
    assert proc.returncode == 2 and "not a Pukllay database" in line and str(bad) in line


async def test_newer_schema_is_refused_in_one_line(tmp_path):
    path = tmp_path / "new.db"
    store = await open_store(path)
    await store.close()
    con = sqlite3.connect(path)
    con.execute("INSERT INTO schema_migrations VALUES (?, 'future', 'x')", (SCHEMA_VERSION + 1,))
    con.commit()
    con.close()
    proc = run_bot({"DATABASE_PATH": str(path)}, cwd=tmp_path)
    assert proc.returncode == 2 and "newer Pukllay" in one_line(proc)


@pytest.fixture
def shared_dir():
    """A folder every user can enter (pytest's own temporary folders are private to their owner)."""
    folder = Path(tempfile.mkdtemp(prefix="pukllay-perm-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


NOBODY = 65534
FALLBACK_MODULES = ("discord", "asyncpg", "PIL", "openskill", "babel")


def _normal(name: str) -> str:
    """A distribution's name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def dependency_modules() -> list[str]:
    """The top-level modules of the bot's installed dependencies (its own metadata's, without
    the extras), those that ``python -m bot`` imports from the interpreter's environment."""
    try:
        required = metadata.requires("pukllay") or []
    except metadata.PackageNotFoundError:
        return list(FALLBACK_MODULES)
    wanted = {_normal(re.split(r"[\s<>=!~;\[(]", r, maxsplit=1)[0]) for r in required if "extra ==" not in r}
    found = sorted(
        module
        for module, owners in metadata.packages_distributions().items()
        if module.isidentifier() and not module.startswith("_") and {_normal(o) for o in owners} & wanted
    )
    return found or list(FALLBACK_MODULES)


def environment_problem(user: int, modules: Sequence[str], path: Sequence[str] = ()) -> str | None:
    """Why ``user`` could not import ``modules`` with this interpreter (``path`` put first on its
    module path), in one line; ``None`` when it can.  The checkout may be readable by everyone
    while the interpreter's environment (a virtual environment, its site-packages) is not."""
    probe = "import importlib, sys\nfor name in sys.argv[1:]:\n    importlib.import_module(name)\n"
    command = [
        "setpriv",
        f"--reuid={user}",
        f"--regid={user}",
        "--clear-groups",
        PYTHON,
        "-c",
        probe,
        *modules,
    ]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    if path:
        env["PYTHONPATH"] = os.pathsep.join(path)
    proc = subprocess.run(command, cwd="/", env=env, capture_output=True, text=True, timeout=120)
    if proc.returncode == 0:
        return None
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    why = lines[-1] if lines else f"exit status {proc.returncode}"
    places = ", ".join([*path, *site.getsitepackages()]) or sys.prefix
    return f"the interpreter's environment ({places}) is not readable by user {user}: {why}"


@functools.cache
def bot_environment_problem() -> str | None:
    """:func:`environment_problem` for 'nobody' and the bot's dependencies, probed once a run."""
    return environment_problem(NOBODY, dependency_modules())


def unprivileged() -> int | None:
    """A user id that file permissions apply to: ours, unless we are root (then 'nobody')."""
    if os.geteuid() != 0:
        return None
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: file permissions cannot be tested")
    for place in (ROOT, Path(sys.executable).parent, *ROOT.parents):
        if place.stat().st_mode & 0o005 != 0o005:  # 'nobody' could not run the bot from here
            pytest.skip(
                f"{place} is private to its owner: another user cannot run the bot from this checkout"
            )
    problem = bot_environment_problem()
    if problem is not None:
        pytest.skip(f"{problem}; another user cannot run the bot with this interpreter")
    return NOBODY


def test_the_environment_check_finds_modules_another_user_cannot_read(shared_dir):
    """The check behind the skips above: a module in a folder private to its owner cannot be
    imported by 'nobody' (and the reason names the folder and the import error); the same
    folder opened to everyone can."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to run a probe as another user")
    folder = shared_dir / "site"
    folder.mkdir()
    (folder / "pukllay_probe_dependency.py").write_text("VALUE = 1\n")
    folder.chmod(0o700)
    problem = environment_problem(NOBODY, ["pukllay_probe_dependency"], [str(folder)])
    assert problem is not None and str(folder) in problem
    assert "No module named 'pukllay_probe_dependency'" in problem or "Permission" in problem, problem
    folder.chmod(0o755)
    assert environment_problem(NOBODY, ["pukllay_probe_dependency"], [str(folder)]) is None
    assert "discord" in dependency_modules()


async def test_read_only_file_is_reported_as_read_only(shared_dir):
    """A database file the bot may not write is called read-only, not damaged."""
    user = unprivileged()
    path = shared_dir / "pukllay.db"
    store = await open_store(path)
    await store.close()
    for p in shared_dir.iterdir():
        p.chmod(0o444)
    if user is not None:
        shutil.chown(shared_dir, user=user, group=user)
    proc = run_bot({"DATABASE_PATH": str(path)}, cwd=shared_dir, user=user)
    line = one_line(proc)
    assert proc.returncode == 2 and "read-only" in line and "damaged" not in line


async def test_folder_not_writable_is_named(shared_dir):
    """A new database in a folder the bot cannot write: the folder is named, in one line."""
    user = unprivileged()
    folder = shared_dir / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    proc = run_bot({"DATABASE_PATH": str(folder / "pukllay.db")}, cwd=shared_dir, user=user)
    line = one_line(proc)
    assert proc.returncode == 2 and "not writable" in line and str(folder) in line


async def test_store_open_errors_are_storage_errors(tmp_path):
    """In the library too, a folder path is a StorageError (one line), never an OSError traceback."""
    with pytest.raises(StorageError, match="is a folder"):
        await open_store(tmp_path)


async def test_a_database_in_a_folder_that_did_not_exist_is_made_and_said(tmp_path, caplog):
    """DATABASE_PATH in folders that do not exist yet (a typo, often) gets them made with a new, empty
    database, and one warning says so; the next start, the folder there, says nothing."""
    import logging

    caplog.set_level(logging.WARNING, logger="bot.storage")
    path = tmp_path / "var" / "lib" / "pukllya" / "pukllay.db"
    await (await open_store(path)).close()
    said = [r.getMessage() for r in caplog.records if r.name.startswith("bot.storage")]
    assert said == [
        f"the folder {path.parent} did not exist: it is made, with a new, empty database pukllay.db"
    ]
    caplog.clear()
    await (await open_store(path)).close()
    assert not [r for r in caplog.records if r.name.startswith("bot.storage")]


async def test_check_database_flag_runs_the_full_check(tmp_path):
    """python -m bot --check-database runs SQLite's integrity check, prints the verdict, and does not log in."""
    path = tmp_path / "ok.db"
    store = await open_store(path)
    assert await store.check_integrity() == []
    await store.close()
    env = {"DATABASE_PATH": str(path), "DISCORD_TOKEN": ""}
    proc = run_bot(env, "--check-database", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "integrity check" in proc.stdout and "ok" in proc.stdout
    proc = run_bot(env, "--help", cwd=tmp_path)
    assert proc.returncode == 0 and "--check-database" in proc.stdout


async def test_check_database_reports_damage(tmp_path):
    """A damaged index is found by the full check and reported; the exit status says so."""
    path = tmp_path / "hurt.db"
    store = await open_store(path)
    await open_lobbies(store, 30)
    await store.close()
    con = sqlite3.connect(path)
    con.execute("PRAGMA writable_schema = ON")
    # Point the channel index at the wrong column: every entry now disagrees with its row.
    con.execute(
        "UPDATE sqlite_master SET sql = replace(sql, '(channel_id)', '(host_id)')"
        " WHERE name = 'sessions_one_live_per_channel'"
    )
    con.commit()
    con.close()
    proc = run_bot({"DATABASE_PATH": str(path)}, "--check-database", cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr  # a backup to restore: status 2
    assert "problem" in (proc.stdout + proc.stderr)


def test_a_second_process_on_one_sqlite_file_is_refused(tmp_path):
    """While one process has the SQLite file open, a second `python -m bot` on it is refused in one
    line that points to PostgreSQL; once the first has stopped, the file opens again."""
    path = tmp_path / "shared.db"
    holder = subprocess.Popen(
        [
            PYTHON,
            "-c",
            "import asyncio, sys\n"
            "from bot.storage import open_store\n"
            "async def main():\n"
            f"    store = await open_store({str(path)!r})\n"
            "    print('open', flush=True)\n"
            "    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)\n"
            "    await store.close()\n"
            "asyncio.run(main())\n",
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "open"
        proc = run_bot({"DATABASE_PATH": str(path)}, "--check-database", cwd=tmp_path)
        line = one_line(proc)
        assert proc.returncode == 2 and "in use by another Pukllay process" in line
        assert "PostgreSQL" in line and "DATABASE_URL" in line and str(path) in line
    finally:
        holder.communicate("stop\n", timeout=60)
    assert holder.returncode == 0
    proc = run_bot({"DATABASE_PATH": str(path)}, "--check-database", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr


async def test_one_process_cannot_open_the_file_twice(db_path):
    """The lock is per opening: the same process opening the file again is refused too, and closing frees it."""
    store = await open_store(db_path)
    with pytest.raises(StorageError, match="in use by another Pukllay process"):
        await open_store(db_path)
    await store.close()
    await (await open_store(db_path)).close()


async def test_postgres_at_start_one_line_each(pg_cluster, tmp_path):
    """With DATABASE_URL: a server that is not there, and a newer schema, are each one line before login;
    --check-database runs the PostgreSQL check."""
    nowhere = f"postgresql://pukllay:hunter2@/pukllay?host={tmp_path}"
    proc = run_bot({"DATABASE_URL": nowhere}, cwd=tmp_path)
    line = one_line(proc)
    assert proc.returncode == 1 and "cannot reach PostgreSQL" in line and "hunter2" not in line
    name = await pg_cluster.create_database()
    url = pg_cluster.url(name)
    try:
        await (await open_store(url)).close()  # the check changes nothing: the bot creates the tables
        proc = run_bot({"DATABASE_URL": url}, "--check-database", cwd=tmp_path)
        assert proc.returncode == 0 and "PostgreSQL check found no problem" in proc.stdout, proc.stderr
        import asyncpg

        conn = await asyncpg.connect(url)
        await conn.execute("INSERT INTO schema_migrations VALUES ($1, 'future', 'x')", SCHEMA_VERSION + 1)
        await conn.close()
        proc = run_bot({"DATABASE_URL": url}, cwd=tmp_path)
        assert proc.returncode == 2 and "newer Pukllay" in one_line(proc)
    finally:
        await pg_cluster.drop_database(name)


def test_database_url_must_be_postgres(tmp_path):
    proc = run_bot({"DATABASE_URL": "mysql://x@y/z"}, cwd=tmp_path)
    assert proc.returncode == 2 and "DATABASE_URL must be a PostgreSQL URL" in one_line(proc)


async def test_check_database_reports_a_truncated_file_as_damage(tmp_path):
    """A Pukllay database cut short (a full disk, a copy stopped half-way) is damage, as the
    README's table says: one line naming the file and "damaged" (restore a backup), not "not a
    Pukllay database" (another program's file), status 2, and the file is left as it was."""
    whole = tmp_path / "whole.db"
    store = await open_store(whole)
    await open_lobbies(store, 30)
    await store.close()
    data = whole.read_bytes()
    for size in (100, 8192, len(data) // 2):
        cut = tmp_path / f"cut-{size}.db"
        cut.write_bytes(data[:size])
        proc = run_bot({"DATABASE_PATH": str(cut)}, "--check-database", cwd=tmp_path)
        line = one_line(proc)
        assert proc.returncode == 2, (size, line)
        assert str(cut) in line and "damaged" in line and "restore a backup" in line, line
        assert cut.read_bytes() == data[:size]
    # A file that is not SQLite at all stays another program's file: status 2.
    other = tmp_path / "other.db"
    other.write_bytes(b"hello, this is not a database" * 300)
    proc = run_bot({"DATABASE_PATH": str(other)}, "--check-database", cwd=tmp_path)
    assert proc.returncode == 2 and "not a Pukllay database" in one_line(proc)


@pytest.mark.parametrize("args", [(), ("--check-database",), ("--migrate",)])
@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "[::1]", "db1:5432,localhost"])
def test_a_database_url_port_out_of_range_is_one_line(tmp_path, args, host):
    """DATABASE_URL with a port past 65535 (a typo such as 543222) is refused in one line naming
    the port, never the password, status 2 (a setting to fix): not an OverflowError's traceback,
    nor, at a host name, a try at the port the resolver makes of it (543222 % 65536) for ever."""
    proc = run_bot(
        {"DATABASE_URL": f"postgresql://pukllay:hunter2@{host}:543222/pukllay"}, *args, cwd=tmp_path
    )
    line = one_line(proc)
    assert proc.returncode == 2, line
    assert "DATABASE_URL's port must be 0-65535, got '543222'" in line
    assert "hunter2" not in line


def test_a_password_given_as_a_url_parameter_is_never_shown(tmp_path):
    """DATABASE_URL may carry its password as a query parameter (?password=..., as libpq and
    asyncpg take it): the one line naming an unreachable server, and --check-database's, leave it
    out, and keep the other parameters."""
    url = f"postgresql://pukllay@/pukllay?host={tmp_path}&Password=hunter2&sslpassword=swordfish"
    for args in ((), ("--check-database",)):
        line = one_line(run_bot({"DATABASE_URL": url}, *args, cwd=tmp_path))
        assert f"postgresql://pukllay@/pukllay?host={tmp_path} " in line, line
        assert "hunter2" not in line and "swordfish" not in line, line


@pytest.mark.parametrize("args", [(), ("--check-database",), ("--migrate",), ("--backup", "copy.db")])
def test_a_database_path_the_system_will_not_look_up_is_one_line(tmp_path, args):
    """A DATABASE_PATH whose name is too long for the file system is refused in one line, status 2;
    at start it used to be taken for the network ('cannot reach Discord ...; check the network',
    status 1, which the service restarts every 10 s)."""
    path = str(tmp_path / ("a" * 300 + ".db"))
    proc = run_bot({"DATABASE_PATH": path}, *args, cwd=tmp_path)
    line = one_line(proc)
    assert proc.returncode == 2, line
    assert line.startswith(f"pukllay: cannot look up DATABASE_PATH {path} (File name too long)"), line
    assert "Discord" not in line


async def test_a_database_in_a_folder_the_bot_cannot_enter_is_one_line(shared_dir):
    """DATABASE_PATH in a folder private to another user (/root/pukllay.db for the service's user):
    one line naming the path and the permissions, status 2, not 'cannot reach Discord' (status 1)
    at start nor 'no such file' from --migrate and --backup."""
    user = unprivileged()
    if user is None and os.geteuid() == 0:
        pytest.skip("root enters every folder")
    private = shared_dir / "private"
    private.mkdir(mode=0o700)
    await (await open_store(private / "pukllay.db")).close()
    backup = str(shared_dir / "copy.db")
    for args in ((), ("--check-database",), ("--migrate",), ("--backup", backup)):
        proc = run_bot({"DATABASE_PATH": str(private / "pukllay.db")}, *args, cwd=shared_dir, user=user)
        line = one_line(proc)
        assert proc.returncode == 2, line
        assert f"cannot look up DATABASE_PATH {private / 'pukllay.db'} (Permission denied)" in line, line


@pytest.mark.parametrize("password", ["zq/xw", "zq?xw", "zq#xw", "zq@xw"])
def test_a_password_with_a_reserved_character_is_refused_without_showing_it(tmp_path, password):
    """A DATABASE_URL whose password holds @, /, ? or # as it is: one line, exit 2 (a person must
    write it percent-encoded), and no part of the password in it (the driver would have taken
    what follows the character for the host, the database or the options, and said so)."""
    proc = run_bot({"DATABASE_URL": f"postgresql://ann:{password}@localhost/pukllay"}, cwd=tmp_path)
    line = one_line(proc)
    assert proc.returncode == 2, line
    assert "percent-encoded" in line and "%40" in line
    assert "zq" not in line and "xw" not in line


def test_a_percent_encoded_password_passes_the_settings():
    from bot.settings import Settings

    url = "postgresql://ann:p%40s%2Fs%3F%23@localhost:5432/pukllay?sslmode=disable"
    assert Settings.from_env({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": url}, dotenv=None).database_url == url


def test_a_postgres_server_that_cannot_take_the_bot_for_now_is_worth_another_try():
    """A server starting, stopping or with every connection taken may take the bot later (exit
    status 1, started again); a refused login or a missing database needs a person (status 2)."""
    import asyncpg

    from bot.storage import Unreachable
    from bot.storage.postgres import StoppedAnswering, failure

    for now in (
        asyncpg.CannotConnectNowError("the database system is shutting down"),
        asyncpg.CannotConnectNowError("the database system is starting up"),
        asyncpg.TooManyConnectionsError("sorry, too many clients already"),
        ConnectionRefusedError(111, "Connection refused"),
    ):
        refused = failure("postgresql://pukllay@db/pukllay", now)
        assert isinstance(refused, Unreachable), now
        assert "that the server runs" in str(refused), refused
    for person in (asyncpg.InvalidPasswordError("no"), asyncpg.InvalidCatalogNameError("no such database")):
        assert not isinstance(failure("postgresql://pukllay@db/pukllay", person), Unreachable), person
    assert issubclass(StoppedAnswering, Unreachable)  # stopped answering as the bot ran: status 1 too


def test_a_postgres_server_shutting_down_as_the_bot_starts_is_worth_another_try(tmp_path):
    """A smart shutdown waits for its last client, refusing new connections meanwhile, as a server
    starting up (recovering) does: the bot, --check-database and --migrate each say so in one line
    and exit 1, so that the service starts the bot again."""
    import asyncio

    import asyncpg

    from tests.support.pg import Cluster

    cluster = Cluster().start()
    try:
        name = asyncio.run(cluster.create_database())
        url = cluster.url(name)

        async def held_while_stopping() -> list[subprocess.CompletedProcess]:
            await (await open_store(url, upgrade=True)).close()
            held = await asyncpg.connect(cluster.url())
            try:
                cluster._run(
                    str(cluster.bin / "pg_ctl"), "-D", str(cluster.data), "-m", "smart", "-W", "stop"
                )
                while True:  # (the shutdown begins at once; its refusals with it)
                    try:
                        probe = await asyncpg.connect(url)
                    except asyncpg.CannotConnectNowError:
                        break
                    await probe.close()
                return [
                    await asyncio.to_thread(run_bot, {"DATABASE_URL": url}, *args, cwd=tmp_path)
                    for args in ((), ("--check-database",), ("--migrate",))
                ]
            finally:
                await held.close()

        for proc in asyncio.run(held_while_stopping()):
            line = one_line(proc)
            assert proc.returncode == 1 and "shutting down" in line and "Traceback" not in proc.stderr, line
    finally:
        cluster.stop()


def test_the_drivers_tries_to_reconnect_are_one_line_each(caplog):
    """While PostgreSQL is down the driver's pool warns at each try to open its connections again,
    with the whole traceback: one line each here, naming the error, so an outage does not read as
    crashes (the bot's own line says what is wrong)."""
    import logging

    import bot.storage.postgres  # noqa: F401 - the PostgreSQL back end, which installs the filter

    caplog.set_level(logging.WARNING, logger="asyncpg.pool")
    try:
        raise ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 5432)")
    except ConnectionRefusedError:
        logging.getLogger("asyncpg.pool").warning(
            "Failed to restore the pool connection floor; retrying", exc_info=True
        )
    (record,) = [r for r in caplog.records if r.name == "asyncpg.pool"]
    assert record.exc_info is None and "\n" not in caplog.text.strip()
    assert record.getMessage() == (
        "Failed to restore the pool connection floor; retrying "
        "(ConnectionRefusedError: [Errno 111] Connect call failed ('127.0.0.1', 5432))"
    )
