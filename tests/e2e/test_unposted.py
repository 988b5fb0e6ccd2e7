"""A board Discord refuses where no command was asked (a clock ran out, the catch-up at start-up, a
league round opening a game; after a command too): the log says in which server and channel and
which permission is missing, the player to move and the host are told once by direct message, in
their language, and the post is tried again until it goes through; a board refused inside a turn
(an undo inside a round) too, unless a later board told it."""

from __future__ import annotations

import asyncio
import logging

from tests.e2e.leagues import EXTENSIONS as LEAGUE_EXTENSIONS
from tests.e2e.leagues import one_round_league
from tests.e2e.players import start, to_move
from tests.e2e.test_clocks import open_clocked, time_runs_out
from tests.e2e.test_notices import EXTENSIONS, is_board, play_one, settings, start_game
from tests.e2e.test_shared_round_notices import EXTENSIONS as ROUND_EXTENSIONS
from tests.e2e.test_shared_round_notices import move, turn_dms
from tests.e2e.test_undo import nim_game
from tests.standin.model import ATTACH_FILES, SEND_MESSAGES, SEND_MESSAGES_IN_THREADS
from tests.support import nim

HOUR = 3600
RETRY = 600  # the bot tries a refused board again every ten minutes
WEEK = 7 * 24 * HOUR  # ... and once a week after a week of refusals
BOARD = "board"  # the job that does it


async def timer_runs_out(standin, bot, chan, alice, bob, table_clock):
    """Alice hosts a Nim game with Bob in a thread, and sets a one-hour turn timer on her turn: the
    test then moves the clock past it (the computer moves for her, and it is Bob's turn)."""
    thread, _ = await start_game(standin, bot, chan, alice, bob, piles=5)
    first, _ = await to_move(bot, thread, (alice, bob))
    if first is bob:
        await play_one(standin, bot, thread, (alice, bob))
    await (await standin.slash(alice, thread, "game timer", hours=1)).original()
    return thread


async def refused_by_clock(standin, bot, chan, alice, bob, table_clock, deny):
    """:func:`timer_runs_out`, with ``deny`` taken from the bot in the channel before the clock runs
    out: the board after it is refused.  The thread and the session as they were before."""
    thread = await timer_runs_out(standin, bot, chan, alice, bob, table_clock)
    session = await bot.sessions.core.in_channel(thread.id)
    standin.set_permissions(chan, standin.bot_user, deny=deny)
    await standin.settle()
    table_clock.advance(HOUR + 1)
    await bot.scheduler.run_due()
    await bot.front.catchup.drain()
    return thread, session


def dms(standin, user) -> list[str]:
    return [m.content for m in standin.messages(standin.dm(user))]


