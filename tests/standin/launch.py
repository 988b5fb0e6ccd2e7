"""Run a discord.py client in this process against a stand-in that another process (the test) serves.

    STANDIN_TOKEN=... python -m tests.standin.launch PORT CA_FILE module:factory

``factory(connector)`` builds the client (or returns an awaitable of it), as
``StandIn.run_client`` does in-process.  The connector is the stand-in's, built
here: its resolver sends Discord's host names to the stand-in's port on
127.0.0.1 and refuses every other host, and TLS trusts the stand-in's
throw-away CA only (written to ``CA_FILE`` by ``StandIn.child_command``).  The
client logs in with ``STANDIN_TOKEN``; SIGTERM or SIGINT closes it cleanly
(SIGKILL is the test's way to kill it mid-work).
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import logging
import os
import signal
import socket
import ssl
import sys

import aiohttp
from aiohttp.abc import AbstractResolver

from tests.standin.server import HOSTS

log = logging.getLogger("tests.standin.launch")


class HostResolver(AbstractResolver):
    """Discord's hosts to the stand-in on 127.0.0.1; anything else refused (and logged as an error)."""

    def __init__(self, port: int):
        self.port = port

    async def resolve(self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET):
        if host not in HOSTS:
            log.error("the client tried to reach %s:%s, which is not Discord", host, port)
            raise OSError(f"stand-in: {host} is not a Discord host")
        return [
            {
                "hostname": host,
                "host": "127.0.0.1",
                "port": self.port,
                "family": socket.AF_INET,
                "proto": 0,
                "flags": socket.AI_NUMERICHOST,
            }
        ]

    async def close(self) -> None:
        pass


def connector(port: int, ca_file: str) -> aiohttp.TCPConnector:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.load_verify_locations(ca_file)
    return aiohttp.TCPConnector(resolver=HostResolver(port), ssl=context, use_dns_cache=False)


async def run(port: int, ca_file: str, factory_path: str) -> None:
    module, _, name = factory_path.partition(":")
    factory = getattr(importlib.import_module(module), name)
    client = factory(connector(port, ca_file))
    if inspect.isawaitable(client):
        client = await client
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, lambda: asyncio.ensure_future(client.close()))
    async with client:
        await client.start(os.environ["STANDIN_TOKEN"])


def main(argv: list[str]) -> int:
    port, ca_file, factory_path = argv
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    asyncio.run(run(int(port), ca_file, factory_path))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
