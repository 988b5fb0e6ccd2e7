"""Where computer players think: the strong level in worker processes, the others in place.

The strong level searches for about a second in pure Python.  Run in a thread of the
bot's process it would hold the interpreter's lock and slow every other game on the
bot, so :class:`Computers` keeps a pool of worker processes (``COMPUTER_WORKERS``,
one per core by default), started once with the bot and stopped at its close.  A
search is sent the seat's view, the legal moves and the seeded generator, and
answers a move; the engines do the same work as in the bot's process, so a search
by count gives the same move there and here.  The workers run at a lower scheduling
priority (:data:`NICENESS`): on a busy machine the table's own process comes first,
and a search by the clock runs fewer simulations instead.

By the clock (the table's way): the search is given a deadline, the moment the
table asked plus the thinking time, asked before every simulation; the move comes
within the thinking time and a small margin on any machine, and the number of
simulations the search managed is logged at DEBUG.  By count (``by_clock=False``,
the tests' and the benches' way): the game's planned number of simulations, so a
seeded move is reproducible.

A worker that dies, fails, or does not answer within the thinking time plus
:data:`HANG_MARGIN` of being handed the search (a search that waited for a busy worker is not
held to the time it waited) is replaced; the caller gets :class:`ComputerFailed` and plays
the normal level for that move.  The ``easy`` and ``normal`` levels take well under
a millisecond and play in the bot's process; so does everything with no workers
(``COMPUTER_WORKERS=0``), the strong level then in a thread.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import multiprocessing
import os
import random
import signal
import time
import traceback
from multiprocessing.connection import Connection
from multiprocessing.context import SpawnContext
from typing import cast

import engines
from engines.core import DEFAULT_LEVEL, Engine
from engines.search import DEFAULT_SECONDS

log = logging.getLogger(__name__)

IN_PROCESS = frozenset({"easy", "normal"})
"""Levels that play in the bot's process (each move well under a millisecond; see bench/computer.py)."""

HANG_MARGIN = 2.0
"""Seconds past the thinking time after which a worker that has not answered is replaced."""

NICENESS = 10
"""How much lower than the bot's the workers' scheduling priority is (``os.nice``)."""

READY_SECONDS = 30.0
"""How long a new worker is given to import the games before it is sent searches anyway."""

COUNT_HANG = (5.0, 10.0)
"""A search by count has no deadline: it is replaced after ``a * seconds + b`` seconds."""


class ComputerFailed(Exception):
    """A worker died, failed or hung; the move is to be played at the normal level."""


class Clock:
    """The deadline of a search by the clock (in a worker), counting the simulations it allowed.

    :func:`engines.search.choose` asks it before every simulation."""

    def __init__(self, at: float) -> None:
        self.at = at
        self.simulations = 0

    def __call__(self) -> bool:
        if time.monotonic() >= self.at:
            return True
        self.simulations += 1
        return False


