"""What comes with a board Discord refused is not lost: a league seat handed to a substitute (the
handover's line, the board's header; before the game's first board too), a league round's line
calling a game's players, and any answer to a clock that ran out (more time, the computer taking
the seat, the game abandoned, or nobody answering in time) reach the channel once it takes posts
again, with the board (or the game's end) its ``board`` job posts, or with a board posted before
that try, once, in the channel's language then."""

from __future__ import annotations

import re

import discord
import pytest

from engines.core import Said
from tests.e2e.conftest import BASE_EXTENSIONS
from tests.e2e.leagues import HOUR, fire, guacamole_with_substitute, posts_with, started_league
from tests.e2e.test_clocks import open_clocked, time_runs_out
from tests.e2e.test_notices import is_board, start_game
from tests.e2e.test_unposted import more_time_refused
from tests.standin.model import ATTACH_FILES, SEND_MESSAGES_IN_THREADS
from tests.support import nim

EXTENSIONS = (*BASE_EXTENSIONS, "cogs.guacamole", "cogs.league")
DAY = 86400  # nobody answering a timeout question for a day lets the computer take the seat
RETRY = 600  # the bot tries a refused board again every ten minutes
BOARD = "board"  # the job that does it


async def try_again(standin, bot, table_clock) -> None:
    """Ten minutes on: the ``board`` job fires, and what it posts is posted."""
    table_clock.advance(RETRY)
    await bot.scheduler.run_due()
    await bot.front.catchup.drain()
    await standin.settle()


async def hand_over_refused(standin, bot, games, players, sub, table_clock, deny):
    """A late three-player Guacamole league game: with ``deny`` taken from the bot in the league's
    channel (its games' threads follow it), the organiser hands the late seat to ``sub``.  The
    thread, the late player and the session before the handover."""
    _, session = await guacamole_with_substitute(standin, bot, games, players, sub, 1)
    thread = standin.channel(session.row.channel_id)
    (late_seat,) = session.waiting_on()
    late = next(u for u in players if u.id == late_seat.user_id)
    table_clock.advance(7 * HOUR)  # the game is late
    standin.set_permissions(games, standin.bot_user, deny=deny)
    await standin.settle()
    shown = await (await standin.slash(standin.owner, games, "league overdue")).original()
    await (await standin.click(standin.owner, shown, "Substitute at table 1")).original()
    await standin.settle()
    await bot.front.catchup.drain()
    assert not posts_with(standin, thread, "the board now")  # refused
    return thread, late, session


async def test_a_handover_refused_whole_is_posted_with_its_line_and_header_in_the_language_then(
    standin, bot_factory, table_clock
):
    """The thread refuses every message when the organiser hands Ana's late seat to a substitute:
    neither the handover's line nor its board is posted.  The server switches to Spanish meanwhile;
    once the bot may post again, the board's try says, in Spanish, who took the seat and the
    league's header above the board, pinging the substitute as the line would have, once."""
    games = standin.channel("games")
    *players, sub = standin.add_users("ana", "beto", "cusi", "sub")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, late, session = await hand_over_refused(
            standin, bot, games, players, sub, table_clock, SEND_MESSAGES_IN_THREADS
        )
        assert not posts_with(standin, thread, "takes ")
        assert await bot.store.jobs.job(BOARD, str(session.id)) is not None
        await (await standin.slash(standin.owner, games, "game language", choose="es")).original()

        standin.set_permissions(games, standin.bot_user)
        await standin.settle()
        await try_again(standin, bot, table_clock)
        (board,) = posts_with(standin, thread, "el tablero ahora")
        first, second, *_ = board.content.splitlines()
        assert first == (
            f"🔁 <@{sub.id}> ocupa el asiento de {late.name.title()} y sigue jugando desde aquí (el "
            "resultado cuenta para quien tenía el asiento)."
        ), board.content
        assert second == "**Avocado**: el tablero ahora", board.content
        assert is_board(board) and board.pinged == {sub.id}, board.content
        assert len(posts_with(standin, thread, "ocupa el asiento")) == 1
        assert await bot.store.jobs.job(BOARD, str(session.id)) is None

        await try_again(standin, bot, table_clock)  # nothing left to try
        assert standin.messages(thread)[-1].id == board.id


