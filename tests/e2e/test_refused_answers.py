"""An answer Discord refuses after the change it answers was stored: what the change sets going
(the first board of a started game, the board after an agreed undo, a new timer's warning) goes
on all the same.

Discord refuses an interaction's answer that comes after its 3 seconds (404 "Unknown
interaction"), an edit of a message a moderator deleted, or a line in a channel the bot may no
longer post in (403); the person who acted is told what was kept, and the rest of the step must
not wait for a restart or for someone to type ``/game board``.
"""

from __future__ import annotations

import pytest

from bot.time.jobs import CLOCK_WARNING
from tests.e2e.conftest import nim_played_out
from tests.e2e.players import settled
from tests.e2e.test_undo import ALL, asked_back, is_board, nim_game, play_first

CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"


async def test_a_start_whose_lobby_edit_is_refused_posts_the_first_board(standin, bot_factory):
    """The Start button's edit of the lobby message is refused (404, the answer too late): the game
    is stored as started, the host is told so, and its first board calls on the player to move."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        lobby = await standin.slash(alice, chan, "nim new", thread=False)
        await standin.click(bob, lobby.message, "Join")
        standin.skip_messages(chan)
        standin.inject(CALLBACK, status=404, times=1)
        started = await standin.click(alice, lobby.message, "Start")
        await bot.front.replies.idle()
        session = await bot.sessions.core.in_channel(chan.id)
        assert session.status == "active"
        assert "The game has started, but Discord refused the message" in started.content
        (board,) = [m for m in standin.messages(chan) if is_board(m)]
        (seat,) = session.to_move()
        assert f"<@{session.by_seat(seat).user_id}>" in board.content  # the player to move is called


async def test_a_start_with_a_computer_whose_answer_is_refused_posts_the_first_board(standin, bot_factory):
    """Alice and a computer: Start is deferred (a computer sits), and Discord refuses the deferred
    answer's edit (404).  The computer, seated first, has played and the first board is posted,
    calling on Alice."""
    (alice,) = standin.add_users("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        bot.sessions.new_seed = lambda: 6  # seed 6 seats the computer first
        lobby = await standin.slash(alice, chan, "nim new", thread=False)
        await standin.click(alice, lobby.message, "Add computer")
        standin.skip_messages(chan)
        standin.inject("PATCH /webhooks/*/*/messages/@original", status=404, times=1)
        await standin.click(alice, lobby.message, "Start")
        await bot.front.replies.idle()
        await bot.front.catchup.computers_settled()
        session = await bot.sessions.core.in_channel(chan.id)
        assert session.status == "active" and session.version > 1
        (seat,) = session.to_move()
        assert session.by_seat(seat).user_id == alice.id  # the computer has played
        boards = [m for m in standin.messages(chan) if is_board(m)]
        assert boards and f"<@{alice.id}>" in boards[-1].content


async def test_an_undo_whose_last_agree_is_refused_posts_the_board(standin, bot_factory):
    """Bob's Agree takes the move back (stored); Discord refuses the edit of the request message
    (404).  The board saying so is posted all the same, so the channel's last board is not the
    position before the undo."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        session, first, other = await nim_game(standin, bot, chan, alice, bob)
        request = await asked_back(standin, bot, chan, first)
        standin.skip_messages(chan)
        standin.inject(CALLBACK, status=404, times=1)
        agreed = await standin.click(other, request, "Agree")
        await bot.front.replies.idle()
        after = await bot.sessions.core.get(session.id)
        assert after.version > session.version and "taken back" in agreed.content
        boards = [m for m in standin.messages(chan) if is_board(m) and "took back" in m.content]
        assert len(boards) == 1 and f"<@{first.id}>" in boards[0].content


