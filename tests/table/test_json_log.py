"""LOG_FORMAT=json: every line ``python -m bot`` writes while it runs is one JSON object (a log
collector splits the log on lines): its refusals, Python's warnings, and the traceback of an
error nothing caught, in the main thread or another one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.table.test_database_start import TOKEN

ROOT = Path(__file__).resolve().parents[2]

CRASH = """
import sys, threading, warnings
import bot.app

def crashing(settings, **options):
    warnings.warn("the old setting name is deprecated")
    def helper():
        raise ValueError("a worker thread failed")
    thread = threading.Thread(target=helper, name="helper")
    thread.start()
    thread.join()
    raise RuntimeError("boom\\non two lines")

bot.app.create_bot = crashing
from bot.__main__ import main
sys.exit(main([]))
"""


def run(tmp_path: Path, argv: list[str], **env_extra: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "LOG_"))}
    env |= {
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": TOKEN,
        "DATABASE_PATH": str(tmp_path / "pukllay.db"),
        "LOG_FORMAT": "json",
        **env_extra,
    }
    return subprocess.run(
        [sys.executable, *argv], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )


def records(proc: subprocess.CompletedProcess) -> list[dict]:
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert lines, proc
    found = []
    for line in lines:
        try:
            found.append(json.loads(line))
        except ValueError:
            raise AssertionError(f"a line of the log is not JSON: {line!r}\n{proc.stderr}") from None
    return found


def test_a_crash_and_warnings_are_json_records(tmp_path):
    """The bot's start fails on an unexpected error after a warning and a failed thread: status 1
    (worth starting again), and the warning, the thread's traceback and the crash's each one JSON
    object, the traceback in its ``exception`` field."""
    proc = run(tmp_path, ["-c", CRASH])
    assert proc.returncode == 1, proc.stderr
    found = records(proc)
    assert found[0]["logger"] == "bot" and found[0]["message"].startswith("Pukllay ")
    (warning,) = [r for r in found if r["logger"] == "py.warnings"]
    assert warning["level"] == "WARNING" and "the old setting name is deprecated" in warning["message"]
    (thread,) = [r for r in found if "thread helper" in r["message"]]
    assert thread["level"] == "ERROR" and "ValueError: a worker thread failed" in thread["exception"]
    crash = found[-1]
    assert crash["level"] == "CRITICAL" and crash["message"] == "stopped by an unexpected error"
    assert (
        crash["exception"].startswith("Traceback")
        and "RuntimeError: boom\non two lines" in crash["exception"]
    )


def test_refusals_are_json_records(tmp_path):
    """A refusal before the login (no token, a database the bot must not use) is one JSON object
    at the ERROR level, status 2 as in text; the one-shot commands' answers stay plain text."""
    proc = run(tmp_path, ["-m", "bot"], DISCORD_TOKEN="")
    (refused,) = records(proc)
    assert proc.returncode == 2
    assert refused["level"] == "ERROR" and refused["logger"] == "bot"
    assert refused["message"].startswith("DISCORD_TOKEN is not set")
    folder = tmp_path / "data"
    folder.mkdir()
    proc = run(tmp_path, ["-m", "bot"], DATABASE_PATH=str(folder))
    (refused,) = records(proc)
    assert proc.returncode == 2 and "is a folder" in refused["message"] and refused["level"] == "ERROR"
    proc = run(tmp_path, ["-m", "bot", "--check-database"])
    assert proc.stderr.startswith("pukllay: ") and "no such file" in proc.stderr
