"""Turn timers: deadlines are jobs in the database, fired by the scheduler on the table's clock.

The tests move the clock (``clock.advance``) instead of waiting, on both back ends.
"""

from __future__ import annotations

import sqlite3

import pytest

import engines
from bot.sessions import Refusal, SessionService, damaged_text
from bot.storage import DEADLINE, migrations, open_store
from bot.storage.base import MIGRATIONS_TABLE
from bot.time import gameclock as gc
from bot.time.scheduler import Scheduler
from engines.core import TABLE, name_seats
from tests.support import nim

CH = 77
HOUR = 3600


async def started(service, seed=3):
    await service.lobby.create("nim", guild_id=1, channel_id=CH, host_id=1, host_name="ann", seed=seed)
    await service.lobby.join(CH, 2, "bob")
    return (await service.lobby.start(CH, 1)).session


def deadline_scheduler(service, fired, owner="here"):
    """A scheduler whose deadline handler fires through ``service`` and notes each result."""
    scheduler = Scheduler(service.store, owner=owner)

    async def handler(job):
        result = await service.clocks.fire_clock(int(job.key), job)
        fired.append(result)

    scheduler.register(DEADLINE, handler)
    return scheduler


async def test_timer_only_for_host_or_manager(service):
    """Only the host or someone with Manage Channels sets the timer; 0 turns it off."""
    session = await started(service)
    with pytest.raises(Refusal, match="only the host"):
        await service.clocks.set_timer(CH, 2, HOUR, can_manage=False)
    session = await service.clocks.set_timer(CH, 2, HOUR, can_manage=True)
    assert session.row.timer_seconds == HOUR
    job = await service.store.jobs.job(DEADLINE, str(session.id))
    assert job.payload == {"version": session.version} and job.due_at == service.store.clock.time() + HOUR
    await service.clocks.set_timer(CH, 1, 0, can_manage=False)
    assert await service.store.jobs.job(DEADLINE, str(session.id)) is None


async def test_table_move_when_the_deadline_passes(service, clock):
    """A game with table moves gets the table's move (Nim skips the late player), once."""
    session = await started(service)
    late = session.by_seat(session.state.turn)
    await service.clocks.set_timer(CH, 1, HOUR, can_manage=False)
    fired = []
    scheduler = deadline_scheduler(service, fired)
    clock.advance(HOUR - 1)
    assert await scheduler.run_due() == 0 and fired == []  # not yet
    clock.advance(1)
    assert await scheduler.run_due() == 1
    (result,) = fired
    assert result is not None and "Time is up" in str(result.note)
    assert result.played[0].seat == TABLE and result.played[0].move == "skip"
    assert result.session.state.turn != late.seat
    log = await service.store.history.moves(session.id)
    assert [(m.seat, m.move) for m in log] == [(TABLE, "skip")]
    assert nim.to_dict(await service.logbook.replay(session.id)) == nim.to_dict(result.session.state)
    # Re-armed for the next turn, an hour from now; nothing more is due.
    job = await service.store.jobs.job(DEADLINE, str(session.id))
    assert job.payload == {"version": result.session.version} and job.claim is None
    assert await scheduler.run_due() == 0 and len(fired) == 1


async def test_computer_moves_for_the_late_player(service, clock, monkeypatch):
    """Without table moves the computer moves once for whoever is late."""
    monkeypatch.setattr(nim, "TABLE_MOVES", False)
    session = await started(service)
    late = session.by_seat(session.state.turn)
    await service.clocks.set_timer(CH, 1, HOUR, can_manage=False)
    clock.advance(HOUR)
    fired = []
    assert await deadline_scheduler(service, fired).run_due() == 1
    (result,) = fired
    assert (
        name_seats(str(result.note), result.session.names())
        == f"⏰ Time ran out for {late.name}; the computer made the move."
        and result.played[0].seat == late.seat
        and result.played[0].by_computer
    )
    assert not result.session.seat_of(late.user_id).computer  # the seat stays the player's