async def test_a_board_refused_after_a_clock_is_logged_told_once_and_posted_again(
    standin, bot_factory, table_clock, caplog
):
    """The bot loses Attach Files in the channel; Alice's turn timer runs out and the computer
    moves for her, but the board cannot be posted.  The log names the server, the thread and
    Attach Files; Bob (to move, in Spanish) and Alice (the host) each get one direct message saying
    where and what an admin must grant; a second refusal tells nobody again; once the permission is
    back the board is posted at the next try, mentioning Bob."""
    alice, bob = standin.add_users("alice", "bob")
    bob.locale = "es-ES"
    chan = standin.channel("games")
    caplog.set_level(logging.WARNING, logger="bot.surface.unposted")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread = await timer_runs_out(standin, bot, chan, alice, bob, table_clock)
        session = await bot.sessions.core.in_channel(thread.id)
        boards = len([m for m in standin.messages(thread) if is_board(m)])
        standin.set_permissions(chan, standin.bot_user, deny=ATTACH_FILES)
        await standin.settle()
        table_clock.advance(HOUR + 1)
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        after = await bot.sessions.core.in_channel(thread.id)
        assert after.version > session.version and after.to_move() == {after.seat_of(bob.id).seat}
        assert len([m for m in standin.messages(thread) if is_board(m)]) == boards  # refused

        (line,) = [r.getMessage() for r in caplog.records if r.name == "bot.surface.unposted"]
        assert caplog.records[-1].levelno == logging.WARNING
        assert f"in channel {thread.id} (#{thread.name})" in line, line
        assert f"server {standin.guild.name} ({standin.guild.id})" in line, line
        assert "missing Attach Files" in line and "after its clock ran out" in line, line

        (to_alice,) = dms(standin, alice)
        assert to_alice.startswith(
            f"⚠️ I could not post the board of **Nim** #{session.id} in <#{thread.id}> on "
            f"**{standin.guild.name}**: I am missing Attach Files there. A server admin can grant it "
            "to my role"
        ), to_alice
        assert (
            "I try again as soon as permissions change, and every 10 minutes." in to_alice
            and "It is your turn" not in to_alice
        )
        (to_bob,) = dms(standin, bob)
        assert to_bob.startswith(
            f"⚠️ No pude publicar el tablero de **Nim** #{session.id} en <#{thread.id}> de "
            f"**{standin.guild.name}**: me falta Adjuntar archivos allí."
        ), to_bob
        assert "Te toca jugar allí" in to_bob, to_bob

        table_clock.advance(RETRY)  # tried again, refused again: nobody is told twice
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        assert len(dms(standin, alice)) == len(dms(standin, bob)) == 1
        assert len([m for m in standin.messages(thread) if is_board(m)]) == boards
        assert await bot.store.jobs.job(BOARD, str(session.id)) is not None

        standin.set_permissions(chan, standin.bot_user)
        await standin.settle()
        table_clock.advance(RETRY)
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        board = standin.messages(thread)[-1]
        assert is_board(board) and bob.id in board.pinged, board.content
        assert await bot.store.jobs.job(BOARD, str(session.id)) is None
        assert len(dms(standin, alice)) == len(dms(standin, bob)) == 1


async def test_granting_the_permission_posts_the_refused_board_at_once(standin, bot_factory, table_clock):
    """The board waits on Send Messages in Threads; when an admin grants it (a channel update
    reaches the bot), the board is tried at once, not ten minutes later; a different refusal
    later (Attach Files, at the next clock) is told again."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, session = await refused_by_clock(
            standin, bot, chan, alice, bob, table_clock, SEND_MESSAGES_IN_THREADS
        )
        (told,) = dms(standin, alice)
        assert "I am missing Send Messages in Threads there" in told, told
        posted = len(standin.messages(thread))

        unposted = bot.front.boards.unposted
        changed, looked = asyncio.Event(), unposted.permissions_changed

        async def permissions_changed(guild_id: int) -> None:  # the bot's handler, then a signal
            await looked(guild_id)
            changed.set()

        unposted.permissions_changed = permissions_changed
        standin.set_permissions(chan, standin.bot_user)  # the channel's update reaches the bot
        async with asyncio.timeout(5):
            await changed.wait()
        job = await bot.store.jobs.job(BOARD, str(session.id))
        assert job is not None and job.due_at <= table_clock.time()  # due now, not in ten minutes
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        assert len(standin.messages(thread)) > posted and is_board(standin.messages(thread)[-1])

        standin.set_permissions(chan, standin.bot_user, deny=ATTACH_FILES)
        await standin.settle()
        table_clock.advance(HOUR + 1)  # Bob's hour runs out now: the same game, another refusal
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        assert len(dms(standin, alice)) == 2 and "I am missing Attach Files there" in dms(standin, alice)[1]


async def test_a_turn_untold_at_start_up_and_refused_is_told_and_posted_later(
    standin, bot_factory, table_clock
):
    """The bot stopped between a move and its board; at its start the channel no longer lets it
    send messages, so the catch-up's board is refused: the next player (a channel game, no
    thread) and the host are told once by direct message, naming Send Messages; once it is granted
    the board tells the move and mentions the player to move."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    make = bot_factory(EXTENSIONS)
    async with standin.run_client(make) as bot:
        await standin.wait_synced()
        session, mover, other = await nim_game(standin, bot, chan, alice, bob)
        legal = await bot.sessions.play.legal_moves(chan.id, mover.id)
        await bot.sessions.play.play(chan.id, mover.id, legal[0])  # stored, never posted
    standin.set_permissions(chan, standin.bot_user, deny=SEND_MESSAGES)
    boards = len([m for m in standin.messages(chan) if is_board(m)])
    async with standin.run_client(make) as bot:
        await standin.wait_synced()
        await bot.taken_up.wait()
        await bot.front.catchup.computers_settled()
        assert len([m for m in standin.messages(chan) if is_board(m)]) == boards
        for user in (alice, bob):
            (told,) = dms(standin, user)
            assert f"#{session.id} in <#{chan.id}>" in told and "I am missing Send Messages there" in told
            assert ("It is your turn there" in told) is (user is other), told
        standin.set_permissions(chan, standin.bot_user)
        await standin.settle()
        table_clock.advance(RETRY)
        await bot.scheduler.run_due()
        await bot.front.catchup.computers_settled()
        board = standin.messages(chan)[-1]
        assert is_board(board) and other.id in board.pinged, board.content
        assert board.content.startswith(session.seat_of(mover.id).name), board.content