async def test_a_handover_whose_board_alone_is_refused_is_posted_with_its_header_and_no_second_line(
    standin, bot_factory, table_clock
):
    """The bot lacks Attach Files: the handover's line is posted (pinging the substitute), its
    board is refused.  The board's try carries the league's header, and not the line again."""
    games = standin.channel("games")
    *players, sub = standin.add_users("ana", "beto", "cusi", "sub")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, late, session = await hand_over_refused(
            standin, bot, games, players, sub, table_clock, ATTACH_FILES
        )
        (handed,) = posts_with(standin, thread, "takes " + late.name.title() + "'s seat")
        assert handed.pinged == {sub.id}

        standin.set_permissions(games, standin.bot_user)
        await standin.settle()
        await try_again(standin, bot, table_clock)
        (board,) = posts_with(standin, thread, "the board now")
        assert is_board(board) and board.content.startswith("**Avocado**: the board now\n"), board.content
        assert board.pinged == frozenset() and board.content.splitlines()[-1] == "**Still to move:** Sub"
        assert posts_with(standin, thread, "takes ") == [handed]


async def test_a_handover_refused_and_told_by_a_later_board_is_not_posted_again(
    standin, bot_factory, table_clock
):
    """The handover's line and board are refused; the bot may post again and someone asks for
    the board (``/game board``) before the try: that board says who took the seat, and the try
    posts nothing."""
    games = standin.channel("games")
    *players, sub = standin.add_users("ana", "beto", "cusi", "sub")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, late, session = await hand_over_refused(
            standin, bot, games, players, sub, table_clock, SEND_MESSAGES_IN_THREADS
        )
        standin.set_permissions(games, standin.bot_user)
        await standin.settle()
        await (await standin.slash(sub, thread, "game board")).original()
        await bot.front.catchup.drain()
        (board,) = posts_with(standin, thread, "takes " + late.name.title() + "'s seat")
        assert is_board(board) and board.content.startswith(f"🔁 <@{sub.id}> takes "), board.content
        assert await bot.store.jobs.job(BOARD, str(session.id)) is None

        await try_again(standin, bot, table_clock)
        assert standin.messages(thread)[-1].id == board.id
        assert posts_with(standin, thread, "takes ") == [board]


async def test_a_handover_refused_before_the_first_board_is_posted_with_that_board(
    standin, bot_factory, table_clock
):
    """The round opens Ana's league game and its thread refuses the first board; the game goes
    late with no board ever posted, and the organiser hands the late seat to a substitute while the
    thread still refuses every message.  Once it takes posts again, the first board's try says who
    took the seat above the round's header (the one the first board was refused with), once."""
    games = standin.channel("games")
    *players, sub = standin.add_users("ana", "beto", "cusi", "sub")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        look = bot.front.boards.look
        render = look.render

        async def refusing(*args, **kwargs):  # the first board is drawn; its thread refuses it
            standin.set_permissions(games, standin.bot_user, deny=SEND_MESSAGES_IN_THREADS)
            look.render = render
            return await render(*args, **kwargs)

        look.render = refusing
        _, session = await guacamole_with_substitute(standin, bot, games, players, sub, 1)
        await standin.settle()
        thread = standin.channel(session.row.channel_id)
        assert not [m for m in standin.messages(thread) if is_board(m)]
        (late_seat,) = session.waiting_on()
        late = next(u for u in players if u.id == late_seat.user_id)
        table_clock.advance(7 * HOUR)  # the game is late
        shown = await (await standin.slash(standin.owner, games, "league overdue")).original()
        await (await standin.click(standin.owner, shown, "Substitute at table 1")).original()
        await bot.front.catchup.drain()
        assert not posts_with(standin, thread, "takes ")

        standin.set_permissions(games, standin.bot_user)
        await standin.settle()
        await try_again(standin, bot, table_clock)
        (board,) = posts_with(standin, thread, "takes ")
        first, second, *_ = board.content.splitlines()
        assert first.startswith(f"🔁 <@{sub.id}> takes {late.name.title()}'s seat"), board.content
        assert second == "**Guacamole**: Avocado, round 1 of 1", board.content  # (the round's header)
        # the round's line called every player when the game opened: the board, as a league game's
        # first board does, pings the one it calls on (the substitute, late seat and next to move)
        seated = {s.user_id for s in (await bot.sessions.core.get(session.id)).seats}
        assert is_board(board) and board.pinged == {sub.id} and sub.id in seated, board.content
        assert await bot.store.jobs.job(BOARD, str(session.id)) is None

        await try_again(standin, bot, table_clock)  # nothing left to try
        assert standin.messages(thread)[-1].id == board.id


