"""The bot stopped between a change that was stored and its post: after the restart what was
stored is told, once."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable

import pytest

from bot import results as card_maker
from bot.app import EXTENSIONS
from bot.results import card_rows
from bot.sessions import ASK_AFTER, TimeOut
from bot.sessions.play import Play
from bot.surface.boards import POST_LEASE
from engines.core import Outcome
from renderers import results as renderer
from tests.e2e.conftest import BASE_EXTENSIONS, nim_to_the_end, pick_from_menu
from tests.e2e.players import settled, to_move
from tests.e2e.test_clocks import is_question, open_clocked
from tests.e2e.test_notices import is_board
from tests.e2e.test_undo import nim_game
from tests.standin.model import SEND_MESSAGES_IN_THREADS
from tests.support import nim

UNDO_EXTENSIONS = (*EXTENSIONS, "tests.support.nim_cog")


async def on_either_back_end(request, bot_factory, extensions):
    """For a fixture of ``params=["sqlite", "postgres"]``: a maker of the bot with ``extensions`` on
    one database, an SQLite file or a PostgreSQL database (dropped after), the same across restarts."""
    if request.param == "sqlite":
        yield bot_factory(extensions)
        return
    cluster = request.getfixturevalue("pg_cluster")
    name = await cluster.create_database(request.getfixturevalue("pg_template"))
    try:
        yield bot_factory(extensions, database_url=cluster.url(name))
    finally:
        await cluster.drop_database(name)


@pytest.fixture(params=["sqlite", "postgres"])
async def make_bot(request, bot_factory):
    """A maker of the bot on one database, an SQLite file or a PostgreSQL database, the same
    across restarts."""
    async for make in on_either_back_end(request, bot_factory, BASE_EXTENSIONS):
        yield make


async def started(standin, bot) -> None:
    """The bot is up, and has taken up (and played, and posted) what its start found waiting."""
    await standin.wait_synced()
    await bot.taken_up.wait()
    await bot.front.catchup.computers_settled()


async def test_a_last_move_stored_and_never_posted_gets_its_last_board_at_the_next_start(standin, make_bot):
    """The winning move and the game's end are stored, and the bot stops before the last board
    is posted (a kill between the commit and the post): the bot started again posts the last
    board, with the result, and the results card, once; a second start posts nothing more."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        session, first, _ = await nim_game(standin, bot, chan, alice, bob, piles=1)
        winner = session.seat_of(first.id)
        legal = await bot.sessions.play.legal_moves(chan.id, winner.user_id)
        # committed, as a move is before its post; the process goes before posting it
        result = await bot.sessions.play.play(chan.id, winner.user_id, legal[-1])
        assert result.finished
        standin.skip_messages(chan)
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        board = await standin.next_message(chan, is_board)
        assert board.content.startswith(f"{winner.name} took"), board.content
        assert "**Game over**" in board.content and f"1st: <@{winner.user_id}>" in board.content
        card = await standin.next_message(chan, lambda m: m.content.startswith("**Results**"))
        assert "Rematch" in " ".join(b["label"] for b in card.buttons)
        await bot.front.catchup.computers_settled()
        row = (await bot.sessions.core.get(session.id)).row
        assert row.board_message_id == board.id and row.told_through == 1
        count = len(standin.messages(chan))
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        assert len(standin.messages(chan)) == count


