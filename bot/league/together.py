"""A league's record of a change stored in the same commit as the change at a table (a drop
with the first game's forfeit or substitute), so a failure between them leaves neither.
Imports storage's transaction bodies only."""

from __future__ import annotations

from collections.abc import Callable

from bot.storage import Body, Store


class NotDropped(Exception):
    """The player to drop was dropped, or the league ended, meanwhile: the change is undone."""


class Once:
    """A league's statements that belong to a change at a table, stored exactly once: in the
    change's own transaction (:meth:`body`, given to it), or by themselves (:meth:`alone`) when
    the table made no change (the game ended meanwhile, or the choice leaves it to the round's
    deadline)."""

    def __init__(self, statements: Callable[[], Body[object]]):
        self.statements = statements
        self.ran = False

    def body(self) -> Body[object]:
        self.ran = True
        return (yield from self.statements())

    def unless_ran(self) -> Body[object] | None:
        """:meth:`body`, or None once it ran (stored with an earlier change)."""
        return None if self.ran else self.body()

    async def alone(self, store: Store) -> None:
        if not self.ran:
            await store.transact(self.body())
