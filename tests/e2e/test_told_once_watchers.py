"""What follows a board for its watchers and its players' followers: the board's post to each
watcher by direct message, and at a game's first board its start to the followers.  The board's
``after_board`` job (:mod:`tests.e2e.test_told_once_after_board`) keeps them owed too: a stop
after the board's record and before them leaves them to the restart, which sends them once the
stopped process's hold is over; one Discord took before the stop carries the same nonce, so within
Discord's few minutes it is received once; past them, again (at least once).  A board that is no
longer the game's last by then reached its watchers through the boards since."""

from __future__ import annotations

import pytest

from bot.surface import nonces
from bot.surface.boards import POST_LEASE
from tests.e2e import test_restarts, test_told_once
from tests.e2e.players import is_board
from tests.e2e.test_restarts import Stopped, closing, due_after, started, stops_at
from tests.e2e.test_told_once import stops_once_taken
from tests.e2e.test_told_once_after_board import moved_in_turn, moved_until, told_again
from tests.e2e.test_told_once_dms import boards_settled
from tests.e2e.test_undo import nim_game

# the bot on SQLite and on PostgreSQL, the same across restarts; Discord's clock moved by hand only
make_bot, standin_options = test_restarts.make_bot, test_told_once.standin_options


def is_watched(message) -> bool:
    return "You watch this game" in message.content


def watching(board: int):
    """Whether a direct message sends a watcher the board ``board`` (its link ends it)."""
    return lambda message: is_watched(message) and message.content.endswith(f"/{board}")


def is_start(message) -> bool:
    return "You follow them" in message.content


def received(standin, user, which) -> list:
    return [m for m in standin.messages(standin.dm(user)) if which(m)]


async def watched(standin, bot, chan, piles: int = 3):
    """Alice and Bob's Nim game of ``piles`` piles begun in ``chan``, Carol watching it, what
    follows its first board done: its session, who is to move, the other, Carol."""
    alice, bob, carol = standin.add_users("alice", "bob", "carol")
    await started(standin, bot)
    session, first, other = await nim_game(standin, bot, chan, alice, bob, piles)
    await bot.store.waits.watch(session.id, carol.id, True)
    await bot.front.catchup.drain()
    await standin.settle()
    await boards_settled(bot)
    return session, first, other, carol


async def started_until(standin, bot, chan, people, stop):
    """Alice opens a Nim game in ``chan``, Bob joins and it starts (``people``: the two); its first
    board is posted and recorded, and the process stops where ``stop`` arranged.  The session and
    its first board."""
    alice, bob = people
    lobby = await standin.slash(alice, chan, "nim new", thread=False, piles=3)
    await standin.click(bob, lobby.message, "Join")
    result = await bot.sessions.lobby.start(chan.id, alice.id, posted=True)
    stop()
    boards = bot.front.boards
    try:
        await boards.announce(result, header=await boards.begins(result.session))
    except Stopped:
        pass
    closing(bot)
    session = await bot.sessions.core.get(result.session.id)
    return session, session.row.board_message_id


async def followed(standin, bot):
    """Alice and Bob in the server, Carol following Alice, the bot up: Alice and Bob, Carol."""
    alice, bob, carol = standin.add_users("alice", "bob", "carol")
    await started(standin, bot)
    await bot.store.waits.follow(carol.id, alice.id, True)
    return (alice, bob), carol


async def test_a_stop_after_a_board_s_record_and_before_its_watchers_dms_leaves_them_to_the_restart(
    standin, make_bot, table_clock
):
    """Carol watches Alice and Bob's game.  The first player moves; the board is posted and
    recorded, and the bot stops before sending it to Carol.  Started again, once the stopped
    process's hold is over, Carol gets the board once: the post's text, a link to it and the same
    public picture."""
    chan = standin.channel("games")
    async with standin.run_client(make_bot) as bot:
        session, first, _, carol = await watched(standin, bot, chan)
        board = await moved_until(
            standin, bot, chan, first, lambda: stops_at(bot, bot.front.waits, "send_watchers")
        )
        before = received(standin, carol, is_watched)  # (the first board's)
        assert received(standin, carol, watching(board)) == []
    post = next(m for m in standin.messages(chan) if m.id == board)
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        assert (
            received(standin, carol, is_watched) == before
        )  # (not before the stopped process's hold is over)
        await due_after(standin, bot, table_clock, POST_LEASE)
        (dm,) = received(standin, carol, watching(board))
        assert dm.content.startswith(post.content) and f"/{chan.id}/{board}" in dm.content
        assert bytes(dm.files[0]) == bytes(post.files[0])  # the public board, as posted
        assert dm.extra["nonce"] == nonces.post_nonce(session, nonces.WATCH, carol.id, board)
        assert not await bot.store.jobs.pending("after_board")
        await due_after(standin, bot, table_clock, POST_LEASE)  # nothing more: told once
        assert received(standin, carol, is_watched) == [*before, dm]


