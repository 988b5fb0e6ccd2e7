"""The strong computer level in worker processes: a search by count gives the move it gives in
the bot's process, the clock stops a search between simulations, a worker that dies or hangs is
replaced (the move is played at normal, with a log line), and the strong computers after a
person's move wait until the move is told (see SessionService.computers_play)."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading

import pytest

import engines
from bot.computers import ComputerFailed, Computers, _Worker
from bot.sessions import SessionService
from bot.storage import DEADLINE
from bot.time.scheduler import Scheduler
from engines import search
from engines.core import config_from_options, rng_for
from tests.support import nim

GUILD, CH = 10, 200


class Counter:
    """A deadline that allows ``n`` simulations: a clock made of a counter."""

    def __init__(self, n: int) -> None:
        self.left = n
        self.allowed = 0

    def __call__(self) -> bool:
        if self.left == 0:
            return True
        self.left -= 1
        self.allowed += 1
        return False


def positions(game: str, players: int, seed: int, every: int = 7, limit: int = 4):
    """(view, legal) at a few positions of a game the normal player plays."""
    module = engines.get(game).load()
    state = module.new_game(config_from_options(module.Config, players, {}), players, seed)
    found = 0
    for k in range(400):
        if module.outcome(state) is not None or found >= limit:
            return
        seat = min(module.to_move(state))
        legal = list(module.legal_moves(state, seat))
        if k % every == 3 and len(legal) > 1:
            found += 1
            yield module, module.view_for(state, seat), legal, k
        move = module.computer_move(module.view_for(state, seat), legal, rng_for(seed, k))
        state, _ = module.apply_move(state, seat, move)


SECONDS = 0.1
"""The thinking time the clock tests plan for: 15 simulations in Guanga and Guacamole (150 at the
table's second); the search plays the same rounds of sequential halving, with fewer worlds per
candidate in each."""


@pytest.mark.parametrize("game", ["guanga", "guacamole"])
def test_the_clock_stops_the_search_between_simulations_and_the_count_decides_the_move(game):
    """By the clock the search runs exactly as many simulations as the deadline allows, short
    of the plan or past it (its last round goes on until the deadline), and the same count gives
    the same move."""
    searched = 0
    for module, view, legal, k in positions(game, 2, seed=3):
        plan = search.simulations_for(SECONDS, module.ai.SIMULATIONS_PER_SECOND)
        for n in (5, 20):
            assert n < plan if n == 5 else n > plan
            first, again = Counter(n), Counter(n)
            a = module.computer_move(view, legal, rng_for(3, k), "strong", SECONDS, deadline=first)
            b = module.computer_move(view, legal, rng_for(3, k), "strong", SECONDS, deadline=again)
            assert a == b
            assert first.allowed == again.allowed
            # a search runs until the deadline says stop: every simulation it allows, no fewer
            # (none when there is a single candidate, and then the deadline is never asked)
            assert first.left == 0 or first.allowed == 0
            searched += first.allowed > 0
    assert searched >= 4


async def test_a_search_by_count_in_a_worker_gives_the_move_of_the_bots_process():
    computers = Computers(1, by_clock=False)
    await computers.start()
    try:
        for game in ("guanga", "tiwanaku", "pachakuna"):
            for module, view, legal, k in positions(game, 2, seed=9, limit=2):
                here = module.computer_move(view, legal, rng_for(9, k), "strong", 0.05)
                there = await computers.move(module, view, legal, rng_for(9, k), "strong", 0.05)
                assert there == here, (game, k)
    finally:
        await computers.close()


async def play_until_a_computer_searched(service: SessionService, computers: Computers, poke) -> None:
    """Start the Nim game (or, when the person moves first, play their move) and call ``poke``
    once a worker is searching; returns when the move is done."""
    task = asyncio.create_task(service.lobby.start(CH, 1))
    while True:
        searching = asyncio.create_task(computers.until_searching())
        await asyncio.wait({task, searching}, return_when=asyncio.FIRST_COMPLETED)
        searching.cancel()
        if not task.done():
            poke()
            await task
            return
        await task
        legal = await service.play.legal_moves(CH, 1)
        task = asyncio.create_task(service.play.play(CH, 1, legal[0]))


async def seated(store, computers: Computers, seconds: float) -> SessionService:
    service = SessionService(store, computer_seconds=seconds, computers=computers)
    await service.lobby.create("nim", guild_id=GUILD, channel_id=CH, host_id=1, host_name="ann", seed=5)
    await service.lobby.add_computer(CH, 1, "strong")
    return service


async def test_a_worker_killed_mid_search_is_replaced_and_the_move_is_played_at_normal(store, caplog):
    computers = Computers(1)
    await computers.start()
    try:
        service = await seated(store, computers, 600.0)  # it would search for ten minutes
        (old,) = computers.pids()
        with caplog.at_level(logging.WARNING):
            await play_until_a_computer_searched(service, computers, lambda: os.kill(old, signal.SIGKILL))
        (new,) = computers.pids()
        assert new != old
        assert f"(pid {old}) died; it is replaced" in caplog.text
        assert "failed (the worker died); it plays this move at normal" in caplog.text
        session = await service.core.require(CH)
        assert any(m.by_computer for m in await store.history.moves(session.id))
        # the new worker searches (by the clock, briefly)
        service.computer_seconds = 0.01
        module, view = session.engine, session.engine.view_for(session.state, 1)
        legal = list(module.legal_moves(session.state, 1)) or [nim.parse_move("A1")]
        assert await computers.move(module, view, legal, rng_for(1), "strong", 0.01) in legal
    finally:
        await computers.close()


async def test_a_hung_worker_is_replaced_and_the_move_is_played_at_normal(store, caplog, monkeypatch):
    monkeypatch.setenv(nim.HANG, "1")  # the workers' strong Nim never answers
    computers = Computers(1, hang_margin=0.3)
    await computers.start()
    try:
        service = await seated(store, computers, 0.05)
        (old,) = computers.pids()
        with caplog.at_level(logging.WARNING):
            await play_until_a_computer_searched(service, computers, lambda: None)
        (new,) = computers.pids()
        assert new != old
        assert "did not answer within 0.3 s; it is replaced" in caplog.text
        assert "failed (the search took too long); it plays this move at normal" in caplog.text
        session = await service.core.require(CH)
        assert any(m.by_computer for m in await store.history.moves(session.id))
        with pytest.raises(ProcessLookupError):
            os.kill(old, 0)  # the hung worker was ended
    finally:
        await computers.close()


async def test_strong_computers_after_a_persons_move_wait_for_it_to_be_told(service):
    """With ``computers_wait`` the person's move comes back alone; each strong computer's turn
    is then played by its own computers_play; normal computers still play at once."""
    service.computers_wait = True
    service.new_seed = lambda: 5
    await service.lobby.create("nim", guild_id=GUILD, channel_id=CH, host_id=1, host_name="ann", seed=5)
    await service.lobby.add_computer(CH, 1, "strong")
    await service.lobby.add_computer(CH, 1, "normal")
    await service.lobby.add_computer(CH, 1, "strong")
    session = (await service.lobby.start(CH, 1)).session
    person = session.seat_of(1).seat
    while person not in session.to_move():  # the computers before the person moved at start
        result = await service.play.computers_play(session.id)
        assert result is not None
        session = result.session
    legal = await service.play.legal_moves(CH, 1)
    result = await service.play.play(CH, 1, legal[0])
    levels = {s.seat: s.computer_level for s in session.seats}
    # the person's move, and the normal computer's when it comes next, but no strong one's
    assert result.played[0].seat == person and result.computers_next
    assert all(levels[p.seat] == "normal" for p in result.played[1:])
    told = len(await service.store.history.moves(session.id))
    turns = []
    while result is not None and result.session.status == "active":
        result = await service.play.computers_play(session.id)
        if result is None:
            break
        turns.append([(p.seat, p.by_computer) for p in result.played])
        if not result.computers_next:
            break
    # one strong computer's turn per call, the normal one joining the strong turn before it
    for turn in turns:
        strong = [seat for seat, _ in turn if levels[seat] == "strong"]
        assert len(strong) == 1 and turn[0][0] == strong[0]
    assert turns and len(await service.store.history.moves(session.id)) > told


async def test_after_a_turn_timer_moves_for_a_person_the_strong_computer_waits_for_the_post(
    service, clock, monkeypatch
):
    """The table moves for a late person at normal; the strong computer after them does not
    search before that move is posted (``computers_next``), and plays when the table asks."""
    monkeypatch.setattr(nim, "TABLE_MOVES", False)
    service.computers_wait = True
    await service.lobby.create("nim", guild_id=GUILD, channel_id=CH, host_id=1, host_name="ann", seed=4)
    await service.lobby.join(CH, 2, "bob")
    await service.lobby.add_computer(CH, 1, "strong")
    session = (await service.lobby.start(CH, 1)).session
    cpu = next(s.seat for s in session.seats if s.computer)
    while (seat := min(session.to_move())) != (cpu - 1) % 3:
        if seat == cpu:
            session = (await service.play.computers_play(session.id)).session
            continue
        user = session.by_seat(seat).user_id
        session = (await service.play.play(CH, user, (await service.play.legal_moves(CH, user))[0])).session
    await service.clocks.set_timer(CH, 1, 3600, can_manage=False)
    scheduler = Scheduler(service.store, owner="here")
    fired = []

    async def handler(job):
        fired.append(await service.clocks.fire_clock(int(job.key), job))

    scheduler.register(DEADLINE, handler)
    clock.advance(3600)
    assert await scheduler.run_due() == 1
    (result,) = fired
    assert [(p.seat, p.by_computer) for p in result.played] == [((cpu - 1) % 3, True)]
    assert result.computers_next and result.turn_ended
    follow = await service.play.computers_play(session.id)
    assert follow is not None and [p.seat for p in follow.played] == [cpu]


async def test_a_search_that_waited_for_a_worker_is_not_taken_for_a_hung_one(monkeypatch, caplog):
    """One worker, two strong searches at once: the first hangs and its worker is replaced (which
    takes a while); the second, which waited meanwhile, gets the new worker and its move.  The
    time a search waits for a worker is not held against the worker that then serves it."""
    monkeypatch.setenv(nim.HANG, "1")  # the first worker's strong Nim never answers
    computers = Computers(1, hang_margin=1.0)
    await computers.start()
    monkeypatch.delenv(nim.HANG)  # its replacement answers
    try:
        (old,) = computers.pids()
        state = nim.new_game(nim.Config(players=2), 2, 3)
        view, legal = nim.view_for(state, 0), list(nim.legal_moves(state, 0))
        with caplog.at_level(logging.WARNING):
            first = asyncio.create_task(computers.move(nim, view, legal, rng_for(3, 1), "strong", 0.05))
            await computers.until_searching()
            second = asyncio.create_task(computers.move(nim, view, legal, rng_for(3, 2), "strong", 0.05))
            with pytest.raises(ComputerFailed):
                await first
            assert await second in legal
        assert caplog.text.count("it is replaced") == 1
        (new,) = computers.pids()
        assert new != old
    finally:
        await computers.close()


async def test_a_strong_computer_to_move_first_waits_for_the_first_board(service):
    """A start the table posts (``posted``): a strong computer to move first does not search
    before the first board is told (``computers_next``); the table then plays it. Without
    ``posted`` (a league's start, which posts its own way) it plays at once, as before."""
    service.computers_wait = True
    for channel, posted in ((CH, True), (CH + 1, False)):
        await service.lobby.create(
            "nim", guild_id=GUILD, channel_id=channel, host_id=1, host_name="ann", seed=6
        )
        await service.lobby.add_computer(channel, 1, "strong")
        result = await service.lobby.start(channel, 1, posted=posted)
        cpu = next(s.seat for s in result.session.seats if s.computer)
        if posted:
            assert result.played == [] and result.computers_next
            assert result.session.to_move() == {cpu}
            follow = await service.play.computers_play(result.session.id)
            assert follow is not None and [p.seat for p in follow.played] == [cpu]
        else:
            assert [p.seat for p in result.played] == [cpu] and not result.computers_next


async def test_a_worker_started_while_the_table_closes_is_ended(monkeypatch):
    """A worker being replaced (one died, hung, or its search was cancelled) when the table closes:
    the fresh one, which started after the close took the list of workers, is ended too."""
    computers = Computers(1)
    await computers.start()
    (old,) = computers._all
    starting, go_on = threading.Event(), threading.Event()
    real = _Worker.started.__func__

    def held(cls, context, preload):
        starting.set()
        go_on.wait(60)
        return real(cls, context, preload)

    monkeypatch.setattr(_Worker, "started", classmethod(held))
    replacing = asyncio.create_task(computers._replace(old))
    assert await asyncio.to_thread(starting.wait, 60)
    await computers.close()  # while the fresh worker starts
    go_on.set()
    fresh = await replacing
    assert fresh is not old and not fresh.process.is_alive() and not old.process.is_alive()
    assert computers.pids() == []
