"""The lobby of a table the queue formed, while the table waits for confirmations: it does not
start from its channel (/game start) before everyone at it confirmed."""

from __future__ import annotations

import pytest

from bot.queue.service import QueueService
from bot.sessions import Refusal, SessionService
from languages import ENGLISH, language
from tests.queue.test_service import CHANNEL, GUILD, Posts, join


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
