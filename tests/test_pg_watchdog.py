"""The tests' PostgreSQL servers (tests/support/pg.py, ``Cluster``) never outlive the process that
started them: ``pg_ctl`` leaves a server running on its own, and a test run killed (even with
SIGKILL) used to leave its servers behind for good.  Only servers started here are touched."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.support.pg import Cluster

ROOT = Path(__file__).resolve().parents[1]
STARTS = """
import sys
from tests.support.pg import Cluster

cluster = Cluster().start()
print(cluster.base, flush=True)
sys.stdin.read()  # until it is killed
"""


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie nobody reaped yet has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def until(done, within: float) -> bool:
    """Poll ``done()`` until it is true or ``within`` seconds have passed; its last answer."""
    end = time.monotonic() + within
    while not done():
        if time.monotonic() > end:
            return done()
        time.sleep(0.05)
    return True


def postmaster(data: Path) -> int:
    return int((data / "postmaster.pid").read_text().split()[0])


def test_a_server_stops_when_the_process_that_started_it_is_killed():
    """A process starts a cluster and is killed with SIGKILL (no clean-up of its own runs): its
    server stops within seconds, and its folder is removed."""
    starter = subprocess.Popen(
        [sys.executable, "-c", STARTS],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    base: Path | None = None
    pid: int | None = None
    try:
        base = Path(starter.stdout.readline().strip())
        pid = postmaster(base / "data")
        assert alive(pid)
        os.kill(starter.pid, signal.SIGKILL)
        starter.wait(timeout=30)
        assert until(lambda: not alive(pid), within=30), f"the server {pid} outlived its starter"
        assert until(lambda: not base.exists(), within=10), base
    finally:
        if starter.poll() is None:
            starter.kill()
            starter.wait()
        if pid is not None and alive(pid):  # the server this test started: an immediate shutdown
            os.kill(pid, signal.SIGQUIT)
            until(lambda: not alive(pid), within=30)
        if base is not None:
            shutil.rmtree(base, ignore_errors=True)


def test_a_cluster_stopped_as_usual_dismisses_its_watchdog():
    """A cluster stopped by its own process: the server and the folder are gone, and so is the
    watchdog (it had nothing left to do)."""
    cluster = Cluster().start()
    watchdog = cluster._watchdog
    assert watchdog is not None and watchdog.poll() is None
    pid = postmaster(cluster.data)
    cluster.stop()
    assert not alive(pid) and not cluster.base.exists()
    assert watchdog.returncode == 0
