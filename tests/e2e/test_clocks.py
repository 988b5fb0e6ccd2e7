"""Game clocks end to end: a bank clock chosen in the lobby, running out, the question to the
others (buttons that work after a restart), the computer taking the seat after 24 hours with no
answer, /game return, and the "more time" and "abandon" answers.

Nim's table move (skipping a late player) is switched off here, so that running out of time asks
the others, as in the games without a table move.
"""

from __future__ import annotations

import pytest

from engines.guacamole.data import card_code
from tests.e2e import test_notices as notices
from tests.e2e.players import lobby_button, to_move
from tests.e2e.test_notices import EXTENSIONS, is_board, settings
from tests.support import nim

DAY, HOUR = 86400, 3600


@pytest.fixture(autouse=True)
def no_table_moves(monkeypatch):
    monkeypatch.setattr(nim, "TABLE_MOVES", False)


def is_question(message) -> bool:
    return "pk:tmo:" in " ".join(message.custom_ids)


async def open_clocked(standin, bot, chan, host, guest, clock="bank:1d+2h", game="nim", **options):
    """A two-player game (Nim of five piles by default) in its own thread with ``clock``,
    started; returns the thread."""
    options = options or ({"piles": 5} if game == "nim" else {})
    r = await standin.slash(host, chan, f"{game} new", clock=clock, **options)
    lobby = await r.original(lambda m: "pk:lobby:join:" in " ".join(m.custom_ids))
    assert "Clock: `bank:1d2h`" not in lobby.content  # the canonical form is bank:1d+2h
    thread = standin.channel(lobby.id)
    await standin.click(guest, lobby, lobby_button(lobby, "join"))  # labels are in the server's language
    await standin.click(host, lobby, lobby_button(lobby, "start"))
    await standin.next_message(thread, is_board)
    await bot.front.catchup.drain()
    return thread, lobby


async def time_runs_out(standin, bot, thread, users, table_clock, wait=DAY):
    """Nobody moves for ``wait``: the late player's bank runs out and the others are asked; the
    late player, another, the game as it was and the question."""
    late, session = await to_move(bot, thread, users)
    other = next(u for u in users if u is not late)
    table_clock.advance(wait)
    await bot.scheduler.run_due()
    return late, other, session, await standin.next_message(thread, is_question)


async def run_out(standin, bot, thread, users, table_clock, wait=DAY):
    """Nobody moves for a day: the late player's bank runs out and the others are asked (both
    pinged, as they want mentions)."""
    late, other, session, question = await time_runs_out(standin, bot, thread, users, table_clock, wait)
    assert late.id in question.pinged and other.id in question.pinged
    assert "time ran out" in question.content and "The first answer decides" in question.content
    assert "**give more time** (the full " in question.content and " again, from now)" in question.content
    return late, other, session, question


def told_by_dm(standin):
    """A person's direct messages about clocks that ran out, as a function of the person."""
    return lambda user: [m for m in standin.messages(standin.dm(user)) if "time ran out" in m.content.lower()]


async def smallest_to_the_end(standin, bot, thread, session, users):
    """Play a Nim game to its end, each of ``users`` taking the fewest stones; its session then."""
    while session.status == "active":
        user = next(u for u in users if u.id == session.by_seat(next(iter(session.to_move()))).user_id)
        move = min(nim.legal_moves(session.state, session.seat_of(user.id).seat), key=lambda m: m.count)
        await (await standin.slash(user, thread, "nim move", move=str(move))).original()
        await bot.front.catchup.drain()
        session = await bot.sessions.core.get(session.id)
    return session


