"""The terminal table, settings from .env, and the start-up refusals."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.settings import Settings, SettingsError
from bot.terminal import main as local_main
from tests.table.test_database_start import one_line, run_bot, shared_dir, unprivileged  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]


def test_local_hot_seat_game_writes_boards(tmp_path):
    """Two people play Nim in the terminal; every turn's board is a real PNG."""
    moves = "moves\nA9\nnonsense\n" + "\n".join(["A1", "B1", "C1"] * 30) + "\n"
    out = io.StringIO()
    code = local_main(
        ["nim", "--players", "2", "--seed", "3", "--out", str(tmp_path)], io.StringIO(moves), out
    )
    text = out.getvalue()
    assert code == 0
    assert "take 1 to" in text  # the illegal A9 was refused with what is allowed
    assert "not a Nim move" in text
    assert "Game over" in text
    boards = sorted((tmp_path / "nim-seed3").glob("turn-*.png"))
    assert len(boards) >= 2
    with Image.open(boards[-1]) as img:
        assert img.format == "PNG" and img.width > 100


def test_local_computer_against_computer(tmp_path):
    """With every seat a computer player the game plays itself to the end."""
    out = io.StringIO()
    code = local_main(["nim", "--players", "3", "--computer", "3", "--no-images"], io.StringIO(""), out)
    assert code == 0 and "Game over" in out.getvalue()


def test_local_bad_options(tmp_path):
    """Unknown games and bad options are refused in one line, on stderr."""
    out, err = io.StringIO(), io.StringIO()
    assert local_main(["chess"], io.StringIO(""), out, err) == 2
    assert "no game called 'chess'" in err.getvalue() and not out.getvalue()
    out, err = io.StringIO(), io.StringIO()
    assert local_main(["nim", "--option", "piles=9", "--no-images"], io.StringIO(""), out, err) == 2
    assert "piles must be one of" in err.getvalue()


def test_settings_from_dotenv(tmp_path):
    """.env values are read, the environment wins, and the token is never in repr."""
    env_file = tmp_path / ".env"
    env_file.write_text(
        "# comment\nDISCORD_TOKEN='abc.def'\nDATABASE_PATH=/x/y.db\nDEV_GUILD_ID=81384788765712384\n"
    )
    s = Settings.from_env({"DATABASE_PATH": "/z.db"}, env_file)
    assert s.token == "abc.def" and s.database_path == "/z.db" and s.dev_guild_id == 81384788765712384
    assert "abc.def" not in repr(s)
    with pytest.raises(SettingsError, match="DEV_GUILD_ID"):
        Settings.from_env({"DEV_GUILD_ID": "abc"}, None)


def test_a_dotenv_saved_by_a_windows_editor_is_read(tmp_path):
    """.env.example copied and edited in Notepad (UTF-8 with a byte-order mark, CRLF line ends):
    read as written, not refused on its first line."""
    env_file = tmp_path / ".env"
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    text = text.replace("DEV_GUILD_ID=\n", "DEV_GUILD_ID=123456789012345678\n").replace("\n", "\r\n")
    env_file.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    s = Settings.from_env({}, env_file)
    assert s.dev_guild_id == 123456789012345678 and s.token == "paste-your-bot-token-here"
    # a file whose first line is a setting, after the mark
    env_file.write_bytes(b"\xef\xbb\xbfDEV_GUILD_ID=456789012345678901\r\n")
    assert Settings.from_env({}, env_file).dev_guild_id == 456789012345678901


def test_example_env_lists_every_setting():
    """.env.example names every setting the code reads."""
    text = (ROOT / ".env.example").read_text()
    for name in (
        "DISCORD_TOKEN",
        "DATABASE_PATH",
        "DEV_GUILD_ID",
        "LOG_LEVEL",
        "SYNC_COMMANDS",
        "JOB_POLL_SECONDS",
        "DATABASE_URL",
        "SHARD_COUNT",
        "SHARD_IDS",
    ):
        assert f"{name}=" in text


def test_bot_without_token_says_so_in_one_line(tmp_path):
    """python -m bot without a token prints one line naming the setting, and exits non-zero."""
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    proc = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env | {"PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode != 0
    lines = [line for line in (proc.stdout + proc.stderr).splitlines() if line.strip()]
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0] and ".env.example" in lines[0]
    assert "Traceback" not in proc.stderr


