"""The strong computer in a worker process, through Discord: a person's move is posted at once
and the strong computer's turn follows in a post of its own; a computer still to move when the
bot stopped moves when it starts again."""

from __future__ import annotations

from bot.sessions import SessionService
from bot.storage import open_store


def is_board(message) -> bool:
    return bool(message.files) and not message.ephemeral


def told(message, who: str) -> bool:
    return is_board(message) and f"{who} took" in message.content


async def test_the_persons_post_comes_first_and_a_restart_keeps_the_computers_move(
    standin, bot_factory, table_clock, tmp_path
):
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(computer_workers=1, computer_seconds=0.05)) as bot:
        await standin.wait_synced()
        assert bot.computers is not None and bot.computers.workers == 1
        lobby = await standin.slash(alice, chan, "nim new", thread=False)
        added = await (await standin.slash(alice, chan, "game computer", level="strong")).original()
        assert "(strong)" in added.content
        standin.skip_messages(chan)
        await standin.click(alice, lobby.message, "Start")
        await standin.next_message(chan, is_board)
        legal = await bot.sessions.play.legal_moves(chan.id, alice.id)
        r = await standin.slash(alice, chan, "nim move", move=legal[0])
        assert "You played" in (await r.original()).content
        mine = await standin.next_message(chan, is_board)
        assert told(mine, "Alice") and "Cpu Ada took" not in mine.content
        theirs = await standin.next_message(chan, is_board)
        assert told(theirs, "Cpu Ada") and "Alice took" not in theirs.content
        assert alice.id in theirs.pinged
        await bot.front.catchup.computers_settled()
        session = await bot.sessions.core.in_channel(chan.id)
        assert session.status == "active" and session.to_move() == {session.seat_of(alice.id).seat}

    # The bot is stopped after alice's move was recorded and before the computer moved.
    store = await open_store(str(tmp_path / "e2e.db"), clock=table_clock)
    try:
        service = SessionService(store)
        service.computers_wait = True
        legal = await service.play.legal_moves(chan.id, alice.id)
        result = await service.play.play(chan.id, alice.id, legal[0])
        assert result.computers_next and not any(p.by_computer for p in result.played)
        moves = len(await store.history.moves(result.session.id))
    finally:
        await store.close()

    async with standin.run_client(bot_factory(computer_workers=1, computer_seconds=0.05)) as bot:
        await standin.wait_synced()
        await standin.next_message(chan, lambda m: told(m, "Cpu Ada"))
        await bot.front.catchup.computers_settled()
        log = await bot.store.history.moves(result.session.id)
        assert len(log) == moves + 1 and log[-1].by_computer


async def test_a_strong_computer_to_move_first_moves_after_the_first_board(standin, bot_factory):
    """Start: the first board is posted at once (the game has begun, the computer named to move),
    and the strong computer's first turn follows in a post of its own."""
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(computer_workers=1, computer_seconds=0.05)) as bot:
        await standin.wait_synced()
        bot.sessions.new_seed = lambda: 6  # the computer's seat moves first
        lobby = await standin.slash(alice, chan, "nim new", thread=False)
        await (await standin.slash(alice, chan, "game computer", level="strong")).original()
        standin.skip_messages(chan)
        await standin.click(alice, lobby.message, "Start")
        first = await standin.next_message(chan, is_board)
        assert "Cpu Ada took" not in first.content and "Cpu Ada" in first.content, first.content
        theirs = await standin.next_message(chan, is_board)
        assert told(theirs, "Cpu Ada") and alice.id in theirs.pinged
        await bot.front.catchup.computers_settled()
        session = await bot.sessions.core.in_channel(chan.id)
        assert session.to_move() == {session.seat_of(alice.id).seat}
        assert [m.by_computer for m in await bot.store.history.moves(session.id)] == [True]


async def test_a_computers_turn_recorded_but_not_posted_before_a_stop_is_posted_at_the_next_start(
    standin, bot_factory, table_clock, tmp_path
):
    """The bot stopped after the computer's turn was recorded and before its board was posted (a
    crash, or a shutdown that could not wait): at the next start the channel is told the turn,
    alice is mentioned, and nobody moves twice."""
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        lobby = await standin.slash(alice, chan, "nim new", thread=False)
        await (await standin.slash(alice, chan, "game computer", level="normal")).original()
        await standin.click(alice, lobby.message, "Start")
        await standin.next_message(chan, is_board)
        await bot.front.catchup.computers_settled()
        session = await bot.sessions.core.in_channel(chan.id)
        if session.seat_of(alice.id).seat not in session.to_move():
            await standin.next_message(chan, lambda m: told(m, "Cpu Ada"))

    store = await open_store(str(tmp_path / "e2e.db"), clock=table_clock)
    try:
        service = SessionService(store)
        service.computers_wait = True
        legal = await service.play.legal_moves(chan.id, alice.id)
        result = await service.play.play(chan.id, alice.id, legal[0])
        assert [p.by_computer for p in result.played] == [False, True]  # recorded, never posted
        moves = len(await store.history.moves(result.session.id))
    finally:
        await store.close()

    standin.skip_messages(chan)
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        board = await standin.next_message(chan, is_board)
        assert told(board, "Alice") and told(board, "Cpu Ada") and alice.id in board.pinged
        await bot.front.catchup.computers_settled()
        assert len(await bot.store.history.moves(result.session.id)) == moves
        session = await bot.sessions.core.in_channel(chan.id)
        assert session.row.board_message_id == board.id


async def test_after_a_resignation_the_strong_computers_turn_gets_a_post_of_its_own(standin, bot_factory):
    """The person before the strong computer resigns on their turn: the resignation is posted
    with the normal computer's move for their seat, and the strong computer's turn follows in a
    post of its own."""
    alice, bob = standin.add_user("alice"), standin.add_user("bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(computer_workers=1, computer_seconds=0.05)) as bot:
        await standin.wait_synced()
        lobby = await standin.slash(alice, chan, "nim new", thread=False, players=3)
        await standin.click(bob, lobby.message, "Join")
        await (await standin.slash(alice, chan, "game computer", level="strong")).original()
        standin.skip_messages(chan)
        await standin.click(alice, lobby.message, "Start")
        await standin.next_message(chan, is_board)
        await bot.front.catchup.computers_settled()
        session = await bot.sessions.core.in_channel(chan.id)
        cpu = next(s.seat for s in session.seats if s.computer)
        leaving = next(u for u in (alice, bob) if session.seat_of(u.id).seat == (cpu - 1) % 3)
        staying = bob if leaving is alice else alice
        while session.seat_of(leaving.id).seat not in session.to_move():
            legal = await bot.sessions.play.legal_moves(chan.id, staying.id)
            r = await standin.slash(staying, chan, "nim move", move=legal[0])
            assert "You played" in (await r.original()).content
            await bot.front.catchup.computers_settled()
            session = await bot.sessions.core.in_channel(chan.id)
        standin.skip_messages(chan)
        r = await standin.slash(leaving, chan, "game resign")
        assert "You resigned" in (await r.original()).content
        resigned = await standin.next_message(chan, is_board)
        name = leaving.name.capitalize()
        assert "resigned" in resigned.content and told(resigned, name)
        assert "Cpu Ada took" not in resigned.content
        theirs = await standin.next_message(chan, is_board)
        assert told(theirs, "Cpu Ada") and f"{name} took" not in theirs.content
        assert staying.id in theirs.pinged
        await bot.front.catchup.computers_settled()
