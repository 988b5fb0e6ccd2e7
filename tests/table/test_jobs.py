"""One job registry: every kind is declared in bot.time.jobs and registered at start-up, once."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.time import jobs
from bot.time.scheduler import Scheduler

ROOT = Path(__file__).resolve().parents[2]


async def nothing(job):
    return None


async def test_register_takes_every_declared_kind_and_only_those(service):
    every = {k.name: nothing for k in jobs.KINDS}
    for wrong in (
        {k: h for k, h in every.items() if k != jobs.REMIND},  # one missing
        {**every, "reminder": nothing},  # one not declared
    ):
        scheduler = Scheduler(service.store, owner="here")
        with pytest.raises(ValueError, match="declared kinds"):
            jobs.register(scheduler, wrong)
        assert scheduler.kinds == ()
    scheduler = Scheduler(service.store, owner="here")
    jobs.register(scheduler, every)
    assert sorted(scheduler.kinds) == sorted(every)


def test_no_other_module_registers_a_job_kind():
    """``scheduler.register(`` is called in bot/app.py's start-up (through jobs.register) only."""
    found = []
    for path in [*ROOT.joinpath("bot").rglob("*.py"), *ROOT.joinpath("cogs").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "register"
            ):
                owner = ast.unparse(node.func.value)
                if "scheduler" in owner or owner == "jobs":
                    found.append(f"{path.relative_to(ROOT)}: {owner}.register")
    assert sorted(found) == ["bot/app.py: jobs.register", "bot/time/jobs.py: scheduler.register"]