def bot_says(tmp_path: Path, token: str) -> tuple[int, list[str]]:
    """``python -m bot`` run in ``tmp_path`` with ``DISCORD_TOKEN`` in a copy of .env.example:
    its status and the lines it wrote."""
    env_file = (ROOT / ".env.example").read_text(encoding="utf-8")
    env_file = env_file.replace("DISCORD_TOKEN=paste-your-bot-token-here", f"DISCORD_TOKEN={token}")
    (tmp_path / ".env").write_text(env_file, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    proc = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env | {"PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=30,  # a token taken as good goes on to log in, and keeps trying without a network
    )
    assert "Traceback" not in proc.stderr
    return proc.returncode, [line for line in (proc.stdout + proc.stderr).splitlines() if line.strip()]


def test_the_example_s_placeholder_left_in_env_is_named_as_such(tmp_path):
    """.env copied from .env.example but its token not replaced: the line says what to replace."""
    code, lines = bot_says(tmp_path, "paste-your-bot-token-here")
    assert code == 2
    assert lines == [
        "pukllay: DISCORD_TOKEN is still .env.example's placeholder (paste-your-bot-token-here); "
        "replace it in .env with your bot's token (developer portal, Bot page, Reset Token)."
    ]


@pytest.mark.parametrize(
    ("token", "why"),
    [
        ("Bot MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB", "starts with 'Bot '"),
        ("1234567890123456789", "only digits, an id such as the Application ID"),
        ("0f" * 32, "the application's Public Key"),
        ("aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE", "the OAuth2 Client Secret"),
        ("abc", ""),
        ("not.a.token", ""),
    ],
)
def test_a_token_that_is_not_a_bot_token_is_refused_before_the_database_and_discord(tmp_path, token, why):
    """A pasted value that cannot be a bot token (three parts separated by dots, the first the
    bot's id) is refused in one line naming what it looks like, and the token is not printed;
    without the check the bot would try Discord with it (forever, without a network)."""
    code, lines = bot_says(tmp_path, token)
    assert code == 2 and len(lines) == 1, lines
    assert lines[0].startswith("pukllay: DISCORD_TOKEN is not a bot token")
    assert "Bot page" in lines[0] and "Reset Token" in lines[0]
    assert why in lines[0]
    assert token not in lines[0]
    assert not (tmp_path / "pukllay.db").exists()  # refused before the database was opened


def test_ci_runs_the_readme_test_command():
    """.ci/run runs exactly the test command the README gives."""
    readme = (ROOT / "README.md").read_text()
    command = "python3 -m venv .venv && .venv/bin/pip install -q -e '.[dev]' && .venv/bin/python -m pytest"
    assert command in readme
    assert command in (ROOT / ".ci" / "run").read_text()


def test_shard_settings():
    """SHARD_COUNT and SHARD_IDS: shard lists and ranges, each id below the count; each mistake named."""
    s = Settings.from_env({"SHARD_COUNT": "4", "SHARD_IDS": "0, 2-3"}, None)
    assert s.sharded and s.shard_count == 4 and s.shard_ids == (0, 2, 3)
    assert Settings.from_env({"SHARD_COUNT": "2"}, None).shard_ids is None  # all shards in this process
    assert not Settings.from_env({}, None).sharded
    for env, expect in (
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "from 0 to 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "a"}, "SHARD_IDS must be shard numbers"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0-"}, "SHARD_IDS must be shard numbers"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "-3"}, "SHARD_IDS must be shard numbers"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "1--2"}, "SHARD_IDS must be shard numbers"),
        (
            {"SHARD_COUNT": "4", "SHARD_IDS": "0,3-1"},
            r"SHARD_IDS ranges go from the lower .* such as 1-3, got '0,3-1'",
        ),
        ({"DATABASE_URL": "sqlite:///x.db"}, "PostgreSQL URL"),
        ({"JOB_POLL_SECONDS": "never"}, "JOB_POLL_SECONDS"),
    ):
        with pytest.raises(SettingsError, match=expect):
            Settings.from_env(env, None)
    assert Settings.from_env({"DEADLINE_POLL_SECONDS": "5"}, None).job_poll_seconds == 5
    url = "postgresql://ann:secret@db/pukllay"
    s = Settings.from_env({"DATABASE_URL": url}, None)
    assert s.database == url and "secret" not in repr(s)