async def test_a_resignation_that_ends_a_game_stored_and_never_posted_is_told_at_the_next_start(
    standin, make_bot
):
    """Bob resigns, which leaves Alice alone, so the game ends with no move; the end is stored and
    the bot stops before it is posted.  The bot started again posts the last board, with the
    result, and the results card; a third start posts nothing more."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        session, _, _ = await nim_game(standin, bot, chan, alice, bob)
        # committed, as a resignation is before its post; the process goes before posting it
        result = await bot.sessions.seats.resign(chan.id, bob.id)
        assert result.finished and not await bot.sessions.store.history.moves(session.id)
        standin.skip_messages(chan)
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        board = await standin.next_message(chan, is_board)
        assert "**Game over**" in board.content and f"1st: <@{alice.id}>" in board.content, board.content
        card = await standin.next_message(chan, lambda m: m.content.startswith("**Results**"))
        assert "Rematch" in " ".join(b["label"] for b in card.buttons)
        await bot.front.catchup.computers_settled()
        await settled(standin)
        row = (await bot.sessions.core.get(session.id)).row
        assert row.board_message_id == board.id and row.end_told
        count = len(standin.messages(chan))
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        await settled(standin)
        assert len(standin.messages(chan)) == count


async def test_an_abandon_stored_and_never_posted_is_told_at_the_next_start(standin, make_bot):
    """The host abandons the game; the abandon is stored and the bot stops before the channel is
    told.  The bot started again says the game was abandoned and takes the buttons off its board,
    once; a lobby that closed (everyone left) is not told of."""
    alice, bob = standin.add_users("alice", "bob")
    chan, other = standin.channel("games"), standin.channel("general")
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        lobby = await standin.slash(alice, chan, "nim new", thread=False, piles=3)
        await standin.click(bob, lobby.message, "Join")
        await standin.click(alice, lobby.message, "Start")
        board = await standin.next_message(chan, is_board)
        assert "pk:" in " ".join(board.custom_ids)
        session = await bot.sessions.core.in_channel(chan.id)
        # committed, as an abandon is before its post; the process goes before telling it
        await bot.sessions.seats.abandon(chan.id, alice.id, can_manage=False)
        await (await standin.slash(bob, other, "nim new", thread=False)).original()
        await bot.sessions.lobby.leave(other.id, bob.id)  # closed, stored, not posted either
        standin.skip_messages(chan)
        standin.skip_messages(other)
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        told = await standin.next_message(chan, lambda m: "abandoned" in m.content)
        assert told.content.startswith("This game was abandoned. Play again with `/nim new`"), told.content
        await settled(standin)
        assert standin.message(board.id).custom_ids == []
        assert (await bot.sessions.core.get(session.id)).row.end_told
        count, elsewhere = len(standin.messages(chan)), len(standin.messages(other))
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        await settled(standin)
        assert len(standin.messages(chan)) == count and len(standin.messages(other)) == elsewhere


async def test_a_damaged_game_abandoned_and_never_told_is_told_at_the_next_start(standin, make_bot):
    """A game the table cannot run (damaged) is abandoned by its host; the bot stops before the
    channel is told.  Started again, it says the damaged game was abandoned, once."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        session, _, _ = await nim_game(standin, bot, chan, alice, bob)
        await bot.sessions.store.games.mark_damaged(session.id, "its saved state could not be read")
        await bot.sessions.seats.abandon(chan.id, alice.id, can_manage=False)  # stored, not told
        standin.skip_messages(chan)
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        told = await standin.next_message(chan, lambda m: "abandoned" in m.content)
        assert told.content.startswith("This game was abandoned, being damaged."), told.content
        await settled(standin)
        count = len(standin.messages(chan))
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        await settled(standin)
        assert len(standin.messages(chan)) == count