@pytest.mark.parametrize("refused", [False, True], ids=["posted", "line-refused"])
async def test_a_timer_arms_its_warning_whether_or_not_its_line_is_posted(standin, bot_factory, refused):
    """``/game timer`` on a running turn arms the turn's clock warning; a line Discord refuses
    (Send Messages just taken away, 403) leaves the timer in force, and its warning with it."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        session, first, _ = await nim_game(standin, bot, chan, alice, bob)
        if refused:
            standin.inject("POST /channels/*/messages", status=403, times=1)
        answer = await (await standin.slash(alice, chan, "game timer", hours=1)).original()
        await bot.front.replies.idle()
        after = await bot.sessions.core.get(session.id)
        assert after.clock is not None
        assert ("The turn timer was changed, but" in answer.content) is refused
        seat = after.seat_of(first.id).seat
        assert await bot.store.jobs.job(CLOCK_WARNING, f"{session.id}:{seat}") is not None


async def test_a_request_replaced_by_one_discord_refuses_is_closed_all_the_same(standin, bot_factory):
    """One player asks to take back a move while the other's request is open, and Discord refuses
    the new request's post (403): the asker is told nobody was asked, the new request is not kept,
    and the older one, replaced, no longer keeps buttons that answer nothing."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        session, first, other = await nim_game(standin, bot, chan, alice, bob)
        await play_first(standin, bot, chan, first)
        older = await asked_back(standin, bot, chan, other)
        standin.inject("POST /channels/*/messages", status=403, times=1)
        answer = await (await standin.slash(first, chan, "game undo")).original()
        await bot.front.replies.idle()
        assert answer.content.startswith("⚠️ Discord refused to post your request in the game's channel (403)")
        assert "nobody was asked" in answer.content
        assert await bot.sessions.store.history.undo_request(session.id) is None
        closed = standin.message(older.id)
        assert not closed.buttons and "Closed: a newer request" in closed.content


async def test_a_rematch_whose_lobby_discord_refuses_to_post_is_not_opened(standin, bot_factory):
    """Rematch opens a lobby and posts its message; Discord refuses the post (403): a lobby nobody
    could see nor join by its buttons is closed at once, and the presser is told no rematch was
    opened and how to try again.  The channel is free: Rematch works once Discord posts again."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        lobby = await standin.slash(alice, chan, "nim new", thread=False, piles=2)
        await standin.click(bob, lobby.message, "Join")
        await standin.click(alice, lobby.message, "Start")
        old = await nim_played_out(standin, bot, chan, alice, bob)
        card = await standin.next_message(chan, lambda m: "**Results**" in m.content)
        standin.inject("POST /channels/*/messages", status=403, times=1)
        pressed = await (await standin.click(bob, card, "Rematch")).original()
        assert (
            "Discord refused to post the rematch's lobby here (403), so no rematch was opened"
            in pressed.content
        )
        assert await bot.sessions.core.in_channel(chan.id) is None
        pressed = await (await standin.click(bob, card, "Rematch")).original()
        assert "you host it" in pressed.content, pressed.content
        new = await bot.sessions.core.in_channel(chan.id)
        assert new.status == "lobby" and new.id != old.id


@pytest.mark.parametrize("also_refused", [False, True], ids=["answer", "answer-and-channel"])
async def test_a_lobby_opened_in_a_thread_whose_answer_edit_is_refused_is_shown_and_welcomed(
    standin, bot_factory, also_refused
):
    """``/nim new`` in a text channel answers "opening...", stores the lobby and opens its thread,
    then edits its answer into the lobby; Discord refuses that edit (404).  The same message is
    edited through its channel, so it shows the lobby with its Join button, and the thread gets its
    welcome.  When the channel's edit is refused too (the message deleted meanwhile), the thread is
    welcomed all the same, and the host hears how to reach the lobby, not of a board to post."""
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        standin.inject("PATCH /webhooks/*/*/messages/@original", status=404, times=1)
        if also_refused:
            standin.inject("PATCH /channels/*/messages/*", status=404, times=1)
        opened = await standin.slash(alice, chan, "nim new")
        await bot.front.replies.idle()
        await settled(standin)
        session = await bot.sessions.core.in_channel(opened.message.id)
        assert session is not None and session.status == "lobby"
        thread = standin.channel(opened.message.id)  # the thread started from the lobby message
        (welcome,) = standin.messages(thread)
        assert "/game join" in welcome.content and chan.mention in welcome.content
        lobby = standin.message(opened.message.id)
        joins = [c for c in lobby.custom_ids if c.startswith("pk:lobby:join:")]
        assert bool(joins) is not also_refused, lobby.content
        told = [m.content for m in opened.followup_messages]
        if also_refused:
            assert told == [
                "⚠️ The Nim lobby is open (players can /game join in its thread, where the host can "
                "/game abandon it), but Discord refused the message (404)."
            ], told
        else:
            assert told == [], told
