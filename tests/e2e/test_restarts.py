"""The bot stopped between a change that was stored and its post: after the restart what was
stored is told, once."""

from __future__ import annotations

from tests.e2e.conftest import BASE_EXTENSIONS
from tests.e2e.test_notices import is_board


async def test_a_last_move_stored_and_never_posted_gets_its_last_board_at_the_next_start(
    standin, bot_factory
):
    """The winning move and the game's end are stored, and the bot stops before the last board
    is posted (a kill between the commit and the post): the bot started again posts the last
    board, with the result, and the results card, once; a second start posts nothing more."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(BASE_EXTENSIONS)) as bot:
        await standin.wait_synced()
        lobby = await standin.slash(alice, chan, "nim new", thread=False, piles=1)
        await standin.click(bob, lobby.message, "Join")
        await standin.click(alice, lobby.message, "Start")
        await standin.next_message(chan, is_board)
        session = await bot.sessions.core.in_channel(chan.id)
        (seat,) = session.to_move()
        winner = session.by_seat(seat)
        legal = await bot.sessions.play.legal_moves(chan.id, winner.user_id)
        # committed, as a move is before its post; the process goes before posting it
        result = await bot.sessions.play.play(chan.id, winner.user_id, legal[-1])
        assert result.finished
        standin.skip_messages(chan)
    async with standin.run_client(bot_factory(BASE_EXTENSIONS)) as bot:
        await standin.wait_synced()
        board = await standin.next_message(chan, is_board)
        assert board.content.startswith(f"{winner.name} took"), board.content
        assert "**Game over**" in board.content and f"1st: <@{winner.user_id}>" in board.content
        card = await standin.next_message(chan, lambda m: m.content.startswith("**Results**"))
        assert "Rematch" in " ".join(b["label"] for b in card.buttons)
        await bot.front.boards.computers_settled()
        row = (await bot.sessions.core.get(session.id)).row
        assert row.board_message_id == board.id and row.told_through == 1
        count = len(standin.messages(chan))
    async with standin.run_client(bot_factory(BASE_EXTENSIONS)) as bot:
        await standin.wait_synced()
        await bot.front.boards.computers_settled()
        assert len(standin.messages(chan)) == count