async def test_a_menu_made_before_an_undo_is_stale_when_the_turn_comes_round_again(standin, bot_factory):
    """Bob opens his menu; Alice's move before it is taken back and she plays another: Bob's
    turn comes round again at the same turn number, with the same count of his own moves, but
    another position.  A choice on the old menu is refused with the board as it is now, and
    nothing is played; a menu opened now plays."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(UNDO_EXTENSIONS)) as bot:
        await started(standin, bot)
        session, first, other = await nim_game(standin, bot, chan, alice, bob)
        legal = await bot.sessions.play.legal_moves(chan.id, first.id)
        await (await standin.slash(first, chan, "nim move", move=legal[0])).original()
        board = await standin.next_message(chan, is_board)
        menu = await (await standin.click(other, board, "Play")).original()
        await (await standin.slash(first, chan, "game undo")).original()
        request = await standin.next_message(chan, lambda m: "asks to take back" in m.content and m.buttons)
        await standin.click(other, request, "Agree")
        await standin.next_message(chan, lambda m: is_board(m) and "took back" in m.content)
        await (await standin.slash(first, chan, "nim move", move=legal[-1])).original()
        board = await standin.next_message(chan, is_board)
        before = await bot.sessions.core.in_channel(chan.id)
        edits = menu.edits
        picked, _ = await pick_from_menu(standin, other, menu)
        answer = await picked.original(lambda m: m.edits > edits)
        assert "The board changed since that menu was made" in answer.text, answer.text
        assert "Nothing was played" in answer.text
        assert (await bot.sessions.core.in_channel(chan.id)).version == before.version
        fresh = await (await standin.click(other, board, "Play")).original()
        edits = fresh.edits
        picked, move = await pick_from_menu(standin, other, fresh)
        answer = await picked.original(lambda m: m.edits > edits)
        assert f"You played `{move}`" in answer.text, answer.text


async def test_two_players_pressing_rematch_at_once_both_sit_in_one_lobby(standin, bot_factory):
    """Alice and Bob press Rematch at the same moment: both find no lobby yet, and Alice's opens
    first; Bob's, refused a second lobby in the channel, joins hers (he is told so, not that the
    channel already has a game), even before her lobby message is posted: that message, the
    only one, names them both."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await started(standin, bot)
        await nim_to_the_end(standin, bot, chan, alice, bob)
        card = await standin.next_message(chan, lambda m: "**Results**" in m.content)
        lobby, create, join = bot.sessions.lobby, bot.sessions.lobby.create, bot.sessions.lobby.join
        callers: list[int] = []
        second_in, opened, joined = asyncio.Event(), asyncio.Event(), asyncio.Event()

        async def at_once(*args, **kwargs):
            """Both presses reach the opening of a lobby before either has opened one; the first
            to open it goes on once the other has joined it."""
            callers.append(kwargs["host_id"])
            if len(callers) == 1:
                await second_in.wait()
                try:
                    session = await create(*args, **kwargs)
                finally:
                    opened.set()
                await joined.wait()
                return session
            second_in.set()
            await opened.wait()
            return await create(*args, **kwargs)

        async def then_joined(*args, **kwargs):
            try:
                return await join(*args, **kwargs)
            finally:
                joined.set()

        lobby.create, lobby.join = at_once, then_joined
        pressed = await asyncio.gather(
            standin.click(alice, card, "Rematch"), standin.click(bob, card, "Rematch")
        )
        answers = {
            user.id: (await p.original()).content for user, p in zip((alice, bob), pressed, strict=True)
        }
        assert sorted(callers) == sorted((alice.id, bob.id))
        host, guest = (alice, bob) if callers[0] == alice.id else (bob, alice)
        assert "Rematch lobby opened; you host it" in answers[host.id], answers
        assert answers[guest.id] == "You joined the rematch.", answers
        session = await bot.sessions.core.in_channel(chan.id)
        assert session.row.host_id == host.id
        assert sorted(s.user_id for s in session.seats) == sorted((alice.id, bob.id))
        await settled(standin)
        shown = standin.message(session.row.lobby_message_id).content
        assert "1. Alice (host)\n2. Bob" in shown if host is alice else "1. Bob (host)\n2. Alice" in shown, (
            shown
        )
        lobbies = [m for m in standin.messages(chan) if f"pk:lobby:join:{session.id}" in m.custom_ids]
        assert [m.id for m in lobbies] == [session.row.lobby_message_id]


async def test_a_start_stored_and_never_posted_gets_its_first_board_at_the_next_start(standin, make_bot):
    """Start is pressed and the start is stored, and the bot stops before the first board is
    posted: the bot started again posts the first board, once, naming the seats in play order
    and mentioning the players; the lobby message no longer offers Start."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        lobby = await standin.slash(alice, chan, "nim new", thread=False, piles=2)
        await standin.click(bob, lobby.message, "Join")
        # committed, as a start is before its first board; the process goes before posting it
        session = (await bot.sessions.lobby.start(chan.id, alice.id, posted=True)).session
        standin.skip_messages(chan)
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        board = await standin.next_message(chan, is_board)
        assert "**Nim** begins! Seats in play order: 1. <@" in board.content, board.content
        assert board.pinged == {alice.id, bob.id}
        await bot.front.catchup.computers_settled()
        await settled(standin)
        assert "pk:lobby:start" not in " ".join(standin.message(lobby.message.id).custom_ids)
        session = await bot.sessions.core.get(session.id)
        assert session.row.board_message_id == board.id
        count = len(standin.messages(chan))
        # a first board caught up while the start's own post was on its way: posted once
        header = await bot.front.boards.begins(session)
        caught_up = bot.front.boards.post_board(session, header=header, begins=True, catching_up=True)
        assert await caught_up is None
        assert len(standin.messages(chan)) == count
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        assert len(standin.messages(chan)) == count


async def test_an_untold_turn_caught_up_while_a_move_posts_it_is_posted_once(standin, bot_factory):
    """A turn stored and not posted (the bot stopped before its post) is taken up at the start,
    just as the next player moves: the move's post tells both turns, and the catch-up, which
    found the turn untold before that post, posts nothing more once it gets its turn to post."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(BASE_EXTENSIONS)) as bot:
        await started(standin, bot)
        session, mover, second = await nim_game(standin, bot, chan, alice, bob)
        legal = await bot.sessions.play.legal_moves(chan.id, mover.id)
        await bot.sessions.play.play(chan.id, mover.id, legal[0])  # stored, never posted
        boards = bot.front.boards
        render, turn_untold = boards.look.render, bot.sessions.play.turn_untold
        drawing, checked = asyncio.Event(), asyncio.Event()

        async def held_render(*args, **kwargs):
            """The move's board waits, its post under way, until the catch-up has looked."""
            drawing.set()
            await checked.wait()
            return await render(*args, **kwargs)

        async def looked(*args, **kwargs):
            try:
                return await turn_untold(*args, **kwargs)
            finally:
                checked.set()

        boards.look.render, bot.sessions.play.turn_untold = held_render, looked
        before = len(standin.messages(chan))
        move = (await bot.sessions.play.legal_moves(chan.id, second.id))[0]
        moved = asyncio.ensure_future(standin.slash(second, chan, "nim move", move=move))
        await drawing.wait()
        boards.look.render = render
        bot.front.catchup.computers_follow(session.id, catch_up=True)  # the start's catch-up
        await (await moved).original()
        await bot.front.catchup.computers_settled()
        await settled(standin)
        posted = [m for m in standin.messages(chan)[before:] if is_board(m)]
        assert len(posted) == 1, [m.content for m in posted]
        assert posted[0].content.splitlines()[0].startswith(session.seat_of(mover.id).name), posted[0].content