async def test_bank_runs_out_nobody_answers_the_computer_takes_over_and_the_player_returns(
    standin, bot_factory, table_clock
):
    alice, bob = standin.add_users("alice", "bob")
    games = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        bad = await (await standin.slash(alice, games, "nim new", clock="3 days")).original()
        assert bad.ephemeral and "`bank:<start>+<increment>`" in bad.content
        assert await bot.sessions.store.games.live_session(games.id) is None
        thread, lobby = await open_clocked(standin, bot, games, alice, bob)
        assert "Clock: `bank:1d+2h`, a time bank of 1 d each, plus 2 h after each turn" in (
            standin.message(lobby.id).content
        )
        first, running = await to_move(bot, thread, (alice, bob))
        table_clock.advance(5 * HOUR)
        status = await (await standin.slash(alice, thread, "game status")).original()
        assert f"{running.seat_of(first.id).name} 19 h (to move)" in status.content
        mine = await (await standin.slash(alice, games, "game mine")).original()
        assert "⏱ bank:1d+2h:" in mine.content
        assert await bot.scheduler.run_due() == 0  # five hours of a day: nothing happens
        late, other, session, question = await run_out(
            standin, bot, thread, (alice, bob), table_clock, wait=19 * HOUR
        )
        refused = await standin.click(late, question, "Give more time")
        assert "The others decide" in (await refused.original()).content
        status = await (await standin.slash(other, thread, "game status")).original()
        assert f"{session.seat_of(late.id).name} out of time (the others are asked)" in status.content
    # A restart, and nobody answers for 24 hours: the computer takes the seat.
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        table_clock.advance(DAY - 1)
        await bot.scheduler.run_due()
        assert not (await bot.sessions.core.get(session.id)).by_seat(session.seat_of(late.id).seat).computer
        table_clock.advance(1)
        await bot.scheduler.run_due()
        said = await standin.next_message(thread, lambda m: m.content.startswith("No answer in time"))
        assert "the computer plays the seat from now on" in said.content
        board = await standin.next_message(
            thread, lambda m: is_board(m) and "computer plays that seat" in m.content
        )
        await bot.front.catchup.drain()
        after = await bot.sessions.core.get(session.id)
        seat = after.seat_of(late.id)
        assert seat.computer and after.to_move() == {1 - seat.seat}  # it moved for the late player
        assert "played by the computer (out of time)" in board.content
        # The question says it closed, and its buttons are gone.
        closed = standin.message(question.id)
        assert not closed.buttons and closed.content.endswith("\nClosed: nobody answered in time."), (
            closed.content
        )
        assert (await bot.sessions.core.get(session.id)).status == "active"
        # The late player takes the seat back, once.
        back = await (await standin.slash(late, thread, "game return")).original()
        assert "Your seat is yours again" in back.content
        await standin.next_message(thread, lambda m: "took their seat back" in m.content)
        again = await (await standin.slash(late, thread, "game return")).original()
        assert "your seat is yours" in again.content.lower()
        after = await bot.sessions.core.get(session.id)
        assert not after.seat_of(late.id).computer
        # Play it out: the seat that ran out ranks last, and the game is rated.
        after = await smallest_to_the_end(standin, bot, thread, after, (alice, bob))
        places = {r.user_id: r.place for r in await bot.store.ratings.results(session.id)}
        assert places == {other.id: 1, late.id: 2}
        rated = {r.user_id for r in await bot.store.ratings.leaderboard(standin.guild.id, "nim")}
        assert rated == {alice.id, bob.id}


async def test_more_time_after_a_restart_and_abandon(standin, bot_factory, table_clock):
    alice, bob = standin.add_users("alice", "bob")
    games = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, _ = await open_clocked(standin, bot, games, alice, bob)
        late, other, session, question = await run_out(standin, bot, thread, (alice, bob), table_clock)
    table_clock.advance(HOUR)
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:  # the buttons survive the restart
        answer = await standin.click(other, question, "Give more time")
        assert "Done: " in (await answer.original()).content
        said = await standin.next_message(thread, lambda m: "answered:" in m.content)
        assert f"{session.seat_of(late.id).name} has 1 d on their clock again, from now." in said.content
        board = await standin.next_message(thread, lambda m: is_board(m) and "1 d (to move)" in m.content)
        assert late.id in board.pinged
        await bot.front.catchup.drain()
        job = await bot.store.jobs.job("deadline", str(session.id))
        assert job.due_at == table_clock.time() + DAY  # the full start again, from now
        assert not [c for c in standin.message(question.id).custom_ids]  # no buttons
        # The day runs out again; this time the other player abandons the game.
        table_clock.advance(DAY)
        await bot.scheduler.run_due()
        second = await standin.next_message(thread, lambda m: is_question(m) and m.id != question.id)
        await (await standin.click(other, second, "Abandon the game")).original()
        await standin.next_message(thread, lambda m: "the game is abandoned" in m.content)
        ended = await bot.sessions.core.get(session.id)
        assert ended.status == "abandoned" and "time ran out" in ended.row.end_reason
        # answered: the job that would let the computer take the seat went with the answer
        assert await bot.store.jobs.job("timeout", f"{session.id}:{session.seat_of(late.id).seat}") is None
        assert not standin.message(second.id).buttons
        table_clock.advance(DAY)
        await bot.scheduler.run_due()
        assert (await bot.sessions.core.get(session.id)).status == "abandoned"
        assert await bot.store.jobs.job("timeout", f"{session.id}:{session.seat_of(late.id).seat}") is None


