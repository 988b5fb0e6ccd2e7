"""The SQLite file failing under a running bot, with SQLite's own limits on the real file: full
(``max_page_count``) or locked by another program.  A write is refused in one line that says
which (never stored in part), and the next, once the file can be written again, is stored."""

from __future__ import annotations

import sqlite3

import pytest

from bot.sessions import SessionService
from bot.storage import NotAnswering

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)
G = 1


async def started(service):
    await service.lobby.create(
        "nim", guild_id=G, channel_id=5, host_id=1, host_name="ann", seed=3, options={"piles": 5}
    )
    await service.lobby.join(5, 2, "bob")
    return (await service.lobby.start(5, 1)).session


async def writer(store, sql: str):
    """Run a pragma on the bot's own writing connection (SQLite's limits are per connection)."""
    return await store.db._writer.call(lambda con: con.execute(sql).fetchone())


async def first_move(service, session):
    (seat,) = session.to_move()
    who = session.by_seat(seat).user_id
    return who, (await service.play.legal_moves(5, who))[0]


async def test_a_full_file_refuses_a_write_in_one_line_and_writes_go_on_once_it_has_room(store):
    """The file may not grow (its disk full): a write that needs room is refused in one line
    naming the file and what to do, nothing of it is kept, and the bot's connection is left able
    to write once there is room (no transaction left open)."""
    service = SessionService(store)
    session = await started(service)
    who, move = await first_move(service, session)
    (pages,) = await writer(store, "PRAGMA page_count")
    await writer(store, f"PRAGMA max_page_count = {pages}")
    with pytest.raises(
        NotAnswering, match=r"cannot grow \(database or disk is full\); free space on its disk"
    ):
        await store.people.set_locale(1, "es-ES" + "x" * 200_000)  # needs new pages
    assert (await store.people.person(1)).locale is None
    await writer(store, "PRAGMA max_page_count = 1073741823")
    await service.play.play(5, who, move)
    assert [m.move for m in await store.history.moves(session.id)] == [move]


async def test_a_file_locked_by_another_program_refuses_the_move_in_one_line(store, database):
    service = SessionService(store)
    session = await started(service)
    who, move = await first_move(service, session)
    await writer(store, "PRAGMA busy_timeout = 10")  # the bot waits 30 s; the test need not
    other = sqlite3.connect(database.target, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # a sqlite3 shell left in a transaction
        with pytest.raises(NotAnswering, match="is locked by another program"):
            await service.play.play(5, who, move)
        other.execute("ROLLBACK")
    finally:
        other.close()
    assert await store.history.moves(session.id) == []
    await service.play.play(5, who, move)
    assert [m.move for m in await store.history.moves(session.id)] == [move]