async def test_a_bot_closed_while_its_start_looks_for_waiting_games_stops_the_look_first(
    standin, bot_factory, monkeypatch
):
    """Closed while its start still looks for the games left waiting (a quick restart, a test
    that ends at once), the bot stops that look before its store closes: the look went on and
    read a closed database, an error in on_ready.  The next start looks again."""
    entered, release, looking = asyncio.Event(), asyncio.Event(), []
    original = Play.ends_untold

    async def held(self, guild_ids):
        looking.append(asyncio.current_task())
        entered.set()
        await release.wait()
        return await original(self, guild_ids)

    monkeypatch.setattr(Play, "ends_untold", held)
    async with standin.run_client(bot_factory(BASE_EXTENSIONS)) as bot:
        await entered.wait()
    assert bot.store is None  # closed
    release.set()  # were the look still going, it would read the closed store now
    await asyncio.gather(*looking, return_exceptions=True)
    assert looking[0].cancelled() or looking[0].done()
    assert bot.taken_up.is_set()


async def test_a_bot_closed_while_it_answers_an_interaction_waits_for_the_answer(
    standin, bot_factory, caplog
):
    """Closed (a restart) while its answer to ``/help`` is on its way (Discord has carried it out
    and not said so yet), the bot waits for that answer before it closes the connection: closed
    under it, the answer failed with the connection, and an error was logged.  (The work of the
    commands the table guards was waited for already; this is every other answer: a help page, a
    refusal of an odd value, a button's.)"""
    caplog.set_level(logging.INFO, logger="bot.app")
    alice = standin.add_user("alice")
    chan = standin.channel("games")

    def waiting() -> bool:
        return any("being answered" in r.getMessage() for r in caplog.records if r.name == "bot.app")

    async def released_once_waited_for(held) -> None:
        for _ in range(1000):  # (bounded by tries: a close that does not wait is never seen waiting)
            if waiting():
                break
            await asyncio.sleep(0.01)
        held.release()

    async with standin.run_client(bot_factory((*BASE_EXTENSIONS, "cogs.help"))) as bot:
        await standin.wait_synced()
        held = standin.hold("POST /interactions/*/*/callback")
        answer = await standin.slash(alice, chan, "help")  # carried out; Discord's answer held back
        releasing = asyncio.create_task(released_once_waited_for(held))
    # (leaving the block closed the bot)
    await releasing
    assert waiting() and held.hits and bot.is_closed()
    assert answer.message is not None and "Pukllay" in answer.message.content


@pytest.fixture
def day_bank_table(standin, monkeypatch):
    """Two players and a channel for a Nim game under a one-day bank, where a time running out
    asks the other players what now (Nim moves no table itself): (alice, bob, channel)."""
    monkeypatch.setattr(nim, "TABLE_MOVES", False)
    alice, bob = standin.add_users("alice", "bob")
    return alice, bob, standin.channel("games")


async def day_bank_game(standin, bot, alice, bob, chan):
    """The bot started, and the Nim game of ``alice`` and ``bob`` under a one-day bank opened in a
    thread of ``chan``: (the thread, the player to move, the session)."""
    await started(standin, bot)
    thread, _ = await open_clocked(standin, bot, chan, alice, bob, clock="bank:1d")
    late, session = await to_move(bot, thread, (alice, bob))
    return thread, late, session