def serve(conn: Connection, preload: tuple[str, ...] = ()) -> None:
    """A worker's loop: one search at a time, until the pipe closes or ``None`` comes.

    ``preload``: the game modules imported at start, so that no search pays for an import."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the bot stops its workers itself
    try:  # the table's own process comes first for the processor; a search by the clock only
        os.nice(NICENESS)  # runs fewer simulations for it
    except OSError:
        pass
    for name in preload:
        try:
            importlib.import_module(name)
        except Exception:  # a game that cannot load is refused when a search asks for it
            pass
    conn.send("ready")
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        name, view, legal, rng, level, seconds, at = job
        clock = Clock(at) if at is not None else None
        try:
            module = cast(Engine, importlib.import_module(name))
            by_clock = {} if clock is None else {"deadline": clock}
            move = module.computer_move(view, legal, rng, level, seconds, **by_clock)
        except Exception as exc:
            conn.send(("error", f"{type(exc).__name__}: {exc}", traceback.format_exc()))
            continue
        conn.send(("ok", move, None if clock is None else clock.simulations))


class _Worker:
    def __init__(self, context: SpawnContext, preload: tuple[str, ...]) -> None:
        self.conn, theirs = context.Pipe()
        self.process = context.Process(
            target=serve, args=(theirs, preload), daemon=True, name="pukllay-computer"
        )
        self.process.start()
        theirs.close()

    @classmethod
    def started(cls, context: SpawnContext, preload: tuple[str, ...]) -> _Worker:
        """A worker that has imported the games (or that took :data:`READY_SECONDS` trying)."""
        worker = cls(context, preload)
        try:
            if worker.conn.poll(READY_SECONDS):
                worker.conn.recv()
        except (EOFError, OSError):
            pass  # it died: the first search finds out and replaces it
        return worker

    def kill(self) -> None:
        self.conn.close()
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)


class Computers:
    """The computer players' moves, each level where it belongs (see the module's text).

    ``workers``: worker processes for the strong level (0: in a thread of this process).
    ``by_clock``: the strong level searches until its deadline (else by count)."""

    def __init__(self, workers: int = 0, *, by_clock: bool = True, hang_margin: float = HANG_MARGIN) -> None:
        if workers < 0:
            raise ValueError("the number of computer workers cannot be negative")
        self.workers = workers
        self.by_clock = by_clock and workers > 0
        self.hang_margin = hang_margin
        self._context = multiprocessing.get_context("spawn")
        self._idle: asyncio.Queue[_Worker] | None = None
        self._all: list[_Worker] = []
        self._closed = False
        self._searching = asyncio.Event()  # set while a worker searches
        # every installed game's ai module, imported by each worker as it starts
        self.preload = tuple(f"{engines.get(name).engine}.ai" for name in engines.available())

    async def start(self) -> None:
        """Start the worker processes (once; nothing to do without workers)."""
        if self._idle is not None or self.workers == 0:
            return
        self._idle = asyncio.Queue()
        started = await asyncio.gather(  # side by side: each spends its start importing the games
            *(asyncio.to_thread(_Worker.started, self._context, self.preload) for _ in range(self.workers))
        )
        for worker in started:
            self._all.append(worker)
            self._idle.put_nowait(worker)

    async def close(self) -> None:
        """Stop the workers: idle ones are asked to leave, busy ones are ended."""
        self._closed = True
        workers, self._all = self._all, []
        for worker in workers:
            try:
                worker.conn.send(None)
            except OSError:
                pass

        def stop() -> None:
            for worker in workers:
                worker.process.join(2)
                worker.kill()

        await asyncio.to_thread(stop)

    def pids(self) -> list[int]:
        """The worker processes' ids (to watch them; the tests end one)."""
        return [w.process.pid for w in self._all if w.process.pid is not None]

    def searching(self) -> int:
        """How many workers are searching now."""
        return 0 if self._idle is None else len(self._all) - self._idle.qsize()

    async def until_searching(self) -> None:
        """Return once a worker is searching (the tests end one mid-search)."""
        await self._searching.wait()

    async def move(
        self,
        module: Engine,
        view: object,
        legal: list[object],
        rng: random.Random,
        level: str,
        seconds: float | None,
    ) -> object:
        """The ``level`` computer's move from ``view``.  Raises :class:`ComputerFailed` when
        a worker failed, died or hung (the caller then plays the normal level)."""
        if level in IN_PROCESS:
            return module.computer_move(view, legal, rng, level, seconds)
        if self.workers == 0 or self._closed:
            return await asyncio.to_thread(module.computer_move, view, legal, rng, level, seconds)
        return await self._search(module, view, legal, rng, level, seconds)

    async def _search(
        self,
        module: Engine,
        view: object,
        legal: list[object],
        rng: random.Random,
        level: str,
        seconds: float | None,
    ) -> object:
        if self._idle is None:
            await self.start()
        assert self._idle is not None
        think = DEFAULT_SECONDS if seconds is None else seconds
        asked = time.monotonic()
        at = asked + think if self.by_clock else None
        worker = await self._idle.get()
        # The worker is judged from the moment it is handed the search, not from the table's
        # asking: a search that waited for a worker (all busy, one being replaced) stops at its
        # deadline, or at once when that passed meanwhile, and is answered soon after.
        handed = time.monotonic()
        hang_at = (
            max(at, handed) + self.hang_margin
            if at is not None
            else handed + COUNT_HANG[0] * think + COUNT_HANG[1]
        )
        limit = hang_at - handed
        loop = asyncio.get_running_loop()
        answer: tuple[object, ...] = ()
        try:
            worker.conn.send((module.__name__, view, legal, rng, level, seconds, at))
            self._searching.set()
            ready: asyncio.Future[None] = loop.create_future()
            fd = worker.conn.fileno()

            def readable() -> None:
                if not ready.done():
                    ready.set_result(None)

            loop.add_reader(fd, readable)
            try:
                await asyncio.wait_for(ready, max(0.0, hang_at - time.monotonic()))
            finally:
                loop.remove_reader(fd)
            answer = worker.conn.recv()
        except TimeoutError:
            log.warning(
                "a computer worker (pid %s) did not answer within %.1f s; it is replaced",
                worker.process.pid,
                limit,
            )
            worker = await self._replace(worker)
            raise ComputerFailed("the search took too long") from None
        except (EOFError, OSError) as exc:
            log.warning("a computer worker (pid %s) died; it is replaced", worker.process.pid)
            worker = await self._replace(worker)
            raise ComputerFailed("the worker died") from exc
        except BaseException:  # cancelled: the worker may still be searching
            worker = await asyncio.shield(self._replace(worker))
            raise
        finally:
            if not self._closed:
                self._idle.put_nowait(worker)
            if self.searching() == 0:
                self._searching.clear()
        if answer[0] != "ok":
            log.warning("a computer search failed in a worker: %s\n%s", answer[1], answer[2])
            raise ComputerFailed(answer[1])
        _, move, simulations = answer
        if simulations is not None:
            log.debug(
                "strong %s move in %.3f s of %.3f: %d simulations",
                module.__name__,
                time.monotonic() - asked,
                think,
                simulations,
            )
        return move

    async def _replace(self, worker: _Worker) -> _Worker:
        """End ``worker`` and start another in its place."""
        await asyncio.to_thread(worker.kill)
        if worker in self._all:
            self._all.remove(worker)
        if self._closed:
            return worker
        fresh = await asyncio.to_thread(_Worker.started, self._context, self.preload)
        if self._closed:  # closed while it started: nobody would end it
            await asyncio.to_thread(fresh.kill)
            return fresh
        self._all.append(fresh)
        return fresh


def fallback_move(module: Engine, view: object, legal: list[object], rng: random.Random) -> object:
    """The normal level's move, played when a strong search failed."""
    return module.computer_move(view, legal, rng, DEFAULT_LEVEL)