async def test_a_timer_that_runs_out_for_several_seats_at_once_says_so_in_the_plural(service, clock):
    """Guanga's first step is everyone's at once: a turn timer runs out for all who have not kept
    an order, the computer moves for each, and the note counts them (in Spanish too)."""
    from languages import language

    await service.lobby.create(
        "guanga",
        guild_id=1,
        channel_id=CH,
        host_id=1,
        host_name="ann",
        seed=5,
        options={"mode": "apprentice"},
    )
    for uid, name in ((2, "bob"), (3, "cy")):
        await service.lobby.join(CH, uid, name)
    session = (await service.lobby.start(CH, 1)).session
    await service.clocks.set_timer(CH, 1, HOUR, can_manage=False)
    seat = session.seat_of(3).seat
    await service.play.play(CH, 3, str(next(iter(session.engine.legal_moves(session.state, seat)))))
    clock.advance(HOUR)
    fired = []
    assert await deadline_scheduler(service, fired).run_due() == 1
    (result,) = fired
    names = result.session.names()
    assert sorted(m.seat for m in result.played) == sorted(session.seat_of(u).seat for u in (1, 2))
    english = name_seats(str(result.note), names)
    assert english.endswith("; the computer made their moves.") and "ann" in english and "bob" in english
    spanish = name_seats(result.note.in_words(language("es")), names)
    assert spanish.startswith("⏰ Se les acabó el tiempo a ") and spanish.endswith(
        "la máquina hizo sus jugadas."
    )


async def test_a_move_in_time_cancels_the_deadline(service, clock):
    """A move made before the deadline re-arms it for the new turn: the old one never fires."""
    session = await started(service)
    await service.clocks.set_timer(CH, 1, HOUR, can_manage=False)
    clock.advance(HOUR - 10)
    mover = session.by_seat(session.state.turn).user_id
    await service.play.play(CH, mover, (await service.play.legal_moves(CH, mover))[0])
    clock.advance(10)
    fired = []
    assert await deadline_scheduler(service, fired).run_due() == 0
    assert len(await service.store.history.moves(session.id)) == 1


async def test_a_deadline_claimed_while_a_move_lands_does_nothing(service, clock):
    """The scheduler claimed the deadline; a player moves before it fires: the stale claim acts not."""
    await started(service)
    session = await service.clocks.set_timer(CH, 1, HOUR, can_manage=False)
    clock.advance(HOUR)
    (job,) = await service.store.jobs.claim_jobs("here", lease=60)
    mover = session.by_seat(session.state.turn).user_id
    await service.play.play(CH, mover, (await service.play.legal_moves(CH, mover))[0])
    assert await service.clocks.fire_clock(session.id, job) is None
    assert not await service.store.jobs.complete_job(job)  # the re-armed deadline stays
    assert (await service.store.jobs.job(DEADLINE, str(session.id))).payload["version"] == session.version + 1
    assert len(await service.store.history.moves(session.id)) == 1


async def test_two_processes_racing_one_deadline_act_once(service, clock):
    """Two schedulers (as two processes would) both try; the deadline acts once."""
    session = await started(service)
    await service.clocks.set_timer(CH, 1, HOUR, can_manage=False)
    clock.advance(HOUR)
    (job,) = await service.store.jobs.claim_jobs("one", lease=60)
    clock.advance(61)  # process one stalled past its lease
    (again,) = await service.store.jobs.claim_jobs("two", lease=60)
    first = await service.clocks.fire_clock(session.id, again)
    second = await service.clocks.fire_clock(session.id, job)
    assert first is not None and second is None
    assert len(await service.store.history.moves(session.id)) == 1


async def test_deadlines_survive_a_restart(database, clock):
    """A pending deadline is in the database: a new process finds it and acts."""
    store = await database.open(clock)
    service = SessionService(store)
    session = await started(service)
    await service.clocks.set_timer(CH, 1, HOUR, can_manage=False)
    await store.close()
    clock.advance(2 * HOUR)
    store = await database.open(clock)
    try:
        service = SessionService(store)
        fired = []
        assert await deadline_scheduler(service, fired, owner="restarted").run_due() == 1
        assert fired[0] is not None and fired[0].session.id == session.id
    finally:
        await store.close()


async def test_finished_games_have_no_deadline(service, clock):
    """Ending a game clears its deadline."""
    await started(service)
    await service.clocks.set_timer(CH, 1, HOUR, can_manage=False)
    await service.seats.abandon(CH, 1, can_manage=False)
    assert await service.store.jobs.pending(DEADLINE) == []
    clock.advance(2 * HOUR)
    assert await service.store.jobs.claim_jobs("here", lease=60) == []


async def test_a_failing_job_is_retried_then_dropped(service, clock, caplog):
    """A handler that raises is tried again later, a few times, then the job is dropped and logged."""
    calls = []
    scheduler = Scheduler(service.store, owner="here", retry_after=10, max_attempts=3)

    async def broken(job):
        calls.append(job.attempts)
        raise RuntimeError("cannot reach anything")

    scheduler.register("reminder", broken)
    with pytest.raises(ValueError, match="already registered"):
        scheduler.register("reminder", broken)
    await scheduler.schedule("reminder", "x", clock.time())
    for _ in range(5):
        await scheduler.run_due()
        clock.advance(100)
    assert calls == [1, 2, 3] and await service.store.jobs.pending() == []
    assert "dropped" in caplog.text