async def asked_in_a_thread(standin, bot, table_clock, monkeypatch):
    """A clocked Nim game in a thread whose first player's clock ran out: the thread, the late
    player, the other, the session and the question."""
    monkeypatch.setattr(nim, "TABLE_MOVES", False)
    alice, bob = standin.add_users("alice", "bob")
    thread, _ = await open_clocked(standin, bot, standin.channel("games"), alice, bob)
    late, other, session, question = await time_runs_out(standin, bot, thread, (alice, bob), table_clock)
    await standin.settle()
    return thread, late, other, session, question


async def answer_and_board_refused(standin, bot, table_clock, monkeypatch, label="Give more time"):
    """A clocked Nim game in a thread: the first player's clock runs out, and the other answers
    "Give more time" (or the answer ``label``) while the thread refuses every message (the
    answer's line and what follows it).  The thread, the late player, the other and the session."""
    games = standin.channel("games")
    thread, late, other, session, question = await asked_in_a_thread(standin, bot, table_clock, monkeypatch)
    refused = await more_time_refused(
        standin, bot, games, thread, other, question, SEND_MESSAGES_IN_THREADS, label
    )
    assert "Discord refused" in refused.content, refused.content
    assert not posts_with(standin, thread, "answered:")
    standin.set_permissions(games, standin.bot_user)
    await standin.settle()
    return thread, late, other, session


def answered(other, late) -> str:
    return f"<@{other.id}> answered: {late.name.title()} has 1 d on their clock again, from now."


def said_with(standin, thread, text: str) -> list:
    """The messages in ``thread`` saying ``text`` for all to see (no answer to a click)."""
    return [m for m in posts_with(standin, thread, text) if not m.ephemeral]


async def tried_once(standin, bot, table_clock, session, first: str, pinged: set[int]) -> None:
    """The ``board`` job's try posts the board of ``session``, once, under the line ``first``,
    pinging ``pinged`` alone; the next try has nothing left to post."""
    thread = standin.channel(session.row.channel_id)
    await try_again(standin, bot, table_clock)
    (board,) = said_with(standin, thread, first)
    assert is_board(board) and board.content.splitlines()[0] == first, board.content
    assert board.pinged == pinged, board.content
    assert (await bot.sessions.core.get(session.id)).row.board_message_id == board.id
    await try_again(standin, bot, table_clock)
    assert standin.messages(thread)[-1].id == board.id


async def test_more_time_refused_whole_is_posted_with_the_answer_calling_on_the_late_player(
    standin, bot_factory, table_clock, monkeypatch
):
    """The answer "more time" and its board are both refused: the board's try says who answered
    what above the board, once, and calls on the late player alone."""
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, late, other, session = await answer_and_board_refused(standin, bot, table_clock, monkeypatch)
        await tried_once(standin, bot, table_clock, session, answered(other, late), {late.id})


