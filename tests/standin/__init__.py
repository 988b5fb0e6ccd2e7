"""A stand-in for Discord that the real discord.py client connects to in end-to-end tests.

Usage::

    from tests.standin import StandIn

    async with StandIn() as discord_:
        alice, bob = discord_.add_users("alice", "bob")
        chan = discord_.guild.text_channels[0]
        async with discord_.run_client(lambda connector: make_bot(connector=connector,
                                                                  guild_ready_timeout=0.01)):
            await discord_.wait_synced()
            r = await discord_.slash(alice, chan, "game join")
            r = await discord_.click(bob, r.message, "lobby:join")

See ``server.py`` for the whole helper API and ``fixtures.py`` for the pytest fixtures.
"""

from .model import Attachment, Channel, Guild, Interaction, Member, Message, Role, User
from .server import (
    ClientError,
    ClientStopped,
    Injection,
    InteractionResult,
    RawResponse,
    StandIn,
    StandInError,
    StandInTimeout,
    UsageError,
    Violation,
)

__all__ = [
    "Attachment",
    "Channel",
    "ClientError",
    "ClientStopped",
    "Guild",
    "Injection",
    "Interaction",
    "InteractionResult",
    "RawResponse",
    "Member",
    "Message",
    "Role",
    "StandIn",
    "StandInError",
    "StandInTimeout",
    "UsageError",
    "User",
    "Violation",
]
