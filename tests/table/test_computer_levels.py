"""Computer seats at a level: stored with the seat, shown beside the name, used for every move,
and thought out in a worker thread while the event loop goes on."""

from __future__ import annotations

import asyncio
import threading

import pytest

import engines.guacamole as guac
from bot.sessions import Refusal
from bot.storage import DEADLINE
from bot.time.scheduler import Scheduler
from tests.support import nim

GUILD, CH = 10, 200


def recording(monkeypatch, module):
    """Wrap ``module.computer_move`` so each call's level and seconds are recorded (it still plays)."""
    calls: list[tuple[str, float | None]] = []
    real = module.computer_move

    def wrapped(view, legal, rng, level="normal", seconds=None):
        calls.append((level, seconds))
        return real(view, legal, rng, level, seconds)

    monkeypatch.setattr(module, "computer_move", wrapped)
    return calls


async def test_level_is_stored_shown_and_refused_when_unknown(service):
    await service.lobby.create("nim", guild_id=GUILD, channel_id=CH, host_id=1, host_name="ann", seed=5)
    session = await service.lobby.add_computer(CH, 1, "strong")
    cpu = next(s for s in session.seats if s.computer)
    assert cpu.level == "strong" and cpu.tag == " (computer, strong)"
    rows = await service.store.games.seats(session.id)
    assert [r.level for r in rows] == [None, "strong"]
    session = await service.lobby.add_computer(CH, 1)
    assert [s.level for s in session.seats] == [None, "strong", "normal"]
    with pytest.raises(Refusal, match="easy, normal, strong"):
        await service.lobby.add_computer(CH, 1, "grandmaster")
    assert len((await service.core.require(CH)).seats) == 3


async def test_each_computer_plays_at_its_level(service, monkeypatch):
    """Two computers and a person: every computer move is asked for at that seat's level."""
    calls = recording(monkeypatch, guac)
    service.computer_seconds = 0.01
    await service.lobby.create("guacamole", guild_id=GUILD, channel_id=CH, host_id=1, host_name="ann", seed=3)
    await service.lobby.add_computer(CH, 1, "strong")
    await service.lobby.add_computer(CH, 1, "easy")
    result = await service.lobby.start(CH, 1)
    session = result.session
    levels = {s.seat: s.computer_level for s in session.seats if s.computer}
    while len({lv for lv, _ in calls}) < 2 and session.status == "active":
        legal = await service.play.legal_moves(CH, 1)
        session = (await service.play.play(CH, 1, legal[-1])).session
    assert {lv for lv, _ in calls} == set(levels.values()) == {"strong", "easy"}
    assert {sec for _, sec in calls} == {0.01}
    log = [m for m in await service.store.history.moves(session.id) if m.by_computer]
    assert log and all(levels[m.seat] in ("strong", "easy") for m in log)
    # the log replays to the same state: the computers' choices were all legal and recorded
    assert guac.to_dict(await service.logbook.replay(session.id)) == guac.to_dict(session.state)


async def test_a_seat_taken_over_from_a_person_plays_normal(service, monkeypatch):
    calls = recording(monkeypatch, nim)
    await service.lobby.create("nim", guild_id=GUILD, channel_id=CH, host_id=1, host_name="ann", seed=2)
    await service.lobby.join(CH, 2, "bob")
    await service.lobby.join(CH, 3, "cy")
    await service.lobby.start(CH, 1)
    session = await service.core.require(CH)
    result = await service.seats.resign(CH, session.by_seat(min(session.to_move())).user_id)
    gone = next(s for s in result.session.seats if s.resigned)
    assert gone.computer and gone.level is None and gone.tag == " (computer, normal)"
    while result.session.status == "active" and not calls:
        mover = result.session.by_seat(min(result.session.to_move()))
        legal = await service.play.legal_moves(CH, mover.user_id)
        result = await service.play.play(CH, mover.user_id, legal[0])
    assert calls and {lv for lv, _ in calls} == {"normal"}


async def test_computers_think_off_the_event_loop(service, monkeypatch):
    """A computer move that waits for the event loop to do other work still completes:
    it runs in a worker thread, not on the loop."""
    thinking, loop_ran = threading.Event(), threading.Event()
    real = nim.computer_move

    def slow(view, legal, rng, level="normal", seconds=None):
        thinking.set()
        assert loop_ran.wait(10), "the event loop was blocked while the computer thought"
        return real(view, legal, rng, level, seconds)

    monkeypatch.setattr(nim, "computer_move", slow)
    await service.lobby.create("nim", guild_id=GUILD, channel_id=CH, host_id=1, host_name="ann", seed=5)
    await service.lobby.add_computer(CH, 1, "strong")

    async def elsewhere() -> None:
        # resumes on the loop only if the loop is free while the computer thinks
        assert await asyncio.to_thread(thinking.wait, 10)
        loop_ran.set()

    other = asyncio.create_task(elsewhere())
    session = (await service.lobby.start(CH, 1)).session
    while session.status == "active" and not any(
        m.by_computer for m in await service.store.history.moves(session.id)
    ):
        legal = await service.play.legal_moves(CH, 1)
        session = (await service.play.play(CH, 1, legal[0])).session
    await other
    assert loop_ran.is_set()
    assert any(m.by_computer for m in await service.store.history.moves(session.id))


async def test_a_late_person_gets_a_normal_move_and_a_strong_seat_stays_strong(service, clock, monkeypatch):
    """When a person's turn timer runs out the table moves for them at ``normal``; the strong
    computer beside them keeps playing at its level (with the strong thinking time)."""
    monkeypatch.setattr(nim, "TABLE_MOVES", False)
    calls = recording(monkeypatch, nim)
    service.computer_seconds = 0.03
    await service.lobby.create("nim", guild_id=GUILD, channel_id=CH, host_id=1, host_name="ann", seed=4)
    await service.lobby.join(CH, 2, "bob")
    await service.lobby.add_computer(CH, 1, "strong")
    session = (await service.lobby.start(CH, 1)).session
    strong_moves = len(calls)  # the computer may have moved first
    assert set(calls) <= {("strong", 0.03)}
    late = session.by_seat(min(session.to_move()))
    assert not late.computer
    await service.clocks.set_timer(CH, 1, 3600, can_manage=False)
    scheduler = Scheduler(service.store, owner="here")
    fired = []

    async def handler(job):
        fired.append(await service.clocks.fire_clock(int(job.key), job))

    scheduler.register(DEADLINE, handler)
    clock.advance(3600)
    assert await scheduler.run_due() == 1
    (result,) = fired
    assert result.played[0].seat == late.seat and result.played[0].by_computer
    assert calls[strong_moves] == ("normal", None)  # the late person's move
    later = calls[strong_moves + 1 :]
    computer_seat = next(s.seat for s in result.session.seats if s.computer)
    assert later and all(c == ("strong", 0.03) for c in later)
    assert len(later) == sum(1 for p in result.played if p.seat == computer_seat)