def test_the_tests_stop_in_one_line_without_postgresql(tmp_path):
    """Without PostgreSQL the test command fails at once, saying how to install it, rather than
    skipping the PostgreSQL half of the storage tests."""
    env = {**os.environ, "PUKLLAY_PG_BINDIR": str(tmp_path)}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/table/test_storage.py"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode != 0
    lines = [line for line in proc.stdout.splitlines() if "PostgreSQL is not installed" in line]
    assert len(lines) == 1 and "apt-get install postgresql" in lines[0], proc.stdout
    assert " passed" not in proc.stdout and "skipped" not in proc.stdout


@pytest.mark.parametrize(
    "name, value, expect",
    [
        ("SHARD_COUNT", "²", "SHARD_COUNT must be a whole number"),
        ("SHARD_IDS", "0,²", "SHARD_IDS must be shard numbers"),
        ("DEV_GUILD_ID", "١٢٣", "DEV_GUILD_ID must be a server id"),
        ("COMPUTER_WORKERS", "²", "COMPUTER_WORKERS must be a number of processes"),
        ("AWAY_DAYS_PER_YEAR", "³", "AWAY_DAYS_PER_YEAR must be a number of days"),
        ("EXPORT_IDS_SERVERS", "12,³", "EXPORT_IDS_SERVERS must be server ids"),
        ("HTTP_PORT", "⁸⁰", "HTTP_PORT must be a port number"),
    ],
)
def test_digits_other_than_0_to_9_are_refused_in_one_line(name, value, expect):
    """Superscripts and other scripts' digits (which str.isdigit takes) are refused naming the
    setting, not a ValueError's traceback, nor read as another number."""
    env = {name: value, "SHARD_COUNT": "4"} if name == "SHARD_IDS" else {name: value}
    with pytest.raises(SettingsError, match=expect) as info:
        Settings.from_env(env, None)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    "name, value",
    [
        ("DEV_GUILD_ID", "8138478876571238"),  # a digit dropped in copying
        ("DEV_GUILD_ID", "813847887657123844444"),  # 21 digits: no snowflake has them
        ("DEV_GUILD_ID", "99999999999999999999"),  # 20 digits past 64 bits
        ("EXPORT_IDS_SERVERS", "81384788765712384, 123"),
    ],
)
def test_a_server_id_of_the_wrong_length_is_refused(name, value):
    """A server's id is a snowflake of 17 to 20 digits; an id with a digit missing would never
    match a server (``EXPORT_IDS_SERVERS`` would leave the ids out of every export, silently)."""
    with pytest.raises(SettingsError, match=f"{name} must be (a )?server ids? \\(17 to 20 digits"):
        Settings.from_env({name: value}, None)


def test_the_shortest_and_longest_server_ids_are_taken():
    settings = Settings.from_env({"EXPORT_IDS_SERVERS": "81384788765712384, 18446744073709551615"}, None)
    assert settings.export_id_guilds == {81384788765712384, 18446744073709551615}
    dev = Settings.from_env({"DEV_GUILD_ID": "18446744073709551615"}, None).dev_guild_id
    assert dev == 18446744073709551615


@pytest.mark.parametrize(
    "line, shown",
    [
        ("DISCORD_TOKEN: MTIzNDU2.abc.s3cr3t-t0ken", "'DISCORD_TOKEN:...'"),
        ("DISCORD TOKEN=MTIzNDU2.abc.s3cr3t-t0ken", "'DISCORD TOKEN=...'"),
        ("MTIzNDU2.abc.s3cr3t-t0ken", "a line without '='"),
    ],
)
def test_a_malformed_dotenv_line_is_named_without_its_value(tmp_path, line, shown):
    """The refusal of a malformed .env line (which goes to the journal) names the line and its
    start, never the value: a token on it is not copied into the log."""
    env_file = tmp_path / ".env"
    env_file.write_text(f"LOG_LEVEL=INFO\n{line}\n")
    with pytest.raises(SettingsError) as info:
        Settings.from_env({}, env_file)
    message = str(info.value)
    assert message.startswith(f"{env_file}:2: expected KEY=VALUE") and shown in message
    assert "s3cr3t" not in message and "MTIzNDU2" not in message


def test_a_dotenv_that_is_not_utf8_is_refused_in_one_line(tmp_path):
    """A .env saved in Latin-1 (or binary) is named with its line, not a UnicodeDecodeError."""
    env_file = tmp_path / ".env"
    env_file.write_bytes(b"LOG_LEVEL=INFO\nDATABASE_PATH=/srv/juegos/a\xf1o.db\n")
    with pytest.raises(SettingsError, match=r"\.env:2: not UTF-8 text; save the file as UTF-8$"):
        Settings.from_env({}, env_file)


