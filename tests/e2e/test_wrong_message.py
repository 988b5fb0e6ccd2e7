"""Components forged onto a message of another kind: a private menu's buttons on a board in the
channel or a history page, an undo request's answers on a board.  The click is refused in words;
the message is not edited and nothing is played or answered."""

from __future__ import annotations

import logging

import pytest

from tests.e2e.forge import forged_click, forged_select


def is_board(message) -> bool:
    return bool(message.files) and not message.ephemeral


@pytest.mark.parametrize("discord_error_loggers", [("discord", "bot", "cogs", "asyncio")])
async def test_menu_components_on_a_board_post_are_refused(standin, bot_factory, caplog):
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        lobby = await standin.slash(alice, chan, "nim new", thread=False)
        await standin.click(bob, lobby.message, "Join")
        await standin.click(alice, lobby.message, "Start")
        board = await standin.next_message(chan, is_board)
        session = await bot.sessions.core.in_channel(chan.id)
        (seat,) = session.to_move()
        mover = alice if session.by_seat(seat).user_id == alice.id else bob
        stamp = await bot.sessions.play.stamp(session, seat)
        shown = (board.content, board.payload().get("components"), board.payload().get("flags"))
        clicks = [
            forged_click(standin, mover, chan, f"pk:nav:{session.id}:{stamp}", board),
            forged_click(standin, mover, chan, f"pk:nav:{session.id}:{session.version}", board),
            forged_select(standin, mover, chan, f"pk:pick:{session.id}:{stamp}:0", ["g:x:y"], board),
            forged_select(standin, mover, chan, f"pk:pick:{session.id}:{stamp}", ["back"], board),
        ]
        for click in clicks:
            r = await click
            text = (await r.original()).content if r.deferred else r.content
            assert r.ephemeral and "private menu" in text, text
        for click in (
            forged_click(standin, mover, chan, f"pk:hist:{session.id}:0:first", board),
            forged_select(standin, mover, chan, f"pk:histgo:{session.id}", ["0"], board),
        ):
            r = await click
            text = (await r.original()).content if r.deferred else r.content
            assert r.ephemeral and "private history page" in text, text
        fresh = standin.message(board.id)
        assert (fresh.content, fresh.payload().get("components"), fresh.payload().get("flags")) == shown
        assert (await bot.sessions.core.get(session.id)).version == session.version
    traced = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not traced, [f"{r.name}: {r.getMessage()}" for r in traced]


@pytest.mark.parametrize("discord_error_loggers", [("discord", "bot", "cogs", "asyncio")])
async def test_undo_answers_on_a_board_post_are_refused(standin, bot_factory, caplog):
    """Agree and Refuse of an open request to take back a move, forged onto the latest board: the
    click is refused in words, the board keeps its text and its buttons, and the request stays
    open for its own message's buttons."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        lobby = await standin.slash(alice, chan, "nim new", thread=False)
        await standin.click(bob, lobby.message, "Join")
        await standin.click(alice, lobby.message, "Start")
        await standin.next_message(chan, is_board)
        session = await bot.sessions.core.in_channel(chan.id)
        (seat,) = session.to_move()
        first, other = (alice, bob) if session.by_seat(seat).user_id == alice.id else (bob, alice)
        legal = await bot.sessions.play.legal_moves(chan.id, first.id)
        await (await standin.slash(first, chan, "nim move", move=legal[0])).original()
        board = await standin.next_message(chan, is_board)
        await (await standin.slash(first, chan, "game undo")).original()
        request = await standin.next_message(chan, lambda m: "asks to take back" in m.content)
        asked = await bot.sessions.store.history.undo_request(session.id)
        shown = (board.content, board.payload().get("components"))
        for answer in ("no", "yes"):
            r = await forged_click(
                standin, other, chan, f"pk:undo:{session.id}:{asked.version}:{answer}", board
            )
            text = (await r.original()).content if r.deferred else r.content
            assert r.ephemeral and "request to take back" in text and "its own message" in text, text
        fresh = standin.message(board.id)
        assert (fresh.content, fresh.payload().get("components")) == shown
        assert await bot.sessions.store.history.undo_request(session.id) == asked
        refused = await standin.click(other, request, "Refuse")
        assert refused.type == 7 and "refused" in refused.content
    traced = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not traced, [f"{r.name}: {r.getMessage()}" for r in traced]