async def test_a_board_refused_in_a_locked_thread_says_so_and_is_posted_once_unlocked(
    standin, bot_factory, table_clock
):
    """A moderator locks (and closes) the game's thread; the turn timer runs out: the host and the
    player to move hear the thread is locked, not that a permission is missing; once it is
    unlocked (a thread update reaches the bot), the board is posted at once."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread = await timer_runs_out(standin, bot, chan, alice, bob, table_clock)
        session = await bot.sessions.core.in_channel(thread.id)
        standin.moderate_thread(standin.owner, thread, archived=True, locked=True)
        await standin.settle()
        table_clock.advance(HOUR + 1)
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        (told,) = dms(standin, alice)
        assert f"#{session.id} in <#{thread.id}>" in told and "the thread is locked" in told, told
        assert "missing" not in told, told
        posted = len(standin.messages(thread))

        unposted = bot.front.boards.unposted
        changed, looked = asyncio.Event(), unposted.permissions_changed

        async def permissions_changed(guild_id: int) -> None:  # the bot's handler, then a signal
            await looked(guild_id)
            changed.set()

        unposted.permissions_changed = permissions_changed
        standin.moderate_thread(standin.owner, thread, archived=False, locked=False)
        async with asyncio.timeout(5):
            await changed.wait()
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        assert len(standin.messages(thread)) > posted and is_board(standin.messages(thread)[-1])
        assert bob.id in standin.messages(thread)[-1].pinged


async def test_a_league_games_first_board_discord_fails_is_posted_again(standin, bot_factory, table_clock):
    """A league round opens a game, and Discord fails the first board's post (a 503): the round
    still opens (the opening job does not fail), nobody is told of a passing failure, and a minute
    later the board is posted in the game's thread, mentioning the player to move."""
    ana, beto = standin.add_users("ana", "beto")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(LEAGUE_EXTENSIONS)) as bot:
        await standin.wait_synced()
        look = bot.front.boards.look
        render = look.render

        async def failing_post(*args, **kwargs):  # the board is drawn; Discord fails its post
            standin.inject("POST /channels/*/messages", status=503, times=1)
            look.render = render
            return await render(*args, **kwargs)

        look.render = failing_post
        league, session = await one_round_league(standin, bot, chan, (ana, beto), game="pachakuna", players=2)
        thread = standin.channel(session.row.channel_id)
        assert not [m for m in standin.messages(thread) if is_board(m)]
        assert (await bot.store.leagues.league_games(league.id, 1))[0].status != "pending"
        assert not dms(standin, ana) and not dms(standin, beto)
        table_clock.advance(60)
        await bot.scheduler.run_due()
        await bot.front.catchup.computers_settled()
        (board,) = [m for m in standin.messages(thread) if is_board(m)]
        (mover,) = [s.user_id for s in (await bot.sessions.core.get(session.id)).waiting_on()]
        assert mover in board.pinged, board.content


