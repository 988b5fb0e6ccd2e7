"""One :class:`asyncio.Lock` per key (a game, a round), made when first asked for and kept only
while someone holds it or waits on it.

Imports only the standard library.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


class KeyedLocks(Generic[K]):
    """The locks of a process's games (or rounds), by key: ``locks(key)`` is that key's lock,
    the same one for as long as anyone holds or waits on it (the map holds them weakly, so a key
    nobody uses any more takes no room)."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[K, asyncio.Lock] = weakref.WeakValueDictionary()

    def __len__(self) -> int:
        """How many keys have a lock now (held, or waited on)."""
        return len(self._locks)

    def __call__(self, key: K) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock
