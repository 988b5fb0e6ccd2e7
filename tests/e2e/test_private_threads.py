"""A game in a private thread a person started: Discord shows such a thread only to its members
(and to those who may manage threads, which the bot's invite does not ask for), so the bot plays
there once someone has added it, and says how when nobody has."""

from __future__ import annotations

from tests.e2e.players import to_move
from tests.standin.model import BOT_PERMISSIONS, MANAGE_THREADS


def is_board(message) -> bool:
    return bool(message.files) and not message.ephemeral


async def private_table(standin, *people):
    """A private thread the first of ``people`` starts in #games, the others added to it; the bot
    may not manage threads (as invited)."""
    standin.set_role_permissions(standin.bot_role, BOT_PERMISSIONS & ~MANAGE_THREADS)
    chan = standin.channel("games")
    thread = standin.start_thread(people[0], chan, "our table", private=True)
    for person in people[1:]:
        standin.add_to_thread(people[0], thread, person)
    return thread


async def test_a_game_in_a_private_thread_waits_until_someone_adds_the_bot(standin, bot_factory):
    """``/nim new`` in a private thread the bot is not in is refused, saying how to add it, and
    opens nothing; once Alice has added the bot the game opens, and its boards reach the thread."""
    alice, bob = standin.add_users("alice", "bob")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        thread = await private_table(standin, alice, bob)
        refused = await standin.slash(alice, thread, "nim new", piles=3)
        assert (
            refused.ephemeral and "This private thread is closed to me, so I cannot post" in refused.content
        )
        assert "mention me in the thread" in refused.content
        assert await bot.sessions.core.in_channel(thread.id) is None
        assert standin.bot_user.id not in thread.thread_members

        standin.add_to_thread(alice, thread, standin.bot_user)  # Alice mentions the bot there
        lobby = await standin.slash(alice, thread, "nim new", piles=3)
        assert not lobby.ephemeral
        await standin.click(bob, lobby.message, "Join")
        await standin.click(alice, lobby.message, "Start")
        board = await standin.next_message(thread, is_board)
        mover, _ = await to_move(bot, thread, (alice, bob))
        assert f"<@{mover.id}>" in board.content


async def test_a_bot_removed_from_a_private_thread_says_it_cannot_view_it_not_a_missing_permission(
    standin, bot_factory
):
    """Alice takes the bot out of the thread mid-game: the next move is kept, and its answer says
    Discord refused the bot access there and how to add it back, not that a server admin should
    grant a permission (none is missing)."""
    alice, bob = standin.add_users("alice", "bob")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        thread = await private_table(standin, alice, bob)
        standin.add_to_thread(alice, thread, standin.bot_user)
        lobby = await standin.slash(alice, thread, "nim new", piles=3)
        await standin.click(bob, lobby.message, "Join")
        await standin.click(alice, lobby.message, "Start")
        await standin.next_message(thread, is_board)
        standin.remove_from_thread(alice, thread, standin.bot_user)
        await standin.settle()
        mover, session = await to_move(bot, thread, (alice, bob))
        legal = await bot.sessions.play.legal_moves(thread.id, mover.id)
        answer = await (await standin.slash(mover, thread, "nim move", move=legal[0])).original()
        assert (await bot.sessions.core.get(session.id)).version == session.version + 1  # the move is kept
        assert "Discord refused me access here" in answer.content, answer.content
        assert "mention me in it" in answer.content and "admin" not in answer.content