def test_an_unreadable_dotenv_is_refused_in_one_line(shared_dir):  # noqa: F811
    """A .env the bot's user may not read (root's, mode 600) is named in one line with status 2,
    not a PermissionError's traceback."""
    user = unprivileged()
    (shared_dir / ".env").write_text("LOG_LEVEL=INFO\n")
    (shared_dir / ".env").chmod(0o600 if user is not None else 0o000)
    proc = run_bot(
        {"DATABASE_PATH": str(shared_dir / "pukllay.db")}, "--check-database", cwd=shared_dir, user=user
    )
    if user is None and proc.returncode == 0:
        pytest.skip("this user reads a file of mode 000 (root without another user to run as)")
    line = one_line(proc)
    assert (
        proc.returncode == 2
        and line == "pukllay: cannot read .env (Permission denied); run the bot as a user who may"
    )


def test_a_quoted_dotenv_value_with_a_comment_after_it_loses_its_quotes(tmp_path):
    """DATABASE_PATH='/var/lib/pukllay/pukllay.db'  # the data: the path without its quotes (it
    used to keep them, and the bot made a new, empty database under a folder named "'"); a '#'
    inside quotes is part of the value; a bare value's comment goes."""
    env_file = tmp_path / ".env"
    env_file.write_text(
        'DISCORD_TOKEN="MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abc"  # the bot\'s token\n'
        "DATABASE_PATH='/var/lib/pukllay/pukllay.db' # the data\n"
        'PUBLIC_URL="https://games.example.org"\t# behind the proxy\n'
        "HTTP_HOST=127.0.0.1 # this machine\n"
        "HTTP_PORT=9108\n"
        'MOTTO="play # win"\n'
    )
    s = Settings.from_env({}, env_file)
    assert s.token == "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abc"
    assert s.database_path == "/var/lib/pukllay/pukllay.db"
    assert s.public_url == "https://games.example.org" and s.http_host == "127.0.0.1"
    from bot.settings import read_dotenv

    assert read_dotenv(env_file)["MOTTO"] == "play # win"


def test_a_dotenv_that_is_a_folder_is_named(tmp_path):
    """.env made a folder (as a container's volume mount does when the file is missing) is said to
    be one, in one line, status 2; it was skipped without a word, and the bot then asked for a
    DISCORD_TOKEN the operator had written in the .env they meant."""
    (tmp_path / ".env").mkdir()
    proc = run_bot({"DATABASE_PATH": str(tmp_path / "pukllay.db")}, "--check-database", cwd=tmp_path)
    line = one_line(proc)
    assert proc.returncode == 2
    assert line == "pukllay: .env is a folder, not a settings file; remove it and copy .env.example to .env"


@pytest.mark.parametrize(
    ("value", "expect"),
    [
        ("soon", "DATABASE_STATEMENT_SECONDS must be a number of seconds, got 'soon'"),
        ("0", "DATABASE_STATEMENT_SECONDS must be between 1 and 3600"),
        ("nan", "DATABASE_STATEMENT_SECONDS must be between 1 and 3600"),
    ],
)
def test_the_statements_time_limit_is_read_and_checked(value, expect):
    """PostgreSQL statements wait 30 seconds for an answer unless DATABASE_STATEMENT_SECONDS says
    otherwise; a value that is no such number is refused naming the setting."""
    assert Settings.from_env({}, None).statement_seconds == 30
    assert Settings.from_env({"DATABASE_STATEMENT_SECONDS": "7.5"}, None).statement_seconds == 7.5
    with pytest.raises(SettingsError, match=expect):
        Settings.from_env({"DATABASE_STATEMENT_SECONDS": value}, None)


@pytest.mark.parametrize(
    ("value", "expect"),
    [
        ("soon", "^THREAD_ARCHIVE_HOURS must be a number of hours, got 'soon'$"),
        ("-1", r"^THREAD_ARCHIVE_HOURS must be between 0 \(never\) and 720$"),
        ("721", r"^THREAD_ARCHIVE_HOURS must be between 0 \(never\) and 720$"),
    ],
)
def test_the_thread_archive_hours_are_read_and_checked(value, expect):
    """A finished game's thread is archived after an hour unless THREAD_ARCHIVE_HOURS says
    otherwise (0: never); a value that is no such number is refused naming the setting."""
    assert Settings.from_env({}, None).thread_archive_hours == 1
    assert Settings.from_env({"THREAD_ARCHIVE_HOURS": " 2.5 "}, None).thread_archive_hours == 2.5
    assert Settings.from_env({"THREAD_ARCHIVE_HOURS": "0"}, None).thread_archive_hours == 0
    with pytest.raises(SettingsError, match=expect):
        Settings.from_env({"THREAD_ARCHIVE_HOURS": value}, None)


