"""Two seats taken in one lobby at once, in two processes (two session services on one database;
on PostgreSQL each with its own store, as the bot's shards have): a person's Join, or the host's
Add computer, lands in one process while another Join or Add computer is being stored in the
other.  Each takes the seat after the other's, or, when the other took the last one, is told
that the table is full; nobody is told they are seated already when they are not.

On PostgreSQL the first's transaction is held, after its count of the seats and before it writes
its seat, until the second has stored its seat or waits for the first (the lobby's row lock).
SQLite's one writer runs a transaction whole: there the second's seat is stored just before the
first's transaction begins."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import cast

import asyncpg
import pytest

from bot.sessions import Refusal, SessionService
from bot.storage import Store
from tests.support.polling import until

CH = 83
HELD = 4283  # the advisory lock the first's transaction waits on (PostgreSQL)

Act = Callable[[], Awaitable[object]]


def acts(service: SessionService, kind: str, user_id: int) -> Act:
    """``user_id`` joins, or the host adds a computer, in ``service``'s process."""
    if kind == "join":
        return lambda: service.lobby.join(CH, user_id, f"p{user_id}")
    return lambda: service.lobby.add_computer(CH, 1)


async def outcome(act: Awaitable[object]) -> object:
    try:
        return await act
    except Refusal as refusal:
        return refusal


async def meanwhile_sqlite(store: Store, first: Act, second: Act) -> tuple[object, object]:
    """The second's act (a seat, a start) stored just before the first's transaction."""
    real, done = store.games.add_seat, []

    async def add_seat(*args, **kwargs):
        store.games.add_seat = real  # once
        done.append(await outcome(second()))
        return await real(*args, **kwargs)

    store.games.add_seat = add_seat
    return await outcome(first()), done[0]


async def waiting(conn: asyncpg.Connection, locktype: str) -> int:
    return await conn.fetchval("SELECT count(*) FROM pg_locks WHERE locktype = $1 AND NOT granted", locktype)


async def meanwhile_postgres(store: Store, target: str, first: Act, second: Act) -> tuple[object, object]:
    """The first's transaction held just before it writes its seat, until the second is done or
    waits for it."""
    holder = await asyncpg.connect(target)
    try:
        await holder.execute("SELECT pg_advisory_lock($1)", HELD)
        real = store.db.transact

        async def transact(body):
            def held_before_its_seat():
                result = None
                while True:
                    try:
                        op = body.send(result)
                    except StopIteration as stop:
                        return stop.value
                    if op[1].startswith("INSERT INTO seats"):
                        store.db.transact = real  # once
                        yield ("one", f"SELECT pg_advisory_xact_lock({HELD})", ())
                    result = yield op

            return await real(held_before_its_seat())

        store.db.transact = transact
        one = asyncio.create_task(outcome(first()))
        first_waits = await until(
            lambda: waiting(holder, "advisory"),
            "the first waiting, its seats counted",
            tries=100_000,
            pause=0,
        )
        assert first_waits == 1
        two = asyncio.create_task(outcome(second()))

        async def second_done_or_waits() -> bool:
            return two.done() or bool(await waiting(holder, "transactionid"))

        await until(second_done_or_waits, "the second done, or waiting for the first", tries=100_000, pause=0)
        await holder.execute("SELECT pg_advisory_unlock($1)", HELD)
        return await one, await two
    finally:
        await holder.close()


@pytest.mark.parametrize("room", [True, False], ids=["room", "one-seat-left"])
@pytest.mark.parametrize(
    "kinds", [("join", "join"), ("join", "computer"), ("computer", "join"), ("computer", "computer")]
)
async def test_two_seats_taken_at_once_in_two_processes(store, database, clock, kinds, room):
    """Two people sit at a lobby of 4 (``room``: two seats left) or 3 (one seat left); 3 joins, or
    the host adds a computer, in one process while 4 joins, or the host adds a computer, in the
    other.  With room both are seated, in two seats; with one seat left one is seated and the
    other is told the table is full.  (Both were given the same seat number: the second to
    write it was refused by the database, and told "you are already seated", or, adding a
    computer, met an error.)  Two computers added at once have two names (both were "Cpu Ada":
    each was named from the seats read before its transaction)."""
    other = store if database.kind == "sqlite" else await database.open(clock)
    try:
        here, there = SessionService(store), SessionService(other)
        limit = 4 if room else 3
        await here.lobby.create(
            "nim", guild_id=1, channel_id=CH, host_id=1, host_name="p1", max_players=limit
        )
        await here.lobby.join(CH, 2, "p2")
        first, second = acts(here, kinds[0], 3), acts(there, kinds[1], 4)
        if database.kind == "sqlite":
            answers = await meanwhile_sqlite(store, first, second)
        else:
            answers = await meanwhile_postgres(store, database.target, first, second)
        refused = [a for a in answers if isinstance(a, Refusal)]
        assert not any("already seated" in str(a) for a in refused), answers
        if room:
            assert not refused, answers
        else:
            assert len(refused) == 1 and "the table is full (3 seats)" in str(refused[0]), answers
        seats = (await here.core.require(CH)).seats
        assert len(seats) == len(answers) - len(refused) + 2
        assert [s.join_order for s in seats] == list(range(len(seats)))
        people = {s.user_id for s in seats if not s.computer}
        wanted = {1, 2} | {
            uid
            for kind, uid, a in zip(kinds, (3, 4), answers, strict=True)
            if kind == "join" and a not in refused
        }
        assert people == wanted
        names = [s.name for s in seats]
        assert len(set(names)) == len(names), names
    finally:
        if other is not store:
            await other.close()


@pytest.mark.parametrize("kind", ["join", "computer"])
async def test_a_seat_asked_for_as_the_game_starts_elsewhere_says_it_started(store, database, clock, kind):
    """3 joins, or the host adds a computer, in one process just as the host's Start is stored in
    the other: nobody is seated, and the answer says the game started (it said the table was
    full, of a lobby with seats left)."""
    other = store if database.kind == "sqlite" else await database.open(clock)
    try:
        here, there = SessionService(store), SessionService(other)
        await here.lobby.create("nim", guild_id=1, channel_id=CH, host_id=1, host_name="p1", max_players=4)
        await here.lobby.join(CH, 2, "p2")
        answer, started = await meanwhile_sqlite(store, acts(here, kind, 3), lambda: there.lobby.start(CH, 1))
        assert isinstance(answer, Refusal) and str(answer) == "this game has already started", answer
        now = await here.core.require(CH)
        assert now.status == "active" and len(now.seats) == 2
    finally:
        if other is not store:
            await other.close()


def test_a_computer_is_named_apart_from_every_seat():
    """A computer's name is the first of the table's names no seat has, else "Cpu n" past any
    seat already so named."""
    lobby = SessionService(cast(Store, None)).lobby
    assert lobby.computer_name({"p1", "Cpu Ada"}) == "Cpu Blaise"
    everyone = {"Cpu Ada", "Cpu Blaise", "Cpu Carl", "Cpu Dora", "Cpu Emmy"}
    assert lobby.computer_name(everyone | {"Cpu 7"}) == "Cpu 8"
    assert lobby.computer_name(everyone) == "Cpu 6"