async def test_more_time_refused_and_told_by_the_next_move_is_not_posted_again(
    standin, bot_factory, table_clock, monkeypatch
):
    """The answer and its board are refused; the bot may post again and the late player moves
    before the try: the move's board says who answered what, and the try posts nothing."""
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, late, other, session = await answer_and_board_refused(standin, bot, table_clock, monkeypatch)
        now = await bot.sessions.core.get(session.id)
        move = min(nim.legal_moves(now.state, now.seat_of(late.id).seat), key=lambda m: m.count)
        await (await standin.slash(late, thread, "nim move", move=str(move))).original()
        await bot.front.catchup.drain()
        (board,) = posts_with(standin, thread, "answered:")
        assert is_board(board) and board.content.splitlines()[0] == answered(other, late), board.content
        assert other.id in board.pinged, board.content
        assert await bot.store.jobs.job(BOARD, str(session.id)) is None

        await try_again(standin, bot, table_clock)
        assert standin.messages(thread)[-1].id == board.id and posts_with(standin, thread, "answered:") == [
            board
        ]


async def test_the_computer_answer_refused_whole_is_posted_with_the_answer_calling_on_the_next_player(
    standin, bot_factory, table_clock, monkeypatch
):
    """The answer "Computer plays the seat" and the board of the computer's move are both
    refused: the board's try says who answered what above the board, once, and calls on the
    player to move next alone (the one who answered is named, not pinged, as the line would
    have)."""
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, late, other, session = await answer_and_board_refused(
            standin, bot, table_clock, monkeypatch, "Computer plays the seat"
        )
        assert (await bot.sessions.core.get(session.id)).seat_of(late.id).computer
        decided = f"<@{other.id}> answered: the computer plays the seat from now on."
        await tried_once(standin, bot, table_clock, session, decided, {other.id})
        assert_noted(standin, thread, late)


async def test_the_abandon_answer_refused_is_posted_with_the_game_s_end_pinging_nobody(
    standin, bot_factory, table_clock, monkeypatch
):
    """The answer "Abandon the game" is refused: once the thread takes posts again, the try says
    who answered what and that the game was abandoned, in one message, once, pinging nobody."""
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, late, other, session = await answer_and_board_refused(
            standin, bot, table_clock, monkeypatch, "Abandon the game"
        )
        assert (await bot.sessions.core.get(session.id)).status == "abandoned"
        assert not said_with(standin, thread, "abandoned")
        await try_again(standin, bot, table_clock)
        (told,) = said_with(standin, thread, "abandoned")
        first, second = told.content.splitlines()
        assert first == f"<@{other.id}> answered: the game is abandoned.", told.content
        assert second.startswith("This game was abandoned when a player's time ran out."), told.content
        assert told.pinged == frozenset(), told.content
        assert await bot.store.jobs.job(BOARD, str(session.id)) is None

        await try_again(standin, bot, table_clock)  # nothing left to try
        assert standin.messages(thread)[-1].id == told.id


async def unanswered_refused(standin, bot, table_clock, monkeypatch):
    """A clocked Nim game in a thread: the first player's clock runs out, and nobody answers in
    time while the thread refuses every message: the computer takes the seat and moves, and
    neither the clock's answer nor the board is posted.  The thread, the late player, the other
    and the session."""
    monkeypatch.setattr(nim, "TABLE_MOVES", False)
    alice, bob = standin.add_users("alice", "bob")
    games = standin.channel("games")
    thread, _ = await open_clocked(standin, bot, games, alice, bob)
    late, other, session, _ = await time_runs_out(standin, bot, thread, (alice, bob), table_clock)
    standin.set_permissions(games, standin.bot_user, deny=SEND_MESSAGES_IN_THREADS)
    await standin.settle()
    boards = [m for m in standin.messages(thread) if is_board(m)]
    table_clock.advance(DAY)  # nobody answers
    await bot.scheduler.run_due()
    await bot.front.catchup.drain()
    assert (await bot.sessions.core.get(session.id)).seat_of(late.id).computer
    assert [m for m in standin.messages(thread) if is_board(m)] == boards
    assert not posts_with(standin, thread, "No answer in time")
    return thread, late, other, session