async def test_a_board_refused_after_a_command_is_tried_again_too(standin, bot_factory, table_clock):
    """Bob resigns from a game of two while the bot lacks Attach Files: he hears the resignation
    stands and the last board was refused, and the game is over without it.  The post is tried
    again ten minutes later (refused again: Alice, the host, is told by direct message), and once
    the permission is back the last board is posted, mentioning her, with the result."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, _ = await start_game(standin, bot, chan, alice, bob, piles=5)
        if (await to_move(bot, thread, (alice, bob)))[0] is alice:
            await play_one(standin, bot, thread, (alice, bob))
        standin.set_permissions(chan, standin.bot_user, deny=ATTACH_FILES)
        await standin.settle()
        answer = await (await standin.slash(bob, thread, "game resign")).original()
        assert "Discord refused my post" in answer.content and "Attach Files" in answer.content
        await bot.front.catchup.drain()
        session = await bot.sessions.core.latest(thread.id)
        assert session.status == "finished" and not session.row.end_told
        assert not dms(standin, alice)

        table_clock.advance(RETRY)
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        (told,) = dms(standin, alice)
        assert "I am missing Attach Files there" in told and "It is your turn" not in told, told

        standin.set_permissions(chan, standin.bot_user)
        await standin.settle()
        table_clock.advance(RETRY)
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        (board,) = [m for m in standin.messages(thread) if is_board(m) and "resigned" in m.content]
        assert alice.id in board.pinged, board.content
        assert (await bot.sessions.core.latest(thread.id)).row.end_told


async def test_a_board_refused_for_a_week_is_tried_once_a_week_after(
    standin, bot_factory, table_clock, caplog
):
    """A server that keeps refusing the board (one that removed the bot answers every try with a
    refusal) is tried every ten minutes for a week after the first refusal, then once a week: the
    log says so; nobody is told again; the post goes through once the permission is back."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    caplog.set_level(logging.WARNING, logger="bot.surface.unposted")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, session = await refused_by_clock(standin, bot, chan, alice, bob, table_clock, ATTACH_FILES)
        first = await bot.store.jobs.job(BOARD, str(session.id))
        assert first is not None and first.payload["since"] == table_clock.time()

        table_clock.advance(6 * 24 * HOUR)  # six days on: still every ten minutes
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        again = await bot.store.jobs.job(BOARD, str(session.id))
        assert again is not None and again.payload["since"] == first.payload["since"]
        assert again.due_at == table_clock.time() + RETRY

        table_clock.advance(24 * HOUR)  # a week after the first refusal: once a week from now
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        weekly = await bot.store.jobs.job(BOARD, str(session.id))
        assert weekly is not None and weekly.payload["since"] == first.payload["since"]
        assert weekly.due_at == table_clock.time() + WEEK
        assert any(
            "refused for 7 days: it is tried once a week now" in r.getMessage() for r in caplog.records
        )
        assert len(dms(standin, alice)) == 1  # told once, at the first refusal

        standin.set_permissions(chan, standin.bot_user)
        await standin.settle()
        table_clock.advance(WEEK)
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        board = standin.messages(thread)[-1]
        assert is_board(board) and "**Next:**" in board.content, board.content
        assert await bot.store.jobs.job(BOARD, str(session.id)) is None


