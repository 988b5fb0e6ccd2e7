"""The keyed locks: one lock a key while anyone holds or waits on it, none kept after."""

from __future__ import annotations

import asyncio
import gc
import weakref

from bot.locks import KeyedLocks


async def test_a_key_has_one_lock_while_it_is_held_and_keys_do_not_share():
    locks: KeyedLocks[int] = KeyedLocks()
    order: list[str] = []

    async def hold(key: int, name: str, gate: asyncio.Event | None = None) -> None:
        async with locks(key):
            order.append(f"{name} in")
            if gate is not None:
                await gate.wait()
            order.append(f"{name} out")

    gate = asyncio.Event()
    first = asyncio.create_task(hold(1, "a", gate))
    await asyncio.sleep(0)  # a holds key 1
    second = asyncio.create_task(hold(1, "b"))  # waits for a
    other = asyncio.create_task(hold(2, "c"))  # another key: not held up
    await asyncio.sleep(0)
    assert order == ["a in", "c in", "c out"]
    assert locks(1) is locks(1) and locks(1).locked() and not locks(2).locked()
    gate.set()
    await asyncio.gather(first, second, other)
    assert order == ["a in", "c in", "c out", "a out", "b in", "b out"]


def test_a_key_nobody_holds_keeps_no_lock():
    locks: KeyedLocks[tuple[int, int]] = KeyedLocks()
    held = locks((1, 2))
    assert locks((1, 2)) is held
    gone = weakref.ref(held)
    del held
    gc.collect()
    assert gone() is None and len(locks) == 0  # the map kept it no longer than its holder