NO_ANSWER = "No answer in time: the computer plays the seat from now on."


def assert_noted(standin, thread, late) -> None:
    """The board of the computer's first move in ``late``'s seat, posted by the try, says why the
    computer plays it, as it would have had it been taken at once, and it is said once."""
    note = f"⏰ {late.name.title()}'s time ran out; the computer plays that seat from now on"
    (board,) = said_with(standin, thread, note)
    assert is_board(board) and note + "." in board.content.splitlines(), board.content


async def test_no_answer_in_time_refused_whole_is_posted_with_the_clock_s_answer(
    standin, bot_factory, table_clock, monkeypatch
):
    """Nobody answers in time while the thread refuses every message: the board's try says that
    the clock answered, above the board of the computer's move, once, calling on the next player."""
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, late, other, session = await unanswered_refused(standin, bot, table_clock, monkeypatch)
        standin.set_permissions(standin.channel("games"), standin.bot_user)
        await standin.settle()
        await tried_once(standin, bot, table_clock, session, NO_ANSWER, {other.id})
        assert_noted(standin, thread, late)


async def test_no_answer_in_time_refused_is_posted_with_the_clock_s_answer_after_a_restart(
    standin, bot_factory, table_clock, monkeypatch
):
    """As above, with the bot stopped while the board waits, and the thread taking posts again by
    its start: the start's catch-up posts the board with the clock's answer, once."""
    make = bot_factory(EXTENSIONS)
    async with standin.run_client(make) as bot:
        await standin.wait_synced()
        thread, late, other, session = await unanswered_refused(standin, bot, table_clock, monkeypatch)
    standin.set_permissions(standin.channel("games"), standin.bot_user)
    async with standin.run_client(make) as bot:
        await standin.wait_synced()
        await bot.taken_up.wait()
        await bot.front.catchup.computers_settled()
        await standin.settle()
        (board,) = posts_with(standin, thread, "No answer in time")
        assert is_board(board) and board.content.splitlines()[0] == NO_ANSWER, board.content
        assert board.pinged == {other.id}, board.content
        assert_noted(standin, thread, late)
        assert await bot.store.jobs.job(BOARD, str(session.id)) is None

        await try_again(standin, bot, table_clock)  # nothing left to try
        assert standin.messages(thread)[-1].id == board.id


async def test_a_round_opening_refused_whole_is_posted_with_the_games_first_board(
    standin, bot_factory, table_clock
):
    """A league round opens while the league's threads refuse every message: the game's thread is
    made, but neither the line calling its players nor its first board is posted.  Once the thread
    takes posts again, the first board's try says the opening line above the round's header, once,
    pinging the players seated (who want a mention)."""
    games = standin.channel("games")
    players = standin.add_users("ana", "beto", "cusi")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await started_league(
            standin,
            games,
            players,
            name="Avocado",
            game="guacamole",
            format="swiss",
            players=3,
            rounds=1,
            days=3,
        )
        posts = bot.league_rounds.posts
        open_thread = posts.open_thread

        async def refusing(*args, **kwargs):  # the game's thread is made; then it refuses posts
            made = await open_thread(*args, **kwargs)
            standin.set_permissions(games, standin.bot_user, deny=SEND_MESSAGES_IN_THREADS)
            return made

        posts.open_thread = refusing
        await fire(bot)
        await bot.front.catchup.drain()
        league = (await bot.store.leagues.of_server(standin.guild.id))[0]
        (game,) = await bot.store.leagues.league_games(league.id, 1)
        session = await bot.sessions.core.get(game.session_id)
        thread = standin.channel(session.row.channel_id)
        assert not posts_with(standin, thread, "your Guacamole game for")  # refused

        standin.set_permissions(games, standin.bot_user)
        await standin.settle()
        await try_again(standin, bot, table_clock)
        (board,) = posts_with(standin, thread, "your Guacamole game for")
        first, second, *_ = board.content.splitlines()
        called, said = first.split(": ", 1)
        assert set(called.split()) == {f"<@{u.id}>" for u in players}, board.content
        assert re.fullmatch(
            r"your Guacamole game for \*\*Avocado\*\*, round 1 of 1\. Play it here before <t:\d+:f>\.", said
        )
        assert second == "**Guacamole**: Avocado, round 1 of 1", board.content  # (the round's header)
        assert is_board(board) and board.pinged == {u.id for u in players}, board.content
        assert await bot.store.jobs.job(BOARD, str(session.id)) is None

        await try_again(standin, bot, table_clock)  # nothing left to try
        assert standin.messages(thread)[-1].id == board.id


