"""The lobby of a table the queue formed, while the table waits for confirmations: it does not
start from its channel (its Start button, /game start) before everyone at it confirmed, and one of
its people leaving it gives the table back at once (the lobby closes, the others wait again)."""

from __future__ import annotations

import pytest

from bot.queue.service import QueueService
from bot.sessions import Refusal, SessionService
from languages import ENGLISH, language
from tests.queue.test_service import CHANNEL, GUILD, Posts, join

LEFT = "u{} left the queue; the others wait in the queue again, at their places."


@pytest.fixture
async def queue(store):
    await store.queue.set_channel(GUILD, CHANNEL)
    return QueueService(store, SessionService(store), Posts())


async def formed(queue):
    """1 and 2 wait to confirm (the default start); the queue forms their daily table, 1 hosting
    its lobby: the table, its thread."""
    for uid in (1, 2):
        await join(queue, uid, at_once=False)
    (opened,) = await queue.match(GUILD)
    assert not opened.started
    return opened, opened.session.row.channel_id


async def test_a_table_does_not_start_from_its_lobby_before_everyone_confirmed(queue):
    """Nobody has confirmed (2 may be asleep: they have 12 hours), and 1 starts the game from its
    lobby: refused, naming who the table waits for, in the reader's language, and the lobby stays
    a lobby; so it is after 1 confirmed.  When 2 confirms, the table starts as it always did."""
    opened, thread = await formed(queue)
    with pytest.raises(Refusal) as refused:
        await queue.sessions.lobby.start(thread, 1)
    assert refused.value.said.in_words(ENGLISH) == (
        "this table starts when everyone at it has confirmed (the queue's Confirm button); waiting for: u1, u2"
    )
    assert refused.value.said.in_words(language("es")) == (
        "esta mesa empieza cuando todo el mundo en ella haya confirmado (con el botón Confirmar de la"
        " cola); falta la confirmación de: u1, u2"
    )
    await queue.confirm(opened.table_id, 1)
    with pytest.raises(Refusal, match=r"waiting for: u2$"):
        await queue.sessions.lobby.start(thread, 2)
    assert (await queue.sessions.core.in_channel(thread)).status == "lobby"
    assert (await queue.store.queue.table(opened.table_id)).status == "confirming"
    answer = await queue.confirm(opened.table_id, 2)
    assert answer.in_words(ENGLISH) == "Everyone confirmed: the game has started"
    game = await queue.sessions.core.in_channel(thread)
    assert game.status == "active" and {s.user_id for s in game.seats} == {1, 2}
    assert queue.posts.boards == [game.id]


@pytest.mark.parametrize("leaver", [1, 2], ids=["host", "guest"])
async def test_leaving_the_lobby_of_a_table_being_confirmed_gives_it_back_at_once(queue, leaver):
    """1 confirms at once; then one of the two leaves the table's lobby (its Leave button, /game
    leave).  The table is given back then, not when the 12 hours to confirm run out: the one who
    left leaves the queue (as leaving the queue would; they left, so they are not told), the other
    waits again at their place, its Confirm message says so, and its lobby closes, so nobody else
    can take the free seat."""
    opened, thread = await formed(queue)
    await queue.confirm(opened.table_id, 1)
    await queue.sessions.lobby.leave(thread, leaver)
    await queue.settled()
    stays = 3 - leaver
    assert [(e.user_id, e.table_id) for e in await queue.store.queue.entries(GUILD)] == [(stays, None)]
    assert (await queue.store.queue.table(opened.table_id)).status == "returned"
    assert (await queue.sessions.core.latest(thread)).status == "abandoned"
    assert queue.posts.posted[-1][1] == LEFT.format(leaver)
    assert queue.posts.dms == []
    assert [j.key for j in await queue.store.jobs.pending("queue_expire")] == [f"{GUILD}:{stays}"]
    assert await queue.store.jobs.pending("queue_confirm") == []
    with pytest.raises(Refusal, match="this table was not played; you wait in the queue again"):
        await queue.confirm(opened.table_id, stays)


async def test_nobody_takes_the_seat_left_in_the_lobby_of_a_table_being_confirmed(queue):
    """1 avoids 3 (/queue avoid).  After 2 leaves the table's lobby, 3, who is not in the queue,
    tries to take the free seat from its thread and start the game: the lobby is closed, and 1 is
    seated with the next person the queue finds instead."""
    await queue.avoid(1, 3)
    opened, thread = await formed(queue)
    await queue.confirm(opened.table_id, 1)
    await queue.sessions.lobby.leave(thread, 2)
    await queue.settled()
    with pytest.raises(Refusal, match="game #1 here is over"):
        await queue.sessions.lobby.join(thread, 3, "u3")
    with pytest.raises(Refusal, match="game #1 here is over"):
        await queue.sessions.lobby.start(thread, 3)
    await join(queue, 4)
    (again,) = await queue.match(GUILD)
    assert again.table.user_ids == (1, 4)