async def test_a_timeout_stored_and_never_asked_is_asked_after_the_next_start(
    standin, make_bot, table_clock, day_bank_table
):
    """A player's bank runs out; the time-out is stored and the bot stops before the question what
    now is posted (a deploy between the two): the bot started again asks it a couple of minutes
    later, mentioning both players, once, and its buttons work.  Before this, nothing was asked
    until the computer took the seat a day later."""
    alice, bob, chan = day_bank_table
    async with standin.run_client(make_bot) as bot:
        thread, late, session = await day_bank_game(standin, bot, alice, bob, chan)
        other = bob if late is alice else alice
        table_clock.advance(86400)
        # committed, as a time-out is before its question; the process goes before posting it
        out = await bot.sessions.clocks.fire_clock(session.id, None)
        assert isinstance(out, TimeOut) and [s.user_id for s in out.seats] == [late.id]
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        await bot.scheduler.run_due()  # the deadline fired already: nothing more is due yet
        assert not [m for m in standin.messages(thread) if is_question(m)]
        table_clock.advance(ASK_AFTER)
        await bot.scheduler.run_due()
        question = await standin.next_message(thread, is_question)
        assert late.id in question.pinged and other.id in question.pinged, question.content
        assert f"<@{late.id}>'s time ran out" in question.content, question.content
        table_clock.advance(3600)
        await bot.scheduler.run_due()
        assert [m.id for m in standin.messages(thread) if is_question(m)] == [question.id]
        await standin.click(other, question, "Give more time")
        await standin.next_message(thread, lambda m: is_board(m) and late.id in m.pinged)
        await bot.front.catchup.drain()
        assert not (await bot.sessions.core.get(session.id)).banks.pending


async def test_a_timeout_question_posted_is_not_asked_again_after_a_restart(
    standin, make_bot, table_clock, day_bank_table
):
    """The question what now is posted as the time runs out; the bot stops and starts again: it
    is not asked a second time, and the day-long wait for an answer still stands."""
    alice, bob, chan = day_bank_table
    async with standin.run_client(make_bot) as bot:
        thread, late, session = await day_bank_game(standin, bot, alice, bob, chan)
        table_clock.advance(86400)
        await bot.scheduler.run_due()
        question = await standin.next_message(thread, is_question)
        await bot.front.catchup.drain()
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        table_clock.advance(3600)
        await bot.scheduler.run_due()
        await settled(standin)
        assert [m.id for m in standin.messages(thread) if is_question(m)] == [question.id]
        seat = session.seat_of(late.id).seat
        assert seat in (await bot.sessions.core.get(session.id)).banks.pending
        assert await bot.store.jobs.job("timeout", f"{session.id}:{seat}") is not None


async def test_a_timeout_question_whose_ask_job_comes_due_while_it_is_posted_is_posted_once(
    standin, bot_factory, table_clock, day_bank_table
):
    """The question's post after a time-out is slow (Discord makes the bot wait): its ``ask``
    job, armed in case the bot stops first, comes due meanwhile and fires.  The job leaves the
    question to the post under way: it is posted once, and no ask is left armed."""
    alice, bob, chan = day_bank_table
    async with standin.run_client(bot_factory(BASE_EXTENSIONS)) as bot:
        thread, late, session = await day_bank_game(standin, bot, alice, bob, chan)
        desk, post = bot.front.clocks, bot.front.clocks.post_question
        calls: list[int] = []

        async def slow(*args):  # the first post waits while the ask job's time comes and goes
            calls.append(len(calls))
            if len(calls) == 1:
                table_clock.advance(ASK_AFTER)
                (due,) = await bot.store.jobs.claim_jobs("another loop", lease=60)  # fired as it comes due
                assert due.kind == "ask"
                await desk.ask_again(due)
                await bot.store.jobs.complete_job(due)
            return await post(*args)

        desk.post_question = slow
        table_clock.advance(86400)
        await bot.scheduler.run_due()
        await settled(standin)
        assert len(calls) == 1
        (question,) = [m for m in standin.messages(thread) if is_question(m)]
        assert late.id in question.pinged
        assert await bot.store.jobs.job("ask", f"{session.id}:{session.seat_of(late.id).seat}") is None
        table_clock.advance(ASK_AFTER * 2)
        await bot.scheduler.run_due()
        assert [m.id for m in standin.messages(thread) if is_question(m)] == [question.id]


async def asked(standin, bot, table_clock, thread):
    """A day on, the late player's bank runs out and the question what now is asked: the question."""
    table_clock.advance(86400)
    await bot.scheduler.run_due()
    question = await standin.next_message(thread, is_question)
    await bot.front.catchup.drain()
    return question