async def test_two_times_away_in_one_turn_both_pause_the_clock(standin, bot_factory, table_clock):
    """Bank 1 d.  The player to move goes away at once, comes back 12 h later, and goes away
    again 6 h after that for a day: both times away pause the clock (6 h used), so the bank runs
    out 18 h after the second time away ends, not 6 h after (which counting only the latest
    time away would give)."""
    alice, bob = standin.add_users("alice", "bob")
    games = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, _ = await open_clocked(standin, bot, games, alice, bob, clock="bank:1d")
        late, session = await to_move(bot, thread, (alice, bob))

        async def me(command, **options):
            answer = await (await standin.slash(late, games, command, **options)).original()
            assert not answer.content.startswith("⚠️"), answer.content
            await bot.scheduler.run_due()

        await me("me away", days=2)
        table_clock.advance(12 * HOUR)
        await me("me back")
        table_clock.advance(6 * HOUR)  # 6 h of the bank used
        await me("me away", days=1)
        table_clock.advance(DAY + 8 * HOUR)  # back for 8 h: 14 h used in all
        await bot.scheduler.run_due()
        await standin.settle()
        assert not [m for m in standin.messages(thread) if is_question(m)]
        status = await (await standin.slash(bob, thread, "game status")).original()
        assert f"{session.seat_of(late.id).name} 10 h (to move)" in status.content, status.content
        table_clock.advance(10 * HOUR)
        await bot.scheduler.run_due()
        question = await standin.next_message(thread, is_question)
        assert "time ran out" in question.content


async def test_a_timeout_whose_question_was_cut_short_by_a_restart_still_ends_after_a_day(
    standin, bot_factory, table_clock
):
    """The bot stops right after a bank ran out and was stored, before the question was posted
    (here the question's part does nothing, which leaves the database as a process killed at that
    moment would: the clocks saved, the deadline gone with them, no question).  After the restart, the computer still takes the seat
    when the day for answers is over, as the README promises; the game is not stuck for good."""
    alice, bob = standin.add_users("alice", "bob")
    games = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, _ = await open_clocked(standin, bot, games, alice, bob)
        late, session = await to_move(bot, thread, (alice, bob))

        async def stopped(out):
            return None  # the process stopped here

        bot.front.clocks.ask = stopped
        table_clock.advance(DAY)
        await bot.scheduler.run_due()
        seat = session.seat_of(late.id).seat
        assert seat in (await bot.sessions.core.get(session.id)).banks.pending
    table_clock.advance(HOUR)
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await bot.scheduler.run_due()
        table_clock.advance(DAY)
        await bot.scheduler.run_due()
        said = await standin.next_message(thread, lambda m: m.content.startswith("No answer in time"))
        assert "the computer plays the seat from now on" in said.content
        await bot.front.catchup.drain()
        after = await bot.sessions.core.get(session.id)
        assert after.by_seat(seat).computer and seat not in after.banks.pending


