"""A person the server's cap on running games holds back in the queue is seated as soon as a seat
of theirs is given up, not only when a whole game ends: a resignation from a game that goes on,
or leaving a lobby someone else hosts (bot.sessions.core.Core.on_freed)."""

from __future__ import annotations

import pytest

from bot import profiles
from bot.queue.service import QueueService
from bot.sessions import SessionService
from bot.storage.profiles import ServerGates
from tests.queue.test_service import CHANNEL, GUILD, Posts, join


@pytest.fixture
async def queue(store):
    """The queue wired as the bot wires it (:func:`bot.profiles.queue_admissible`), under a cap of
    one running game a person."""
    await store.queue.set_channel(GUILD, CHANNEL)
    queue = QueueService(store, SessionService(store), Posts())
    queue.tables.gate = lambda guild_id, user_id, game: profiles.queue_admissible(
        store, guild_id, user_id, game
    )
    await store.profiles.set_server_gates(GUILD, ServerGates(cap=1))
    return queue


async def held_back(queue, seat_of_1):
    """1 sits in a Guacamole game (``seat_of_1``: "host" of it, or "guest" in another's lobby),
    then 1 and 2 join the queue for two: 1 is at the cap, and nothing forms."""
    lobby = queue.sessions.lobby
    host = 1 if seat_of_1 == "host" else 9
    await lobby.create(
        "guacamole", guild_id=GUILD, channel_id=77, host_id=host, host_name=f"u{host}", max_players=3
    )
    for guest in (8, 9) if seat_of_1 == "host" else (1,):
        await lobby.join(77, guest, f"u{guest}")
    for uid in (1, 2):
        await join(queue, uid, players="2")
    assert await queue.match(GUILD) == []
    assert await profiles.queue_admissible(queue.store, GUILD, 1, "pachakuna") is not None


async def test_a_resignation_from_a_game_that_goes_on_seats_the_person_at_once(queue):
    await held_back(queue, "host")
    await queue.sessions.lobby.start(77, 1)
    await queue.sessions.seats.resign(77, 1)  # the game goes on, 8 and 9 against the computer's seat
    assert (await queue.sessions.core.in_channel(77)).status == "active"
    await queue.settled()
    assert await queue.store.queue.entries(GUILD) == []  # seated: their table started
    assert len(queue.posts.threads) == 1


async def test_leaving_a_lobby_someone_else_hosts_seats_the_person_at_once(queue):
    await held_back(queue, "guest")
    await queue.sessions.lobby.leave(77, 1)
    assert (await queue.sessions.core.in_channel(77)).status == "lobby"  # 9 still waits there
    await queue.settled()
    assert await queue.store.queue.entries(GUILD) == []
    assert len(queue.posts.threads) == 1
