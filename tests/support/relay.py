"""A relay between the bot and the tests' PostgreSQL server, which the test steers: what a network
between them could do, at the moment the test chooses instead of when the machine happens to.

The bot is given :meth:`Relay.url` (a unix socket in a folder of the relay's own); each connection
to it is one to the server, its bytes passed on both ways, until the test says otherwise:

- :meth:`Relay.hold_closes`: a connection the server closes stays open on the bot's side (what the
  server said before it closed is passed on): the server's goodbye arrives, its close does not
  yet, as over a network that has not delivered it.  :meth:`Relay.let_closes_go` passes the held
  closes on.
- :meth:`Relay.cut_now`: every connection cut on the bot's side at once, before the bot's event
  loop runs again: its next write to one fails (a broken pipe) before it hears of the cut.
- :meth:`Relay.stall`: nothing more the server says reaches the bot (a network cut without a
  word, or a server that hangs) until :meth:`Relay.resume`; :meth:`Relay.stalled` waits until a
  statement sent meanwhile reached the server, unanswered.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import socket
import tempfile
from pathlib import Path
from typing import Any

SOCKET = ".s.PGSQL.5432"


class Relay:
    def __init__(self, cluster: Any) -> None:
        self.target = str(Path(cluster.socket) / SOCKET)
        self.folder = Path(tempfile.mkdtemp(prefix="pukllay-relay-"))
        self._server: asyncio.AbstractServer | None = None
        self._holding = False
        self._held: list[asyncio.StreamWriter] = []
        self._flowing = asyncio.Event()
        self._flowing.set()
        self._waiting_bytes = asyncio.Event()  # a statement reached the server while stalled
        self._writers: set[asyncio.StreamWriter] = set()
        self._bot_sides: list[asyncio.StreamWriter] = []
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> Relay:
        self._server = await asyncio.start_unix_server(self._serve, path=str(self.folder / SOCKET))
        return self

    def url(self, database: str) -> str:
        return f"postgresql://pukllay@/{database}?host={self.folder}"

    def hold_closes(self) -> None:
        self._holding = True

    async def let_closes_go(self) -> None:
        self._holding = False
        held, self._held = self._held, []
        for writer in held:
            await _close(writer)

    def cut_now(self) -> None:
        for writer in self._bot_sides:
            with contextlib.suppress(OSError):
                writer.get_extra_info("socket").shutdown(socket.SHUT_RDWR)

    def stall(self) -> None:
        self._waiting_bytes.clear()
        self._flowing.clear()

    async def stalled(self) -> None:
        """Return once the bot sent the server something, while stalled, that it will not hear
        the answer to."""
        await self._waiting_bytes.wait()

    def resume(self) -> None:
        self._flowing.set()

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        self._flowing.set()
        for writer in [*self._writers]:
            await _close(writer)
        for task in [*self._tasks]:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        shutil.rmtree(self.folder, ignore_errors=True)

    async def _serve(self, bot_in: asyncio.StreamReader, bot_out: asyncio.StreamWriter) -> None:
        try:
            server_in, server_out = await asyncio.open_unix_connection(self.target)
        except OSError:
            await _close(bot_out)
            return
        self._writers |= {bot_out, server_out}
        self._bot_sides.append(bot_out)
        up = asyncio.create_task(self._pass(bot_in, server_out, upward=True))
        down = asyncio.create_task(self._pass(server_in, bot_out, upward=False))
        self._tasks |= {up, down}
        for task in (up, down):
            task.add_done_callback(self._tasks.discard)

    async def _pass(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *, upward: bool
    ) -> None:
        with contextlib.suppress(OSError, ConnectionError):
            while data := await reader.read(65536):
                if not upward:
                    await self._flowing.wait()
                writer.write(data)
                await writer.drain()
                if upward and not self._flowing.is_set():
                    self._waiting_bytes.set()
        if not upward and self._holding:  # the server closed: the bot is not told yet
            self._held.append(writer)
            return
        await _close(writer)


async def _close(writer: asyncio.StreamWriter) -> None:
    writer.close()
    with contextlib.suppress(OSError, ConnectionError):
        await writer.wait_closed()
