"""A board post of a move stored before the game was abandoned, the abandon told in the window
between the move's storing and its board: before the post takes the game's ``board`` job, or while
the post holds it, in the same process or another; and one of a move stored before the game's end
was told."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager

import pytest

from bot.surface.boards import POST_LEASE
from bot.surface.unposted import Inside
from engines.core import Said
from tests.e2e.players import to_move
from tests.e2e.test_notices import EXTENSIONS, is_board, start_game
from tests.e2e.test_unposted import BOARD
from tests.e2e.test_unposted_races import abandon_told, fired, two_processes
from tests.support import nim


def holding_the_claim(boards, act) -> None:
    """Run ``act`` once, inside the next post of ``boards`` that takes the game's ``board`` job:
    just after it took it, before it reads the game again."""
    real = boards._claimed

    @asynccontextmanager
    async def claimed(session, also=None):
        async with real(session, also) as held:
            boards._claimed = real  # once
            await act()
            yield held

    boards._claimed = claimed


@pytest.mark.parametrize("says", ["", "a line", "a line owed"])
@pytest.mark.parametrize("where", ["here", "there"])
@pytest.mark.parametrize("when", ["before the claim", "under the claim"])
async def test_a_board_for_a_move_made_before_an_abandon_never_follows_the_abandon(
    standin, bot_factory, table_clock, when, where, says
):
    """Alice's move is stored and its board is to be posted here (with ``says``, under a line of
    its own, pinging Bob: a seat handed over; or the board job keeps a line refused before, a
    clock's answer, which the board carries).  The host abandons the game, and the abandon is
    told, ``here`` or by the other process (``there``): before this post takes the game's board
    job, or once it holds it and before it reads the game.  The abandon is told once and is the
    last word in the thread: no board follows it, nor precedes it saying the game is abandoned, the
    move is told at most once, and no board of the game carries buttons.  The post's line is told
    once, above the abandon, when the abandon was not told yet (under the claim), and not after it
    (told before the claim); a line owed is told once, above the abandon.  The board job is left with nothing to do."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        thread, session, here, there, up_there = await two_processes(standin, bot, chan, alice, bob)
        there.controls = here.controls  # (as its own front sets them)
        seen = len(standin.messages(thread))
        user, now = await to_move(bot, thread, (alice, bob))
        move = min(nim.legal_moves(now.state, now.seat_of(user.id).seat), key=lambda m: m.count)
        played = await bot.sessions.play.play(thread.id, user.id, str(move))  # stored; its post comes next
        teller = here if where == "here" else there
        telling: list[asyncio.Task] = []
        line = Said(f"🔁 <@{bob.id}> takes Beto's seat.")
        if says == "a line owed":
            line = Said("⏱️ Bob answered: Alice has a day more.")
            await here.unposted.again(now, Inside(now.row.board_message_id or 0, lines=(line,)))

        async def abandon() -> None:
            ended = await bot.sessions.seats.abandon(thread.id, alice.id, can_manage=True)
            # here, under this process's post, the telling waits for the post: a task of its own
            telling.append(asyncio.create_task(teller.tell_abandoned(ended)))
            if when == "before the claim":
                await telling[0]

        if when == "before the claim":
            await abandon()
        else:
            holding_the_claim(here, abandon)
        if says == "a line":
            await here.post_board(played.session, lines=[line], pings=[bob.id], ping=False)
        else:
            await here.announce(played)
        await asyncio.gather(*telling)
        table_clock.advance(POST_LEASE)
        posted = await fired(standin, bot, thread, seen, bot.front.catchup, up_there)
        (told,) = abandon_told(standin, thread)
        assert posted[-1] is told and "abandoned" not in " ".join(m.content for m in posted[:-1]), [
            m.content for m in posted
        ]
        carried = says == "a line owed" or (says and when == "under the claim")
        assert sum(str(line) in m.content for m in posted) == bool(carried), [m.content for m in posted]
        if carried:
            assert told.content.startswith(str(line)), told.content
        if says == "a line" and carried:
            assert bob.id in told.pinged, told.content
        assert sum(" took " in m.content for m in posted) <= 1, [m.content for m in posted]
        assert all(m.custom_ids == [] for m in standin.messages(thread) if m.files), [
            m.content for m in posted
        ]
        assert await bot.store.jobs.job(BOARD, str(session.id)) is None


async def test_a_board_for_a_move_made_before_the_game_s_end_never_follows_its_results(
    standin, bot_factory, table_clock
):
    """Alice's move is stored and its board is to be posted; meanwhile Bob's move ends the game and
    its last board tells both moves, then the results card is posted.  Alice's board, posted then,
    posts nothing: no second last board after the results card, nobody pinged again."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, _ = await start_game(standin, bot, chan, alice, bob, piles=1)
        seen = len(standin.messages(thread))
        user, now = await to_move(bot, thread, (alice, bob))
        assert now.state.piles[0] > 1
        played = await bot.sessions.play.play(thread.id, user.id, "A1")  # stored; its post comes next
        other, now = await to_move(bot, thread, (alice, bob))
        last = await standin.slash(other, thread, "nim move", move=f"A{now.state.piles[0]}")  # the last stone
        await last.original()
        await bot.front.catchup.drain()
        await standin.settle()
        assert await bot.front.boards.announce(played) is None
        await bot.front.catchup.drain()
        await standin.settle()
        posted = [m for m in standin.messages(thread)[seen:] if not m.ephemeral]
        assert [m.content.count("**Game over**") for m in posted] == [1, 0], [m.content for m in posted]
        assert posted[-1].content.startswith("**Results** of")


async def test_the_board_of_an_abandoned_game_is_posted_on_request_as_it_ended(standin, bot_factory):
    """``/game board`` in the thread of a game abandoned and told posts its board as it ended,
    without buttons: only a post for the game as it was before the abandon is left out."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, _ = await start_game(standin, bot, chan, alice, bob)
        await (await standin.slash(alice, thread, "game abandon")).original()
        await bot.front.catchup.drain()
        answer = await (await standin.slash(bob, thread, "game board")).original()
        assert answer.content == "Board posted."
        board = standin.messages(thread)[-1]
        assert is_board(board) and "as it ended" in board.content and board.custom_ids == [], board.content
