"""Through the stand-in: words that fit their reader (issue 32's item 7): the start of a game pings
every player, the end of a turn says how the next notice comes, a view out of turn says whose turn
it is, the end of the game is said once, and the lobby's thread line reads as a sentence."""

from __future__ import annotations

from tests.e2e.test_threads import open_in_thread
from tests.e2e.test_undo import ALL, is_board, nim_game


async def test_the_first_board_pings_every_player_not_only_the_first_to_move(standin, bot_factory):
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        lobby = await standin.slash(alice, chan, "nim new", thread=False, piles=3)
        await standin.click(bob, lobby.message, "Join")
        await standin.click(alice, lobby.message, "Start")
        first = await standin.next_message(chan, is_board)
        session = await bot.sessions.core.in_channel(chan.id)
    assert first.pinged == frozenset({alice.id, bob.id}), first.content  # was only the first to move
    assert first.content.startswith(
        f"**Nim** begins! Seats in play order: 1. <@{session.by_seat(0).user_id}>"
    )


async def test_a_turn_ends_with_how_the_next_notice_comes(standin, bot_factory):
    """A player who chose DM notices was told "you will be mentioned next time"."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        session, first, other = await nim_game(standin, bot, chan, alice, bob)
        await (await standin.slash(first, chan, "me notify", where="dm")).original()
        move = (await bot.sessions.play.legal_moves(chan.id, first.id))[0]
        answer = await (await standin.slash(first, chan, "nim move", move=move)).original()
        move = (await bot.sessions.play.legal_moves(chan.id, other.id))[0]
        thread_answer = await (await standin.slash(other, chan, "nim move", move=move)).original()
    assert answer.content.endswith(
        "Your turn is over: the board is in the channel, and a direct message tells you next time."
    ), answer.content
    assert thread_answer.content.endswith("and you will be mentioned next time."), thread_answer.content


async def test_a_view_out_of_turn_says_whose_turn_it_is(standin, bot_factory):
    alice, bob = standin.add_users("alice", "bob")
    bob.locale = "es-ES"
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        session, first, other = await nim_game(standin, bot, chan, alice, bob)
        seen = await (await standin.slash(other, chan, "game hand")).original()
    name = first.name.capitalize()
    if other is bob:
        assert f"(solo tú ves esto). Le toca a {name}, no a ti." in seen.content, seen.content
    else:
        assert f"(only you can see this). It is {name}'s turn, not yours." in seen.content, seen.content


async def test_the_end_of_the_game_is_said_once_to_the_last_mover(standin, bot_factory):
    """A Guanga confirmation said "The game is over: ..." twice: the engine's end, then the table's.
    Now the table's alone, since the engine's may name a winner the table's ranking does not."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        session, _, _ = await nim_game(standin, bot, chan, alice, bob)
        answer = None
        while session.status == "active":
            (seat,) = session.to_move()
            user = alice if session.by_seat(seat).user_id == alice.id else bob
            move = (await bot.sessions.play.legal_moves(chan.id, user.id))[-1]
            answer = await (await standin.slash(user, chan, "nim move", move=move)).original()
            session = await bot.sessions.core.get(session.id)
    assert answer is not None
    # The table says the end once; the engine's own end line (which names its own winner, where the
    # table's ranking may differ: a seat that resigned ranks last) is left to the channel's result.
    assert "took 3 from pile A." in answer.content and "wins" not in answer.content, answer.content
    assert answer.content.endswith("\nThe game is over: the result is in the channel."), answer.content
    assert answer.content.lower().count("game is over") == 1


async def test_the_lobby_says_where_the_game_is_played_in_a_sentence(standin, bot_factory):
    """It said "The game lives in its thread #Nim #1 · Alice: join here or with /game join there,
    then play there."""
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)):
        await standin.wait_synced()
        lobby, thread = await open_in_thread(standin, chan, alice)
    assert (
        f"Join with the buttons below; the game is played in its thread {thread.mention}, where /game join "
        "works too." in standin.message(lobby.id).content
    ), standin.message(lobby.id).content