async def test_a_seat_taken_after_a_timeout_stays_so_when_the_clock_is_turned_off(
    standin, bot_factory, table_clock
):
    """The computer took the late player's seat; then the host turns the clock off.  The seat is
    still the late player's to take back once with /game return (the computer does not keep it
    for good), and the late player still ranks last, with "time ran out" beside their place."""
    alice, bob = standin.add_users("alice", "bob")
    games = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, _ = await open_clocked(standin, bot, games, alice, bob)
        late, other, session, _ = await run_out(standin, bot, thread, (alice, bob), table_clock)
        table_clock.advance(DAY)
        await bot.scheduler.run_due()
        await standin.next_message(thread, lambda m: m.content.startswith("No answer in time"))
        await bot.front.catchup.drain()
        off = await (await standin.slash(alice, thread, "game clock", clock="off")).original()
        assert not off.content.startswith("⚠️"), off.content
        await bot.front.catchup.drain()
        back = await (await standin.slash(late, thread, "game return")).original()
        assert "Your seat is yours again" in back.content, back.content
        after = await bot.sessions.core.get(session.id)
        assert not after.seat_of(late.id).computer and after.clock is None
        again = await (await standin.slash(late, thread, "game return")).original()
        assert "your seat is yours" in again.content.lower()
        after = await smallest_to_the_end(standin, bot, thread, after, (alice, bob))
        places = {r.user_id: r.place for r in await bot.store.ratings.results(session.id)}
        assert places == {other.id: 1, late.id: 2}


async def test_more_time_closes_an_undo_request_asked_during_the_question_as_a_clock_change(
    standin, bot_factory, table_clock
):
    """An undo request asked while the others are asked about a timeout is voided by "Give more
    time" (the clock starts again, no move is played): its message says the clock changed, not
    that a move was played."""
    from tests.e2e.test_notices import play_one

    alice, bob = standin.add_users("alice", "bob")
    games = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, _ = await open_clocked(standin, bot, games, alice, bob)
        await play_one(standin, bot, thread, (alice, bob))
        await bot.front.catchup.drain()
        late, other, session, question = await run_out(standin, bot, thread, (alice, bob), table_clock)
        asked = await (await standin.slash(other, thread, "game undo")).original()
        assert "Asked" in asked.content
        request = await standin.next_message(thread, lambda m: "asks to take back" in m.content and m.buttons)
        await (await standin.click(other, question, "Give more time")).original()
        await standin.next_message(thread, lambda m: is_board(m) and "1 d (to move)" in m.content)
        await bot.front.catchup.drain()
        await bot.front.replies.idle()
        closed = standin.message(request.id)
        assert not closed.buttons
        assert "Closed: the game's clock changed" in closed.content
        assert "a move was played" not in closed.content
        assert await bot.sessions.store.history.undo_request(session.id) is None


async def test_the_late_players_own_undo_starts_their_turn_again_with_their_time_still_out(
    standin, bot_factory, table_clock
):
    """Each has moved once; then the late player's bank runs out and the other is asked.  The late
    player asks to take back their last move (and the other's after it), and the other agrees: it
    is the late player's turn again, a new turn, with their time still spent (an undo gives no time
    back), so the question comes again at once; the old one's buttons say it is closed."""
    from tests.e2e.test_notices import play_one

    alice, bob = standin.add_users("alice", "bob")
    users = (alice, bob)
    games = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, _ = await open_clocked(standin, bot, games, alice, bob, clock="bank:1d")
        await play_one(standin, bot, thread, users)
        await play_one(standin, bot, thread, users)
        late, other, session, question = await run_out(standin, bot, thread, users, table_clock)
        table_clock.advance(HOUR)
        asked = await (await standin.slash(late, thread, "game undo")).original()
        assert "Asked" in asked.content, asked.content
        request = await standin.next_message(thread, lambda m: "asks to take back" in m.content and m.buttons)
        agreed = await standin.click(other, request, "Agree")
        assert agreed.type == 7 and "taken back" in agreed.content
        await bot.front.catchup.drain()
        table_clock.advance(1)
        await bot.scheduler.run_due()
        again = await standin.next_message(thread, lambda m: is_question(m) and m.id != question.id)
        assert late.id in again.pinged and "time ran out" in again.content
        session = await bot.sessions.core.get(session.id)
        assert session.seat_of(late.id).seat in session.banks.pending
        old = standin.message(question.id)
        assert not old.buttons and old.content.endswith(
            "\nClosed: the game changed before anyone answered."
        ), old.content
        await (await standin.click(other, again, "Give more time")).original()
        session = await bot.sessions.core.get(session.id)
        assert session.banks.banks[session.seat_of(late.id).seat] == DAY