async def undo_refused_inside_a_round(standin, bot, chan, people):
    """A Nowa Gwinea round for ``people`` (Carol wants direct messages): Alice builds a hut and
    asks to take it back; the bot loses Attach Files before Bob and Carol agree, so the undo's
    board, inside the round, is refused (Carol, who agreed last, hears it).  The session then."""
    alice, bob, carol = people
    await settings(standin, carol, chan, where="dm")
    await start(standin, bot, chan, "nowa_gwinea", people, seed=3)
    await standin.settle()
    await bot.front.catchup.drain()
    legal = await bot.sessions.play.legal_moves(chan.id, alice.id)
    await move(standin, bot, chan, alice, next(m for m in legal if m not in ("done", "gwinea")))
    asked = await (await standin.slash(alice, chan, "game undo")).original()
    assert asked.content.startswith("Asked"), asked.content
    request = await standin.next_message(chan, lambda m: "asks to take back" in m.content and m.buttons)
    standin.set_permissions(chan, standin.bot_user, deny=ATTACH_FILES)
    await standin.settle()
    await (await standin.click(bob, request, "Agree")).original()
    last = await standin.click(carol, request, "Agree")
    (refused,) = await last.followups()
    assert "Attach Files" in refused.content, refused.content
    await standin.settle()
    await bot.front.catchup.drain()
    assert not taken_back(standin, chan)
    session = await bot.sessions.core.in_channel(chan.id)
    assert session.state.round == 1 and len(session.to_move()) == 3  # the hut is taken back, in the round
    return session


def taken_back(standin, chan) -> list:
    return [m for m in standin.messages(chan) if is_board(m) and "took back" in m.content]


async def test_an_undo_refused_inside_a_round_is_posted_once_discord_takes_it(
    standin, bot_factory, table_clock
):
    """The undo agreed inside a shared round is refused (no turn ended with it): the ``board`` job
    remembers the board, a second refusal (no command's: the players hear of it) keeps it, and once
    Attach Files is back the undo's board is posted, once: the taking back, everyone still to move
    named without a ping, and no second turn notice."""
    alice, bob, carol = people = standin.add_users("alice", "bob", "carol")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ROUND_EXTENSIONS)) as bot:
        await standin.wait_synced()
        session = await undo_refused_inside_a_round(standin, bot, chan, people)
        assert await bot.store.jobs.job(BOARD, str(session.id)) is not None
        assert len(turn_dms(standin, carol)) == 1

        table_clock.advance(RETRY)  # refused again, where no command asked: the players are told
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        assert not taken_back(standin, chan)
        assert "I am missing Attach Files there" in dms(standin, alice)[-1]

        standin.set_permissions(chan, standin.bot_user)
        await standin.settle()
        table_clock.advance(RETRY)
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        (board,) = taken_back(standin, chan)
        assert board.content.splitlines() == [  # as the undo's own board would have said
            "Alice took back 1 move, from move 1, with everyone's agreement.",
            "**Still to move:** Alice, Bob, Carol",
        ], board.content
        assert not board.pinged
        after = await bot.sessions.core.in_channel(chan.id)
        assert after.row.board_message_id == board.id and after.version == session.version
        assert await bot.store.jobs.job(BOARD, str(session.id)) is None
        assert len(turn_dms(standin, carol)) == 1

        table_clock.advance(RETRY)  # nothing left to try: no second post
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        assert len(taken_back(standin, chan)) == 1 and standin.messages(chan)[-1].id == board.id


async def test_an_undo_refused_inside_a_round_and_told_by_a_later_board_is_not_posted_again(
    standin, bot_factory, table_clock
):
    """The undo's board inside the round is refused; Attach Files comes back and the round ends
    before the ``board`` job's try: the round's board tells the undo, and the try (one already
    claimed when that board was posted, as another process's may be) posts nothing."""
    alice, bob, carol = people = standin.add_users("alice", "bob", "carol")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ROUND_EXTENSIONS)) as bot:
        await standin.wait_synced()
        session = await undo_refused_inside_a_round(standin, bot, chan, people)
        job = await bot.store.jobs.job(BOARD, str(session.id))
        standin.set_permissions(chan, standin.bot_user)
        await standin.settle()
        for user in people:
            await move(standin, bot, chan, user, "done")
        (board,) = taken_back(standin, chan)
        assert (await bot.sessions.core.in_channel(chan.id)).state.round == 2
        assert await bot.store.jobs.job(BOARD, str(session.id)) is None  # posted: nothing to try

        await bot.store.jobs.schedule(BOARD, job.key, table_clock.time(), job.payload)  # a late try
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        assert taken_back(standin, chan) == [board] and standin.messages(chan)[-1].id == board.id