def test_nim_refuses_table_moves_from_players():
    """A player cannot make the table's move."""
    state = nim.new_game(nim.Config(), 2, 1)
    with pytest.raises(engines.core.IllegalMove, match="only the table"):
        nim.apply_move(state, 0, nim.parse_move("skip"))


async def test_a_timer_stored_before_timers_were_clocks_still_runs_out(database, clock):
    """A running game with a 90-minute timer and its deadline job as an older Pukllay stored
    them (no clock): the upgrade gives it the timer's clock, the job stays, and when it falls the
    table acts once and the timer runs on, as before."""
    store = await database.open(clock)
    service = SessionService(store)
    session = await started(service)
    await database.execute(
        "UPDATE sessions SET clock = NULL, clock_state = NULL, timer_seconds = ? WHERE id = ?",
        5400,
        session.id,
    )
    await Scheduler(store).schedule(
        DEADLINE, str(session.id), clock.time() + 5400, {"version": session.version}
    )
    await database.execute("DELETE FROM schema_migrations WHERE name = 'timer_clocks'")
    await store.close()
    store = await database.open(clock)
    try:
        service = SessionService(store)
        session = await service.core.require(CH)
        assert session.clock == gc.ClockSpec(gc.TIMER, 5400) and session.row.clock == "timer:1h30m"
        fired: list = []
        scheduler = deadline_scheduler(service, fired)
        clock.advance(5400)
        assert await scheduler.run_due() == 1
        (result,) = fired
        assert result is not None and [(m.seat, m.move) for m in await store.history.moves(session.id)] == [
            (TABLE, "skip")
        ]
        job = await store.jobs.job(DEADLINE, str(session.id))
        assert job is not None and job.due_at == clock.time() + 5400
    finally:
        await store.close()


async def test_games_with_a_turn_timer_written_before_timer_clocks_get_the_timer_clock(db_path, clock):
    """An SQLite file at the schema before timer clocks: a running game with a 1.5-hour timer, a
    lobby with a 95.2-second one, a finished game and a game with a clock; the upgrade gives the
    first two the timer's clock and leaves the others alone."""
    known = migrations("sqlite")
    (upgrade,) = [n for n, name, _ in known if name == "timer_clocks"]
    con = sqlite3.connect(db_path)
    con.execute(MIGRATIONS_TABLE)
    for number, name, sql in known:
        if number < upgrade:
            con.executescript(sql)
            con.execute("INSERT INTO schema_migrations VALUES (?, ?, 'then')", (number, name))
    rows = [("active", 5400.0, None), ("lobby", 95.2, None), ("finished", 3600.0, None)]
    rows.append(("active", 7200.0, "move:2h"))
    for channel, (status, timer, spec) in enumerate(rows, start=10):
        con.execute(
            "INSERT INTO sessions (game, guild_id, channel_id, host_id, status, options, max_players, seed,"
            " created_at, updated_at, timer_seconds, clock) VALUES ('nim', 9, ?, 1, ?, '{}', 2, 5, 'then',"
            " 'then', ?, ?)",
            (channel, status, timer, spec),
        )
    con.commit()
    con.close()
    store = await open_store(str(db_path), clock=clock)
    try:
        clocks = [(r.clock, r.timer_seconds) for r in [await store.games.session(i) for i in range(1, 5)]]
        assert clocks == [("timer:1h30m", 5400.0), ("timer:1m35s", 95.0), (None, 3600.0), ("move:2h", 7200.0)]
    finally:
        await store.close()


async def test_an_engine_failing_at_the_deadline_names_no_secret_where_everyone_reads(
    service, clock, monkeypatch
):
    """The computer moving for a late player fails with words from the seat's view (its secret
    number): the game is damaged, and why, as /game status, refusals and the web page say it to
    everyone, names the kind of failure only (the whole message stays in the log)."""
    monkeypatch.setattr(nim, "TABLE_MOVES", False)

    def failing(view, legal, rng, *args, **kwargs):
        raise ValueError(f"no move fits secret {view.secrets[view.seat]}")

    monkeypatch.setattr(nim, "computer_move", failing)
    session = await started(service)
    secret = str(session.state.secrets[session.state.turn])
    await service.clocks.set_timer(CH, 1, HOUR, can_manage=False)
    clock.advance(HOUR)
    fired = []
    assert await deadline_scheduler(service, fired).run_due() == 1
    damaged = await service.core.get(session.id)
    assert damaged.damaged == "the engine failed when the turn timer ran out (ValueError)"
    assert secret not in damaged_text(damaged).in_words()