async def test_the_timeout_question_reaches_each_person_as_their_notices_ask(
    standin, bot_factory, table_clock
):
    """The question pings only those who want a mention in the thread (``/me notify``); those who
    want a direct message get one with a link to it (the late player told that they can still
    move), those who want none get neither, and a refused direct message becomes a mention under
    the question."""
    alice, bob = standin.add_users("alice", "bob")
    games = standin.channel("games")
    dms = told_by_dm(standin)
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, _ = await open_clocked(standin, bot, games, alice, bob)
        late, session = await to_move(bot, thread, (alice, bob))
        other = bob if late is alice else alice
        await settings(standin, late, games, where="dm")
        await settings(standin, other, games, where="none")
        table_clock.advance(DAY)
        await bot.scheduler.run_due()
        question = await standin.next_message(thread, is_question)
        assert question.pinged == frozenset()  # neither wants a mention in the thread
        assert f"<@{other.id}>: what now?" in question.content  # named all the same
        (told,) = dms(late)
        assert told.content.startswith("⏰ Your time ran out in Nim game #"), told.content
        assert f"/{thread.id}/{question.id}" in told.content and "you can still move" in told.content
        assert dms(other) == []
        assert not [m for m in standin.messages(thread) if "question about the clock" in m.content]
        # The late player moves (which closes the question); then the other runs out, wanting a
        # direct message with theirs closed: a mention instead; the first wants one too.
        await (await standin.slash(late, thread, "nim move", move="A1")).original()
        await bot.front.catchup.drain()
        assert (await to_move(bot, thread, (alice, bob)))[0] is other
        await settings(standin, other, games, where="dm")
        standin.close_dms(other)
        table_clock.advance(DAY)
        await bot.scheduler.run_due()
        question = await standin.next_message(thread, is_question)
        assert question.pinged == frozenset()
        name = session.seat_of(other.id).name
        (_, said) = dms(late)
        assert said.content.startswith(f"⏰ Time ran out for {name} in Nim game #"), said.content
        assert f"/{thread.id}/{question.id}" in said.content and "the first answer decides" in said.content
        above = await standin.next_message(thread, lambda m: "question about the clock" in m.content)
        assert above.pinged == frozenset({other.id}) and above.content.startswith(f"<@{other.id}>:")
        assert dms(other) == []


async def test_a_question_closed_by_a_move_or_the_end_says_so_and_loses_its_buttons(
    standin, bot_factory, table_clock
):
    """The late player moves after a restart: the question (remembered by its stored job) says it
    closed and why, and its buttons go; in a second game, a resignation ends the game while a
    question is open: it says the game ended."""
    alice, bob = standin.add_users("alice", "bob")
    games = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, _ = await open_clocked(standin, bot, games, alice, bob)
        late, other, session, question = await run_out(standin, bot, thread, (alice, bob), table_clock)
        assert question.buttons
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await (await standin.slash(late, thread, "nim move", move="A1")).original()
        await bot.front.catchup.drain()
        closed = standin.message(question.id)
        name = session.seat_of(late.id).name
        assert not closed.buttons, closed.components
        assert closed.content.endswith(f"\nClosed: {name} moved before anyone answered."), closed.content
        assert await bot.store.jobs.job("timeout", f"{session.id}:{session.seat_of(late.id).seat}") is None
        # the second game: the other player resigns while the question is open
        second, _ = await open_clocked(standin, bot, games, alice, bob)
        late, other, session, question = await run_out(standin, bot, second, (alice, bob), table_clock)
        await (await standin.slash(other, second, "game resign")).original()
        await bot.front.catchup.drain()
        closed = standin.message(question.id)
        assert not closed.buttons and closed.content.endswith(
            "\nClosed: the game ended before anyone answered."
        )