async def taken_and_never_told(standin, bot, table_clock, day_bank_table):
    """The question is asked and nobody answers it for a day: the computer's taking the seat is
    stored, and the bot stops before the channel is told.  (The thread, the question, the session,
    the late seat.)"""
    alice, bob, chan = day_bank_table
    thread, late, session = await day_bank_game(standin, bot, alice, bob, chan)
    question = await asked(standin, bot, table_clock, thread)
    seat = session.seat_of(late.id).seat
    at = int((await bot.sessions.core.get(session.id)).banks.pending[seat])
    table_clock.advance(86400)
    # committed, as the take is before its words; the process goes before telling them
    await bot.sessions.clocks.answer_timeout(session.id, seat, at, "computer", None)
    return thread, question, session, seat


async def test_a_seat_taken_as_nobody_answered_and_never_told_is_told_after_the_next_start(
    standin, make_bot, table_clock, day_bank_table
):
    """Nobody answers the question for a day: the computer's taking the seat is stored, and the
    bot stops before the channel is told.  The bot started again says so, once, and the board
    with the computer's move follows; before, the board came with no word of why the computer
    played that seat."""
    async with standin.run_client(make_bot) as bot:
        thread, question, session, seat = await taken_and_never_told(
            standin, bot, table_clock, day_bank_table
        )
        assert (await bot.sessions.core.get(session.id)).by_seat(seat).computer
        standin.skip_messages(thread)

    def told(m) -> bool:
        return m.content.startswith("No answer in time: the computer plays the seat from now on")

    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        table_clock.advance(ASK_AFTER)
        await bot.scheduler.run_due()
        await bot.front.catchup.computers_settled()
        await settled(standin)
        new = [m for m in standin.messages(thread) if m.id > question.id]
        assert len([m for m in new if told(m)]) == 1, [m.content for m in new]
        assert any(is_board(m) for m in new), [m.content for m in new]
        table_clock.advance(3600)
        await bot.scheduler.run_due()
        await settled(standin)
        assert len([m for m in standin.messages(thread) if told(m)]) == 1


async def test_a_seat_taken_as_nobody_answered_is_told_once_across_a_restart(
    standin, make_bot, table_clock, day_bank_table
):
    """Nobody answers for a day and the channel is told at once; a restart later tells nothing more."""
    alice, bob, chan = day_bank_table
    async with standin.run_client(make_bot) as bot:
        thread, _, _ = await day_bank_game(standin, bot, alice, bob, chan)
        table_clock.advance(86400)
        await bot.scheduler.run_due()
        await standin.next_message(thread, is_question)
        table_clock.advance(86400)
        await bot.scheduler.run_due()
        await standin.next_message(thread, lambda m: m.content.startswith("No answer in time"))
        await bot.front.catchup.computers_settled()
        await bot.front.catchup.drain()
        assert not [j for j in await bot.store.jobs.pending("timeout")]
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        table_clock.advance(ASK_AFTER * 2)
        await bot.scheduler.run_due()
        await settled(standin)
        assert len([m for m in standin.messages(thread) if m.content.startswith("No answer in time")]) == 1


class Stopped(BaseException):
    """The process stopped here (a kill, a deploy): nothing after it reaches its database."""


GONE = ("transact", "read", "read_small", "all", "one", "change", "commit_moves", "commit_play", "claim_jobs")


def stops_at(bot, owner, name: str) -> asyncio.Event:
    """The process stops as ``owner.name`` is called: the call raises :class:`Stopped`, and so
    does every later use of the database (what the rest of the job would have recorded is not),
    until :func:`closing` gives it back for the bot to close.  Set once it stopped."""
    db, stopped = bot.store.db, asyncio.Event()

    async def gone(*_args, **_kwargs):
        raise Stopped

    async def stop(*_args, **_kwargs):
        for method in GONE:
            setattr(db, method, gone)
        stopped.set()
        raise Stopped

    setattr(owner, name, stop)
    return stopped


def closing(bot) -> None:
    """The database answers again, for the stopped bot to close."""
    for method in GONE:
        bot.store.db.__dict__.pop(method, None)


async def cut(bot, step: Awaitable[object]) -> None:
    """Run ``step`` to the stop arranged in it (:func:`stops_at`, or a stop of the test's own
    raising :class:`Stopped`), then give the stopped bot its database back to close (:func:`closing`)."""
    with pytest.raises(Stopped):
        await step
    closing(bot)


def no_answer(m) -> bool:
    return "No answer in time: the computer plays the seat from now on" in m.content


async def nobody_answers(standin, bot, table_clock, thread, deny: int = 0):
    """The question is asked (then the bot lacks ``deny`` in the thread), and nobody answers it
    for a day: the job that lets the computer take the seat fires, and stops where the test said.
    The question."""
    question = await asked(standin, bot, table_clock, thread)
    if deny:
        standin.set_permissions(standin.channel("games"), standin.bot_user, deny=deny)
        await settled(standin)
    table_clock.advance(86400)
    with pytest.raises(Stopped):
        await bot.scheduler.run_due()
    await settled(standin)
    closing(bot)
    return question


