"""A relay between the bot and the tests' PostgreSQL server, which the test steers: what a network
between them could do, at the moment the test chooses instead of when the machine happens to.

The bot is given :meth:`Relay.url` (a unix socket in a folder of the relay's own); each connection
to it is one to the server, its bytes passed on both ways, until the test says otherwise:

- :meth:`Relay.hold_closes`: a connection the server closes stays open on the bot's side (what the
  server said before it closed is passed on): the server's goodbye arrives, its close does not
  yet, as over a network that has not delivered it.  :meth:`Relay.closes_held` waits until so many
  are held (their goodbyes on their way to the bot); :meth:`Relay.let_closes_go` passes the held
  closes on.
- :meth:`Relay.cut_now`: every connection cut on the bot's side at once, before the bot's event
  loop runs again: its next write to one fails (a broken pipe) before it hears of the cut.
- :meth:`Relay.stall`: nothing more the server says reaches the bot (a network cut without a
  word, or a server that hangs) until :meth:`Relay.resume`; :meth:`Relay.stall_at` stalls once
  a statement holding the given text is on its way (its Bind message, which follows the
  statement's preparation and the driver's own look-ups of its types); :meth:`Relay.stalled` waits until the server ran a statement sent
  meanwhile, its answer held; :meth:`Relay.drop` then loses what the
  server said meanwhile and cuts those connections on the bot's side (the server committed; its
  answer never came).
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
        self._held_more = asyncio.Event()  # a close was held
        self._flowing = asyncio.Event()
        self._flowing.set()
        self._answer_held = asyncio.Event()  # the server answered while stalled
        self._writers: set[asyncio.StreamWriter] = set()
        self._bot_sides: list[asyncio.StreamWriter] = []
        self._dropped: set[asyncio.StreamWriter] = set()
        self._stall_at: bytes | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> Relay:
        self._server = await asyncio.start_unix_server(self._serve, path=str(self.folder / SOCKET))
        return self

    def url(self, database: str) -> str:
        return f"postgresql://pukllay@/{database}?host={self.folder}"

    def hold_closes(self) -> None:
        self._holding = True

    async def closes_held(self, count: int) -> None:
        """Return once ``count`` closes are held: the server ended that many connections, and what
        it said before (its goodbye) has been passed on to the bot."""
        while len(self._held) < count:
            self._held_more.clear()
            await self._held_more.wait()

    async def let_closes_go(self) -> None:
        self._holding = False
        held, self._held = self._held, []
        for writer in held:
            await _close(writer)

    def cut_now(self) -> None:
        for writer in self._bot_sides:
            sock = writer.get_extra_info("socket")
            with contextlib.suppress(OSError):
                if sock is not None:
                    sock.shutdown(socket.SHUT_RDWR)

    def stall_at(self, sql: str) -> None:
        self._stall_at = sql.encode()

    def stall(self) -> None:
        self._answer_held.clear()
        self._flowing.clear()

    async def stalled(self) -> None:
        """Return once the server answered something, while stalled, that the bot did not hear:
        the server ran the statement."""
        await self._answer_held.wait()

    def resume(self) -> None:
        self._flowing.set()

    def drop(self) -> None:
        self._dropped.update(self._bot_sides)
        self.cut_now()
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
        said = Messages()
        with contextlib.suppress(OSError, ConnectionError):
            while data := await reader.read(65536):
                if upward and said.runs(data, self._stall_at):
                    self._stall_at = None
                    self.stall()
                if not upward and not self._flowing.is_set():
                    self._answer_held.set()  # the server answered: it ran the statement
                    await self._flowing.wait()
                if writer in self._dropped:
                    break
                writer.write(data)
                await writer.drain()
        if not upward and self._holding:  # the server closed: the bot is not told yet
            self._held.append(writer)
            self._held_more.set()
            return
        await _close(writer)


class Messages:
    """The bot's side of a connection cut into the protocol's messages: each is its type (one
    byte), then its length (four bytes, counting themselves), then its body; the first, the
    startup packet, has no type.  The statements prepared (Parse: name, text) are remembered, to
    know which one a Bind runs."""

    def __init__(self) -> None:
        self.buffer = b""
        self.started = False
        self.statements: dict[bytes, bytes] = {}

    def runs(self, data: bytes, sql: bytes | None) -> bool:
        """Whether ``data`` binds a statement holding ``sql`` to run it."""
        found = False
        for kind, body in self._messages(data):
            if kind == b"P":
                name, text = body.split(b"\0")[:2]
                self.statements[name] = text
            elif kind == b"B" and sql is not None:
                statement = body.split(b"\0")[1]
                found = found or sql in self.statements.get(statement, b"")
        return found

    def _messages(self, data: bytes) -> list[tuple[bytes, bytes]]:
        self.buffer += data
        found = []
        while True:
            if not self.started:
                size = int.from_bytes(self.buffer[:4], "big")
                if len(self.buffer) < 4 or len(self.buffer) < size:
                    return found
                self.buffer, self.started = self.buffer[size:], True
                continue
            size = int.from_bytes(self.buffer[1:5], "big")
            if len(self.buffer) < 5 or len(self.buffer) < 1 + size:
                return found
            found.append((self.buffer[:1], self.buffer[5 : 1 + size]))
            self.buffer = self.buffer[1 + size :]


async def _close(writer: asyncio.StreamWriter) -> None:
    writer.close()
    with contextlib.suppress(OSError, ConnectionError):
        await writer.wait_closed()