async def test_a_timeout_question_in_quiet_hours_is_told_when_they_end_if_still_open(
    standin, bot_factory, table_clock
):
    """Both players want direct messages only, with quiet hours 22-7 in Lima, and the game starts at
    03:00 there.  A bank that runs out at 03:00 is told to nobody then (no ping, no message); its
    question, closed by the late player's move at 04:00, is never told.  The other's bank runs out
    the next night at 04:00: the late player, who turns quiet hours off then, gets their message at
    once, the other at 07:00, when quiet hours end, each with the link to the question, still open."""
    alice, bob = standin.add_users("alice", "bob")
    games = standin.channel("games")
    dms = told_by_dm(standin)
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        for user in (alice, bob):
            await settings(
                standin, user, games, where="dm", reminders=0, time_zone="America/Lima", quiet="22-7"
            )
        thread, _ = await open_clocked(standin, bot, games, alice, bob)
        late, session = await to_move(bot, thread, (alice, bob))
        other = bob if late is alice else alice
        table_clock.advance(DAY)  # 03:00 in Lima
        await bot.scheduler.run_due()
        first = await standin.next_message(thread, is_question)
        assert first.pinged == frozenset() and dms(alice) == dms(bob) == []
        table_clock.advance(HOUR)
        await (await standin.slash(late, thread, "nim move", move="A1")).original()  # closes it
        await bot.front.catchup.drain()
        table_clock.advance(3 * HOUR)  # 07:00: quiet hours over, nothing open to tell
        await bot.scheduler.run_due()
        assert dms(alice) == dms(bob) == []
        table_clock.advance(DAY - 3 * HOUR)  # the other's day ran out at 04:00
        await bot.scheduler.run_due()
        second = await standin.next_message(thread, lambda m: is_question(m) and m.id != first.id)
        assert second.pinged == frozenset() and dms(alice) == dms(bob) == []
        await settings(standin, late, games, quiet="off")  # what quiet hours held comes at once
        await bot.scheduler.run_due()
        (theirs,) = dms(late)
        name = session.seat_of(other.id).name
        assert theirs.content.startswith(f"⏰ Time ran out for {name} in Nim game #"), theirs.content
        assert f"/{thread.id}/{second.id}" in theirs.content
        assert dms(other) == []
        table_clock.advance(3 * HOUR)
        await bot.scheduler.run_due()
        (mine,) = dms(other)
        assert mine.content.startswith("⏰ Your time ran out in Nim game #"), mine.content
        assert f"/{thread.id}/{second.id}" in mine.content
        assert len(dms(late)) == 1
        assert not await bot.store.jobs.pending("timeout_notice")  # told once


async def test_the_board_after_an_undo_shows_the_clocks_without_the_increments_taken_back(
    standin, bot_factory, table_clock
):
    """bank:1d+12h.  The first player spends 20 h and moves (16 h left), the other spends 2 h and
    moves (a full day again), then the first thinks an hour and asks to take both moves back, and
    the other agrees.  The board posted after the undo shows the first player to move with 3 h
    (the 4 h they had before their move, less the hour since) and the other with the 22 h their
    thinking left them: no increment of a move taken back stays, and the undo earns none."""
    users = standin.add_users("alice", "bob")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, _ = await open_clocked(standin, bot, standin.channel("games"), *users, clock="bank:1d+12h")
        first, session = await to_move(bot, thread, users)
        (other,) = (u for u in users if u is not first)
        mine, theirs = session.seat_of(first.id), session.seat_of(other.id)
        table_clock.advance(20 * HOUR)
        await notices.play_one(standin, bot, thread, users)
        table_clock.advance(2 * HOUR)
        board = await notices.play_one(standin, bot, thread, users)
        assert f"{mine.name} 16 h (to move)" in board.content, board.content
        table_clock.advance(HOUR)
        asked = await (await standin.slash(first, thread, "game undo")).original()
        assert "Asked" in asked.content, asked.content
        request = await standin.next_message(thread, lambda m: "asks to take back" in m.content and m.buttons)
        await standin.click(other, request, "Agree")
        board = await standin.next_message(thread, lambda m: is_board(m) and "took back" in m.content)
        parts = sorted([(mine.seat, f"{mine.name} 3 h (to move)"), (theirs.seat, f"{theirs.name} 22 h")])
        assert "⏱ bank:1d+12h: " + ", ".join(p for _, p in parts) in board.content, board.content
        await bot.front.catchup.drain()
        status = await (await standin.slash(other, thread, "game status")).original()
        assert f"{mine.name} 3 h (to move)" in status.content, status.content
        job = await bot.store.jobs.job("deadline", str(session.id))
        assert job.due_at == table_clock.time() + 3 * HOUR