async def test_a_stop_before_the_watchers_get_a_game_s_last_board_leaves_it_to_the_restart(
    standin, make_bot, table_clock
):
    """Carol watches a one-pile game; its last move is posted and recorded, and the bot stops
    after the players' end notices, before sending the last board to Carol.  Started again, once
    the stopped process's hold is over, Carol gets the last board once, and watches no more."""
    chan = standin.channel("games")
    async with standin.run_client(make_bot) as bot:
        session, first, _, carol = await watched(standin, bot, chan, piles=1)
        board = await moved_until(
            standin, bot, chan, first, lambda: stops_at(bot, bot.front.waits, "send_watchers")
        )
        assert (await bot.sessions.core.get(session.id)).status == "finished"
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        for _ in range(2):  # (a second lease: nothing more)
            await due_after(standin, bot, table_clock, POST_LEASE)
            (dm,) = received(standin, carol, watching(board))
            assert "**Game over**" in dm.content
        assert await bot.store.waits.watchers(session.id) == []
        assert not await bot.store.jobs.pending("after_board")


@pytest.mark.parametrize("late", [False, True], ids=["within", "past"])
async def test_a_watched_board_discord_took_just_before_a_stop_is_sent_again_and_received_once(
    standin, make_bot, table_clock, late
):
    """Carol watches; the first player's board reaches her, and the bot stops before what follows
    the board is done.  Started again, once the stopped process's hold is over, the board's job
    sends it again with the same nonce: within Discord's window Discord answers with the first
    message, and Carol has it once; past it, twice."""
    chan = standin.channel("games")
    async with standin.run_client(make_bot) as bot:
        session, first, _, carol = await watched(standin, bot, chan)
        taken = stops_once_taken(standin, bot, is_watched)
        board = await moved_until(standin, bot, chan, first, lambda: None)
        (dm,) = taken
        assert dm.channel is standin.dm(carol)
    async with told_again(standin, make_bot, table_clock, late) as (bot, answered):
        dms = received(standin, carol, watching(board))
        assert dms[0] is dm and len(dms) == (2 if late else 1)
        assert answered == ([] if late else [dm])  # sent again: Discord's first message
        assert {m.extra["nonce"] for m in dms} == {nonces.post_nonce(session, nonces.WATCH, carol.id, board)}
        assert not await bot.store.jobs.pending("after_board")


async def test_a_watched_board_a_stop_left_unsent_is_not_sent_once_later_boards_reached_the_watcher(
    standin, make_bot, table_clock
):
    """Carol watches; the first player moves and the bot stops after recording the board, before
    sending it to her.  Started again, both players move before the stopped process's hold is
    over, Carol getting each of their boards.  When the left job fires, its board is no longer
    the game's last: Carol gets nothing more."""
    chan = standin.channel("games")
    async with standin.run_client(make_bot) as bot:
        session, first, other, carol = await watched(standin, bot, chan)
        board = await moved_until(
            standin, bot, chan, first, lambda: stops_at(bot, bot.front.waits, "send_watchers")
        )
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        await moved_in_turn(standin, bot, chan, (other, first))
        later = [m.id for m in standin.messages(chan) if is_board(m) and m.id > board]
        assert (
            len(later) == 2 and await bot.store.jobs.job("after_board", f"{session.id}:{board}") is not None
        )
        await due_after(standin, bot, table_clock, POST_LEASE)
        assert [len(received(standin, carol, watching(b))) for b in (board, *later)] == [0, 1, 1]
        assert not await bot.store.jobs.pending("after_board")


