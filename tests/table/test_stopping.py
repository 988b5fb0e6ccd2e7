"""SIGTERM (``systemctl stop``, ``docker stop``, ``kill``) stops ``python -m bot`` as Ctrl-C does:
the bot closes (its web server, its workers, its database) and exits 0, instead of dying on the
signal with everything cut where it was."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from tests.table.test_database_start import TOKEN

ROOT = Path(__file__).resolve().parents[2]

# Discord's API at a port nothing listens on: every login attempt is refused at once, and the bot
# waits between attempts, its web server up, until it is told to stop.
UNREACHABLE_DISCORD = """
import sys
import discord.http
discord.http.Route.BASE = "https://127.0.0.1:1/api/v10"
from bot.__main__ import main
sys.exit(main([]))
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def health(port: int) -> int | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as reply:
            return reply.status
    except urllib.error.HTTPError as exc:
        return exc.code
    except OSError:
        return None


def bot_env(port: int, **database: str) -> dict[str, str]:
    """The environment of a ``python -m bot`` with a web server on ``port`` and JSON logs, on the
    database ``database`` names (DATABASE_PATH or DATABASE_URL), none of the caller's own."""
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "LOG_", "HTTP_"))
    }
    return env | {
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": TOKEN,
        **database,
        "HTTP_PORT": str(port),
        "LOG_FORMAT": "json",
        "COMPUTER_WORKERS": "1",
    }


def test_sigterm_closes_the_bot_and_exits_0(tmp_path):
    port = free_port()
    env = bot_env(port, DATABASE_PATH=str(tmp_path / "pukllay.db"))
    proc = subprocess.Popen(
        [sys.executable, "-c", UNREACHABLE_DISCORD],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for _ in range(600):  # bounded: the bot's start, then its first failed login
            if health(port) == 503 or proc.poll() is not None:
                break
            time.sleep(0.1)
        assert health(port) == 503, "the bot never answered /healthz while Discord was unreachable"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    messages = [json.loads(line)["message"] for line in err.splitlines() if line.strip()]
    assert messages[-1] == "stopped (SIGTERM)", messages
    assert health(port) is None  # the web server is closed


def test_a_port_in_use_is_refused_before_any_login_attempt(tmp_path):
    """HTTP_PORT taken by another program: the bot says so in one line and exits 2 before trying
    Discord, even while Discord cannot be reached (it used to find out only once logged in, so a
    bot retrying its login never said it)."""
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "LOG_", "HTTP_"))
    }
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env |= {
            "PYTHONPATH": str(ROOT),
            "DISCORD_TOKEN": TOKEN,
            "DATABASE_PATH": str(tmp_path / "pukllay.db"),
            "HTTP_PORT": str(port),
            "COMPUTER_WORKERS": "1",
        }
        proc = subprocess.run(
            [sys.executable, "-c", UNREACHABLE_DISCORD],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert proc.returncode == 2, proc.stderr
    assert f"cannot serve /healthz and /metrics on 127.0.0.1 port {port}" in proc.stderr
    assert "choose another HTTP_PORT" in proc.stderr and "Discord" not in proc.stderr