async def more_time_refused(standin, bot, games, thread, other, question, deny, label="Give more time"):
    """``other`` answers "Give more time" (or the answer ``label``) to the timeout ``question`` in
    ``thread`` while the bot lacks ``deny`` in ``games``: no board is posted.  The answer ``other``
    gets."""
    boards = [m for m in standin.messages(thread) if is_board(m)]
    standin.set_permissions(games, standin.bot_user, deny=deny)
    await standin.settle()
    refused = await (await standin.click(other, question, label)).original()
    await bot.front.catchup.drain()
    assert [m for m in standin.messages(thread) if is_board(m)] == boards
    return refused


async def test_more_time_refused_is_posted_calling_on_the_late_player_alone(
    standin, bot_factory, table_clock, monkeypatch
):
    """A Nim player's clock runs out (the table does not skip them) and the other gives more time
    while the bot lacks Attach Files: the answer is said, its board (the late player's turn starting
    again, no move) is refused.  Once the permission is back, the board the retry posts calls on the
    late player as the refused one would have: a ping and a turn notice for them, nothing for the
    other."""
    monkeypatch.setattr(nim, "TABLE_MOVES", False)
    alice, bob = standin.add_users("alice", "bob")
    games = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        for user in (alice, bob):  # a mention and a direct message each
            await settings(standin, user, games, where="both")
        thread, _ = await open_clocked(standin, bot, games, alice, bob)
        late, other, session, question = await time_runs_out(standin, bot, thread, (alice, bob), table_clock)
        await standin.settle()
        notices = (len(turn_dms(standin, late)), len(turn_dms(standin, other)))
        refused = await more_time_refused(standin, bot, games, thread, other, question, ATTACH_FILES)
        assert "Attach Files" in refused.content, refused.content

        standin.set_permissions(games, standin.bot_user)
        await standin.settle()
        table_clock.advance(RETRY)
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        await standin.settle()
        board = standin.messages(thread)[-1]
        assert is_board(board) and board.pinged == {late.id}, board.content
        assert (await bot.sessions.core.get(session.id)).row.board_message_id == board.id
        assert (len(turn_dms(standin, late)), len(turn_dms(standin, other))) == (notices[0] + 1, notices[1])
        assert f"/{board.id}" in turn_dms(standin, late)[-1].content


async def test_an_undo_refused_inside_a_round_is_posted_by_its_job_after_a_restart(
    standin, bot_factory, table_clock
):
    """The bot stops while the undo's board inside the round waits for its ``board`` job, and
    Attach Files is back by its start: the start-up's catch-up leaves the round alone (no turn
    ended), and the job, stored with what it remembers, posts the undo's board at its time, once."""
    people = standin.add_users("alice", "bob", "carol")
    chan = standin.channel("games")
    make = bot_factory(ROUND_EXTENSIONS)
    async with standin.run_client(make) as bot:
        await standin.wait_synced()
        session = await undo_refused_inside_a_round(standin, bot, chan, people)
    standin.set_permissions(chan, standin.bot_user)
    async with standin.run_client(make) as bot:
        await standin.wait_synced()
        await bot.taken_up.wait()
        await bot.front.catchup.computers_settled()
        assert not taken_back(standin, chan)
        table_clock.advance(RETRY)
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        (board,) = taken_back(standin, chan)
        assert not board.pinged and standin.messages(chan)[-1].id == board.id
        assert (await bot.sessions.core.in_channel(chan.id)).row.board_message_id == board.id
        assert await bot.store.jobs.job(BOARD, str(session.id)) is None
