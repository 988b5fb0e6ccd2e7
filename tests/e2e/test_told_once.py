"""Discord took a post of the ``board`` job and the bot stopped before recording it (a kill in
that instant): the restart tells it again with the same nonce, so within Discord's few minutes the
channel has it once, and the bot records Discord's first message as posted; past them it is posted
again (at least once, as before)."""

from __future__ import annotations

import dataclasses
from contextlib import asynccontextmanager

import pytest

from bot.surface import nonces
from bot.surface.boards import POST_LEASE
from bot.surface.unposted import HANDED, Inside
from engines.core import said
from tests.e2e import test_restarts
from tests.e2e.players import to_move
from tests.e2e.test_notices import is_board
from tests.e2e.test_restarts import GONE, Stopped, cut, due_after, is_card, last_move_stored, started
from tests.e2e.test_undo import nim_game
from tests.standin.fixtures import DEFAULT_OPTIONS
from tests.standin.ratelimits import Clock
from tests.standin.server import NONCE_WINDOW

make_bot = test_restarts.make_bot  # the bot on SQLite and on PostgreSQL, the same across restarts


@pytest.fixture
def standin_options() -> dict:
    """Discord's time stands still but for what the test and its users move on (the table's clock,
    a person's pace): how long a restart takes on this machine never moves it past the window."""
    return {**DEFAULT_OPTIONS, "clock": Clock(now=lambda: 0.0)}


def stops_once_taken(standin, bot, taken) -> list:
    """The next message the bot creates that ``taken`` accepts is created (Discord took it), and
    the process stops before it hears back: every later use of its database raises
    :class:`Stopped` (until :func:`closing`), so what it would record is not.  The list gets that
    message."""
    db, create, messages = bot.store.db, standin._create_message, []

    async def gone(*_args, **_kwargs):
        raise Stopped

    def created(channel, data, files):
        message = create(channel, data, files)
        if not messages and taken(message):
            messages.append(message)
            for method in GONE:
                setattr(db, method, gone)
        return message

    standin._create_message = created
    return messages


async def wanting(bot, users, **settings) -> None:
    """``users`` want their notices by direct message, with ``settings`` more (``/me notify``'s)."""
    for user in users:
        person = await bot.store.people.person(user.id)
        await bot.store.people.save_person(dataclasses.replace(person, notify="dm", **settings), person)


async def playing(standin, bot, chan):
    """The bot up, and Alice and Bob's Nim game begun in ``chan``: its session, who is to move, the
    other."""
    alice, bob = standin.add_users("alice", "bob")
    await started(standin, bot)
    return await nim_game(standin, bot, chan, alice, bob)


@asynccontextmanager
async def back(standin, make_bot, table_clock):
    """The bot started again: its start's catch-up and the ``board`` job's try, once the stopped
    post's hold on the job is over, have posted what they found."""
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        await due_after(standin, bot, table_clock, POST_LEASE)
        yield bot


async def moved_until_a_stop(standin, bot, chan, mover):
    """``mover`` moves; the move's board reaches Discord and the process stops before recording it.
    That board."""
    legal = await bot.sessions.play.legal_moves(chan.id, mover.id)
    result = await bot.sessions.play.play(chan.id, mover.id, legal[0])
    taken = stops_once_taken(standin, bot, is_board)
    await cut(bot, bot.front.boards.announce(result))
    (board,) = taken
    return board


def late_or_not(standin, late: bool) -> None:
    """The bot is started again within Discord's window, or (``late``) a window after the stop."""
    if late:
        standin.clock.advance(NONCE_WINDOW)


@pytest.mark.parametrize("late", [False, True], ids=["within", "past"])
async def test_a_board_discord_took_just_before_a_stop_is_posted_once_and_the_game_goes_on(
    standin, make_bot, table_clock, late
):
    """The first player's move is stored and its board reaches Discord; the bot stops before
    recording it.  Started again, the ``board`` job's try (once the stopped post's hold is over)
    tells the move again: within Discord's window that is the same post, which the bot records, and
    the channel has the move's board once; past it, a second board tells the move.  Either way the
    other player's move then gets its board."""
    chan = standin.channel("games")
    async with standin.run_client(make_bot) as bot:
        session, first, other = await playing(standin, bot, chan)
        board = await moved_until_a_stop(standin, bot, chan, first)
        mover = session.seat_of(first.id).name
        assert board.content.startswith(f"{mover} took"), board.content
    late_or_not(standin, late)
    async with back(standin, make_bot, table_clock) as bot:
        told = [m for m in standin.messages(chan) if m.content.startswith(f"{mover} took")]
        assert [m.id for m in told] == ([board.id] if not late else [board.id, told[-1].id])
        assert len(told) == (2 if late else 1)
        row = (await bot.sessions.core.get(session.id)).row
        assert row.board_message_id == told[-1].id and row.told_through == 1
        to, _ = await to_move(bot, chan, (first, other))
        assert to is other
        legal = await bot.sessions.play.legal_moves(chan.id, other.id)
        await (await standin.slash(other, chan, "nim move", move=legal[0])).original()
        after = await standin.next_message(chan, lambda m: is_board(m) and m.id > told[-1].id)
        assert after.content.startswith(f"{session.seat_of(other.id).name} took"), after.content
        assert (await bot.sessions.core.get(session.id)).row.board_message_id == after.id


