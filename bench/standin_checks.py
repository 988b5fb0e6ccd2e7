"""What the stand-in's checks cost the end-to-end suite: OpenAPI validation and rate limits.

    python bench/standin_checks.py [--rounds 3] [--tests tests/e2e]

Runs the suite (in a fresh process each time) with the stand-in as the tests use it, then with its
OpenAPI validation off, then with rate limits off too, and prints the median wall and CPU time of
each, their ratios to the plain run, the number of bodies validated and the time spent validating,
and how long discord.py was told to hold requests back by a rate limit.

The same file is the pytest plugin that sets the mode in each run (``STANDIN_BENCH_MODE``) and
writes the figures (``STANDIN_BENCH_OUT``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODES = {
    "as tests run it": {},
    "no OpenAPI validation": {"openapi": False},
    "no validation, no rate limits": {"openapi": False, "rate_limits": False},
}

# -- the plugin (inside each pytest run) ------------------------------------------------------------------

_holds: list[float] = []


def pytest_configure(config) -> None:
    mode = os.environ.get("STANDIN_BENCH_MODE")
    if mode is None:
        return
    from tests.standin import server

    options = MODES[mode]
    init, hold = server.StandIn.__init__, server.StandIn._hold

    def patched_init(self, *args, **kwargs):
        init(self, *args, **{**kwargs, **options})

    def patched_hold(self, seconds):
        if seconds > 0:
            _holds.append(seconds)
        return hold(self, seconds)

    setattr(server.StandIn, "__init__", patched_init)  # noqa: B010 (a method is replaced on purpose)
    setattr(server.StandIn, "_hold", patched_hold)  # noqa: B010


def pytest_sessionfinish(session, exitstatus) -> None:
    out = os.environ.get("STANDIN_BENCH_OUT")
    if out is None:
        return
    from tests.standin.spec import spec

    s = spec() if spec.cache_info().currsize else None  # loaded only where validation is on
    figures = {
        "validations": s.validations if s else 0,
        "validation_seconds": s.seconds if s else 0.0,
        "holds": len(_holds),
        "hold_seconds": sum(_holds),
        "exitstatus": int(exitstatus),
    }
    Path(out).write_text(json.dumps(figures))


# -- the bench -----------------------------------------------------------------------------------------


def run(mode: str, tests: str) -> dict:
    out = ROOT / ".bench-standin.json"
    env = {**os.environ, "STANDIN_BENCH_MODE": mode, "STANDIN_BENCH_OUT": str(out)}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "bench"), env.get("PYTHONPATH", "")])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    # "-n 0": in one process, as this file's plugin counts what it sees there
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            tests,
            "-q",
            "-n",
            "0",
            "-p",
            "standin_checks",
            "-p",
            "no:cacheprovider",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    figures = json.loads(out.read_text())
    out.unlink()
    if proc.returncode != 0:
        sys.exit(f"{mode}: the tests failed\n{proc.stdout[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {**figures, "wall": wall, "cpu": cpu}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tests", default="tests/e2e")
    args = parser.parse_args()
    results: dict[str, list[dict]] = {mode: [] for mode in MODES}
    for _ in range(args.rounds):  # interleaved, so a busy moment of the machine hits every mode
        for mode in MODES:
            results[mode].append(run(mode, args.tests))
    plain = results["no validation, no rate limits"]
    base_wall = statistics.median(r["wall"] for r in plain)
    base_cpu = statistics.median(r["cpu"] for r in plain)
    print(f"{args.tests}, median of {args.rounds} run(s); ratios to the run without either check:")
    for mode, runs in results.items():
        wall = statistics.median(r["wall"] for r in runs)
        cpu = statistics.median(r["cpu"] for r in runs)
        print(
            f"  {mode:30s} wall {wall:6.2f} s ({wall / base_wall:4.2f})   cpu {cpu:6.2f} s ({cpu / base_cpu:4.2f})"
        )
        last = runs[-1]
        if last["validations"]:
            print(
                f"  {'':30s} {last['validations']} bodies validated in {last['validation_seconds']:.2f} s "
                f"({1000 * last['validation_seconds'] / last['validations']:.2f} ms each)"
            )
        print(f"  {'':30s} rate-limit holds: {last['holds']} ({last['hold_seconds']:.2f} s)")


if __name__ == "__main__":
    main()