async def test_a_stop_after_a_game_s_first_board_and_before_its_followers_are_told_leaves_them_to_the_restart(
    standin, make_bot, table_clock
):
    """Carol follows Alice.  Alice and Bob's game starts; its first board is posted and recorded,
    the start marked told, and the bot stops before telling Carol.  Started again, once the
    stopped process's hold is over, Carol is told of the start once, with a link to the first
    board."""
    chan = standin.channel("games")
    async with standin.run_client(make_bot) as bot:
        players, carol = await followed(standin, bot)
        # (the start marked told, and Carol found in the server: her language, the last step before her message)
        session, board = await started_until(
            standin, bot, chan, players, lambda: stops_at(bot, bot.front.notifier, "language_of")
        )
        assert board is not None and received(standin, carol, is_start) == []
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        assert received(standin, carol, is_start) == []
        for _ in range(2):  # (a second lease: nothing more)
            await due_after(standin, bot, table_clock, POST_LEASE)
            (told,) = received(standin, carol, is_start)
            assert f"#{session.id} on" in told.content and f"/{chan.id}/{board}" in told.content
        assert told.extra["nonce"] == nonces.post_nonce(session, nonces.FOLLOW, carol.id)
        assert not await bot.store.jobs.pending("after_board")


async def test_a_start_discord_took_just_before_a_stop_is_told_again_and_received_once(
    standin, make_bot, table_clock
):
    """Carol follows Alice; the start of Alice and Bob's game reaches her, and the bot stops before
    what follows the first board is done.  Started again within Discord's window, once the stopped
    process's hold is over, the board's job tells the start again with the same nonce: Discord
    answers with the first message, and Carol has it once."""
    chan = standin.channel("games")
    async with standin.run_client(make_bot) as bot:
        players, carol = await followed(standin, bot)
        taken = stops_once_taken(standin, bot, is_start)
        session, board = await started_until(standin, bot, chan, players, lambda: None)
        (told,) = taken
    async with told_again(standin, make_bot, table_clock, late=False) as (bot, answered):
        assert received(standin, carol, is_start) == [told] and answered == [told]
        assert not await bot.store.jobs.pending("after_board")


async def board_of(bot, session) -> int:
    """The game's last board (its message id)."""
    return (await bot.sessions.core.get(session.id)).row.board_message_id


async def watched_move(standin, bot, chan):
    """Carol watches Alice and Bob's game, and the first player's board reaches her: the session,
    the other player, Carol, that board and the boards Carol has (the first board's too, if it came
    after her watch began)."""
    session, first, other, carol = await watched(standin, bot, chan)
    await moved_in_turn(standin, bot, chan, (first,))
    await boards_settled(bot)
    moved = await board_of(bot, session)
    assert len(received(standin, carol, watching(moved))) == 1
    return session, other, carol, moved, received(standin, carol, is_watched)


async def test_a_board_asked_for_again_is_not_sent_to_the_watchers_who_had_it(standin, make_bot):
    """Carol watches; the first player's board reaches her.  ``/game board`` posts it again in the
    channel: Carol, who has it, gets nothing.  The other player's move reaches her as before."""
    chan = standin.channel("games")
    async with standin.run_client(make_bot) as bot:
        session, other, carol, moved, seen = await watched_move(standin, bot, chan)
        await (await standin.slash(other, chan, "game board")).original()
        await boards_settled(bot)
        assert await board_of(bot, session) != moved  # posted again, as a new message
        assert received(standin, carol, is_watched) == seen
        await moved_in_turn(standin, bot, chan, (other,))
        await boards_settled(bot)
        (later,) = received(standin, carol, watching(await board_of(bot, session)))
        assert received(standin, carol, is_watched) == [*seen, later]


async def test_a_board_asked_for_again_is_not_sent_to_the_watchers_by_its_job_after_a_stop(
    standin, make_bot, table_clock
):
    """Carol watches; the first player's board reaches her.  ``/game board`` posts it again and
    the bot stops after its record, before what follows it.  Started again, once the stopped
    process's hold is over, the board's job tells what follows it, and Carol, who had the board,
    gets nothing."""
    chan = standin.channel("games")
    async with standin.run_client(make_bot) as bot:
        session, _, carol, moved, seen = await watched_move(standin, bot, chan)
        stops_at(bot, bot.front.boards, "board_settled")
        try:
            current = await bot.sessions.core.get(session.id)
            await bot.front.boards.post_board(current, header="**Nim**", ping=False, again=True)
        except Stopped:
            pass
        closing(bot)
        again = await board_of(bot, session)
        assert again != moved  # posted and recorded: its job owes what follows it
        assert await bot.store.jobs.job("after_board", f"{session.id}:{again}") is not None
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        await due_after(standin, bot, table_clock, POST_LEASE)
        assert not await bot.store.jobs.pending("after_board")
        assert received(standin, carol, is_watched) == seen