async def test_more_time_tells_the_late_player_their_turn_again_and_nobody_else(
    standin, bot_factory, table_clock
):
    """Both want direct messages.  The late player's time runs out and the other gives more time:
    the board after it starts the late player's turn again, so they get a turn notice (a board
    posted inside a turn DMs nobody else); the other, not to move, gets none."""
    alice, bob = standin.add_users("alice", "bob")
    games = standin.channel("games")

    def turn_dms(user) -> list:
        return [m for m in standin.messages(standin.dm(user)) if m.content.startswith("It is your turn")]

    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        for user in (alice, bob):
            await settings(standin, user, games, where="dm")
        thread, _ = await open_clocked(standin, bot, games, alice, bob)
        late, other, _, question = await time_runs_out(standin, bot, thread, (alice, bob), table_clock)
        await standin.settle()
        assert (len(turn_dms(late)), len(turn_dms(other))) == (1, 0)
        await (await standin.click(other, question, "Give more time")).original()
        board = await standin.next_message(thread, lambda m: is_board(m) and "1 d (to move)" in m.content)
        await bot.front.catchup.drain()
        await standin.settle()
        assert (len(turn_dms(late)), len(turn_dms(other))) == (2, 0)
        assert f"/{board.id}" in turn_dms(late)[-1].content


GUACAMOLE = (*EXTENSIONS, "cogs.guacamole")


async def step_after_timeout(standin, bot, table_clock):
    """Guacamole on `bank:1d+1h` (extensions :data:`GUACAMOLE`): the first player's bank runs out
    and the other is asked; an hour later the late player makes a step of the turn (a preparation,
    which does not end it).  Returns the thread, the late player, the other, the session, the
    question."""
    alice, bob = standin.add_users("alice", "bob")
    await standin.wait_synced()
    thread, _ = await open_clocked(
        standin, bot, standin.channel("games"), alice, bob, clock="bank:1d+1h", game="guacamole"
    )
    late, other, session, question = await time_runs_out(standin, bot, thread, (alice, bob), table_clock)
    card = card_code(session.state.hands[session.seat_of(late.id).seat][0])
    table_clock.advance(HOUR)
    stepped = await (await standin.slash(late, thread, "guacamole prepare", card=card)).original()
    assert f"`prep {card}`" in stepped.text, stepped.text
    return thread, late, other, session, question


async def test_a_late_player_who_makes_a_step_and_goes_silent_leaves_the_seat_to_the_computer(
    standin, bot_factory, table_clock
):
    """Guacamole on `bank:1d+1h`: the first player's bank runs out and the other is asked; the late
    player makes a step of the turn (a preparation, which does not end it), which closes the
    question to the other, and then goes silent.  When the question's 24 hours are over the
    computer takes the seat and finishes the turn, saying the late player did not finish the turn in time; the
    game goes on (it waited on nobody for ever)."""
    async with standin.run_client(bot_factory(GUACAMOLE)) as bot:
        thread, late, other, session, question = await step_after_timeout(standin, bot, table_clock)
        seat = session.seat_of(late.id).seat
        status = await (await standin.slash(other, thread, "game status")).original()
        name = session.seat_of(late.id).name
        assert f"{name} out of time (to finish the turn: 23 h left)" in status.content, status.content
        assert "the others are asked" not in status.content
        refused = await (await standin.click(other, question, "Computer plays the seat")).original()
        assert "That question is closed" in refused.content, refused.content
        table_clock.advance(23 * HOUR)
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        name = session.seat_of(late.id).name
        told = await standin.next_message(thread, lambda m: "did not finish the turn in time" in m.content)
        assert (
            told.content
            == f"{name} did not finish the turn in time: the computer plays the seat from now on."
        )
        closed = standin.message(question.id)  # closed by the step: its buttons go, saying so
        assert not closed.buttons and closed.content.endswith(
            f"\nClosed: {name} moved before anyone answered."
        )
        session = await bot.sessions.core.get(session.id)
        assert session.by_seat(seat).computer and session.status == "active"
        assert session.to_move() == {1 - seat}  # the computer finished the turn