async def boards_refused(standin, bot, alice, bob, *notes: str):
    """A Nim game of ``alice`` and ``bob`` started in a thread of #games, then a board with each of
    ``notes`` (a line of the table's own) refused there (no Attach Files), then the channel taking
    boards again: its thread and session."""
    games = standin.channel("games")
    await standin.wait_synced()
    thread, _ = await start_game(standin, bot, games, alice, bob)
    session = await bot.sessions.core.in_channel(thread.id)
    standin.set_permissions(games, standin.bot_user, deny=ATTACH_FILES)
    await standin.settle()
    for note in notes:
        with pytest.raises(discord.HTTPException):
            await bot.front.boards.post_board(session, note=Said(note))
    standin.set_permissions(games, standin.bot_user)
    await standin.settle()
    return thread, session


async def test_the_notes_of_two_boards_refused_are_both_told_by_the_board_that_follows(
    standin, bot_factory, table_clock
):
    """Two boards refused (no Attach Files), each with a line of the table's own (Beto resigned,
    then Ana did): the board posted once the channel takes boards again tells both, in the order
    they came, once; and a third board's note comes after them."""
    alice, bob = standin.add_users("alice", "bob")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        thread, session = await boards_refused(standin, bot, alice, bob, "Beto resigned.", "Ana resigned.")
        seen = len(standin.messages(thread))
        await bot.front.boards.post_board(session, note=Said("⏰ Time is up."))
        (board,) = [m for m in standin.messages(thread)[seen:] if not m.ephemeral]
        said = board.content.splitlines()
        assert said[:3] == ["Beto resigned.", "Ana resigned.", "⏰ Time is up."], board.content
        await try_again(standin, bot, table_clock)  # nothing left to try
        assert standin.messages(thread)[-1].id == board.id


async def test_a_note_refused_with_its_board_comes_with_the_abandon_that_follows(
    standin, bot_factory, table_clock
):
    """The board telling that Beto resigned is refused (no Attach Files), its note kept for the
    board job; before its try the host abandons the game with ``/game abandon``: the message saying
    so tells the note first, then who abandoned it and what to do next, once, and the try tells
    nothing more."""
    alice, bob = standin.add_users("alice", "bob")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        thread, session = await boards_refused(standin, bot, alice, bob, "Beto resigned.")
        seen = len(standin.messages(thread))
        await (await standin.slash(alice, thread, "game abandon")).original()
        await bot.front.catchup.drain()
        await try_again(standin, bot, table_clock)
        (told,) = [m for m in standin.messages(thread)[seen:] if not m.ephemeral]
        note, line, end = told.content.splitlines()
        assert (note, line) == ("Beto resigned.", f"The Nim game was abandoned by <@{alice.id}>."), (
            told.content
        )
        assert end.startswith("Play again with `/nim new`"), told.content  # (the line said it was abandoned)
        assert await bot.store.jobs.job(BOARD, str(session.id)) is None