async def test_an_acknowledged_commit_is_synced_to_the_disk_unless_told_otherwise(tmp_path):
    """``SQLITE_SYNC``: ``full`` by default, each commit synced to the disk before it returns (a
    move the bot acknowledged survives a power cut, not only the process's end); ``normal`` spares
    the sync; anything else is refused naming the setting."""
    from bot.storage import open_store

    assert Settings.from_env({}, None).durable is True
    assert Settings.from_env({"SQLITE_SYNC": "Normal"}, None).durable is False
    assert Settings.from_env({"SQLITE_SYNC": "full"}, None).durable is True
    with pytest.raises(SettingsError, match="^SQLITE_SYNC must be full or normal, got 'off'$"):
        Settings.from_env({"SQLITE_SYNC": "off"}, None)
    for durable, level in ((True, 2), (False, 1)):  # PRAGMA synchronous: 2 FULL, 1 NORMAL
        store = await open_store(tmp_path / f"{durable}.db", durable=durable)
        try:
            backend: Any = store.db  # (the SQLite back end: its connections)
            found = await backend._writer.call(lambda con: con.execute("PRAGMA synchronous").fetchone()[0])
            assert found == level and backend._inline.execute("PRAGMA synchronous").fetchone()[0] == level
        finally:
            await store.close()


# Each setting wrong at once, in the order they are checked: (name, wrong value, the value that
# puts it right, None: unset).
CHECKED_IN_TURN = [
    ("DEV_GUILD_ID", "guild", None),
    ("LOG_LEVEL", "loud", None),
    ("SYNC_COMMANDS", "maybe", None),
    ("JOB_POLL_SECONDS", "0", None),
    ("DATABASE_URL", "mysql://db", None),
    ("DATABASE_STATEMENT_SECONDS", "0", None),
    ("SQLITE_SYNC", "off", None),
    ("SHARD_COUNT", "0", None),
    ("SHARD_IDS", "9", None),
    ("COMPUTER_STRONG_SECONDS", "0", None),
    ("COMPUTER_WORKERS", "65", "2"),
    ("THREAD_ARCHIVE_HOURS", "721", None),
    ("AWAY_DAYS_PER_YEAR", "367", None),
    ("EXPORT_IDS_SERVERS", "a", None),
    ("HTTP_PORT", "65536", None),
    ("WEB_PAGES", "maybe", "yes"),
    ("PUBLIC_URL", "ftp://games.example.org", None),
    ("WEB_PAGES", "yes", None),  # needs HTTP_PORT
    ("LOG_FORMAT", "xml", None),
    ("HTTP_HOST", "http://games.example.org", None),
]


def test_the_first_wrong_setting_is_the_one_refused():
    """With several settings wrong, the refusal names one, always the same, in a fixed order: each
    put right, the next is named, until the settings are read."""
    env: dict[str, str] = {}
    for name, wrong, _ in CHECKED_IN_TURN:
        env.setdefault(name, wrong)
    for name, _, right in CHECKED_IN_TURN:
        with pytest.raises(SettingsError) as info:
            Settings.from_env(env, None)
        assert str(info.value).startswith(f"{name} "), (name, str(info.value))
        if right is None:
            del env[name]
        else:
            env[name] = right
    assert Settings.from_env(env, None).computer_workers == 2


@pytest.mark.parametrize(("cores", "workers"), [(None, 1), (2, 2), (64, 64), (96, 64)])
def test_the_default_computer_workers_are_one_a_core_up_to_the_most_it_takes(monkeypatch, cores, workers):
    """Without ``COMPUTER_WORKERS`` the strong level gets a worker a core, at most the 64 the
    setting takes: a machine of 96 cores starts with its own default rather than refusing it."""
    monkeypatch.setattr("bot.settings.os.cpu_count", lambda: cores)
    assert Settings.from_env({}, None).computer_workers == workers
