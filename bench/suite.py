"""Where the test suite's time goes: summed seconds by folder, split into set-up, the test itself
and tear-down.

    python bench/suite.py [--top 20] [--by file] [PYTEST ARGS...]

Runs pytest (in this one process unless the arguments say otherwise, e.g. ``-n 2``) on the given
paths (the whole suite when none) and prints, for each folder (``--by file``: each file), the
number of tests and the seconds spent setting them up, running them and tearing them down,
summed over the tests, and the processor time the test process used meanwhile (all its
threads; not Chromium's or other processes' it started: well below the seconds when a test
waits on them); then the ``--top`` tests whose set-up and tear-down took longest, and the
longest tests.  With several workers the sums are still each test's own time: halving the sum
is what halves a run on two cores.  Figures on a machine shared with other work vary from run
to run: compare runs made close in time, and the processor time, which varies less.

    python bench/suite.py tests/table tests/queue
    python bench/suite.py --by file tests/e2e -k league
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PLUGIN = """
import json, os, time

import pytest

PHASES = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    cpu = time.process_time()
    yield
    PHASES.setdefault(item.nodeid, {})["cpu"] = time.process_time() - cpu


def pytest_runtest_logreport(report):
    PHASES.setdefault(report.nodeid, {})[report.when] = report.duration


def pytest_sessionfinish(session):
    if hasattr(session.config, "workerinput"):
        session.config.workeroutput["suite_times"] = json.dumps(PHASES)
        return
    with open(os.environ["PUKLLAY_SUITE_TIMES"], "w") as out:
        json.dump(PHASES, out)


def pytest_testnodedown(node, error):
    for nodeid, phases in json.loads(node.workeroutput.get("suite_times", "{}")).items():
        PHASES.setdefault(nodeid, {}).update(phases)
"""


def group_of(nodeid: str, by: str) -> str:
    path = nodeid.split("::", 1)[0]
    if by == "file":
        return path
    folder = os.path.dirname(path)
    return folder if folder != "tests" else path


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=15, help="how many of the slowest tests to list")
    parser.add_argument("--by", choices=("folder", "file"), default="folder")
    parser.add_argument("--save", metavar="FILE", help="also write each test's phases (JSON) there")
    parser.add_argument("--read", metavar="FILE", help="print the figures of a saved run instead")
    ours, pytest_args = parser.parse_known_args(argv)
    if ours.read:
        report(json.loads(Path(ours.read).read_text()), ours.by, ours.top)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "suite_times_plugin.py").write_text(PLUGIN)
        times = Path(tmp, "times.json")
        env = {
            **os.environ,
            "PUKLLAY_SUITE_TIMES": str(times),
            "PYTHONPATH": os.pathsep.join(filter(None, [tmp, str(ROOT), os.environ.get("PYTHONPATH")])),
        }
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "suite_times_plugin"]
        if not any(a == "-n" or a.startswith("-n") for a in pytest_args):
            command += ["-n", "0"]
        result = subprocess.run([*command, *pytest_args], cwd=ROOT, env=env)
        if not times.exists():
            return result.returncode or 1
        phases: dict[str, dict[str, float]] = json.loads(times.read_text())
    if ours.save:
        Path(ours.save).write_text(json.dumps(phases, indent=0))
    report(phases, ours.by, ours.top)
    return result.returncode


PHASES = ("setup", "call", "teardown")


def wall(p: dict[str, float]) -> float:
    return sum(p.get(phase, 0.0) for phase in PHASES)


def report(phases: dict[str, dict[str, float]], by: str, top: int) -> None:
    sums: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0, 0.0, 0.0])
    for nodeid, p in phases.items():
        row = sums[group_of(nodeid, by)]
        row[0] += 1
        for i, phase in enumerate((*PHASES, "cpu"), 1):
            row[i] += p.get(phase, 0.0)
    width = max([len(g) for g in sums] + [5])
    print(
        f"\n{'where':{width}} {'tests':>6} {'set-up':>8} {'test':>8} {'tear-down':>9} {'total':>8} {'cpu':>8}"
    )
    total = [0, 0.0, 0.0, 0.0, 0.0]
    for group, row in sorted(sums.items(), key=lambda kv: -sum(kv[1][1:4])):
        print(
            f"{group:{width}} {row[0]:6d} {row[1]:8.1f} {row[2]:8.1f} {row[3]:9.1f} {sum(row[1:4]):8.1f} {row[4]:8.1f}"
        )
        total = [a + b for a, b in zip(total, row, strict=True)]
    print(
        f"{'all':{width}} {total[0]:6d} {total[1]:8.1f} {total[2]:8.1f} {total[3]:9.1f} {sum(total[1:4]):8.1f} "
        f"{total[4]:8.1f}"
    )
    print(f"\nlongest set-up + tear-down (top {top}):")
    for nodeid, p in sorted(
        phases.items(), key=lambda kv: -kv[1].get("setup", 0.0) - kv[1].get("teardown", 0.0)
    )[:top]:
        print(f"  {p.get('setup', 0.0):6.2f} {p.get('teardown', 0.0):6.2f}  {nodeid}")
    print(f"\nlongest tests (top {top}: set-up + test + tear-down, and the process's cpu meanwhile):")
    for nodeid, p in sorted(phases.items(), key=lambda kv: -wall(kv[1]))[:top]:
        print(f"  {wall(p):6.2f} {p.get('cpu', 0.0):6.2f}  {nodeid}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