@pytest.mark.parametrize("handed", [False, True], ids=["kept", "handed-since"])
async def test_a_board_carrying_a_line_the_job_kept_is_posted_once_with_it(
    standin, make_bot, table_clock, handed
):
    """A line was handed to the game's ``board`` job (as a post that found another process posting
    the board hands its own), so the next board carries it; that board reaches Discord and the bot
    stops before recording it.  Started again, the try tells the board again with the line the job
    still keeps: the same post, so the channel has the board, and the line, once.  A line handed to
    the job after the stop (``handed``; the stopped post told the first) makes it another post,
    which tells that line (and the move again) rather than lose it."""
    chan = standin.channel("games")
    async with standin.run_client(make_bot) as bot:
        session, first, _ = await playing(standin, bot, chan)
        await bot.front.boards.unposted.again(session, Inside(HANDED, lines=(said("Carol takes a seat."),)))
        board = await moved_until_a_stop(standin, bot, chan, first)
        assert board.content.startswith("Carol takes a seat.\n"), board.content
    async with standin.run_client(make_bot) as bot:
        await started(standin, bot)
        if handed:
            await bot.front.boards.unposted.again(session, Inside(HANDED, lines=(said("Dan takes a seat."),)))
        await due_after(standin, bot, table_clock, POST_LEASE)
        assert [m for m in standin.messages(chan) if "Carol takes a seat." in m.content] == [board]
        boards = [m for m in standin.messages(chan) if is_board(m)][1:]
        assert len(boards) == (2 if handed else 1)
        assert boards[-1].content.startswith("Dan takes a seat.\n" if handed else "Carol"), boards[-1].content
        assert (await bot.sessions.core.get(session.id)).row.board_message_id == boards[-1].id
        assert not await bot.store.jobs.pending("board")


@pytest.mark.parametrize("late", [False, True], ids=["within", "past"])
async def test_an_abandon_discord_took_just_before_a_stop_is_told_once(standin, make_bot, table_clock, late):
    """Alice abandons the game; the message saying so, under the answer's line, reaches Discord and
    the bot stops before recording it told.  Started again, the ``board`` job's try tells the
    abandon (without that line, which only the stopped process had): within Discord's window that is
    the first message, recorded as told, and the board loses its buttons; past it, the abandon is
    told twice."""
    chan = standin.channel("games")
    async with standin.run_client(make_bot) as bot:
        session, _, _ = await playing(standin, bot, chan)
        (board,) = [m for m in standin.messages(chan) if is_board(m)]
        abandoned = await bot.sessions.seats.abandon(chan.id, session.row.host_id, can_manage=False)
        taken = stops_once_taken(standin, bot, lambda m: "abandoned" in m.content)
        await cut(bot, bot.front.boards.tell_abandoned(abandoned, [said("Alice ended the game.")]))
        (message,) = taken
        assert message.content.startswith("Alice ended the game.\nThis game was abandoned"), message.content
    late_or_not(standin, late)
    async with back(standin, make_bot, table_clock) as bot:
        told = [m for m in standin.messages(chan) if "This game was abandoned" in m.content]
        assert told[0] is message and len(told) == (2 if late else 1), [m.content for m in told]
        assert (await bot.sessions.core.get(session.id)).row.end_told
        assert standin.message(board.id).custom_ids == []
        count = len(standin.messages(chan))
        await due_after(standin, bot, table_clock, POST_LEASE)  # nothing is left to tell
        assert len(standin.messages(chan)) == count


@pytest.mark.parametrize("late", [False, True], ids=["within", "past"])
async def test_a_results_card_discord_took_just_before_a_stop_is_posted_once(
    standin, make_bot, table_clock, late
):
    """The game's last board is posted and its results card reaches Discord; the bot stops before
    marking it posted.  Started again, the ``board`` job's try posts the card: within Discord's
    window that is the first card, marked posted; past it, a second card."""
    chan = standin.channel("games")
    async with standin.run_client(make_bot) as bot:
        session, result = await last_move_stored(standin, bot, chan)
        taken = stops_once_taken(standin, bot, is_card)
        await cut(bot, bot.front.boards.announce(result))
        (card,) = taken
        assert any("**Game over**" in m.content for m in standin.messages(chan))
    late_or_not(standin, late)
    async with back(standin, make_bot, table_clock) as bot:
        cards = [m for m in standin.messages(chan) if is_card(m)]
        assert cards[0] is card and len(cards) == (2 if late else 1)
        assert (await bot.sessions.core.get(session.id)).row.card_told
        count = len(standin.messages(chan))
    async with back(standin, make_bot, table_clock):
        assert len(standin.messages(chan)) == count


async def test_a_board_asked_for_again_is_posted_anew(standin, bot_factory):
    """The boards the ``board`` job tells carry the nonce naming what they tell; a board a player
    asks to see again (``/game board``) carries discord.py's random one, so that Discord never
    answers it with an earlier post, even right after a board whose record a stop lost."""
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        session, first, _ = await playing(standin, bot, chan)
        (board,) = [m for m in standin.messages(chan) if is_board(m)]
        assert board.extra["nonce"] == nonces.post_nonce(session, nonces.BOARD, 0, 0, "active", {})
        for _ in range(2):
            await (await standin.slash(first, chan, "game board")).original()
        again = [m for m in standin.messages(chan) if is_board(m)][1:]
        assert len(again) == 2 and all(str(m.extra["nonce"]).isdigit() for m in again)
