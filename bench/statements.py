"""Counting the SQL statements an SQLite store runs, for the benchmarks that print them."""

from __future__ import annotations

from typing import Any, cast

from bot.storage import Store


class Statements:
    """The statements a store runs from :meth:`follow` on (its transactions' BEGIN and COMMIT not
    counted); ``count`` may be set back to 0 between measures."""

    def __init__(self) -> None:
        self.count = 0

    def saw(self, sql: str) -> None:
        if sql.strip().upper() not in ("BEGIN", "BEGIN IMMEDIATE", "COMMIT", "ROLLBACK"):
            self.count += 1

    async def follow(self, store: Store) -> None:
        sqlite = cast(Any, store.db)  # the SQLite back end's two connections (its writer and reader)
        for worker in (sqlite._writer, sqlite._reader):
            await worker.call(lambda con: con.set_trace_callback(self.saw))
