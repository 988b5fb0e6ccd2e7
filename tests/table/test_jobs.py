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


async def test_a_job_armed_again_while_held_keeps_its_holder_s_claim_and_is_given_back(store, clock):
    """A job held in a block (:meth:`Jobs.holding`) and armed again meanwhile keeping the claim: no
    one else takes it before the block ends, and the block gives it back, armed so but due at once
    (what was handed to it is not what the block did), instead of dropping it, and says so
    (``given_back``).  Another owner's claim, or a lapsed one, does not stay; a job armed nowhere
    while held is dropped as before; a block that raises gives it back due as armed."""
    j = store.jobs
    given: list[str] = []
    await j.schedule("board", "1", clock.time() + 600, {"n": 0})
    async with j.holding("board", "1", "post", lease=120, given_back=lambda: given.append("1")) as mine:
        assert mine is not None
        await j.arm_keeping("board", "1", clock.time() + 600, {"n": 1}, holder="post")
        now = await j.job("board", "1")
        assert (now.claim, now.claimed_until, now.payload) == (mine.claim, mine.claimed_until, {"n": 1})
        async with j.holding("board", "1", "post", lease=120) as other:
            assert other is None  # held still
        assert await j.claim_jobs("scheduler", lease=60) == []
    back = await j.job("board", "1")
    assert back.claim is None and back.payload == {"n": 1} and back.due_at == clock.time()
    assert given == ["1"] and [job.key for job in await j.claim_jobs("scheduler", lease=60)] == ["1"]
    await j.schedule("board", "1", clock.time() + 600, {"n": 1})
    await j.schedule("board", "2", clock.time(), {})
    assert len(await j.claim_jobs("scheduler", lease=60)) == 1
    await j.arm_keeping("board", "2", clock.time() + 600, {"n": 2}, holder="post")
    assert (await j.job("board", "2")).claim is None  # not a post's claim: cleared, as schedule does
    async with j.holding("board", "2", "post", lease=120, given_back=lambda: given.append("2")) as mine:
        clock.advance(121)  # its lease ran out: the claim lapsed
        await j.arm_keeping("board", "2", clock.time() + 600, {"n": 3}, holder="post")
        assert (await j.job("board", "2")).claim is None
    async with j.holding("board", "1", "post", lease=120, given_back=lambda: given.append("1")) as mine:
        assert mine is not None
    assert await j.job("board", "1") is None
    with pytest.raises(RuntimeError):
        async with j.holding("board", "2", "post", lease=120, given_back=lambda: given.append("2")) as mine:
            await j.arm_keeping("board", "2", clock.time() + 900, {"n": 4}, holder="post")
            raise RuntimeError
    back = await j.job("board", "2")
    assert back.claim is None and back.payload == {"n": 4} and back.due_at == clock.time() + 900
    assert given == ["1"]


async def test_a_job_armed_from_what_was_read_is_armed_only_if_nobody_changed_it_meanwhile(store, clock):
    """Two processes hand sentences to a board job at once: each read it, each makes its payload
    from what it read.  Armed with ``read``, the second write finds the job changed (its payload,
    or its claim, or a job where there was none) and changes nothing; :meth:`Jobs.rearm` then
    reads it again and makes its payload from the first one's, so neither's sentences are lost."""
    j = store.jobs
    assert await j.arm_keeping("board", "1", clock.time(), {"lines": ["a"]}, holder="post", read=None)
    assert not await j.arm_keeping("board", "1", clock.time(), {"lines": ["b"]}, holder="post", read=None)
    read = await j.job("board", "1")
    assert await j.arm_keeping("board", "1", clock.time(), {"lines": ["a", "c"]}, holder="post", read=read)
    assert not await j.arm_keeping(
        "board", "1", clock.time(), {"lines": ["a", "b"]}, holder="post", read=read
    )
    assert (await j.job("board", "1")).payload == {"lines": ["a", "c"]}
    now = await j.job("board", "1")
    async with j.holding("board", "1", "post", lease=120) as mine:  # the claim changed since ``now``
        assert mine is not None
        assert not await j.arm_keeping("board", "1", clock.time(), {"lines": []}, holder="post", read=now)

        def adding(line: str):
            def made(job):
                lines = list(job.payload["lines"]) if job is not None else []
                return clock.time() + 60, {"lines": [*lines, line]}

            return made

        real_job, reads = j.job, []

        async def read_then_the_other_writes(kind, key):
            seen = await real_job(kind, key)
            reads.append(seen.payload["lines"])
            if len(reads) == 1:  # the other process arms it now, from what it read
                assert await j.arm_keeping(kind, key, *adding("d")(seen), holder="post", read=seen)
            return seen

        j.job = read_then_the_other_writes
        try:
            await j.rearm("board", "1", adding("e"), holder="post")
        finally:
            del j.job
        kept = await j.job("board", "1")
        assert kept.payload == {"lines": ["a", "c", "d", "e"]}, kept.payload
        assert kept.claim == mine.claim  # the holder's claim stays
    assert reads == [["a", "c"], ["a", "c", "d"]]  # read again once, after the other's write