async def told_once_more_on(standin, make_bot, table_clock, thread, question) -> None:
    """The bot started again: the question's job tries what was left (a couple of minutes on), and
    the channel has heard once that nobody answered; the question is closed, its job gone, and a
    later try tells nothing more."""
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        for _ in range(2):
            table_clock.advance(ASK_AFTER)
            await bot.scheduler.run_due()
            await bot.front.catchup.computers_settled()
            await settled(standin)
        said = [m.content for m in standin.messages(thread) if no_answer(m)]
        assert len(said) == 1, said
        assert not standin.message(question.id).components
        assert not await bot.store.jobs.pending("timeout")
        assert any(is_board(m) and m.id > question.id for m in standin.messages(thread))


async def test_no_answer_in_time_told_just_before_a_stop_is_not_told_again(
    standin, make_bot, table_clock, day_bank_table
):
    """Nobody answers for a day: the computer takes the seat, the channel is told, and the bot
    stops as the board follows (before the question lost its buttons).  The bot started again
    posts the board and closes the question; it does not say again that nobody answered (it did:
    the take's job, still marked to tell it, told it once more)."""
    alice, bob, chan = day_bank_table
    async with standin.run_client(make_bot) as bot:
        thread, _, _ = await day_bank_game(standin, bot, alice, bob, chan)
        stops_at(bot, bot.front.boards, "announce")
        question = await nobody_answers(standin, bot, table_clock, thread)
        assert len([m for m in standin.messages(thread) if no_answer(m)]) == 1
        assert not any(is_board(m) and m.id > question.id for m in standin.messages(thread))
    await told_once_more_on(standin, make_bot, table_clock, thread, question)


async def test_no_answer_in_time_told_after_a_restart_just_before_a_stop_is_not_told_again(
    standin, make_bot, table_clock, day_bank_table
):
    """The computer's take is stored and the bot stops before the channel is told; started again,
    it tells it, and stops once more as the question was to lose its buttons.  The third start
    closes the question and tells nothing more (it told it again)."""
    async with standin.run_client(make_bot) as bot:
        thread, question, _, _ = await taken_and_never_told(standin, bot, table_clock, day_bank_table)
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        stops_at(bot, bot.front.clocks, "buttons_off")
        table_clock.advance(ASK_AFTER)
        with pytest.raises(Stopped):
            await bot.scheduler.run_due()
        await settled(standin)
        closing(bot)
        assert len([m for m in standin.messages(thread) if no_answer(m)]) == 1
    await told_once_more_on(standin, make_bot, table_clock, thread, question)


async def test_no_answer_in_time_refused_with_its_board_is_told_once_by_the_board_after_a_stop(
    standin, make_bot, table_clock, day_bank_table
):
    """Nobody answers for a day while the thread refuses every message: the computer takes the
    seat, and neither the line saying so nor the board is posted; the bot stops as it logs the
    refused board.  Started again with the thread open, the bot posts the board under the line
    (the line kept with it), and the question's job tells it no more (it told it a second time)."""
    alice, bob, chan = day_bank_table
    async with standin.run_client(make_bot) as bot:
        thread, _, _ = await day_bank_game(standin, bot, alice, bob, chan)
        stops_at(bot, bot.front.boards, "not_posted")
        question = await nobody_answers(standin, bot, table_clock, thread, SEND_MESSAGES_IN_THREADS)
        assert not [m for m in standin.messages(thread) if no_answer(m) or m.id > question.id]
        standin.set_permissions(chan, standin.bot_user)  # (the thread takes posts again)
        await settled(standin)
    await told_once_more_on(standin, make_bot, table_clock, thread, question)
    board = next(m for m in standin.messages(thread) if is_board(m) and m.id > question.id)
    assert no_answer(board), board.content


async def test_an_answer_s_line_refused_just_before_a_stop_comes_with_the_board_after_the_restart(
    standin, make_bot, table_clock, day_bank_table
):
    """The other player gives more time while the thread refuses every message, and the bot stops
    before the board that follows is posted.  Started again with the thread open, the board job's
    try (due at once: the thread was opened) posts that board under the answer's line, once (the
    line was lost: only a refused board kept it, and none was refused before the stop), calling
    on the late player, whose turn the answer started again, as that board would have."""
    alice, bob, chan = day_bank_table
    async with standin.run_client(make_bot) as bot:
        thread, late, session = await day_bank_game(standin, bot, alice, bob, chan)
        other = bob if late is alice else alice
        question = await asked(standin, bot, table_clock, thread)
        standin.set_permissions(chan, standin.bot_user, deny=SEND_MESSAGES_IN_THREADS)
        await settled(standin)
        stopped = stops_at(bot, bot.front.boards, "post_board")
        await standin.click(other, question, "Give more time")
        await stopped.wait()
        closing(bot)
        assert not [m for m in standin.messages(thread) if m.id > question.id and not m.ephemeral]
        standin.set_permissions(chan, standin.bot_user)  # (the thread takes posts again)
        await settled(standin)
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        await settled(standin)
        said = [m for m in standin.messages(thread) if "answered:" in m.content and not m.ephemeral]
        assert len(said) == 1 and is_board(said[0]), [m.content for m in said]
        assert f"<@{other.id}> answered:" in said[0].content
        assert late.id in said[0].pinged and other.id not in said[0].pinged, said[0].pinged
        table_clock.advance(600)  # the next try, were one left: nothing left to post
        await bot.scheduler.run_due()
        await settled(standin)
        assert [m for m in standin.messages(thread) if "answered:" in m.content and not m.ephemeral] == said


def is_card(message) -> bool:
    return message.content.startswith("**Results**") and not message.ephemeral


async def due_after(standin, bot, table_clock, seconds: float) -> None:
    """``seconds`` on: the jobs then due fire, and what they post is posted."""
    table_clock.advance(seconds)
    await bot.scheduler.run_due()
    await bot.front.catchup.drain()
    await settled(standin)


async def last_move_stored(standin, bot, chan):
    """The bot up, Alice and Bob's one-pile Nim game in ``chan`` played to its end, the last move
    stored and not posted: the session and the move's result."""
    alice, bob = standin.add_users("alice", "bob")
    await started(standin, bot)
    session, first, _ = await nim_game(standin, bot, chan, alice, bob, piles=1)
    legal = await bot.sessions.play.legal_moves(chan.id, first.id)
    result = await bot.sessions.play.play(chan.id, first.id, legal[-1])
    assert result.finished
    return session, result


async def test_a_results_card_stopped_before_its_post_is_posted_once_after_the_restart(
    standin, make_bot, table_clock, monkeypatch
):
    """The game's last move is played and its last board posted; the bot stops as it draws the
    results card (a kill before the card reaches Discord).  The bot started again posts the card
    once the stopped post's hold on the game's ``board`` job is over, once; a third start posts
    nothing more."""
    chan = standin.channel("games")
    async with standin.run_client(make_bot) as bot:
        session, result = await last_move_stored(standin, bot, chan)
        monkeypatch.setattr(card_maker, "card", card_maker.card)  # (given back after the test)
        stops_at(bot, card_maker, "card")
        with pytest.raises(Stopped):
            await bot.front.boards.announce(result)
        await settled(standin)
        assert any("**Game over**" in m.content for m in standin.messages(chan))
        assert not [m for m in standin.messages(chan) if is_card(m)]
        closing(bot)
    monkeypatch.undo()
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        await due_after(standin, bot, table_clock, POST_LEASE)
        (card,) = [m for m in standin.messages(chan) if is_card(m)]
        assert "Rematch" in " ".join(b["label"] for b in card.buttons)
        assert (await bot.sessions.core.get(session.id)).row.card_told
        count = len(standin.messages(chan))
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        await due_after(standin, bot, table_clock, POST_LEASE)
        assert len(standin.messages(chan)) == count


async def test_a_results_card_told_late_shows_the_ratings_the_game_s_end_gave(standin, make_bot, monkeypatch):
    """Alice and Bob's game is rated.  Its winning move is stored and the bot stops before the last
    board is posted; the bot started again posts the last board and the results card, which shows
    each player's rating before and after, as the card posted at once would have (the ratings the
    end returned)."""
    chan = standin.channel("games")
    async with standin.run_client(make_bot) as bot:
        session, result = await last_move_stored(standin, bot, chan)
        assert len(result.ratings) == 2
        standin.skip_messages(chan)
    drawn: list[renderer.Card] = []
    draw = renderer.render

    def render(card, **kwargs):
        drawn.append(card)
        return draw(card, **kwargs)

    monkeypatch.setattr(renderer, "render", render)
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        await standin.next_message(chan, is_card)
        ended = await bot.sessions.core.get(session.id)
        live = card_rows(ended, Outcome.from_dict(ended.row.outcome), result.ratings)
        assert all(row.rating for row in live)
        (late,) = drawn
        assert late.rows == live
        board = next(m for m in standin.messages(chan) if "**Game over**" in m.content)
        assert "**Ratings**" in board.content, board.content  # the last board, told late, too
